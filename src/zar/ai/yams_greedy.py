"""The easy computer player of Yams: it keeps toward the best box it can fill right now.

It looks one throw ahead and no further: for every way to keep dice it weighs the exact
outcomes of throwing the others (:func:`zar.dice.outcomes`) by the best box each result
could be written in at once, and keeps the dice with the highest expectation. It writes a
throw where it scores most and, when no open box scores, gives up the box worth least.

>>> from zar.yams import Scorecard
>>> best_box(Scorecard(), (1, 2, 3, 4, 5))
<Box.LARGE_STRAIGHT: 10>
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations
from typing import cast

from zar.dice import outcomes
from zar.yams.game import DICE, YamsState
from zar.yams.scorecard import (
    PENTA_BONUS,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_AT,
    Box,
    Scorecard,
    box_points,
    is_penta,
)

__all__ = [
    "PENTA_KEPT_ROUNDS",
    "SACRIFICE_ORDER",
    "TIE_ORDER",
    "GreedyPlayer",
    "best_box",
    "box_values",
    "keep_values",
    "sacrifice",
]

# Chance takes any throw; spending it on a small sum throws away its use as a safety net.
CHANCE_SMALL = 20
CHANCE_SMALL_COST = 10

# When no open box scores, the box given up is the first open one of this list. Ones and
# Twos hold little (the greedy player averages 1.6 and 4.2 in them over 2 000 solitaire
# games) and it seldom reaches the upper bonus anyway (3 % of games). Then the lower boxes
# it most often fails to fill: Four of a kind (0 in 12 % of games), Large straight (8 %);
# then Threes (6.7), the Penta box, and the rest by what they usually bring. Other orders
# tried moved the mean score by less than its standard error: sacrifices are rare.
SACRIFICE_ORDER: tuple[Box, ...] = (
    Box.ONES,
    Box.TWOS,
    Box.FOUR_OF_A_KIND,
    Box.LARGE_STRAIGHT,
    Box.THREES,
    Box.PENTA,
    Box.FULL_HOUSE,
    Box.FOURS,
    Box.SMALL_STRAIGHT,
    Box.FIVES,
    Box.SIXES,
    Box.THREE_OF_A_KIND,
    Box.CHANCE,
)
# The Penta box is kept back while this many rounds or more remain after this one: a Penta
# (50, then +100 each) may still come; closer to the end it is given up right after Twos.
PENTA_KEPT_ROUNDS = 4

# Among boxes of equal value, the one hardest to fill later is written first.
TIE_ORDER: tuple[Box, ...] = (
    Box.PENTA,
    Box.LARGE_STRAIGHT,
    Box.FOUR_OF_A_KIND,
    Box.FULL_HOUSE,
    Box.SMALL_STRAIGHT,
    Box.THREE_OF_A_KIND,
    Box.SIXES,
    Box.FIVES,
    Box.FOURS,
    Box.THREES,
    Box.TWOS,
    Box.ONES,
    Box.CHANCE,
)
_TIE_RANK = {box: rank for rank, box in enumerate(TIE_ORDER)}


def box_values(card: Scorecard, dice: Iterable[int]) -> dict[Box, int]:
    """For each box ``dice`` may be written in now, what the greedy player thinks of it:
    the points it adds to the card.

    The points the box gets, the +100 of a Penta that earns it, the 35 of the upper bonus
    when this box reaches 63, less 10 for Chance on a sum under 20 while another box is
    open (a small Chance is kept for a worse throw). The keys are those of
    ``card.options(dice)``.

    >>> values = box_values(Scorecard(), (1, 1, 3, 4, 6))
    >>> values[Box.CHANCE], values[Box.SIXES], values[Box.FULL_HOUSE]
    (5, 6, 0)
    """
    faces = tuple(sorted(dice))
    return dict(_scored(card, faces, _open(card), card.upper_total))


def _options(card: Scorecard, dice: tuple[int, ...]) -> dict[Box, int]:
    """The card's options: a Yams card's, the only ones the greedy player plays."""
    return cast(dict[Box, int], card.options(dice))


@cache
def _ordinary(dice: tuple[int, ...]) -> tuple[int, ...]:
    """What each box (in card order) scores for a sorted throw by the ordinary table."""
    return tuple(box_points(box, dice) for box in Box)


@lru_cache(maxsize=512)
def _open(card: Scorecard) -> tuple[tuple[Box, int, bool], ...]:
    """The card's open boxes, each with its index in card order and whether it is Chance."""
    open_boxes = cast(tuple[Box, ...], card.open_boxes)  # a Yams card: the greedy player's
    return tuple((box, box.value, box is Box.CHANCE) for box in open_boxes)


def _scored(
    card: Scorecard,
    dice: tuple[int, ...],
    open_boxes: tuple[tuple[Box, int, bool], ...],
    upper: int,
) -> list[tuple[Box, int]]:
    """(box, value) for each box a sorted throw may go in, the card's open boxes and upper
    total given (they are the same for the 252 throws :func:`_best_values` scores)."""
    # The Joker concerns Pentas only: any other throw scores by the ordinary table.
    if is_penta(dice):
        options = _options(card, dice)
        points_of = [(box, box.value, box is Box.CHANCE, options[box]) for box in options]
        bonus = PENTA_BONUS if card.earns_penta_bonus(dice) else 0
    else:
        ordinary = _ordinary(dice)
        points_of = [(box, i, chance, ordinary[i]) for box, i, chance in open_boxes]
        bonus = 0
    # The last open box is no safety net to keep.
    chance_cost = CHANCE_SMALL_COST if len(open_boxes) > 1 else 0
    values = []
    for box, i, chance, points in points_of:
        value = points + bonus
        if i < len(UPPER) and upper < UPPER_BONUS_AT <= upper + points:
            value += UPPER_BONUS
        if chance and points < CHANCE_SMALL:
            value -= chance_cost
        values.append((box, value))
    return values


