"""Whole games of 10 000 under random play (docs/architecture.md: property tests for whole games).

Hypothesis draws the dice and picks among the legal actions, leaning toward banking so
that games stay short; the target is 5 000.
"""

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

import zar.farkle
from support import WHOLE_GAMES, seatings, try_illegal
from zar.farkle import (
    DICE,
    Bank,
    Banked,
    FarkleAction,
    FarkleSettings,
    FarkleState,
    GameOver,
    LastRound,
    SetAside,
    Throw,
    TurnLost,
    selections,
)
from zar.table import winners

# A game of six seats at 5 000 takes a few hundred actions; this bound is never reached.
MAX_ACTIONS = 20_000
GAMES = settings(WHOLE_GAMES, max_examples=25)


@st.composite
def tables(draw: st.DrawFn) -> FarkleSettings:
    """One to six seats, people and computers mixed."""
    seats = draw(seatings())
    return FarkleSettings(seats, target=5_000)


def dice(n: int) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(1, 6), min_size=n, max_size=n).map(tuple)


def positions_of(state: FarkleState, faces: tuple[int, ...]) -> tuple[int, ...]:
    """Tray positions, among the dice of the throw just made, showing these faces."""
    free = [p for p in range(DICE) if not state.aside[p]]
    chosen: list[int] = []
    for face in faces:
        chosen.append(next(p for p in free if state.tray[p] == face and p not in chosen))
    return tuple(chosen)


def legal_action(data: st.DataObject, state: FarkleState) -> FarkleAction:
    seat = state.seat
    if state.phase is zar.farkle.Phase.SET_ASIDE:
        options = sorted(selections(state.throw).items(), key=lambda item: (-item[1], item[0]))
        faces, _ = options[data.draw(st.integers(0, len(options) - 1), label="selection")]
        return SetAside(seat, positions_of(state, faces))
    # Bank three times in four (and in the simplest example), so that games stay short.
    if state.can_bank and data.draw(st.integers(0, 3), label="bank unless 3") < 3:
        return Bank(seat)
    return Throw(seat, data.draw(dice(state.dice_in_play), label="dice"))


def junk_action(data: st.DataObject, state: FarkleState) -> FarkleAction:
    """Any action at all: the wrong seat, bad dice, bad positions, at the wrong moment."""
    seat = data.draw(st.one_of(st.just(state.seat), st.integers(-1, 7)), label="seat")
    return data.draw(
        st.one_of(
            st.builds(Throw, st.just(seat), st.lists(st.integers(0, 7), max_size=7).map(tuple)),
            st.builds(SetAside, st.just(seat), st.lists(st.integers(-1, 6), max_size=7).map(tuple)),
            st.just(Bank(seat)),
        ),
        label="junk",
    )


def play(data: st.DataObject, game: FarkleSettings, *, junk: bool = False) -> list[FarkleState]:
    """Every state of one game of random legal play, the first to the last."""
    states = [FarkleState.start(game)]
    for _ in range(MAX_ACTIONS):
        state = states[-1]
        if state.is_over:
            return states
        if junk and data.draw(st.integers(0, 3), label="try junk if 0") == 0:
            try_illegal(state, junk_action(data, state))
        states.append(state.apply(legal_action(data, state)))
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


@GAMES
@given(data=st.data(), game=tables())
def test_random_legal_play_always_ends_once_the_last_round_is_done(
    data: st.DataObject, game: FarkleSettings
) -> None:
    """docs/rules.md: the first to the target starts the last round; each other seat plays once."""
    states = play(data, game)
    n = len(game.seats)
    events = [(i, event) for i, state in enumerate(states) for event in state.events]
    last_rounds = [(i, e) for i, e in events if isinstance(e, LastRound)]
    assert len(last_rounds) == 1
    started_at, started = last_rounds[0]
    # The last round starts with the first bank that reaches the target.
    before = states[started_at - 1].totals
    assert max(before) < game.target <= states[started_at].totals[started.seat]
    assert all(max(s.totals) < game.target for s in states[:started_at])
    # Turns pass in seat order; every other seat finishes exactly one more turn; then it is over.
    ends = [(i, e.seat) for i, e in events if isinstance(e, Banked | TurnLost)]
    assert [seat for _, seat in ends] == [k % n for k in range(len(ends))]
    assert sum(i > started_at for i, _ in ends) == n - 1
    final = states[-1]
    assert final.is_over
    assert final.phase is zar.farkle.Phase.OVER
    assert final.events[-1] == GameOver(winners(final.totals))
    assert final.winners == winners(final.totals)
    assert all(not state.is_over for state in states[:-1])


@GAMES
@given(data=st.data(), game=tables())
def test_each_total_is_the_sum_of_its_banked_turns(
    data: st.DataObject, game: FarkleSettings
) -> None:
    """docs/rules.md: banking adds the turn's points; a lost turn adds nothing."""
    states = play(data, game)
    banked = [0] * len(game.seats)
    for state in states:
        for event in state.events:
            if isinstance(event, Banked):
                banked[event.seat] += event.points
                assert event.points > 0
    assert list(states[-1].totals) == banked
    # Totals never go down.
    for earlier, later in pairwise(states):
        assert all(a <= b for a, b in zip(earlier.totals, later.totals, strict=True))


@GAMES
@given(data=st.data(), game=tables())
def test_replaying_the_log_gives_an_equal_state(data: st.DataObject, game: FarkleSettings) -> None:
    """docs/architecture.md: a game is its settings and its log; the state is its replay."""
    state = FarkleState.start(game)
    log: list[FarkleAction] = []
    while not state.is_over:
        action = legal_action(data, state)
        state = state.apply(action)
        log.append(action)
        if data.draw(st.integers(0, 20), label="replay here if 0") == 0:
            assert FarkleState.replay(game, log) == state
    replayed = FarkleState.replay(game, log)
    assert replayed == state
    assert replayed.events == state.events


@settings(GAMES, max_examples=15)
@given(data=st.data(), game=tables())
def test_random_illegal_actions_never_change_the_state(
    data: st.DataObject, game: FarkleSettings
) -> None:
    """A refused action is an IllegalAction, and the state it was tried on is unchanged."""
    final = play(data, game, junk=True)[-1]
    for _ in range(5):
        try_illegal(final, junk_action(data, final))
