"""The review after a game: every decision of a person next to the perfect player's, what
it cost, the worst three as the board looked, and a verdict; with each person's account of
luck and skill, the luckiest and unluckiest throws as the dice fell.

The decisions are judged as :mod:`zar.ai.judging` judges them (by the game's ``model``:
points, or the chance of winning); the account is :mod:`zar.ai.luck`'s; the verdict is
said in the player's language (:func:`zar.i18n.sentences.verdict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, assert_never

from zar import farkle, yams
from zar.ai.judging import (
    EPSILON,
    InChances,
    Judged,
    Strategies,
    in_chances,
    in_duel,
    judged,
    judged_in,
    model_of,
)
from zar.ai.luck import Ledger, Luck, ledger
from zar.farkle import FarkleState, Phase
from zar.i18n import Language, sentences
from zar.record import Record, State, Step
from zar.table import IllegalAction
from zar.yams import YamsState

__all__ = ["FIRST_BOUND", "GRADES", "WORST", "grade", "review", "verdict"]

WORST = 3  # decisions a review shows
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


def verdict(
    kind: str, unit: Literal["win", "points"], total: float, decisions: int, lang: Language
) -> str:
    """The verdict on ``decisions`` that cost ``total`` in ``unit``, in Yams or 10 000
    (``kind``): none to judge, perfect play, or the grade of their mean cost."""
    if decisions == 0:
        level = "none"
    elif total < EPSILON:
        level = "perfect"
    else:
        level = grade(kind, unit, total / decisions)
    return sentences.verdict(level, unit, total, decisions, lang)


# The review's reply.


def _board(state: State) -> dict[str, Any]:
    """The board as the player saw it before deciding."""
    match state:
        case YamsState():
            # What the dice would score in each box they may go in, as the card shows it.
            return {
                "dice": list(state.dice),
                "throws_left": state.throws_left,
                "card": {box.name: state.card[box] for box in state.card.rules.boxes},
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


def _read_in_chances(decided: Judged, read: InChances | None) -> dict[str, Any]:
    """A decision's options and cost, with their chances of winning where they are read."""
    if read is None:
        return {"chosen": decided.chosen, "best": decided.best, "cost": decided.cost,
                "win_cost": None}  # fmt: skip
    return {"chosen": {**decided.chosen, "win": read.chosen},
            "best": {**decided.best, "win": read.best},
            "cost": decided.cost, "win_cost": read.cost}  # fmt: skip


def _fallen(step: Step) -> dict[str, Any]:
    """The board as the dice fell: a lost 10 000 throw shows its tray, though the turn
    passed at once."""
    before, after, move = step.before, step.after, step.move
    if isinstance(before, FarkleState) and isinstance(move, farkle.Throw):
        if isinstance(after, FarkleState) and after.phase is Phase.SET_ASIDE:  # it scored
            return _board(after)
        faces = iter(move.dice)
        tray = [f if a else next(faces) for f, a in zip(before.tray, before.aside, strict=True)]
        return {
            "tray": [{"face": f, "aside": a} for f, a in zip(tray, before.aside, strict=True)],
            "turn_points": before.turn_points,
            "totals": list(before.totals),
        }
    return _board(after)


def _throw_json(throw: Luck) -> dict[str, Any]:
    move = throw.step.move
    assert isinstance(move, yams.Throw | farkle.Throw)
    return {
        "version": throw.step.version,
        "round": _round(throw.step.before),
        "dice": list(move.dice),
        "before": throw.before,
        "after": throw.after,
        "luck": throw.luck,
        "board": _fallen(throw.step),
    }


def review(record: Record, strategies: Strategies, lang: Language) -> dict[str, Any]:
    """After a game, for each person: the cost of every decision against the optimal one,
    the total and mean, the worst three, and a verdict (:func:`_judgement`); and the
    account of luck and skill (:func:`_account`); IllegalAction ``not-finished``."""
    if not record.state.is_over:
        raise IllegalAction("the game is not finished", reason="not-finished")
    found = ledger(record, strategies)
    counted = judged_in(record)
    # The account's decisions are the review's, but at a 10 000 table of three or more.
    decisions = found.decisions
    if found.unit != counted:
        decisions = tuple(judged(record, strategies, unit=counted))
    people = [seat for seat, s in enumerate(record.seats) if not s.computer]
    by_seat = {seat: [j for j in decisions if j.step.move.seat == seat] for seat in people}
    # A Yams game of two: its costs read in chance of winning too.
    read = None
    start = record.start
    if isinstance(start, YamsState) and in_duel(start):
        strategy = strategies.yams(start.settings.rules)
        read = in_chances(strategy, (j for seat in people for j in by_seat[seat]))
    return {
        "players": [
            {**_judgement(record, seat, by_seat[seat], read, lang), **_account(found, seat)}
            for seat in people
        ]
    }


def _judgement(
    record: Record,
    seat: int,
    found: Sequence[Judged],
    read: dict[int, InChances] | None,
    lang: Language,
) -> dict[str, Any]:
    """A person's decisions: their cost in the review's unit (and, where ``read``, in chance
    of winning), the worst three as the board looked, and the verdict."""
    counted = judged_in(record)
    total = sum(j.cost for j in found)
    win_cost = None if read is None else sum(read[j.step.version].cost for j in found)
    worst = sorted((j for j in found if j.cost > EPSILON), key=lambda j: (-j.cost, j.step.version))[
        :WORST
    ]
    return {
        "seat": seat,
        "name": record.seats[seat].name,
        "unit": counted,
        "model": model_of(record),
        "decisions": len(found),
        "total_cost": total,
        "mean_cost": total / len(found) if found else 0.0,
        "win_cost": win_cost,
        "mean_win_cost": (win_cost or 0.0) / len(found) if read is not None and found else None,
        "verdict": verdict(record.kind, counted, total, len(found), lang),
        "worst": [
            {
                "version": j.step.version,
                "round": _round(j.step.before),
                **_read_in_chances(j, None if read is None else read.get(j.step.version)),
                "board": _board(j.step.before),
            }
            for j in worst
        ],
    }


def _account(found: Ledger, seat: int) -> dict[str, Any]:
    """A person's account of luck and skill, in ``account_unit``: the ``start``, the dice's
    ``luck``, the decisions' ``account_cost``, the ``result``, the other's luck and cost at
    a two-player 10 000 table, the three luckiest and unluckiest throws as the dice fell,
    and V after every step (``values``)."""
    own = found.accounts[seat]
    throws = [t for t in found.throws if t.step.move.seat == seat]
    lucky = sorted((t for t in throws if t.luck > EPSILON), key=lambda t: -t.luck)
    unlucky = sorted((t for t in throws if t.luck < -EPSILON), key=lambda t: t.luck)
    return {
        "account_unit": found.unit,
        "start": own.start,
        "luck": own.luck,
        "account_cost": own.cost,
        "result": own.result,
        "opponent_luck": own.opponent_luck,
        "opponent_cost": own.opponent_cost,
        "throws": own.throws,
        "luckiest": [_throw_json(t) for t in lucky[:WORST]],
        "unluckiest": [_throw_json(t) for t in unlucky[:WORST]],
        "values": [{"version": v, "value": at[seat]} for v, at in found.values],
    }
