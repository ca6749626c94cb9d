"""A database of an older Zar is brought forward on opening, every game kept; one of a newer
Zar is refused; a migration that fails leaves the database as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest

from store_support import (
    Backend,
    append,
    farkle_turn,
    one_person_yams,
    two_person_10000,
    yams_round,
)
from zar import yams
from zar.history import figures, stats
from zar.record import Abandon, Record, action_to_json
from zar.server.views import summary
from zar.store import UnusableStore
from zar.store.rows import FIGURES_COLUMN, SEATING_COLUMNS, SEATING_TABLES, turn_of
from zar.store.sqlite import SCHEMA_VERSION
from zar.table import Seat
from zar.yams import Box

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


# The second migration, as it shipped: the game's kind in a column.
SQLITE_V2 = (
    "ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
    "UPDATE games SET kind = json_extract(settings, '$.kind')",
    "CREATE INDEX games_by_kind ON games (finished, kind, updated_at)",
    "PRAGMA user_version=2",
)

POSTGRES_V2 = (
    "ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
    "UPDATE games SET kind = settings::jsonb ->> 'kind'",
    "CREATE INDEX games_by_kind ON games (finished, kind, updated_at)",
    "UPDATE schema_version SET version = 2",
)

# The third, as it shipped: a game may be abandoned, and the lists' indexes lead with it.
SQLITE_V3 = (
    "ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0",
    "DROP INDEX IF EXISTS games_by_update",
    "DROP INDEX IF EXISTS games_by_kind",
    "CREATE INDEX games_listed ON games (abandoned, finished, updated_at)",
    "CREATE INDEX games_listed_by_kind ON games (abandoned, finished, kind, updated_at)",
    "PRAGMA user_version=3",
)

POSTGRES_V3 = (
    "ALTER TABLE games ADD COLUMN abandoned BOOLEAN NOT NULL DEFAULT FALSE",
    "DROP INDEX IF EXISTS games_by_update",
    "DROP INDEX IF EXISTS games_by_kind",
    "CREATE INDEX games_listed ON games (abandoned, finished, updated_at)",
    "CREATE INDEX games_listed_by_kind ON games (abandoned, finished, kind, updated_at)",
    "UPDATE schema_version SET version = 3",
)


# The fourth, as it shipped (its statements shared by both stores): seats that belong to
# devices.
SQLITE_V4 = (
    *SEATING_COLUMNS,
    "UPDATE games SET turn = CASE WHEN finished OR abandoned THEN -1"
    " ELSE coalesce(json_extract(summary, '$.seat'), -1) END",
    *SEATING_TABLES,
    "PRAGMA user_version=4",
)

POSTGRES_V4 = (
    *SEATING_COLUMNS,
    "UPDATE games SET turn = CASE WHEN finished OR abandoned THEN -1"
    " ELSE coalesce((summary::jsonb ->> 'seat')::integer, -1) END",
    *SEATING_TABLES,
    "UPDATE schema_version SET version = 4",
)


# The fifth, as it shipped (the figures of the games stored before worked out by keep_old):
# each finished game's part in the statistics, in the index the statistics read.
SQLITE_V5 = (
    FIGURES_COLUMN,
    "DROP INDEX games_listed_by_kind",
    "CREATE INDEX games_listed_by_kind"
    " ON games (abandoned, finished, kind, updated_at, id, figures)",
    "PRAGMA user_version=5",
)

POSTGRES_V5 = (
    FIGURES_COLUMN,
    "DROP INDEX games_listed_by_kind",
    "CREATE INDEX games_listed_by_kind ON games (abandoned, finished, kind, updated_at, id)"
    " INCLUDE (figures)",
    "UPDATE schema_version SET version = 5",
)


def build(backend: Backend, version: int) -> None:
    """The schema as the store of that ``version`` (1 to 5) left it, and nothing more."""
    steps = [
        (SQLITE_V1, POSTGRES_V1),
        (SQLITE_V2, POSTGRES_V2),
        (SQLITE_V3, POSTGRES_V3),
        (SQLITE_V4, POSTGRES_V4),
        (SQLITE_V5, POSTGRES_V5),
    ]
    steps = steps[:version]
    for sqlite, postgres in steps:
        for statement in sqlite if backend.kind == "sqlite" else postgres:
            backend.sql(statement)


def old_figures(
    record: Record, accounts: list[dict[str, Any]] | None = None
) -> dict[str, Any] | None:
    """A finished game's figures as version 2 of them kept them: no seat marked as the
    computer's."""
    part = figures(record, accounts)
    if part is None:
        return None
    seats = [{k: v for k, v in seat.items() if k != "computer"} for seat in part["seats"]]
    return {**part, "version": 2, "seats": seats}


