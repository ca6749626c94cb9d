"""The Yams scorecard: boxes, upper bonus, Penta bonus and Joker (docs/rules.md)."""

from collections import Counter
from itertools import combinations_with_replacement, product

import pytest

from zar.yams import LOWER, UPPER, Box, IllegalMove, Rules, Scorecard, box_points

FACES = range(1, 7)
UPPER_OF = dict(zip(FACES, UPPER, strict=True))
# The lower boxes besides the Penta: those the Joker's second case offers.
JOKER_LOWER = (
    Box.THREE_OF_A_KIND,
    Box.FOUR_OF_A_KIND,
    Box.FULL_HOUSE,
    Box.SMALL_STRAIGHT,
    Box.LARGE_STRAIGHT,
    Box.CHANCE,
)


# The reference, written from the rules table alone.
def points(box: Box, dice: tuple[int, ...]) -> int:
    """What ``box`` scores for this throw by the ordinary table (docs/rules.md)."""
    groups = Counter(dice)
    shape = sorted(groups.values())
    values = set(dice)
    total = sum(dice)
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * groups[face]  # sum of the dice showing that face
    small = any(set(range(low, low + 4)) <= values for low in (1, 2, 3))
    table = {
        Box.THREE_OF_A_KIND: total if shape[-1] >= 3 else 0,
        Box.FOUR_OF_A_KIND: total if shape[-1] >= 4 else 0,
        Box.FULL_HOUSE: 25 if shape == [2, 3] else 0,  # three equal and two *other* equal
        Box.SMALL_STRAIGHT: 30 if small else 0,
        Box.LARGE_STRAIGHT: 40 if values in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0,
        Box.CHANCE: total,
        Box.PENTA: 50 if shape == [5] else 0,
    }
    return table[box]


def joker_points(box: Box, dice: tuple[int, ...]) -> int:
    """A Penta written in a lower box as the Joker: Full 25, straights 30 and 40, others the sum."""
    fixed = {Box.FULL_HOUSE: 25, Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40}
    return fixed.get(box, sum(dice))


def parts(card: Scorecard) -> int:
    """docs/rules.md: total = upper + upper bonus + lower + Penta bonuses."""
    upper = sum(card[box] or 0 for box in UPPER)
    lower = sum(card[box] or 0 for box in LOWER)
    return upper + (35 if upper >= 63 else 0) + lower + card.penta_bonus


EVERY_THROW = list(product(FACES, repeat=5))
EVERY_MULTISET = list(combinations_with_replacement(FACES, 5))


def test_box_is_the_upper_section_then_the_lower() -> None:
    """docs/contract.md: the thirteen boxes, upper first (the names: test_exported_members.py)."""
    assert tuple(Box) == UPPER + LOWER
    assert [box.face for box in Box] == [1, 2, 3, 4, 5, 6] + [None] * 7
    assert [Box.upper(face) for face in FACES] == list(UPPER)


# Known answers: docs/rules.md Y-1 .. Y-6.


def test_y1_one_one_three_four_six_on_an_empty_card() -> None:
    """Y-1: Full and Large straight score 0; every box is open, zeros included (sacrifice)."""
    assert Scorecard().options((1, 1, 3, 4, 6)) == {
        Box.ONES: 2,
        Box.TWOS: 0,
        Box.THREES: 3,
        Box.FOURS: 4,
        Box.FIVES: 0,
        Box.SIXES: 6,
        Box.THREE_OF_A_KIND: 0,
        Box.FOUR_OF_A_KIND: 0,
        Box.FULL_HOUSE: 0,
        Box.SMALL_STRAIGHT: 0,
        Box.LARGE_STRAIGHT: 0,
        Box.CHANCE: 15,
        Box.PENTA: 0,
    }


def test_y1_a_sacrifice_spends_the_box() -> None:
    """docs/rules.md: any empty box may take any throw; where it does not fit it scores 0."""
    card = Scorecard().fill(Box.FULL_HOUSE, (1, 1, 3, 4, 6))
    assert card[Box.FULL_HOUSE] == 0
    assert Box.FULL_HOUSE not in card.open_boxes
    assert Box.FULL_HOUSE not in card.options((2, 2, 3, 3, 3))


