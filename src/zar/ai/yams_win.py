"""The Yams computer that plays to win, and the chance of winning the coach shows.

Against one opponent, each keep and box is valued by the chance of ending above the
opponent's card (a tie half), the rest of both games modelled from the score-optimal
tables (:mod:`zar.ai.yams_duel`). At a table of more, it plays against the opponent
whose card promises most (the highest expected final total); alone, it is the
score-optimal player. The level ``win``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from zar.ai import cache as cache_files
from zar.ai.yams import OptimalPlayer, Strategy, kept_positions
from zar.ai.yams_tables import FIRST_THROW, KEEPS, THROWS, keep_index
from zar.dice import check_dice
from zar.yams.game import DICE, YamsState
from zar.yams.scorecard import AnyBox, Scorecard

__all__ = [
    "CALIBRATION_GAMES",
    "DUEL_STRATEGIES",
    "Chances",
    "Duel",
    "WinPlayer",
    "calibrated",
    "calibration",
    "duel",
    "fit_calibration",
    "late_laws",
    "laws_at_hand",
    "logistic_fit",
    "opponent_seat",
    "shown_chances",
    "turn_chances",
]


def opponent_seat(strategy: Strategy, state: YamsState) -> int | None:
    """The seat played against: the other card of the highest expected final total (the
    first such seat), None when the seat to play is alone."""
    others = [seat for seat in range(len(state.cards)) if seat != state.seat]
    if not others:
        return None
    return max(others, key=lambda seat: (strategy.value(state.cards[seat]), -seat))


def _index(strategy: Strategy, card: Scorecard) -> tuple[int, int, int]:
    if card.is_complete:
        return strategy.tables[2].full, 0, 0
    return strategy.state(card)


@dataclass(frozen=True, eq=False)
class Chances:
    """One turn of a card against one opponent, solved for the win: ``start`` the chance
    before its first throw, ``keep[throws_left - 1][k]`` the chance when keeping the dice
    set ``k``, ``write[t, box]`` when writing throw ``t`` in ``box`` (-1: not allowed)."""

    start: float
    keep: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]
    write: npt.NDArray[np.float64]

    def keeps(self, dice: tuple[int, ...], throws_left: int) -> dict[tuple[int, ...], float]:
        """For each distinct set of the dice that may be kept (all five: writing now), the
        chance of winning, as ``Strategy.keep_values`` gives the expected score."""
        faces = tuple(sorted(check_dice(dice, count=DICE)))
        if throws_left not in (1, 2):
            raise ValueError(f"dice are kept with 1 or 2 throws left, not {throws_left!r}")
        w = self.keep[throws_left - 1]
        values = {kept: float(w[keep_index(kept)]) for n in range(DICE)
                  for kept in combinations(faces, n)}  # fmt: skip
        values[faces] = float(self.keep[0][keep_index(faces)])
        return values

    def boxes(self, dice: tuple[int, ...], options: Mapping[AnyBox, int]) -> dict[AnyBox, float]:
        """For each box the throw may go in (``options``), the chance of winning."""
        t = keep_index(tuple(check_dice(dice, count=DICE))) - FIRST_THROW
        return {box: float(self.write[t, box.slot]) for box in options}


LAWS_VERSION = 1
CACHE_NAME = "yams-late-laws"

Laws = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]]

_solving = threading.Lock()  # one solve at a time; the others wait for it
_calibrating = threading.Lock()
_starting = threading.Lock()
_solved: dict[Strategy, Laws] = {}
_calibrated: dict[Strategy, npt.NDArray[np.float64]] = {}
_started: set[Strategy] = set()

# The chance the coach shows is the model's, calibrated round by round (:func:`calibration`)
# on the outcomes of this many games of the play-to-win computer against the score-optimal
# one, from this seed (not the one `bench/yams_duel.py` measures the calibration with).
CALIBRATION_GAMES = 40_000
CALIBRATION_SEED = 20_261_202
CALIBRATION_VERSION = 1
CALIBRATION_NAME = "yams-calibration"


def late_laws(strategy: Strategy) -> Laws:
    """The exact laws of the last rounds' remaining scores (:func:`yams_duel.late_laws`):
    read from the user's cache, or solved (half a minute at most) and stored there; once
    per strategy, a server's threads waiting for one solve (or for the process that makes
    them ready, :data:`zar.ai.ahead.ahead`)."""
    _made_elsewhere()
    with _solving:
        if strategy not in _solved:
            _solved[strategy] = _read_or_solve(strategy)
        return _solved[strategy]


def _made_elsewhere() -> None:
    """Wait while another process makes the laws and the calibration ready for this one."""
    from zar.ai.ahead import YAMS_CHANCES, ahead

    ahead.wait(YAMS_CHANCES)


def laws_at_hand(strategy: Strategy) -> bool:
    """Whether :func:`late_laws` and :func:`calibration` answer at once; if not, they are
    read or worked out in the background meanwhile (a hint, asked within a request, does
    not wait for them)."""
    if strategy in _solved and strategy in _calibrated:
        return True
    with _starting:
        if strategy not in _started:
            _started.add(strategy)
            threading.Thread(target=_ready, args=(strategy,), daemon=True).start()
    return False


def _ready(strategy: Strategy) -> None:
    late_laws(strategy)  # the calibration read from the cache does not read them
    calibration(strategy)


def _read_or_solve(strategy: Strategy) -> Laws:
    from zar.ai import yams_duel  # numba: half a second to import

    key = {**Strategy.key(strategy.rules), "laws": LAWS_VERSION, "open boxes": yams_duel.LATE}
    stored = cache_files.load(CACHE_NAME, key)
    names = ("index", "law", "tops")
    if stored is not None and all(name in stored for name in names):
        index, law, tops = (stored[name] for name in names)
        if index.dtype == tops.dtype == np.int64 and law.dtype == np.float64:
            return (
                index.astype(np.int64, copy=False),
                law.astype(np.float64, copy=False),
                tops.astype(np.int64, copy=False),
            )
    value, _, tables = strategy.tables
    laws = yams_duel.late_laws(value, tables)
    # A cache that cannot be written: the laws still serve this run.
    with contextlib.suppress(OSError):
        cache_files.store(CACHE_NAME, key, dict(zip(names, laws, strict=True)))
    return laws


def logistic_fit(x: npt.NDArray[np.float64], won: npt.NDArray[np.float64]) -> tuple[float, float]:
    """The slope and intercept ``(a, b)`` that make ``1 / (1 + exp(-(a·x + b)))`` the most
    likely chance of the outcomes ``won`` (1, 0, or 1/2 for a tie): logistic regression,
    by Newton's method on its log-likelihood (concave: it converges from (1, 0))."""
    design = np.stack([x, np.ones_like(x)], axis=1)
    w = np.array([1.0, 0.0])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(design @ w)))
        step = np.linalg.solve((design * (p * (1 - p))[:, None]).T @ design, design.T @ (won - p))
        w += step
        if np.abs(step).max() < 1e-12:
            break
    return float(w[0]), float(w[1])


