"""The numba kernels behind the 10 000 strategies (the chance tables they read:
:mod:`zar.ai.farkle_chances`).

Points are counted in units of 50 (every score of the game is a multiple of 50). Within
a turn points only grow with each set-aside, so a turn is acyclic in (turn points t, dice
to throw n) and is solved in one pass from high t to low: :func:`turn_values`. What is
cyclic is the game: a lost turn hands the dice to the opponent with both banked totals
unchanged. :func:`solve_game` settles the turn-start win chances W(a, b) by decreasing
a + b: a bank only leads to a higher sum, and each pair (a, b) is tied only to (b, a) (to
itself when a = b), two unknowns solved by Newton's method (policy iteration).

The rules come from the engine through the chance tables; nothing here knows one. What a
turn may bank comes as a floor in units: below it the bank is worth -inf, so the turn
throws on.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numba
import numpy as np

from zar.ai.farkle_chances import (
    UNIT,
    ChanceTables,
    Floats,
    Ints,
    bank_floors,
    bank_for_sure,
    chance_tables,
)
from zar.farkle.game import DICE
from zar.farkle.rules import SEED, FarkleRules

__all__ = [
    "UNIT",
    "ChanceTables",
    "GameTables",
    "bank_floors",
    "bank_for_sure",
    "beaten_table",
    "chance_tables",
    "compile_kernels",
    "last_turn",
    "last_turn_short",
    "last_turn_table",
    "pair_bank_values",
    "pair_cap",
    "solve_game",
    "stop_bounds",
    "turn_values",
]

# The build shares the machine: threads that spin while they wait for the others' sum of
# pairs would steal the core those others need (the default, active, doubled the build
# time on a busy two-core machine). Set before OpenMP starts; an explicit setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# The last-turn table runs to leads of the target + 60 000 points: past them a last turn's
# chance (under 1e-28) counts as 0.
LEAD_ROWS = 1_200
TOLERANCE = 1e-13  # Newton stops when the values at its estimate agree with it this well
NEWTON_STEPS = 30  # then plain iteration (a contraction) takes over; never seen needed

F = TypeVar("F", bound=Callable[..., Any])


def _kernel(fn: F) -> F:
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def _parallel_kernel(fn: F) -> F:
    return cast(F, numba.njit(cache=True, parallel=True)(fn))


# The turn.


@_kernel
def _turn_pass(bank: Floats, cap: int, lost: float, work: Floats, tables: Any) -> None:
    farkle, class_first, class_chance, option_first, _, _, offset = tables[:7]
    full_class_first, full_class_chance, full_option_first, full_offset = tables[7:]
    rows = work.shape[0] // 16
    reach = rows - cap  # the most units a set-aside earns
    drop = rows + reach  # the lowest row whose value exceeds the next row's, for some n
    for t in range(rows - 1, -1, -1):
        row = 16 * t
        if t >= cap:
            for n in range(1, 7):
                work[row + 2 * n] = bank[t]
                work[row + 2 * n + 1] = 0.0
        else:
            # The best options are enough when every value grows with t over the rows a
            # throw from t can reach; else every option counts.
            cf, cc, of, off = class_first, class_chance, option_first, offset
            if drop < t + reach:
                cf, cc, of = full_class_first, full_class_chance, full_option_first
                off = full_offset
            for n in range(1, 7):
                value = farkle[n] * lost
                lose = farkle[n]
                for c in range(cf[n], cf[n + 1]):
                    first = of[c]
                    at = row + off[first]
                    best = work[at]
                    for o in range(first + 1, of[c + 1]):
                        i = row + off[o]
                        x = work[i]
                        better = x > best
                        best = x if better else best
                        at = i if better else at
                    value += cc[c] * best
                    lose += cc[c] * work[at + 1]
                banks = t > 0 and bank[t] >= value
                work[row + 2 * n] = bank[t] if banks else value
                work[row + 2 * n + 1] = 0.0 if banks else lose
        if t + 1 < rows:
            for n in range(1, 7):
                if work[row + 2 * n] > work[row + 16 + 2 * n]:
                    drop = t


def turn_values(bank: Floats, cap: int, lost: float, tables: ChanceTables) -> tuple[Floats, Floats]:
    """The values of a turn's states under the policy that maximises them.

    ``bank[t]``: what banking t units is worth (-inf: the rules forbid that bank);
    ``lost``: what a lost turn is worth; from ``cap`` units on the player banks. Returns
    ``value[t, n]``, the best of banking and throwing holding t units with n dice to throw
    (``value[0, 6]`` is the turn's start, where only a throw is allowed), and
    ``lose[t, n]``, the chance that the turn is lost from there under that policy.
    ``bank`` holds ``cap + tables.max_points`` values.
    """
    rows = cap + tables.max_points
    if cap < 1 or bank.shape != (rows,):
        raise ValueError(f"bank holds cap + {tables.max_points} values, cap at least 1")
    work = np.zeros(16 * rows, dtype=np.float64)
    bank = np.ascontiguousarray(bank, dtype=np.float64)
    _turn_pass(bank, cap, lost, work, tables.kernel_args)
    both = work.reshape(rows, 8, 2)[:, : DICE + 1]
    return both[:, :, 0].copy(), both[:, :, 1].copy()


# The last turn: beat the leader's total.


@_kernel
def _last_turn(
    rows: int,
    tables: Any,
) -> Floats:
    _, class_first, class_chance, option_first, option_points, option_dice, _ = tables[:7]
    need = np.zeros((rows, 7), dtype=np.float64)
    for r in range(rows):
        for n in range(1, 7):
            value = 0.0
            for c in range(class_first[n], class_first[n + 1]):
                best = 0.0
                for o in range(option_first[c], option_first[c + 1]):
                    rest = r - option_points[o]
                    if rest < 0:
                        x = 1.0  # past the leader: bank and win
                    elif rest == 0:
                        x = max(0.5, need[0, option_dice[o]])  # level: share, or throw on
                    else:
                        x = need[rest, option_dice[o]]
                    best = max(best, x)
                value += class_chance[c] * best
            need[r, n] = value
    return need


def last_turn_table(rows: int, tables: ChanceTables) -> Floats:
    """``need[r, n]``: the chance (a tie counting 1/2) of the last turn of a player ``r``
    units short of the leader's total (0: level), about to throw n dice, playing to pass
    it. A lost throw is worth 0: the player stays behind (a last turn starts at least 50
    behind, since the leader's total reached the target and the player's did not)."""
    result: Floats = _last_turn(rows, tables.kernel_args)
    return result


@_kernel
def _last_turn_short(minimum: int, tables: Any) -> Floats:
    _, class_first, class_chance, option_first, option_points, option_dice, _ = tables[:7]
    short = np.zeros((minimum, minimum, 7), dtype=np.float64)
    for d in range(1, minimum):
        for t in range(minimum - 1, -1, -1):
            for n in range(1, 7):
                value = 0.0
                for c in range(class_first[n], class_first[n + 1]):
                    best = 0.0
                    for o in range(option_first[c], option_first[c + 1]):
                        s = t + option_points[o]
                        # From the minimum on the turn banks, past the leader: a win.
                        x = 1.0 if s >= minimum else short[d, s, option_dice[o]]
                        best = max(best, x)
                    value += class_chance[c] * best
                short[d, t, n] = value
    return short


def last_turn_short(minimum: int, tables: ChanceTables) -> Floats:
    """``short[d, t, n]``: the last turn's chance d units behind (1 <= d < ``minimum``),
    holding t < ``minimum`` units with n dice to throw, when a bank needs ``minimum`` units:
    passing the leader is not enough there, the turn must reach the minimum too. (From d =
    ``minimum`` - 1 up, passing implies it: :func:`last_turn_table` holds.)"""
    result: Floats = _last_turn_short(minimum, tables.kernel_args)
    return result


def beaten_table(need: Floats, short: Floats) -> Floats:
    """``beaten[d]``: the chance of a last turn from its start d units behind (a tie 1/2)."""
    beaten: Floats = np.ascontiguousarray(need[:, DICE])
    for d in range(1, short.shape[0]):
        beaten[d] = short[d, 0, DICE]
    return beaten


@_kernel
def _stop_bounds(
    beaten: Floats,
    tables: Any,
) -> Floats:
    farkle, class_first, class_chance, option_first, option_points, _, _ = tables[:7]
    rows = beaten.shape[0]
    stop = np.zeros(rows, dtype=np.float64)
    top = 0.0
    for d in range(rows - 1, 0, -1):
        for n in range(1, 7):
            rest = beaten[d]
            for c in range(class_first[n], class_first[n + 1]):
                low = 1.0
                for o in range(option_first[c], option_first[c + 1]):
                    e = d + option_points[o]
                    low = min(low, beaten[e] if e < rows else 0.0)
                rest -= class_chance[c] * low
            top = max(top, rest / farkle[n])
        stop[d] = top
    stop[0] = top
    return stop


def stop_bounds(beaten: Floats, tables: ChanceTables) -> Floats:
    """``stop[d]``: past the target, banking is optimal at every lead of d units or more
    over the opponent whenever his chance after a lost turn of ours is ``stop[d]`` or more.

    ``beaten[d]``: the opponent's last-turn chance against a lead of d. If banking is
    optimal at every lead above d, throwing n dice at d is worth farkle[n] * lost + the sum
    over classes of the best 1 - beaten[d + points], banking 1 - beaten[d]; banking wins
    there too when (beaten[d] - sum of chance * min beaten[d + points]) / farkle[n] is at
    most 1 - lost, the opponent's chance. ``stop`` is the largest of these over n and over
    every lead from d up: one-step look-ahead on a closed region, exact.
    """
    result: Floats = _stop_bounds(beaten, tables.kernel_args)
    return result


# The game: W(a, b), the chance of the player to move with a banked against b.


@_kernel
def _lead_cap(stop: Floats, other: float) -> int:
    # The smallest lead d >= 1 with stop[d] <= other (stop never rises with d).
    lo = 1
    hi = stop.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if stop[mid] <= other:
            hi = mid
        else:
            lo = mid + 1
    return lo


@_kernel
def _floor(a: int, floors: Ints) -> int:
    # floors: (the bank minimum, the floor of a player with nothing banked), in units.
    return int(floors[1] if a == 0 else floors[0])


@_kernel
def _pair_cap(a: int, b: int, target: int, other: float, stop: Floats, floors: Ints) -> int:
    return max(target - a, _lead_cap(stop, other) + b - a, _floor(a, floors))


def pair_cap(a: int, b: int, target: int, other: float, stop: Floats, floors: Ints) -> int:
    """The turn points (units) from which the player at (a, b) banks for sure, ``other``
    being the opponent's chance W(b, a) when he gets the dice after a lost turn (never
    below the turn's floor: ``floors`` is (the bank minimum, the entry's floor))."""
    return int(_pair_cap(a, b, target, other, stop, floors))


@_kernel
def _bank_values(
    a: int, b: int, target: int, rows: int, win: Floats, beaten: Floats, floors: Ints
) -> Floats:
    bank = np.empty(rows, dtype=np.float64)
    floor = _floor(a, floors)
    for t in range(rows):
        s = a + t
        if t < floor:
            bank[t] = -np.inf  # the rules refuse this bank: the turn throws on
        elif s < target:
            bank[t] = 1.0 - win[b, s]
        elif s - b < beaten.shape[0]:
            bank[t] = 1.0 - beaten[s - b]
        else:
            bank[t] = 1.0
    return bank


def pair_bank_values(
    a: int,
    b: int,
    target: int,
    cap: int,
    win: Floats,
    beaten: Floats,
    floors: Ints,
    tables: ChanceTables,
) -> Floats:
    """What banking t units (t = 0 .. cap + max_points - 1) is worth to the player to move
    at (a, b): the opponent's turn at (b, a + t), or past the target his last turn (-inf
    under the floor)."""
    result: Floats = _bank_values(a, b, target, cap + tables.max_points, win, beaten, floors)
    return result


@_kernel
def _start_value(
    a: int,
    b: int,
    target: int,
    cap: int,
    lost: float,
    win: Floats,
    beaten: Floats,
    floors: Ints,
    tables: Any,
) -> tuple[float, float]:
    rows = cap + max(tables[4].max(), 1)
    bank = _bank_values(a, b, target, rows, win, beaten, floors)
    work = np.zeros(16 * rows, dtype=np.float64)
    _turn_pass(bank, cap, lost, work, tables)
    return work[12], work[13]


@_kernel
def _guess(x: int, y: int, target: int, win: Floats) -> float:
    # W(x, y) on the straight line through W(x, y + 1) and W(x, y + 2), solved already.
    if y + 2 < target:
        return float(2.0 * win[x, y + 1] - win[x, y + 2])
    if y + 1 < target:
        return float(win[x, y + 1])
    if x + 1 < target:
        return float(win[x + 1, y])
    return 0.5


@_kernel
def _lead_ok(lead: int, stop: Floats, other: float) -> bool:
    return bool(lead >= stop.shape[0] or stop[lead] <= other)


@_kernel
def _solve_pair(
    a: int,
    b: int,
    target: int,
    margin: int,
    win: Floats,
    beaten: Floats,
    stop: Floats,
    caps: Ints,
    floors: Ints,
    tables: Any,
) -> int:
    # W(a, b) = f(1 - W(b, a)) and W(b, a) = g(1 - W(a, b)), f and g convex and piecewise
    # linear in what a lost turn is worth, their slope the chance of losing the turn under
    # the policy chosen. Newton's method (policy iteration) ends when the policy stops
    # changing: the values at the estimate then agree with it.
    wab = _guess(a, b, target, win)
    wba = _guess(b, a, target, win)
    bound_ab = 0.9 * wba
    bound_ba = 0.9 * wab
    passes = 0
    cab = cba = 0
    settled = False
    for _ in range(8):
        cab = _pair_cap(a, b, target, bound_ab, stop, floors) + margin
        cba = _pair_cap(b, a, target, bound_ba, stop, floors) + margin
        for step in range(200):
            v1, s1 = _start_value(a, b, target, cab, 1.0 - wba, win, beaten, floors, tables)
            passes += 1
            if a == b:
                if abs(v1 - wab) <= TOLERANCE:
                    wab = wba = v1
                    settled = True
                    break
                alpha = v1 - s1 * (1.0 - wab)
                wab = wba = (alpha + s1) / (1.0 + s1) if step < NEWTON_STEPS else v1
                continue
            v2, s2 = _start_value(b, a, target, cba, 1.0 - wab, win, beaten, floors, tables)
            passes += 1
            if abs(v1 - wab) <= TOLERANCE and abs(v2 - wba) <= TOLERANCE:
                wab, wba = v1, v2
                settled = True
                break
            if step >= NEWTON_STEPS:
                wab, wba = v1, v2
                continue
            alpha1 = v1 - s1 * (1.0 - wba)
            alpha2 = v2 - s2 * (1.0 - wab)
            wab = (alpha1 + s1 - s1 * alpha2 - s1 * s2) / (1.0 - s1 * s2)
            wba = alpha2 + s2 * (1.0 - wab)
        # The caps came from a guess of the other's chance: they must hold for the answer.
        if _lead_ok(a + cab - margin - b, stop, wba) and _lead_ok(b + cba - margin - a, stop, wab):
            break
        settled = False
        bound_ab = 0.9 * wba
        bound_ba = 0.9 * wab
    win[a, b] = wab
    win[b, a] = wba
    caps[a, b] = cab if settled else -1
    caps[b, a] = cba if settled else -1
    return passes


@_parallel_kernel
def _solve_sum(
    s: int,
    target: int,
    margin: int,
    win: Floats,
    beaten: Floats,
    stop: Floats,
    caps: Ints,
    floors: Ints,
    tables: Any,
) -> int:
    lo = max(0, s - (target - 1))
    count = s // 2 - lo + 1
    passes = np.zeros(max(count, 0), dtype=np.int64)
    for i in numba.prange(count):
        a = lo + i
        passes[i] = _solve_pair(a, s - a, target, margin, win, beaten, stop, caps, floors, tables)
    return int(passes.sum())


@dataclass(frozen=True)
class GameTables:
    """The two-player game for a target of ``target`` units, solved.

    ``win[a, b]``: W(a, b), the chance (a tie counting 1/2) of the player about to throw
    with a units banked against b (both below the target); ``need[r, n]``: the last-turn
    table (:func:`last_turn_table`), ``short`` its part under the bank minimum
    (:func:`last_turn_short`), both 0 when the rules have no last round (a bank reaching
    the target wins); ``stop``: :func:`stop_bounds` of :func:`beaten_table`;
    ``caps[a, b]``: the turn points (units) from which the pair's solve banked for sure;
    ``passes``: the turn passes the solve took.
    """

    target: int
    win: Floats
    need: Floats
    short: Floats
    stop: Floats
    caps: Ints
    passes: int


def last_turn(rules: FarkleRules, rows: int, tables: ChanceTables) -> tuple[Floats, Floats]:
    """(``need``, ``short``) of the rules' last turn: both 0 when there is none (whoever
    reaches the target has won, the other never passes)."""
    minimum = int(bank_floors(rules)[0])
    if not rules.last_round:
        return np.zeros((rows, DICE + 1)), np.zeros((minimum, minimum, DICE + 1))
    return last_turn_table(rows, tables), last_turn_short(minimum, tables)


def solve_game(
    target: int,
    *,
    rules: FarkleRules = SEED,
    margin: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> GameTables:
    """Solve the two-player game to ``target`` units (the game has 100, 200 and 300) under
    ``rules`` (not those with a penalty for three lost turns in a row: their lost turns in
    a row are part of the state, :func:`~zar.ai.farkle_penalty.solve_penalty_game`).

    ``margin``: units of turn points to go on deciding past each pair's proven cap (a
    check that the cap changes nothing). ``progress(done, total)`` is called as the pairs
    are solved, counted by the turn points they span.
    """
    if type(target) is not int or target < 1:
        raise ValueError(f"a target is a positive number of units of {UNIT}, not {target!r}")
    if rules.three_lost:
        raise ValueError("a penalty for three lost turns in a row is solved by sweeps")
    tables = chance_tables(rules)
    floors = bank_floors(rules)
    need, short = last_turn(rules, target + LEAD_ROWS, tables)
    beaten = beaten_table(need, short)
    stop = stop_bounds(beaten, tables)
    win = np.zeros((target, target), dtype=np.float64)
    caps = np.zeros((target, target), dtype=np.int64)
    # A pair's work grows with the turn points to the target: weigh each sum by it.
    weight = [
        sum(2 * target - s for a in range(max(0, s - target + 1), min(s, target - 1) + 1))
        for s in range(2 * target - 1)
    ]
    total, done, passes = sum(weight), 0, 0
    args = tables.kernel_args
    for s in range(2 * target - 2, -1, -1):
        passes += int(_solve_sum(s, target, margin, win, beaten, stop, caps, floors, args))
        done += weight[s]
        if progress is not None:
            progress(done, total)
    if caps.min() < 0:  # never seen: Newton's method then plain iteration both failed
        a, b = np.argwhere(caps < 0)[0]
        raise RuntimeError(f"the solve of ({a * UNIT}, {b * UNIT}) did not settle")
    return GameTables(target, win, need, short, stop, caps, passes)


def compile_kernels() -> None:
    """Compile (or load from numba's cache) every kernel, on a game of one unit."""
    tables = chance_tables()
    need = last_turn_table(2, tables)
    last_turn_short(2, tables)
    stop = stop_bounds(np.ascontiguousarray(need[:, DICE]), tables)
    win = np.zeros((1, 1), dtype=np.float64)
    caps = np.zeros((1, 1), dtype=np.int64)
    floors = bank_floors(SEED)
    _solve_sum(0, 1, 0, win, need[:, DICE].copy(), stop, caps, floors, tables.kernel_args)
    turn_values(np.zeros(1 + tables.max_points), 1, 0.0, tables)
