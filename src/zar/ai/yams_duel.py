"""The kernels of the Yams computer that plays to win (numba), and of its duels.

A card's final total is modelled from the score-optimal tables: exactly when the card has
at most :data:`LATE` open boxes (the law of its remaining score, solved backwards once:
every throw followed through the optimal keeps, :func:`late_laws`), else as a normal law
with the state's expected remaining score and its variance. The chance of beating an
opponent is then ``Σ p(opponent = i)·P(me > i)`` (Holderied's "beat your opponent"), a
tie counting half; a turn is played to maximise it, every keep and box valued exactly
within the turn (the widget of :mod:`zar.ai.yams_solver`, with that chance at its end
instead of the points).
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from zar.ai.yams_solver import (
    _after,
    _best,
    _code,
    _expect,
    _keep_best,
    _kernel,
    _live,
    _parallel_kernel,
    _roll,
    _situation,
    best_box,
    levels,
    turn,
)
from zar.ai.yams_tables import CAP, FIRST_THROW, KEEPS, THROWS, Tables

__all__ = [
    "GRID",
    "LATE",
    "SPREAD",
    "beat",
    "duel",
    "late_laws",
    "opponent",
    "solve_late",
    "win_turn",
    "write_chances",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

SPREAD = 512  # the points a card of few open boxes may still add: its distribution's length
LATE = 3  # cards with this many open boxes or fewer have their exact distribution
GRID = 2048  # final totals an opponent's law is tabled for (no card reaches 1 600)
SQRT2 = math.sqrt(2.0)


@_kernel
def _dice(t: int, tb: Any, dice: Ints) -> None:
    """The faces of throw ``t``, sorted, into ``dice``."""
    counts = tb[1]
    p = 0
    for face in range(6):
        for _ in range(counts[t, face]):
            dice[p] = face + 1
            p += 1


@_kernel
def _spread_dice(p: Floats, add: Ints) -> None:
    """Each kept set's chance passed on to the sets one die more, down to whole throws."""
    for k in range(FIRST_THROW):
        if p[k] > 0.0:
            for face in range(6):
                p[add[k, face]] += p[k] / 6.0
            p[k] = 0.0


@_kernel
def _final_throws(mask: int, up: int, flag: int, value: Any, tb: Any, p: Floats) -> None:
    """``p[FIRST_THROW + t]``: the chance that a turn from this state, played
    score-optimally, ends with throw ``t``: every throw followed through the optimal keeps."""
    add, chance, key = tb[6], tb[11], tb[12]
    w0, q0, w1, q1 = np.empty(KEEPS), np.empty(KEEPS), np.empty(KEEPS), np.empty(KEEPS)
    m, mq = np.empty(KEEPS), np.empty(KEEPS)
    turn(mask, up, flag, value, value, tb, False, w0, q0, w1, q1, m, mq)
    p[:] = 0.0
    p[FIRST_THROW:] = chance
    dice = np.empty(5, np.int64)
    q = np.empty(KEEPS)
    for w in (w1, w0):
        q[:] = 0.0
        for t in range(THROWS):
            if p[FIRST_THROW + t] == 0.0:
                continue
            _dice(t, tb, dice)
            kept = _keep_best(dice, w, w0[FIRST_THROW + t], key)
            q[key[_code(dice, kept)]] += p[FIRST_THROW + t]
        _spread_dice(q, add)
        p[:] = q