def _logit(p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    found: npt.NDArray[np.float64] = np.log(p / (1 - p))
    return found


def calibration(strategy: Strategy) -> npt.NDArray[np.float64]:
    """Per round (row 0: round 1), the slope and intercept on the logit that calibrate the
    model's chance before the round (Platt scaling): fitted on :data:`CALIBRATION_GAMES`
    games of ``win`` against ``optimal``, read from the user's cache or worked out (12 to
    14 s on two cores) and stored there. Round 1's chance is the same in every game, so
    it takes round 2's; the last round is (1, 0): there the model is exact against the
    score-optimal player (both cards' laws exact, no turn of its own to come)."""
    _made_elsewhere()
    with _calibrating:
        if strategy not in _calibrated:
            _calibrated[strategy] = _read_or_fit(strategy)
        return _calibrated[strategy]


def _read_or_fit(strategy: Strategy) -> npt.NDArray[np.float64]:
    key = {**Strategy.key(strategy.rules), "laws": LAWS_VERSION, "calibration": CALIBRATION_VERSION,
           "games": CALIBRATION_GAMES, "seed": CALIBRATION_SEED}  # fmt: skip
    stored = cache_files.load(CALIBRATION_NAME, key)
    shape = (len(strategy.rules.boxes), 2)  # a row a round
    if stored is not None and "rounds" in stored and stored["rounds"].shape == shape:
        return stored["rounds"].astype(np.float64, copy=False)
    rounds = fit_calibration(strategy, CALIBRATION_GAMES, CALIBRATION_SEED)
    with contextlib.suppress(OSError):
        cache_files.store(CALIBRATION_NAME, key, {"rounds": rounds})
    return rounds


def fit_calibration(
    strategy: Strategy, games: int = CALIBRATION_GAMES, seed: int = CALIBRATION_SEED
) -> npt.NDArray[np.float64]:
    """:func:`calibration`'s rounds, fitted on ``games`` duels from ``seed``."""
    played = duel(strategy, "win", "optimal", games, seed)
    won = played.outcomes()
    last = len(strategy.rules.boxes) - 1
    rounds = np.array([(1.0, 0.0)] * (last + 1))
    for r in range(1, last):
        rounds[r] = logistic_fit(_logit(played.shown[:, r]), won)
    rounds[0] = rounds[1]
    return rounds


def calibrated(
    strategy: Strategy, chances: npt.NDArray[np.float64], round_: int
) -> npt.NDArray[np.float64]:
    """The model's ``chances`` in round ``round_`` (1 to the card's boxes) as the coach shows them
    (:func:`calibration`); a certain win or loss (1, 0) stays one, -1 (a box not allowed)
    stays -1."""
    a, b = calibration(strategy)[round_ - 1]
    shown: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-(a * _logit(chances) + b)))
    return np.where((chances <= 0) | (chances >= 1), chances, shown)


