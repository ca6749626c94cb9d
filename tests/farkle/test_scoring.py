"""Scoring the dice set aside in 10 000 (docs/rules.md: its table, F-1 .. F-13)."""

import re
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from zar.farkle import IllegalSelection, farkle_probability, is_farkle, score, selections

FACES = range(1, 7)


# The reference, written from the rules table alone. A group of equal faces set aside
# together counts as one group (docs/rules.md: "four 1s set aside together are 1 000").
def group_points(face: int, count: int) -> int | None:
    """Points for ``count`` dice showing ``face`` set aside together, None if they cannot score."""
    if count == 6:
        return 3_000  # six of a kind
    if count == 5:
        return 2_000  # five of a kind
    if count == 4:
        return 1_000  # four of a kind, any face, 1s included
    if count == 3:
        return 1_000 if face == 1 else face * 100  # three 1s; three of a kind, 2 to 6
    single = {1: 100, 5: 50}.get(face)  # each 1 or 5 not in a combination
    return None if single is None else single * count


@cache
def reference(selection: tuple[int, ...]) -> tuple[int | None, frozenset[int]]:
    """(points or None, the faces that cannot score) for a sorted selection of one throw."""
    groups = Counter(selection)
    by_group = {face: group_points(face, n) for face, n in groups.items()}
    dead = frozenset(face for face, points in by_group.items() if points is None)
    candidates = [] if dead else [sum(p for p in by_group.values() if p is not None)]
    if len(selection) == 6:
        if sorted(selection) == [1, 2, 3, 4, 5, 6]:
            candidates.append(2_500)  # straight
        if sorted(groups.values()) in ([2, 2, 2], [2, 4]):
            candidates.append(1_500)  # three pairs; four of a kind + a pair counts
    if not candidates:
        return None, dead
    return max(candidates), frozenset()