@_parallel_kernel
def solve_late(
    masks: Ints, ups: Ints, flags: Ints, rows: Ints, value: Floats, tb: Any, index: Any,
    law: Any, tops: Any, chunks: int,
) -> None:  # fmt: skip
    """The law of the remaining score of these states (one level), each in ``law[row]``,
    from the laws of the states a round leads to: where the optimal play ends a turn, the
    next state's law shifted by what the turn wrote."""
    n = len(masks)
    for c in numba.prange(chunks):
        p = np.empty(KEEPS)
        nexts, gains, chances = (
            np.empty(THROWS, np.int64),
            np.empty(THROWS, np.int64),
            np.empty(THROWS),
        )
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            mask, up, flag, row = masks[i], ups[i], flags[i], rows[i]
            _final_throws(mask, up, flag, value, tb, p)
            pairs = 0
            for t in range(THROWS):
                box, gain, got = best_box(mask, up, flag, t, value, tb)
                _, nm, nu, nf = _after(mask, up, flag, box, got, tb)
                r, g = index[nm, nu, nf], round(gain)
                j = 0
                while j < pairs and not (nexts[j] == r and gains[j] == g):
                    j += 1
                if j == pairs:
                    nexts[j], gains[j], chances[j] = r, g, 0.0
                    pairs += 1
                chances[j] += p[FIRST_THROW + t]
            law[row, :] = 0.0
            top = 0
            for j in range(pairs):
                r, g, pj = nexts[j], gains[j], chances[j]
                for x in range(tops[r]):
                    law[row, min(SPREAD - 1, x + g)] += pj * law[r, x]
                top = max(top, min(SPREAD, tops[r] + g))
            tops[row] = top


@_kernel
def opponent(
    mask: int, up: int, flag: int, total: int, value: Any, second: Any, late: Any,
    below: Floats, tabled: bool,
) -> tuple[int, float, float]:  # fmt: skip
    """An opponent's final total: ``below[x]`` = P(it is under x) + ½P(it is x) (for a
    normal law only when ``tabled``: what a card of an exact law is held against); returns
    (its law's row, -1 when modelled as normal; the normal mean; its spread)."""
    index, law, _ = late
    row = index[mask, up, flag]
    if row >= 0:
        below[:] = 0.0
        s = 0.0
        for x in range(SPREAD):
            pr = law[row, x]
            if total + x < GRID:
                below[total + x] = s + 0.5 * pr
            s += pr
            if total + x + 1 < GRID:
                below[total + x + 1] = s
        for x in range(total + SPREAD, GRID):
            below[x] = s
        return row, 0.0, 0.0
    mean = total + value[mask, up, flag]
    sd = math.sqrt(max(1e-12, second[mask, up, flag] - value[mask, up, flag] ** 2))
    if tabled:
        low, high = max(0, int(mean - 10 * sd)), min(GRID, int(mean + 10 * sd) + 1)
        below[:low] = 0.0
        below[high:] = 1.0
        for x in range(low, high):
            below[x] = 0.5 * math.erfc(-(x - mean) / (sd * SQRT2))
    return -1, mean, sd


@_kernel
def beat(
    total: int, mask: int, up: int, flag: int, value: Any, second: Any, late: Any,
    below: Floats, opp_row: int, opp_total: int, opp_mean: float, opp_sd: float,
) -> float:  # fmt: skip
    """The chance of winning (a tie half) of a card of ``total`` in this state, its round
    just written, against the opponent :func:`opponent` described."""
    index, law, tops = late
    row = index[mask, up, flag]
    if row >= 0:
        s = 0.0
        for x in range(tops[row]):
            pr = law[row, x]
            if pr > 0.0:
                s += pr * below[min(GRID - 1, total + x)]
        return s
    mean = total + value[mask, up, flag]
    sd = math.sqrt(max(1e-12, second[mask, up, flag] - value[mask, up, flag] ** 2))
    if opp_row < 0:
        spread = math.sqrt(sd * sd + opp_sd * opp_sd)
        return 0.5 * math.erfc(-(mean - opp_mean) / (spread * SQRT2))
    s = 0.0
    for x in range(tops[opp_row]):
        pr = law[opp_row, x]
        if pr > 0.0:
            s += pr * 0.5 * math.erfc(-(mean - opp_total - x) / (sd * SQRT2))
    return s


