"""What a throw of n dice can lead to under a set of house rules, from the engine, for the
10 000 solvers (:mod:`zar.ai.farkle_solver`): the chance tables and what may be banked.

Points are counted in units of 50 (every score of the game is a multiple of 50).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from zar.dice import outcomes
from zar.farkle.game import DICE
from zar.farkle.rules import SEED, FarkleRules
from zar.farkle.scoring import selections

__all__ = [
    "UNIT",
    "ChanceTables",
    "Floats",
    "Ints",
    "Options",
    "bank_floors",
    "bank_for_sure",
    "chance_tables",
]

UNIT = 50  # every score of 10 000 is a multiple of 50

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Options:
    """The throws of n dice (1..6) that score, merged by what the player may do after them.

    A class gathers the throws that leave the same options (units earned, dice left to
    throw after: 6 after hot dice); each option is one or more selections of the throw.
    """

    class_first: Ints  # classes of n dice: class_first[n] .. class_first[n + 1] - 1
    class_chance: Floats  # the chance of each class (the float of the exact fraction)
    option_first: Ints  # options of class c: option_first[c] .. option_first[c + 1] - 1
    option_points: Ints  # units earned by the option
    option_dice: Ints  # dice left to throw after it (6: hot dice)
    exact_chance: tuple[Fraction, ...]  # each class's chance, exact

    @cached_property
    def offset(self) -> Ints:
        # A state (t, n) lives at 16 t + 2 n of a flat work array (its value, then its
        # chance of losing the turn): an option is one offset from the row it is taken at.
        offset: Ints = 16 * self.option_points + 2 * self.option_dice
        return offset


def _options(best_only: bool, rules: FarkleRules) -> Options:
    class_first = [0, 0]
    chances: list[Fraction] = []
    option_first = [0]
    points: list[int] = []
    dice: list[int] = []
    for n in range(1, DICE + 1):
        classes: dict[tuple[tuple[int, int], ...], Fraction] = {}
        for faces, chance in outcomes(n):
            options = selections(faces, rules).items()
            moves = {(n - len(k) or DICE, p // UNIT) for k, p in options}
            if best_only:
                best: dict[int, int] = {}
                for left, p in moves:
                    best[left] = max(best.get(left, 0), p)
                moves = set(best.items())
            if moves:
                key = tuple(sorted(moves))
                classes[key] = classes.get(key, Fraction(0)) + chance
        for key, chance in classes.items():
            chances.append(chance)
            for left, p in key:
                dice.append(left)
                points.append(p)
            option_first.append(len(points))
        class_first.append(len(chances))
    return Options(
        class_first=np.array(class_first, dtype=np.int64),
        class_chance=np.array([float(c) for c in chances], dtype=np.float64),
        option_first=np.array(option_first, dtype=np.int64),
        option_points=np.array(points, dtype=np.int64),
        option_dice=np.array(dice, dtype=np.int64),
        exact_chance=tuple(chances),
    )


@dataclass(frozen=True)
class ChanceTables:
    """What a throw of n dice can lead to, from ``outcomes`` and ``selections``.

    ``full`` keeps every distinct (points, dice left) option of a throw. ``best`` keeps,
    for each count of dice left, only the most points: all a solver needs where more
    points are never worse, which fails only for a player about to reach the target (a
    bank just short of it may beat one just past it, which gives the opponent his last
    turn at once); the turn kernel falls back on ``full`` there.
    """

    best: Options
    full: Options
    farkle: Floats  # farkle[n]: the chance that n dice score nothing (farkle[0] = 0)
    exact_farkle: tuple[Fraction, ...]
    max_points: int  # the most units one set-aside earns (six of a kind)

    @cached_property
    def kernel_args(self) -> tuple[Any, ...]:
        """The arrays the kernels take, as one tuple: the chance of a lost throw, the best
        options (the first seven), then every option (class_first .. offset)."""
        b, f = self.best, self.full
        return (
            self.farkle,
            b.class_first,
            b.class_chance,
            b.option_first,
            b.option_points,
            b.option_dice,
            b.offset,
            f.class_first,
            f.class_chance,
            f.option_first,
            f.offset,
        )


@cache
def chance_tables(rules: FarkleRules = SEED) -> ChanceTables:
    """The option classes of every throw under ``rules``, from the engine."""
    farkle = [Fraction(0)]
    for n in range(1, DICE + 1):
        farkle.append(sum((c for f, c in outcomes(n) if not selections(f, rules)), Fraction(0)))
    best, full = _options(True, rules), _options(False, rules)
    return ChanceTables(
        best=best,
        full=full,
        farkle=np.array([float(f) for f in farkle], dtype=np.float64),
        exact_farkle=tuple(farkle),
        max_points=int(full.option_points.max()),
    )


@cache
def bank_for_sure(rules: FarkleRules = SEED) -> int:
    """The turn points (units) from which banking maximises a turn's expected points.

    Throwing n dice once more and then banking is worth less than banking t at once when
    t * farkle[n] exceeds the expected points of the throw's best set-aside; past the
    largest such t over n that holds at every later state too (a closed region: one-step
    look-ahead is optimal there), so banking is optimal. 18 600 points: six dice fail
    only 5/216 of the time (the seeds' rules).
    """
    tables = chance_tables(rules)
    best = tables.best
    bound = Fraction(0)
    for n in range(1, DICE + 1):
        gain = Fraction(0)
        for c in range(int(best.class_first[n]), int(best.class_first[n + 1])):
            first, last = int(best.option_first[c]), int(best.option_first[c + 1])
            gain += best.exact_chance[c] * int(best.option_points[first:last].max())
        bound = max(bound, gain / tables.exact_farkle[n])
    return math.ceil(bound)


def bank_floors(rules: FarkleRules) -> Ints:
    """(the bank minimum, the floor of a player with nothing banked), in units."""
    floors: Ints = np.array(
        [rules.bank_floor(UNIT) // UNIT, rules.bank_floor(0) // UNIT], dtype=np.int64
    )
    return floors
