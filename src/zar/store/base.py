"""The store's contract: what the server needs of a store, its errors, and what it lists."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from zar.record import Action, Record

__all__ = [
    "Conflict",
    "GameSummary",
    "Store",
    "StoreUnavailable",
    "UnknownGame",
    "UnusableStore",
    "default_db_path",
]


class Conflict(Exception):
    """The game has moved on since the version the action was made for."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the game is at version {version}")
        self.version = version


class UnknownGame(KeyError):
    """No game has this id."""


class StoreUnavailable(Exception):
    """A read or a write could not be done (disk full, read-only, database out of reach).

    Nothing already stored is lost, and a refused write left nothing behind; trying again
    later may work. ``writing`` says whether it was a write.
    """

    def __init__(self, message: str, *, writing: bool) -> None:
        super().__init__(message)
        self.writing = writing


class UnusableStore(Exception):
    """The database cannot be opened: damaged, written by a newer Zar, or out of reach.

    Its message names the database, for one line on a terminal.
    """


@dataclass(frozen=True)
class GameSummary:
    """What the home screen and the history list show of a game."""

    id: str
    kind: str
    created_at: str
    updated_at: str
    version: int
    finished: bool
    summary: Mapping[str, Any]


class Store(Protocol):
    """What the server needs of a store; every method may raise :class:`StoreUnavailable`."""

    @property
    def name(self) -> str:
        """Where the games are, for people: a file, or a server and database (no password)."""
        ...

    def create(
        self, game_id: str, record: Record, now: str, summary: Mapping[str, Any]
    ) -> None: ...

    def append(
        self,
        game_id: str,
        expected_version: int,
        actions: list[Action],
        now: str,
        *,
        finished: bool,
        summary: Mapping[str, Any],
    ) -> int:
        """Add ``actions`` after ``expected_version``, all or none; returns the new version.
        An :class:`~zar.record.Abandon` among them marks the game abandoned (derived from
        the log, so the mark never disagrees with it), and no list shows it again.

        Raises :class:`Conflict` (the game is at another version) or :class:`UnknownGame`.
        """
        ...

    def load(self, game_id: str) -> Record:
        """The game's record, replayed from its log; raises :class:`UnknownGame`."""
        ...

    def times(self, game_id: str) -> list[str]:
        """When each action of the log was stored, in order; raises :class:`UnknownGame`."""
        ...

    def games(
        self,
        *,
        finished: bool | None = None,
        kind: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameSummary]:
        """The latest games first, never an abandoned one (kept, but out of every list and
        of the statistics); only finished or unfinished ones, or of one kind, if asked;
        ``limit`` of them after the first ``offset``, page by page."""
        ...

    def watch(self, changed: Callable[[str | None, int], None]) -> Callable[[], None]:
        """Call ``changed(game_id, version)`` (from another thread) for each append that other
        processes commit; ``changed(None, 0)`` when some may have been missed. Returns the
        function that stops watching. A store only one process uses never calls it."""
        ...

    def close(self) -> None: ...


def default_db_path() -> Path:
    """``$ZAR_DB`` when set, else ``zar.sqlite3`` in the user's data folder."""
    explicit = os.environ.get("ZAR_DB")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "zar" / "zar.sqlite3"