def keep_old(
    backend: Backend,
    version: int,
    game_id: str,
    record: Record,
    now: str,
    accounts: list[dict[str, Any]] | None = None,
) -> None:
    """Store a game with its actions as the store of that ``version`` did: the row (with
    its kind from version 2), the actions, the row's version and its summary, which marked
    no seat as the computer's (and whose turn it is from version 4, its figures of version
    2 from version 5, with its luck ``accounts`` when given)."""
    finished: object = record.state.is_over
    if backend.kind == "sqlite":
        finished = int(record.state.is_over)
    settings = json.dumps(record.settings_json())
    if version == 1:
        backend.sql(
            "INSERT INTO games (id, settings, created_at, updated_at, summary)"
            " VALUES (%s, %s, %s, %s, %s)",
            (game_id, settings, now, now, json.dumps({})),
        )
    else:
        backend.sql(
            "INSERT INTO games (id, kind, settings, created_at, updated_at, summary)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (game_id, record.kind, settings, now, now, json.dumps({})),
        )
    for seq, action in enumerate(record.log, start=1):
        backend.sql(
            "INSERT INTO actions (game_id, seq, action, at) VALUES (%s, %s, %s, %s)",
            (game_id, seq, json.dumps(action_to_json(action)), now),
        )
    old_summary = {k: v for k, v in summary(record).items() if k not in ("abandoned", "computer")}
    backend.sql(
        "UPDATE games SET version = %s, finished = %s, updated_at = %s, summary = %s WHERE id = %s",
        (record.version, finished, now, json.dumps(old_summary), game_id),
    )
    if version >= 4:  # whose turn it is, for a device's list
        turn = turn_of(record.state.is_over, old_summary)
        backend.sql("UPDATE games SET turn = %s WHERE id = %s", (turn, game_id))
    if version >= 5:  # the game's part in the statistics, once it is over
        kept = old_figures(record, accounts)
        backend.sql(
            "UPDATE games SET figures = %s WHERE id = %s",
            (None if kept is None else json.dumps(kept), game_id),
        )


def schema_version(backend: Backend) -> int:
    if backend.kind == "sqlite":
        version: int = backend.sql("PRAGMA user_version")[0][0]
        return version
    return int(backend.sql("SELECT version FROM schema_version")[0][0])


COLUMNS = {
    "sqlite": "SELECT name FROM pragma_table_info('games')",
    "postgres": "SELECT column_name FROM information_schema.columns WHERE table_name = 'games'",
}


def indexes(backend: Backend, table: str = "games") -> set[str]:
    query = (
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = %s"
        if backend.kind == "sqlite"
        else "SELECT indexname FROM pg_indexes WHERE tablename = %s"
    )
    return {name for (name,) in backend.sql(query, (table,))}


