"""Dice: checking faces, the exact outcomes of a throw, the injected sources (zar.dice)."""

from collections import Counter
from fractions import Fraction
from itertools import product
from math import comb

import pytest

from zar.dice import FACES, SeededDice, SystemDice, check_dice, counts, outcomes


def test_faces_are_one_to_six() -> None:
    """docs/contract.md: dice are ints 1..6."""
    assert FACES == (1, 2, 3, 4, 5, 6)


def test_check_dice_returns_a_tuple_of_the_faces() -> None:
    """docs/contract.md: dice are ints 1..6, kept in the order given."""
    assert check_dice([3, 1, 6]) == (3, 1, 6)
    assert check_dice((5,) * 5, count=5) == (5, 5, 5, 5, 5)
    assert check_dice([]) == ()


@pytest.mark.parametrize("face", [0, 7, -1, True, False, 1.0, "3", None])
def test_check_dice_refuses_what_is_not_a_face(face: object) -> None:
    """docs/contract.md: dice are ints 1..6; anything else is a ValueError a person can read."""
    with pytest.raises(ValueError, match="face from 1 to 6") as err:
        check_dice([1, face, 2])
    assert repr(face) in str(err.value)


@pytest.mark.parametrize("dice", [(), (1, 2, 3, 4), (1, 2, 3, 4, 5, 6)])
def test_check_dice_refuses_the_wrong_count(dice: tuple[int, ...]) -> None:
    """A throw of Yams has five dice: a count that differs is refused."""
    with pytest.raises(ValueError, match=f"expected 5 dice, got {len(dice)}"):
        check_dice(dice, count=5)


@pytest.mark.parametrize(
    ("n", "size"), [(0, 1), (1, 6), (2, 21), (3, 56), (4, 126), (5, 252), (6, 462)]
)
def test_outcomes_lists_every_unordered_throw_once(n: int, size: int) -> None:
    """docs/architecture.md: 252 outcomes for five dice (multisets of n faces: C(n + 5, 5))."""
    result = outcomes(n)
    assert len(result) == size == comb(n + 5, 5)
    throws = [faces for faces, _ in result]
    assert all(list(faces) == sorted(faces) and len(faces) == n for faces in throws)
    assert len(set(throws)) == size


@pytest.mark.parametrize("n", range(7))
def test_outcomes_probabilities_are_exact_and_agree_with_every_ordered_throw(n: int) -> None:
    """The probabilities sum to exactly 1 and match counting all 6**n ordered throws."""
    result = outcomes(n)
    assert sum(p for _, p in result) == 1
    assert all(isinstance(p, Fraction) for _, p in result)
    ordered = Counter(tuple(sorted(t)) for t in product(FACES, repeat=n))
    assert dict(result) == {faces: Fraction(k, 6**n) for faces, k in ordered.items()}


@pytest.mark.parametrize("n", [-1, 7, True, 2.0, "5"])
def test_outcomes_refuses_an_impossible_number_of_dice(n: object) -> None:
    """A throw has 0 to 6 dice."""
    with pytest.raises(ValueError, match="0 to 6 dice"):
        outcomes(n)  # type: ignore[arg-type]


def test_counts_counts_each_face_ones_first() -> None:
    """The face counts the scoring of both games reads."""
    assert counts((6, 1, 6, 3, 6)) == (1, 0, 1, 0, 0, 3)
    assert counts(()) == (0,) * 6


def test_seeded_dice_are_reproducible() -> None:
    """The same seed gives the same dice (--seed replays a game)."""
    first, second = SeededDice(7), SeededDice(7)
    rolls = [first.roll(n) for n in range(7)]
    assert rolls == [second.roll(n) for n in range(7)]
    assert [len(r) for r in rolls] == list(range(7))
    assert all(face in FACES for r in rolls for face in r)
    assert repr(first) == "SeededDice(7)"


def test_seeded_dice_cover_every_face() -> None:
    """Seeded dice are fair enough to show every face."""
    dice = SeededDice("zar")
    assert set(dice.roll(600)) == set(FACES)


def test_system_dice_roll_faces() -> None:
    """Live dice from the operating system are faces 1..6."""
    dice = SystemDice()
    roll = dice.roll(300)
    assert len(roll) == 300
    assert set(roll) <= set(FACES)
    assert repr(dice) == "SystemDice()"
