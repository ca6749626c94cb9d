"""Where games are kept: an append-only log per game, committed before any reply.

A game is stored as its settings and its actions, one row each; its state is never
stored, only replayed. Every append names the version it expects (the number of actions
already in the log): a stale or repeated action is refused with :class:`Conflict` and
changes nothing.

Two stores keep the same tables: :class:`SqliteStore`, one file, the embedded default, and
:class:`~zar.store.postgres.PostgresStore`, one PostgreSQL database that several server
processes share. :func:`open_store` picks one from a URL.
"""

from __future__ import annotations

import os
from pathlib import Path

from zar.store.base import (
    AsyncAppender,
    Busy,
    Conflict,
    Device,
    GameSummary,
    Invitation,
    Pruned,
    Retention,
    Store,
    StoredGame,
    StoreUnavailable,
    UnknownGame,
    UnusableStore,
    default_db_path,
)
from zar.store.sqlite import SqliteStore

__all__ = [
    "AsyncAppender",
    "Busy",
    "Conflict",
    "Device",
    "GameSummary",
    "Invitation",
    "Pruned",
    "Retention",
    "SqliteStore",
    "Store",
    "StoreUnavailable",
    "StoredGame",
    "UnknownGame",
    "UnusableStore",
    "default_db_path",
    "open_store",
    "sqlite_path",
]


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite://`` URL, written as SQLAlchemy does; none: the default file.

    >>> sqlite_path("sqlite:///games.sqlite3"), sqlite_path("sqlite:////srv/zar/games.sqlite3")
    (PosixPath('games.sqlite3'), PosixPath('/srv/zar/games.sqlite3'))
    """
    rest = url.removeprefix("sqlite://")
    if rest in ("", "/"):
        return default_db_path()
    if not rest.startswith("/"):
        raise UnusableStore(f"{url}: a SQLite URL is sqlite:///relative/path or sqlite:////abs")
    return Path(rest[1:])


def open_store(url: str | None = None) -> Store:
    """The store at ``url`` (else ``$ZAR_DATABASE_URL``): ``postgresql://...`` for PostgreSQL;
    ``sqlite:///path`` or nothing for SQLite, at ``$ZAR_DB`` or in the user's data folder.

    Raises :class:`UnusableStore` when it cannot be opened.
    """
    url = url if url is not None else os.environ.get("ZAR_DATABASE_URL", "")
    scheme = url.partition("://")[0].lower() if "://" in url else url.lower()
    if scheme in ("", "sqlite"):
        return SqliteStore(sqlite_path(url) if url else default_db_path())
    if scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        from zar.store.postgres import PostgresStore  # psycopg loads only when it is used

        return PostgresStore(url)
    raise UnusableStore(f"{url}: the database URL is postgresql://... or sqlite:///path")
