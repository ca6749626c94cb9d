"""The tables and compiled code a game asks for, made ready in the caches before it asks:
``zar warm`` (``make run`` runs it before serving), and ``zar serve`` in a process of its
own as it starts (the same :data:`STEPS`), so that a first game on a fresh machine never
waits for them and no request waits on the interpreter's lock while they are made.

Each step reads what the cache holds (a second or less) or builds it (numba compiles its
code into its own cache, the tables go to :func:`zar.ai.cache.cache_dir`), and makes one
decision with it, so that the code a decision runs is compiled and kept too. Both caches
serve every process: a table's file is written whole or not at all (a temporary file
renamed), and numba's compiled code is read by any process of the same source.

While another process makes steps ready for this one (:data:`zar.ai.ahead.ahead`),
whatever would build what a step makes waits for that step instead, then reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection

from zar import farkle, yams
from zar.ai import ahead
from zar.table import Seat
from zar.yams import Rules

__all__ = [
    "FARKLE_TURN",
    "STEPS",
    "YAMS_CHANCES",
    "YAMS_STRATEGY",
    "Step",
    "ahead_of",
    "farkle_duel",
    "farkle_turn",
    "table_of_two",
    "warm",
    "yams_chances",
    "yams_strategy",
    "yams_strategy_kept",
    "yams_strategy_of",
]


@dataclass(frozen=True)
class Step:
    """One thing made ready: what it is, in words (which names it), and how."""

    what: str
    run: Callable[[], object] = field(compare=False)


def yams_strategy(rules: Rules = Rules.STANDARD) -> None:
    """The optimal Yams strategy of ``rules`` (the `expert` computer, the coach alone), and
    a decision."""
    from zar.ai import computer_player

    player = computer_player("yams", "expert", rules.value)
    thrown = _yams_thrown(1, rules)
    player.keep(thrown)
    player.box(thrown)


def _yams_thrown(people: int, rules: Rules = Rules.STANDARD) -> yams.YamsState:
    seats = tuple(Seat(f"P{n}") for n in range(people))
    start = yams.YamsState.start(yams.YamsSettings(seats, rules))
    return start.apply(yams.Throw(0, (), (1, 2, 3, 5, 5)))


def yams_strategy_kept(rules: Rules = Rules.STANDARD) -> bool:
    """Whether the cache holds the optimal Yams strategy of ``rules`` already (read in a
    second)."""
    from zar.ai import cache
    from zar.ai.yams import CACHE_NAME, Strategy

    return cache.cache_path(CACHE_NAME, Strategy.key(rules)).exists()


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


def farkle_duel(target: int = 10_000, rules: farkle.FarkleRules = farkle.SEED) -> None:
    """The 10 000 table of two to ``target`` under ``rules`` (the `expert` computer, the
    coach of two), and a decision with it."""
    from zar.ai import computer_player

    seats = (Seat("P0"), Seat("P1"))
    settings = farkle.FarkleSettings(seats, target=target, rules=rules)
    state = farkle.FarkleState.start(settings)
    thrown = state.apply(farkle.Throw(0, (1, 5, 2, 3, 4, 6)))
    computer_player("10000", "expert").set_aside(thrown)


def table_of_two(target: int, rules: farkle.FarkleRules = farkle.SEED) -> Step:
    """The step that makes the 10 000 table of two to ``target`` under ``rules`` ready
    (:data:`STEPS` has the seeds' to the default target; a game to another, or under other
    house rules, builds its own when it starts)."""
    return Step(ahead.table_of_two(target, rules.name), partial(farkle_duel, target, rules))


def yams_strategy_of(rules: Rules) -> Step:
    """The step that makes the optimal Yams strategy of ``rules`` ready (:data:`STEPS` has
    ours; a game under other house rules builds its own when it starts)."""
    return Step(ahead.yams_strategy_of(rules.value), partial(yams_strategy, rules))


YAMS_STRATEGY = yams_strategy_of(Rules.STANDARD)
YAMS_CHANCES = Step(ahead.YAMS_CHANCES, yams_chances)
FARKLE_TURN = Step(ahead.FARKLE_TURN, farkle_turn)
# The order is the wait of a game that asks for a step meanwhile: the Yams table first (the
# computer's first turn), the 10 000 ones (seconds), then the coach's chances (minutes on a
# fresh machine, and a hint does not wait for them).
STEPS = (YAMS_STRATEGY, FARKLE_TURN, table_of_two(10_000), YAMS_CHANCES)


def warm(told: Callable[[Step], object] = lambda step: None, steps: Iterable[Step] = STEPS) -> None:
    """Make every step ready, in order; ``told`` hears of each as it begins."""
    for step in steps:
        told(step)
        step.run()


def ahead_of(steps: tuple[Step, ...], done: Connection) -> None:
    """Make ``steps`` ready for another process, in order (in a process of their own),
    sending each one's words on ``done`` once it is; one that fails is said on standard
    error and left to the game that asks for it, the others made all the same."""
    import sys

    for step in steps:
        try:
            step.run()
        except Exception as error:  # the game that asks for it builds it then
            print(f"zar: {step.what} was not readied ahead: {error!r}", file=sys.stderr, flush=True)
        done.send(step.what)
