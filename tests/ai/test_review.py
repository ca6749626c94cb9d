"""The review judges a decision by what it does to the game: at a 10 000 table of three or
more by the chance of winning against the leading opponent, so that no winning move reads
as a loss; its verdicts are graded finely enough to tell players apart.

10 000 to 5 000 only: its two-player table is built once for the session (``expert``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from play_support import AtRandom
from support import WHOLE_GAMES
from zar import ai, farkle
from zar.ai.coach import Strategies
from zar.ai.farkle import TurnStrategy, WinStrategy
from zar.ai.judging import judged, model_of
from zar.ai.review import FIRST_BOUND, GRADES, grade, review
from zar.ai.review import review as full_review
from zar.ai.yams import Strategy
from zar.dice import SeededDice
from zar.farkle import FarkleState
from zar.i18n import LANGUAGES, text
from zar.record import Record
from zar.table import Seat

Solved = Callable[[str], Strategy]
ALI, ECE, CAN, DEFNE = Seat("Ali"), Seat("Ece"), Seat("Can"), Seat("Defne")
EXACT = 1e-9
EVERY_DIE = (0, 1, 2, 3, 4, 5)
LOST = ((2, 2, 3, 3, 4, 6), None)  # a throw that scores nothing: the turn is lost


@pytest.fixture
def strategies(solved: Solved, expert: WinStrategy) -> Strategies:
    return Strategies(solved("standard"))


def turn(
    record: Record, seat: int, *throws: tuple[tuple[int, ...], tuple[int, ...] | None]
) -> Record:
    """A turn of throws, each with the dice set aside (None: the throw lost the turn), then
    banked unless the turn was lost."""
    for dice, positions in throws:
        record = record.append(farkle.Throw(seat, dice))
        if positions is None:
            return record
        record = record.append(farkle.SetAside(seat, positions))
    return record.append(farkle.Bank(seat))


def three(*turns: tuple[int, tuple[tuple[tuple[int, ...], tuple[int, ...] | None], ...]]) -> Record:
    record = Record.new("10000", (ALI, ECE, CAN), target=5_000)
    for seat, throws in turns:
        record = turn(record, seat, *throws)
    return record


def straight_to_win() -> Record:
    """Ali reaches the target; Ece loses her last turn; Can, last to play, throws a straight
    (2 500, hot dice) and banks it: 5 500 against 5 000, the game won."""
    return three(
        (0, (((1,) * 6, EVERY_DIE),)),
        (1, (LOST,)),
        (2, (((1,) * 6, EVERY_DIE),)),
        (0, (((1, 1, 1, 1, 1, 2), (0, 1, 2, 3, 4)),)),
        (1, (LOST,)),
        (2, (((1, 2, 3, 4, 5, 6), EVERY_DIE),)),
    )


def test_banking_a_straight_that_wins_the_game_costs_nothing(strategies: Strategies) -> None:
    """Can's bank of the straight that wins the game (:func:`straight_to_win`) costs
    nothing, though read in the turn's points it gave up 409 to throwing the six dice
    again."""
    record = straight_to_win()
    state = record.state
    assert isinstance(state, FarkleState)
    assert state.is_over
    assert state.winners == (2,)
    assert state.totals == (5_000, 0, 5_500)
    bank = len(record.log)  # the last move, Can's bank
    in_points = {j.step.version: j for j in judged(record, strategies, unit="points")}
    assert in_points[bank].cost == pytest.approx(TurnStrategy.load().value(2_500, 6) - 2_500)
    assert in_points[bank].cost > 400  # the measure that called the winning bank a mistake

    players = {p["name"]: p for p in review(record, strategies, "tr")["players"]}
    can = players["Can"]
    assert (can["unit"], can["model"]) == ("win", "leader")
    assert bank not in [worst["version"] for worst in can["worst"]]
    (decided,) = [j for j in judged(record, strategies, unit="win") if j.step.version == bank]
    assert decided.chosen["kind"] == "bank"
    assert decided.chosen["win"] == 1.0 == decided.best["win"]
    assert decided.cost == 0


def test_banking_far_ahead_at_the_target_is_the_best_option(strategies: Strategies) -> None:
    """Can banks a straight to 5 500, the first to the target, the others at 0: the best
    option, though throwing again would bring more points."""
    record = three(
        (0, (LOST,)), (1, (LOST,)), (2, (((1,) * 6, EVERY_DIE),)),
        (0, (LOST,)), (1, (LOST,)), (2, (((1, 2, 3, 4, 5, 6), EVERY_DIE),)),
        (0, (LOST,)), (1, (LOST,)),
    )  # fmt: skip
    assert record.state.is_over
    assert record.state.winners == (2,)
    decided = [j for j in judged(record, strategies, unit="win") if j.step.move.seat == 2]
    bank = decided[-1]
    assert isinstance(bank.step.move, farkle.Bank)
    assert bank.step.after.totals[2] == 5_500  # type: ignore[union-attr]
    assert bank.best["kind"] == "bank"
    assert bank.cost == 0
    # Its chance: that neither Ali nor Ece, a last turn each, makes 5 550, read against one.
    expert = strategies.win(bank.step.before, leader=True)
    assert expert is not None
    assert bank.chosen["win"] == pytest.approx(1 - expert.last_turn_chance(5_500), abs=EXACT)


def test_the_review_says_what_it_judges_by(strategies: Strategies) -> None:
    two = Record.new("10000", (ALI, ECE), target=5_000)
    alone = Record.new("10000", (ALI,), target=5_000)
    yams_game = Record.new("yams", (ALI, ECE, CAN))
    four = Record.new("10000", (ALI, ECE, CAN, DEFNE), target=5_000)
    assert [model_of(r) for r in (alone, two, four, yams_game)] == [
        "points", "duel", "leader", "points"
    ]  # fmt: skip


@pytest.mark.parametrize("rules", ["three-lost-500", "facebook"])
def test_a_game_whose_chance_of_winning_is_not_at_hand_is_reviewed_in_points(
    strategies: Strategies, monkeypatch: pytest.MonkeyPatch, rules: str
) -> None:
    """Under a penalty for three lost turns in a row, until the table of the game's target
    is in the cache (tens of minutes to build) the review and its account judge a game of
    two in points, as its coach speaks; once it is, in chance of winning."""
    chance = random.Random(7)
    players = [AtRandom(chance, banking=0.5) for _ in range(2)]
    dice = SeededDice(7)
    record = Record.new("10000", (ALI, ECE), target=5_000, rules=rules)
    while not record.state.is_over:
        state = record.state
        record = record.append(ai.next_action(state, players[state.seat], dice))
    assert model_of(record) == "points"
    found = full_review(record, strategies, "en")
    for seat, person in enumerate(found["players"]):
        assert (person["unit"], person["model"], person["account_unit"]) == ("points",) * 3
        assert person["decisions"] > 0
        assert person["total_cost"] >= 0
        # Each seat's points: the account ends at the seat's total, and adds up to it.
        total = record.state.totals[seat]
        assert person["result"] == pytest.approx(total, abs=EXACT)
        reckoned = person["start"] + person["luck"] - person["account_cost"]
        assert reckoned == pytest.approx(total, abs=1e-6)
        assert person["opponent_luck"] is None
    monkeypatch.setattr(WinStrategy, "cached", classmethod(lambda cls, target, rules: True))
    assert model_of(record) == "duel"


@WHOLE_GAMES
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4))
def test_a_winning_move_is_never_costly(
    solved: Solved, expert: WinStrategy, seed: int, seats: int
) -> None:
    """In any game of two to four: every cost is a chance between 0 and 1; a move whose
    chance of winning is 1 costs nothing; a bank that ends the game won alone is one."""
    strategies = Strategies(solved("standard"))
    chance = random.Random(seed)
    people = tuple(Seat(f"P{i}") for i in range(seats))
    players = [AtRandom(chance, banking=0.5) for _ in people]
    dice = SeededDice(seed)
    record = Record.new("10000", people, target=5_000)
    while not record.state.is_over:
        state = record.state
        record = record.append(ai.next_action(state, players[state.seat], dice))
    winners = record.state.winners
    for decided in judged(record, strategies, unit="win"):
        assert -EXACT <= decided.cost <= 1 + EXACT
        if decided.chosen["win"] >= 1 - EXACT:
            assert decided.cost == 0
        after = decided.step.after
        ends = after.is_over and isinstance(decided.step.move, farkle.Bank)
        if ends and winners == (decided.step.move.seat,):
            assert decided.chosen["win"] == 1.0
            assert decided.cost == 0


# The verdicts.


@pytest.mark.parametrize(
    ("kind", "unit"), [("yams", "points"), ("10000", "points"), ("10000", "win")]
)
def test_each_grade_holds_up_to_twice_the_bound_before(kind: str, unit: str) -> None:
    first = FIRST_BOUND["yams" if kind == "yams" else unit]
    bounds = [first * 2**n for n in range(len(GRADES) - 1)]
    assert grade(kind, unit, 0.0) == GRADES[0]
    for n, bound in enumerate(bounds):
        assert grade(kind, unit, bound * 0.999) == GRADES[n]
        assert grade(kind, unit, bound) == GRADES[n + 1]
    assert grade(kind, unit, bounds[-1] * 100) == GRADES[-1]
    for lang in LANGUAGES:  # each grade has its own word
        words = [text(lang, f"verdict-{name}") for name in GRADES]
        assert len(set(words)) == len(GRADES)


def test_fifty_one_and_seventy_points_lost_read_apart() -> None:
    """Both read "Fena değil" when a grade spanned 1 to 2.5 points a decision."""
    assert grade("yams", "points", 51 / 34) != grade("yams", "points", 70 / 34)


def test_every_figure_of_a_review_has_one_decimal(strategies: Strategies) -> None:
    record = straight_to_win()
    players = {p["name"]: p for p in full_review(record, strategies, "tr")["players"]}
    can = players["Can"]
    total, mean = 100 * can["total_cost"], 100 * can["mean_cost"]
    written = f"%{total:.1f}".replace(".", ","), f"%{mean:.1f}".replace(".", ",")
    assert can["verdict"].endswith(f"{can['decisions']} kararda kazanma şansından {written[0]} "
                                   f"kayıp (karar başına {written[1]})")  # fmt: skip
    # The account stays in points, its decisions' cost in points too: it adds up.
    assert can["account_unit"] == "points"
    assert can["result"] == pytest.approx(can["start"] + can["luck"] - can["account_cost"])


def test_a_cost_too_small_for_one_decimal_reads_as_under_it() -> None:
    """No verdict says a costly decision lost "%0,0": below half the last place, "< %0,1"."""
    from zar.ai.review import verdict as _verdict

    said = _verdict("10000", "win", 0.0004, 8, "tr")
    assert said.endswith("8 kararda kazanma şansından < %0,1 kayıp (karar başına < %0,1)")
    assert _verdict("yams", "points", 12.34, 30, "en").endswith("(0.4 a decision)")
