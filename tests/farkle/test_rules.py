"""The house rules of 10 000 as a value, and scoring under each (docs/rules.md, "House
rules of 10 000")."""

from collections import Counter
from dataclasses import FrozenInstanceError, replace
from fractions import Fraction
from itertools import combinations_with_replacement, product

import pytest

from zar.dice import outcomes
from zar.farkle import (
    IllegalSelection,
    farkle_probability,
    is_farkle,
    score,
    scoring_faces,
    selections,
)
from zar.farkle.rules import PRESETS, SEED, FarkleRules

# The options that change what dice score, each with every value it may take.
SCORING = {
    "three_pairs": (1_500, 500, 750),
    "straight": (2_500, 1_000, 1_500),
    "kinds": ("fixed", "doubling", "linear"),
    "four_and_pair": (True, False),
}
EVERY_SCORING_RULES = [
    FarkleRules(**dict(zip(SCORING, values, strict=True))) for values in product(*SCORING.values())
]


# The reference, from the words of docs/rules.md alone.
def reference_points(selection: tuple[int, ...], rules: FarkleRules) -> int | None:
    """The points of a sorted selection of one throw under ``rules``, None when refused."""
    groups = Counter(selection)
    total: int | None = 0
    for face, n in groups.items():
        three = 1_000 if face == 1 else 100 * face  # three 1s: 1 000; three of a kind: face x 100
        if n >= 4:  # four, five, six of a kind
            if rules.kinds == "fixed":
                worth = {4: 1_000, 5: 2_000, 6: 3_000}[n]
            elif rules.kinds == "doubling":
                worth = {4: 2 * three, 5: 4 * three, 6: 8 * three}[n]
            else:  # linear: n of a kind is (n - 2) times the three
                worth = {4: 2 * three, 5: 3 * three, 6: 4 * three}[n]
        elif n == 3:
            worth = three
        elif face == 1:
            worth = 100 * n
        elif face == 5:
            worth = 50 * n
        else:
            total = None  # a lone 2, 3, 4, 6 or a pair of them scores nothing
            break
        total += worth
    combos = []
    if len(selection) == 6:
        shape = sorted(groups.values())
        if shape == [1] * 6:
            combos.append(rules.straight)
        if shape == [2, 2, 2] or (shape == [2, 4] and rules.four_and_pair):
            combos.append(rules.three_pairs)
    if total is None and not combos:
        return None
    return max([*combos, *([] if total is None else [total])])


def sorted_throws(n: int) -> list[tuple[int, ...]]:
    return list(combinations_with_replacement(range(1, 7), n))


EVERY_THROW = [t for n in range(1, 7) for t in sorted_throws(n)]


