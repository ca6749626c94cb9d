"""The flow of a game of Yams: turns, three throws, thirteen rounds (docs/rules.md)."""

from collections.abc import Iterable
from dataclasses import FrozenInstanceError

import pytest

from support import refuse
from zar.table import Seat
from zar.yams import (
    LOWER,
    ROUNDS,
    THROWS,
    UPPER,
    Box,
    Fill,
    Filled,
    GameOver,
    IllegalMove,
    Scorecard,
    Throw,
    YamsAction,
    YamsSettings,
    YamsState,
)


def table(*names: str) -> YamsSettings:
    return YamsSettings(tuple(Seat(name) for name in names))


def play(state: YamsState, actions: Iterable[YamsAction]) -> YamsState:
    for action in actions:
        state = state.apply(action)
    return state


def round_of(seat: int, dice: tuple[int, ...], box: Box) -> list[YamsAction]:
    """One throw of five dice, written in ``box``."""
    return [Throw(seat, (), dice), Fill(seat, box)]


def test_a_game_starts_with_the_first_seat_and_empty_cards() -> None:
    """docs/rules.md: round 1, three throws to come, nothing thrown yet."""
    state = YamsState.start(table("Ali", "Ayşe"))
    assert state.cards == (Scorecard(), Scorecard())
    assert (state.seat, state.throws, state.throws_left, state.round) == (0, 0, 3, 1)
    assert state.dice == ()
    assert state.options == {}
    assert not state.must_sacrifice
    assert not state.is_over
    assert state.winners == ()
    assert (ROUNDS, THROWS) == (13, 3)


def test_states_are_immutable_values() -> None:
    """docs/architecture.md: value types are frozen; a state is equal to an equal state."""
    state = YamsState.start(table("Ali"))
    with pytest.raises(FrozenInstanceError):
        state.seat = 1  # type: ignore[misc]
    assert state == YamsState.start(table("Ali"))
    assert hash(state) == hash(YamsState.start(table("Ali")))


def test_keeping_dice_and_throwing_the_others_twice() -> None:
    """docs/rules.md: throw all five, then keep any dice and throw the others, twice at most."""
    state = play(YamsState.start(table("Ali")), [Throw(0, (), (1, 1, 3, 4, 6))])
    assert (state.dice, state.throws, state.throws_left) == ((1, 1, 3, 4, 6), 1, 2)
    assert state.options == Scorecard().options((1, 1, 3, 4, 6))
    state = state.apply(Throw(0, (0, 1), (1, 2, 1)))
    assert (state.dice, state.throws) == ((1, 1, 1, 2, 1), 2)
    state = state.apply(Throw(0, (4, 0, 2, 1), (1,)))
    assert (state.dice, state.throws, state.throws_left) == ((1, 1, 1, 1, 1), 3, 0)
    state = state.apply(Fill(0, Box.PENTA))
    assert state.events == (Filled(0, Box.PENTA, 50, 0, False),)
    assert state.cards[0].total == 50
    assert (state.throws, state.dice, state.round) == (0, (), 2)


def test_a_round_may_end_after_the_first_throw() -> None:
    """docs/rules.md: after any throw, from the first on, the player may confirm the round."""
    log = round_of(0, (2, 2, 3, 3, 3), Box.FULL_HOUSE)
    state = play(YamsState.start(table("Ali", "Ayşe")), log)
    assert state.cards[0][Box.FULL_HOUSE] == 25
    assert state.events == (Filled(0, Box.FULL_HOUSE, 25, 0, False),)
    assert (state.seat, state.throws, state.dice) == (1, 0, ())


def test_a_sacrifice_is_a_legal_move() -> None:
    """docs/rules.md: any empty box may take any throw; it scores 0 and the box is spent."""
    state = play(YamsState.start(table("Ali")), round_of(0, (1, 1, 3, 4, 6), Box.LARGE_STRAIGHT))
    assert state.cards[0][Box.LARGE_STRAIGHT] == 0
    assert state.events == (Filled(0, Box.LARGE_STRAIGHT, 0, 0, False),)