FOURS = (4, 4, 4, 4, 4)
PENTA_50 = Scorecard.from_boxes({Box.PENTA: 50})


def test_y2_the_joker_forces_the_upper_box_of_the_face() -> None:
    """Y-2: Penta box 50, Fours empty, 4,4,4,4,4: only Fours is allowed, 20 + 100."""
    assert PENTA_50.options(FOURS) == {Box.FOURS: 20}
    card = PENTA_50.fill(Box.FOURS, FOURS)
    assert (card[Box.FOURS], card.penta_bonus, card.total) == (20, 100, 170)
    for box in PENTA_50.open_boxes:
        if box is not Box.FOURS:
            with pytest.raises(IllegalMove) as err:
                PENTA_50.fill(box, FOURS)
            assert err.value.reason == "joker-forced"
            assert "FOURS" in str(err.value)


def test_y3_the_joker_in_the_lower_boxes() -> None:
    """Y-3: Penta 50, Fours filled, lower boxes open: 25, 30, 40, 20, 20, 20, each + 100."""
    card = Scorecard.from_boxes({Box.PENTA: 50, Box.FOURS: 12})
    expected = {
        Box.FULL_HOUSE: 25,
        Box.SMALL_STRAIGHT: 30,
        Box.LARGE_STRAIGHT: 40,
        Box.THREE_OF_A_KIND: 20,
        Box.FOUR_OF_A_KIND: 20,
        Box.CHANCE: 20,
    }
    assert card.options(FOURS) == expected
    for box, value in expected.items():
        after = card.fill(box, FOURS)
        assert (after[box], after.penta_bonus, after.total) == (value, 100, 62 + value + 100)
    with pytest.raises(IllegalMove) as err:
        card.fill(Box.ONES, FOURS)
    assert err.value.reason == "joker-lower-first"


def test_y4_with_every_lower_box_filled_an_upper_box_takes_zero_and_the_bonus_stays() -> None:
    """Y-4: Penta 50, Fours filled, all lower filled, Ones empty: Ones takes 0, +100 stays."""
    lower = {Box.THREE_OF_A_KIND: 0, Box.FOUR_OF_A_KIND: 0, Box.FULL_HOUSE: 25}
    lower |= {Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.CHANCE: 20, Box.PENTA: 50}
    card = Scorecard.from_boxes({**lower, Box.FOURS: 16})
    assert card.options(FOURS) == {box: 0 for box in UPPER if box is not Box.FOURS}
    after = card.fill(Box.ONES, FOURS)
    assert (after[Box.ONES], after.penta_bonus) == (0, 100)
    assert after.total == card.total + 100


def test_y5_a_penta_box_holding_zero_makes_a_penta_an_ordinary_throw() -> None:
    """Y-5: Penta 0, 4,4,4,4,4: no +100, no Joker, Large straight 0 (and Full 0)."""
    card = Scorecard.from_boxes({Box.PENTA: 0})
    options = card.options(FOURS)
    assert options == {box: points(box, FOURS) for box in Box if box is not Box.PENTA}
    assert (options[Box.LARGE_STRAIGHT], options[Box.FULL_HOUSE]) == (0, 0)
    after = card.fill(Box.LARGE_STRAIGHT, FOURS)
    assert (after[Box.LARGE_STRAIGHT], after.penta_bonus, after.total) == (0, 0, 0)
    assert card.fill(Box.CHANCE, FOURS).total == 20


def test_y6_three_of_each_face_earns_the_upper_bonus() -> None:
    """Y-6: 3 + 6 + 9 + 12 + 15 + 18 = 63: bonus 35 (docs/rules.md: three of each face)."""
    card = Scorecard()
    for face, box in UPPER_OF.items():
        assert card.upper_bonus == 0
        others = [other for other in FACES if other != face][:2]
        card = card.fill(box, (face, face, face, *others))
    assert [card[box] for box in UPPER] == [3, 6, 9, 12, 15, 18]
    assert card.upper_bonus == 35
    assert card.total == 63 + 35


