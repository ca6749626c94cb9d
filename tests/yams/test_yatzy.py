"""Scandinavian Yatzy (the rules scandinavian, docs/rules.md): its fifteen boxes' table over
every throw, its card (the upper bonus 50 at 63, no Joker, no Yatzy bonus)."""

from __future__ import annotations

from itertools import combinations, product

import pytest

from zar.yams import Box, IllegalMove, Rules, Scorecard, YatzyBox, yatzy_points

Y = YatzyBox
SCANDINAVIAN = Rules.SCANDINAVIAN
ORDERED = list(product(range(1, 7), repeat=5))


def _by_definition(box: YatzyBox, dice: tuple[int, ...]) -> int:
    """The box's points read off the rules' words, each combination tried in turn: the best
    choice of dice making it, counted alone (the whole throw for Full house and Chance)."""
    faces = range(1, 7)
    n = {face: dice.count(face) for face in faces}
    if box.face is not None:
        return box.face * n[box.face]
    kinds = {Y.ONE_PAIR: 2, Y.THREE_OF_A_KIND: 3, Y.FOUR_OF_A_KIND: 4}
    if box in kinds:
        return max([kinds[box] * f for f in faces if n[f] >= kinds[box]], default=0)
    if box is Y.TWO_PAIRS:
        return max(
            [2 * f + 2 * g for f, g in combinations(faces, 2) if n[f] >= 2 <= n[g]], default=0
        )
    if box is Y.SMALL_STRAIGHT:
        return 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if box is Y.LARGE_STRAIGHT:
        return 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    if box is Y.FULL_HOUSE:
        full = any(n[f] == 3 and n[g] == 2 for f in faces for g in faces if f != g)
        return sum(dice) if full else 0
    if box is Y.CHANCE:
        return sum(dice)
    assert box is Y.YATZY
    return 50 if len(set(dice)) == 1 else 0


def test_every_box_scores_every_throw_by_the_rules() -> None:
    """All 7 776 ordered throws, each of the 15 boxes, on an empty card and alone."""
    card = Scorecard(rules=SCANDINAVIAN)
    for dice in ORDERED:
        expected = {box: _by_definition(box, dice) for box in YatzyBox}
        assert {box: yatzy_points(box, dice) for box in YatzyBox} == expected, dice
        assert card.options(dice) == expected, dice


EXAMPLES = [
    # dice, box, points
    ((5, 5, 2, 3, 4), Y.ONE_PAIR, 10),  # the pair's two dice only
    ((5, 5, 6, 6, 1), Y.ONE_PAIR, 12),  # the higher pair
    ((3, 3, 3, 1, 2), Y.ONE_PAIR, 6),  # a pair within three of a kind
    ((1, 2, 3, 4, 6), Y.ONE_PAIR, 0),
    ((5, 5, 6, 6, 1), Y.TWO_PAIRS, 22),
    ((4, 4, 4, 4, 1), Y.TWO_PAIRS, 0),  # two pairs are of two faces
    ((2, 2, 2, 5, 5), Y.TWO_PAIRS, 14),  # a full house holds two pairs
    ((6, 6, 3, 3, 3), Y.TWO_PAIRS, 18),
    ((1, 1, 2, 2, 3), Y.TWO_PAIRS, 6),
    ((4, 4, 4, 2, 6), Y.THREE_OF_A_KIND, 12),
    ((4, 4, 4, 4, 4), Y.THREE_OF_A_KIND, 12),
    ((4, 4, 1, 2, 3), Y.THREE_OF_A_KIND, 0),
    ((6, 6, 6, 6, 2), Y.FOUR_OF_A_KIND, 24),
    ((3, 3, 3, 3, 3), Y.FOUR_OF_A_KIND, 12),
    ((6, 6, 6, 2, 2), Y.FOUR_OF_A_KIND, 0),
    ((1, 2, 3, 4, 5), Y.SMALL_STRAIGHT, 15),
    ((2, 3, 4, 5, 6), Y.SMALL_STRAIGHT, 0),  # 2-6 is the large one only
    ((1, 2, 3, 4, 4), Y.SMALL_STRAIGHT, 0),
    ((6, 5, 4, 3, 2), Y.LARGE_STRAIGHT, 20),
    ((1, 2, 3, 4, 5), Y.LARGE_STRAIGHT, 0),
    ((5, 5, 5, 2, 2), Y.FULL_HOUSE, 19),  # the five dice
    ((6, 6, 6, 6, 6), Y.FULL_HOUSE, 0),  # three and two of *different* faces
    ((6, 6, 6, 6, 1), Y.FULL_HOUSE, 0),
    ((1, 1, 2, 2, 2), Y.FULL_HOUSE, 8),
    ((1, 1, 3, 4, 6), Y.CHANCE, 15),
    ((2, 2, 2, 2, 2), Y.YATZY, 50),
    ((2, 2, 2, 2, 3), Y.YATZY, 0),
    ((1, 1, 3, 4, 6), Y.ONES, 2),
    ((6, 6, 6, 1, 2), Y.SIXES, 18),
]


