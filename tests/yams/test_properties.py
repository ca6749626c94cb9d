"""Whole games of Yams under random play (docs/architecture.md: property tests for whole games).

Hypothesis draws the dice (a Penta now and then, so that the Joker and the +100 come
up), which dice to keep, and the box among those the rules allow.
"""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from support import WHOLE_GAMES, seatings, try_illegal
from zar.table import winners
from zar.yams import (
    LOWER,
    UPPER,
    Box,
    Fill,
    Filled,
    GameOver,
    Scorecard,
    Throw,
    YamsAction,
    YamsSettings,
    YamsState,
)

GAMES = WHOLE_GAMES


@st.composite
def tables(draw: st.DrawFn) -> YamsSettings:
    """One to six seats, people and computers mixed."""
    seats = draw(seatings())
    return YamsSettings(seats)


def dice(n: int) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(1, 6), min_size=n, max_size=n).map(tuple)


def first_throw(data: st.DataObject) -> tuple[int, ...]:
    """Five dice; one throw in eight is a Penta."""
    if data.draw(st.integers(0, 7), label="penta if 7") == 7:
        return (data.draw(st.integers(1, 6), label="penta face"),) * 5
    return data.draw(dice(5), label="dice")


def legal_action(data: st.DataObject, state: YamsState) -> YamsAction:
    """A random legal action: throw (up to three times a round) or write the dice in a box."""
    seat = state.seat
    if not state.dice:
        return Throw(seat, (), first_throw(data))
    if state.throws_left and data.draw(st.integers(0, 2), label="throw again if 2") == 2:
        keep = tuple(sorted(data.draw(st.sets(st.integers(0, 4)), label="keep")))
        return Throw(seat, keep, data.draw(dice(5 - len(keep)), label="dice"))
    check_options(state)
    options = sorted(state.options, key=lambda box: box.value)
    return Fill(seat, options[data.draw(st.integers(0, len(options) - 1), label="box")])


def check_options(state: YamsState) -> None:
    """The Joker in play: a Penta on a card whose Penta box holds 50 (docs/rules.md)."""
    card, throw = state.card, state.dice
    assert state.options == card.options(throw)
    bonus = card.earns_penta_bonus(throw)
    assert state.must_sacrifice == (not any(state.options.values()) and not bonus)
    if len(set(throw)) == 1 and card.penta == 50:
        face_box = UPPER[throw[0] - 1]
        if card[face_box] is None:
            assert list(state.options) == [face_box]
        elif any(card[box] is None for box in LOWER):
            assert set(state.options) == {box for box in LOWER if card[box] is None}
        else:
            assert set(state.options.values()) == {0}


def play(
    data: st.DataObject, game: YamsSettings, *, junk: bool = False
) -> tuple[list[YamsState], list[YamsAction]]:
    """Every state of one game of random legal play, the first to the last, and its log."""
    states = [YamsState.start(game)]
    log: list[YamsAction] = []
    # Thirteen rounds of at most three throws for each seat: the bound is the property.
    for _ in range(13 * len(game.seats) * 4):
        state = states[-1]
        if state.is_over:
            return states, log
        if junk and data.draw(st.integers(0, 3), label="try junk if 0") == 0:
            try_illegal(state, junk_action(data, state))
        action = legal_action(data, state)
        states.append(state.apply(action))
        log.append(action)
    raise AssertionError("no end after thirteen rounds for every player")


def parts(card: Scorecard) -> int:
    """docs/rules.md: total = upper + upper bonus + lower + Penta bonuses."""
    upper = sum(card[box] or 0 for box in UPPER)
    lower = sum(card[box] or 0 for box in LOWER)
    return upper + (35 if upper >= 63 else 0) + lower + card.penta_bonus


@GAMES
@given(data=st.data(), game=tables())
def test_random_legal_play_ends_after_thirteen_rounds_for_every_player(
    data: st.DataObject, game: YamsSettings
) -> None:
    """docs/rules.md: the game ends when every player has played 13 rounds."""
    states, log = play(data, game)
    final = states[-1]
    assert final.is_over
    assert all(card.is_complete for card in final.cards)
    filled = [event for state in states for event in state.events if isinstance(event, Filled)]
    n = len(game.seats)
    # Seats take their rounds in turn: seat 0, 1, ..., n - 1, thirteen times over.
    assert [event.seat for event in filled] == [i % n for i in range(13 * n)]
    assert Counter((event.seat, event.box) for event in filled) == {
        (seat, box): 1 for seat in range(n) for box in Box
    }
    assert final.events[-1] == GameOver(winners([card.total for card in final.cards]))
    assert final.winners == winners([card.total for card in final.cards])
    assert all(not state.is_over for state in states[:-1])
    # No round has more than three throws.
    assert all(state.throws <= 3 for state in states)
    assert sum(isinstance(action, Fill) for action in log) == 13 * n


@GAMES
@given(data=st.data(), game=tables())
def test_each_total_is_the_sum_of_its_parts(data: st.DataObject, game: YamsSettings) -> None:
    """docs/rules.md: total = upper + upper bonus + lower + Penta bonuses; events tell the same."""
    states, log = play(data, game)
    filled: list[Filled] = []
    for before, action, after in zip(states[:-1], log, states[1:], strict=True):
        if not isinstance(action, Fill):
            continue
        (event,) = [e for e in after.events if isinstance(e, Filled)]
        filled.append(event)
        # The +100 exactly for a Penta written while the Penta box holds 50.
        earns = len(set(before.dice)) == 1 and before.card.penta == 50
        assert event.penta_bonus == (100 if earns else 0)
    for seat, card in enumerate(states[-1].cards):
        assert card.total == parts(card)
        mine = [event for event in filled if event.seat == seat]
        assert {event.box: event.points for event in mine} == {box: card[box] for box in Box}
        assert sum(event.penta_bonus for event in mine) == card.penta_bonus
        assert sum(event.upper_bonus for event in mine) == (card.upper_bonus == 35)


@GAMES
@given(data=st.data(), game=tables())
def test_replaying_the_log_gives_an_equal_state(data: st.DataObject, game: YamsSettings) -> None:
    """docs/architecture.md: a game is its settings and its log; the state is its replay."""
    states, log = play(data, game)
    replayed = YamsState.replay(game, log)
    assert replayed == states[-1]
    assert replayed.events == states[-1].events
    cut = data.draw(st.integers(0, len(log)), label="cut")
    assert YamsState.replay(game, log[:cut]) == states[cut]


def junk_action(data: st.DataObject, state: YamsState) -> YamsAction:
    """Any action at all: the wrong seat, bad dice, bad keeps, a box not allowed."""
    seat = data.draw(st.one_of(st.just(state.seat), st.integers(-1, 7)), label="seat")
    positions = st.lists(st.integers(-1, 5), max_size=6).map(tuple)
    faces = st.lists(st.integers(0, 7), max_size=6).map(tuple)
    return data.draw(
        st.one_of(
            st.builds(Throw, st.just(seat), positions, faces),
            st.builds(Fill, st.just(seat), st.sampled_from(Box)),
        ),
        label="junk",
    )


@settings(GAMES, max_examples=10)
@given(data=st.data(), game=tables())
def test_random_illegal_actions_never_change_the_state(
    data: st.DataObject, game: YamsSettings
) -> None:
    """A refused action is an IllegalAction, and the state it was tried on is unchanged."""
    states, _ = play(data, game, junk=True)
    for _ in range(5):
        try_illegal(states[-1], junk_action(data, states[-1]))
