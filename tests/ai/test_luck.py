"""Luck and skill: result = start + Σ luck − Σ cost in every game, luck is 0 on average over
a throw's listed outcomes, and the figures are those of the strategies and of the review.

Games are played with seeded dice by people choosing at random (so that decisions cost
something), the computer's levels, and undos. 10 000 for two is played to 5 000: its
two-player table is built once for the session (``expert``); with more seats the target
makes no difference to the turn strategy.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from play_support import AtRandom
from record_support import standing
from support import WHOLE_GAMES
from zar import ai, farkle, yams
from zar.ai.coach import Strategies
from zar.ai.farkle import TurnStrategy, WinStrategy
from zar.ai.judging import judged
from zar.ai.luck import Ledger, Luck, account, figures, ledger, values
from zar.ai.review import review
from zar.ai.yams import Strategy
from zar.dice import SeededDice, outcomes
from zar.farkle import FarkleState
from zar.history import game_csv, game_export
from zar.record import Abandon, Record, Step
from zar.table import Seat
from zar.yams import Box, Scorecard, YamsState

Solved = Callable[[str], Strategy]
EXACT = 1e-9  # the identity, summed over a game's steps
MEAN = 1e-12  # one throw's luck averaged over its outcomes


@pytest.fixture
def strategies(solved: Solved, expert: WinStrategy) -> Strategies:
    return Strategies(solved("standard"))


def play(
    record: Record, players: Sequence[object], seed: int, *, undos: float = 0.0, moves: int = 0
) -> Record:
    """Play on (to the end, or ``moves`` moves) with seeded dice; a person's decision is
    undone with the chance ``undos`` and decided again."""
    dice, chance = SeededDice(seed), random.Random(seed)
    made = 0
    while not record.state.is_over and (not moves or made < moves):
        state = record.state
        record = record.append(ai.next_action(state, players[state.seat], dice))  # type: ignore[call-overload]
        made += 1
        if record.can_undo and chance.random() < undos:
            record = record.append(record.undo())
    return record


def check_identity(found: Ledger) -> None:
    for own in found.accounts:
        assert abs(own.result - own.reckoned) < EXACT, own


def yams_record(seats: Sequence[Seat], seed: int, *, undos: float = 0.3) -> Record:
    chance = random.Random(seed)
    players = [
        ai.computer_player("yams", s.level) if s.computer else AtRandom(chance) for s in seats
    ]
    return play(Record.new("yams", seats), players, seed, undos=undos)


def farkle_record(
    seats: Sequence[Seat],
    seed: int,
    *,
    undos: float = 0.3,
    moves: int = 0,
    rules: str | None = None,
) -> Record:
    chance = random.Random(seed)
    players = [
        ai.computer_player("10000", s.level, rules) if s.computer else AtRandom(chance)
        for s in seats
    ]
    record = Record.new("10000", seats, target=5_000, rules=rules)
    return play(record, players, seed, undos=undos, moves=moves)


ALI, ECE, CAN = Seat("Ali"), Seat("Ece"), Seat("Can")


def computer(level: str) -> Seat:
    return Seat(f"IA {level}", computer=True, level=level)


# The identity, game by game.


@pytest.mark.parametrize(
    ("seats", "seed"),
    [
        ((ALI,), 1),
        ((ALI, computer("expert")), 2),
        ((ALI, ECE), 3),
        ((ALI, computer("easy"), ECE), 4),
    ],
)
def test_a_yams_card_ends_at_its_start_plus_its_luck_less_its_costs(
    strategies: Strategies, seats: tuple[Seat, ...], seed: int
) -> None:
    record = yams_record(seats, seed)
    assert record.undone, "the game has undone moves, which count for nothing"
    found = ledger(record, strategies)
    check_identity(found)
    assert isinstance(record.state, YamsState)
    for own, card in zip(found.accounts, record.state.cards, strict=True):
        assert own.result == card.total
        assert own.start == strategies.yams().expected_score()
        assert (own.opponent_luck, own.opponent_cost) == (None, None)
        assert min(own.throws, own.decisions) >= 13
    # The costs are the review's, computer's seats included.
    assert [j.cost for j in found.decisions] == [
        j.cost for j in judged(record, strategies, computers=True)
    ]
    assert any(own.cost > 1 for own in found.accounts)


@pytest.mark.parametrize(
    ("seats", "seed"),
    [
        ((ALI, computer("expert")), 5),
        ((computer("max-points"), ALI), 6),
        ((ALI, ECE), 7),
    ],
)
def test_at_two_a_seats_chance_ends_at_one_zero_or_a_half(
    strategies: Strategies, expert: WinStrategy, seats: tuple[Seat, ...], seed: int
) -> None:
    record = farkle_record(seats, seed)
    found = ledger(record, strategies)
    check_identity(found)
    state = record.state
    first, second = found.accounts
    assert abs(first.start - expert.first_player_wins()) < MEAN
    assert first.start + second.start == 1.0
    for own in found.accounts:
        won = own.seat in state.winners
        assert own.result == (0.5 if won and len(state.winners) == 2 else float(won))
    # What one seat's throws and decisions gave, the other lost.
    assert (first.opponent_luck, first.opponent_cost) == (second.luck, second.cost)
    assert (second.opponent_luck, second.opponent_cost) == (first.luck, first.cost)


@pytest.mark.parametrize(
    ("seats", "seed"),
    [
        ((ALI,), 8),
        ((ALI, computer("seed"), ECE), 9),
        ((computer("expert"), ALI, computer("max-points"), CAN), 10),
    ],
)
def test_with_more_seats_each_turns_points_are_its_expectation_plus_luck_less_costs(
    strategies: Strategies, seats: tuple[Seat, ...], seed: int
) -> None:
    record = farkle_record(seats, seed)
    found = ledger(record, strategies)
    check_identity(found)
    state = record.state
    assert isinstance(state, FarkleState)
    per_turn = TurnStrategy.load().points_per_turn()
    for own, total, turns in zip(found.accounts, state.totals, state.turns, strict=True):
        assert own.result == total
        assert abs(own.start - turns * per_turn) < EXACT


def test_only_the_moves_that_stand_count(strategies: Strategies) -> None:
    """A game with undos has the account of the same game played without them."""
    for record in (yams_record((ALI, ECE), 20), farkle_record((ALI, computer("expert")), 21)):
        assert record.undone
        plain = Record.new(record.kind, record.seats, target=record.target)
        for move in standing(record):
            plain = plain.append(move)
        assert ledger(plain, strategies).accounts == ledger(record, strategies).accounts


def test_an_unfinished_or_abandoned_game_counts_to_its_value_now(
    strategies: Strategies,
) -> None:
    """A game under way, or ended unfinished, has for result the strategy's value now: its
    luck and costs so far, from the start."""
    games = [
        yams_record((ALI, ECE), 11).upto(60),
        farkle_record((ALI, computer("expert")), 12, moves=50),
        farkle_record((ALI, ECE, CAN), 13, moves=50).append(Abandon()),
    ]
    for record in games:
        assert not record.state.is_over
        found = ledger(record, strategies)
        check_identity(found)
        assert [a.result for a in found.accounts] == list(values(record.state, strategies))


@pytest.mark.parametrize(
    ("rules", "seats"),
    [
        ("entry-500", (ALI, computer("max-points"), ECE)),
        ("bank-300", (ALI, ECE, CAN)),
        ("facebook", (ALI, ECE, CAN)),
        ("facebook", (ALI, computer("max-points"))),  # its table not at hand: in points
        ("three-lost-1000", (ALI, ECE)),
    ],
)
def test_under_house_rules_each_turns_points_add_up_to_the_total(
    strategies: Strategies, rules: str, seats: tuple[Seat, ...]
) -> None:
    """Under an entry, a bank minimum or a penalty for three lost turns, in points: a throw
    forced within a turn (short of the minimum) is luck within it, not a turn's opening;
    each seat's account ends at its total and adds up to it."""
    record = farkle_record(seats, 11, rules=rules)
    found = ledger(record, strategies)
    assert found.unit == "points"
    check_identity(found)
    state = record.state
    assert isinstance(state, FarkleState)
    for own, total in zip(found.accounts, state.totals, strict=True):
        assert own.result == total