def test_the_upper_bonus_needs_63() -> None:
    """docs/rules.md: +35 when Ones..Sixes add up to 63 or more; 62 is not enough."""
    under = Scorecard.from_boxes(dict(zip(UPPER, [2, 6, 9, 12, 15, 18], strict=True)))
    assert (under.upper_bonus, under.total) == (0, 62)
    over = Scorecard.from_boxes(dict(zip(UPPER, [0, 0, 12, 16, 25, 30], strict=True)))
    assert (over.upper_bonus, over.total) == (35, 83 + 35)


def test_the_penta_box_is_fifty_for_five_equal_dice() -> None:
    """docs/rules.md: Penta, five equal dice: 50."""
    for face in FACES:
        card = Scorecard().fill(Box.PENTA, (face,) * 5)
        assert (card.penta, card.total, card.penta_bonus) == (50, 50, 0)


def test_the_penta_bonus_comes_with_every_further_penta() -> None:
    """docs/rules.md: when the Penta box already holds 50, every further Penta earns +100."""
    card = Scorecard().fill(Box.PENTA, (6,) * 5)
    card = card.fill(Box.SIXES, (6,) * 5)  # forced: 30 + 100
    card = card.fill(Box.LARGE_STRAIGHT, (6,) * 5)  # Joker: 40 + 100
    card = card.fill(Box.TWOS, (2,) * 5)  # forced: 10 + 100
    assert card.penta_bonus == 300
    assert card.total == 50 + 30 + 40 + 10 + 300
    assert card.total == parts(card)


def test_a_penta_written_elsewhere_before_the_penta_box_earns_no_bonus() -> None:
    """docs/rules.md: while the Penta box is empty, a Penta is an ordinary throw."""
    card = Scorecard().fill(Box.FIVES, (5,) * 5)
    assert (card[Box.FIVES], card.penta_bonus) == (25, 0)
    card = card.fill(Box.PENTA, (5,) * 5)
    assert (card.penta, card.penta_bonus, card.total) == (50, 0, 75)


def test_a_complete_card() -> None:
    """is_complete once all 13 boxes are filled; a full card takes nothing more."""
    card = Scorecard()
    assert not card.is_complete
    for box in Box:
        card = card.fill(box, (1, 2, 3, 4, 5))
        assert card.total == parts(card)
    assert card.is_complete
    assert card.open_boxes == ()
    assert card.total == 1 + 2 + 3 + 4 + 5 + 30 + 40 + 15
    with pytest.raises(IllegalMove) as err:
        card.fill(Box.CHANCE, (1, 2, 3, 4, 5))
    assert err.value.reason == "box-filled"


# Exhaustive: every five-dice throw against every box.


def test_every_throw_on_an_empty_card_offers_every_box_at_its_points() -> None:
    """All 7 776 ordered throws, all 13 boxes, by the reference."""
    card = Scorecard()
    wrong = [
        dice
        for dice in EVERY_THROW
        if card.options(dice) != {box: points(box, dice) for box in Box}
    ]
    assert wrong == []


def test_box_points_agrees_with_the_table_for_every_throw() -> None:
    """box_points, the ordinary table, for all 7 776 throws and 13 boxes."""
    wrong = [
        (box, dice)
        for dice in EVERY_THROW
        for box in Box
        if box_points(box, dice) != points(box, dice)
    ]
    assert wrong == []


def test_every_throw_written_in_every_box_of_an_empty_card() -> None:
    """fill writes the reference points and the total follows (252 throws × 13 boxes)."""
    for dice in EVERY_MULTISET:
        for box in Box:
            card = Scorecard().fill(box, dice)
            assert card[box] == points(box, dice)
            assert card.open_boxes == tuple(b for b in Box if b is not box)
            assert (card.total, card.penta_bonus) == (points(box, dice), 0)


def test_every_throw_other_than_a_penta_is_ordinary_when_the_penta_box_holds_fifty() -> None:
    """The Joker and the +100 are for a Penta only."""
    for dice in EVERY_MULTISET:
        if len(set(dice)) == 1:
            continue
        expected = {box: points(box, dice) for box in Box if box is not Box.PENTA}
        assert PENTA_50.options(dice) == expected
        assert PENTA_50.fill(Box.CHANCE, dice).penta_bonus == 0


# Every Joker situation: each Penta × Penta box empty/0/50 × face box open/filled
# × lower boxes open/some filled/all filled, under each of the Rules.

