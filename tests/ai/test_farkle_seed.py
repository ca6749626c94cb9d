"""The original app's 10 000 player, its threshold (docs/rules.md, 10 000; F-10, F-12)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zar.ai.farkle_seed import ThresholdPlayer
from zar.ai.turns import play_turn
from zar.dice import SeededDice
from zar.farkle import (
    DICE,
    PRESETS,
    TARGETS,
    FarkleSettings,
    FarkleState,
    Phase,
    SetAside,
    Throw,
    score,
)
from zar.table import Seat

SEED = ThresholdPlayer()


def table(*totals: int, target: int = 10_000, seat: int = 0) -> FarkleState:
    """A game with these banked totals, ``seat`` to play, no throw made yet."""
    seats = tuple(Seat(f"IA {i + 1}", computer=True) for i in range(len(totals)))
    start = FarkleState.start(FarkleSettings(seats, target))
    return replace(start, totals=totals, seat=seat, turns=(0,) * len(totals))


def holding(state: FarkleState, turn_points: int, dice_left: int) -> FarkleState:
    """``state`` after dice were set aside: ``turn_points`` in the turn, ``dice_left`` to throw."""
    aside = (True,) * (DICE - dice_left) + (False,) * dice_left
    tray = (1,) * (DICE - dice_left) + (2,) * dice_left
    return replace(state, turn_points=turn_points, aside=aside, tray=tray, throws=1)


# The threshold: 300, +50 per full 1 000 behind (at most +500), -100 with 2 dice, -150 with 1.


@pytest.mark.parametrize(
    ("behind", "dice_left", "threshold"),
    [
        (0, 6, 300),
        (0, 3, 300),
        (0, 2, 200),
        (0, 1, 150),
        (-2_000, 6, 300),  # leading is not being behind
        (999, 6, 300),
        (1_000, 6, 350),
        (2_999, 5, 400),
        (4_000, 2, 400),
        (10_000, 6, 800),
        (25_000, 6, 800),
        (10_000, 1, 650),
    ],
)
def test_threshold_values(behind: int, dice_left: int, threshold: int) -> None:
    assert SEED.threshold(behind, dice_left) == threshold


players = st.builds(
    ThresholdPlayer,
    base=st.integers(0, 1_000),
    step=st.integers(0, 200),
    per=st.integers(1, 2_000),
    cap=st.integers(0, 2_000),
    two_dice_cut=st.integers(0, 150),
    one_die_cut=st.integers(150, 300),
)


@given(players, st.integers(0, 30_000), st.integers(0, 30_000), st.integers(1, DICE))
def test_threshold_rises_as_the_bot_trails_more(
    player: ThresholdPlayer, behind: int, more: int, dice_left: int
) -> None:
    assert player.threshold(behind, dice_left) <= player.threshold(behind + more, dice_left)


@given(players, st.integers(0, 30_000), st.integers(1, DICE), st.integers(1, DICE))
def test_threshold_falls_as_fewer_dice_are_left(
    player: ThresholdPlayer, behind: int, fewer: int, more: int
) -> None:
    fewer, more = sorted((fewer, more))
    assert player.threshold(behind, fewer) <= player.threshold(behind, more)


def test_constructor_varies_the_threshold() -> None:
    player = ThresholdPlayer(base=500, step=100, per=500, cap=300, two_dice_cut=50, one_die_cut=50)
    behind = (0, 499, 500, 1_000, 5_000)
    assert [player.threshold(b, 6) for b in behind] == [500, 500, 600, 700, 800]
    assert player.threshold(0, 2) == player.threshold(0, 1) == 450


@pytest.mark.parametrize(
    "kwargs",
    [{"one_die_cut": 50}, {"step": -1}, {"per": 0}, {"dice_worth": (1, 2, 3)}],
)
def test_constructor_refuses_nonsense(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"threshold|worth"):
        ThresholdPlayer(**kwargs)  # type: ignore[arg-type]


def test_threshold_refuses_impossible_dice() -> None:
    with pytest.raises(ValueError, match="1 to 6 dice"):
        SEED.threshold(0, 0)


# Banking.


@pytest.mark.parametrize(
    ("turn_points", "dice_left", "banks"),
    [(250, 6, False), (300, 6, True), (250, 3, False), (200, 2, True), (150, 1, True)],
)
def test_banks_at_the_threshold(turn_points: int, dice_left: int, banks: bool) -> None:
    state = holding(table(2_000, 2_500), turn_points, dice_left)
    assert SEED.banks(state) is banks


def test_banks_later_when_far_behind() -> None:
    # 3 000 behind: the threshold is 300 + 150.
    assert not SEED.banks(holding(table(1_000, 4_000), 400, 6))
    assert SEED.banks(holding(table(1_000, 4_000), 450, 6))


def test_banks_at_the_target_with_a_clear_lead() -> None:
    # 9 800 + 200 reaches the target 2 000 ahead: the game is as good as won.
    assert SEED.banks(holding(table(9_800, 7_800), 200, 6))
    # 500 ahead only: it goes on to the threshold, the others would have a turn each.
    assert not SEED.banks(holding(table(9_800, 9_500), 200, 6))
    # Alone at the table, reaching the target ends the game.
    assert SEED.banks(holding(table(9_950), 50, 6))


def last_round(totals: tuple[int, ...], seat: int, by: int) -> FarkleState:
    return replace(table(*totals, seat=seat), last_round_by=by)


def test_last_round_throws_until_it_beats_the_leader() -> None:
    state = last_round((10_200, 9_000), seat=1, by=0)
    assert not SEED.banks(holding(state, 1_000, 1))  # 10 000: still behind, even with one die
    assert not SEED.banks(holding(state, 1_150, 2))
    assert SEED.banks(holding(state, 1_250, 6))  # 10 250 beats 10 200, though 6 dice are left


def test_last_round_tie_banks_only_when_a_throw_fails_more_often_than_not() -> None:
    state = last_round((10_200, 9_000), seat=1, by=0)
    assert SEED.banks(holding(state, 1_200, 1))  # one die: fails 2/3 of the time
    assert not SEED.banks(holding(state, 1_200, 2))  # two dice: fail 4/9 of the time


@settings(max_examples=300)
@given(
    st.lists(st.integers(0, 300).map(lambda n: n * 50), min_size=2, max_size=4),
    st.data(),
    st.integers(1, 200).map(lambda n: n * 50),
    st.integers(1, DICE),
)
def test_last_round_never_banks_below_the_leader(
    totals: list[int], data: st.DataObject, turn_points: int, dice_left: int
) -> None:
    by = data.draw(st.integers(0, len(totals) - 1), label="by")
    seat = data.draw(st.integers(0, len(totals) - 1).filter(lambda s: s != by), label="seat")
    totals[by] = max(totals[by], 10_000)
    state = holding(last_round(tuple(totals), seat, by), turn_points, dice_left)
    leader = max(t for s, t in enumerate(totals) if s != seat)
    total = totals[seat] + turn_points
    if total > leader:
        assert SEED.banks(state)
    elif total < leader:
        assert not SEED.banks(state)


def test_banks_refuses_before_anything_is_set_aside() -> None:
    with pytest.raises(ValueError, match="after setting dice aside"):
        SEED.banks(table(0, 0))


# Choosing the dice.


def thrown(state: FarkleState, dice: tuple[int, ...]) -> FarkleState:
    after = state.apply(Throw(state.seat, dice))
    assert after.phase is Phase.SET_ASIDE
    return after


@pytest.mark.parametrize("player", [SEED, ThresholdPlayer(base=5_000)], ids=["banks", "goes-on"])
def test_f10_keeps_three_ones_not_four(player: ThresholdPlayer) -> None:
    # docs/rules.md F-10: three 1s make 1 000 as four do, and leave a die more to throw.
    state = thrown(table(0, 0), (1, 1, 1, 1, 2, 3))
    assert player.set_aside(state) == (0, 1, 2)


def test_f12_keeps_the_one_and_leaves_the_five() -> None:
    # docs/rules.md F-12: 1 and 5 score 150, but a lone 1 leaves five dice to throw.
    state = thrown(table(0, 0), (1, 5, 3, 3, 6, 2))
    assert SEED.set_aside(state) == (0,)


def test_maps_faces_back_to_tray_positions() -> None:
    state = thrown(table(0, 0), (2, 6, 4, 4, 4, 3))
    assert SEED.set_aside(state) == (2, 3, 4)


def test_takes_the_most_points_when_about_to_bank() -> None:
    # Three 3s set aside (300), then 1, 5, 2: with 1 and 5 (450, one die left) it banks.
    state = thrown(table(0, 0), (3, 3, 3, 2, 4, 6))
    state = thrown(state.apply(SetAside(0, (0, 1, 2))), (1, 5, 2))
    assert SEED.set_aside(state) == (3, 4)


def test_hot_dice_count_as_six_dice() -> None:
    # 300 in the turn, then 1 and 5 from the last two dice: taking both brings all six back
    # (worth six dice to a bot that goes on), more than the 1 alone with a die to throw.
    player = ThresholdPlayer(base=1_000)
    state = thrown(table(0, 0), (1, 5, 5, 1, 2, 3))
    state = state.apply(SetAside(0, (0, 1, 2, 3)))  # 300, two dice left
    state = thrown(state, (1, 5))
    assert player.set_aside(state) == (4, 5)


def test_set_aside_refuses_outside_its_phase() -> None:
    with pytest.raises(ValueError, match="after a scoring throw"):
        SEED.set_aside(table(0, 0))


@settings(max_examples=300)
@given(
    st.integers(0, DICE - 1),
    st.lists(st.integers(1, 6), min_size=DICE, max_size=DICE),
    st.integers(0, 40).map(lambda n: n * 50),
    st.lists(st.integers(0, 300).map(lambda n: n * 50), min_size=1, max_size=4),
    st.booleans(),
)
def test_set_aside_is_always_legal(
    aside: int, faces: list[int], turn_points: int, totals: list[int], last: bool
) -> None:
    state = holding(table(*totals), turn_points, DICE - aside)
    if last and len(totals) > 1:
        state = replace(state, last_round_by=1)
    after = state.apply(Throw(0, tuple(faces[: DICE - aside])))
    if after.phase is not Phase.SET_ASIDE:
        return  # "Tour perdu !"
    positions = SEED.set_aside(after)
    assert positions == tuple(sorted(set(positions)))
    assert all(not after.aside[p] for p in positions)
    assert score(after.tray[p] or 0 for p in positions) > 0
    assert after.apply(SetAside(0, positions)).turn_points > turn_points


@pytest.mark.parametrize("target", TARGETS)
def test_target_rule_reads_the_game_target(target: int) -> None:
    state = holding(table(target - 100, 0, target=target), 100, 6)
    assert SEED.banks(state)


# The house rules (docs/rules.md, "House rules of 10 000").


def ruled(name: str, *totals: int) -> FarkleState:
    seats = tuple(Seat(f"IA {i + 1}", computer=True) for i in range(len(totals)))
    start = FarkleState.start(FarkleSettings(seats, rules=PRESETS[name]))
    return replace(start, totals=totals)


@pytest.mark.parametrize(
    ("name", "own", "turn_points", "banks"),
    [
        ("entry-1000", 0, 950, False),
        ("entry-1000", 0, 1_000, True),
        ("entry-1000", 50, 300, True),  # on the board: its threshold again
        ("bank-500", 2_000, 450, False),
        ("bank-500", 2_000, 500, True),
        ("facebook", 3_000, 250, False),
    ],
)
def test_never_banks_under_the_entry_or_the_minimum(
    name: str, own: int, turn_points: int, banks: bool
) -> None:
    state = holding(ruled(name, own, 0), turn_points, 1)
    assert SEED.banks(state) is banks


@pytest.mark.parametrize("name", list(PRESETS))
def test_plays_whole_games_of_every_preset(name: str) -> None:
    state = ruled(name, 0, 0)
    dice = SeededDice(f"preset-{name}")
    for _ in range(1_000):
        if state.is_over:
            break
        state = play_turn(state, SEED, dice)[-1][1]
    assert state.is_over