def test_must_sacrifice_when_no_open_box_scores() -> None:
    """Seed 000: 1,1,3,4,6 where only zero-scoring boxes are open: "birini feda etmek gerekiyor"."""
    scoring = [Box.ONES, Box.THREES, Box.FOURS, Box.SIXES, Box.CHANCE]
    log = [a for box in scoring for a in round_of(0, (1, 1, 3, 4, 6), box)]
    state = play(YamsState.start(table("Ali")), [*log, Throw(0, (), (1, 1, 3, 4, 6))])
    assert set(state.options) == set(Box) - set(scoring)
    assert set(state.options.values()) == {0}
    assert state.must_sacrifice
    # One box is spent; the round goes on.
    state = state.apply(Fill(0, Box.FULL_HOUSE))
    assert state.cards[0][Box.FULL_HOUSE] == 0
    assert not state.must_sacrifice


def test_no_sacrifice_when_the_jokers_penta_still_earns_the_bonus() -> None:
    """Y-3, the Joker's third case: Penta 50, Fours and every lower box filled; 4,4,4,4,4 goes
    in an open upper box for 0, but earns the +100: no sacrifice message."""
    card = Scorecard().fill(Box.PENTA, (2, 2, 2, 2, 2)).fill(Box.FOURS, (4, 4, 1, 2, 3))
    for box in LOWER:
        if card[box] is None:
            card = card.fill(box, (1, 2, 3, 5, 6))
    state = YamsState(table("Ali"), cards=(card,), throws=1, dice=(4, 4, 4, 4, 4))
    assert set(state.options.values()) == {0}
    assert not state.must_sacrifice
    assert state.apply(Fill(0, Box.ONES)).events[0] == Filled(0, Box.ONES, 0, 100, False)


def test_no_sacrifice_is_needed_while_a_box_scores() -> None:
    """Y-1 on an empty card: Chance scores 15."""
    state = YamsState.start(table("Ali")).apply(Throw(0, (), (1, 1, 3, 4, 6)))
    assert not state.must_sacrifice


def test_the_upper_bonus_is_announced_when_reached() -> None:
    """Y-6: three of each face makes 63: the Filled event says the bonus is reached."""
    log: list[YamsAction] = []
    for face, box in zip(range(1, 7), UPPER, strict=True):
        others = tuple(other for other in range(1, 7) if other != face)[:2]
        log += round_of(0, (face, face, face, *others), box)
    state = play(YamsState.start(table("Ali")), log)
    assert state.events == (Filled(0, Box.SIXES, 18, 0, True),)
    assert state.cards[0].upper_bonus == 35


def test_the_penta_bonus_and_the_joker_in_a_game() -> None:
    """Y-2 and Y-3 in play: the Joker forces Fours, then the lower boxes; +100 each time."""
    penta = (4, 4, 4, 4, 4)
    state = play(YamsState.start(table("Ali", "Ayşe")), round_of(0, penta, Box.PENTA))
    state = play(state, round_of(1, (1, 2, 3, 4, 5), Box.CHANCE))
    state = state.apply(Throw(0, (), penta))
    assert state.options == {Box.FOURS: 20}
    err = refuse(state, Fill(0, Box.FULL_HOUSE))
    assert isinstance(err, IllegalMove)
    assert err.reason == "joker-forced"
    state = state.apply(Fill(0, Box.FOURS))
    assert state.events == (Filled(0, Box.FOURS, 20, 100, False),)
    state = play(state, round_of(1, (1, 2, 3, 4, 6), Box.SMALL_STRAIGHT))
    # Fours filled: a Penta kept over three throws goes in a lower box as the Joker.
    state = play(state, [Throw(0, (), (4, 4, 1, 2, 3)), Throw(0, (0, 1), (4, 4, 4))])
    assert state.dice == penta
    assert set(state.options) == set(LOWER) - {Box.PENTA}
    state = state.apply(Fill(0, Box.LARGE_STRAIGHT))
    assert state.events == (Filled(0, Box.LARGE_STRAIGHT, 40, 100, False),)
    assert state.cards[0].total == 50 + 20 + 40 + 200
    assert state.cards[1].total == 15 + 30