PENTA_BOX = {"empty": None, "zero": 0, "fifty": 50}
YAMS_RULES = [rules for rules in Rules if rules.box_type is Box]  # the cards with a Penta box
LOWER_FILLED = {
    "open": {},
    "some": {Box.THREE_OF_A_KIND: 0, Box.SMALL_STRAIGHT: 30, Box.CHANCE: 21},
    "all": {
        Box.THREE_OF_A_KIND: 0,
        Box.FOUR_OF_A_KIND: 0,
        Box.FULL_HOUSE: 25,
        Box.SMALL_STRAIGHT: 30,
        Box.LARGE_STRAIGHT: 0,
        Box.CHANCE: 21,
    },
}
SITUATIONS = [
    pytest.param(face, penta, face_open, lower, id=f"{face}s-penta-{penta}-face-{fo}-lower-{lower}")
    for face in FACES
    for penta in PENTA_BOX
    for face_open, fo in ((True, "open"), (False, "filled"))
    for lower in LOWER_FILLED
]


def situation(face: int, penta: str, face_open: bool, lower: str, rules: Rules) -> Scorecard:
    filled: dict[Box, int] = dict(LOWER_FILLED[lower])
    if PENTA_BOX[penta] is not None:
        filled[Box.PENTA] = PENTA_BOX[penta]
    if not face_open:
        filled[UPPER_OF[face]] = 3 * face
    return Scorecard.from_boxes(filled, rules=rules)


def expected_options(card: Scorecard, dice: tuple[int, ...]) -> tuple[dict[Box, int], int]:
    """(the allowed boxes with their points, the bonus) by docs/rules.md and docs/contract.md."""
    face = dice[0]
    open_boxes = [box for box in Box if card[box] is None]
    ordinary = {box: points(box, dice) for box in open_boxes}
    if card.rules is Rules.NO_BONUS or card.penta is None:
        return ordinary, 0  # no-bonus: no +100, no Joker; an empty Penta box: ordinary
    bonus = 100 if card.penta == 50 else 0
    if card.rules is Rules.FREE_JOKER:
        # Any open box; Full and the straights as the Joker when the face's upper box is filled.
        if card[UPPER_OF[face]] is None:
            return ordinary, bonus
        straights = (Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT)
        return {
            b: joker_points(b, dice) if b in straights else p for b, p in ordinary.items()
        }, bonus
    if card.penta == 0 and card.rules is Rules.STANDARD:
        return ordinary, 0  # Y-5
    # The forced Joker: ours while the Penta box holds 50, official's (Y-7) whether it
    # holds 50 or 0 (with the +100 only when 50).
    if card[UPPER_OF[face]] is None:
        return {UPPER_OF[face]: 5 * face}, bonus  # Joker 1 (Y-2)
    lower = [box for box in JOKER_LOWER if card[box] is None]
    if lower:
        return {box: joker_points(box, dice) for box in lower}, bonus  # Joker 2 (Y-3)
    return dict.fromkeys(open_boxes, 0), bonus  # Joker 3 (Y-4): only upper boxes are open


@pytest.mark.parametrize("rules", YAMS_RULES, ids=[rules.value for rules in YAMS_RULES])
@pytest.mark.parametrize(("face", "penta", "face_open", "lower"), SITUATIONS)
def test_every_joker_situation(
    face: int, penta: str, face_open: bool, lower: str, rules: Rules
) -> None:
    """options and fill for a Penta: the Joker, the forced box, the +100 (docs/rules.md)."""
    card = situation(face, penta, face_open, lower, rules)
    dice = (face,) * 5
    allowed, bonus = expected_options(card, dice)
    assert allowed, "some box is always open in these situations"
    assert card.options(dice) == allowed
    assert card.earns_penta_bonus(dice) == (bonus == 100)
    for box in Box:
        if box in allowed:
            after = card.fill(box, dice)
            assert after[box] == allowed[box]
            assert after.penta_bonus == card.penta_bonus + bonus
            assert after.total == parts(after) == parts(card) + allowed[box] + bonus
            assert after.rules is rules
        else:
            with pytest.raises(IllegalMove) as err:
                card.fill(box, dice)
            assert isinstance(err.value, ValueError)
            assert box.name in str(err.value) or err.value.reason == "joker-forced"
            assert err.value.reason in {"box-filled", "joker-forced", "joker-lower-first"}


