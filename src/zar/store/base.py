"""The store's contract: what the server needs of a store, its errors, and what it lists."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from zar.record import Action, Record
from zar.refusal import Refusal
from zar.seating import Seating

__all__ = [
    "AsyncAppender",
    "Busy",
    "Conflict",
    "Device",
    "GameSummary",
    "Invitation",
    "Pruned",
    "Retention",
    "Store",
    "StoreUnavailable",
    "StoredGame",
    "UnknownGame",
    "UnusableStore",
    "default_db_path",
]


class Busy(Exception):
    """A write asked not to wait (``wait=False``) would have had to: another thread or
    process is writing, or the store is a server a round trip away. Nothing was written."""


class Conflict(Refusal):
    """The game has moved on since the version the action was made for (a 409 that says
    which version the game is at)."""

    status = 409

    def __init__(self, version: int) -> None:
        super().__init__("stale-version", words="stale-version", reply={"version": version})
        self.args = (f"the game is at version {version}",)
        self.version = version


class UnknownGame(Refusal, KeyError):
    """No game has this id (a 404)."""

    status = 404

    def __init__(self, game_id: object = "") -> None:
        super().__init__("unknown-game")
        self.args = (game_id,)


class StoreUnavailable(Refusal):
    """A read or a write could not be done (disk full, read-only, database out of reach): a
    503, ``not-saved`` or ``not-read``.

    Nothing already stored is lost, and a refused write left nothing behind; trying again
    later may work. ``writing`` says whether it was a write.
    """

    status = 503

    def __init__(self, message: str, *, writing: bool) -> None:
        super().__init__("not-saved" if writing else "not-read")
        self.args = (message,)
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
    my_turn: bool = False  # it is the turn of a seat the device that asked holds
    hosts: bool = False  # the device that asked hosts the game


@dataclass(frozen=True)
class Invitation:
    """A way into a game, known by its key (the hash of the link's secret) or its short code:
    ``seat`` lets a device make one of the host's seats its own (spent by the first device
    that does), ``watch`` lets any device follow the game."""

    key: str
    code: str | None
    game_id: str
    kind: str  # "seat" or "watch"
    created_at: str
    expires_at: str
    spent_by: str | None = None


@dataclass(frozen=True)
class Device:
    """A device as the store knows it: its key (the hash of its credential, never the
    credential itself), when it was first and last seen."""

    key: str
    created_at: str
    seen_at: str


@dataclass(frozen=True)
class StoredGame:
    """A whole game as kept, for a backup and its restore: the record (as read from a store,
    its log replayed only when its state is asked for), when it was made and when each
    action of its log was stored, who holds its seats (None: a game from before seats had
    holders) and the devices that seating names."""

    id: str
    record: Record
    created_at: str
    times: tuple[str, ...]
    seating: Seating | None = None
    devices: tuple[Device, ...] = ()


@dataclass(frozen=True)
class Retention:
    """Before when each thing goes (ISO 8601 times, as the store keeps them): invitations
    expired before ``expired``, devices last seen before ``unseen``, games abandoned whose
    last change was before ``abandoned`` (None: every abandoned game is kept)."""

    expired: str
    unseen: str
    abandoned: str | None = None


@dataclass(frozen=True)
class Pruned:
    """How many of each went: invitations, devices, their rows as watchers, games."""

    invitations: int = 0
    devices: int = 0
    watchers: int = 0
    games: int = 0

    def __add__(self, other: Pruned) -> Pruned:
        return Pruned(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


class Store(Protocol):
    """What the server needs of a store; every method may raise :class:`StoreUnavailable`."""

    @property
    def name(self) -> str:
        """Where the games are, for people: a file, or a server and database (no password)."""
        ...

    def create(
        self,
        game_id: str,
        record: Record,
        now: str,
        summary: Mapping[str, Any],
        *,
        seating: Seating | None = None,
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
        seating_rev: int | None = None,
        figures: Mapping[str, Any] | None = None,
        wait: bool = True,
    ) -> int:
        """Add ``actions`` after ``expected_version``, all or none; returns the new version.
        An :class:`~zar.record.Abandon` among them marks the game abandoned (derived from
        the log, so the mark never disagrees with it), and no list shows it again. With
        ``seating_rev``, only while the game's seating is still at that revision (the right
        to act was judged on it). ``figures``: the game's part in the statistics, once it
        is over (:func:`zar.history.figures`); kept until an append changes them.

        ``wait=False``: done at once, or not at all (:class:`Busy`), never waiting for
        another writer or a server: so an event loop can commit on its own thread, which
        costs less than a worker thread's handoff, and leave only what would wait to one.

        Raises :class:`Conflict` (the game is at another version, or its seating moved on)
        or :class:`UnknownGame`.
        """
        ...

    def seating(self, game_id: str) -> Seating | None:
        """Who holds the game's seats, at its revision; None for a game stored before seats
        had holders. Raises :class:`UnknownGame`."""
        ...

    def reseat(self, game_id: str, seating: Seating, *, before: Seating | None = None) -> None:
        """Keep ``seating``, made from the stored one (its revision one more), and who may
        reach the game with it; :class:`Conflict` if the stored one moved on meanwhile.
        ``before``: the stored one it was made from, if at hand (else it is read), so that
        only the rows of who may reach the game that changed are written."""
        ...

    def add_device(self, key: str, now: str) -> None:
        """A new device's credential (its key): unknown keys are refused as forged."""
        ...

    def device_seen(self, key: str, now: str, since: str) -> bool:
        """Whether ``key`` is a device's, used since ``since`` (else expired); it is used now."""
        ...

    def add_invitation(self, invitation: Invitation) -> None: ...

    def invitation(self, *, key: str | None = None, code: str | None = None) -> Invitation | None:
        """The invitation of this key or short code, if there is one."""
        ...

    def claim(
        self,
        game_id: str,
        seating: Seating,
        invitation: str,
        device: str,
        now: str | None = None,
    ) -> bool:
        """A seat taken with an invitation, in one transaction, all or nothing: the
        invitation (its key) spent by ``device``, ``seating`` kept (one revision on from the
        stored one) and who may reach the game by it, and, with ``now``, ``device`` a new
        device's key (:meth:`add_device`). False, writing nothing, if another device spent
        the invitation first; :class:`Conflict`, writing nothing, if the stored seating
        moved on."""
        ...

    def prune(self, retention: Retention) -> Pruned:
        """Remove what ``retention`` says the store keeps no longer, and nothing else:
        invitations expired, devices unseen (with their rows as watchers), abandoned games
        if it names a time (:mod:`zar.store.retention`); how many of each went."""
        ...

    def announce(self, game_id: str, note: str) -> None:
        """Tell every process watching (``watch``) of ``note`` on the game (a device here or
        gone); a store only one process uses has nobody to tell."""
        ...

    def keep_figures(self, game_id: str, version: int, figures: Mapping[str, Any]) -> None:
        """Keep a finished game's ``figures``, worked out again from its log at ``version``;
        nothing is written if the game moved on meanwhile."""
        ...

    def load(self, game_id: str) -> Record:
        """The game's record, replayed from its log; raises :class:`UnknownGame`."""
        ...

    def since(self, record: Record, game_id: str) -> Record:
        """``record`` of the game caught up with the actions stored after it: what another
        process appended, read without replaying the whole log."""
        ...

    def times(self, game_id: str) -> list[str]:
        """When each action of the log was stored, in order; raises :class:`UnknownGame`."""
        ...

    def game_ids(self, *, after: str = "", limit: int = 1000) -> list[str]:
        """Up to ``limit`` ids of games, abandoned ones included, in order, each after
        ``after``: every game, page by page, for a backup."""
        ...

    def stored(self, game_id: str) -> StoredGame:
        """The whole game as it stands, read in one transaction (its log, times and seating
        of one moment), its log not replayed; raises :class:`UnknownGame`."""
        ...

    def restore(self, game: StoredGame, summary: Mapping[str, Any]) -> bool:
        """Keep ``game`` whole (its times, seating and devices as they were) in one
        transaction, listed with ``summary``; false, writing nothing, if a game of its id
        is already kept. A device already known keeps its own times."""
        ...

    def games(
        self,
        *,
        finished: bool | None = None,
        kind: str | None = None,
        limit: int = 50,
        offset: int = 0,
        device: str | None = None,
    ) -> list[GameSummary]:
        """The latest games first, never an abandoned one (kept, but out of every list and
        of the statistics); only finished or unfinished ones, or of one kind, if asked;
        ``limit`` of them after the first ``offset``, page by page. With ``device``: only
        the games it may reach, those where it is its turn first."""
        ...

    def finished_figures(
        self, kind: str, *, limit: int, device: str | None = None
    ) -> list[tuple[str, Mapping[str, Any] | None]]:
        """The latest finished games of ``kind`` first (never an abandoned one), ``limit`` of
        them, each id with the figures kept with it (:func:`zar.history.figures`; None: none
        kept yet). With ``device``: only the games it may reach."""
        ...

    def watch(self, changed: Callable[[str | None, int, str], None]) -> Callable[[], None]:
        """Call ``changed(game_id, version, note)`` (from another thread) for each append that
        other processes commit (``note``: its actions, a JSON list, when they fit in the
        word sent; else empty), each reseating (``version`` -1, ``note``
        "seating") and each note announced (``version`` -1); ``changed(None, 0, "")`` when
        some may have been missed. Returns the function that stops watching. A store only
        one process uses never calls it."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class AsyncAppender(Protocol):
    """A store that can append from an event loop without holding it: a server a round
    trip away, awaited on the loop itself rather than from a worker thread. Its
    connections for a loop are opened there on first use, and closed by
    :meth:`close_async` on that loop before it ends."""

    async def append_async(
        self,
        game_id: str,
        expected_version: int,
        actions: list[Action],
        now: str,
        *,
        finished: bool,
        summary: Mapping[str, Any],
        seating_rev: int | None = None,
        figures: Mapping[str, Any] | None = None,
    ) -> int:
        """:meth:`Store.append`, awaited."""
        ...

    async def close_async(self) -> None:
        """Close the connections opened for the running loop."""
        ...


def default_db_path() -> Path:
    """``$ZAR_DB`` when set, else ``zar.sqlite3`` in the user's data folder."""
    explicit = os.environ.get("ZAR_DB")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "zar" / "zar.sqlite3"