def test_a_penta_box_sacrificed_gives_no_bonus_in_a_game() -> None:
    """Y-5 in play: Penta 0, then 4,4,4,4,4 is an ordinary throw."""
    state = play(YamsState.start(table("Ali")), round_of(0, (1, 2, 3, 4, 6), Box.PENTA))
    state = state.apply(Throw(0, (), (4, 4, 4, 4, 4)))
    assert state.options[Box.LARGE_STRAIGHT] == 0
    state = state.apply(Fill(0, Box.CHANCE))
    assert state.events == (Filled(0, Box.CHANCE, 20, 0, False),)


# Thirteen rounds for every player.


def full_game(seats: int, dice_for: tuple[tuple[int, ...], ...]) -> list[YamsAction]:
    """Each seat fills the boxes in order, seat ``s`` always throwing ``dice_for[s]``."""
    return [a for box in Box for seat in range(seats) for a in round_of(seat, dice_for[seat], box)]


def test_a_game_ends_when_every_player_has_played_thirteen_rounds() -> None:
    """docs/rules.md: end when every player has played 13 rounds; highest total wins."""
    log = full_game(2, ((1, 2, 3, 4, 5), (6, 6, 6, 6, 6)))
    state = YamsState.start(table("Ali", "Ayşe"))
    for i, action in enumerate(log[:-1]):
        state = state.apply(action)
        if isinstance(action, Fill):
            assert state.round == min(ROUNDS, i // 4 + 1 + (action.seat == 1))
    assert not state.is_over
    assert state.cards[0].is_complete
    assert state.cards[1].open_boxes == (Box.PENTA,)
    state = state.apply(log[-1])
    assert state.is_over
    # Sixes, Three and Four of a kind, Chance 30 each; Penta 50 (filled last: no +100 before).
    assert state.cards[1].total == 30 + 30 + 30 + 30 + 50
    assert state.cards[0].total == 1 + 2 + 3 + 4 + 5 + 30 + 40 + 15
    assert state.events == (Filled(1, Box.PENTA, 50, 0, False), GameOver((1,)))
    assert state.winners == (1,)
    assert state.throws_left == 0
    assert state.options == {}


def test_equal_totals_share_the_win() -> None:
    """docs/rules.md: equal totals share the win."""
    log = full_game(3, ((1, 2, 3, 4, 5), (2, 2, 2, 2, 2), (5, 4, 3, 2, 1)))
    state = play(YamsState.start(table("Ali", "Ayşe", "Can")), log)
    assert state.is_over
    assert state.winners == (0, 2)
    assert state.events[-1] == GameOver((0, 2))


def test_a_one_player_game_lasts_thirteen_rounds() -> None:
    """docs/rules.md: 13 rounds, one box filled each round."""
    state = play(YamsState.start(table("Ali")), full_game(1, ((3, 3, 3, 2, 2),)))
    assert state.is_over
    assert state.cards[0].is_complete
    assert state.winners == (0,)


# Refused actions: an IllegalAction with a reason, and the state unchanged.


START: list[YamsAction] = []
ONCE = [Throw(0, (), (1, 1, 3, 4, 6))]
THRICE = [*ONCE, Throw(0, (0,), (1, 1, 1, 1)), Throw(0, (0, 1), (1, 1, 1))]
CHANCE_FILLED = [*round_of(0, (1, 1, 3, 4, 6), Box.CHANCE), *round_of(1, (1, 2, 3, 4, 5), Box.ONES)]


@pytest.mark.parametrize(
    ("log", "action", "reason"),
    [
        pytest.param(START, Throw(1, (), (1,) * 5), "not-your-turn", id="out-of-turn"),
        pytest.param(START, Throw(2, (), (1,) * 5), "not-your-turn", id="no-such-seat"),
        pytest.param(START, Throw(-1, (), (1,) * 5), "not-your-turn", id="negative-seat"),
        pytest.param(ONCE, Fill(1, Box.CHANCE), "not-your-turn", id="out-of-turn-fill"),
        pytest.param(THRICE, Throw(0, (), (1,) * 5), "no-throws-left", id="fourth-throw"),
        pytest.param(THRICE, Throw(0, (0, 1, 2, 3, 4), ()), "no-throws-left", id="fourth-keep-all"),
        pytest.param(START, Throw(0, (0,), (1,) * 4), "keep-before-throw", id="keep-first"),
        pytest.param(
            CHANCE_FILLED, Throw(0, (0, 1), (1,) * 3), "keep-before-throw", id="keep-new-round"
        ),
        pytest.param(ONCE, Throw(0, (5,), (1,) * 4), "no-such-die", id="keep-position-5"),
        pytest.param(ONCE, Throw(0, (-1,), (1,) * 4), "no-such-die", id="keep-position-minus-1"),
        pytest.param(ONCE, Throw(0, (1, 1), (1,) * 3), "die-twice", id="keep-twice"),
        pytest.param(START, Fill(0, Box.CHANCE), "throw-first", id="fill-before-throw"),
        pytest.param(
            CHANCE_FILLED, Fill(0, Box.CHANCE), "throw-first", id="fill-before-throw-again"
        ),
        pytest.param(
            [*CHANCE_FILLED, *ONCE], Fill(0, Box.CHANCE), "box-filled", id="box-already-filled"
        ),
        pytest.param(ONCE, Fill(0, "CHANCE"), "no-such-box", id="not-a-box"),
    ],
)
def test_an_illegal_action_is_refused_and_changes_nothing(
    log: list[YamsAction], action: YamsAction, reason: str
) -> None:
    """docs/rules.md: each refused action, its reason, the state unchanged."""
    state = play(YamsState.start(table("Ali", "Ayşe")), log)
    assert refuse(state, action).reason == reason


def test_a_box_already_filled_is_an_illegal_move() -> None:
    """docs/rules.md: each box is filled exactly once."""
    state = play(YamsState.start(table("Ali", "Ayşe")), [*CHANCE_FILLED, *ONCE])
    err = refuse(state, Fill(0, Box.CHANCE))
    assert isinstance(err, IllegalMove)
    assert "CHANCE" in str(err)


@pytest.mark.parametrize(
    ("log", "keep", "dice"),
    [
        pytest.param(START, (), (0, 1, 1, 1, 1), id="face-0"),
        pytest.param(START, (), (1, 1, 7, 1, 1), id="face-7"),
        pytest.param(START, (), (1, 1, 1, 1, True), id="face-True"),
        pytest.param(START, (), (1, 1, 1, 1), id="four-dice"),
        pytest.param(START, (), (1,) * 6, id="six-dice"),
        pytest.param(START, (), (), id="no-dice"),
        pytest.param(ONCE, (0, 1), (1,) * 2, id="two-dice-keeping-two"),
        pytest.param(ONCE, (0, 1), (1,) * 5, id="five-dice-keeping-two"),
        pytest.param(ONCE, (0, 1), (1, 9, 1), id="face-9-keeping-two"),
    ],
)
def test_a_throw_of_bad_dice_is_an_illegal_action(
    log: list[YamsAction], keep: tuple[int, ...], dice: tuple[int, ...]
) -> None:
    """docs/contract.md: dice outside 1..6 or the wrong count are refused, state unchanged."""
    state = play(YamsState.start(table("Ali", "Ayşe")), log)
    refuse(state, Throw(0, keep, dice))


def test_acting_after_the_end_is_refused() -> None:
    """Once every card is complete, every action is refused."""
    state = play(YamsState.start(table("Ali")), full_game(1, ((1, 2, 3, 4, 5),)))
    assert state.is_over
    for action in [Throw(0, (), (1,) * 5), Fill(0, Box.CHANCE), Throw(1, (), (1,) * 5)]:
        assert refuse(state, action).reason == "game-over"


def test_replaying_the_log_gives_the_same_state() -> None:
    """docs/architecture.md: a game is its settings and its log."""
    settings = table("Ali", "Ayşe")
    log = [*CHANCE_FILLED, *THRICE, Fill(0, Box.PENTA), Throw(1, (), (2, 2, 2, 3, 3))]
    assert YamsState.replay(settings, log) == play(YamsState.start(settings), log)
    assert YamsState.replay(settings, log).cards[0].penta == 50
    assert YamsState.replay(settings, []) == YamsState.start(settings)