def test_the_standard_joker_forces_a_single_box_only_when_the_face_box_is_open() -> None:
    """docs/contract.md: a forced box is the only key of options."""
    for face in FACES:
        dice = (face,) * 5
        assert list(PENTA_50.options(dice)) == [UPPER_OF[face]]
        opened = Scorecard.from_boxes({Box.PENTA: 50, UPPER_OF[face]: 0})
        assert len(opened.options(dice)) == len(JOKER_LOWER)


def test_rules_variants_are_named_as_in_engine_api() -> None:
    """docs/contract.md: the variants standard, official, free-joker and no-bonus."""
    assert Rules("standard") is Rules.STANDARD
    assert Rules("official") is Rules.OFFICIAL
    assert Rules("free-joker") is Rules.FREE_JOKER
    assert Rules("no-bonus") is Rules.NO_BONUS
    assert Scorecard().rules is Rules.STANDARD


def test_free_joker_takes_a_penta_anywhere_once_the_penta_box_is_filled() -> None:
    """docs/contract.md, free-joker: Full 25 and straights as the Joker, the face box filled."""
    card = Scorecard.from_boxes({Box.PENTA: 0, Box.FOURS: 8}, rules=Rules.FREE_JOKER)
    options = card.options(FOURS)
    assert set(options) == set(card.open_boxes)
    assert options[Box.FULL_HOUSE] == 25
    assert options[Box.LARGE_STRAIGHT] == 40
    assert card.fill(Box.ONES, FOURS).penta_bonus == 0  # the Penta box holds 0: no +100


OFFICIAL_ZERO = Scorecard.from_boxes({Box.PENTA: 0}, rules=Rules.OFFICIAL)


def test_y7_official_the_joker_forces_the_upper_box_when_the_penta_box_holds_zero() -> None:
    """Y-7: official, Penta box 0, Fours empty, 4,4,4,4,4: only Fours, 20 and no +100."""
    assert OFFICIAL_ZERO.options(FOURS) == {Box.FOURS: 20}
    assert not OFFICIAL_ZERO.earns_penta_bonus(FOURS)
    after = OFFICIAL_ZERO.fill(Box.FOURS, FOURS)
    assert (after[Box.FOURS], after.penta_bonus, after.total) == (20, 0, 20)
    with pytest.raises(IllegalMove) as err:
        OFFICIAL_ZERO.fill(Box.LARGE_STRAIGHT, FOURS)
    assert err.value.reason == "joker-forced"


def test_y8_official_the_joker_in_the_lower_boxes_when_the_penta_box_holds_zero() -> None:
    """Y-8: official, Penta box 0, Fours filled: Full 25, Small 30, Large 40, no +100."""
    card = Scorecard.from_boxes({Box.PENTA: 0, Box.FOURS: 12}, rules=Rules.OFFICIAL)
    assert card.options(FOURS) == {box: joker_points(box, FOURS) for box in JOKER_LOWER}
    after = card.fill(Box.LARGE_STRAIGHT, FOURS)
    assert (after[Box.LARGE_STRAIGHT], after.penta_bonus, after.total) == (40, 0, 52)
    with pytest.raises(IllegalMove) as err:
        card.fill(Box.ONES, FOURS)
    assert err.value.reason == "joker-lower-first"
    # The same card under our rules: Y-5, an ordinary throw anywhere, the straight 0.
    ours = Scorecard.from_boxes({Box.PENTA: 0, Box.FOURS: 12})
    assert ours.options(FOURS)[Box.LARGE_STRAIGHT] == 0
    assert Box.ONES in ours.options(FOURS)


def test_y9_official_with_every_lower_box_filled_an_upper_box_takes_zero() -> None:
    """Y-9: official, Penta box 0, Fours and every lower box filled: any open upper box, 0
    (as under ours: no open box counts fours)."""
    lower = {box: 5 if box is Box.CHANCE else 0 for box in LOWER}
    card = Scorecard.from_boxes({**lower, Box.FOURS: 16}, rules=Rules.OFFICIAL)
    assert card.options(FOURS) == {box: 0 for box in UPPER if box is not Box.FOURS}
    assert card.fill(Box.SIXES, FOURS).total == card.total
    assert Scorecard.from_boxes({**lower, Box.FOURS: 16}).options(FOURS) == card.options(FOURS)


