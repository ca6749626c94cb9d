"""Abandon in the record: the last entry of an unfinished game's log, which the engine never
sees; after it the log takes nothing more, an undo included."""

from __future__ import annotations

from dataclasses import replace

import pytest

from zar import yams
from zar.record import Abandon, Action, Record, Undo
from zar.table import IllegalAction, Seat
from zar.yams import Box

ALI = Seat("Ali")
ECE = Seat("Ece")


def played(record: Record, *actions: Action) -> Record:
    for action in actions:
        record = record.append(action)
    return record


def refused(record: Record, action: Action, reason: str) -> None:
    with pytest.raises(IllegalAction) as err:
        record.append(action)
    assert err.value.reason == reason


def written() -> Record:
    """Ali has written a box, Ece has not thrown yet: Ali's box may still be undone."""
    return played(
        Record.new("yams", (ALI, ECE)),
        yams.Throw(0, (), (2, 2, 3, 3, 3)),
        yams.Fill(0, Box.FULL_HOUSE),
    )


def test_an_abandoned_game_keeps_its_state_and_takes_nothing_more() -> None:
    before = written()
    assert before.can_undo
    assert not before.abandoned
    record = before.append(Abandon())
    assert record.abandoned
    assert record.version == 3
    assert record.state == replace(before.state, events=())  # not announced again
    assert not record.state.is_over
    assert [step.version for step in record.steps()] == [1, 2]
    assert record.undone == frozenset()
    for action in (yams.Throw(1, (), (1, 2, 3, 4, 5)), Undo(0), Abandon()):
        refused(record, action, "game-abandoned")


def test_an_undo_never_takes_an_abandon_back() -> None:
    record = written().append(Abandon())
    assert not record.can_undo
    with pytest.raises(IllegalAction) as err:
        record.undo()
    assert err.value.reason == "game-abandoned"


def finished() -> Record:
    record = Record.new("yams", (ALI,))
    for box in Box:
        record = played(record, yams.Throw(0, (), (2, 2, 2, 5, 5)), yams.Fill(0, box))
    assert record.state.is_over
    return record


def test_a_finished_game_cannot_be_abandoned() -> None:
    record = finished()
    refused(record, Abandon(), "game-over")
    assert not record.abandoned


def test_an_abandon_at_the_start_or_after_an_undo() -> None:
    assert Record.new("yams", (ALI,)).append(Abandon()).abandoned
    undone = written()
    undone = undone.append(undone.undo()).append(Abandon())
    assert undone.abandoned
    assert undone.undone == frozenset({2})
    assert undone.state.cards[0][Box.FULL_HOUSE] is None


def test_an_abandoned_log_reads_back_the_same() -> None:
    record = written().append(Abandon())
    data = record.to_json()
    assert data["log"][-1] == {"type": "abandon"}  # no seat: nobody's move
    back = Record.from_json(data)
    assert back == record
    assert back.state == record.state
    assert back.abandoned
    assert repr(Abandon()) == "Abandon()"


def test_a_replay_shows_the_game_before_and_after_its_abandon() -> None:
    record = written().append(Abandon())
    assert not record.upto(2).abandoned
    assert record.upto(2).can_undo
    assert record.upto(3).abandoned
    assert record.upto(3).state == record.state
    assert not record.upto(3).can_undo


THROW = {"type": "throw", "seat": 0, "keep": [], "dice": [1, 2, 3, 4, 5]}
FILL = {"type": "fill", "seat": 0, "box": "CHANCE"}
ABANDON = {"type": "abandon"}


@pytest.mark.parametrize(
    ("log", "words"),
    [
        ([ABANDON, THROW], "action 2 of the log: the game was abandoned"),
        ([THROW, FILL, ABANDON, {"type": "undo", "seat": 0}], "action 4 of the log"),
        ([THROW, ABANDON, ABANDON], "action 3 of the log"),
    ],
)
def test_a_log_with_anything_after_its_abandon_is_refused(log: list[object], words: str) -> None:
    data = {**Record.new("yams", (ALI,)).settings_json(), "log": log}
    with pytest.raises(ValueError, match=words):
        Record.from_json(data)


def test_a_log_that_abandons_a_finished_game_is_refused() -> None:
    data = finished().to_json()
    data["log"].append(ABANDON)
    with pytest.raises(ValueError, match="action 27 of the log: the game is over"):
        Record.from_json(data)