@WHOLE_GAMES
@given(
    seed=st.integers(0, 2**32),
    game=st.sampled_from(["yams", "10000"]),
    people=st.lists(st.booleans(), min_size=1, max_size=3),
)
def test_the_identity_holds_in_any_game(
    solved: Solved, expert: WinStrategy, seed: int, game: str, people: list[bool]
) -> None:
    coach = Strategies(solved("standard"))
    level = "expert" if game == "yams" else "max-points"
    seats = [Seat(f"P{i}", computer=not person, level=None if person else level)
             for i, person in enumerate(people)]  # fmt: skip
    record = yams_record(seats, seed) if game == "yams" else farkle_record(seats, seed)
    check_identity(ledger(record, coach))


# Luck is 0 on average.


def average_after(throw: Luck, strategies: Strategies) -> float:
    """The thrower's V after the throw, averaged over every listed outcome of its dice with
    its exact chance (the sum exact too: only the strategies' values are floats)."""
    step, move = throw.step, throw.step.move
    seat = move.seat
    before = step.before
    banked = 0.0
    if isinstance(before, FarkleState) and len(before.totals) != 2:
        banked = float(before.totals[seat])
    total = Fraction(0)
    weight = Fraction(0)
    for faces, p in outcomes(len(move.dice)):
        match move:
            case yams.Throw():
                after = before.apply(yams.Throw(seat, move.keep, faces))  # type: ignore[arg-type]
            case farkle.Throw():
                after = before.apply(farkle.Throw(seat, faces))  # type: ignore[arg-type]
        total += p * Fraction(values(after, strategies)[seat] - banked)
        weight += p
    assert weight == 1
    return float(total)