def test_official_with_fifty_in_the_penta_box_plays_as_ours() -> None:
    """docs/rules.md: official and ours differ only when the Penta box holds 0."""
    for penta in (None, 50):
        filled = {} if penta is None else {Box.PENTA: penta}
        ours = Scorecard.from_boxes(filled)
        official = Scorecard.from_boxes(filled, rules=Rules.OFFICIAL)
        for dice in EVERY_MULTISET:
            assert official.options(dice) == ours.options(dice), (penta, dice)
            assert official.earns_penta_bonus(dice) == ours.earns_penta_bonus(dice)


# Every throw in every situation, under each of the Rules: the Penta box empty, 0 or 50;
# no upper box, one, all but one or all filled; the lower boxes open, some or all filled.

UPPER_FILLED = [(), *((box,) for box in UPPER), *(tuple(set(UPPER) - {b}) for b in UPPER)]
UPPER_FILLED.append(UPPER)


@pytest.mark.parametrize("rules", YAMS_RULES, ids=[rules.value for rules in YAMS_RULES])
def test_every_throw_in_every_situation(rules: Rules) -> None:
    """All 252 throws × 3 Penta boxes × 14 upper fillings × 3 lower ones, by the reference."""
    wrong = []
    for penta in PENTA_BOX.values():
        for upper in UPPER_FILLED:
            for lower in LOWER_FILLED.values():
                filled = dict(lower) | dict.fromkeys(upper, 0)
                if penta is not None:
                    filled[Box.PENTA] = penta
                if len(filled) == 13:
                    continue
                card = Scorecard.from_boxes(filled, rules=rules)
                for dice in EVERY_MULTISET:
                    if len(set(dice)) == 1:
                        expected, bonus = expected_options(card, dice)
                    else:
                        expected = {box: points(box, dice) for box in card.open_boxes}
                        bonus = 0
                    if card.options(dice) != expected or card.earns_penta_bonus(dice) != (
                        bonus == 100
                    ):
                        wrong.append((filled, dice))
    assert wrong == []


@pytest.mark.parametrize("rules", YAMS_RULES, ids=[rules.value for rules in YAMS_RULES])
def test_every_ordered_throw_on_an_empty_card_under_each_rules(rules: Rules) -> None:
    """All 7 776 ordered throws: an empty card is the ordinary table, whatever the Rules."""
    card = Scorecard(rules=rules)
    assert [d for d in EVERY_THROW if card.options(d) != {b: points(b, d) for b in Box}] == []


def test_no_bonus_never_adds_a_hundred() -> None:
    """docs/contract.md no-bonus: no +100 and no Joker at all."""
    card = Scorecard.from_boxes({Box.PENTA: 50}, rules=Rules.NO_BONUS)
    assert card.options(FOURS)[Box.FULL_HOUSE] == 0
    assert card.fill(Box.CHANCE, FOURS).penta_bonus == 0


# A card is a value: immutable, hashable, equal when equal, and never impossible.


def test_a_scorecard_is_hashable_and_equal_when_equal() -> None:
    """docs/contract.md: an immutable value, hashable, equal when equal."""
    first = Scorecard().fill(Box.CHANCE, (1, 2, 3, 4, 5)).fill(Box.ONES, (1, 1, 2, 3, 4))
    second = Scorecard().fill(Box.ONES, (1, 1, 5, 3, 4)).fill(Box.CHANCE, (5, 4, 3, 2, 1))
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second, Scorecard()}) == 2
    assert first != Scorecard()
    assert Scorecard() != Scorecard(rules=Rules.NO_BONUS)
    assert first == Scorecard.from_boxes({Box.ONES: 2, Box.CHANCE: 15})


def test_fill_returns_a_new_card() -> None:
    """docs/contract.md: fill returns the card after; the card itself does not change."""
    card = Scorecard()
    card.fill(Box.CHANCE, (1, 2, 3, 4, 5))
    assert card == Scorecard()
    assert card[Box.CHANCE] is None


