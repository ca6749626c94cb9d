"""The Yams scorecard: thirteen boxes, the upper and Penta bonuses, the Joker (docs/rules.md).

>>> card = Scorecard()
>>> card.options((1, 1, 3, 4, 6))[Box.CHANCE]
15
>>> card.fill(Box.PENTA, (4, 4, 4, 4, 4)).fill(Box.FOURS, (4, 4, 4, 4, 4)).total
170
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from zar.dice import check_dice, counts
from zar.table import IllegalAction

__all__ = [
    "LOWER",
    "PENTA_BONUS",
    "PENTA_POINTS",
    "UPPER",
    "UPPER_BONUS",
    "UPPER_BONUS_AT",
    "Box",
    "IllegalMove",
    "Rules",
    "Scorecard",
    "box_points",
    "is_penta",
]

UPPER_BONUS = 35
UPPER_BONUS_AT = 63
PENTA_BONUS = 100
PENTA_POINTS = 50


class Box(enum.Enum):
    """The thirteen boxes of the card, upper section first."""

    ONES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    THREE_OF_A_KIND = 6
    FOUR_OF_A_KIND = 7
    FULL_HOUSE = 8
    SMALL_STRAIGHT = 9
    LARGE_STRAIGHT = 10
    CHANCE = 11
    PENTA = 12

    face: int | None
    """The face an upper box counts (1 for ONES ... 6 for SIXES); None for a lower box."""

    slot: int
    """The box's place on the card (its value), a plain attribute: read at every fill of a
    replay, where an enum's ``value`` costs a descriptor call."""

    def __init__(self, value: int) -> None:
        self.slot = value
        self.face = value + 1 if value < 6 else None

    @classmethod
    def upper(cls, face: int) -> Box:
        return cls(face - 1)


BOXES = tuple(Box)
UPPER = BOXES[:6]
LOWER = BOXES[6:]


class Rules(enum.Enum):
    """Our rules, and the published variants the solver is checked against (docs/contract.md)."""

    STANDARD = "standard"  # forced Joker; +100 only while the Penta box holds 50
    OFFICIAL = "official"  # Hasbro's: the forced Joker whether the Penta box holds 50 or 0
    FREE_JOKER = "free-joker"  # a later Penta goes in any open box; +100 while Penta holds 50
    NO_BONUS = "no-bonus"  # a Penta is an ordinary throw: no +100, no Joker


class IllegalMove(IllegalAction):
    """A throw written in a box the rules do not allow now."""


def is_penta(dice: Iterable[int]) -> bool:
    """Five equal dice."""
    faces = tuple(dice)
    return len(faces) == 5 and len(set(faces)) == 1


def _longest_run(c: tuple[int, ...]) -> int:
    best = run = 0
    for n in c:
        run = run + 1 if n else 0
        best = max(best, run)
    return best


def box_points(box: Box, dice: Iterable[int], *, joker: bool = False) -> int:
    """What ``box`` scores for a five-dice throw by the ordinary table (or as the Joker).

    As the Joker, Full house, Small and Large straight score 25, 30 and 40 whatever the faces.

    >>> penta = (4, 4, 4, 4, 4)
    >>> box_points(Box.FULL_HOUSE, penta), box_points(Box.FULL_HOUSE, penta, joker=True)
    (0, 25)
    """
    faces = check_dice(dice, count=5)
    c = counts(faces)
    most = max(c)
    if box.face is not None:
        return box.face * c[box.face - 1]
    match box:
        case Box.THREE_OF_A_KIND:
            return sum(faces) if most >= 3 else 0
        case Box.FOUR_OF_A_KIND:
            return sum(faces) if most >= 4 else 0
        case Box.FULL_HOUSE:
            # Three equal and two *other* equal dice: a Penta is not a full house.
            return 25 if joker or sorted(c)[-2:] == [2, 3] else 0
        case Box.SMALL_STRAIGHT:
            return 30 if joker or _longest_run(c) >= 4 else 0
        case Box.LARGE_STRAIGHT:
            return 40 if joker or _longest_run(c) == 5 else 0
        case Box.CHANCE:
            return sum(faces)
        case Box.PENTA:
            return PENTA_POINTS if most == 5 else 0
        case _:  # the upper boxes returned above
            raise AssertionError(box)


