"""A game of Yams under each house rules (docs/rules.md, "House rules"): the card its
settings name, every round to the end, the record that keeps the name (and keeps none for
ours, so that a game stored before house rules reads back as it was)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zar.record import HOUSE_RULES, Record, house_rules, yams_rules
from zar.table import IllegalAction, Seat
from zar.yams import (
    HOUSE_RULES as YAMS_HOUSE_RULES,
)
from zar.yams import (
    Box,
    Fill,
    Rules,
    Throw,
    YamsSettings,
    YamsState,
    YatzyBox,
)

SEATS = (Seat("Ali"), Seat("Ece"))


def test_the_house_rules_are_ours_first_then_the_published_ones() -> None:
    assert HOUSE_RULES["yams"] == ("standard", "official", "free-joker", "scandinavian")
    assert tuple(rules.value for rules in YAMS_HOUSE_RULES) == HOUSE_RULES["yams"]
    assert Rules.NO_BONUS not in YAMS_HOUSE_RULES  # a solver's check, not a table's


@pytest.mark.parametrize("rules", YAMS_HOUSE_RULES)
def test_a_game_plays_a_round_a_box_of_its_card(rules: Rules) -> None:
    state = YamsState.start(YamsSettings(SEATS, rules))
    assert state.rounds == len(rules.boxes) == (15 if rules is Rules.SCANDINAVIAN else 13)
    for card in state.cards:
        assert card.rules is rules
        assert card.open_boxes == rules.boxes
    for round_ in range(1, state.rounds + 1):
        for seat in range(2):
            assert state.round == round_
            state = state.apply(Throw(seat, (), (2, 2, 3, 3, 3)))
            box = state.card.open_boxes[0]
            assert box in state.options
            state = state.apply(Fill(seat, box))
    assert state.is_over
    assert state.round == state.rounds


def test_a_box_of_the_other_card_is_refused() -> None:
    yatzy = YamsState.start(YamsSettings(SEATS, Rules.SCANDINAVIAN))
    yatzy = yatzy.apply(Throw(0, (), (1, 1, 2, 2, 5)))
    with pytest.raises(IllegalAction) as refused:
        yatzy.apply(Fill(0, Box.ONES))
    assert refused.value.reason == "no-such-box"
    assert yatzy.options[YatzyBox.TWO_PAIRS] == 6  # the pairs' dice only: 1+1+2+2
    ours = YamsState.start(YamsSettings(SEATS)).apply(Throw(0, (), (1, 1, 2, 2, 5)))
    with pytest.raises(IllegalAction):
        ours.apply(Fill(0, YatzyBox.ONES))


def test_official_forces_the_joker_after_a_penta_box_of_zero_where_ours_does_not() -> None:
    """Y-5 under ours: a Penta after a Penta box of 0 is an ordinary throw; Hasbro's forced
    Joker sends it to its upper box (Fours here), without the +100."""
    cards = {}
    for rules in (Rules.STANDARD, Rules.OFFICIAL):
        state = YamsState.start(YamsSettings((Seat("Ali"),), rules))
        state = state.apply(Throw(0, (), (1, 2, 3, 4, 6))).apply(Fill(0, Box.PENTA))
        cards[rules] = state.apply(Throw(0, (), (4, 4, 4, 4, 4)))
    assert Box.LARGE_STRAIGHT in cards[Rules.STANDARD].options
    assert cards[Rules.OFFICIAL].options == {Box.FOURS: 20}
    after = cards[Rules.OFFICIAL].apply(Fill(0, Box.FOURS))
    assert after.cards[0].penta_bonus == 0


def test_the_free_joker_writes_a_later_penta_anywhere() -> None:
    state = YamsState.start(YamsSettings((Seat("Ali"),), Rules.FREE_JOKER))
    state = state.apply(Throw(0, (), (4, 4, 4, 4, 4))).apply(Fill(0, Box.PENTA))
    state = state.apply(Throw(0, (), (4, 4, 4, 4, 4)))
    assert len(state.options) == 12  # every open box: the Joker forces none
    after = state.apply(Fill(0, Box.CHANCE))
    assert after.cards[0].penta_bonus == 100


def test_the_settings_refuse_what_is_not_rules() -> None:
    with pytest.raises(ValueError, match="Rules"):
        YamsSettings(SEATS, "scandinavian")  # type: ignore[arg-type]


# The record.


@pytest.mark.parametrize("name", HOUSE_RULES["yams"])
def test_a_record_keeps_the_name_of_house_rules_and_none_for_ours(name: str) -> None:
    record = Record.new("yams", SEATS, rules=name)
    kept = None if name == "standard" else name
    assert record.rules == kept
    assert record.state.settings.rules is yams_rules(kept) is Rules(name)
    written = record.to_json()
    assert ("rules" in written) == (kept is not None)
    assert Record.from_json(json.loads(json.dumps(written))) == record


def test_a_record_stored_before_house_rules_reads_back_byte_for_byte() -> None:
    """A game's JSON of before house rules (no ``rules``): the seeds' game, written again
    exactly as it was stored."""
    stored = {
        "kind": "yams",
        "seats": [{"name": "Ali", "computer": False, "level": None}],
        "target": None,
        "autofill": 3,
        "hints": [0],
        "log": [
            {"type": "throw", "seat": 0, "keep": [], "dice": [1, 1, 3, 4, 6]},
            {"type": "fill", "seat": 0, "box": "CHANCE"},
        ],
    }
    record = Record.from_json(stored)
    assert record.rules is None
    assert record.state.settings.rules is Rules.STANDARD
    assert json.dumps(record.to_json()) == json.dumps(stored)


def test_a_yatzy_log_names_the_boxes_of_its_card() -> None:
    record = Record.new("yams", (Seat("Ali"),), rules="scandinavian")
    record = record.append(Throw(0, (), (6, 6, 5, 5, 1)))
    record = record.append(Fill(0, YatzyBox.TWO_PAIRS))
    written = record.to_json()
    assert written["log"][-1] == {"type": "fill", "seat": 0, "box": "TWO_PAIRS"}
    again = Record.from_json(written)
    assert again.state.cards[0][YatzyBox.TWO_PAIRS] == 22
    # The same box name under our rules is no box of that card.
    with pytest.raises(ValueError, match="no box"):
        Record.from_json({**written, "rules": None})


@pytest.mark.parametrize(
    ("kind", "name"), [("yams", "yatzy"), ("yams", "seed"), ("10000", "standard"), ("yams", 3)]
)
def test_rules_a_game_has_not_are_refused_by_name(kind: str, name: object) -> None:
    with pytest.raises(IllegalAction) as refused:
        Record.new(kind, SEATS, rules=name)  # type: ignore[arg-type]
    assert refused.value.reason == "bad-rules"
    with pytest.raises(IllegalAction):
        house_rules(kind, name)  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(
    rules=st.sampled_from(YAMS_HOUSE_RULES),
    faces=st.lists(st.integers(1, 6), min_size=5 * 15 * 2, max_size=5 * 15 * 2),
    picks=st.lists(st.integers(0, 14), min_size=15 * 2, max_size=15 * 2),
)
def test_whole_games_end_and_add_up_under_every_house_rules(
    rules: Rules, faces: list[int], picks: list[int]
) -> None:
    """Random legal play: every game ends after a round a box, each total is the sum of its
    boxes and bonuses, and the record's replay gives the same state."""
    record = Record.new("yams", SEATS, rules=rules.value)
    dice = iter(faces)
    for pick in picks:
        if record.state.is_over:
            break
        state = record.state
        record = record.append(Throw(state.seat, (), tuple(next(dice) for _ in range(5))))
        options = list(record.state.options)
        record = record.append(Fill(state.seat, options[pick % len(options)]))
    state = record.state
    assert state.is_over
    for card in state.cards:
        assert card.total == sum(card.boxes) + card.upper_bonus + card.penta_bonus  # type: ignore[arg-type]
    assert Record.from_json(record.to_json()).state == state
