"""The kernels of the optimal Yams strategy: every state of the card solved backwards (numba).

A state is what the rest of the game depends on: the filled boxes (a mask of as many bits
as the card has boxes, 13 or Yatzy's 15, bit ``box.slot``; the Penta box the last), the
upper total capped at 63 and whether the Penta box holds 50. Its value is the expected
score still to come under optimal play. A turn is solved as
Verhoeff's widget: the best box for each of the 252 throws, then twice the best dice to
keep, each kept set worth the mean over the six faces of keeping one more die.

The points come from the engine (:mod:`zar.ai.yams_tables`); nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from zar.ai.yams_tables import (
    CAP,
    FIRST_THROW,
    KEEPS,
    PENTA_FIFTY,
    PENTA_OPEN,
    PENTA_ZERO,
    THROWS,
    Tables,
)
from zar.yams.scorecard import PENTA_POINTS

__all__ = [
    "best_box",
    "build",
    "compile_kernels",
    "keep_tables",
    "levels",
    "play",
    "simulate",
    "solve_level",
    "turn",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
F = TypeVar("F", bound=Callable[..., Any])

UPPER_BITS = 63


def _kernel(fn: F) -> F:
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def _parallel_kernel(fn: F) -> F:
    return cast(F, numba.njit(cache=True, parallel=True)(fn))


@_kernel
def _after(
    mask: int, up: int, flag: int, box: int, got: int, tb: Any
) -> tuple[float, int, int, int]:
    """Writing ``got`` points in ``box``: what the card gains with them (the upper bonus
    when they reach it, not the Penta bonus) and the state it leads to."""
    upper_bonus, bonus_at, boxes = tb[9], tb[10], tb[13]
    gain, nu, nf = float(got), up, flag
    if box < 6:
        nu = min(CAP, up + got)
        if up < bonus_at <= up + got:
            gain += upper_bonus
    elif box == boxes - 1:  # the Penta box
        nf = 1 if got == PENTA_POINTS else 0
    return gain, mask | (1 << box), nu, nf


@_kernel
def _situation(mask: int, flag: int, face: int, boxes: int) -> tuple[int, int, int, int]:
    """A Penta of ``face`` (0..5) on a card of ``boxes`` boxes: its Joker situation, as the
    tables index it."""
    lower_bits = (1 << boxes) - 1 - UPPER_BITS
    penta_state = PENTA_OPEN if not mask >> boxes - 1 & 1 else PENTA_FIFTY if flag else PENTA_ZERO
    upper_open = 0 if mask >> face & 1 else 1
    lower_open = 1 if mask & lower_bits != lower_bits else 0
    return penta_state, upper_open, lower_open, face


@_kernel
def _write(
    mask: int, up: int, flag: int, value: Any, second: Any, tb: Any, moments: bool,
    w: Floats, q: Floats,
) -> None:  # fmt: skip
    """Each throw written in its best box: its value in ``w[FIRST_THROW + t]``, the second
    moment in ``q`` (when ``moments``)."""
    points, counts, pentas = tb[0], tb[1], tb[2]
    joker_allowed, joker_points, joker_bonus, boxes = tb[3], tb[4], tb[5], tb[13]
    w[FIRST_THROW:] = -np.inf
    q[FIRST_THROW:] = 0.0
    row, row_q = np.empty(6), np.zeros(6)
    for box in range(boxes):
        if mask >> box & 1:
            continue
        if box < 6:
            # An upper box: its worth depends on the throw only by how many dice show its face.
            for count in range(6):
                gain, nm, nu, nf = _after(mask, up, flag, box, (box + 1) * count, tb)
                row[count] = gain + value[nm, nu, nf]
                if moments:
                    row_q[count] = gain * (gain + 2.0 * value[nm, nu, nf]) + second[nm, nu, nf]
            for t in range(THROWS):
                c = counts[t, box]
                if row[c] > w[FIRST_THROW + t]:
                    w[FIRST_THROW + t] = row[c]
                    q[FIRST_THROW + t] = row_q[c]
        else:
            # A lower box leads to one state: a throw other than a Penta scores 0 in Penta
            # (the Pentas are written below).
            _, nm, nu, nf = _after(mask, up, flag, box, 0, tb)
            vn = value[nm, nu, nf]
            sn = second[nm, nu, nf] if moments else 0.0
            for t in range(THROWS):
                a = points[box, t]
                if a + vn > w[FIRST_THROW + t]:
                    w[FIRST_THROW + t] = a + vn
                    q[FIRST_THROW + t] = a * (a + 2.0 * vn) + sn
    # A Penta goes where the Joker lets it, for the points and the bonus the engine gives.
    for face in range(6):
        penta, upper_open, lower_open, _ = _situation(mask, flag, face, boxes)
        best, best_q = -np.inf, 0.0
        for box in range(boxes):
            if mask >> box & 1 or not joker_allowed[penta, upper_open, lower_open, face, box]:
                continue
            got = joker_points[penta, upper_open, lower_open, face, box]
            gain, nm, nu, nf = _after(mask, up, flag, box, got, tb)
            gain += joker_bonus[penta, face]
            if gain + value[nm, nu, nf] > best:
                best = gain + value[nm, nu, nf]
                if moments:
                    best_q = gain * (gain + 2.0 * value[nm, nu, nf]) + second[nm, nu, nf]
        w[FIRST_THROW + pentas[face]] = best
        q[FIRST_THROW + pentas[face]] = best_q


@_kernel
def _expect(w: Floats, q: Floats, add: Ints, moments: bool) -> None:
    """Each kept set of fewer than five dice: the mean over the six faces of one die more."""
    for k in range(FIRST_THROW - 1, -1, -1):
        s = 0.0
        for face in range(6):
            s += w[add[k, face]]
        w[k] = s / 6.0
        if moments:
            s = 0.0
            for face in range(6):
                s += q[add[k, face]]
            q[k] = s / 6.0


@_kernel
def _best(w: Floats, q: Floats, m: Floats, mq: Floats, remove: Ints, removes: Ints) -> None:
    """``m[k]``: the best of keeping any part of the dice set ``k`` (a die less, recursively).

    Equal values keep the larger set (the first met).
    """
    for k in range(KEEPS):
        v = w[k]
        vq = q[k]
        for j in range(removes[k]):
            r = remove[k, j]
            if m[r] > v:
                v = m[r]
                vq = mq[r]
        m[k] = v
        mq[k] = vq


@_kernel
def turn(
    mask: int, up: int, flag: int, value: Any, second: Any, tb: Any, moments: bool,
    w0: Floats, q0: Floats, w1: Floats, q1: Floats, m: Floats, mq: Floats,
) -> tuple[float, float]:  # fmt: skip
    """Solve one turn from this state; returns the value and the second moment.

    After it, ``w0[k]`` is the value of keeping the dice set ``k`` with one throw left (a
    whole throw: writing it now) and ``w1[k]`` with two throws left.
    """
    add, remove, removes, chance = tb[6], tb[7], tb[8], tb[11]
    _write(mask, up, flag, value, second, tb, moments, w0, q0)
    _expect(w0, q0, add, moments)
    _best(w0, q0, m, mq, remove, removes)
    w1[FIRST_THROW:] = m[FIRST_THROW:]
    q1[FIRST_THROW:] = mq[FIRST_THROW:]
    _expect(w1, q1, add, moments)
    _best(w1, q1, m, mq, remove, removes)
    v = 0.0
    v2 = 0.0
    for t in range(THROWS):
        v += chance[t] * m[FIRST_THROW + t]
        v2 += chance[t] * mq[FIRST_THROW + t]
    return v, v2


@_parallel_kernel
def solve_level(
    masks: Ints, ups: Ints, flags: Ints, value: Floats, second: Floats, tb: Any, chunks: int
) -> None:
    """Solve these states (all with the same number of filled boxes), in parallel."""
    n = len(masks)
    for c in numba.prange(chunks):
        w0, q0, w1, q1 = np.empty(KEEPS), np.empty(KEEPS), np.empty(KEEPS), np.empty(KEEPS)
        m, mq = np.empty(KEEPS), np.empty(KEEPS)
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            v, v2 = turn(masks[i], ups[i], flags[i], value, second, tb, True, w0, q0, w1, q1, m, mq)
            value[masks[i], ups[i], flags[i]] = v
            second[masks[i], ups[i], flags[i]] = v2


@_kernel
def _next(state: npt.NDArray[np.uint64]) -> np.uint64:
    """splitmix64: one 64-bit number, the generator's state moved on."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z: np.uint64 = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_kernel
