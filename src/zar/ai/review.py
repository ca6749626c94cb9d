"""The review after a game: every decision of a person next to the perfect player's, what
it cost, the worst three as the board looked, and a verdict.

What a decision is judged by (its ``model``): in Yams, and in 10 000 alone, the expected
points (of the final score; of the turn); in 10 000 for two, the exact chance of winning
(:class:`~zar.ai.farkle.WinStrategy`); at a 10 000 table of three or more, the same exact
two-player chance read against the leading opponent (the best other total, as the expert
plays there): no measure in points, which calls banking a turn that wins the game a loss.
The luck and skill of a game (:mod:`zar.ai.luck`) are reckoned from the same decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, assert_never

from zar import farkle, yams
from zar.ai.coach import (
    Option,
    Strategies,
    _bank_or_throw,
    _box,
    _decimal,
    _option_chances,
    _option_key,
    _ranked_selections,
    _Turn,
    yams_options,
)
from zar.farkle import FarkleState, Phase
from zar.i18n import Language, percent, text
from zar.record import Record, State, Step
from zar.table import IllegalAction
from zar.yams import Box, YamsState

if TYPE_CHECKING:
    from zar.ai.yams import Strategy

__all__ = [
    "EPSILON",
    "GRADES",
    "WORST",
    "Judged",
    "Model",
    "grade",
    "judged",
    "judged_in",
    "model_of",
    "review",
    "unit_of",
]

Model = Literal["points", "duel", "leader"]

WORST = 3  # decisions a review shows
EPSILON = 1e-9  # a cost below this is no cost: the values are sums of floats
# The verdicts, best first, by the mean cost per decision: under the first bound the play is
# excellent, and each grade's bound doubles the one before, the last grade holding beyond
# them all. Yams's first bound is Tom Verhoeff's aim for his Yahtzee proficiency test, 0.2
# expected points a choice; 10 000's, 2.5 points of the turn, or 0.1 % of the chance of
# winning. So 51 and 70 points lost over 34 decisions (1.50 and 2.06 a decision) read apart.
GRADES = ("excellent", "very-good", "good", "fair", "weak", "costly", "very-costly")
FIRST_BOUND: dict[str, float] = {"yams": 0.2, "points": 2.5, "win": 0.001}


def grade(kind: str, unit: str, mean: float) -> str:
    """The grade of a mean cost per decision (``GRADES``), in Yams or 10 000's ``unit``.

    >>> grade("yams", "points", 0.1), grade("yams", "points", 1.5), grade("yams", "points", 7)
    ('excellent', 'fair', 'very-costly')
    """
    bound = FIRST_BOUND["yams" if kind == "yams" else unit]
    for name in GRADES[:-1]:
        if mean < bound:
            return name
        bound *= 2
    return GRADES[-1]


def model_of(record: Record) -> Model:
    """What the review judges a decision by: ``points`` (Yams, 10 000 alone), ``duel`` (the
    exact chance of winning of 10 000 for two), ``leader`` (10 000 of three or more: the
    exact two-player chance against the leading opponent)."""
    if record.kind != "10000" or len(record.seats) < 2:
        return "points"
    return "duel" if len(record.seats) == 2 else "leader"


def judged_in(record: Record) -> Literal["win", "points"]:
    """The unit of the review's costs: the chance of winning at a 10 000 table of two or
    more, else points."""
    return "points" if model_of(record) == "points" else "win"


def unit_of(record: Record) -> Literal["win", "points"]:
    """The unit of a game's account of luck and skill (:mod:`zar.ai.luck`): the chance of
    winning at a two-player 10 000 table, else points (Yams: of the final score; 10 000: of
    the turn; with more seats each seat's points, which add up exactly)."""
    return "win" if record.kind == "10000" and len(record.seats) == 2 else "points"


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision of a game: what was chosen, what was best, what it cost."""

    step: Step
    chosen: Option
    best: Option
    cost: float


def _value(option: Option, unit: str) -> float:
    value: float = option["win"] if unit == "win" else option["expected"]
    return value


def _judge_yams(strategy: Strategy, step: Step) -> Judged | None:
    before, move = step.before, step.move
    if not isinstance(before, YamsState) or not before.dice:
        return None
    options = yams_options(strategy, before)
    best = options[0]
    match move:
        case yams.Throw():
            kept = tuple(sorted(before.dice[p] for p in move.keep))
            if len(kept) == yams.DICE:
                # All five kept and no die thrown: a throw spent; worth the state after.
                after = step.after
                assert isinstance(after, YamsState)
                expected = yams_options(strategy, after)[0]["expected"]
            else:
                expected = strategy.keep_values(before.card, before.dice, before.throws_left)[kept]
            chosen = {"kind": "keep", "keep": list(move.keep), "faces": list(kept),
                      "expected": expected}  # fmt: skip
        case yams.Fill():
            values = strategy.box_values(before.card, before.dice)
            chosen = _box(move.box, before.options[move.box], values[move.box])
        case _:
            return None
    return Judged(step, chosen, best, max(0.0, best["expected"] - chosen["expected"]))


def _judge_farkle(strategies: Strategies, step: Step, unit: str) -> Judged | None:
    before, move = step.before, step.move
    if not isinstance(before, FarkleState):
        return None
    win = strategies.win(before, leader=unit == "win")
    values = _Turn(before, strategies.turn(), win)
    match move:
        case farkle.SetAside() if before.phase is Phase.SET_ASIDE:
            ranked = _ranked_selections(values)
            faces = tuple(sorted(before.tray[p] or 0 for p in move.positions))
            chosen = dict(next(option for k, option in ranked if k == faces))
            chosen["positions"] = sorted(move.positions)
            best = ranked[0][1]
        case farkle.Bank() | farkle.Throw() if before.turn_points:
            options = _bank_or_throw(values)
            kind = "bank" if isinstance(move, farkle.Bank) else "throw"
            chosen = next(option for option in options if option["kind"] == kind)
            best = options[0]
        case _:
            return None
    return Judged(step, chosen, best, max(0.0, _value(best, unit) - _value(chosen, unit)))


def _board(state: State) -> dict[str, Any]:
    """The board as the player saw it before deciding."""
    match state:
        case YamsState():
            # What the dice would score in each box they may go in, as the card shows it.
            return {
                "dice": list(state.dice),
                "throws_left": state.throws_left,
                "card": {box.name: state.card[box] for box in Box},
                "options": {box.name: points for box, points in state.options.items()},
            }
        case FarkleState():
            return {
                "tray": [
                    {"face": face, "aside": aside}
                    for face, aside in zip(state.tray, state.aside, strict=True)
                ],
                "turn_points": state.turn_points,
                "totals": list(state.totals),
            }
        case _:
            assert_never(state)


def _round(state: State) -> int:
    """The Yams round, or the number of the 10 000 turn of the seat to play."""
    if isinstance(state, YamsState):
        return state.round
    return state.turns[state.seat] + 1


def _verdict(kind: str, unit: str, total: float, decisions: int, lang: Language) -> str:
    if decisions == 0:
        return text(lang, "verdict-none")
    mean = total / decisions
    if total < EPSILON:
        return text(lang, "verdict-perfect")
    level = text(lang, f"verdict-{grade(kind, unit, mean)}")
    figures = {"total": _figure(total, unit, lang), "mean": _figure(mean, unit, lang)}
    return text(lang, f"verdict-{unit}", level=level, decisions=decisions, **figures)


def _figure(cost: float, unit: str, lang: Language) -> str:
    """A cost with one decimal, as every figure of the review: of the points, or of the
    percent; a cost that one decimal would write as nothing is ``< 0,1``.

    >>> _figure(12.34, "points", "tr"), _figure(0.0004, "win", "tr"), _figure(0.02, "points", "en")
    ('12,3', '< %0,1', '< 0.1')
    """
    least = 0.001 if unit == "win" else 0.1
    if 0 < cost < least / 2:
        cost, below = least, "< "
    else:
        below = ""
    return below + (percent(cost, lang) if unit == "win" else _decimal(cost, lang))


@dataclass(frozen=True, slots=True)
class _InChances:
    """A Yams decision at a table of two, read in chance of winning."""

    chosen: float  # the chosen option's chance
    best: float  # the score-optimal option's
    cost: float  # the best chance any option gave, minus the chosen one's


def _in_chances(strategy: Strategy, decisions: Iterable[Judged]) -> dict[int, _InChances]:
    """Each decision of a Yams game of two (by its version) in chance of winning, as the
    coach shows it (:func:`_option_chances`; the laws of the last rounds and the
    calibration read or worked out first: the review waits for them, in a worker thread)."""
    found = {}
    for decided in decisions:
        before = decided.step.before
        assert isinstance(before, YamsState)
        chances = _option_chances(strategy, before)
        chosen, best = (chances[_option_key(o)] for o in (decided.chosen, decided.best))
        found[decided.step.version] = _InChances(
            chosen, best, max(0.0, max(chances.values()) - chosen)
        )
    return found


def _read_in_chances(decided: Judged, read: _InChances | None) -> dict[str, Any]:
    """A decision's options and cost, with their chances of winning where they are read."""
    if read is None:
        return {"chosen": decided.chosen, "best": decided.best, "cost": decided.cost,
                "win_cost": None}  # fmt: skip
    return {"chosen": {**decided.chosen, "win": read.chosen},
            "best": {**decided.best, "win": read.best},
            "cost": decided.cost, "win_cost": read.cost}  # fmt: skip


def judged(
    record: Record,
    strategies: Strategies,
    *,
    computers: bool = False,
    unit: Literal["win", "points"] | None = None,
) -> Iterator[Judged]:
    """Every decision of the people at the table (``computers``: of every seat), with its
    cost in ``unit`` (by default the account's, :func:`unit_of`), undone moves excepted."""
    counted = unit_of(record) if unit is None else unit
    for step in record.steps():
        if record.seats[step.move.seat].computer and not computers:
            continue
        if record.kind == "yams":
            found = _judge_yams(strategies.yams(), step)
        else:
            found = _judge_farkle(strategies, step, counted)
        if found is not None:
            yield found


def review(
    record: Record,
    strategies: Strategies,
    lang: Language,
    decisions: Iterable[Judged] | None = None,
) -> dict[str, Any]:
    """After a game, for each person: the cost of every decision against the optimal one,
    the total and mean, the worst three, and a verdict; IllegalAction ``not-finished``.
    ``decisions``: the game's :func:`judged` decisions in the review's unit
    (:func:`judged_in`), when already at hand."""
    if not record.state.is_over:
        raise IllegalAction("the game is not finished", reason="not-finished")
    counted = judged_in(record)
    by_seat: dict[int, list[Judged]] = {
        seat: [] for seat, s in enumerate(record.seats) if not s.computer
    }
    if decisions is None:
        decisions = judged(record, strategies, unit=counted)
    for decided in decisions:
        if decided.step.move.seat in by_seat:
            by_seat[decided.step.move.seat].append(decided)
    # A Yams game of two: its costs read in chance of winning too.
    in_chances = record.kind == "yams" and len(record.seats) == 2
    read = (
        _in_chances(strategies.yams(), (j for found in by_seat.values() for j in found))
        if in_chances
        else {}
    )
    players = []
    for seat, found in by_seat.items():
        total = sum(j.cost for j in found)
        win_cost = sum(read[j.step.version].cost for j in found) if in_chances else None
        worst = sorted(
            (j for j in found if j.cost > EPSILON), key=lambda j: (-j.cost, j.step.version)
        )[:WORST]
        players.append(
            {
                "seat": seat,
                "name": record.seats[seat].name,
                "unit": counted,
                "model": model_of(record),
                "decisions": len(found),
                "total_cost": total,
                "mean_cost": total / len(found) if found else 0.0,
                "win_cost": win_cost,
                "mean_win_cost": (win_cost or 0.0) / len(found) if in_chances and found else None,
                "verdict": _verdict(record.kind, counted, total, len(found), lang),
                "worst": [
                    {
                        "version": j.step.version,
                        "round": _round(j.step.before),
                        **_read_in_chances(j, read.get(j.step.version)),
                        "board": _board(j.step.before),
                    }
                    for j in worst
                ],
            }
        )
    return {"players": players}