def shown_chances(strategy: Strategy, state: YamsState, other: int) -> Chances:
    """The turn of the seat to play against seat ``other``, in the chances the coach shows:
    the model's (:func:`turn_chances`), calibrated for the round."""
    raw = turn_chances(strategy, state.card, state.cards[other])
    r = state.round
    w0, w1 = (calibrated(strategy, w, r) for w in raw.keep)
    return Chances(
        float(calibrated(strategy, np.array([raw.start]), r)[0]),
        (w0, w1),
        calibrated(strategy, raw.write, r),
    )


def turn_chances(strategy: Strategy, card: Scorecard, other: Scorecard) -> Chances:
    """The turn of ``card`` (to play now) against ``other``, solved for the win."""
    from zar.ai import yams_duel  # numba: half a second to import

    value, second, tables = strategy.tables
    late = late_laws(strategy)
    tb = tables.kernel_args
    mask, up, flag = strategy.state(card)
    below = np.empty(yams_duel.GRID)
    row, mean, spread = yams_duel.opponent(*_index(strategy, other), other.total, value,
                                           second, late, below, True)  # fmt: skip
    opp = (row, other.total, mean, spread)
    write = np.empty((THROWS, tables.boxes))
    w0, w1, m = np.empty(KEEPS), np.empty(KEEPS), np.empty(KEEPS)
    start = yams_duel.win_turn(mask, up, flag, card.total, value, second, tb, late, below,
                               opp, write, w0, w1, m)  # fmt: skip
    return Chances(float(start), (w0, w1), write)


@dataclass(frozen=True)
class WinPlayer:
    """The level ``win``: keeps and writes to maximise the chance of winning."""

    strategy: Strategy

    def _chances(self, state: YamsState) -> Chances | None:
        seat = opponent_seat(self.strategy, state)
        if seat is None:
            return None
        return turn_chances(self.strategy, state.card, state.cards[seat])

    def keep(self, state: YamsState) -> tuple[int, ...] | None:
        """The positions of the dice to keep before throwing again, or None to write now."""
        if not state.dice or state.throws_left not in (1, 2):
            raise ValueError("the computer chooses dice to keep after the first or second throw")
        chances = self._chances(state)
        if chances is None:
            return OptimalPlayer(self.strategy).keep(state)
        values = chances.keeps(state.dice, state.throws_left)
        kept = max(values, key=lambda k: (values[k], len(k), k))
        return None if len(kept) == DICE else kept_positions(state.dice, kept)

    def box(self, state: YamsState) -> AnyBox:
        """The box to write the dice in."""
        if not state.dice:
            raise ValueError("the computer writes a throw only after throwing")
        chances = self._chances(state)
        if chances is None:
            return OptimalPlayer(self.strategy).box(state)
        values = chances.boxes(state.dice, state.options)
        return max(values, key=lambda box: (values[box], -box.value))


DUEL_STRATEGIES = ("optimal", "win")
"""The strategies a duel sets against each other: the score-optimal and the play-to-win."""


@dataclass(frozen=True)
class Duel:
    """Two-seat games of strategy ``a`` against ``b``, ``a`` first in the even games:
    ``finals[g]`` is (a's total, b's total), ``shown[g, r]`` the chance of winning the
    play-to-win side gave itself before its round ``r`` (NaN where neither plays to win)."""

    a: str
    b: str
    finals: npt.NDArray[np.int64]
    shown: npt.NDArray[np.float64]

    def outcomes(self) -> npt.NDArray[np.float64]:
        """Each game for ``a``: 1 won, 0.5 tied, 0 lost."""
        a, b = self.finals[:, 0], self.finals[:, 1]
        result: npt.NDArray[np.float64] = (a > b) + 0.5 * (a == b)
        return result

    def win_rate(self) -> tuple[float, float, float]:
        """``a``'s share of the wins (a tie half) and its 95 % interval (normal)."""
        won = self.outcomes()
        rate = float(won.mean())
        half = 1.959964 * float(won.std()) / max(1, len(won)) ** 0.5
        return rate, rate - half, rate + half


def duel(strategy: Strategy, a: str, b: str, games: int, seed: int = 0) -> Duel:
    """Play ``games`` two-seat games of ``a`` against ``b`` ("optimal" or "win"), the seat
    orders alternating, the dice of game ``g`` drawn from (seed, g)."""
    import numba

    from zar.ai import yams_duel  # numba: half a second to import

    for name in (a, b):
        if name not in DUEL_STRATEGIES:
            raise ValueError(
                f"there is no Yams duel strategy {name!r}: choose {' or '.join(DUEL_STRATEGIES)}"
            )
    if type(games) is not int or games < 0:
        raise ValueError(f"a number of games is a whole number, not {games!r}")
    if type(seed) is not int or not 0 <= seed < 1 << 63:
        raise ValueError(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
    value, second, tables = strategy.tables
    wins = np.array([a == "win", b == "win"])
    late = late_laws(strategy) if wins.any() else (np.full(value.shape, -1), np.zeros((1, 1)),
                                                   np.zeros(1, np.int64))  # fmt: skip
    chunks = 8 * numba.get_num_threads()
    finals, shown = yams_duel.duel(value, second, tables.kernel_args, late, yams_duel.LATE, wins,
                                   seed, games, chunks)  # fmt: skip
    return Duel(a, b, finals, shown)
