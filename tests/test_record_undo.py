"""Undo in the record: an entry of the append-only log that cancels the last decision.

The state after an undo is exactly the state before the decision it cancels (the Penta
bonus and the Joker included); a throw is never undone, nor the computer's decision.
"""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from play_support import farkle_move, yams_move
from record_support import counting, standing
from support import WHOLE_GAMES
from zar import farkle, yams
from zar.record import Abandon, Action, Move, Record, Undo
from zar.table import IllegalAction, Seat, replay
from zar.yams import Box

ALI = Seat("Ali")
ECE = Seat("Ece")
IA = Seat("IA", computer=True, level="easy")


def played(record: Record, *actions: Action) -> Record:
    for action in actions:
        record = record.append(action)
    return record


def refused(record: Record) -> None:
    """No undo now: the record says so, and refuses one, changing nothing."""
    assert not record.can_undo
    with pytest.raises(IllegalAction) as err:
        record.undo()
    assert err.value.reason == "nothing-to-undo"
    for seat in range(len(record.seats)):
        with pytest.raises(IllegalAction):
            record.append(Undo(seat))


def test_undoing_a_box_gives_back_the_state_before_it() -> None:
    record = played(Record.new("yams", (ALI, ECE)), yams.Throw(0, (), (2, 2, 3, 3, 3)))
    before = record.state
    written = record.append(yams.Fill(0, Box.FULL_HOUSE))
    assert written.can_undo
    undo = written.undo()
    assert undo == Undo(0)
    back = written.append(undo)
    assert back.state == before
    assert back.state.events == ()  # the undone box is not announced again
    assert back.version == 3
    assert back.undone == frozenset({2})
    assert back.state.options == before.options
    # Written elsewhere instead: the same state as if the first box had never been written.
    elsewhere = back.append(yams.Fill(0, Box.THREES))
    assert elsewhere.state == before.apply(yams.Fill(0, Box.THREES))


def penta_card() -> Record:
    """Ali's card: FOURS written, then a Penta of 3s in the Penta box (50)."""
    record = Record.new("yams", (ALI,))
    return played(
        record,
        yams.Throw(0, (), (4, 4, 4, 1, 2)),
        yams.Fill(0, Box.FOURS),
        yams.Throw(0, (), (3, 3, 3, 3, 3)),
        yams.Fill(0, Box.PENTA),
    )


def test_a_joker_penta_with_its_bonus_undone_and_written_elsewhere() -> None:
    """docs/rules.md: a second Penta, its upper box filled, goes in a lower box as the Joker and
    earns +100; undone, it is written elsewhere with the same +100, never twice."""
    record = played(penta_card(), yams.Throw(0, (), (4, 4, 4, 4, 4)))
    assert record.state.card.penta == 50
    before = record.state
    assert set(before.options) == {box for box in yams.LOWER if before.card[box] is None}
    full = record.append(yams.Fill(0, Box.FULL_HOUSE))
    card = full.state.cards[0]
    assert (card[Box.FULL_HOUSE], card.penta_bonus) == (25, 100)
    back = full.append(full.undo())
    assert back.state == before
    assert back.state.cards[0].penta_bonus == 0
    large = back.append(yams.Fill(0, Box.LARGE_STRAIGHT))
    card = large.state.cards[0]
    assert (card[Box.LARGE_STRAIGHT], card[Box.FULL_HOUSE], card.penta_bonus) == (40, None, 100)
    assert card.total == 12 + 50 + 40 + 100
    assert large.state == replay(large.start, standing(large))


def test_the_forced_joker_comes_back_with_the_undo() -> None:
    """A Penta of 3s after a Penta of 50, THREES open: the Joker forces THREES; the undo
    gives back that same single choice."""
    record = played(
        Record.new("yams", (ALI,)),
        yams.Throw(0, (), (6, 6, 6, 6, 6)),
        yams.Fill(0, Box.PENTA),
        yams.Throw(0, (), (3, 3, 3, 3, 3)),
    )
    assert list(record.state.options) == [Box.THREES]
    written = record.append(yams.Fill(0, Box.THREES))
    assert written.state.cards[0].penta_bonus == 100
    back = written.append(written.undo())
    assert list(back.state.options) == [Box.THREES]
    assert back.state.cards[0].penta_bonus == 0
    with pytest.raises(IllegalAction) as err:
        back.append(yams.Fill(0, Box.CHANCE))
    assert err.value.reason == "joker-forced"


