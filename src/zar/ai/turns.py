"""Turning a computer player's decisions into the actions a front end applies.

The engine never rolls: the dice a computer throws come from the source it is given.
A front end applies each action and asks again while the seat is still the computer's.

>>> from zar.dice import SeededDice
>>> from zar.table import Seat
>>> from zar.yams import YamsSettings
>>> from zar.ai.yams_greedy import GreedyPlayer
>>> state = YamsState.start(YamsSettings((Seat("IA", computer=True),)))
>>> steps = play_turn(state, GreedyPlayer(), SeededDice(1))
>>> type(steps[-1][0]).__name__, steps[-1][1].card.open_boxes != state.card.open_boxes
('Fill', True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, assert_never, overload

from zar.ai.players import FarklePlayer, YamsPlayer
from zar.dice import DiceSource
from zar.farkle import game as farkle
from zar.farkle.game import FarkleAction, FarkleState, Phase
from zar.table import IllegalAction
from zar.yams import game as yams
from zar.yams.game import DICE, YamsAction, YamsState

__all__ = ["next_action", "play_turn"]

StateT = TypeVar("StateT", YamsState, FarkleState)
ActionT = TypeVar("ActionT")


@overload
def next_action(state: YamsState, player: YamsPlayer, dice: DiceSource) -> YamsAction: ...
@overload
def next_action(state: FarkleState, player: FarklePlayer, dice: DiceSource) -> FarkleAction: ...
def next_action(
    state: YamsState | FarkleState, player: YamsPlayer | FarklePlayer, dice: DiceSource
) -> YamsAction | FarkleAction:
    """The next action of the seat to play, decided by ``player``, its throws drawn from ``dice``.

    The first throw of a Yams round or of a 10 000 turn needs no decision. A Yams throw
    carries the kept positions and the new faces of the others; keeping all five dice is
    writing them. After a 10 000 set-aside (or hot dice) the next call decides bank or throw.
    """
    if state.is_over:
        raise IllegalAction("the game is over", reason="game-over")
    match state:
        case YamsState():
            if not isinstance(player, YamsPlayer):
                raise TypeError(f"{player!r} does not play Yams")
            return _yams_action(state, player, dice)
        case FarkleState():
            if not isinstance(player, FarklePlayer):
                raise TypeError(f"{player!r} does not play 10 000")
            return _farkle_action(state, player, dice)
        case _:
            assert_never(state)


def _yams_action(state: YamsState, player: YamsPlayer, dice: DiceSource) -> YamsAction:
    if state.throws == 0:
        return yams.Throw(state.seat, (), dice.roll(DICE))
    if state.throws_left > 0:
        keep = player.keep(state)
        if keep is not None and len(keep) < DICE:
            kept = tuple(keep)
            return yams.Throw(state.seat, kept, dice.roll(DICE - len(kept)))
    return yams.Fill(state.seat, player.box(state))


def _farkle_action(state: FarkleState, player: FarklePlayer, dice: DiceSource) -> FarkleAction:
    match state.phase:
        case Phase.SET_ASIDE:
            return farkle.SetAside(state.seat, tuple(player.set_aside(state)))
        case Phase.THROW:
            if state.can_bank and player.banks(state):  # under the rules' minimum: throw
                return farkle.Bank(state.seat)
            return farkle.Throw(state.seat, dice.roll(state.dice_in_play))
        case Phase.OVER:
            raise IllegalAction("the game is over", reason="game-over")
        case _:
            assert_never(state.phase)


@overload
def play_turn(
    state: YamsState, player: YamsPlayer, dice: DiceSource
) -> list[tuple[YamsAction, YamsState]]: ...
@overload
def play_turn(
    state: FarkleState, player: FarklePlayer, dice: DiceSource
) -> list[tuple[FarkleAction, FarkleState]]: ...
def play_turn(
    state: YamsState | FarkleState, player: YamsPlayer | FarklePlayer, dice: DiceSource
) -> list[tuple[YamsAction, YamsState]] | list[tuple[FarkleAction, FarkleState]]:
    """Play the seat's whole turn: each action with the state after it, until the turn
    passes (a Yams box written; a 10 000 bank or lost throw) or the game ends."""
    match state:
        case YamsState():
            if not isinstance(player, YamsPlayer):
                raise TypeError(f"{player!r} does not play Yams")
            yams_player = player
            return _steps(state, lambda s: next_action(s, yams_player, dice), YamsState.apply)
        case FarkleState():
            if not isinstance(player, FarklePlayer):
                raise TypeError(f"{player!r} does not play 10 000")
            farkle_player = player
            return _steps(state, lambda s: next_action(s, farkle_player, dice), FarkleState.apply)
        case _:
            assert_never(state)


def _steps(
    state: StateT, act: Callable[[StateT], ActionT], apply: Callable[[StateT, ActionT], StateT]
) -> list[tuple[ActionT, StateT]]:
    """Apply ``act``'s actions from ``state`` until the turn passes or the game ends."""
    steps = []
    while True:
        action = act(state)
        state = apply(state, action)
        steps.append((action, state))
        # A new turn (or round) starts with no throw made.
        if state.throws == 0 or state.is_over:
            return steps
