"""The flow of 10 000 under house rules: the entry, the bank minimum, three lost turns in a
row, the game won at once (docs/rules.md, "House rules of 10 000")."""

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import WHOLE_GAMES, refuse, seatings
from zar.farkle import (
    DICE,
    PRESETS,
    SEED,
    Bank,
    Banked,
    FarkleAction,
    FarkleRules,
    FarkleSettings,
    FarkleState,
    GameOver,
    HotDice,
    LastRound,
    Phase,
    SetAside,
    ThreeLost,
    Throw,
    TurnLost,
    selections,
)
from zar.table import IllegalAction, Seat

ALL = tuple(range(DICE))
LOST = (2, 3, 4, 4, 6, 6)  # F-13: nothing scores


def table(rules: FarkleRules, *names: str, target: int = 5_000) -> FarkleSettings:
    return FarkleSettings(tuple(Seat(name) for name in names), target=target, rules=rules)


def play(state: FarkleState, actions: Iterable[FarkleAction]) -> FarkleState:
    for action in actions:
        state = state.apply(action)
    return state


def keep(state: FarkleState, dice: tuple[int, ...], kept: int) -> FarkleState:
    """Throw ``dice`` and set aside the first ``kept`` of them."""
    free = [p for p in range(DICE) if not state.aside[p]]
    state = state.apply(Throw(state.seat, dice))
    return state.apply(SetAside(state.seat, tuple(free[:kept])))


def turn(state: FarkleState, *throws: tuple[int, ...], bank: bool = True) -> FarkleState:
    """Each throw set aside whole, then a bank."""
    for dice in throws:
        state = keep(state, dice, len(dice))
    return state.apply(Bank(state.seat)) if bank else state


def refused(state: FarkleState, action: FarkleAction, reason: str) -> IllegalAction:
    error = refuse(state, action)
    assert error.reason == reason
    return error


# The entry: getting on the board.


def test_the_entry_reached_exactly_banks() -> None:
    state = FarkleState.start(table(PRESETS["entry-500"], "Ali", "Bea"))
    assert (state.bank_floor, state.bank_needs) == (500, 500)
    state = keep(state, (5, 5, 5, 2, 3, 4), 3)
    assert (state.turn_points, state.bank_needs, state.can_bank) == (500, 0, True)
    state = state.apply(Bank(0))
    assert state.totals == (500, 0)
    assert state.events == (Banked(0, 500),)


def test_one_unit_short_of_the_entry_is_refused_saying_what_it_needs() -> None:
    state = FarkleState.start(table(PRESETS["entry-500"], "Ali", "Bea"))
    state = keep(keep(state, (4, 4, 4, 2, 3, 6), 3), (5, 2, 3), 1)
    assert (state.turn_points, state.bank_needs, state.can_bank) == (450, 50, False)
    error = refused(state, Bank(0), "bank-under-entry")
    assert error.details == {"minimum": 500, "turn_points": 450}
    assert "500 points in the turn, not 450" in str(error)


def test_once_on_the_board_the_entry_is_gone() -> None:
    state = FarkleState.start(table(PRESETS["entry-1000"], "Ali", "Bea"))
    state = keep(state, (1, 1, 1, 2, 3, 4), 3).apply(Bank(0))  # 1 000: on the board
    state = keep(state, (5, 2, 3, 4, 6, 2), 1)
    refused(state, Bank(1), "bank-under-entry")  # Bea still needs 1 000
    state = state.apply(Throw(1, LOST[:5]))
    state = keep(state, (5, 2, 3, 4, 6, 2), 1).apply(Bank(0))
    assert state.totals == (1_050, 0)


def test_the_minimum_applies_to_every_bank() -> None:
    state = FarkleState.start(table(PRESETS["bank-300"], "Ali"))
    state = keep(state, (1, 1, 2, 3, 4, 6), 2)
    error = refused(state, Bank(0), "bank-under-minimum")
    assert error.details == {"minimum": 300, "turn_points": 200}
    assert (state.bank_needs, state.can_bank) == (100, False)
    state = keep(state, (1, 2, 3, 4), 1).apply(Bank(0))
    assert state.totals == (300,)
    # On the board, the minimum still holds.
    state = keep(state, (5, 2, 3, 4, 6, 2), 1)
    refused(state, Bank(0), "bank-under-minimum")


def test_the_entry_and_the_minimum_together_name_the_larger() -> None:
    rules = FarkleRules(entry=750, bank_minimum=300)
    state = FarkleState.start(table(rules, "Ali"))
    state = keep(state, (4, 4, 4, 2, 3, 6), 3)
    assert refused(state, Bank(0), "bank-under-entry").details["minimum"] == 750


def test_hot_dice_under_the_minimum_throw_on() -> None:
    state = FarkleState.start(table(PRESETS["bank-500"], "Ali"))
    state = keep(keep(keep(state, (5, 5, 2, 3, 4, 6), 2), (1, 5, 2, 3), 2), (5, 1), 2)
    assert state.events == (HotDice(0),)
    assert (state.turn_points, state.dice_in_play, state.bank_needs) == (400, 6, 100)
    refused(state, Bank(0), "bank-under-minimum")
    state = state.apply(Throw(0, LOST))  # the six come back: lost, the 400 with them
    assert state.totals == (0,)
    assert state.events[0] == TurnLost(0, LOST, 400)


# Three lost turns in a row.


