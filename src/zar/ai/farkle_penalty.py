"""The two-player game of 10 000 under a penalty for three lost turns in a row, solved
exactly by sweeps (docs/strategy-10000.md, "Three lost turns in a row").

A turn starts at (a, b, c, c'): the mover's banked total a against b, and each one's lost
turns in a row, c and c' (0 to 2). A bank of t hands the other (b, a + t, c', 0); a lost
turn hands him (b, a, c', c + 1), or after the third (b, a - penalty, c', 0). Totals may
fall below 0: they are bounded below at ``low`` units (a penalty past it stops there).

Within one sum a + b the lost turns only raise the sum of the counts, and a bank only
raises the sum: solved by decreasing sum, then decreasing c + c', every state is one turn
pass (:func:`~zar.ai.farkle_solver.turn_values`' kernel) from values already solved; but
the third lost turn leads to a lower sum, solved later. A sweep reads those from the
sweep before; sweeps repeat until the largest change of a value is under the tolerance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from zar.ai.farkle_chances import (
    UNIT,
    ChanceTables,
    Floats,
    Ints,
    bank_floors,
    chance_tables,
)
from zar.ai.farkle_solver import (
    LEAD_ROWS,
    _kernel,
    _lead_cap,
    _parallel_kernel,
    _turn_pass,
    beaten_table,
    last_turn,
    stop_bounds,
)
from zar.farkle.rules import FarkleRules

__all__ = ["LOST", "LOW", "PenaltyTables", "penalty_turn", "solve_penalty_game"]

LOW = -2_500 // UNIT  # Busche's bound on a banked total: -2 500 points
LOST = 3  # the lost turns in a row a state counts: 0, 1 or 2 (the third is the penalty)
TOLERANCE = 1e-10  # the sweeps stop when no value changed more than this
SWEEPS = 200  # never seen needed: each sweep divides the change by about ten


@_kernel
def _turn_at(
    a: int,
    b: int,
    c: int,
    d: int,
    target: int,
    low: int,
    penalty: int,
    win: Floats,
    beaten: Floats,
    stop: Floats,
    floors: Ints,
    rows_past: int,
) -> tuple[int, float, Floats]:
    # The turn at (a, b, c, d) given every other value of the table: the turn points from
    # which it banks for sure, what a lost turn is worth, what banking each t is worth.
    if c < LOST - 1:
        other = win[b - low, a - low, d, c + 1]
    else:  # the third lost turn in a row: the penalty, the count starts again
        other = win[b - low, max(a - penalty, low) - low, d, 0]
    floor = int(floors[1] if a <= 0 else floors[0])
    cap = max(target - a, _lead_cap(stop, other) + b - a, floor)
    rows = cap + rows_past
    bank = np.empty(rows, dtype=np.float64)
    for t in range(rows):
        s = a + t
        if t < floor:
            bank[t] = -np.inf  # the rules refuse this bank: the turn throws on
        elif s < target:
            bank[t] = 1.0 - win[b - low, s - low, d, 0]
        elif s - b < beaten.shape[0]:
            bank[t] = 1.0 - beaten[s - b]  # the other's last turn (0 without one)
        else:
            bank[t] = 1.0
    return cap, 1.0 - other, bank


@_kernel
def _start(
    a: int,
    b: int,
    c: int,
    d: int,
    target: int,
    low: int,
    penalty: int,
    win: Floats,
    beaten: Floats,
    stop: Floats,
    floors: Ints,
    tables: tuple,  # type: ignore[type-arg]
) -> float:
    rows_past = max(tables[4].max(), 1)
    cap, lost, bank = _turn_at(
        a, b, c, d, target, low, penalty, win, beaten, stop, floors, rows_past
    )
    work = np.zeros(16 * (cap + rows_past), dtype=np.float64)
    _turn_pass(bank, cap, lost, work, tables)
    return float(work[12])


@_parallel_kernel
def _sweep_sum(
    s: int,
    target: int,
    low: int,
    penalty: int,
    win: Floats,
    beaten: Floats,
    stop: Floats,
    floors: Ints,
    tables: tuple,  # type: ignore[type-arg]
) -> float:
    # Every state of sum s, by decreasing c + d: each reads the states of c + d + 1 of
    # this sum (a lost turn), of higher sums (a bank) and of lower sums (the penalty: the
    # last sweep's values); none reads a state of its own c + d, so they run in parallel.
    first = max(low, s - (target - 1))
    count = min(target - 1, s - low) - first + 1
    change = 0.0
    for k in range(2 * (LOST - 1), -1, -1):
        c0 = max(0, k - (LOST - 1))
        counts = min(k, LOST - 1) - c0 + 1
        diffs = np.zeros(count * counts, dtype=np.float64)
        for i in numba.prange(count * counts):
            a = first + i // counts
            c = c0 + i % counts
            b = s - a
            d = k - c
            value = _start(a, b, c, d, target, low, penalty, win, beaten, stop, floors, tables)
            diffs[i] = abs(value - win[a - low, b - low, c, d])
            win[a - low, b - low, c, d] = value
        change = max(change, diffs.max())
    return change


@dataclass(frozen=True)
class PenaltyTables:
    """The penalty game to ``target`` units, solved.

    ``win[a - low, b - low, c, d]``: the chance (a tie counting 1/2) of the player about to
    throw with a units banked against b, c and d their lost turns in a row; ``need``,
    ``short``, ``stop``: the last turn's tables (:func:`~zar.ai.farkle_solver.last_turn`,
    zeros when a bank reaching the target wins); ``changes``: each sweep's largest change.
    """

    target: int
    low: int
    win: Floats
    need: Floats
    short: Floats
    stop: Floats
    changes: tuple[float, ...]


def solve_penalty_game(
    target: int,
    rules: FarkleRules,
    *,
    low: int = LOW,
    tolerance: float = TOLERANCE,
    progress: Callable[[int, float], None] | None = None,
) -> PenaltyTables:
    """Solve the two-player game to ``target`` units under ``rules`` (a penalty for three
    lost turns in a row), totals bounded below at ``low`` units (<= 0).

    ``progress(sweep, change)`` is called after each sweep with its largest change.
    """
    if type(target) is not int or target < 1:
        raise ValueError(f"a target is a positive number of units of {UNIT}, not {target!r}")
    if type(low) is not int or low > 0:
        raise ValueError(f"the bound on a total is 0 units or fewer, not {low!r}")
    if not rules.three_lost:
        raise ValueError("these rules have no penalty for three lost turns in a row")
    tables = chance_tables(rules)
    floors = bank_floors(rules)
    penalty = rules.three_lost // UNIT
    need, short = last_turn(rules, target - low + LEAD_ROWS, tables)
    beaten = beaten_table(need, short)
    stop = stop_bounds(beaten, tables)
    size = target - low
    win = np.full((size, size, LOST, LOST), 0.5, dtype=np.float64)
    args = tables.kernel_args
    changes: list[float] = []
    while len(changes) < SWEEPS:
        change = 0.0
        for s in range(2 * (target - 1), 2 * low - 1, -1):
            found = _sweep_sum(s, target, low, penalty, win, beaten, stop, floors, args)
            change = max(change, float(found))
        changes.append(change)
        if progress is not None:
            progress(len(changes), change)
        if change < tolerance:
            return PenaltyTables(target, low, win, need, short, stop, tuple(changes))
    raise RuntimeError(f"the sweeps did not settle: the last changed a value by {change:.1e}")


def penalty_turn(
    state: tuple[int, int, int, int],
    game: PenaltyTables,
    rules: FarkleRules,
    tables: ChanceTables,
) -> tuple[int, float, Floats]:
    """The turn at ``state`` (a, b, c, d) of a solved game: (the turn points, in units,
    from which it banks for sure; what a lost turn is worth; what banking t units is worth,
    t = 0 .. cap + max_points - 1), for :func:`~zar.ai.farkle_solver.turn_values`."""
    a, b, c, d = state
    cap, lost, bank = _turn_at(
        a,
        b,
        c,
        d,
        game.target,
        game.low,
        rules.three_lost // UNIT,
        game.win,
        beaten_table(game.need, game.short),
        game.stop,
        bank_floors(rules),
        tables.max_points,
    )
    return int(cap), float(lost), bank