def sub_multisets(throw: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every non-empty sub-multiset of the throw, as sorted faces."""
    groups = sorted(Counter(throw).items())
    result = set()
    for take in product(*(range(n + 1) for _, n in groups)):
        faces = tuple(f for (f, _), k in zip(groups, take, strict=True) for _ in range(k))
        if faces:
            result.add(faces)
    return result


@cache
def reference_selections(throw: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    legal = {}
    for sub in sub_multisets(throw):
        points, _ = reference(sub)
        if points is not None:
            legal[sub] = points
    return legal


def ordered_throws(max_dice: int = 6) -> list[tuple[int, ...]]:
    return [t for n in range(1, max_dice + 1) for t in product(FACES, repeat=n)]


ALL_THROWS = ordered_throws()


# Known answers: docs/rules.md F-1 .. F-12 (the original app's examples), selection -> points.
@pytest.mark.parametrize(
    ("selection", "points"),
    [
        pytest.param((4, 4, 4), 400, id="F-1"),
        pytest.param((5, 5, 5, 1), 600, id="F-2"),
        pytest.param((2, 2, 2, 2), 1_000, id="F-3"),
        pytest.param((3, 3, 3, 3, 3), 2_000, id="F-4"),
        pytest.param((6, 6, 6, 6, 6, 6), 3_000, id="F-5"),
        pytest.param((4, 2, 6, 1, 3, 5), 2_500, id="F-6"),
        pytest.param((2, 2, 4, 4, 6, 6), 1_500, id="F-7"),
        pytest.param((1, 1, 1, 1, 5, 5), 1_500, id="F-8"),
        pytest.param((2, 2, 2, 3, 3, 3), 500, id="F-9"),
        pytest.param((1, 1, 1), 1_000, id="F-10-three-1s"),
        pytest.param((1, 1, 1, 1), 1_000, id="F-10-four-1s"),
        pytest.param((1,), 100, id="F-11"),
        pytest.param((1, 5), 150, id="F-12"),
    ],
)
def test_worked_examples(selection: tuple[int, ...], points: int) -> None:
    """docs/rules.md F-1 .. F-12: the points of each selection, in any order."""
    assert score(selection) == points
    assert score(list(reversed(selection))) == points


def test_f1_to_f12_throws_offer_their_selection() -> None:
    """The throws of F-1 .. F-12 all score, and offer the selection the example sets aside."""
    examples = {
        (4, 4, 4, 2, 3, 6): ((4, 4, 4), 400),
        (5, 5, 5, 1, 2, 3): ((1, 5, 5, 5), 600),
        (2, 2, 2, 2, 3, 6): ((2, 2, 2, 2), 1_000),
        (3, 3, 3, 3, 3, 2): ((3, 3, 3, 3, 3), 2_000),
        (6, 6, 6, 6, 6, 6): ((6, 6, 6, 6, 6, 6), 3_000),
        (4, 2, 6, 1, 3, 5): ((1, 2, 3, 4, 5, 6), 2_500),
        (2, 2, 4, 4, 6, 6): ((2, 2, 4, 4, 6, 6), 1_500),
        (1, 1, 1, 1, 5, 5): ((1, 1, 1, 1, 5, 5), 1_500),
        (2, 2, 2, 3, 3, 3): ((2, 2, 2, 3, 3, 3), 500),
        (1, 1, 1, 1, 2, 3): ((1, 1, 1), 1_000),
        (1, 2, 3, 4, 6, 6): ((1,), 100),
        (1, 5, 3, 3, 6, 2): ((1, 5), 150),
    }
    for throw, (selection, points) in examples.items():
        assert not is_farkle(throw)
        assert selections(throw)[selection] == points


def test_f2_the_fives_of_the_triple_are_not_also_single_fives() -> None:
    """F-2: 5,5,5 and the 1 make 600, not 500 + 150 + 100."""
    assert score((5, 5, 5, 1)) == 600
    assert score((5, 5, 5)) == 500


def test_f10_four_ones_are_worth_no_more_than_three() -> None:
    """F-10: keeping three 1s or four gives 1 000 either way (docs/rules.md)."""
    assert selections((1, 1, 1, 1, 2, 3)) == {
        (1,): 100,
        (1, 1): 200,
        (1, 1, 1): 1_000,
        (1, 1, 1, 1): 1_000,
    }


def test_f11_a_lone_two_is_refused_with_the_one() -> None:
    """F-11: from 1,2,3,4,6,6 the 1 is accepted; the 1 and the 2 are refused."""
    assert score((1,)) == 100
    with pytest.raises(IllegalSelection, match="2"):
        score((1, 2))
    assert selections((1, 2, 3, 4, 6, 6)) == {(1,): 100}


def test_f13_nothing_scores() -> None:
    """F-13: 2,3,4,4,6,6 has no 1, no 5, no triple, no straight, no three pairs."""
    assert is_farkle((2, 3, 4, 4, 6, 6))
    assert selections((2, 3, 4, 4, 6, 6)) == {}


def test_kept_dice_of_one_throw_do_not_combine_with_the_next() -> None:
    """docs/rules.md: two 5s from one throw and a third from the next are 50 + 50 + 50."""
    assert score((5, 5)) + score((5,)) == 150
    assert score((5, 5, 5)) == 500


# Exhaustive: every ordered selection of one to six dice (55 986 of them).


def test_every_selection_scores_as_the_rules_table_says() -> None:
    """Every legal selection of one to six dice scores what the rules table says."""
    mismatches = []
    for selection in ALL_THROWS:
        points, _ = reference(tuple(sorted(selection)))
        if points is None:
            continue
        if score(selection) != points:
            mismatches.append((selection, score(selection), points))
    assert mismatches == []


def test_every_selection_with_a_die_that_cannot_score_is_refused_naming_those_dice() -> None:
    """docs/rules.md: every die set aside must score; the message names the dice that cannot."""
    refused = 0
    for selection in ALL_THROWS:
        points, dead = reference(tuple(sorted(selection)))
        if points is not None:
            continue
        refused += 1
        with pytest.raises(IllegalSelection) as err:
            score(selection)
        assert isinstance(err.value, ValueError)
        assert err.value.reason == "cannot-score"
        named = {int(d) for d in re.findall(r"\d", str(err.value))}
        assert named == dead, (selection, str(err.value))
    assert refused > 0


@pytest.mark.parametrize(
    ("selection", "message"),
    [
        ((2,), "A lone 2 cannot score"),
        ((1, 6, 6), "A pair of 6s cannot score"),
        ((2, 2, 3, 5), "A pair of 2s and a lone 3 cannot score"),
    ],
)
def test_the_refusal_reads_like_the_rule(selection: tuple[int, ...], message: str) -> None:
    """Seed 004: a lone 2, 3, 4 or 6, or a pair outside three pairs, is refused."""
    with pytest.raises(IllegalSelection, match=f"^{message}$"):
        score(selection)


def test_an_empty_selection_is_refused() -> None:
    """docs/rules.md: set aside at least one scoring die."""
    with pytest.raises(IllegalSelection) as err:
        score(())
    assert err.value.reason == "empty-selection"
    assert str(err.value)


@pytest.mark.parametrize(
    "selection", [(0,), (7, 1), (1, True), (1, 2.0), ("5",), (1, 1, 1, 1, 1, 1, 1)]
)
def test_a_selection_that_is_not_dice_of_one_throw_is_a_value_error(
    selection: tuple[object, ...],
) -> None:
    """docs/contract.md: dice are ints 1..6, a throw has at most six; anything else: ValueError."""
    with pytest.raises(ValueError, match=r"\S"):
        score(selection)  # type: ignore[arg-type]


def test_is_farkle_exactly_when_no_legal_selection_exists() -> None:
    """docs/rules.md: a throw with no scoring die loses the turn ("Tour perdu !")."""
    wrong = [t for t in ALL_THROWS if is_farkle(t) != (not reference_selections(tuple(sorted(t))))]
    assert wrong == []


def test_selections_lists_exactly_the_legal_sub_multisets() -> None:
    """Every distinct legal selection of every throw, with its points."""
    wrong = [t for t in ALL_THROWS if selections(t) != reference_selections(tuple(sorted(t)))]
    assert wrong == []


# The chance of losing the turn (docs/rules.md: 66.7 % with one die, 2.3 % with six).
FARKLE = {1: Fraction(2, 3), 2: Fraction(4, 9), 3: Fraction(5, 18)}
FARKLE |= {4: Fraction(17, 108), 5: Fraction(25, 324), 6: Fraction(5, 216)}


@pytest.mark.parametrize(("n", "chance"), FARKLE.items(), ids=[f"{n}-dice" for n in FARKLE])
def test_farkle_probability_is_exact(n: int, chance: Fraction) -> None:
    """The exact chance of losing the turn with n dice, also counted over all 6**n throws."""
    assert farkle_probability(n) == chance
    # Counted over all 6**n ordered throws with the reference.
    lost = sum(1 for t in product(FACES, repeat=n) if not reference_selections(tuple(sorted(t))))
    assert Fraction(lost, 6**n) == chance


def test_farkle_probability_matches_the_seed_percentages() -> None:
    """Seed 004: "6 zarla %2,3'ten tek zarla %66,7'ye"."""
    assert round(float(farkle_probability(1)) * 100, 1) == 66.7
    assert round(float(farkle_probability(6)) * 100, 1) == 2.3


@pytest.mark.parametrize("n", [0, 7, -1, True])
def test_farkle_probability_refuses_an_impossible_throw(n: int) -> None:
    """A throw has one to six dice in 10 000."""
    with pytest.raises(ValueError, match="1 to 6 dice"):
        farkle_probability(n)