def sample(found: Ledger, count: int) -> list[Luck]:
    """Throws of every kind: first of a round or turn, after a keep or a set-aside."""
    opening = [t for t in found.throws if t.opens]
    following = [t for t in found.throws if not t.opens]
    return (
        opening[:: max(1, len(opening) // count)][:count]
        + following[:: max(1, len(following) // count)][:count]
    )


@pytest.mark.parametrize("seats", [(ALI, ECE), (ALI, computer("expert")), (ALI, ECE, CAN)])
def test_a_throws_luck_averages_zero_over_its_outcomes(
    strategies: Strategies, seats: tuple[Seat, ...]
) -> None:
    for record in (yams_record(seats, 14), farkle_record(seats, 15)):
        found = ledger(record, strategies)
        throws = sample(found, 4)
        if record.kind == "10000":  # the last turn, against a total at the target
            late = [t for t in found.throws if t.step.before.last_round_by is not None]  # type: ignore[union-attr]
            assert late
            throws += late[:2]
        assert len(throws) >= 6
        for throw in throws:
            assert abs(average_after(throw, strategies) - throw.before) < MEAN, throw.step


def test_after_hot_dice_too(strategies: Strategies) -> None:
    """Six dice again after all six were set aside, the turn's points kept; at two and at
    three seats."""
    for seats in ((ALI, ECE), (ALI, ECE, CAN)):
        record = Record.new("10000", seats, target=5_000)
        for action in (farkle.Throw(0, (1, 1, 1, 5, 5, 1)), farkle.SetAside(0, (0, 1, 2, 3, 4, 5)),
                       farkle.Throw(0, (2, 3, 4, 6, 6, 1))):  # fmt: skip
            record = record.append(action)
        state = ledger(record, strategies).throws[-1].step.before
        assert isinstance(state, FarkleState)
        assert state.dice_in_play == 6
        assert state.turn_points > 0
        for throw in ledger(record, strategies).throws:
            assert abs(average_after(throw, strategies) - throw.before) < MEAN


# Figures checked by hand.


def test_five_sixes_at_the_first_throw_of_a_game(strategies: Strategies) -> None:
    """An empty card is worth 254.4848 (the expected score of optimal play, the solver's
    own figure, docs/computer-players.md). Five sixes at the first throw are best written
    in the Penta box: 50 points, and the card left (Penta at 50, twelve boxes open) is
    worth 270.83 more, so V after the throw is 320.83 and the throw's luck
    320.83 − 254.48 = +66.35. Writing them there costs nothing: after one round the card's
    account is 320.83 = 254.48 + 66.35 − 0."""
    strategy = strategies.yams()
    record = Record.new("yams", (ALI,))
    record = record.append(yams.Throw(0, (), (6, 6, 6, 6, 6)))
    record = record.append(yams.Fill(0, Box.PENTA))
    found = ledger(record, strategies)
    (throw,) = found.throws
    card = Scorecard().fill(Box.PENTA, (6, 6, 6, 6, 6))
    assert throw.before == strategy.expected_score()
    assert throw.after == strategy.value(card)  # 50 written + the card's rest
    assert throw.after == max(strategy.box_values(Scorecard(), (6, 6, 6, 6, 6)).values())
    assert round(throw.before, 4) == 254.4848
    assert round(throw.luck, 2) == 66.35
    (own,) = found.accounts
    assert own.cost == 0.0
    assert own.result == strategy.value(card) == own.start + own.luck


def test_a_straight_banked_at_once(strategies: Strategies) -> None:
    """10 000 alone: a turn is worth 606.98 before its first throw. 1 2 3 4 5 6 is the
    straight, 2 500 points, all six dice set aside (hot dice): the turn holds 2 500 with
    six dice to throw, worth V = 2 909.18 (six dice score nothing only 2.31 % of the
    time: throwing on pays). Luck: 2 909.18 − 606.98 = +2 302.20. Banking at once costs
    2 909.18 − 2 500 = 409.18, so the turn's 2 500 = 606.98 + 2 302.20 − 409.18."""
    turn = TurnStrategy.load()
    record = Record.new("10000", (ALI,), target=5_000)
    record = record.append(farkle.Throw(0, (1, 2, 3, 4, 5, 6)))
    record = record.append(farkle.SetAside(0, (0, 1, 2, 3, 4, 5)))
    record = record.append(farkle.Bank(0))
    found = ledger(record, strategies)
    (throw,) = found.throws
    worth = turn.value(2_500, 6)
    assert throw.before == pytest.approx(turn.points_per_turn(), abs=MEAN)
    assert round(throw.before, 2) == 606.98
    assert throw.after == worth
    assert round(throw.luck, 2) == 2_302.20
    bank = next(j for j in found.decisions if isinstance(j.step.move, farkle.Bank))
    assert bank.cost == pytest.approx(worth - 2_500, abs=MEAN)
    assert bank.cost > 0  # six fresh dice are worth the risk
    (own,) = found.accounts
    assert own.result == 2_500
    assert abs(own.reckoned - 2_500) < EXACT


def test_a_lost_first_throw_loses_the_turns_expectation(strategies: Strategies) -> None:
    """Three at the table: a first throw of 2 2 3 3 4 6 scores nothing (Tour perdu), so its
    luck is all the turn was worth: −606.98; the turn scores 0 = 606.98 − 606.98."""
    record = Record.new("10000", (ALI, ECE, CAN), target=5_000)
    record = record.append(farkle.Throw(0, (2, 2, 3, 3, 4, 6)))
    found = ledger(record, strategies)
    (throw,) = found.throws
    assert throw.after == 0.0
    assert throw.luck == -throw.before
    assert round(throw.luck, 2) == -606.98
    assert found.accounts[0].result == 0.0


# The review and the exports.


def test_the_review_shows_each_persons_account(strategies: Strategies) -> None:
    record = yams_record((ALI, computer("expert"), ECE), 16)
    found = ledger(record, strategies)
    reviewed = json.loads(json.dumps(review(record, strategies, "en")))
    assert [p["seat"] for p in reviewed["players"]] == [0, 2]
    steps = len(list(record.steps()))
    for player in reviewed["players"]:
        own = found.accounts[player["seat"]]
        shown = (player["start"], player["luck"], player["result"])
        assert shown == (own.start, own.luck, own.result)
        assert player["total_cost"] == pytest.approx(own.cost, abs=EXACT)
        start, luck, cost = player["start"], player["luck"], player["total_cost"]
        assert abs(player["result"] - (start + luck - cost)) < EXACT
        assert len(player["values"]) == steps + 1
        assert player["values"][0] == {"version": 0, "value": own.start}
        assert player["values"][-1]["value"] == own.result
        lucky, unlucky = player["luckiest"], player["unluckiest"]
        assert len(lucky) == len(unlucky) == 3
        assert [t["luck"] for t in lucky] == sorted((t["luck"] for t in lucky), reverse=True)
        own_throws = [t.luck for t in found.throws if t.step.move.seat == player["seat"]]
        assert lucky[0]["luck"] == max(own_throws)
        assert unlucky[0]["luck"] == min(own_throws)
        for throw in lucky + unlucky:
            assert throw["luck"] == pytest.approx(throw["after"] - throw["before"], abs=MEAN)
            assert not Counter(throw["dice"]) - Counter(throw["board"]["dice"])  # as they fell


@pytest.mark.parametrize("seats", [(ALI, computer("expert")), (ALI,)])
def test_a_lost_throw_is_drawn_as_it_fell(strategies: Strategies, seats: tuple[Seat, ...]) -> None:
    record = farkle_record(seats, 17)
    reviewed = review(record, strategies, "en")
    ali = reviewed["players"][0]
    for throw in ali["luckiest"] + ali["unluckiest"]:
        tray = throw["board"]["tray"]
        faces = sorted(t["face"] for t in tray if t["face"] and not t["aside"])
        assert sorted(throw["dice"]) == faces
    start, luck, cost = ali["start"], ali["luck"], ali["total_cost"]
    if len(seats) == 2:  # the other's luck and cost move Ali's chance the other way
        luck += ali["opponent_cost"] - ali["opponent_luck"]
    else:
        assert (ali["opponent_luck"], ali["opponent_cost"]) == (None, None)
    assert abs(ali["result"] - (start + luck - cost)) < EXACT


def test_the_export_has_each_throws_luck_and_each_decisions_cost(
    strategies: Strategies,
) -> None:
    record = farkle_record((Seat("=HYPERLINK(1)"), computer("seed")), 18)
    found = ledger(record, strategies)
    luck = figures(record, strategies)
    data = json.loads(json.dumps(game_export("g", record, None, luck)))
    assert Record.from_json({**data, "log": data["entries"]}) == record  # still a game's file
    by_version = {e["version"]: e for e in data["entries"]}
    for throw in found.throws:
        assert by_version[throw.step.version]["luck"] == throw.luck
    for decided in found.decisions:
        assert by_version[decided.step.version]["cost"] == decided.cost
    for version in record.undone:
        assert (by_version[version]["luck"], by_version[version]["cost"]) == (None, None)
    rows = list(csv.DictReader(io.StringIO(game_csv("g", record, None, luck))))
    for row in rows[: record.version]:
        entry = by_version[int(row["version"])]
        assert row["luck"] == ("" if entry["luck"] is None else str(entry["luck"]))
        assert row["cost"] == ("" if entry["cost"] is None else str(entry["cost"]))
    assert all(not r["player"].startswith("=") for r in rows)


def test_a_games_account_is_plain_values(strategies: Strategies) -> None:
    record = farkle_record((ALI, computer("expert")), 19)
    summary = account(record, strategies)
    assert json.loads(json.dumps(summary)) == summary
    assert [(s["name"], s["computer"], s["unit"]) for s in summary] == [
        ("Ali", False, "win"),
        ("IA expert", True, "win"),
    ]

    def decides(step: Step) -> bool:
        assert isinstance(step.before, FarkleState)
        throws_again = isinstance(step.move, farkle.Throw) and step.before.turn_points > 0
        return isinstance(step.move, farkle.SetAside | farkle.Bank) or throws_again

    assert sum(s["decisions"] for s in summary) == sum(map(decides, record.steps()))
    assert sum(s["throws"] for s in summary) == sum(
        isinstance(step.move, farkle.Throw) for step in record.steps()
    )


def test_a_yams_review_of_two_reads_each_cost_in_chance_of_winning(
    strategies: Strategies,
) -> None:
    """At a Yams table of two, each decision's cost in chance of winning is the chance (as
    the coach shows it) of the option the play-to-win computer picks (the best any option
    gives: the calibration keeps the order) less the chosen one's; a person's total sums
    them. The game's last decision, Ece's last box, has the
    other card complete: its chance is the game's outcome, 1, 0 or 1/2 exactly."""
    from zar.ai.judging import in_chances as _in_chances
    from zar.ai.yams_win import WinPlayer, shown_chances

    record = yams_record((ALI, ECE), 5)
    decisions = list(judged(record, strategies))
    read = _in_chances(strategies.yams(), decisions)
    computer = WinPlayer(strategies.yams())
    for decided in decisions:
        state = decided.step.before
        assert isinstance(state, YamsState)
        turn = shown_chances(strategies.yams(), state, 1 - state.seat)
        # Throws left, the computer first keeps (writing now when it keeps none).
        keep = computer.keep(state) if state.throws_left else None
        if keep is None:
            picked = turn.boxes(state.dice, state.options)[computer.box(state)]
        else:
            kept = tuple(sorted(state.dice[p] for p in keep))
            picked = turn.keeps(state.dice, state.throws_left)[kept]
        found = read[decided.step.version]
        assert -MEAN <= found.chosen <= 1.0 + MEAN
        assert found.cost == pytest.approx(picked - found.chosen, abs=MEAN)
    last = decisions[-1]
    assert isinstance(last.step.move, yams.Fill)
    assert last.step.move.seat == 1
    assert last.step.after.is_over
    totals = [card.total for card in record.state.cards]
    outcome = 1.0 if totals[1] > totals[0] else 0.0 if totals[1] < totals[0] else 0.5
    assert read[last.step.version].chosen == pytest.approx(outcome, abs=MEAN)

    reviewed = json.loads(json.dumps(review(record, strategies, "en")))
    for player in reviewed["players"]:
        own = [read[j.step.version].cost for j in decisions if j.step.move.seat == player["seat"]]
        assert player["win_cost"] == pytest.approx(sum(own), abs=EXACT)
        assert player["mean_win_cost"] == pytest.approx(sum(own) / len(own), abs=EXACT)
        assert player["worst"]
        for worst in player["worst"]:
            assert worst["win_cost"] == pytest.approx(read[worst["version"]].cost, abs=MEAN)
            assert worst["chosen"]["win"] == read[worst["version"]].chosen
            assert worst["best"]["win"] == read[worst["version"]].best
    # Alone, or in 10 000 (already counted in chance at two): no second reading.
    for alone in (review(yams_record((ALI,), 6), strategies, "en"),
                  review(farkle_record((ALI, ECE), 7), strategies, "en")):  # fmt: skip
        for player in alone["players"]:
            assert player["win_cost"] is None
            assert player["mean_win_cost"] is None
            assert all(w["win_cost"] is None for w in player["worst"])
