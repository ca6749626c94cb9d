"""The tables and compiled code a game asks for, made ready in the caches before it asks:
``zar warm`` (``make run`` runs it before serving), and ``zar serve`` in a process of its
own as it starts, so that a first game on a fresh machine never waits for them and no
request waits on the interpreter's lock while they are made.

Each step reads what the cache holds (a second or less) or builds it (numba compiles its
code into its own cache, the tables go to :func:`zar.ai.cache.cache_dir`), and makes one
decision with it, so that the code a decision runs is compiled and kept too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from zar import farkle, yams
from zar.table import Seat
from zar.yams import Rules

__all__ = [
    "STEPS",
    "Step",
    "farkle_duel",
    "farkle_turn",
    "warm",
    "yams_chances",
    "yams_strategy",
    "yams_strategy_kept",
]


@dataclass(frozen=True)
class Step:
    """One thing made ready: what it is, in words, and how."""

    what: str
    run: Callable[[], object]


def yams_strategy() -> None:
    """The optimal Yams strategy (the `expert` computer, the coach alone), and a decision."""
    from zar.ai import computer_player

    player = computer_player("yams", "expert")
    thrown = _yams_thrown(1)
    player.keep(thrown)
    player.box(thrown)


def _yams_thrown(people: int) -> yams.YamsState:
    seats = tuple(Seat(f"P{n}") for n in range(people))
    start = yams.YamsState.start(yams.YamsSettings(seats))
    return start.apply(yams.Throw(0, (), (1, 2, 3, 5, 5)))


def yams_strategy_kept() -> bool:
    """Whether the cache holds the optimal Yams strategy already (read in a second)."""
    from zar.ai import cache
    from zar.ai.yams import CACHE_NAME, Strategy

    return cache.cache_path(CACHE_NAME, Strategy.key(Rules.STANDARD)).exists()


def yams_chances() -> None:
    """The coach's options alone and at a table of two, its chances of winning (the laws of
    the last rounds, their calibration), and the play-to-win computer's decisions."""
    from zar.ai import computer_player
    from zar.ai.judging import Strategies, yams_options
    from zar.ai.yams_win import calibration, late_laws

    strategy = Strategies().yams()
    yams_options(strategy, _yams_thrown(1))
    late_laws(strategy)
    calibration(strategy)
    duel = _yams_thrown(2)
    yams_options(strategy, duel, chances=True)
    player = computer_player("yams", "win")
    player.keep(duel)
    player.box(duel)


def farkle_turn() -> None:
    """The 10 000 turn's strategy (the coach, the `max-points` computer)."""
    from zar.ai import computer_player

    seats = (Seat("P0"), Seat("P1"))
    state = farkle.FarkleState.start(farkle.FarkleSettings(seats, target=10_000))
    thrown = state.apply(farkle.Throw(0, (1, 5, 2, 3, 4, 6)))
    computer_player("10000", "max-points").set_aside(thrown)


def farkle_duel() -> None:
    """The 10 000 table of two to the default target (the `expert` computer, the coach of
    two), and a decision with it."""
    from zar.ai import computer_player

    seats = (Seat("P0"), Seat("P1"))
    state = farkle.FarkleState.start(farkle.FarkleSettings(seats, target=10_000))
    thrown = state.apply(farkle.Throw(0, (1, 5, 2, 3, 4, 6)))
    computer_player("10000", "expert").set_aside(thrown)


STEPS = (
    Step("Yams: the optimal strategy", yams_strategy),
    Step("Yams: the coach's chances of winning at a table of two", yams_chances),
    Step("10 000: the turn's strategy", farkle_turn),
    Step("10 000: the table of two to 10 000", farkle_duel),
)


def warm(told: Callable[[Step], object] = lambda step: None) -> None:
    """Make every step ready, in order; ``told`` hears of each as it begins."""
    for step in STEPS:
        told(step)
        step.run()