def _roll(state: npt.NDArray[np.uint64]) -> int:
    """A fair die: three bits at a time, 6 and 7 thrown again."""
    while True:
        x = int(_next(state) >> np.uint64(61))
        if x < 6:
            return x + 1


@_kernel
def best_box(mask: int, up: int, flag: int, t: int, value: Any, tb: Any) -> tuple[int, float, int]:
    """The best box for throw ``t``: (box, what writing it adds to the score, the box's points)."""
    points, pentas, joker_allowed, joker_points, joker_bonus = tb[0], tb[2], tb[3], tb[4], tb[5]
    boxes = tb[13]
    face = -1
    for f in range(6):
        if pentas[f] == t:
            face = f
    penta, upper_open, lower_open, f = _situation(mask, flag, max(face, 0), boxes)
    best_box, best_gain, best_got, best = -1, 0.0, 0, -np.inf
    for box in range(boxes):
        if mask >> box & 1:
            continue
        if face < 0:
            got, bonus = points[box, t], 0.0
        elif joker_allowed[penta, upper_open, lower_open, f, box]:
            got, bonus = joker_points[penta, upper_open, lower_open, f, box], joker_bonus[penta, f]
        else:
            continue
        gain, nm, nu, nf = _after(mask, up, flag, box, got, tb)
        if gain + bonus + value[nm, nu, nf] > best:
            best_box, best_gain, best_got = box, gain + bonus, got
            best = gain + bonus + value[nm, nu, nf]
    return best_box, best_gain, best_got


