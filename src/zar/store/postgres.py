"""The shared store: one PostgreSQL database that several server processes use at once.

An append locks its game's row (``SELECT ... FOR UPDATE``) and checks the version inside
the transaction, so two processes can never both add the same version; the primary key
(game_id, seq) of the actions is the last guard. The append also sends
``NOTIFY zar_games, 'id:version'``, which PostgreSQL delivers when the transaction
commits: every process listening (:meth:`PostgresStore.watch`) learns that the game moved
on, without polling and without another server.

The tables are brought up to this version of Zar on opening by the migrations below, in
order, one transaction each, under a lock so that processes starting together take turns;
the ``schema_version`` table says how many are applied.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool

from zar.record import Action, Record
from zar.seating import Seating
from zar.store.base import (
    Busy,
    Conflict,
    GameSummary,
    Invitation,
    Pruned,
    Retention,
    StoredGame,
    StoreUnavailable,
    UnknownGame,
    UnusableStore,
)
from zar.store.claims import claim_seat
from zar.store.postgres_connections import (
    CHANNEL,
    Freshness,
    LoopPools,
    first_line,
    listen,
    readable,
)
from zar.store.retention import RETENTION_INDEXES, prune
from zar.store.rows import (
    FIGURES_COLUMN,
    SEATING_COLUMNS,
    SEATING_TABLES,
    Migration,
    abandons,
    action_rows,
    device_seen_at,
    figures_query,
    figures_text,
    fill_figures,
    fill_seat_kinds,
    game_ids_query,
    games_query,
    insert_access,
    insert_game,
    insert_invitation,
    kept_figures,
    read_game,
    read_invitation,
    read_log,
    read_seating,
    read_since,
    record_from_rows,
    seating_text,
    settings_text,
    summary_of,
    turn_of,
    write_figures,
    write_seating,
)

__all__ = ["CHANNEL", "MIGRATIONS", "SCHEMA_VERSION", "PostgresStore"]

NOTIFY_BYTES = 7_900  # what a notification carries at most (PostgreSQL: under 8 000)

# Each migration's statements, in order; never change one that has shipped, add another.
# The same steps as SQLite's (zar.store.sqlite), in PostgreSQL's words.
MIGRATIONS: tuple[Migration, ...] = (
    # 1: games and their actions
    (
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
    ),
    # 2: the game's kind in a column, for the history's filters
    (
        "ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
        "UPDATE games SET kind = settings::jsonb ->> 'kind'",
        "CREATE INDEX games_by_kind ON games (finished, kind, updated_at)",
    ),
    # 3: a game may be abandoned, kept and never listed again: the lists' indexes lead with it
    (
        "ALTER TABLE games ADD COLUMN abandoned BOOLEAN NOT NULL DEFAULT FALSE",
        "DROP INDEX IF EXISTS games_by_update",
        "DROP INDEX IF EXISTS games_by_kind",
        "CREATE INDEX games_listed ON games (abandoned, finished, updated_at)",
        "CREATE INDEX games_listed_by_kind ON games (abandoned, finished, kind, updated_at)",
    ),
    # 4: seats that belong to devices: the game's seating, who may reach it, the devices'
    # credentials (their keys) and the invitations
    (
        *SEATING_COLUMNS,
        "UPDATE games SET turn = CASE WHEN finished OR abandoned THEN -1"
        " ELSE coalesce((summary::jsonb ->> 'seat')::integer, -1) END",
        *SEATING_TABLES,
    ),
    # 5: each finished game's part in the statistics, kept with it (the games stored before
    # are replayed once here), and in the index the statistics read, which holds them
    (
        FIGURES_COLUMN,
        lambda db: fill_figures(db, "%s"),
        "DROP INDEX games_listed_by_kind",
        "CREATE INDEX games_listed_by_kind ON games (abandoned, finished, kind, updated_at, id)"
        " INCLUDE (figures)",
    ),
    # 6: which seats are the computer's, in each game's summary and in the figures it keeps
    # (the list of games and the statistics name it in the page's language, and count it as
    # one player), read from its settings
    (lambda db: fill_seat_kinds(db, "%s"),),
    # 7: what the pruning looks for (zar.store.retention), by an index
    RETENTION_INDEXES,
)
SCHEMA_VERSION = len(MIGRATIONS)

# An append in one statement, so one round trip and its own transaction: the row, on its
# version and seating, moved on (and locked until the end), the actions added after it,
# and the other processes told once it commits. No row: the game moved on, or is unknown.
_APPEND = (
    "WITH moved AS ("
    " UPDATE games SET version = %s, finished = %s, abandoned = %s,"
    " updated_at = %s, summary = %s, turn = %s, figures = %s"
    " WHERE id = %s AND version = %s"
    " AND seating_rev = COALESCE(%s, seating_rev) RETURNING id),"
    " added AS (INSERT INTO actions (game_id, seq, action, at)"
    " SELECT moved.id, a.seq, a.action, a.at FROM moved,"
    " unnest(%s::integer[], %s::text[], %s::text[]) AS a (seq, action, at))"
    " SELECT pg_notify(%s, %s) FROM moved"
)
_VERSION = "SELECT version FROM games WHERE id = %s"
_LOCK = "SELECT version FROM games WHERE id = %s FOR UPDATE"

# pg_advisory_xact_lock's key for migrating: any number no other program uses ("zar" + 1).
_MIGRATION_LOCK = 0x7A617201


def migrate(db: psycopg.Connection[Any], name: str) -> None:
    """Apply the migrations the database ``name`` lacks, each in its own transaction."""
    while True:
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM schema_version").fetchone()
            version = 0 if row is None else row[0]
            if version > SCHEMA_VERSION:
                raise UnusableStore(
                    f"{name} was written by a newer Zar (schema version {version};"
                    f" this one knows up to {SCHEMA_VERSION}): upgrade Zar to open it"
                )
            if version == SCHEMA_VERSION:
                return
            for step in MIGRATIONS[version]:
                if isinstance(step, str):
                    db.execute(step)
                else:
                    step(db)
            if row is None:
                db.execute("INSERT INTO schema_version (version) VALUES (1)")
            else:
                db.execute("UPDATE schema_version SET version = %s", (version + 1,))


class PostgresStore:
    """The shared store: a pool of connections to one PostgreSQL database.

    ``url`` is a libpq URL (``postgresql://user:password@host:port/database``); the
    ``postgresql+psycopg://`` spelling of SQLAlchemy is taken too. ``pool_size`` caps the
    connections this process opens; a request waits up to ``timeout`` seconds for one.
    """

    def __init__(self, url: str, *, pool_size: int = 10, timeout: float = 5) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.name = readable(self.url)
        try:
            with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as db:
                migrate(db, self.name)
        except psycopg.Error as error:
            raise UnusableStore(f"{self.name} cannot be opened: {first_line(error)}") from None
        fresh = Freshness()
        self._pool = ConnectionPool(
            self.url,
            min_size=1,
            max_size=pool_size,
            timeout=timeout,
            kwargs={"autocommit": True},
            # A connection the server dropped (a restart) is replaced, not handed out: one
            # idle a while is asked first (one in use a moment ago costs no round trip).
            check=fresh.check,
            reset=fresh.returned,
            open=False,
            name="zar",
        )
        self._pool.open()
        # The event loops' own pools, for appends awaited on them (append_async).
        self._loop_pools = LoopPools(self.url, max_size=pool_size, timeout=timeout)

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection for writing, in a transaction committed as it is left."""
        with self._connection(writing=True) as db, db.transaction():
            yield db

    @contextmanager
    def _connection(self, *, writing: bool) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool; the server out of reach, full or read-only is
        StoreUnavailable."""
        try:
            with self._pool.connection() as db:
                yield db
        except (psycopg.OperationalError, errors.ReadOnlySqlTransaction) as error:
            raise StoreUnavailable(f"{self.name}: {first_line(error)}", writing=writing) from error

    def create(
        self,
        game_id: str,
        record: Record,
        now: str,
        summary: Mapping[str, Any],
        *,
        seating: Seating | None = None,
    ) -> None:
        settings = settings_text(record)
        with self._connection(writing=True) as db, db.transaction():
            db.execute(
                "INSERT INTO games (id, kind, settings, created_at, updated_at, summary,"
                " seating, turn) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (game_id, record.kind, settings, now, now, json.dumps(summary),
                 seating_text(seating), turn_of(False, summary)),
            )  # fmt: skip
            if seating is not None:
                insert_access(db, "%s", game_id, seating)

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
        An :class:`~zar.record.Abandon` among them marks the game abandoned. With
        ``seating_rev``: only while the seating is at that revision (the row's lock keeps it
        there until the commit). ``figures``: the game's part in the statistics, once it is
        over. ``wait=False`` is always :class:`Busy`: a round trip to the server waits."""
        if not wait:
            raise Busy("a PostgreSQL server is a round trip away")
        version, params = _append_params(
            game_id, expected_version, actions, now, finished, summary, seating_rev, figures
        )
        with self._connection(writing=True) as db:
            try:
                moved = db.execute(_APPEND, params).fetchone()
            except errors.UniqueViolation:
                # Only if the row lock were bypassed: the key still refuses a second version.
                moved = None
            if moved is None:
                row = db.execute(_VERSION, (game_id,)).fetchone()
                raise UnknownGame(game_id) if row is None else Conflict(row[0])
        return version

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
        """:meth:`append` on the running event loop's own connections: the round trip
        awaited there, with no worker thread to hand the append to and take it back from."""
        version, params = _append_params(
            game_id, expected_version, actions, now, finished, summary, seating_rev, figures
        )
        try:
            async with (await self._loop_pools.running()).connection() as db:
                try:
                    moved = await (await db.execute(_APPEND, params)).fetchone()
                except errors.UniqueViolation:
                    moved = None
                if moved is None:
                    row = await (await db.execute(_VERSION, (game_id,))).fetchone()
                    raise UnknownGame(game_id) if row is None else Conflict(row[0])
        except (psycopg.OperationalError, errors.ReadOnlySqlTransaction) as error:
            raise StoreUnavailable(f"{self.name}: {first_line(error)}", writing=True) from error
        return version

    async def close_async(self) -> None:
        await self._loop_pools.close_running()

    def watch(self, changed: Callable[[str | None, int, str], None]) -> Callable[[], None]:
        """Listen to every process's changes (:func:`~zar.store.postgres_connections.listen`)."""
        return listen(self.url, self.name, changed)

    def seating(self, game_id: str) -> Seating | None:
        """Who holds the game's seats, at its revision; None for a game from before seats."""
        with self._connection(writing=False) as db:
            return read_seating(db, "%s", game_id)

    def reseat(self, game_id: str, seating: Seating, *, before: Seating | None = None) -> None:
        """Keep ``seating`` (one revision on from the stored one, ``before`` if given) and who
        may reach the game, only the rows that change;
        every process hears of it (``game_id:seating``) when it commits. The game's row is
        locked meanwhile, as by an append."""
        with self._connection(writing=True) as db, db.transaction():
            row = db.execute(_LOCK, (game_id,)).fetchone()
            if row is None:
                raise UnknownGame(game_id)
            if not write_seating(db, "%s", game_id, seating, before):
                raise Conflict(row[0])
            db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:seating"))

    def add_device(self, key: str, now: str) -> None:
        with self._connection(writing=True) as db:
            db.execute(
                "INSERT INTO devices (key, created_at, seen_at) VALUES (%s, %s, %s)",
                (key, now, now),
            )

    def device_seen(self, key: str, now: str, since: str) -> bool:
        """Whether ``key`` is a device's, used since ``since``; its use is noted once a day at
        most (a read, most of the time)."""
        with self._connection(writing=False) as db:
            seen = device_seen_at(db, "%s", key)
        if seen is None or seen < since:
            return False
        if seen[:10] != now[:10]:
            with self._connection(writing=True) as db:
                db.execute("UPDATE devices SET seen_at = %s WHERE key = %s", (now, key))
        return True

    def add_invitation(self, invitation: Invitation) -> None:
        with self._connection(writing=True) as db:
            insert_invitation(db, "%s", invitation)

    def invitation(self, *, key: str | None = None, code: str | None = None) -> Invitation | None:
        with self._connection(writing=False) as db:
            return read_invitation(db, "%s", key, code)

    def prune(self, retention: Retention) -> Pruned:
        """Prune what ``retention`` says goes, a batch a transaction (:func:`prune`)."""
        return prune(self._transaction, "%s", retention)

    def announce(self, game_id: str, note: str) -> None:
        """``NOTIFY zar_games, 'game_id:note'``: every process watching hears it."""
        with self._connection(writing=True) as db:
            db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{note}"))

    def claim(
        self,
        game_id: str,
        seating: Seating,
        invitation: str,
        device: str,
        now: str | None = None,
    ) -> bool:
        """A seat taken with an invitation, all or nothing (:func:`claim_seat`), the game's
        row locked meanwhile, as by a reseating; every process hears of it when it commits."""
        with self._connection(writing=True) as db, db.transaction():
            if db.execute(_LOCK, (game_id,)).fetchone() is None:
                raise UnknownGame(game_id)
            if not claim_seat(db, "%s", game_id, seating, invitation, device, now):
                return False
            db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:seating"))
        return True

    def keep_figures(self, game_id: str, version: int, figures: Mapping[str, Any]) -> None:
        """Keep a finished game's ``figures``, worked out again at ``version``."""
        with self._connection(writing=True) as db:
            write_figures(db, "%s", game_id, version, figures)

    def load(self, game_id: str) -> Record:
        """The game's record, replayed from its log; raises :class:`UnknownGame`."""
        with self._connection(writing=False) as db:
            settings, log = read_log(db, "%s", game_id)
        return record_from_rows(settings, (action for action, _ in log))

    def since(self, record: Record, game_id: str) -> Record:
        """``record`` of the game caught up with the actions stored after it."""
        with self._connection(writing=False) as db:
            actions = read_since(db, "%s", game_id, record.version)
        return record.extended([json.loads(action) for action in actions])

    def times(self, game_id: str) -> list[str]:
        """When each action of the log was stored, in order; raises :class:`UnknownGame`."""
        with self._connection(writing=False) as db:
            _, log = read_log(db, "%s", game_id)
        return [at for _, at in log]

    def game_ids(self, *, after: str = "", limit: int = 1000) -> list[str]:
        """Up to ``limit`` ids of games, abandoned ones too, in order, each after ``after``."""
        with self._connection(writing=False) as db:
            return [row[0] for row in db.execute(game_ids_query("%s"), (after, limit))]

    def stored(self, game_id: str) -> StoredGame:
        """The whole game, read in one transaction that sees one snapshot (repeatable read):
        a moment of it, whatever another process appends meanwhile."""
        with self._connection(writing=False) as db, db.transaction():
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return read_game(db, "%s", game_id)

    def restore(self, game: StoredGame, summary: Mapping[str, Any]) -> bool:
        """Keep ``game`` whole in one transaction; false if a game of its id is there."""
        with self._connection(writing=True) as db, db.transaction(), db.cursor() as cursor:
            return insert_game(db, "%s", game, summary, cursor.executemany)

    def finished_figures(
        self, kind: str, *, limit: int, device: str | None = None
    ) -> list[tuple[str, Mapping[str, Any] | None]]:
        """The latest finished games of ``kind`` first, each id with its kept figures."""
        query, params = figures_query("%s", kind=kind, limit=limit, device=device)
        with self._connection(writing=False) as db:
            rows = db.execute(query, params).fetchall()
        return kept_figures(rows)

    def games(
        self,
        *,
        finished: bool | None = None,
        kind: str | None = None,
        limit: int = 50,
        offset: int = 0,
        device: str | None = None,
    ) -> list[GameSummary]:
        """The latest games first, never an abandoned one; only finished or unfinished ones,
        or of one kind, if asked; ``limit`` of them after the first ``offset``."""
        query, params = games_query(
            "%s", finished=finished, kind=kind, limit=limit, offset=offset, device=device
        )
        with self._connection(writing=False) as db:
            rows = db.execute(query, params).fetchall()
        return [summary_of(row) for row in rows]


def _append_params(
    game_id: str,
    expected_version: int,
    actions: list[Action],
    now: str,
    finished: bool,
    summary: Mapping[str, Any],
    seating_rev: int | None,
    figures: Mapping[str, Any] | None,
) -> tuple[int, tuple[Any, ...]]:
    """The version an append makes, and the parameters of its statement (:data:`_APPEND`)."""
    version = expected_version + len(actions)
    rows = action_rows(game_id, expected_version, actions, now)
    written = [r[2] for r in rows]
    abandoned = abandons(actions)
    return version, (
        version, finished, abandoned, now, json.dumps(summary),
        turn_of(finished or abandoned, summary), figures_text(figures),
        game_id, expected_version, seating_rev,
        [r[1] for r in rows], written, [r[3] for r in rows],
        CHANNEL, _appended(game_id, version, written),
    )  # fmt: skip


def _appended(game_id: str, version: int, actions: Sequence[str]) -> str:
    """The word sent of an append: ``id:version:actions`` (``actions``, each as stored, in a
    JSON list, so that the other processes apply them without reading them back), or
    ``id:version`` if they do not fit in a notification (8 000 bytes)."""
    told = f"{game_id}:{version}"
    with_actions = f"{told}:[{','.join(actions)}]"
    return with_actions if len(with_actions.encode()) <= NOTIFY_BYTES else told
