"""Where games are kept: an append-only log per game in SQLite (WAL), committed before any reply.

A game is stored as its settings and its actions, one row each; its state is never
stored, only replayed. Every append names the version it expects (the number of actions
already in the log): a stale or repeated action is refused with :class:`Conflict` and
changes nothing.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zar.record import Action, Record, action_to_json

__all__ = ["Conflict", "GameSummary", "SqliteStore", "UnknownGame", "default_db_path"]

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    summary TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (finished, updated_at);
"""


class Conflict(Exception):
    """The game has moved on since the version the action was made for."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the game is at version {version}")
        self.version = version


class UnknownGame(KeyError):
    """No game has this id."""


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


def default_db_path() -> Path:
    """``$ZAR_DB`` when set, else ``zar.sqlite3`` in the user's data folder."""
    explicit = os.environ.get("ZAR_DB")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "zar" / "zar.sqlite3"


class SqliteStore:
    """The embedded store: one SQLite file in WAL mode, every append a committed transaction."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            str(path), check_same_thread=False, isolation_level=None, timeout=30
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: a committed action survives a power cut, not only a killed process.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create(self, game_id: str, record: Record, now: str, summary: Mapping[str, Any]) -> None:
        settings = json.dumps(record.settings_json())
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, settings, created_at, updated_at, summary)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, settings, now, now, json.dumps(summary)),
            )

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
        """Add ``actions`` after ``expected_version``, all or none; returns the new version."""
        with self._transaction() as db:
            row = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise UnknownGame(game_id)
            if row[0] != expected_version:
                raise Conflict(row[0])
            db.executemany(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                [
                    (game_id, expected_version + i + 1, json.dumps(action_to_json(a)), now)
                    for i, a in enumerate(actions)
                ],
            )
            version = expected_version + len(actions)
            db.execute(
                "UPDATE games SET version = ?, finished = ?, updated_at = ?, summary = ?"
                " WHERE id = ?",
                (version, int(finished), now, json.dumps(summary), game_id),
            )
        return version

    def load(self, game_id: str) -> Record:
        """The game's record, replayed from its log; raises :class:`UnknownGame`."""
        with self._lock:
            row = self._db.execute("SELECT settings FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise UnknownGame(game_id)
            log = [
                json.loads(a)
                for (a,) in self._db.execute(
                    "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
                )
            ]
        return Record.from_json({**json.loads(row[0]), "log": log})

    def games(self, *, finished: bool | None = None, limit: int = 50) -> list[GameSummary]:
        """The latest games first; only unfinished or finished ones when ``finished`` says."""
        query = "SELECT id, settings, created_at, updated_at, version, finished, summary FROM games"
        params: tuple[Any, ...] = ()
        if finished is not None:
            query += " WHERE finished = ?"
            params = (int(finished),)
        query += " ORDER BY updated_at DESC, id LIMIT ?"
        with self._lock:
            rows = self._db.execute(query, (*params, limit)).fetchall()
        return [
            GameSummary(
                id=r[0],
                kind=json.loads(r[1])["kind"],
                created_at=r[2],
                updated_at=r[3],
                version=r[4],
                finished=bool(r[5]),
                summary=json.loads(r[6]),
            )
            for r in rows
        ]
