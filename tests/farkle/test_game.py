"""The flow of a game of 10 000: turns, lost turns, hot dice, the last round (docs/rules.md)."""

from collections.abc import Iterable
from dataclasses import FrozenInstanceError

import pytest

from support import refuse
from zar.farkle import (
    DICE,
    TARGETS,
    Bank,
    Banked,
    FarkleAction,
    FarkleSettings,
    FarkleState,
    GameOver,
    HotDice,
    LastRound,
    Phase,
    SetAside,
    Throw,
    TurnLost,
)
from zar.table import IllegalAction, Seat

ALL = tuple(range(DICE))


def table(*names: str, target: int = 5_000) -> FarkleSettings:
    return FarkleSettings(tuple(Seat(name) for name in names), target=target)


def play(state: FarkleState, actions: Iterable[FarkleAction]) -> FarkleState:
    for action in actions:
        state = state.apply(action)
    return state


def big_turn(seat: int) -> list[FarkleAction]:
    """Six 1s twice (3 000, hot dice, 3 000 again), then bank: 6 000, past the 5 000 target."""
    return [
        Throw(seat, (1,) * 6),
        SetAside(seat, ALL),
        Throw(seat, (1,) * 6),
        SetAside(seat, ALL),
        Bank(seat),
    ]


def small_turn(seat: int) -> list[FarkleAction]:
    """A lone 5 set aside and banked: 50."""
    return [Throw(seat, (5, 2, 3, 4, 6, 2)), SetAside(seat, (0,)), Bank(seat)]


def lost_turn(seat: int) -> list[FarkleAction]:
    """F-13: nothing scores, the turn is lost."""
    return [Throw(seat, (2, 3, 4, 4, 6, 6))]


def test_a_game_starts_with_the_first_seat_to_throw_six_dice() -> None:
    """docs/rules.md: a turn starts with a throw of six dice; nothing to bank yet."""
    state = FarkleState.start(table("Ali", "Ayşe"))
    assert state.seat == 0
    assert state.phase is Phase.THROW
    assert state.totals == (0, 0)
    assert state.turn_points == 0
    assert state.dice_in_play == 6
    assert state.throw == ()
    assert not state.can_bank
    assert not state.is_over
    assert state.winners == ()
    assert state.settings.target == 5_000


def test_the_default_target_is_10_000_among_three() -> None:
    """docs/rules.md: target 5 000, 10 000 (default) or 15 000."""
    assert TARGETS == (5_000, 10_000, 15_000)
    assert FarkleSettings((Seat("Ali"),)).target == 10_000


def test_states_are_immutable_values() -> None:
    """docs/architecture.md: value types are frozen; a state is equal to an equal state."""
    state = FarkleState.start(table("Ali"))
    with pytest.raises(FrozenInstanceError):
        state.seat = 1  # type: ignore[misc]
    assert state == FarkleState.start(table("Ali"))
    assert hash(state) == hash(FarkleState.start(table("Ali")))


def test_f12_setting_aside_the_one_and_the_five() -> None:
    """F-12 (docs/rules.md): 1,5,3,3,6,2: the 1 and the 5 score 150; four dice are thrown again."""
    state = play(FarkleState.start(table("Ali")), [Throw(0, (1, 5, 3, 3, 6, 2))])
    assert state.phase is Phase.SET_ASIDE
    assert state.throw == (1, 5, 3, 3, 6, 2)
    state = state.apply(SetAside(0, (0, 1)))
    assert (state.turn_points, state.dice_in_play, state.phase) == (150, 4, Phase.THROW)
    assert state.can_bank
    state = state.apply(Throw(0, (5, 3, 3, 3)))
    assert state.throw == (5, 3, 3, 3)
    state = state.apply(SetAside(0, (3, 4, 5)))
    assert (state.turn_points, state.dice_in_play) == (450, 1)


def test_combinations_count_only_within_one_throw() -> None:
    """docs/rules.md: two 5s kept from one throw and a third 5 from the next are 50 + 50 + 50."""
    state = play(
        FarkleState.start(table("Ali")),
        [
            Throw(0, (5, 5, 2, 3, 4, 6)),
            SetAside(0, (0, 1)),
            Throw(0, (5, 2, 3, 6)),
            SetAside(0, (2,)),
        ],
    )
    assert state.turn_points == 150


