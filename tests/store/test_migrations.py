"""A database of an older Zar is brought forward on opening, every game kept; one of a newer
Zar is refused; a migration that fails leaves the database as it was."""

from __future__ import annotations

import json

import pytest

from store_support import (
    Backend,
    append,
    farkle_turn,
    one_person_yams,
    two_person_10000,
    yams_round,
)
from zar.record import Record, action_to_json
from zar.server.views import summary
from zar.store import UnusableStore

# The first schema, as the first store wrote it (SQLite, user_version 1).
SQLITE_V1 = (
    """CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    summary TEXT NOT NULL DEFAULT '{}'
)""",
    """CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
)""",
    "CREATE INDEX IF NOT EXISTS games_by_update ON games (finished, updated_at)",
    "PRAGMA user_version=1",
)

# The same first schema in PostgreSQL's words, with its schema_version at 1.
POSTGRES_V1 = (
    """CREATE TABLE games (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    finished BOOLEAN NOT NULL DEFAULT FALSE,
    summary TEXT NOT NULL DEFAULT '{}'
)""",
    """CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
)""",
    "CREATE INDEX games_by_update ON games (finished, updated_at)",
    "CREATE TABLE schema_version (version INTEGER NOT NULL)",
    "INSERT INTO schema_version (version) VALUES (1)",
)


def build_v1(backend: Backend) -> None:
    for statement in SQLITE_V1 if backend.kind == "sqlite" else POSTGRES_V1:
        backend.sql(statement)


def keep_v1(backend: Backend, game_id: str, record: Record, now: str) -> None:
    """Store a game with its actions as the first store did: the row, the actions, the
    row's version."""
    finished: object = record.state.is_over
    if backend.kind == "sqlite":
        finished = int(record.state.is_over)
    backend.sql(
        "INSERT INTO games (id, settings, created_at, updated_at, summary)"
        " VALUES (%s, %s, %s, %s, %s)",
        (game_id, json.dumps(record.settings_json()), now, now, json.dumps({})),
    )
    for seq, action in enumerate(record.log, start=1):
        backend.sql(
            "INSERT INTO actions (game_id, seq, action, at) VALUES (%s, %s, %s, %s)",
            (game_id, seq, json.dumps(action_to_json(action)), now),
        )
    backend.sql(
        "UPDATE games SET version = %s, finished = %s, updated_at = %s, summary = %s WHERE id = %s",
        (record.version, finished, now, json.dumps(summary(record)), game_id),
    )


def schema_version(backend: Backend) -> int:
    if backend.kind == "sqlite":
        version: int = backend.sql("PRAGMA user_version")[0][0]
        return version
    return int(backend.sql("SELECT version FROM schema_version")[0][0])


def test_a_version_1_database_is_brought_forward_with_every_game(backend: Backend) -> None:
    finished = one_person_yams()
    for _ in range(13):
        finished = finished.append(yams_round(finished)[0]).append(yams_round(finished)[1])
    playing = two_person_10000()
    for action in farkle_turn(playing):
        playing = playing.append(action)
    build_v1(backend)
    keep_v1(backend, "done", finished, "2025-01-01T10:00:00.000+00:00")
    keep_v1(backend, "open", playing, "2025-01-01T11:00:00.000+00:00")
    keep_v1(backend, "new", one_person_yams("Ece"), "2025-01-01T12:00:00.000+00:00")

    store = backend.open()
    try:
        assert schema_version(backend) == 2
        assert store.load("done") == finished
        assert store.load("done").state.is_over
        assert store.load("open") == playing
        assert store.load("open").state.totals == playing.state.totals
        assert store.load("new") == one_person_yams("Ece")
        listed = store.games()
        assert [(g.id, g.kind, g.version, g.finished) for g in listed] == [
            ("new", "yams", 0, False),
            ("open", "10000", 3, False),
            ("done", "yams", 26, True),
        ]
        assert [g.id for g in store.games(kind="yams")] == ["new", "done"]
        assert [g.id for g in store.games(kind="yams", finished=True)] == ["done"]
        # and the games play on
        append(store, "open", playing, farkle_turn(playing))
        assert store.load("open").version == 6
    finally:
        store.close()
    indexes = (
        "SELECT name FROM sqlite_master WHERE type = 'index'"
        if backend.kind == "sqlite"
        else "SELECT indexname FROM pg_indexes WHERE tablename = 'games'"
    )
    assert ("games_by_kind",) in backend.sql(indexes)
    backend.open().close()  # opening again changes nothing
    assert schema_version(backend) == 2


def test_a_migration_that_fails_leaves_the_database_as_it_was(backend: Backend) -> None:
    """A game row whose settings are not JSON stops migration 2, which is undone whole."""
    build_v1(backend)
    keep_v1(backend, "g", one_person_yams(), "2025-01-01T10:00:00.000+00:00")
    backend.sql("UPDATE games SET settings = 'not json'")
    with pytest.raises(UnusableStore):
        backend.open()
    assert schema_version(backend) == 1
    columns = (
        "SELECT name FROM pragma_table_info('games')"
        if backend.kind == "sqlite"
        else "SELECT column_name FROM information_schema.columns WHERE table_name = 'games'"
    )
    assert ("kind",) not in backend.sql(columns)


def test_a_database_of_a_newer_zar_is_refused(backend: Backend) -> None:
    backend.open().close()
    if backend.kind == "sqlite":
        backend.sql("PRAGMA user_version=3")
    else:
        backend.sql("UPDATE schema_version SET version = 3")
    with pytest.raises(UnusableStore) as refused:
        backend.open()
    message = str(refused.value)
    assert "newer Zar" in message
    assert "schema version 3" in message
    where = str(backend.path) if backend.kind == "sqlite" else backend.url.rsplit("/", 1)[1]
    assert where in message
