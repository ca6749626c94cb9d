"""What the tests of the optimal 10 000 players share: the engine's throws in plain Python
(no solver table)."""

from __future__ import annotations

from functools import cache

from zar.dice import outcomes
from zar.farkle import selections

UNIT = 50


@cache
def throws(n: int) -> tuple[tuple[float, tuple[tuple[int, int], ...]], ...]:
    """Each result of throwing n dice that scores: its chance and every legal selection as
    (units earned, dice left to throw after it, 6 after hot dice), straight from the engine."""
    result = []
    for faces, chance in outcomes(n):
        moves = {(p // UNIT, n - len(k) or 6) for k, p in selections(faces).items()}
        if moves:
            result.append((float(chance), tuple(sorted(moves))))
    return tuple(result)


@cache
def farkle_chance(n: int) -> float:
    return 1.0 - sum(chance for chance, _ in throws(n))
