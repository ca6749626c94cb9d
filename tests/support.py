"""What the tests of both games share: refusing an action, whole-game settings, tables, and
waiting for what another thread or process does."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from zar.table import IllegalAction, Seat

# Whole games: a few hundred actions each. The explain phase replays a failing game many
# times over: slow, and no clearer here.
WHOLE_GAMES = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
)


@st.composite
def seatings(draw: st.DrawFn) -> tuple[Seat, ...]:
    """One to six seats, people and computers mixed."""
    computers = draw(st.lists(st.booleans(), min_size=1, max_size=6))
    return tuple(
        Seat(f"IA {i}" if computer else f"Oyuncu {i}", computer=computer)
        for i, computer in enumerate(computers)
    )


def refuse(state: Any, action: object) -> IllegalAction:
    """Apply a refused action: an IllegalAction with a message and a reason, the state as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert isinstance(err.value, ValueError)
    assert str(err.value).strip(), "the message says what was wrong"
    assert isinstance(err.value.reason, str)
    assert err.value.reason
    assert state == before
    assert state.events == before.events
    return err.value


def try_illegal(state: Any, action: object) -> None:
    """Try an action that may be refused: if it is, by an IllegalAction with a reason; either
    way the state is left as it was."""
    before = copy.deepcopy(state)
    try:
        state.apply(action)
    except ValueError as err:
        refused: ValueError | None = err
    else:
        refused = None
    assert state == before
    assert state.events == before.events
    if refused is not None:
        assert isinstance(refused, IllegalAction), f"{action!r}: {refused!r}"
        assert refused.reason


def until(done: Callable[[], object], seconds: float = 120.0) -> None:
    """Poll ``done`` until it holds, failing after ``seconds`` (generous: a process to start
    on a busy machine; how fast is never what a test asks)."""
    ends = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < ends, "not done in time"
        time.sleep(0.02)