@_kernel
def write_chances(
    mask: int, up: int, flag: int, total: int, value: Any, second: Any, tb: Any, late: Any,
    below: Floats, opp: Any, box_chance: Floats,
) -> None:  # fmt: skip
    """For each throw ``t`` and box: the chance of winning when writing it there
    (``box_chance[t, box]``, -1 where the box cannot take it); ``opp`` is (row, total,
    mean, spread) as :func:`opponent` gave them."""
    points, counts, pentas = tb[0], tb[1], tb[2]
    joker_allowed, joker_points, joker_bonus, boxes = tb[3], tb[4], tb[5], tb[13]
    opp_row, opp_total, opp_mean, opp_sd = opp
    box_chance[:, :] = -1.0
    by_points = np.empty(64)
    for box in range(boxes):
        if mask >> box & 1:
            continue
        # A box's chance depends on the throw only by the points it gets there.
        by_points[:] = -2.0
        for t in range(THROWS):
            got = (box + 1) * counts[t, box] if box < 6 else points[box, t]
            if by_points[got] < -1.0:
                gain, nm, nu, nf = _after(mask, up, flag, box, got, tb)
                by_points[got] = beat(total + round(gain), nm, nu, nf, value, second, late,
                                      below, opp_row, opp_total, opp_mean, opp_sd)  # fmt: skip
            box_chance[t, box] = by_points[got]
    for face in range(6):
        penta, upper_open, lower_open, _ = _situation(mask, flag, face, boxes)
        t = pentas[face]
        for box in range(boxes):
            if mask >> box & 1:
                continue
            if not joker_allowed[penta, upper_open, lower_open, face, box]:
                box_chance[t, box] = -1.0
                continue
            got = joker_points[penta, upper_open, lower_open, face, box]
            gain, nm, nu, nf = _after(mask, up, flag, box, got, tb)
            gain += joker_bonus[penta, face]
            box_chance[t, box] = beat(total + round(gain), nm, nu, nf, value, second, late,
                                      below, opp_row, opp_total, opp_mean, opp_sd)  # fmt: skip


@_kernel
def win_turn(
    mask: int, up: int, flag: int, total: int, value: Any, second: Any, tb: Any, late: Any,
    below: Floats, opp: Any, box_chance: Floats, w0: Floats, w1: Floats, m: Floats,
) -> float:  # fmt: skip
    """One turn played for the win: the chance of winning before its first throw; after it
    ``w0[k]``/``w1[k]`` is the chance when keeping the dice set ``k`` with one/two throws
    left, and ``box_chance`` as :func:`write_chances` leaves it."""
    add, remove, removes, chance = tb[6], tb[7], tb[8], tb[11]
    write_chances(mask, up, flag, total, value, second, tb, late, below, opp, box_chance)
    for t in range(THROWS):
        best = -1.0
        for box in range(tb[13]):
            best = max(best, box_chance[t, box])
        w0[FIRST_THROW + t] = best
    _expect(w0, w0, add, False)
    _best(w0, w0, m, m, remove, removes)
    w1[FIRST_THROW:] = m[FIRST_THROW:]
    _expect(w1, w1, add, False)
    _best(w1, w1, m, m, remove, removes)
    v = 0.0
    for t in range(THROWS):
        v += chance[t] * m[FIRST_THROW + t]
    return v


@_kernel
def _best_written(box_chance: Floats, t: int) -> int:
    """The box of the best chance for throw ``t``; equal chances take the first box."""
    best_box_, best = -1, -2.0
    for box in range(box_chance.shape[1]):
        if box_chance[t, box] > best:
            best_box_, best = box, box_chance[t, box]
    return best_box_


@_kernel
def _points(mask: int, up: int, flag: int, t: int, box: int, tb: Any) -> tuple[float, int]:
    """Writing throw ``t`` in ``box``: what the card gains (bonuses too) and the box's points."""
    points, pentas, joker_points, joker_bonus, boxes = tb[0], tb[2], tb[4], tb[5], tb[13]
    for face in range(6):
        if pentas[face] == t:
            penta, upper_open, lower_open, _ = _situation(mask, flag, face, boxes)
            got = joker_points[penta, upper_open, lower_open, face, box]
            gain, _, _, _ = _after(mask, up, flag, box, got, tb)
            return gain + joker_bonus[penta, face], got
    got = points[box, t]
    gain, _, _, _ = _after(mask, up, flag, box, got, tb)
    return gain, got


@_kernel
def _filled(mask: int) -> int:
    """How many boxes are filled."""
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