@dataclass(frozen=True, slots=True)
class Scorecard:
    """One player's card: what each box holds (None while empty) and the Penta bonuses so far.

    An immutable value: ``fill`` returns a new card.
    """

    boxes: tuple[int | None, ...] = (None,) * 13
    penta_bonus: int = 0
    rules: Rules = Rules.STANDARD

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise ValueError(f"a card plays by one of the Rules, not {self.rules!r}")
        if len(self.boxes) != 13:
            raise ValueError(f"a scorecard has 13 boxes, not {len(self.boxes)}")
        for box, points, possible in zip(BOXES, self.boxes, _POSSIBLE, strict=True):
            if points is not None and (type(points) is not int or points not in possible):
                raise ValueError(f"{box.name} cannot hold {points!r}")
        if (
            type(self.penta_bonus) is not int
            or self.penta_bonus < 0
            or self.penta_bonus % PENTA_BONUS
            or (self.penta_bonus and self.penta != PENTA_POINTS)
            or self.penta_bonus > PENTA_BONUS * max(0, 12 - self.boxes.count(None))
        ):
            raise ValueError(f"a Penta bonus of {self.penta_bonus!r} is not possible on this card")

    @classmethod
    def from_boxes(
        cls,
        filled: Mapping[Box, int],
        *,
        penta_bonus: int = 0,
        rules: Rules = Rules.STANDARD,
    ) -> Scorecard:
        """A card with these boxes filled.

        >>> Scorecard.from_boxes({Box.PENTA: 50}).penta
        50
        """
        boxes: list[int | None] = [None] * 13
        for box, points in filled.items():
            boxes[box.slot] = points
        return cls(tuple(boxes), penta_bonus, rules)

    def __getitem__(self, box: Box) -> int | None:
        return self.boxes[box.slot]

    @property
    def penta(self) -> int | None:
        return self.boxes[-1]  # Box.PENTA, the last

    @property
    def open_boxes(self) -> tuple[Box, ...]:
        return tuple(box for box, held in zip(BOXES, self.boxes, strict=True) if held is None)

    @property
    def upper_total(self) -> int:
        return sum(held or 0 for held in self.boxes[:6])

    @property
    def upper_bonus(self) -> int:
        return UPPER_BONUS if self.upper_total >= UPPER_BONUS_AT else 0

    @property
    def lower_total(self) -> int:
        return sum(held or 0 for held in self.boxes[6:])

    @property
    def total(self) -> int:
        return self.upper_total + self.upper_bonus + self.lower_total + self.penta_bonus

    @property
    def is_complete(self) -> bool:
        return None not in self.boxes

    def earns_penta_bonus(self, dice: Iterable[int]) -> bool:
        """Whether writing this throw anywhere adds +100: a Penta while the Penta box holds 50."""
        return (
            self.rules is not Rules.NO_BONUS
            and self.penta == PENTA_POINTS
            and is_penta(check_dice(dice, count=5))
        )

    def options(self, dice: Iterable[int]) -> dict[Box, int]:
        """Every box this throw may be written in now, with the points the box itself gets.

        The Joker applies: when it forces a box, that box is the only key. Boxes scoring 0
        are included, since a sacrifice is a legal move. The +100 is not included.
        """
        faces = check_dice(dice, count=5)
        open_boxes = self.open_boxes
        if not is_penta(faces) or self.penta is None or self.rules is Rules.NO_BONUS:
            return {box: box_points(box, faces) for box in open_boxes}
        face_box = Box.upper(faces[0])
        if self.rules is Rules.FREE_JOKER:
            joker = self[face_box] is not None
            return {box: box_points(box, faces, joker=joker) for box in open_boxes}
        if self.penta != PENTA_POINTS and self.rules is Rules.STANDARD:
            # Ours: a Penta box holding 0 gives neither bonus nor Joker, an ordinary throw.
            # Hasbro's (official): the Joker as below, without the bonus.
            return {box: box_points(box, faces) for box in open_boxes}
        if self[face_box] is None:
            return {face_box: box_points(face_box, faces)}
        lower = [box for box in open_boxes if box in LOWER]
        if lower:
            return {box: box_points(box, faces, joker=True) for box in lower}
        return dict.fromkeys(open_boxes, 0)

    def fill(self, box: Box, dice: Iterable[int]) -> Scorecard:
        """The card after writing this throw in ``box``, with the +100 when the throw earns it.

        Raises :class:`IllegalMove` when ``box`` is not among ``options(dice)``.
        """
        faces = check_dice(dice, count=5)
        if not isinstance(box, Box):
            raise IllegalMove(f"there is no box {box!r}", reason="no-such-box", box=box)
        allowed = self.options(faces)
        if box not in allowed:
            if self[box] is not None:
                raise IllegalMove(f"{box.name} is already filled", reason="box-filled", box=box)
            forced = next(iter(allowed)) if len(allowed) == 1 else None
            if forced is not None and forced.face is not None and forced.face == faces[0]:
                raise IllegalMove(
                    f"the Joker: this Penta must go in {forced.name}",
                    reason="joker-forced",
                    box=box,
                    forced=forced,
                )
            raise IllegalMove(
                f"the Joker: while a lower box is open, this Penta cannot go in {box.name}",
                reason="joker-lower-first",
                box=box,
            )
        boxes = list(self.boxes)
        boxes[box.slot] = allowed[box]
        bonus = self.penta_bonus + (PENTA_BONUS if self.earns_penta_bonus(faces) else 0)
        return Scorecard(tuple(boxes), bonus, self.rules)


def _possible() -> tuple[frozenset[int], ...]:
    """What each box may hold, in the card's order."""
    sums = frozenset(range(5, 31))
    result = {box: frozenset(box.face * n for n in range(6)) for box in UPPER if box.face}
    result[Box.THREE_OF_A_KIND] = sums | {0}
    result[Box.FOUR_OF_A_KIND] = sums | {0}
    result[Box.FULL_HOUSE] = frozenset({0, 25})
    result[Box.SMALL_STRAIGHT] = frozenset({0, 30})
    result[Box.LARGE_STRAIGHT] = frozenset({0, 40})
    result[Box.CHANCE] = sums
    result[Box.PENTA] = frozenset({0, PENTA_POINTS})
    return tuple(result[box] for box in BOXES)


_POSSIBLE = _possible()