@_kernel
def _code(dice: Ints, chosen: int) -> int:
    """The dice at the positions of the 5-bit set ``chosen``, as base-6 face counts."""
    code = 0
    for p in range(5):
        if chosen >> p & 1:
            code += 6 ** (dice[p] - 1)
    return code


@_kernel
def _keep_best(dice: Ints, w: Floats, whole: float, key: Ints) -> int:
    """The positions to keep (a 5-bit set) for the best of ``w``; 31 (all five) is worth
    ``whole``. Equal values keep more dice."""
    best_set, best, best_n = 31, whole, 5
    for chosen in range(31):
        n = 0
        for p in range(5):
            n += chosen >> p & 1
        v = w[key[_code(dice, chosen)]]
        if v > best or (v == best and n > best_n):
            best_set, best, best_n = chosen, v, n
    return best_set


@_parallel_kernel
def play(value: Floats, tb: Any, seed: int, games: int, chunks: int) -> Ints:
    """Final scores of ``games`` solitaire games played optimally, the dice of game ``g``
    drawn from a generator seeded by (seed, g): the same whatever the number of threads."""
    key, boxes = tb[12], tb[13]
    scores = np.zeros(games, np.int64)
    for c in numba.prange(chunks):
        w0, q0, w1, q1 = np.empty(KEEPS), np.empty(KEEPS), np.empty(KEEPS), np.empty(KEEPS)
        m, mq = np.empty(KEEPS), np.empty(KEEPS)
        state = np.empty(1, np.uint64)
        dice = np.empty(5, np.int64)
        for g in range(c * games // chunks, (c + 1) * games // chunks):
            state[0] = np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(g)
            mask, up, flag, total = 0, 0, 0, 0.0
            for _ in range(boxes):
                turn(mask, up, flag, value, value, tb, False, w0, q0, w1, q1, m, mq)
                for p in range(5):
                    dice[p] = _roll(state)
                for throws_left in (2, 1):
                    w = w1 if throws_left == 2 else w0
                    kept = _keep_best(dice, w, w0[key[_code(dice, 31)]], key)
                    if kept == 31:
                        break
                    for p in range(5):
                        if not kept >> p & 1:
                            dice[p] = _roll(state)
                t = key[_code(dice, 31)] - FIRST_THROW
                box, gain, got = best_box(mask, up, flag, t, value, tb)
                total += gain
                _, mask, up, flag = _after(mask, up, flag, box, got, tb)
            scores[g] = round(total)
    return scores


def keep_tables(
    value: Floats, tables: Tables, state: tuple[int, int, int]
) -> tuple[Floats, Floats]:
    """For one state: the remaining value of each kept dice set (by its index in ``KEPT``)
    with one throw left, and with two."""
    w0, q0, w1, q1, m, mq = (np.empty(KEEPS) for _ in range(6))
    mask, up, flag = state
    turn(mask, up, flag, value, value, tables.kernel_args, False, w0, q0, w1, q1, m, mq)
    return w0, w1


def simulate(value: Floats, tables: Tables, games: int, seed: int) -> Ints:
    """The final scores of ``games`` games played by the strategy ``value`` (:func:`play`)."""
    scores: Ints = play(value, tables.kernel_args, seed, games, 8 * numba.get_num_threads())
    return scores


def compile_kernels(tables: Tables) -> None:
    """Compile (or load from numba's cache) every kernel, on a problem of no size."""
    full = tables.full
    value = np.zeros((full + 1, CAP + 1, 2))
    none = np.zeros(0, np.int64)
    solve_level(none, none, none, value, value, tables.kernel_args, 1)
    play(value, tables.kernel_args, 0, 0, 1)
    keep_tables(value, tables, (full, CAP, 0))


def _upper_totals() -> npt.NDArray[np.bool_]:
    """``[upper mask, total]``: whether the filled upper boxes can add up to this (capped)."""
    reachable = np.zeros((64, CAP + 1), np.bool_)
    for upper in range(64):
        totals = {0}
        for face in range(1, 7):
            if upper >> (face - 1) & 1:
                totals = {min(CAP, s + face * n) for s in totals for n in range(6)}
        reachable[upper, sorted(totals)] = True
    return reachable


def _live() -> npt.NDArray[np.bool_]:
    """``[upper mask, total]``: the totals worth a state of their own.

    Once the bonus is won, or out of reach of the open upper boxes, the total no longer
    matters: all such totals share the state at 63.
    """
    room = np.array([sum(5 * f for f in range(1, 7) if not u >> (f - 1) & 1) for u in range(64)])
    totals = np.arange(CAP + 1)
    live: npt.NDArray[np.bool_] = _upper_totals() & (totals < CAP) & (totals + room[:, None] >= CAP)
    live[:, CAP] = True
    return live


def levels(tables: Tables) -> list[tuple[Ints, Ints, Ints, Ints]]:
    """The states to solve, by number of filled boxes from all but one down to 0: for each
    level, its masks, and the (mask, total, flag) of each state."""
    live = _live()
    masks = np.arange(1 << tables.boxes)
    filled = np.array([bin(m).count("1") for m in masks])
    result = []
    for n in range(tables.boxes - 1, -1, -1):
        level = masks[filled == n]
        rows, ups = np.nonzero(live[level & 63])
        state_masks = level[rows]
        flags = np.zeros(len(rows), np.int64)
        if tables.flag_matters:
            fifty = state_masks >> tables.boxes - 1 & 1 == 1
            state_masks = np.concatenate([state_masks, state_masks[fifty]])
            ups = np.concatenate([ups, ups[fifty]])
            flags = np.concatenate([flags, np.ones(int(fifty.sum()), np.int64)])
        result.append((level, state_masks, ups.astype(np.int64), flags))
    return result


def build(
    tables: Tables, progress: Callable[[int, int], None] | None = None
) -> tuple[Floats, Floats]:
    """Solve every state: the expected remaining score and its second moment, by
    ``[mask, upper total, penta holds 50]``; ``progress(done, total)`` after each level.

    A total no card with these boxes can have is NaN, unless it shares the state at 63.
    """
    full = tables.full
    value = np.full((full + 1, CAP + 1, 2), np.nan)
    second = np.full((full + 1, CAP + 1, 2), np.nan)
    value[full] = second[full] = 0.0
    live = _live()
    todo = levels(tables)
    total = sum(len(states) for _, states, _, _ in todo)
    done = 0
    chunks = 8 * numba.get_num_threads()
    for level, masks, ups, flags in todo:
        solve_level(masks, ups, flags, value, second, tables.kernel_args, chunks)
        for table in (value, second):
            # The totals that share the state at 63, and the flag that does not matter.
            settled = ~live[level & 63]
            rows = table[level]
            rows[settled] = np.broadcast_to(rows[:, CAP:, :], rows.shape)[settled]
            if not tables.flag_matters:
                rows[:, :, 1] = rows[:, :, 0]
            table[level] = rows
        done += len(masks)
        if progress is not None:
            progress(done, total)
    return value, second