def test_the_player_need_not_set_aside_every_scoring_die() -> None:
    """docs/rules.md: F-10: keep three 1s of four, throw three dice."""
    state = play(
        FarkleState.start(table("Ali")), [Throw(0, (1, 1, 1, 1, 2, 3)), SetAside(0, (0, 1, 2))]
    )
    assert (state.turn_points, state.dice_in_play) == (1_000, 3)


def test_banking_adds_the_turn_points_and_passes_the_turn() -> None:
    """docs/rules.md: bank ("Kasaya yatır"); no minimum to bank."""
    state = play(FarkleState.start(table("Ali", "Ayşe")), small_turn(0))
    assert state.events == (Banked(0, 50),)
    assert state.totals == (50, 0)
    assert (state.seat, state.phase, state.turn_points, state.dice_in_play) == (
        1,
        Phase.THROW,
        0,
        6,
    )
    assert state.turns == (1, 0)


def test_a_throw_that_scores_nothing_loses_the_turn() -> None:
    """docs/rules.md: "Tour perdu !": the turn's points lost, the total kept, the turn passes."""
    start = play(FarkleState.start(table("Ali", "Ayşe")), [*small_turn(0), *small_turn(1)])
    state = play(start, [Throw(0, (1, 5, 3, 3, 6, 2)), SetAside(0, (0, 1))])
    assert state.turn_points == 150
    state = state.apply(Throw(0, (2, 3, 4, 6)))
    assert state.events == (TurnLost(0, (2, 3, 4, 6), 150),)
    assert state.totals == (50, 50)
    assert (state.seat, state.phase, state.turn_points, state.dice_in_play) == (
        1,
        Phase.THROW,
        0,
        6,
    )
    assert not state.can_bank


def test_f13_a_first_throw_that_scores_nothing_loses_the_turn() -> None:
    """F-13: 2,3,4,4,6,6: "Tour perdu !" with no points to lose."""
    state = play(FarkleState.start(table("Ali", "Ayşe")), lost_turn(0))
    assert state.events == (TurnLost(0, (2, 3, 4, 4, 6, 6), 0),)
    assert state.totals == (0, 0)
    assert state.seat == 1


def test_a_lost_turn_in_a_one_player_game_comes_back_to_that_player() -> None:
    """docs/rules.md: the turn passes, here back to the only player; the game goes on."""
    state = play(FarkleState.start(table("Ali")), lost_turn(0))
    assert (state.seat, state.phase, state.is_over) == (0, Phase.THROW, False)


def test_hot_dice_bring_all_six_back_and_keep_the_points() -> None:
    """docs/rules.md: "Dés chauds !": all six come back, the points are kept; bank or throw six."""
    state = play(
        FarkleState.start(table("Ali", "Ayşe")),
        [Throw(0, (1, 2, 3, 4, 6, 6)), SetAside(0, (0,)), Throw(0, (1, 1, 1, 5, 5))],
    )
    state = state.apply(SetAside(0, (1, 2, 3, 4, 5)))
    assert state.events == (HotDice(0),)
    assert state.turn_points == 100 + 1_000 + 100
    assert (state.dice_in_play, state.phase, state.seat) == (6, Phase.THROW, 0)
    assert state.can_bank
    assert state.hot_dice
    # Bank...
    banked = state.apply(Bank(0))
    assert banked.events == (Banked(0, 1_200),)
    assert banked.totals == (1_200, 0)
    assert not banked.hot_dice
    # ... or throw all six again, the points still there: still hot dice until a set-aside.
    again = state.apply(Throw(0, (5, 2, 3, 4, 6, 2)))
    assert again.throw == (5, 2, 3, 4, 6, 2)
    assert again.events == ()
    assert again.hot_dice
    after = again.apply(SetAside(0, (0,)))
    assert after.turn_points == 1_250
    assert not after.hot_dice


