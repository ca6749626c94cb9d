"""Dice: checking faces, the exact outcomes of a throw, and injected sources of chance.

The rules never roll. Whoever drives a game asks a :class:`DiceSource` for faces and hands
them to the engine; the solvers use :func:`outcomes` instead, which lists every result of a
throw with its exact probability.

>>> len(outcomes(5))
252
>>> sum(p for _, p in outcomes(3))
Fraction(1, 1)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Protocol

from zar.table import IllegalAction

__all__ = [
    "FACES",
    "DiceSource",
    "SeededDice",
    "SystemDice",
    "check_dice",
    "counts",
    "outcomes",
]

FACES = (1, 2, 3, 4, 5, 6)


def check_dice(dice: Iterable[object], *, count: int | None = None) -> tuple[int, ...]:
    """Return the dice as a tuple of ints 1..6, or raise :class:`IllegalAction` (a ``ValueError``).

    >>> check_dice([3, 1, 6])
    (3, 1, 6)
    """
    faces: list[int] = []
    for face in dice:
        # bool is an int subclass; True is not a die.
        if type(face) is not int or not 1 <= face <= 6:
            raise IllegalAction(
                f"a die shows a face from 1 to 6, not {face!r}", reason="bad-face", face=face
            )
        faces.append(face)
    if count is not None and len(faces) != count:
        raise IllegalAction(
            f"expected {count} dice, got {len(faces)}",
            reason="dice-count",
            expected=count,
            got=len(faces),
        )
    return tuple(faces)


@cache
def outcomes(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every distinct result of throwing ``n`` dice, as sorted faces, with its exact probability.

    Results are unordered (a multiset of faces): 252 of them for five dice, 462 for six.
    """
    if type(n) is not int or not 0 <= n <= 6:
        raise ValueError(f"a throw has 0 to 6 dice, not {n!r}")
    total = 6**n
    result = []
    for faces in combinations_with_replacement(FACES, n):
        ways = factorial(n)
        for face in FACES:
            ways //= factorial(faces.count(face))
        result.append((faces, Fraction(ways, total)))
    return tuple(result)


class DiceSource(Protocol):
    """Where live dice come from: ``roll(n)`` gives ``n`` faces, each 1..6, at once (the
    server asks on its event loop for a person's throw)."""

    def roll(self, n: int) -> tuple[int, ...]: ...


class SeededDice:
    """Reproducible dice from a seed, for tests, simulations and ``--seed``."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"

    def roll(self, n: int) -> tuple[int, ...]:
        return tuple(self._random.randint(1, 6) for _ in range(n))


class SystemDice:
    """Dice from the operating system's randomness, for live play: nobody seeds or predicts them."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()

    def __repr__(self) -> str:
        return "SystemDice()"

    def roll(self, n: int) -> tuple[int, ...]:
        return tuple(self._random.randint(1, 6) for _ in range(n))


def counts(dice: Sequence[int]) -> tuple[int, int, int, int, int, int]:
    """How many dice show each face, ones first."""
    c = [0] * 6
    for face in dice:
        c[face - 1] += 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])