@pytest.mark.parametrize("version", [1, 2, 3, 4, 5])
def test_an_older_database_is_brought_forward_with_every_game(
    backend: Backend, version: int
) -> None:
    finished = one_person_yams()
    for _ in range(13):
        finished = finished.append(yams_round(finished)[0]).append(yams_round(finished)[1])
    playing = two_person_10000()
    for action in farkle_turn(playing):
        playing = playing.append(action)
    build(backend, version)
    keep_old(backend, version, "done", finished, "2025-01-01T10:00:00.000+00:00")
    keep_old(backend, version, "open", playing, "2025-01-01T11:00:00.000+00:00")
    keep_old(backend, version, "new", one_person_yams("Ece"), "2025-01-01T12:00:00.000+00:00")

    store = backend.open()
    try:
        assert schema_version(backend) == SCHEMA_VERSION == 7
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
        # No seat is the computer's, and the list of games says so.
        assert [g.summary["computer"] for g in listed] == [[False], [False, False], [False]]
        # The finished game's part in the statistics, worked out from its log on opening
        # (or kept by the fifth migration, and its seats' kinds marked by the sixth).
        kept = [
            (g, json.loads(f) if f else f) for g, f in backend.sql("SELECT id, figures FROM games")
        ]
        assert sorted(kept) == [("done", figures(finished)), ("new", None), ("open", None)]
        assert [g.id for g in store.games(kind="yams")] == ["new", "done"]
        assert [g.id for g in store.games(kind="yams", finished=True)] == ["done"]
        assert backend.sql("SELECT id FROM games WHERE abandoned = %s", (True,)) == []
        # Games from before seats had holders: no seating yet (the first device to open
        # one from the machine itself claims it); whose turn it is, for a device's list.
        assert [store.seating(g) for g in ("done", "open", "new")] == [None, None, None]
        turns = dict(backend.sql("SELECT id, turn FROM games"))
        assert turns == {"done": -1, "open": playing.state.seat, "new": 0}
        # and the games play on, and may be abandoned
        playing = append(store, "open", playing, farkle_turn(playing))
        assert store.load("open").version == 6
        append(store, "new", one_person_yams("Ece"), [Abandon()])
        assert [g.id for g in store.games()] == ["open", "done"]
        assert store.load("new").abandoned
    finally:
        store.close()
    assert {"games_listed", "games_listed_by_kind"} <= indexes(backend)
    assert not {"games_by_update", "games_by_kind"} & indexes(backend)
    # the seventh: what the pruning looks for, by an index
    assert "invitations_by_expiry" in indexes(backend, "invitations")
    assert "devices_by_seen" in indexes(backend, "devices")
    backend.open().close()  # opening again changes nothing
    assert schema_version(backend) == SCHEMA_VERSION


def test_a_migration_that_fails_leaves_the_database_as_it_was(backend: Backend) -> None:
    """A game row whose settings are not JSON stops migration 2, which is undone whole."""
    build(backend, 1)
    keep_old(backend, 1, "g", one_person_yams(), "2025-01-01T10:00:00.000+00:00")
    backend.sql("UPDATE games SET settings = 'not json'")
    with pytest.raises(UnusableStore):
        backend.open()
    assert schema_version(backend) == 1
    assert ("kind",) not in backend.sql(COLUMNS[backend.kind])


def test_a_third_migration_that_fails_at_its_last_step_is_undone_whole(backend: Backend) -> None:
    """An index named as migration 3's last one, made by hand, stops it after the column is
    added and the old indexes dropped: all of that is undone, the games read as before."""
    build(backend, 2)
    record = one_person_yams()
    record = record.append(yams_round(record)[0])
    keep_old(backend, 2, "g", record, "2025-01-01T10:00:00.000+00:00")
    backend.sql("CREATE INDEX games_listed_by_kind ON games (id)")
    with pytest.raises(UnusableStore):
        backend.open()
    assert schema_version(backend) == 2
    assert {"games_by_update", "games_by_kind"} <= indexes(backend)
    assert "games_listed" not in indexes(backend)
    assert ("abandoned",) not in backend.sql(COLUMNS[backend.kind])
    backend.sql("DROP INDEX games_listed_by_kind")
    store = backend.open()
    try:
        assert store.load("g") == record
    finally:
        store.close()


def test_a_database_of_a_newer_zar_is_refused(backend: Backend) -> None:
    backend.open().close()
    newer = SCHEMA_VERSION + 1
    if backend.kind == "sqlite":
        backend.sql(f"PRAGMA user_version={newer}")
    else:
        backend.sql("UPDATE schema_version SET version = %s", (newer,))
    with pytest.raises(UnusableStore) as refused:
        backend.open()
    message = str(refused.value)
    assert "newer Zar" in message
    assert f"schema version {newer}" in message
    where = str(backend.path) if backend.kind == "sqlite" else backend.url.rsplit("/", 1)[1]
    assert where in message


def test_the_fifth_migration_works_out_the_figures_of_the_finished_games(
    backend: Backend,
) -> None:
    """Each finished game's part in the statistics, from its log replayed once; none for a
    game in play or abandoned; a game whose log does not replay is left without, and the
    others are filled."""
    yams_done = one_person_yams("Can")
    for _ in range(13):
        yams_done = yams_done.append(yams_round(yams_done)[0]).append(yams_round(yams_done)[1])
    farkle_done = two_person_10000()
    while not farkle_done.state.is_over:
        for action in farkle_turn(farkle_done):
            farkle_done = farkle_done.append(action)
    playing = two_person_10000()
    for action in farkle_turn(playing):
        playing = playing.append(action)
    build(backend, 4)
    for i, (game_id, record) in enumerate(
        [("yams", yams_done), ("10000", farkle_done), ("open", playing), ("left", playing),
         ("broken", yams_done)]
    ):  # fmt: skip
        keep_old(backend, 4, game_id, record, f"2025-01-01T1{i}:00:00.000+00:00")
    backend.sql("UPDATE games SET abandoned = %s WHERE id = 'left'", (True,))
    backend.sql("DELETE FROM actions WHERE game_id = 'broken' AND seq = 2")

    backend.open().close()
    kept = dict(backend.sql("SELECT id, figures FROM games"))
    assert json.loads(kept.pop("yams")) == figures(yams_done)
    assert json.loads(kept.pop("10000")) == figures(farkle_done)
    assert kept == {"open": None, "left": None, "broken": None}
    assert figures(farkle_done)["seats"][0]["turns"] > 0  # type: ignore[index]