def test_no_hot_dice_before_every_die_is_set_aside() -> None:
    """A turn's first throw, and a set-aside that leaves dice in play, are not hot dice."""
    state = FarkleState.start(table("Ali"))
    assert not state.hot_dice
    state = state.apply(Throw(0, (1, 2, 3, 4, 6, 6)))
    assert not state.hot_dice
    assert not state.apply(SetAside(0, (0,))).hot_dice


def test_hot_dice_from_a_single_throw_of_six() -> None:
    """F-6: the straight uses all six dice at once."""
    state = play(FarkleState.start(table("Ali")), [Throw(0, (4, 2, 6, 1, 3, 5)), SetAside(0, ALL)])
    assert state.events == (HotDice(0),)
    assert (state.turn_points, state.dice_in_play) == (2_500, 6)


def test_points_after_hot_dice_are_lost_with_the_turn() -> None:
    """docs/rules.md: hot dice keep the turn's points, not past a throw that scores nothing."""
    state = play(
        FarkleState.start(table("Ali", "Ayşe")),
        [Throw(0, (4, 2, 6, 1, 3, 5)), SetAside(0, ALL), Throw(0, (2, 3, 4, 4, 6, 6))],
    )
    assert state.events == (TurnLost(0, (2, 3, 4, 4, 6, 6), 2_500),)
    assert state.events[0].after_hot_dice
    assert state.totals == (0, 0)
    # A turn's first throw of six that scores nothing came after no hot dice.
    first = state.apply(Throw(1, (2, 3, 4, 4, 6, 6)))
    assert first.events == (TurnLost(1, (2, 3, 4, 4, 6, 6), 0),)
    assert not first.events[0].after_hot_dice


# The last round (docs/rules.md: "Dernier tour !").


def test_reaching_the_target_starts_the_last_round_and_each_other_player_plays_once() -> None:
    """docs/rules.md: every other player plays once more; the game ends when the turn comes back."""
    state = play(FarkleState.start(table("Ali", "Ayşe", "Can")), [*small_turn(0), *big_turn(1)])
    assert state.events == (Banked(1, 6_000), LastRound(1))
    assert state.last_round_by == 1
    assert (state.seat, state.is_over) == (2, False)
    state = play(state, small_turn(2))
    assert (state.seat, state.is_over) == (0, False)
    state = play(state, small_turn(0))
    assert state.events == (Banked(0, 50), GameOver((1,)))
    assert state.is_over
    assert state.phase is Phase.OVER
    assert state.totals == (100, 6_000, 50)
    assert state.winners == (1,)


def test_the_last_round_started_by_the_first_seat() -> None:
    """docs/rules.md: "Dernier tour !" from seat 0: seats 1 and 2 play once more, lost turns too."""
    state = play(FarkleState.start(table("Ali", "Ayşe", "Can")), big_turn(0))
    assert state.events == (Banked(0, 6_000), LastRound(0))
    state = play(state, small_turn(1))
    assert not state.is_over
    state = play(state, lost_turn(2))
    assert state.events == (TurnLost(2, (2, 3, 4, 4, 6, 6), 0), GameOver((0,)))
    assert state.is_over


def test_the_last_round_started_by_the_last_seat() -> None:
    """docs/rules.md: "Dernier tour !" from the last seat: the others play once more, in turn."""
    state = play(
        FarkleState.start(table("Ali", "Ayşe", "Can")),
        [*small_turn(0), *small_turn(1), *big_turn(2)],
    )
    assert state.events == (Banked(2, 6_000), LastRound(2))
    state = play(state, small_turn(0))
    assert not state.is_over
    state = play(state, small_turn(1))
    assert state.is_over
    assert state.winners == (2,)


def test_reaching_exactly_the_target_starts_the_last_round() -> None:
    """docs/rules.md: "reaches the target": 3 000 + 2 000 = 5 000 is enough."""
    state = play(
        FarkleState.start(table("Ali", "Ayşe")),
        [
            Throw(0, (6,) * 6),
            SetAside(0, ALL),
            Throw(0, (3, 3, 3, 3, 3, 2)),
            SetAside(0, (0, 1, 2, 3, 4)),
            Bank(0),
        ],
    )
    assert state.totals == (5_000, 0)
    assert state.events == (Banked(0, 5_000), LastRound(0))


