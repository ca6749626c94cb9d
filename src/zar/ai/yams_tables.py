"""What the optimal Yams solver knows of the rules: tables filled by asking the engine.

Each box's points for the 252 throws come from ``Scorecard.options``, for the boxes of
the rules' card (13, or Yatzy's 15: the kernels read their number from the tables); what
a Penta may go in, for how much and with which bonus, from the engine's own cards in every Joker
situation (the Penta box open, holding 0 or 50; the face's upper box open or not; a
lower box open or not). Beside them, the dice sets a player may keep (462 of 0 to 5
dice) and how they lead to one another.

>>> len(KEPT), KEPT[FIRST_THROW]
(462, (1, 1, 1, 1, 1))
>>> tables(Rules.STANDARD).options(0, False, (2, 3, 4, 5, 6))[Box.LARGE_STRAIGHT]
40
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np
import numpy.typing as npt

from zar.dice import FACES, check_dice, outcomes
from zar.yams.scorecard import (
    UPPER_BONUS_AT,
    AnyBox,
    Box,
    Rules,
    Scorecard,
)

__all__ = [
    "CAP",
    "FIRST_THROW",
    "KEEPS",
    "KEPT",
    "PENTA_BOX",
    "PENTA_FIFTY",
    "PENTA_OPEN",
    "PENTA_ZERO",
    "THROWS",
    "Tables",
    "keep_index",
    "tables",
]

CAP = UPPER_BONUS_AT  # upper totals from 63 on are all one: the bonus is won
PENTA_BOX = Box.PENTA.value  # on a Yams card; the Penta (Yatzy) box is the last of any card
KEPT: tuple[tuple[int, ...], ...] = tuple(
    faces for n in range(6) for faces in combinations_with_replacement(FACES, n)
)
"""Every set of 0 to 5 dice (sorted faces), fewer dice first; the last 252 are the throws,
in the order of ``zar.dice.outcomes(5)``."""
KEEPS = len(KEPT)
THROWS = len(outcomes(5))
FIRST_THROW = KEEPS - THROWS
_INDEX = {faces: k for k, faces in enumerate(KEPT)}

# Joker situations, as the kernels index them: the Penta box open, holding 0, holding 50.
PENTA_OPEN, PENTA_ZERO, PENTA_FIFTY = range(3)


def keep_index(faces: tuple[int, ...]) -> int:
    """The index of a set of dice (any order) in :data:`KEPT`."""
    return _INDEX[tuple(sorted(faces))]


def _code(faces: tuple[int, ...]) -> int:
    """The dice as how many of each face, in base 6: what the kernels compute from dice."""
    return sum(6 ** (face - 1) for face in faces)


@dataclass(frozen=True, eq=False)
class Tables:
    """The numbers a solver of ``rules`` needs, as arrays for the kernels."""

    rules: Rules
    points: npt.NDArray[np.int64]  # [box, throw]: points by the ordinary table
    counts: npt.NDArray[np.int64]  # [throw, face - 1]
    pentas: npt.NDArray[np.int64]  # [face - 1]: the throw index of five such dice
    joker_allowed: npt.NDArray[np.bool_]  # [penta state, face box open, lower open, face - 1, box]
    joker_points: npt.NDArray[np.int64]  # same index: the points the box gets
    joker_bonus: npt.NDArray[np.float64]  # [penta state, face - 1]: the Penta bonus earned
    add: npt.NDArray[np.int64]  # [set, face - 1]: the set with one die more (fewer than 5)
    remove: npt.NDArray[np.int64]  # [set, j]: the set with one die less, j-th distinct face
    removes: npt.NDArray[np.int64]  # [set]: how many distinct faces it holds
    chance: npt.NDArray[np.float64]  # [throw]: its probability
    key: npt.NDArray[np.int64]  # [base-6 face counts]: the set's index
    flag_matters: bool  # whether a Penta box holding 50 plays otherwise than one holding 0
    upper_bonus: int  # won at an upper total of 63

    @property
    def boxes(self) -> int:
        """How many boxes the card has: the Penta box is the last."""
        return int(self.points.shape[0])

    @property
    def full(self) -> int:
        """The mask of a card with every box filled."""
        return (1 << self.boxes) - 1

    @property
    def kernel_args(self) -> tuple[Any, ...]:
        """The tables in the order the kernels read them."""
        return (
            self.points,
            self.counts,
            self.pentas,
            self.joker_allowed,
            self.joker_points,
            self.joker_bonus,
            self.add,
            self.remove,
            self.removes,
            self.upper_bonus,
            UPPER_BONUS_AT,
            self.chance,
            self.key,
            self.boxes,
        )

    def options(self, mask: int, penta_fifty: bool, dice: tuple[int, ...]) -> dict[AnyBox, int]:
        """The boxes a throw may go in on a card with these boxes filled, and their points,
        read from the tables as the kernels read them (so that a test can hold them against
        the engine's ``Scorecard.options``)."""
        faces = tuple(sorted(check_dice(dice, count=5)))
        t = keep_index(faces) - FIRST_THROW
        open_boxes = [box for box in self.rules.boxes if not mask >> box.slot & 1]
        if len(set(faces)) > 1:
            return {box: int(self.points[box.slot, t]) for box in open_boxes}
        situation = self._situation(mask, penta_fifty, faces[0], self.boxes)
        return {
            box: int(self.joker_points[(*situation, box.slot)])
            for box in open_boxes
            if self.joker_allowed[(*situation, box.slot)]
        }

    def penta_bonus(self, mask: int, penta_fifty: bool, dice: tuple[int, ...]) -> int:
        """The Penta bonus this throw earns, read from the tables."""
        faces = check_dice(dice, count=5)
        if len(set(faces)) > 1:
            return 0
        state = self._situation(mask, penta_fifty, faces[0], self.boxes)[0]
        return int(self.joker_bonus[state, faces[0] - 1])

    @staticmethod
    def _situation(
        mask: int, penta_fifty: bool, face: int, boxes: int
    ) -> tuple[int, int, int, int]:
        lower = (1 << boxes) - 1 - 63
        penta = boxes - 1
        state = PENTA_OPEN if not mask >> penta & 1 else PENTA_FIFTY if penta_fifty else PENTA_ZERO
        upper_open = 0 if mask >> (face - 1) & 1 else 1
        lower_open = 1 if mask & lower != lower else 0
        return state, upper_open, lower_open, face - 1


def _probe(rules: Rules, penta: int, upper_open: int, lower_open: int, face: int) -> Scorecard:
    """A card in this Joker situation, every other box open."""
    boxes: list[int | None] = [None] * len(rules.boxes)
    if penta != PENTA_OPEN:
        boxes[-1] = 50 if penta == PENTA_FIFTY else 0
    if not upper_open:
        boxes[face - 1] = 0
    if not lower_open:
        # Chance cannot hold 0: five dice add up to 5 at least.
        for box in rules.boxes[6:-1]:
            boxes[box.slot] = 5 if box.name == "CHANCE" else 0
    return Scorecard(tuple(boxes), rules=rules)


def _joker(rules: Rules) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64], Any]:
    size = len(rules.boxes)
    allowed = np.zeros((3, 2, 2, 6, size), np.bool_)
    points = np.zeros((3, 2, 2, 6, size), np.int64)
    bonus = np.zeros((3, 6))
    for penta in (PENTA_OPEN, PENTA_ZERO, PENTA_FIFTY):
        for face in FACES:
            for upper_open in (0, 1):
                for lower_open in (0, 1):
                    if penta == PENTA_OPEN and not lower_open:
                        continue  # an open Penta box is an open lower box
                    card = _probe(rules, penta, upper_open, lower_open, face)
                    dice = (face,) * 5
                    for box, got in card.options(dice).items():
                        allowed[penta, upper_open, lower_open, face - 1, box.slot] = True
                        points[penta, upper_open, lower_open, face - 1, box.slot] = got
                        earned = card.fill(box, dice).penta_bonus - card.penta_bonus
                        bonus[penta, face - 1] = earned
    return allowed, points, bonus


