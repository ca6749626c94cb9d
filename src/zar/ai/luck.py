"""Luck and skill, exactly: what the dice gave each player, and what the decisions cost.

Everything is measured in the optimal strategy's value V of a seat (the account's unit,
:func:`~zar.ai.judging.unit_of`): in Yams the expected final total of the seat's card; in
10 000 for two the seat's chance of winning (a tie counting 1/2); in 10 000 alone or with
more seats the seat's banked total plus the expected points of its turn under way.

- A throw's **luck** is V after the dice fell (the best option's value then) minus V before
  the throw: the value of the state with the throw to come, which is V's expectation over
  the throw's listed outcomes (:func:`zar.dice.outcomes`; the tests average it).
- A decision's **cost** is the best option's V minus the chosen one's, as the review
  counts it (:func:`~zar.ai.judging.judged`): the chosen option's value is V before the
  throw that follows, or V of the next round or turn.

So each seat's steps telescope: result = start + Σ luck − Σ cost. In Yams, each card is
its own account; with two seats, the other's throws and decisions move a seat's chance
too: result = start + luck − cost − the other's luck + the other's cost; with more seats
each turn starts at its expected points (606.98), which ``start`` sums. A game not
finished (abandoned, or under way) has for result V now. Only the moves that stand count
(:meth:`~zar.record.Record.steps`); the computer's seats are accounted like the people's.

With three or more seats in 10 000 the review judges decisions in chance of winning
(:func:`~zar.ai.judging.judged_in`), which no seat's V adds up to; the account stays in
points, its decisions' cost in points too (``account_cost`` in the review).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, assert_never

from zar import farkle, yams
from zar.ai.judging import (
    Judged,
    Strategies,
    farkle_model,
    farkle_options,
    judged,
    unit_of,
    yams_options,
)
from zar.farkle import FarkleState, Phase
from zar.record import Record, State, Step
from zar.yams import YamsState

__all__ = ["Account", "Ledger", "Luck", "account", "figures", "ledger", "values"]


@dataclass(frozen=True, slots=True)
class Luck:
    """One throw: the thrower's V before the dice fell and after (in 10 000 with more
    seats, the turn's points: the banked total left out)."""

    step: Step
    before: float
    after: float
    opens: bool  # the first throw of a round or turn (not a throw forced within a turn)

    @property
    def luck(self) -> float:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class Account:
    """One seat's game in V: result = start + luck − cost (− opponent_luck + opponent_cost
    at a two-player 10 000 table, where those are the other seat's own figures)."""

    seat: int
    start: float
    luck: float
    cost: float
    result: float
    decisions: int
    throws: int
    opponent_luck: float | None = None
    opponent_cost: float | None = None

    @property
    def reckoned(self) -> float:
        """start + luck − cost (− opponent_luck + opponent_cost): the result, to float noise."""
        other = (self.opponent_cost or 0.0) - (self.opponent_luck or 0.0)
        return math.fsum((self.start, self.luck, -self.cost, other))

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "start": self.start,
            "luck": self.luck,
            "cost": self.cost,
            "result": self.result,
            "decisions": self.decisions,
            "throws": self.throws,
            "opponent_luck": self.opponent_luck,
            "opponent_cost": self.opponent_cost,
        }


@dataclass(frozen=True, slots=True)
class Ledger:
    """A game's luck and skill: every throw's luck, every decision's cost, V of every seat
    after every step (the start first, as version 0), and each seat's account."""

    unit: Literal["win", "points"]
    throws: tuple[Luck, ...]
    decisions: tuple[Judged, ...]
    values: tuple[tuple[int, tuple[float, ...]], ...]
    accounts: tuple[Account, ...]


def _key(unit: str) -> str:
    """The field of an option that holds its value in ``unit``."""
    return "win" if unit == "win" else "expected"


def _turn_value(state: FarkleState, strategies: Strategies) -> float:
    """V of the seat to play in its turn: the best option's value now."""
    win = strategies.win(state)
    best = farkle_options(state, strategies.turn(state), win)[0]
    value: float = best["win"] if win is not None else best["expected"]
    return value