def test_a_total_below_the_target_does_not_start_the_last_round() -> None:
    """docs/rules.md: the last round starts when a banked total reaches the target, not before."""
    state = play(
        FarkleState.start(table("Ali", "Ayşe")), [Throw(0, (6,) * 6), SetAside(0, ALL), Bank(0)]
    )
    assert state.events == (Banked(0, 3_000),)
    assert state.last_round_by is None


def test_only_the_first_player_to_reach_the_target_starts_the_last_round() -> None:
    """A player who passes the target in the last round plays no extra round and wins."""
    after = [
        Throw(1, (1,) * 6),
        SetAside(1, ALL),
        Throw(1, (1,) * 6),
        SetAside(1, ALL),
        Throw(1, (5, 2, 3, 4, 6, 2)),
        SetAside(1, (0,)),
        Bank(1),
    ]
    state = play(FarkleState.start(table("Ali", "Ayşe")), [*big_turn(0), *after])
    assert state.events == (Banked(1, 6_050), GameOver((1,)))
    assert state.totals == (6_000, 6_050)
    assert state.winners == (1,)


def test_equal_totals_share_the_win() -> None:
    """docs/rules.md: highest total wins; equal totals share the win."""
    state = play(FarkleState.start(table("Ali", "Ayşe")), [*big_turn(0), *big_turn(1)])
    assert state.events == (Banked(1, 6_000), GameOver((0, 1)))
    assert state.winners == (0, 1)


def test_a_one_player_game_ends_as_soon_as_the_target_is_reached() -> None:
    """docs/rules.md: no other player to play once more."""
    state = play(FarkleState.start(table("Ali")), big_turn(0))
    assert state.events == (Banked(0, 6_000), LastRound(0), GameOver((0,)))
    assert state.is_over
    assert state.winners == (0,)