@_parallel_kernel
def duel(
    value: Floats, second: Floats, tb: Any, late: Any, open_boxes: int, wins: Any, seed: int,
    games: int, chunks: int,
) -> tuple[Ints, Floats]:  # fmt: skip
    """``games`` two-seat games, game ``g`` with strategy A in seat ``g % 2``; ``wins[s]``:
    whether strategy A (s = 0) or B (s = 1) plays to win, else score-optimally. Returns
    the finals ``[g, A/B]`` and the chance of winning the play-to-win side gave itself before
    each of its rounds ``[g, round]`` (NaN when neither side plays to win)."""
    key, boxes = tb[12], tb[13]
    finals = np.zeros((games, 2), np.int64)
    shown = np.full((games, boxes), np.nan)
    for c in numba.prange(chunks):
        w0, q0, w1, q1 = np.empty(KEEPS), np.empty(KEEPS), np.empty(KEEPS), np.empty(KEEPS)
        m, mq = np.empty(KEEPS), np.empty(KEEPS)
        box_chance = np.empty((THROWS, boxes))
        below = np.empty(GRID)
        state = np.empty(1, np.uint64)
        dice = np.empty(5, np.int64)
        masks, ups, flags = np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64)
        totals = np.zeros(2, np.int64)
        for g in range(c * games // chunks, (c + 1) * games // chunks):
            state[0] = np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(g)
            masks[:] = 0
            ups[:] = 0
            flags[:] = 0
            totals[:] = 0
            first = g % 2  # the seat of strategy A
            for r in range(boxes):
                for seat in range(2):
                    who = 0 if seat == first else 1  # 0: A, 1: B
                    me, other = seat, 1 - seat
                    mask, up, flag = masks[me], ups[me], flags[me]
                    to_win = wins[who]
                    if to_win:
                        row, mean, sd = opponent(
                            masks[other],
                            ups[other],
                            flags[other],
                            totals[other],
                            value,
                            second,
                            late,
                            below,
                            _filled(mask) >= boxes - 1 - open_boxes,
                        )
                        opp = (row, totals[other], mean, sd)
                        shown[g, r] = win_turn(
                            mask,
                            up,
                            flag,
                            totals[me],
                            value,
                            second,
                            tb,
                            late,
                            below,
                            opp,
                            box_chance,
                            w0,
                            w1,
                            m,
                        )
                    else:
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
                    if to_win:
                        box = _best_written(box_chance, t)
                        gain, got = _points(mask, up, flag, t, box, tb)
                    else:
                        box, gain, got = best_box(mask, up, flag, t, value, tb)
                    totals[me] += round(gain)
                    _, masks[me], ups[me], flags[me] = _after(mask, up, flag, box, got, tb)
            finals[g, 0] = totals[first]
            finals[g, 1] = totals[1 - first]
    return finals, shown


def late_laws(value: Floats, tables: Tables, open_boxes: int = LATE) -> tuple[Ints, Floats, Ints]:
    """The exact law of the remaining score of every state with at most ``open_boxes``
    open boxes, under score-optimal play: ``(index, law, tops)``,
    ``law[index[mask, total, flag], x]`` the chance of ``x`` more points (the last cell:
    that many or more), none from ``tops[row]`` on; ``index`` is -1 for the states of
    more open boxes."""
    index = np.full(value.shape, -1, np.int64)
    index[tables.full] = 0
    todo = levels(tables)[:open_boxes]
    count = 1 + sum(len(states) for _, states, _, _ in todo)
    law = np.zeros((count, SPREAD))
    law[0, 0] = 1.0
    tops = np.zeros(count, np.int64)
    tops[0] = 1
    live = _live()
    chunks = 8 * numba.get_num_threads()
    start = 1
    for level, masks, ups, flags in todo:
        rows = np.arange(start, start + len(masks), dtype=np.int64)
        index[masks, ups, flags] = rows
        solve_late(masks, ups, flags, rows, value, tables.kernel_args, index, law, tops, chunks)
        # The totals that share the state at 63, and the flag that does not matter.
        settled = ~live[level & 63]
        block = index[level]
        block[settled] = np.broadcast_to(block[:, CAP:, :], block.shape)[settled]
        if not tables.flag_matters:
            block[:, :, 1] = block[:, :, 0]
        index[level] = block
        start += len(masks)
    return index, law, tops