def test_the_third_lost_turn_in_a_row_costs_the_penalty() -> None:
    state = FarkleState.start(table(PRESETS["three-lost-500"], "Ali", "Bea"))
    state = keep(state, (1, 1, 1, 2, 3, 4), 3).apply(Bank(0))  # Ali: 1 000
    for k in range(3):
        state = play(state, [Throw(1, LOST), Throw(0, LOST)])
        assert state.lost_in_row == ((k + 1) % 3, (k + 1) % 3)
    assert state.totals == (500, -500)  # a total may go below 0
    assert state.events == (TurnLost(0, LOST, 0), ThreeLost(0, 500))


def test_a_bank_starts_the_count_again() -> None:
    state = FarkleState.start(table(PRESETS["three-lost-1000"], "Ali"))
    state = play(state, [Throw(0, LOST), Throw(0, LOST)])
    assert state.lost_in_row == (2,)
    state = keep(state, (5, 2, 3, 4, 6, 2), 1).apply(Bank(0))
    assert state.lost_in_row == (0,)
    state = play(state, [Throw(0, LOST), Throw(0, LOST)])
    assert state.totals == (50,)
    state = state.apply(Throw(0, LOST))
    assert state.totals == (-950,)
    assert state.lost_in_row == (0,)


def test_without_a_penalty_nothing_is_taken() -> None:
    state = FarkleState.start(table(SEED, "Ali"))
    state = play(state, [Throw(0, LOST)] * 3)
    assert state.totals == (0,)
    assert not any(isinstance(e, ThreeLost) for e in state.events)


# The game won at once.


def test_without_a_last_round_the_bank_reaching_the_target_wins_at_once() -> None:
    rules = FarkleRules(last_round=False)
    state = FarkleState.start(table(rules, "Ali", "Bea"))
    state = turn(state, (1,) * 6, (1,) * 6)  # 6 000
    assert state.phase is Phase.OVER
    assert state.winners == (0,)
    assert state.events == (Banked(0, 6_000), GameOver((0,)))
    assert not any(isinstance(e, LastRound) for e in state.events)
    refused(state, Throw(1, LOST), "game-over")


def test_the_facebook_preset_wins_at_once_past_its_minimum() -> None:
    state = FarkleState.start(table(PRESETS["facebook"], "Ali", "Bea", target=10_000))
    state = turn(state, (1,) * 6, (1,) * 6, (1,) * 6, bank=False)
    assert state.turn_points == 12_000  # six 1s: 4 x 1 000, three times
    state = state.apply(Bank(0))
    assert state.winners == (0,)


def test_the_default_settings_are_the_seeds() -> None:
    seats = (Seat("Ali"),)
    assert FarkleSettings(seats) == FarkleSettings(seats, rules=SEED)
    with pytest.raises(ValueError, match="FarkleRules"):
        FarkleSettings(seats, rules="facebook")  # type: ignore[arg-type]


# Whole games of every preset under random play.

MAX_TURNS = 400  # random play under a penalty may wander below 0: stopped there
GAMES = settings(WHOLE_GAMES, max_examples=6)


def legal_action(data: st.DataObject, state: FarkleState) -> FarkleAction:
    seat = state.seat
    if state.phase is Phase.SET_ASIDE:
        options = sorted(selections(state.throw, state.settings.rules).items())
        faces, _ = options[data.draw(st.integers(0, len(options) - 1), label="selection")]
        free = [p for p in range(DICE) if not state.aside[p]]
        chosen: list[int] = []
        for face in faces:
            chosen.append(next(p for p in free if state.tray[p] == face and p not in chosen))
        return SetAside(seat, tuple(chosen))
    if state.can_bank and data.draw(st.integers(0, 3), label="bank unless 3") < 3:
        return Bank(seat)
    dice = st.lists(st.integers(1, 6), min_size=state.dice_in_play, max_size=state.dice_in_play)
    return Throw(seat, tuple(data.draw(dice, label="dice")))


@pytest.mark.parametrize("name", PRESETS)
@GAMES
@given(data=st.data(), seats=seatings())
def test_whole_games_of_every_preset(
    data: st.DataObject, name: str, seats: tuple[Seat, ...]
) -> None:
    """Random legal play ends (or is stopped), totals are the banks less the penalties,
    no bank is under the floor, and the replay of the log is the same state."""
    game = FarkleSettings(seats, target=5_000, rules=PRESETS[name])
    rules = game.rules
    state = FarkleState.start(game)
    log: list[FarkleAction] = []
    totals = [0] * len(seats)
    while not state.is_over and sum(state.turns) < MAX_TURNS:
        before = state
        action = legal_action(data, state)
        if isinstance(action, Bank):
            assert state.turn_points >= rules.bank_floor(state.totals[state.seat])
        state = state.apply(action)
        log.append(action)
        for event in state.events:
            match event:
                case Banked(seat, points):
                    totals[seat] += points
                case ThreeLost(seat, points):
                    assert points == rules.three_lost > 0
                    totals[seat] -= points
                case TurnLost() | HotDice() | LastRound() | GameOver():
                    pass
        assert list(state.totals) == totals
        assert all(t >= 0 for t in totals) or rules.three_lost
        assert all(0 <= n < 3 for n in state.lost_in_row)
    if state.is_over:
        assert isinstance(state.events[-1], GameOver)
        if not rules.last_round:
            assert state.winners == (before.seat,)
            assert state.totals[before.seat] >= game.target
    replayed = FarkleState.replay(game, log)
    assert replayed == state
    assert replayed.events == state.events