@pytest.mark.parametrize("target", TARGETS)
def test_each_target_is_honoured(target: int) -> None:
    """A single player banks 3 000 a turn; the game ends on the turn that reaches the target."""
    turn = [Throw(0, (6,) * 6), SetAside(0, ALL), Bank(0)]
    state = FarkleState.start(table("Ali", target=target))
    turns = 0
    while not state.is_over and turns < 10:
        state = play(state, turn)
        turns += 1
    assert state.is_over
    assert turns == -(-target // 3_000)
    assert state.totals == (turns * 3_000,)


# Refused actions: an IllegalAction with a reason, and the state unchanged.


START: list[FarkleAction] = []
THROWN = [Throw(0, (1, 5, 3, 3, 6, 2))]
SET = [*THROWN, SetAside(0, (0,))]
SECOND = [*SET, Throw(0, (1, 2, 3, 4, 6))]


@pytest.mark.parametrize(
    ("log", "action", "reason"),
    [
        pytest.param(START, Throw(1, (1,) * 6), "not-your-turn", id="out-of-turn"),
        pytest.param(START, Throw(2, (1,) * 6), "not-your-turn", id="no-such-seat"),
        pytest.param(START, Throw(-1, (1,) * 6), "not-your-turn", id="negative-seat"),
        pytest.param(THROWN, SetAside(1, (0,)), "not-your-turn", id="out-of-turn-set-aside"),
        pytest.param(SET, Bank(1), "not-your-turn", id="out-of-turn-bank"),
        pytest.param(START, SetAside(0, (0,)), "throw-first", id="set-aside-before-throwing"),
        pytest.param(THROWN, Throw(0, (1,) * 6), "set-aside-first", id="throw-before-set-aside"),
        pytest.param(SET, SetAside(0, (1,)), "already-set-aside", id="set-aside-twice"),
        pytest.param(SECOND, SetAside(0, (0,)), "already-aside", id="die-already-aside"),
        pytest.param(SECOND, SetAside(0, (0, 1)), "already-aside", id="with-die-already-aside"),
        pytest.param(THROWN, SetAside(0, ()), "empty-selection", id="empty-selection"),
        pytest.param(THROWN, SetAside(0, (6,)), "no-such-die", id="position-6"),
        pytest.param(THROWN, SetAside(0, (-1,)), "no-such-die", id="position-minus-1"),
        pytest.param(THROWN, SetAside(0, (0, 0)), "die-twice", id="die-twice"),
        pytest.param(THROWN, SetAside(0, (0, 2)), "cannot-score", id="lone-3"),
        pytest.param(THROWN, SetAside(0, (2, 3)), "cannot-score", id="pair-of-3s"),
        pytest.param(THROWN, Bank(0), "set-aside-first", id="bank-before-set-aside"),
        pytest.param(START, Bank(0), "nothing-to-bank", id="bank-nothing"),
        pytest.param(
            [*SET, Throw(0, (2, 3, 4, 6, 6))], Bank(1), "nothing-to-bank", id="bank-lost-turn"
        ),
    ],
)
def test_an_illegal_action_is_refused_and_changes_nothing(
    log: list[FarkleAction], action: FarkleAction, reason: str
) -> None:
    """docs/rules.md: each refused action, its reason, the state unchanged."""
    state = play(FarkleState.start(table("Ali", "Ayşe")), log)
    assert refuse(state, action).reason == reason


def test_f11_the_refusal_names_the_die_that_cannot_score() -> None:
    """F-11: 1,2,3,4,6,6: keeping the 1 and the 2 is refused; the selection is not taken."""
    state = play(FarkleState.start(table("Ali")), [Throw(0, (1, 2, 3, 4, 6, 6))])
    err = refuse(state, SetAside(0, (0, 1)))
    assert err.reason == "cannot-score"
    assert "2" in str(err)
    assert state.apply(SetAside(0, (0,))).turn_points == 100


@pytest.mark.parametrize(
    ("log", "dice"),
    [
        pytest.param(START, (0, 1, 1, 1, 1, 1), id="face-0"),
        pytest.param(START, (7, 1, 1, 1, 1, 1), id="face-7"),
        pytest.param(START, (True, 1, 1, 1, 1, 1), id="face-True"),
        pytest.param(START, (1, 1, 1, 1, 1), id="five-dice-at-the-start"),
        pytest.param(START, (1, 1, 1, 1, 1, 1, 1), id="seven-dice"),
        pytest.param(START, (), id="no-dice"),
        pytest.param(SET, (1,) * 6, id="six-dice-with-one-aside"),
        pytest.param(SET, (1,) * 4, id="four-dice-with-one-aside"),
    ],
)
def test_a_throw_of_bad_dice_is_an_illegal_action(
    log: list[FarkleAction], dice: tuple[int, ...]
) -> None:
    """docs/contract.md: dice outside 1..6 or the wrong count are refused, state unchanged."""
    state = play(FarkleState.start(table("Ali", "Ayşe")), log)
    refuse(state, Throw(0, dice))


def test_acting_after_the_end_is_refused() -> None:
    """Once the game is over, every action is refused."""
    state = play(FarkleState.start(table("Ali")), big_turn(0))
    for action in [Throw(0, (1,) * 6), SetAside(0, (0,)), Bank(0), Throw(1, (1,) * 6)]:
        assert refuse(state, action).reason == "game-over"


@pytest.mark.parametrize("target", [0, 7_000, 20_000, -5_000])
def test_a_target_other_than_the_three_is_refused(target: int) -> None:
    """docs/rules.md: the target is chosen among 5 000, 10 000 and 15 000."""
    with pytest.raises(IllegalAction) as err:
        table("Ali", target=target)
    assert err.value.reason == "bad-target"
    assert "5 000, 10 000 or 15 000" in str(err.value)


def test_replaying_the_log_gives_the_same_state() -> None:
    """docs/architecture.md: a game is its settings and its log."""
    settings = table("Ali", "Ayşe", "Can")
    log = [*small_turn(0), *lost_turn(1), *small_turn(2), *THROWN, SetAside(0, (0, 1)), Bank(0)]
    state = play(FarkleState.start(settings), log[:-1])
    assert FarkleState.replay(settings, log[:-1]) == state
    assert FarkleState.replay(settings, log) == state.apply(log[-1])