def test_undo_walks_back_a_bank_then_the_set_aside_then_stops_at_the_throw() -> None:
    start = Record.new("10000", (ALI, ECE), target=5_000)
    record = start.append(farkle.Throw(0, (1, 5, 2, 3, 4, 6)))
    thrown = record.state
    aside = record.append(farkle.SetAside(0, (0, 1)))
    set_aside = aside.state
    banked = aside.append(farkle.Bank(0))
    assert banked.state.totals == (150, 0)
    assert banked.state.seat == 1
    once = banked.append(banked.undo())
    assert once.state == set_aside
    assert once.state.seat == 0
    twice = once.append(once.undo())
    assert twice.state == thrown
    assert twice.undone == frozenset({2, 3})
    refused(twice)
    # Set aside otherwise, then throw: the new set-aside could be undone until that throw.
    again = twice.append(farkle.SetAside(0, (0,)))
    assert again.can_undo
    refused(again.append(farkle.Throw(0, (2, 2, 3, 3, 4))))


def test_no_undo_at_the_start_nor_after_a_throw() -> None:
    refused(Record.new("yams", (ALI,)))
    refused(Record.new("10000", (ALI,)))
    refused(played(Record.new("yams", (ALI,)), yams.Throw(0, (), (1, 2, 3, 4, 5))))


def test_no_undo_once_the_next_player_has_thrown() -> None:
    record = played(
        Record.new("yams", (ALI, ECE)),
        yams.Throw(0, (), (1, 2, 3, 4, 5)),
        yams.Fill(0, Box.LARGE_STRAIGHT),
    )
    assert record.can_undo  # Ece has not thrown yet
    refused(record.append(yams.Throw(1, (), (6, 6, 1, 2, 3))))


def test_the_computers_decision_is_never_undone() -> None:
    record = played(
        Record.new("10000", (ALI, IA), target=5_000),
        farkle.Throw(0, (2, 2, 3, 3, 4, 6)),  # lost: the computer's turn
        farkle.Throw(1, (1, 2, 3, 4, 6, 6)),
        farkle.SetAside(1, (0,)),
    )
    refused(record)
    refused(record.append(farkle.Bank(1)))


def test_an_undo_names_the_seat_whose_decision_it_takes_back() -> None:
    record = played(
        Record.new("yams", (ALI, ECE)),
        yams.Throw(0, (), (1, 2, 3, 4, 5)),
        yams.Fill(0, Box.CHANCE),
    )
    with pytest.raises(IllegalAction):
        record.append(Undo(1))
    assert record.append(Undo(0)).state.seat == 0


def test_the_last_box_of_a_game_may_be_undone() -> None:
    record = Record.new("yams", (ALI,))
    for box in Box:
        record = played(record, yams.Throw(0, (), (2, 2, 2, 5, 5)), yams.Fill(0, box))
    assert record.state.is_over
    back = record.append(record.undo())
    assert not back.state.is_over
    assert back.state.card.open_boxes == (Box.PENTA,)


def test_a_log_with_undos_reads_back_the_same() -> None:
    record = played(
        Record.new("10000", (ALI, ECE), target=5_000, hints=[1]),
        farkle.Throw(0, (1, 1, 1, 5, 2, 3)),
        farkle.SetAside(0, (0, 1, 2)),
        Undo(0),
        farkle.SetAside(0, (0, 1, 2, 3)),
        farkle.Bank(0),
        Undo(0),
    )
    data = record.to_json()
    assert data["hints"] == [1]
    assert [entry["type"] for entry in data["log"]] == [
        "throw", "set_aside", "undo", "set_aside", "bank", "undo"
    ]  # fmt: skip
    assert data["log"][2] == {"type": "undo", "seat": 0}
    back = Record.from_json(data)
    assert back == record
    assert back.state == record.state
    assert back.undone == frozenset({2, 5})
    assert back.hints == (1,)


@pytest.mark.parametrize(
    ("log", "words"),
    [
        ([{"type": "undo", "seat": 0}], "action 1 of the log"),
        (
            [
                {"type": "throw", "seat": 0, "keep": [], "dice": [1, 2, 3, 4, 5]},
                {"type": "undo", "seat": 0},
            ],
            "action 2 of the log",
        ),
        (
            [
                {"type": "throw", "seat": 0, "keep": [], "dice": [1, 2, 3, 4, 5]},
                {"type": "fill", "seat": 0, "box": "CHANCE"},
                {"type": "undo", "seat": 1},
            ],
            "action 3 of the log",
        ),
    ],
)
def test_a_log_that_undoes_what_it_cannot_is_refused(log: list[object], words: str) -> None:
    data = {**Record.new("yams", (ALI, ECE)).settings_json(), "log": log}
    with pytest.raises(ValueError, match=words):
        Record.from_json(data)


def test_the_coach_is_on_for_a_person_alone_by_default() -> None:
    assert Record.new("yams", (ALI,)).hints == (0,)
    assert Record.new("yams", (ALI, IA)).hints == (0,)
    assert Record.new("yams", (IA, ALI)).hints == (1,)
    assert Record.new("yams", (ALI, ECE)).hints == ()
    assert Record.new("yams", (ALI, ECE), hints=[1, 0, 1]).hints == (0, 1)
    with pytest.raises(ValueError, match="people"):
        Record.new("yams", (ALI, IA), hints=[1])
    with pytest.raises(ValueError, match="people"):
        Record.new("yams", (ALI,), hints=[3])
    # A game stored before the coach has no hints: the default.
    data = Record.new("yams", (ALI,)).to_json()
    del data["hints"]
    assert Record.from_json(data).hints == (0,)