def values(state: State, strategies: Strategies) -> tuple[float, ...]:
    """V of each seat in ``state`` (see the module's note)."""
    match state:
        case YamsState():
            strategy = strategies.yams(state.settings.rules)
            found = []
            for seat, card in enumerate(state.cards):
                if seat == state.seat and state.dice and not state.is_over:
                    found.append(float(yams_options(strategy, state)[0]["expected"]))
                else:
                    found.append(strategy.value(card))
            return tuple(found)
        case FarkleState():
            seats, seat = len(state.totals), state.seat
            in_chances = farkle_model(state) == "duel"  # else each seat's points
            if state.is_over:
                won = state.winners
                if in_chances:
                    return tuple(1 / len(won) if s in won else 0.0 for s in range(seats))
                return tuple(float(total) for total in state.totals)
            if in_chances:
                own = _turn_value(state, strategies)
                return (own, 1.0 - own) if seat == 0 else (1.0 - own, own)
            totals = [float(total) for total in state.totals]
            if _under_way(state):  # its points to come count
                totals[seat] += _turn_value(state, strategies)
            return tuple(totals)
        case _:
            assert_never(state)


def _before(step: Step, chosen: Judged | None, strategies: Strategies, key: str) -> float:
    """V of the thrower before the dice fell: the value of the option chosen before the
    throw (the dice kept, throwing again), else of the round or turn to come."""
    if chosen is not None:
        value: float = chosen.chosen[key]
        return value
    before = step.before
    match before:
        case YamsState():
            return strategies.yams(before.settings.rules).value(before.card)
        case FarkleState():
            return _turn_value(before, strategies)
        case _:
            assert_never(before)


def _under_way(state: FarkleState) -> bool:
    """Whether a 10 000 turn is past its start (a throw may be forced within one: under an
    entry or a bank minimum, a turn short of it throws on)."""
    return bool(state.turn_points) or state.phase is Phase.SET_ASIDE


def _opens(state: State) -> bool:
    """Whether a throw from ``state`` opens a round or a turn."""
    return not isinstance(state, FarkleState) or not _under_way(state)


def _banked(step: Step, unit: str) -> float:
    """What a 10 000 seat had banked before its throw, where V counts it (more seats)."""
    before = step.before
    if isinstance(before, FarkleState) and unit == "points":
        return float(before.totals[before.seat])
    return 0.0


def ledger(record: Record, strategies: Strategies) -> Ledger:
    """The luck of every throw and the cost of every decision of ``record``, every seat's."""
    unit = unit_of(record)
    key = _key(unit)
    decisions = tuple(judged(record, strategies, computers=True))
    by_version = {j.step.version: j for j in decisions}
    series = [(0, values(record.start, strategies))]
    throws: list[Luck] = []
    for step in record.steps():
        after = values(step.after, strategies)
        series.append((step.version, after))
        if isinstance(step.move, yams.Throw | farkle.Throw):
            chosen = by_version.get(step.version)
            seat = step.move.seat
            before = _before(step, chosen, strategies, key)
            opens = chosen is None and _opens(step.before)
            throws.append(Luck(step, before, after[seat] - _banked(step, unit), opens))
    seats = range(len(record.seats))
    luck = [math.fsum(t.luck for t in throws if t.step.move.seat == s) for s in seats]
    cost = [math.fsum(j.cost for j in decisions if j.step.move.seat == s) for s in seats]
    accounts = []
    for seat in seats:
        start = series[0][1][seat]
        if record.kind == "10000" and unit == "points":  # each turn starts at its expected points
            start += math.fsum(t.before for t in throws if t.opens and t.step.move.seat == seat)
        other = 1 - seat if unit == "win" else None
        accounts.append(
            Account(
                seat=seat,
                start=start,
                luck=luck[seat],
                cost=cost[seat],
                result=series[-1][1][seat],
                decisions=sum(j.step.move.seat == seat for j in decisions),
                throws=sum(t.step.move.seat == seat for t in throws),
                opponent_luck=None if other is None else luck[other],
                opponent_cost=None if other is None else cost[other],
            )
        )
    return Ledger(unit, tuple(throws), decisions, tuple(series), tuple(accounts))


def account(record: Record, strategies: Strategies) -> list[dict[str, Any]]:
    """Each seat's account of the game as plain values, in seat order (the computer's seats
    included, marked): what a game's statistics keep."""
    found = ledger(record, strategies)
    return [
        {"name": record.seats[a.seat].name, "computer": record.seats[a.seat].computer,
         "unit": found.unit, **a.to_json()}
        for a in found.accounts
    ]  # fmt: skip


def figures(record: Record, strategies: Strategies) -> dict[int, dict[str, float]]:
    """For each move that stands (by its version), its throw's ``luck`` and its decision's
    ``cost``, those it has: what a game's export adds to its log."""
    found = ledger(record, strategies)
    by_version: dict[int, dict[str, float]] = {}
    for throw in found.throws:
        by_version.setdefault(throw.step.version, {})["luck"] = throw.luck
    for decided in found.decisions:
        by_version.setdefault(decided.step.version, {})["cost"] = decided.cost
    return by_version