def sub_selections(throw: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {
        tuple(sorted(throw[i] for i in range(len(throw)) if mask >> i & 1))
        for mask in range(1, 2 ** len(throw))
    }


@pytest.mark.parametrize("rules", EVERY_SCORING_RULES, ids=repr)
def test_every_selection_of_every_throw_scores_as_the_rules_say(rules: FarkleRules) -> None:
    """Every throw of 1 to 6 dice, every sub-selection: points, refusal, selections, farkle."""
    wrong = []
    for throw in EVERY_THROW:
        legal = {}
        for selection in sub_selections(throw):
            expected = reference_points(selection, rules)
            if expected is None:
                with pytest.raises(IllegalSelection):
                    score(selection, rules)
            else:
                legal[selection] = expected
                if score(selection, rules) != expected:
                    wrong.append((throw, selection, score(selection, rules), expected))
        if selections(throw, rules) != legal:
            wrong.append((throw, "selections"))
        if is_farkle(throw, rules) != (not legal):
            wrong.append((throw, "farkle"))
        if scoring_faces(throw, rules) != {f for s in legal for f in s}:
            wrong.append((throw, "scoring faces"))
    assert wrong == []


@pytest.mark.parametrize("rules", EVERY_SCORING_RULES, ids=repr)
def test_the_chance_of_a_lost_turn_is_counted_from_the_rules(rules: FarkleRules) -> None:
    for n in range(1, 7):
        lost = sum(
            (
                p
                for faces, p in outcomes(n)
                if not any(reference_points(s, rules) is not None for s in sub_selections(faces))
            ),
            Fraction(0),
        )
        assert farkle_probability(n, rules) == lost


@pytest.mark.parametrize(
    ("name", "selection", "points"),
    [
        ("seed", (1, 1, 1, 1), 1_000),  # F-10
        ("seed", (2, 2, 3, 3, 3, 3), 1_500),  # four of a kind and a pair: three pairs
        ("doubling", (1, 1, 1, 1), 2_000),
        ("doubling", (4, 4, 4, 4, 4, 4), 3_200),
        ("facebook", (4, 4, 4, 4, 4), 1_200),  # linear: 3 x 400
        ("facebook", (1, 1, 1, 1, 1, 1), 4_000),
        ("facebook", (2, 2, 3, 3, 3, 3), None),  # four and a pair are not three pairs there
        ("facebook", (1, 1, 3, 3, 3, 3), 800),  # 2 x 300 + 200
        ("facebook", (2, 2, 3, 3, 4, 4), 750),
        ("three-pairs-500", (1, 1, 5, 5, 6, 6), 500),
        ("three-pairs-500", (1, 1, 5, 5, 1, 5), 1_500),  # three 1s and three 5s score more
        ("straight-1000", (1, 2, 3, 4, 5, 6), 1_000),
        ("straight-1500", (6, 5, 4, 3, 2, 1), 1_500),
    ],
)
def test_known_answers_under_the_presets(
    name: str, selection: tuple[int, ...], points: int | None
) -> None:
    rules = PRESETS[name]
    if points is None:
        with pytest.raises(IllegalSelection):
            score(selection, rules)
    else:
        assert score(selection, rules) == points


def test_the_seed_is_the_default_everywhere() -> None:
    assert FarkleRules() == SEED == PRESETS["seed"] == FarkleRules.named("seed")
    assert score((5, 5, 5, 1)) == score((5, 5, 5, 1), SEED) == 600
    assert selections((1, 2, 3, 4, 6, 6)) == {(1,): 100}


def test_the_presets_in_order() -> None:
    assert list(PRESETS) == [
        "seed",
        "entry-500",
        "entry-750",
        "entry-1000",
        "bank-300",
        "bank-350",
        "bank-500",
        "three-lost-500",
        "three-lost-1000",
        "three-pairs-500",
        "three-pairs-750",
        "straight-1000",
        "straight-1500",
        "doubling",
        "facebook",
    ]
    assert len(set(PRESETS.values())) == len(PRESETS)
    assert all(rules.name == name for name, rules in PRESETS.items())


def test_facebook_is_busches_reading() -> None:
    """Busche 2016 (docs/rules.md): 300 to bank, first to 10 000 wins, three lost turns in a
    row cost 500, n of a kind (n - 2) times the three, three pairs 750, straight 1 500."""
    assert PRESETS["facebook"] == FarkleRules(
        entry=0,
        bank_minimum=300,
        three_lost=500,
        three_pairs=750,
        straight=1_500,
        kinds="linear",
        four_and_pair=False,
        last_round=False,
    )


def test_a_rules_value_reads_like_its_constructor_and_is_hashable() -> None:
    rules = FarkleRules(entry=750, kinds="doubling", last_round=False)
    assert eval(repr(rules), {"FarkleRules": FarkleRules}) == rules
    assert hash(rules) == hash(FarkleRules(**rules.as_dict()))
    assert rules.name is None
    with pytest.raises(FrozenInstanceError):
        rules.entry = 0  # type: ignore[misc]


def test_an_unknown_preset_names_the_choices() -> None:
    with pytest.raises(ValueError, match=r"seed, entry-500, .*facebook, not 'vegas'"):
        FarkleRules.named("vegas")


@pytest.mark.parametrize(
    "change",
    [
        {"entry": 400},
        {"bank_minimum": 250},
        {"three_lost": 300},
        {"three_pairs": 1_000},
        {"straight": 2_000},
        {"kinds": "tripling"},
        {"four_and_pair": 1},
        {"last_round": "no"},
        {"entry": 500.0},
    ],
)
def test_an_option_outside_its_values_is_refused(change: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="not"):
        replace(SEED, **change)


def test_the_bank_floor() -> None:
    rules = FarkleRules(entry=750, bank_minimum=300)
    assert (rules.bank_floor(0), rules.bank_floor(-500), rules.bank_floor(50)) == (750, 750, 300)
    assert SEED.bank_floor(0) == 0
