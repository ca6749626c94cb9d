"""Scoring the dice set aside in 10 000 (docs/rules.md, F-1 .. F-13).

Combinations count only among the dice of one throw, and the dice set aside from one
throw are scored together, the best way to count them.

>>> score([5, 5, 5, 1])
600
>>> is_farkle([2, 3, 4, 4, 6, 6])
True
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import cache
from itertools import product

from zar.dice import check_dice, counts, outcomes
from zar.farkle.rules import SEED, FarkleRules
from zar.table import IllegalAction

__all__ = [
    "IllegalSelection",
    "farkle_probability",
    "is_farkle",
    "score",
    "scoring_faces",
    "selections",
]


class IllegalSelection(IllegalAction):
    """A selection of dice that cannot be set aside: empty, or with a die that cannot score."""


def _group_points(face: int, count: int, rules: FarkleRules) -> int | None:
    """Points for ``count`` dice of ``face`` set aside together, or None if they cannot score."""
    if count >= 3:
        return rules.kind_points(face, count)
    if face == 1:
        return 100 * count
    if face == 5:
        return 50 * count
    return None


def _six_dice_points(c: tuple[int, ...], rules: FarkleRules) -> int:
    """The six-dice combinations: the straight, and three pairs (four of a kind and a pair
    count when the rules say so)."""
    shape = sorted(n for n in c if n)
    if shape == [1, 1, 1, 1, 1, 1]:
        return rules.straight
    if shape == [2, 2, 2] or (rules.four_and_pair and shape == [2, 4]):
        return rules.three_pairs
    return 0


@cache
def _score_counts(c: tuple[int, ...], rules: FarkleRules) -> tuple[int, tuple[int, ...]]:
    """(points, faces that cannot score) for a selection given by its face counts."""
    points = 0
    dead: list[int] = []
    for face, count in enumerate(c, start=1):
        if count:
            group = _group_points(face, count, rules)
            if group is None:
                dead.append(face)
            else:
                points += group
    if dead:
        points = 0
    if sum(c) == 6:
        six = _six_dice_points(c, rules)
        if six > points:
            return six, ()
    return points, tuple(dead)


def _describe(c: tuple[int, ...], dead: Iterable[int]) -> str:
    parts = []
    for face in dead:
        parts.append(f"a lone {face}" if c[face - 1] == 1 else f"a pair of {face}s")
    return " and ".join(parts)


def score(dice: Iterable[int], rules: FarkleRules = SEED) -> int:
    """The points for setting these dice aside together from one throw, under ``rules``.

    Raises :class:`IllegalSelection` when the selection is empty or a die in it cannot score.

    >>> score([1, 1, 1, 1, 5, 5])
    1500
    """
    faces = check_dice(dice)
    if not faces:
        raise IllegalSelection("set aside at least one scoring die", reason="empty-selection")
    if len(faces) > 6:
        raise ValueError(f"a throw has at most 6 dice, not {len(faces)}")
    c = counts(faces)
    points, dead = _score_counts(c, rules)
    if dead:
        raise IllegalSelection(
            f"{_describe(c, dead)} cannot score".capitalize(),
            reason="cannot-score",
            dice=tuple((face, c[face - 1]) for face in dead),
        )
    return points


def scoring_faces(throw: Iterable[int], rules: FarkleRules = SEED) -> frozenset[int]:
    """The faces of this throw that some legal selection from it may include.

    A die showing any other face can never be set aside from this throw: a lone 2 when
    the throw holds no other 2s, no straight and no three pairs.
    """
    faces = check_dice(throw)
    c = counts(faces)
    if len(faces) == 6 and _six_dice_points(c, rules):
        return frozenset(faces)
    return frozenset(f for f in faces if f in (1, 5) or c[f - 1] >= 3)


def is_farkle(throw: Iterable[int], rules: FarkleRules = SEED) -> bool:
    """True when no die of the throw can score: the turn is lost ("Tour perdu !").

    >>> is_farkle([1, 2, 3, 4, 6, 6])
    False
    """
    return not scoring_faces(throw, rules)


@cache
def _selections(c: tuple[int, ...], rules: FarkleRules) -> dict[tuple[int, ...], int]:
    result: dict[tuple[int, ...], int] = {}
    for take in product(*(range(n + 1) for n in c)):
        if not any(take):
            continue
        points, dead = _score_counts(take, rules)
        if not dead:
            faces = tuple(f for f, n in enumerate(take, start=1) for _ in range(n))
            result[faces] = points
    return result


def selections(throw: Iterable[int], rules: FarkleRules = SEED) -> dict[tuple[int, ...], int]:
    """Every distinct legal selection from this throw (sorted faces) with its points under
    ``rules``.

    >>> selections([1, 2, 3, 4, 6, 6])
    {(1,): 100}
    """
    return dict(_selections(counts(check_dice(throw)), rules))


def farkle_probability(n: int, rules: FarkleRules = SEED) -> Fraction:
    """The exact chance that a throw of ``n`` dice scores nothing under ``rules``.

    >>> farkle_probability(1), farkle_probability(6)
    (Fraction(2, 3), Fraction(5, 216))
    """
    if type(n) is not int or not 1 <= n <= 6:
        raise ValueError(f"a throw has 1 to 6 dice, not {n!r}")
    return _farkle_probability(n, rules)


@cache
def _farkle_probability(n: int, rules: FarkleRules) -> Fraction:
    return sum((p for faces, p in outcomes(n) if is_farkle(faces, rules)), Fraction(0))