@pytest.mark.parametrize(("dice", "box", "points"), EXAMPLES)
def test_known_throws(dice: tuple[int, ...], box: YatzyBox, points: int) -> None:
    assert yatzy_points(box, dice) == points
    assert Scorecard(rules=SCANDINAVIAN).options(dice)[box] == points


def test_the_worked_examples() -> None:
    """docs/rules.md Y-10 .. Y-13."""
    empty = Scorecard(rules=SCANDINAVIAN)
    y10 = empty.options((5, 5, 5, 2, 2))
    assert {box: y10[box] for box in YatzyBox if y10[box]} == {
        Y.TWOS: 4,
        Y.FIVES: 15,
        Y.ONE_PAIR: 10,
        Y.TWO_PAIRS: 14,
        Y.THREE_OF_A_KIND: 15,
        Y.FULL_HOUSE: 19,
        Y.CHANCE: 19,
    }
    y11 = empty.options((4, 4, 4, 4, 1))
    assert [y11[b] for b in (Y.TWO_PAIRS, Y.FOUR_OF_A_KIND, Y.THREE_OF_A_KIND, Y.ONE_PAIR)] == [
        0,
        16,
        12,
        8,
    ]
    sixes = empty.options((6, 6, 6, 6, 6))
    assert [sixes[b] for b in (Y.FULL_HOUSE, Y.TWO_PAIRS, Y.FOUR_OF_A_KIND)] == [0, 0, 24]
    small, large = empty.options((1, 2, 3, 4, 5)), empty.options((2, 3, 4, 5, 6))
    assert (small[Y.SMALL_STRAIGHT], small[Y.LARGE_STRAIGHT]) == (15, 0)
    assert (large[Y.LARGE_STRAIGHT], large[Y.SMALL_STRAIGHT]) == (20, 0)
    upper = {YatzyBox.upper(face): 3 * face for face in range(1, 7)}
    assert Scorecard.from_boxes(upper, rules=SCANDINAVIAN).upper_bonus == 50  # Y-13


def test_the_card_has_yatzys_fifteen_boxes() -> None:
    card = Scorecard(rules=SCANDINAVIAN)
    assert SCANDINAVIAN.boxes == tuple(YatzyBox)
    assert len(card.boxes) == 15
    assert card.open_boxes == tuple(YatzyBox)
    assert [box.name for box in YatzyBox][6:] == [
        "ONE_PAIR",
        "TWO_PAIRS",
        "THREE_OF_A_KIND",
        "FOUR_OF_A_KIND",
        "SMALL_STRAIGHT",
        "LARGE_STRAIGHT",
        "FULL_HOUSE",
        "CHANCE",
        "YATZY",
    ]
    # The Yams card is as it was: 13 boxes of Box.
    assert len(Scorecard().boxes) == 13
    assert Rules.STANDARD.boxes == tuple(Box)