def yams_to_the_end(*seats: Seat) -> Record:
    """A Yams game of ``seats`` played to its end: each turn one throw, the first open box."""
    record = Record.new("yams", seats)
    while not record.state.is_over:
        seat = record.state.seat
        card = record.state.cards[seat]
        box = next(box for box in Box if card[box] is None)
        record = record.append(yams.Throw(seat, (), (1, 2, 3, 4, 6))).append(yams.Fill(seat, box))
    return record


def test_the_sixth_migration_marks_the_computers_seats_by_their_kind(backend: Backend) -> None:
    """Games stored before a seat's kind was kept with the lists and the statistics: each
    summary, and each game's figures of version 2 (made of version 3, its luck account
    kept, nothing replayed), mark the computer's seats from the game's settings. A person
    who typed ``IA`` or ``Computer`` stays a person: the statistics count the computer of a
    Turkish and of an English game as one player, and each of those people apart."""
    computer = {"tr": Seat("IA", computer=True, level="easy"),
                "en": Seat("Computer", computer=True, level="easy")}  # fmt: skip
    games = {
        "tr": yams_to_the_end(Seat("Ali"), computer["tr"]),
        "en": yams_to_the_end(Seat("Ali"), computer["en"]),
        "person-ia": yams_to_the_end(Seat("IA"), computer["en"]),
        "person-computer": yams_to_the_end(Seat("Computer"), computer["tr"]),
        "open": Record.new("yams", (Seat("Computer"), computer["tr"])),
    }
    accounts = [
        {"unit": "points", "luck": 1.5, "cost": 4.0, "decisions": 13},
        {"unit": "points", "luck": -1.5, "cost": 2.0, "decisions": 13},
    ]
    build(backend, 5)
    for i, (game_id, record) in enumerate(games.items()):
        account = accounts if game_id == "tr" else None
        keep_old(backend, 5, game_id, record, f"2025-01-01T1{i}:00:00.000+00:00", account)
    assert json.loads(backend.sql("SELECT figures FROM games WHERE id = 'tr'")[0][0]) == (
        old_figures(games["tr"], accounts)
    )

    store = backend.open()
    try:
        assert schema_version(backend) == SCHEMA_VERSION
        summaries = {g.id: g.summary for g in store.games()}
        assert all(s["computer"] == [False, True] for s in summaries.values())
        assert summaries.keys() == games.keys()
        kept = dict(store.finished_figures("yams", limit=10))
        assert kept == {
            "tr": figures(games["tr"], accounts),  # the account kept as it was
            **{g: figures(games[g]) for g in ("en", "person-ia", "person-computer")},
        }
        assert kept["tr"]["seats"][1]["computer"]  # type: ignore[index]
        oldest_first = [kept[g] for g in ("tr", "en", "person-ia", "person-computer")]
        for lang, name in (("tr", "IA 2"), ("fr", "IA 2"), ("en", "Computer 2")):
            rows = stats("yams", oldest_first, lang)["players"]  # type: ignore[arg-type]
            assert [(r["name"], r["computer"], r["games"]) for r in rows] == [
                (name, True, 4),
                ("Ali", False, 2),
                ("Computer", False, 1),
                ("IA", False, 1),
            ]
        two = stats("yams", oldest_first[:2], "en")["players"]  # type: ignore[arg-type]
        assert [(r["name"], r["computer"], r["games"]) for r in two] == [
            ("Ali", False, 2),
            ("Computer", True, 2),
        ]
        assert stats("yams", oldest_first[:3], "tr")["players"][0]["name"] == "Computer"  # type: ignore[arg-type]
    finally:
        store.close()
