"""What a computer player is, for each game, and the levels a seat may play at.

A player only decides; :func:`zar.ai.turns.next_action` turns its decisions into the
actions the engine applies, with the dice drawn from a source.

>>> computer_player("yams", "easy")
GreedyPlayer()
>>> levels("yams", "scandinavian")
('expert', 'win')
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Generic, Literal, Protocol, TypeVar, overload, runtime_checkable

from zar.ai.farkle_seed import ThresholdPlayer
from zar.ai.yams_greedy import GreedyPlayer
from zar.farkle import PRESETS
from zar.farkle.game import FarkleState
from zar.record import yams_rules
from zar.yams.game import YamsState
from zar.yams.scorecard import AnyBox, Rules

if TYPE_CHECKING:
    from zar.ai.yams import Strategy

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "FarklePlayer",
    "Loaded",
    "YamsPlayer",
    "computer_player",
    "levels",
    "yams_strategy_after",
]


@runtime_checkable
class YamsPlayer(Protocol):
    """A computer that plays Yams."""

    def keep(self, state: YamsState) -> tuple[int, ...] | None:
        """After the first or second throw: the positions (0..4) of the dice to keep
        before throwing the others again, or None to stop and write the dice."""
        ...

    def box(self, state: YamsState) -> AnyBox:
        """The box to write ``state.dice`` in: a key of ``state.options``."""
        ...


@runtime_checkable
class FarklePlayer(Protocol):
    """A computer that plays 10 000."""

    def set_aside(self, state: FarkleState) -> tuple[int, ...]:
        """In ``Phase.SET_ASIDE``: the tray positions (0..5) to set aside, a legal selection."""
        ...

    def banks(self, state: FarkleState) -> bool:
        """In ``Phase.THROW`` with points in the turn: bank now (True) or throw again."""
        ...


# The levels each game offers ("yams", "10000" as in the new-game dialog), easiest first.
LEVELS: dict[str, tuple[str, ...]] = {
    "yams": ("easy", "expert", "win"),
    "10000": ("seed", "max-points", "expert"),
}
# Yams: the optimal player (it also writes the third throw when the timer runs out), its
# level ``win`` the same tables played for the chance of winning against the other seats;
# 10 000: the seed's threshold bot, the "IA" the original app describes.
DEFAULT_LEVEL: dict[str, str] = {"yams": "expert", "10000": "seed"}


def levels(game: str, rules: str | None = None, target: int = 10_000) -> tuple[str, ...]:
    """The levels a computer plays ``game`` at under the house rules named ``rules`` (None:
    the seeds'), in 10 000 to ``target``. Under Yams rules other than ours, the optimal
    player and the play-to-win one; not the easy one, which knows our card's table only."""
    if game == "yams" and rules not in (None, Rules.STANDARD.value):
        return ("expert", "win")
    if game == "10000" and rules is not None and PRESETS[rules].three_lost:
        from zar.ai.farkle import WinStrategy  # numpy: only under a penalty preset

        # Its chance of winning takes tens of minutes to solve (zar serve builds it in the
        # background): the expert is offered once the target's table is in the cache.
        if not WinStrategy.at_hand(target, PRESETS[rules]):
            return ("seed", "max-points")
    return LEVELS[game]


@overload
def computer_player(
    game: Literal["yams"], level: str | None = None, rules: str | None = None
) -> YamsPlayer: ...
@overload
def computer_player(
    game: Literal["10000"], level: str | None = None, rules: str | None = None
) -> FarklePlayer: ...
@overload
def computer_player(
    game: str, level: str | None = None, rules: str | None = None
) -> YamsPlayer | FarklePlayer: ...
def computer_player(
    game: str, level: str | None = None, rules: str | None = None
) -> YamsPlayer | FarklePlayer:
    """The computer player of ``game`` ("yams" or "10000") at ``level`` (None: the default)
    under the house rules named ``rules`` (None: the seeds').

    Raises ``ValueError`` naming the games or levels there are.
    """
    if game not in LEVELS:
        raise ValueError(f"there is no game {game!r}: choose {_words(LEVELS)}")
    chosen = DEFAULT_LEVEL[game] if level is None else level
    # Yams' levels are those of its card; in 10 000 each plays under every preset (the
    # expert for points where its table of a penalty preset is not at hand: a game started
    # with it, its cache gone since, plays on), the new games' offer aside (``levels``).
    offered = levels(game, rules) if game == "yams" else LEVELS[game]
    if chosen not in offered:
        under = "" if rules is None else f" under the rules {rules}"
        raise ValueError(f"{game} has no level {chosen!r}{under}: choose {_words(offered)}")
    # The optimal levels need numpy and numba: imported here, so that `import zar.ai` doesn't.
    match game, chosen:
        case "yams", "easy":
            return GreedyPlayer()
        case "yams", "expert":
            from zar.ai.yams import OptimalPlayer

            return OptimalPlayer(_yams_strategy(yams_rules(rules)))
        case "yams", "win":
            from zar.ai.yams_win import WinPlayer

            return WinPlayer(_yams_strategy(yams_rules(rules)))
        case "10000", "seed":
            return ThresholdPlayer()
        case "10000", "max-points":
            from zar.ai.farkle import MaxPointsPlayer

            return MaxPointsPlayer()
        case "10000", "expert":
            from zar.ai.farkle import ExpertPlayer

            return ExpertPlayer()
    raise AssertionError(f"level {chosen!r} of {game} is listed but not built")


T = TypeVar("T")


class Loaded(Generic[T]):
    """A value loaded once per process, on first use: the threads asking for it meanwhile
    wait for that one load rather than each making one."""

    def __init__(self, load: Callable[[], T]) -> None:
        self._load = load
        self._lock = threading.Lock()
        self._value: T | None = None

    def get(self) -> T:
        """The value, loaded now if it is not yet."""
        with self._lock:
            return self._loaded()

    def after(self, built: Callable[[], object]) -> T:
        """The value, loaded once ``built()`` returns (another process making it ready
        meanwhile): a thread asking for it in between waits for this load."""
        with self._lock:
            built()
            return self._loaded()

    def _loaded(self) -> T:
        if self._value is None:
            self._value = self._load()
        return self._value


def _load_yams(rules: Rules) -> Callable[[], Strategy]:
    def load() -> Strategy:
        from zar.ai.yams import Strategy

        return Strategy.load(rules)

    return load


# The process's one optimal Yams strategy of each rules.
_yams = {rules: Loaded(_load_yams(rules)) for rules in Rules}


def _yams_strategy(rules: Rules = Rules.STANDARD) -> Strategy:
    """The optimal Yams strategy of ``rules``, loaded (or built) once per process; when
    another process makes it ready, read once that one has."""
    from zar.ai.ahead import ahead, yams_strategy_of

    ahead.wait(yams_strategy_of(rules.value))
    return _yams[rules].get()


def yams_strategy_after(built: Callable[[], object], rules: Rules = Rules.STANDARD) -> None:
    """Load the optimal Yams strategy of ``rules`` once ``built()`` returns (another process
    building it into the cache meanwhile): a thread asking for it in between waits for it,
    rather than building one of its own (and holding the interpreter's lock while it does)."""
    _yams[rules].after(built)


def _words(names: Iterable[str]) -> str:
    """The names as a sentence reads them: 'a', 'b' or 'c'."""
    quoted = [repr(name) for name in names]
    return " or ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)