def _lattice() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    add = np.zeros((FIRST_THROW, 6), np.int64)
    remove = np.zeros((KEEPS, 5), np.int64)
    removes = np.zeros(KEEPS, np.int64)
    for k, faces in enumerate(KEPT):
        if len(faces) < 5:
            add[k] = [keep_index((*faces, face)) for face in FACES]
        distinct = sorted(set(faces))
        removes[k] = len(distinct)
        for j, face in enumerate(distinct):
            rest = list(faces)
            rest.remove(face)
            remove[k, j] = keep_index(tuple(rest))
    return add, remove, removes


@cache
def tables(rules: Rules) -> Tables:
    """The tables for ``rules``, asked of the engine once."""
    throws = [faces for faces, _ in outcomes(5)]
    empty = Scorecard(rules=rules)
    points = np.zeros((len(rules.boxes), THROWS), np.int64)
    for t, faces in enumerate(throws):
        for box, got in empty.options(faces).items():
            points[box.slot, t] = got
    allowed, joker_points, bonus = _joker(rules)
    add, remove, removes = _lattice()
    key = np.full(6**6, -1, np.int64)
    for k, faces in enumerate(KEPT):
        key[_code(faces)] = k
    return Tables(
        rules=rules,
        points=points,
        counts=np.array([[faces.count(f) for f in FACES] for faces in throws], np.int64),
        pentas=np.array([throws.index((f,) * 5) for f in FACES], np.int64),
        joker_allowed=allowed,
        joker_points=joker_points,
        joker_bonus=bonus,
        add=add,
        remove=remove,
        removes=removes,
        chance=np.array([float(p) for _, p in outcomes(5)]),
        key=key,
        flag_matters=bool(
            (allowed[PENTA_ZERO] != allowed[PENTA_FIFTY]).any()
            or (joker_points[PENTA_ZERO] != joker_points[PENTA_FIFTY]).any()
            or (bonus[PENTA_ZERO] != bonus[PENTA_FIFTY]).any()
        ),
        upper_bonus=rules.upper_bonus,
    )
