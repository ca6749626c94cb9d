"""What the tests of the 10 000 solvers under house rules share: the engine's throws under
a preset's rules and a last turn's chances, in plain Python (no solver table)."""

from __future__ import annotations

from collections import defaultdict
from functools import cache

from zar.ai.farkle_chances import UNIT
from zar.dice import outcomes
from zar.farkle import DICE, FarkleRules, selections

__all__ = ["Moves", "last_turn_chances", "lost_chance", "throws"]

Moves = tuple[tuple[int, int], ...]


@cache
def throws(n: int, rules: FarkleRules) -> tuple[tuple[float, Moves], ...]:
    """The scoring results of n dice under ``rules``, merged by their moves: (chance, every
    (units earned, dice left after: 6 after hot dice))."""
    merged: dict[Moves, float] = defaultdict(float)
    for faces, chance in outcomes(n):
        moves = {(p // UNIT, n - len(k) or DICE) for k, p in selections(faces, rules).items()}
        if moves:
            merged[tuple(sorted(moves))] += float(chance)
    return tuple((chance, moves) for moves, chance in merged.items())


@cache
def lost_chance(n: int, rules: FarkleRules) -> float:
    return 1.0 - sum(chance for chance, _ in throws(n, rules))


def last_turn_chances(rules: FarkleRules, rows: int) -> list[float]:
    """L[d]: a last turn's chance from its start d units behind (a tie 1/2, none: 0)."""
    if not rules.last_round:
        return [0.0] * rows
    minimum = rules.bank_minimum // UNIT

    @cache
    def throw(d: int, t: int, n: int) -> float:
        return sum(
            chance * max(held(d, t + p, m) for p, m in moves) for chance, moves in throws(n, rules)
        )

    def held(d: int, t: int, n: int) -> float:
        if t >= minimum and t > d:
            return 1.0
        if t >= minimum and t == d:
            return max(0.5, throw(d, t, n))
        return throw(d, t, n)

    @cache
    def short(r: int, n: int) -> float:  # r units behind, past the minimum once passing
        return sum(
            chance * max(1.0 if r < p else max(0.5, short(0, m)) if r == p else short(r - p, m)
                         for p, m in moves)
            for chance, moves in throws(n, rules)
        )  # fmt: skip

    return [throw(d, 0, DICE) if d < minimum else short(d, DICE) for d in range(rows)]
