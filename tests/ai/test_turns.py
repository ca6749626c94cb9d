"""Computer turns as actions, and whole games between computer seats."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zar import farkle, yams
from zar.ai import computer_player, next_action, play_turn
from zar.ai.farkle_seed import ThresholdPlayer
from zar.ai.yams_greedy import GreedyPlayer
from zar.dice import SeededDice
from zar.farkle import FarkleSettings, FarkleState, Phase
from zar.table import IllegalAction, Seat
from zar.yams import Box, YamsSettings, YamsState


class Scripted:
    """Dice that fall as written, one throw after the other."""

    def __init__(self, *throws: tuple[int, ...]) -> None:
        self.throws = list(throws)

    def roll(self, n: int) -> tuple[int, ...]:
        faces = self.throws.pop(0)
        assert len(faces) == n
        return faces


def computers(n: int, level: str | None = None) -> tuple[Seat, ...]:
    return tuple(Seat(f"IA {i + 1}", computer=True, level=level) for i in range(n))


YAMS = YamsState.start(YamsSettings(computers(2)))
FARKLE = FarkleState.start(FarkleSettings(computers(2)))


# Yams.


def test_yams_first_throw_needs_no_decision() -> None:
    action = next_action(YAMS, GreedyPlayer(), Scripted((6, 1, 6, 6, 6)))
    assert action == yams.Throw(0, (), (6, 1, 6, 6, 6))


def test_yams_throw_carries_the_kept_positions_and_the_new_faces() -> None:
    state = YAMS.apply(yams.Throw(0, (), (6, 1, 6, 6, 6)))
    action = next_action(state, GreedyPlayer(), Scripted((6,)))
    assert action == yams.Throw(0, (0, 2, 3, 4), (6,))
    assert state.apply(action).dice == (6, 6, 6, 6, 6)


def test_yams_stops_and_writes() -> None:
    state = YAMS.apply(yams.Throw(0, (), (6, 6, 6, 6, 6)))
    assert next_action(state, GreedyPlayer(), Scripted()) == yams.Fill(0, Box.PENTA)


def test_yams_writes_after_the_third_throw() -> None:
    state = replace(YAMS, throws=3, dice=(1, 2, 3, 4, 6))
    assert next_action(state, GreedyPlayer(), Scripted()) == yams.Fill(0, Box.SMALL_STRAIGHT)


class KeepsAll:
    """A player that keeps every die: keeping all five is writing them."""

    def keep(self, state: YamsState) -> tuple[int, ...] | None:
        return (4, 3, 2, 1, 0)

    def box(self, state: YamsState) -> Box:
        return Box.CHANCE


def test_yams_keeping_all_five_is_writing() -> None:
    state = YAMS.apply(yams.Throw(0, (), (1, 2, 3, 4, 6)))
    assert next_action(state, KeepsAll(), Scripted()) == yams.Fill(0, Box.CHANCE)


def test_yams_play_turn_ends_with_the_box_written() -> None:
    steps = play_turn(YAMS, GreedyPlayer(), Scripted((6, 1, 6, 6, 6), (6,)))
    assert [action for action, _ in steps] == [
        yams.Throw(0, (), (6, 1, 6, 6, 6)),
        yams.Throw(0, (0, 2, 3, 4), (6,)),
        yams.Fill(0, Box.PENTA),
    ]
    assert steps[-1][1].seat == 1
    assert steps[-1][1].cards[0].total == 50


# 10 000.


def test_farkle_first_throw_needs_no_decision() -> None:
    action = next_action(FARKLE, ThresholdPlayer(), Scripted((1, 5, 3, 3, 6, 2)))
    assert action == farkle.Throw(0, (1, 5, 3, 3, 6, 2))


def test_farkle_set_aside_then_bank_or_throw() -> None:
    state = FARKLE.apply(farkle.Throw(0, (1, 5, 3, 3, 6, 2)))
    action = next_action(state, ThresholdPlayer(), Scripted())
    assert action == farkle.SetAside(0, (0,))
    state = state.apply(action)
    # 100 with five dice left: below 300, it throws the five.
    assert next_action(state, ThresholdPlayer(), Scripted((2, 2, 2, 3, 4))) == farkle.Throw(
        0, (2, 2, 2, 3, 4)
    )
    state = state.apply(farkle.Throw(0, (2, 2, 2, 3, 4)))
    state = state.apply(next_action(state, ThresholdPlayer(), Scripted()))
    assert state.turn_points == 300
    assert next_action(state, ThresholdPlayer(), Scripted()) == farkle.Bank(0)


def test_farkle_play_turn_ends_when_the_turn_is_lost() -> None:
    steps = play_turn(FARKLE, ThresholdPlayer(), Scripted((1, 2, 3, 4, 6, 6), (2, 3, 4, 4, 6)))
    assert [action for action, _ in steps] == [
        farkle.Throw(0, (1, 2, 3, 4, 6, 6)),
        farkle.SetAside(0, (0,)),
        farkle.Throw(0, (2, 3, 4, 4, 6)),
    ]
    assert steps[-1][1].seat == 1
    assert steps[-1][1].totals == (0, 0)


def test_hot_dice_are_thrown_again_below_the_threshold() -> None:
    state = FARKLE.apply(farkle.Throw(0, (1, 5, 2, 3, 4, 6)))  # the straight: 2 500
    state = state.apply(next_action(state, ThresholdPlayer(base=3_000), Scripted()))
    assert state.dice_in_play == 6
    assert next_action(state, ThresholdPlayer(base=3_000), Scripted((2,) * 6)) == farkle.Throw(
        0, (2,) * 6
    )


# Both games.


def test_no_action_once_the_game_is_over() -> None:
    over = replace(FARKLE, phase=Phase.OVER)
    with pytest.raises(IllegalAction, match="over"):
        next_action(over, ThresholdPlayer(), Scripted())
    full = yams.Scorecard.from_boxes(dict.fromkeys(Box, 0) | {Box.CHANCE: 5})
    done = replace(YamsState.start(YamsSettings(computers(1))), cards=(full,))
    with pytest.raises(IllegalAction, match="over"):
        next_action(done, GreedyPlayer(), Scripted())


def test_a_player_of_the_other_game_is_refused() -> None:
    with pytest.raises(TypeError, match="does not play Yams"):
        next_action(YAMS, ThresholdPlayer(), Scripted())  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="does not play 10 000"):
        play_turn(FARKLE, GreedyPlayer(), Scripted())  # type: ignore[call-overload]


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32))
def test_whole_yams_games_between_computers(players: int, seed: int) -> None:
    settings_ = YamsSettings(computers(players))
    state = YamsState.start(settings_)
    player = computer_player("yams")
    dice = SeededDice(seed)
    log: list[yams.YamsAction] = []
    turns = 0
    while not state.is_over:
        seat = state.seat
        steps = play_turn(state, player, dice)
        assert all(action.seat == seat for action, _ in steps)
        assert isinstance(steps[-1][0], yams.Fill)
        log.extend(action for action, _ in steps)
        state = steps[-1][1]
        turns += 1
    assert turns == 13 * players
    totals = [card.total for card in state.cards]
    assert state.winners == tuple(i for i, t in enumerate(totals) if t == max(totals))
    assert YamsState.replay(settings_, log) == state


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), st.sampled_from(farkle.TARGETS))
def test_whole_farkle_games_between_computers(players: int, seed: int, target: int) -> None:
    settings_ = FarkleSettings(computers(players, "seed"), target)
    state = FarkleState.start(settings_)
    dice = SeededDice(seed)
    log: list[farkle.FarkleAction] = []
    while not state.is_over:
        seat = state.seat
        player = computer_player("10000", settings_.seats[seat].level)
        before = state
        steps = play_turn(state, player, dice)
        assert all(action.seat == seat for action, _ in steps)
        log.extend(action for action, _ in steps)
        state = steps[-1][1]
        if before.last_round_by is not None and isinstance(steps[-1][0], farkle.Bank):
            # In the last round a computer banks only to beat (or, with one die, tie) the leader.
            leader = max(t for s, t in enumerate(state.totals) if s != seat)
            assert state.totals[seat] >= leader
    assert state.last_round_by is not None
    assert max(state.totals) >= target
    totals = state.totals
    assert state.winners == tuple(i for i, t in enumerate(totals) if t == max(totals))
    assert FarkleState.replay(settings_, log) == state
