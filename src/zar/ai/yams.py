"""The optimal solitaire Yams player: the strategy that maximises the expected final score.

:class:`Strategy` holds the expected score still to come from every state of the card
(the filled boxes, the upper total up to 63, whether the Penta box holds 50), solved
backwards once (:mod:`zar.ai.yams_solver`, from the engine's own points:
:mod:`zar.ai.yams_tables`) and kept in the user's cache (:mod:`zar.ai.cache`). From it,
any throw's options are valued: each set of dice to keep, each box to write in.
:class:`OptimalPlayer` plays by it: the level ``expert``.

numba loads only to build a table, to value keeps and to simulate games: a strategy read
from the cache is ready without it.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from zar.ai import cache
from zar.ai.yams_tables import CAP, Tables, keep_index, tables
from zar.dice import check_dice
from zar.yams.game import DICE, YamsState
from zar.yams.scorecard import (
    PENTA_BONUS,
    PENTA_POINTS,
    UPPER_BONUS_AT,
    AnyBox,
    Rules,
    Scorecard,
)

__all__ = ["SOLVER_VERSION", "OptimalPlayer", "Progress", "Strategy", "kept_positions"]

SOLVER_VERSION = 2  # 2: the second moment of every state kept beside its value
CACHE_NAME = "yams-strategy"


def _shape(rules: Rules) -> tuple[int, int, int]:
    """A strategy's tables: [filled boxes, upper total up to 63, whether the Penta box holds 50]."""
    return (1 << len(rules.boxes), CAP + 1, 2)


Progress = Callable[[int, int], None]
"""Called as ``progress(states_done, states_in_all)`` while a table is built."""


def _rules(variant: str | Rules) -> Rules:
    if isinstance(variant, Rules):
        return variant
    try:
        return Rules(variant)
    except ValueError:
        names = ", ".join(rules.value for rules in Rules)
        raise ValueError(f"there is no Yams variant {variant!r}: choose {names}") from None


def _fits(stored: dict[str, npt.NDArray[np.generic]], rules: Rules) -> bool:
    """Whether cached arrays have the names, shapes and types of a strategy's."""
    value, second, moments = stored.get("value"), stored.get("second"), stored.get("moments")
    return (
        value is not None
        and second is not None
        and moments is not None
        and value.shape == second.shape == _shape(rules)
        and value.dtype == second.dtype == np.dtype(np.float64)
        and moments.shape == (2,)
    )


def _fingerprint(tb: Tables) -> str:
    """A digest of everything the solver read from the engine: a rule changed, a new key."""
    digest = hashlib.sha256()
    for array in (tb.points, tb.joker_allowed, tb.joker_points, tb.joker_bonus):
        digest.update(np.ascontiguousarray(array).tobytes())
    digest.update(f"{tb.upper_bonus} {UPPER_BONUS_AT}".encode())
    return digest.hexdigest()[:16]