# A card's table is 252 entries; a game visits 13 cards per player.
@lru_cache(maxsize=512)
def _best_values(card: Scorecard) -> dict[tuple[int, ...], int]:
    """For every sorted five-dice throw, the value of its best box on this card."""
    open_boxes = _open(card)
    upper = card.upper_total
    return {
        dice: max(value for _, value in _scored(card, dice, open_boxes, upper))
        for dice, _ in outcomes(DICE)
    }


def best_box(card: Scorecard, dice: Iterable[int]) -> Box:
    """The box the greedy player writes ``dice`` in: the one of highest :func:`box_values`,
    ties going to the box hardest to fill later (:data:`TIE_ORDER`).

    When no box is worth anything (nothing scores, or only Chance on a small sum), it
    gives up a box that scores nothing (:func:`sacrifice`).
    """
    faces = tuple(sorted(dice))
    options = _options(card, faces)
    values = box_values(card, faces)
    worth = [box for box in options if options[box] > 0 and values[box] > 0]
    zero = [box for box in options if options[box] == 0]
    if not worth and zero:
        return sacrifice(card, zero)
    return max(worth or options, key=lambda box: (values[box], -_TIE_RANK[box]))


def sacrifice(card: Scorecard, options: Iterable[Box]) -> Box:
    """The box to give up when none scores: the first open one of :data:`SACRIFICE_ORDER`,
    with Penta moved up to just after Twos in the last rounds (:data:`PENTA_KEPT_ROUNDS`).

    >>> open_boxes = {Box.TWOS, Box.FULL_HOUSE, Box.LARGE_STRAIGHT, Box.PENTA}
    >>> sacrifice(Scorecard(), open_boxes)
    <Box.TWOS: 1>
    """
    allowed = set(options)
    rounds_after = len(card.open_boxes) - 1
    order = SACRIFICE_ORDER
    if rounds_after < PENTA_KEPT_ROUNDS:
        order = (Box.ONES, Box.TWOS, Box.PENTA, *(b for b in order[2:] if b is not Box.PENTA))
    return next(box for box in order if box in allowed)


@cache
def _weighted_outcomes(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The outcomes of throwing ``n`` dice, each weighted by its chance times 6**5 (an int)."""
    scale = 6**DICE
    return tuple((faces, int(p * scale)) for faces, p in outcomes(n))


@lru_cache(maxsize=1 << 13)
def _keep_value(card: Scorecard, kept: tuple[int, ...]) -> int:
    """6**5 times the expected best value after keeping ``kept`` (sorted) and throwing the rest."""
    best = _best_values(card)
    return sum(
        weight * best[tuple(sorted(kept + thrown))]
        for thrown, weight in _weighted_outcomes(DICE - len(kept))
    )


def _keeps(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every distinct set of dice that may be kept from a throw, as sorted faces."""
    return {
        tuple(sorted(dice[p] for p in chosen))
        for n in range(DICE + 1)
        for chosen in combinations(range(DICE), n)
    }


def keep_values(card: Scorecard, dice: Iterable[int]) -> dict[tuple[int, ...], Fraction]:
    """For each distinct set of dice to keep, the exact expected value of the best box after
    throwing the others once (all five kept: the value of writing the dice now).

    >>> keep_values(Scorecard(), (6, 6, 6, 6, 6))[(6, 6, 6, 6, 6)]
    Fraction(50, 1)
    """
    faces = tuple(dice)
    scale = 6**DICE
    return {kept: Fraction(_keep_value(card, kept), scale) for kept in _keeps(faces)}


def _positions(dice: tuple[int, ...], kept: tuple[int, ...]) -> tuple[int, ...]:
    """The positions of the dice showing ``kept``, lowest positions first."""
    chosen: list[int] = []
    for face in kept:
        chosen.append(next(p for p, f in enumerate(dice) if f == face and p not in chosen))
    return tuple(sorted(chosen))


@dataclass(frozen=True, slots=True)
class GreedyPlayer:
    """The easy level: keeps toward the best immediate box, writes where it scores best.

    Its expectations are exact (integers over 6**5), so equal ones tie exactly; a tie
    keeps more dice, then the greater faces (compared as sorted tuples).
    """

    def keep(self, state: YamsState) -> tuple[int, ...] | None:
        """The positions of the dice to keep before throwing again, or None to write now."""
        if not state.dice or state.throws_left == 0:
            raise ValueError("the computer chooses dice to keep after the first or second throw")
        card = state.card
        best = max(
            _keeps(state.dice),
            key=lambda kept: (_keep_value(card, kept), len(kept), kept),
        )
        if len(best) == DICE:
            return None
        return _positions(state.dice, best)

    def box(self, state: YamsState) -> Box:
        """The box to write the dice in (see :func:`best_box`)."""
        if not state.dice:
            raise ValueError("the computer writes a throw only after throwing")
        return best_box(state.card, state.dice)