@pytest.mark.parametrize(
    ("boxes", "penta_bonus"),
    [
        pytest.param((None,) * 12, 0, id="twelve-boxes"),
        pytest.param((None,) * 14, 0, id="fourteen-boxes"),
        pytest.param({Box.ONES: 6}, 0, id="six-in-ones"),
        pytest.param({Box.TWOS: 3}, 0, id="odd-in-twos"),
        pytest.param({Box.SIXES: 36}, 0, id="thirty-six-in-sixes"),
        pytest.param({Box.ONES: -1}, 0, id="negative"),
        pytest.param({Box.ONES: True}, 0, id="bool"),
        pytest.param({Box.CHANCE: 2.0}, 0, id="float"),
        pytest.param({Box.CHANCE: 4}, 0, id="chance-under-five"),
        pytest.param({Box.CHANCE: 31}, 0, id="chance-over-thirty"),
        pytest.param({Box.THREE_OF_A_KIND: 3}, 0, id="three-of-a-kind-3"),
        pytest.param({Box.FULL_HOUSE: 20}, 0, id="full-20"),
        pytest.param({Box.SMALL_STRAIGHT: 40}, 0, id="small-straight-40"),
        pytest.param({Box.LARGE_STRAIGHT: 30}, 0, id="large-straight-30"),
        pytest.param({Box.PENTA: 100}, 0, id="penta-100"),
        pytest.param({Box.PENTA: 50, Box.ONES: 5}, -100, id="negative-bonus"),
        pytest.param({Box.PENTA: 50, Box.ONES: 5}, 50, id="bonus-not-hundreds"),
        pytest.param({Box.PENTA: 0, Box.ONES: 5}, 100, id="bonus-with-penta-zero"),
        pytest.param({Box.ONES: 5}, 100, id="bonus-with-penta-empty"),
        pytest.param({Box.PENTA: 50}, 100, id="bonus-with-nothing-else-filled"),
        pytest.param({Box.PENTA: 50, Box.ONES: 5}, 200, id="more-bonus-than-boxes"),
    ],
)
def test_an_impossible_card_is_refused(
    boxes: dict[Box, object] | tuple[None, ...], penta_bonus: int
) -> None:
    """A card holds only what its boxes can score, and Penta bonuses it could have earned."""
    if isinstance(boxes, dict):
        boxes = tuple(boxes.get(box) for box in Box)
    with pytest.raises(ValueError, match=r"\S"):
        Scorecard(boxes, penta_bonus)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", ["standard", "official", "no-bonus", "free-joker", None])
def test_a_card_whose_rules_are_not_rules_is_refused(rules: object) -> None:
    """A card plays by one of the Rules; "no-bonus" as a string would play the standard
    Joker and +100 without a word."""
    with pytest.raises(ValueError, match=r"\S"):
        Scorecard(rules=rules)  # type: ignore[arg-type]


def test_a_possible_card_with_penta_bonuses_is_accepted() -> None:
    """Two +100s after a Penta box of 50 and two boxes filled."""
    card = Scorecard.from_boxes({Box.PENTA: 50, Box.ONES: 5, Box.CHANCE: 5}, penta_bonus=200)
    assert card.total == 50 + 5 + 5 + 200


@pytest.mark.parametrize("dice", [(1, 2, 3, 4), (1, 2, 3, 4, 5, 6), (0, 1, 2, 3, 4), (7,) * 5])
def test_a_throw_that_is_not_five_dice_is_a_value_error(dice: tuple[int, ...]) -> None:
    """docs/contract.md: anything but five ints 1..6 is a ValueError."""
    with pytest.raises(ValueError, match=r"\S"):
        Scorecard().options(dice)
    with pytest.raises(ValueError, match=r"\S"):
        Scorecard().fill(Box.CHANCE, dice)


def test_a_box_that_is_not_a_box_is_an_illegal_move() -> None:
    """fill takes a Box; anything else is refused."""
    with pytest.raises(IllegalMove) as err:
        Scorecard().fill("CHANCE", (1, 2, 3, 4, 5))  # type: ignore[arg-type]
    assert err.value.reason == "no-such-box"