class Strategy:
    """The optimal strategy of solitaire Yams under ``rules``.

    Values are expected *final* scores: what the card already holds plus the expected
    score still to come under optimal play.
    """

    def __init__(
        self,
        rules: Rules,
        value: npt.NDArray[np.float64],
        second: npt.NDArray[np.float64],
        moments: tuple[float, float],
    ):
        shape = _shape(rules)
        if value.shape != shape or second.shape != shape:
            raise ValueError(f"a strategy's tables have the shape {shape}, not {value.shape}")
        self.rules = rules
        self._tables = tables(rules)
        self._value = value
        self._second = second
        self._moments = (float(moments[0]), float(moments[1]))

    def __repr__(self) -> str:
        return f"Strategy.load({self.rules.value!r})"

    @staticmethod
    def key(rules: Rules) -> dict[str, object]:
        """What a cached table must have been built for."""
        return {
            "game": "yams",
            "rules": rules.value,
            "engine": _fingerprint(tables(rules)),
            "solver": SOLVER_VERSION,
        }

    @classmethod
    def load(
        cls,
        variant: str | Rules = "standard",
        *,
        rebuild: bool = False,
        progress: Progress | None = None,
    ) -> Strategy:
        """The strategy for ``variant`` (a value of :class:`Rules`: "standard", "official" ...),
        read from the cache, or built (``rebuild``: always) and stored there.

        A cache file that is missing, damaged or built for anything else is built again.
        A cache folder that cannot be written is done without.
        """
        rules = _rules(variant)
        key = cls.key(rules)
        stored = None if rebuild else cache.load(CACHE_NAME, key)
        if stored is not None and _fits(stored, rules):
            value = stored["value"].astype(np.float64, copy=False)
            second = stored["second"].astype(np.float64, copy=False)
            moments = stored["moments"]
            return cls(rules, value, second, (moments[0], moments[1]))
        strategy = cls.build(rules, progress)
        arrays = {
            "value": strategy._value,
            "second": strategy._second,
            "moments": np.array(strategy._moments),
        }
        # A cache that cannot be written: the table still serves this run.
        with contextlib.suppress(OSError):
            cache.store(CACHE_NAME, key, arrays)
        return strategy

    @classmethod
    def build(cls, variant: str | Rules = "standard", progress: Progress | None = None) -> Strategy:
        """Solve every state of ``variant`` now, the cache left alone."""
        from zar.ai import yams_solver  # numba: half a second to import

        rules = _rules(variant)
        value, second = yams_solver.build(tables(rules), progress)
        return cls(rules, value, second, (float(value[0, 0, 0]), float(second[0, 0, 0])))

    @property
    def tables(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], Tables]:
        """The expected remaining score and its second moment of every state, and the
        engine's tables: what the play-to-win kernels (:mod:`zar.ai.yams_duel`) read."""
        return self._value, self._second, self._tables

    def state(self, card: Scorecard) -> tuple[int, int, int]:
        """The card as the tables index it: (filled boxes, upper total up to 63, whether
        the Penta box holds 50); an impossible or finished card is refused."""
        return self._state(card)

    def expected_score(self) -> float:
        """The expected final score of optimal play from an empty card."""
        return self._moments[0]

    def stdev(self) -> float:
        """The standard deviation of the final score under the same play."""
        mean, second = self._moments
        return math.sqrt(max(0.0, second - mean * mean))

    def _state(self, card: Scorecard) -> tuple[int, int, int]:
        """The card as the table indexes it; an impossible or finished card is refused."""
        if not isinstance(card, Scorecard):
            raise ValueError(f"expected a Yams scorecard, not {card!r}")
        if card.rules is not self.rules:
            raise ValueError(
                f"this card plays by the {card.rules.value} rules, "
                f"the strategy by the {self.rules.value} rules"
            )
        if card.is_complete:
            raise ValueError("the card is complete: no round is left to play")
        if card.penta_bonus and not self._tables.joker_bonus.any():
            raise ValueError(f"no Penta bonus can be won under the {self.rules.value} rules")
        mask = sum(1 << slot for slot, held in enumerate(card.boxes) if held is not None)
        state = (mask, min(CAP, card.upper_total), int(card.penta == PENTA_POINTS))
        if math.isnan(self._value[state]):
            raise ValueError("this card cannot happen")
        return state

    def _keep_tables(
        self, state: tuple[int, int, int]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The remaining value of each kept dice set, with one throw left and with two."""
        from zar.ai import yams_solver  # numba: half a second to import

        return yams_solver.keep_tables(self._value, self._tables, state)

    def keep_values(
        self, card: Scorecard, dice: tuple[int, ...], throws_left: int
    ) -> dict[tuple[int, ...], float]:
        """For each distinct set of dice that may be kept (sorted faces; ``()`` throws all
        five, all five stop throwing), the expected final score when keeping it."""
        state = self._state(card)
        faces = tuple(sorted(check_dice(dice, count=DICE)))
        if throws_left not in (1, 2):
            raise ValueError(f"dice are kept with 1 or 2 throws left, not {throws_left!r}")
        w0, w1 = self._keep_tables(state)
        w = w1 if throws_left == 2 else w0
        base = card.total
        values = {}
        for n in range(DICE):
            for kept in combinations(faces, n):
                values[kept] = base + float(w[keep_index(kept)])
        values[faces] = base + float(w0[keep_index(faces)])
        return values

    def box_values(self, card: Scorecard, dice: tuple[int, ...]) -> dict[AnyBox, float]:
        """For each box the throw may go in now (the engine's ``card.options``), the
        expected final score when writing it there."""
        mask, up, flag = self._state(card)
        faces = check_dice(dice, count=DICE)
        bonus = PENTA_BONUS if card.earns_penta_bonus(faces) else 0
        upper, total = card.upper_total, card.total
        penta_box = self.rules.boxes[-1]
        values = {}
        for box, points in card.options(faces).items():
            gained = points + bonus
            next_up, next_flag = up, flag
            if box.face is not None:
                next_up = min(CAP, up + points)
                if upper < UPPER_BONUS_AT <= upper + points:
                    gained += self.rules.upper_bonus
            elif box is penta_box:
                next_flag = int(points == PENTA_POINTS)
            rest = float(self._value[mask | 1 << box.value, next_up, next_flag])
            values[box] = total + gained + rest
        return values

    def value(self, card: Scorecard) -> float:
        """The expected final score of ``card`` before its next round's first throw (a
        complete card: its total); ``value(Scorecard())`` is :meth:`expected_score`."""
        if isinstance(card, Scorecard) and card.is_complete:
            return float(card.total)
        return card.total + float(self._value[self._state(card)])

    def best_keep(
        self, card: Scorecard, dice: tuple[int, ...], throws_left: int
    ) -> tuple[int, ...]:
        """The dice to keep (sorted faces); equal values keep more dice, then higher faces."""
        values = self.keep_values(card, dice, throws_left)
        return max(values, key=lambda kept: (values[kept], len(kept), kept))

    def best_box(self, card: Scorecard, dice: tuple[int, ...]) -> AnyBox:
        """The box to write the throw in; equal values take the first box of the card."""
        values = self.box_values(card, dice)
        return max(values, key=lambda box: (values[box], -box.value))

    def play(self, games: int, seed: int = 0) -> npt.NDArray[np.int64]:
        """The final scores of ``games`` solitaire games played by this strategy, with dice
        drawn from a generator seeded by ``seed`` (the same scores on any machine)."""
        from zar.ai import yams_solver  # numba: half a second to import

        if type(games) is not int or games < 0:
            raise ValueError(f"a number of games is a whole number, not {games!r}")
        if type(seed) is not int or not 0 <= seed < 1 << 63:
            raise ValueError(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
        return yams_solver.simulate(self._value, self._tables, games, seed)


def kept_positions(dice: tuple[int, ...], kept: tuple[int, ...]) -> tuple[int, ...]:
    """Positions of dice showing the faces ``kept``, the first such dice of each face."""
    wanted = Counter(kept)
    chosen = []
    for position, face in enumerate(dice):
        if wanted[face]:
            wanted[face] -= 1
            chosen.append(position)
    return tuple(chosen)


@dataclass(frozen=True)
class OptimalPlayer:
    """The level ``expert``: keeps and writes to maximise the expected final score."""

    strategy: Strategy

    def keep(self, state: YamsState) -> tuple[int, ...] | None:
        """The positions of the dice to keep before throwing again, or None to write now."""
        if not state.dice or state.throws_left not in (1, 2):
            raise ValueError("the computer chooses dice to keep after the first or second throw")
        kept = self.strategy.best_keep(state.card, state.dice, state.throws_left)
        return None if len(kept) == DICE else kept_positions(state.dice, kept)

    def box(self, state: YamsState) -> AnyBox:
        """The box to write the dice in."""
        if not state.dice:
            raise ValueError("the computer writes a throw only after throwing")
        return self.strategy.best_box(state.card, state.dice)