def test_a_replay_stops_at_any_version() -> None:
    record = played(
        Record.new("yams", (ALI,)),
        yams.Throw(0, (), (1, 2, 3, 4, 5)),
        yams.Fill(0, Box.CHANCE),
        Undo(0),
    )
    assert record.upto(0).state == record.start
    assert record.upto(2).state.card[Box.CHANCE] == 15
    assert record.upto(3).state == record.state
    assert record.upto(2).can_undo
    for version in (-1, 4):
        with pytest.raises(IllegalAction) as err:
            record.upto(version)
        assert err.value.reason == "no-such-version"


# Random play with random undos.


@settings(WHOLE_GAMES, max_examples=25)
@given(data=st.data(), kind=st.sampled_from(["yams", "10000"]), computer=st.booleans())
def test_random_play_with_random_undos_replays_what_stands(
    data: st.DataObject, kind: str, computer: bool
) -> None:
    seats = (ALI, IA) if computer else (ALI, ECE)
    record = Record.new(kind, seats, target=5_000)  # type: ignore[arg-type]
    undone: set[int] = set()
    stack: list[tuple[int, Move]] = []  # the moves that stand, with their versions
    for _ in range(data.draw(st.integers(0, 120), label="entries")):
        if record.state.is_over:
            break
        if record.can_undo and data.draw(st.integers(0, 3), label="undo if 3") == 3:
            version, _ = stack.pop()
            undone.add(version)
            record = record.append(record.undo())
            assert record.state == replay(record.start, [move for _, move in stack])
            continue
        state = record.state
        if isinstance(state, yams.YamsState):
            move: Move = yams_move(data, state)
        else:
            assert isinstance(state, farkle.FarkleState)
            move = farkle_move(data, state)
        record = record.append(move)
        stack.append((record.version, move))
        if isinstance(move, yams.Throw | farkle.Throw) or seats[move.seat].computer:
            assert not record.can_undo
    event(f"undos: {min(len(undone), 5)}{'+' if len(undone) >= 5 else ''}")
    assert record.undone == undone
    assert record.state == replay(record.start, standing(record))
    assert [(step.version, step.move) for step in record.steps()] == stack
    assert Record.from_json(record.to_json()) == record


# What an undo costs: the moves the engine applies for it, whatever the log's length.


def looped(record: Record, decision: Move, entries: int) -> Record:
    """``record`` with ``decision`` made and undone again and again, to ``entries`` entries."""
    while record.version + 2 <= entries:
        record = record.append(decision)
        record = record.append(record.undo())
    return record


def undo_cost(record: Record, decision: Move, applied: list[int]) -> int:
    """The moves applied to make ``decision``, ask whether it may be undone, undo it, and ask
    again what stands, once undone and once abandoned."""
    applied[0] = 0
    decided = record.append(decision)
    assert decided.can_undo
    assert decided.last_move == decision
    back = decided.append(decided.undo())
    assert back.state == record.state
    assert back.last_move == record.last_move
    assert back.can_undo == record.can_undo
    assert back.append(Abandon()).abandoned
    return applied[0]


@pytest.mark.parametrize(
    ("start", "decision"),
    [
        (
            played(
                Record.new("10000", (ALI, ECE), target=5_000), farkle.Throw(0, (1, 2, 3, 4, 6, 6))
            ),
            farkle.SetAside(0, (0,)),
        ),
        (
            played(Record.new("yams", (ALI, ECE)), yams.Throw(0, (), (2, 2, 3, 3, 3))),
            yams.Fill(0, Box.FULL_HOUSE),
        ),
    ],
    ids=["10000 set aside", "yams fill"],
)
def test_an_undo_at_the_10000th_entry_applies_as_many_moves_as_at_the_10th(
    monkeypatch: pytest.MonkeyPatch, start: Record, decision: Move
) -> None:
    short, long = looped(start, decision, 10), looped(start, decision, 10_000)
    assert (short.version, long.version) == (9, 9_999)
    assert len(long.undone) == 4_999
    applied = counting(monkeypatch)
    at_10, at_10_000 = undo_cost(short, decision, applied), undo_cost(long, decision, applied)
    assert at_10 == at_10_000
    assert at_10_000 == 1  # the decision itself: the undo, the abandon and the questions none
    # Caught up from the stored log (another process's appends): one move applied per move.
    applied[0] = 0
    caught = start.extended(long.to_json()["log"][start.version :])
    assert caught == long
    assert caught.state == long.state
    assert applied[0] == 4_999
