"""The Yams scorecard: thirteen boxes, the upper and Penta bonuses, the Joker (docs/rules.md);
under the Scandinavian rules, Yatzy's fifteen boxes instead (:class:`YatzyBox`).

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
from typing import Self, cast

from zar.dice import check_dice, counts, outcomes
from zar.table import IllegalAction

__all__ = [
    "HOUSE_RULES",
    "LOWER",
    "PENTA_BONUS",
    "PENTA_POINTS",
    "UPPER",
    "UPPER_BONUS",
    "UPPER_BONUS_AT",
    "YATZY_UPPER_BONUS",
    "AnyBox",
    "Box",
    "IllegalMove",
    "Rules",
    "Scorecard",
    "YatzyBox",
    "box_points",
    "is_penta",
    "yatzy_points",
]

UPPER_BONUS = 35
UPPER_BONUS_AT = 63
PENTA_BONUS = 100
PENTA_POINTS = 50
YATZY_UPPER_BONUS = 50


class _CardBox(enum.Enum):
    """What a box of either card knows of itself: its face and its place (the members are
    each card's own, :class:`Box` and :class:`YatzyBox`)."""

    face: int | None
    """The face an upper box counts (1 for ONES ... 6 for SIXES); None for a lower box."""

    slot: int
    """The box's place on the card (its value), a plain attribute: read at every fill of a
    replay, where an enum's ``value`` costs a descriptor call."""

    def __init__(self, value: int) -> None:
        self.slot = value
        self.face = value + 1 if value < 6 else None

    @classmethod
    def upper(cls, face: int) -> Self:
        """The upper box that counts ``face``."""
        return cls(face - 1)


class Box(_CardBox):
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


BOXES = tuple(Box)
UPPER = BOXES[:6]
LOWER = BOXES[6:]


class YatzyBox(_CardBox):
    """The fifteen boxes of a Scandinavian Yatzy card, upper section first, Yatzy last."""

    ONES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    ONE_PAIR = 6
    TWO_PAIRS = 7
    THREE_OF_A_KIND = 8
    FOUR_OF_A_KIND = 9
    SMALL_STRAIGHT = 10
    LARGE_STRAIGHT = 11
    FULL_HOUSE = 12
    CHANCE = 13
    YATZY = 14


YATZY_BOXES = tuple(YatzyBox)

AnyBox = Box | YatzyBox
"""A box of either card."""


class Rules(enum.Enum):
    """Our rules, and the published variants the solver is checked against (docs/contract.md).

    Each says its card: its boxes (:attr:`boxes`), its upper bonus, whether a Penta earns
    a bonus or plays as a Joker.
    """

    STANDARD = "standard"  # forced Joker; +100 only while the Penta box holds 50
    OFFICIAL = "official"  # Hasbro's: the forced Joker whether the Penta box holds 50 or 0
    FREE_JOKER = "free-joker"  # a later Penta goes in any open box; +100 while Penta holds 50
    NO_BONUS = "no-bonus"  # a Penta is an ordinary throw: no +100, no Joker
    SCANDINAVIAN = "scandinavian"  # Yatzy's 15 boxes, bonus 50 at 63, no Joker, no +100

    @property
    def boxes(self) -> tuple[AnyBox, ...]:
        """The card's boxes, in its order: the 13 of :class:`Box`, or Yatzy's 15."""
        return YATZY_BOXES if self is Rules.SCANDINAVIAN else BOXES

    @property
    def box_type(self) -> type[Box] | type[YatzyBox]:
        """The enum of the card's boxes."""
        return YatzyBox if self is Rules.SCANDINAVIAN else Box

    @property
    def upper_bonus(self) -> int:
        """The upper bonus, won at an upper total of 63: 35, or Yatzy's 50."""
        return YATZY_UPPER_BONUS if self is Rules.SCANDINAVIAN else UPPER_BONUS

    @property
    def penta_counts(self) -> bool:
        """Whether a later Penta earns +100 or plays as a Joker (a rule of the Penta box)."""
        return self not in (Rules.NO_BONUS, Rules.SCANDINAVIAN)


HOUSE_RULES = (Rules.STANDARD, Rules.OFFICIAL, Rules.FREE_JOKER, Rules.SCANDINAVIAN)
"""The rules a table may play by, ours first (``no-bonus`` is a published solver variant only)."""


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


FACES_HIGH_FIRST = (6, 5, 4, 3, 2, 1)


def _pairs(c: tuple[int, ...]) -> list[int]:
    """The faces shown at least twice, highest first."""
    return [face for face in FACES_HIGH_FIRST if c[face - 1] >= 2]


def yatzy_points(box: YatzyBox, dice: Iterable[int]) -> int:
    """What ``box`` of a Scandinavian Yatzy card scores for a five-dice throw.

    The pair, two pairs, three and four of a kind count only the dice that make them (the
    highest such); two pairs are of two faces, a full house three of one and two of another
    and scores the five dice; the straights are 1-2-3-4-5 (15) and 2-3-4-5-6 (20).

    >>> dice = (5, 5, 5, 2, 2)
    >>> [yatzy_points(box, dice) for box in (YatzyBox.ONE_PAIR, YatzyBox.TWO_PAIRS,
    ...     YatzyBox.THREE_OF_A_KIND, YatzyBox.FULL_HOUSE)]
    [10, 14, 15, 19]
    """
    faces = check_dice(dice, count=5)
    c = counts(faces)
    if box.face is not None:
        return box.face * c[box.face - 1]
    match box:
        case YatzyBox.ONE_PAIR:
            pairs = _pairs(c)
            return 2 * pairs[0] if pairs else 0
        case YatzyBox.TWO_PAIRS:
            pairs = _pairs(c)
            return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
        case YatzyBox.THREE_OF_A_KIND | YatzyBox.FOUR_OF_A_KIND:
            n = 3 if box is YatzyBox.THREE_OF_A_KIND else 4
            return max((n * face for face in FACES_HIGH_FIRST if c[face - 1] >= n), default=0)
        case YatzyBox.SMALL_STRAIGHT:
            return 15 if c == (1, 1, 1, 1, 1, 0) else 0
        case YatzyBox.LARGE_STRAIGHT:
            return 20 if c == (0, 1, 1, 1, 1, 1) else 0
        case YatzyBox.FULL_HOUSE:
            return sum(faces) if sorted(c)[-2:] == [2, 3] else 0
        case YatzyBox.CHANCE:
            return sum(faces)
        case YatzyBox.YATZY:
            return PENTA_POINTS if max(c) == 5 else 0
        case _:  # the upper boxes returned above
            raise AssertionError(box)


@dataclass(frozen=True, slots=True)
class Scorecard:
    """One player's card: what each box holds (None while empty) and the Penta bonuses so far.

    An immutable value: ``fill`` returns a new card. Its boxes are its rules' (13, or
    Yatzy's 15 under the Scandinavian rules); a card made without boxes is empty.
    """

    boxes: tuple[int | None, ...] = ()
    penta_bonus: int = 0
    rules: Rules = Rules.STANDARD

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise ValueError(f"a card plays by one of the Rules, not {self.rules!r}")
        size = len(self.rules.boxes)
        if self.boxes == ():
            object.__setattr__(self, "boxes", (None,) * size)
        if len(self.boxes) != size:
            raise ValueError(f"a scorecard has {size} boxes, not {len(self.boxes)}")
        possibles = _YATZY_POSSIBLE if self.rules is Rules.SCANDINAVIAN else _POSSIBLE
        for box, points, possible in zip(self.rules.boxes, self.boxes, possibles, strict=True):
            if points is not None and (type(points) is not int or points not in possible):
                raise ValueError(f"{box.name} cannot hold {points!r}")
        if (
            type(self.penta_bonus) is not int
            or self.penta_bonus < 0
            or self.penta_bonus % PENTA_BONUS
            or (self.penta_bonus and self.penta != PENTA_POINTS)
            or self.penta_bonus > PENTA_BONUS * max(0, size - 1 - self.boxes.count(None))
        ):
            raise ValueError(f"a Penta bonus of {self.penta_bonus!r} is not possible on this card")

    @classmethod
    def from_boxes(
        cls,
        filled: Mapping[Box, int] | Mapping[YatzyBox, int],
        *,
        penta_bonus: int = 0,
        rules: Rules = Rules.STANDARD,
    ) -> Scorecard:
        """A card with these boxes filled.

        >>> Scorecard.from_boxes({Box.PENTA: 50}).penta
        50
        """
        boxes: list[int | None] = [None] * len(rules.boxes)
        for box, points in filled.items():
            if not isinstance(box, rules.box_type):
                raise ValueError(f"a {rules.value} card has no box {box!r}")
            boxes[box.slot] = points
        return cls(tuple(boxes), penta_bonus, rules)

    def __getitem__(self, box: AnyBox) -> int | None:
        if type(box) is not self.rules.box_type:
            raise KeyError(box)
        return self.boxes[box.slot]

    @property
    def penta(self) -> int | None:
        return self.boxes[-1]  # Box.PENTA (YatzyBox.YATZY), the last

    @property
    def open_boxes(self) -> tuple[AnyBox, ...]:
        boxes = self.rules.boxes
        return tuple(box for box, held in zip(boxes, self.boxes, strict=True) if held is None)

    @property
    def upper_total(self) -> int:
        return sum(held or 0 for held in self.boxes[:6])

    @property
    def upper_bonus(self) -> int:
        return self.rules.upper_bonus if self.upper_total >= UPPER_BONUS_AT else 0

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
            self.rules.penta_counts
            and self.penta == PENTA_POINTS
            and is_penta(check_dice(dice, count=5))
        )

    def options(self, dice: Iterable[int]) -> dict[AnyBox, int]:
        """Every box this throw may be written in now, with the points the box itself gets.

        The Joker applies: when it forces a box, that box is the only key. Boxes scoring 0
        are included, since a sacrifice is a legal move. The +100 is not included.
        """
        faces = check_dice(dice, count=5)
        if self.rules is Rules.SCANDINAVIAN:
            yatzy_open = cast(tuple[YatzyBox, ...], self.open_boxes)
            return {box: yatzy_points(box, faces) for box in yatzy_open}
        open_boxes = cast(tuple[Box, ...], self.open_boxes)
        if not is_penta(faces) or self.penta is None or not self.rules.penta_counts:
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

    def fill(self, box: AnyBox, dice: Iterable[int]) -> Scorecard:
        """The card after writing this throw in ``box``, with the +100 when the throw earns it.

        Raises :class:`IllegalMove` when ``box`` is not among ``options(dice)``.
        """
        faces = check_dice(dice, count=5)
        if type(box) is not self.rules.box_type:
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


def _yatzy_possible() -> tuple[frozenset[int], ...]:
    """What each box of a Yatzy card may hold, in the card's order: what some throw scores."""
    throws = [faces for faces, _ in outcomes(5)]
    return tuple(frozenset(yatzy_points(box, faces) for faces in throws) for box in YATZY_BOXES)


_YATZY_POSSIBLE = _yatzy_possible()