def test_the_upper_bonus_is_50_at_63() -> None:
    upper = {YatzyBox.upper(face): 3 * face for face in range(1, 7)}
    card = Scorecard.from_boxes(upper, rules=SCANDINAVIAN)
    assert (card.upper_total, card.upper_bonus, card.total) == (63, 50, 113)
    short = Scorecard.from_boxes(upper | {Y.SIXES: 12}, rules=SCANDINAVIAN)
    assert (short.upper_total, short.upper_bonus) == (57, 0)


def test_a_second_yatzy_is_an_ordinary_throw() -> None:
    """No Joker and no Yatzy bonus: five sixes after a Yatzy of 50 score by the table."""
    card = Scorecard.from_boxes({Y.YATZY: 50, Y.SIXES: 18}, rules=SCANDINAVIAN)
    dice = (6, 6, 6, 6, 6)
    options = card.options(dice)
    assert (options[Y.FULL_HOUSE], options[Y.LARGE_STRAIGHT]) == (0, 0)
    assert (options[Y.FOUR_OF_A_KIND], options[Y.ONES]) == (24, 0)
    assert not card.earns_penta_bonus(dice)
    after = card.fill(Y.CHANCE, dice)
    assert (after.penta_bonus, after.total) == (0, 50 + 18 + 30)


def test_a_whole_card_adds_up() -> None:
    card = Scorecard(rules=SCANDINAVIAN)
    throws = [
        (Y.ONES, (1, 1, 1, 2, 3)),
        (Y.TWOS, (2, 2, 2, 5, 6)),
        (Y.THREES, (3, 3, 3, 1, 1)),
        (Y.FOURS, (4, 4, 4, 1, 1)),
        (Y.FIVES, (5, 5, 5, 1, 1)),
        (Y.SIXES, (6, 6, 6, 1, 1)),
        (Y.ONE_PAIR, (6, 6, 1, 2, 3)),
        (Y.TWO_PAIRS, (6, 6, 5, 5, 1)),
        (Y.THREE_OF_A_KIND, (6, 6, 6, 1, 2)),
        (Y.FOUR_OF_A_KIND, (6, 6, 6, 6, 2)),
        (Y.SMALL_STRAIGHT, (5, 4, 3, 2, 1)),
        (Y.LARGE_STRAIGHT, (6, 5, 4, 3, 2)),
        (Y.FULL_HOUSE, (6, 6, 6, 5, 5)),
        (Y.CHANCE, (6, 6, 6, 6, 5)),
        (Y.YATZY, (3, 3, 3, 3, 3)),
    ]
    for box, dice in throws:
        card = card.fill(box, dice)
    assert card.is_complete
    upper = 3 + 6 + 9 + 12 + 15 + 18
    lower = 12 + 22 + 18 + 24 + 15 + 20 + 28 + 29 + 50
    assert card.total == upper + 50 + lower


def test_the_two_cards_boxes_do_not_mix() -> None:
    yatzy, yams = Scorecard(rules=SCANDINAVIAN), Scorecard()
    with pytest.raises(IllegalMove, match="no box"):
        yatzy.fill(Box.PENTA, (1, 1, 1, 1, 1))
    with pytest.raises(IllegalMove, match="no box"):
        yams.fill(Y.YATZY, (1, 1, 1, 1, 1))
    with pytest.raises(KeyError):
        _ = yatzy[Box.ONES]
    with pytest.raises(ValueError, match="has no box"):
        Scorecard.from_boxes({Box.ONES: 1}, rules=SCANDINAVIAN)
    with pytest.raises(ValueError, match="15 boxes, not 13"):
        Scorecard((None,) * 13, rules=SCANDINAVIAN)


@pytest.mark.parametrize(
    ("box", "points"),
    [(Y.ONE_PAIR, 3), (Y.TWO_PAIRS, 4), (Y.FULL_HOUSE, 6), (Y.SMALL_STRAIGHT, 30), (Y.YATZY, 5)],
)
def test_a_card_holds_only_what_a_throw_scores(box: YatzyBox, points: int) -> None:
    with pytest.raises(ValueError, match="cannot hold"):
        Scorecard.from_boxes({box: points}, rules=SCANDINAVIAN)
