"""What another process is making ready for this one (``zar serve``'s process of tables,
:mod:`zar.ai.warm`), each step by its words: whatever would build what a step makes waits
for that step instead (:meth:`Ahead.wait`), then reads it from the caches.

The loaders (the Yams strategy, the 10 000 tables, the coach's chances) ask here by a
step's words alone, and :mod:`zar.ai.warm`, which runs the steps, reads them: neither
imports the other.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

__all__ = [
    "FARKLE_TURN",
    "YAMS_CHANCES",
    "YAMS_STRATEGY",
    "Ahead",
    "ahead",
    "table_of_two",
    "yams_strategy_of",
]

YAMS_STRATEGY = "Yams: the optimal strategy"
YAMS_CHANCES = "Yams: the coach's chances of winning at a table of two"
FARKLE_TURN = "10 000: the turn's strategy"


def yams_strategy_of(rules: str) -> str:
    """The words of the step that makes the optimal Yams strategy of the rules named
    ``rules`` ready (ours: :data:`YAMS_STRATEGY`)."""
    return YAMS_STRATEGY if rules == "standard" else f"{YAMS_STRATEGY} under the rules {rules}"


def table_of_two(target: int, rules: str | None = None) -> str:
    """The words of the step that makes the 10 000 table of two to ``target`` ready, under
    the house rules named ``rules`` (None: the seeds')."""
    points = f"{target:,}".replace(",", " ")  # 10 000, as the game is named
    under = "" if rules in (None, "seed") else f" under the rules {rules}"
    return f"10 000: the table of two to {points}{under}"


class Ahead:
    """The steps another process is making ready for this one, until it says each is done
    (or ends): one asked for meanwhile is waited for, then read from the caches, rather
    than built here too while that process builds it."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._pending: set[str] = set()

    def expect(self, steps: Iterable[str]) -> tuple[str, ...]:
        """Count ``steps`` as being made elsewhere from now; returns those that were not
        already (a process is to make them)."""
        with self._changed:
            new = tuple(dict.fromkeys(s for s in steps if s not in self._pending))
            self._pending.update(new)
            return new

    def done(self, step: str) -> None:
        """``step`` is ready in the caches (or its process ended without it)."""
        with self._changed:
            self._pending.discard(step)
            self._changed.notify_all()

    def pending(self, step: str) -> bool:
        with self._changed:
            return step in self._pending

    def wait(self, step: str) -> None:
        """Return once ``step`` is not being made elsewhere (at once when it is not)."""
        with self._changed:
            self._changed.wait_for(lambda: step not in self._pending)


ahead = Ahead()  # this process's: what `zar serve`'s process of tables makes for it
