"""The embedded store: one SQLite file in WAL mode, every append a committed transaction.

On opening, the file is checked (``PRAGMA quick_check``) and its tables are brought up to
this version of Zar by the migrations below, in order, one transaction each; the file's
``user_version`` says how many are applied. A damaged file, or one from a newer Zar, is
refused with :class:`UnusableStore`, naming the file. A write the disk refuses (full,
read-only) raises :class:`StoreUnavailable` and leaves nothing behind.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
from zar.store.retention import RETENTION_INDEXES, prune
from zar.store.rows import (
    FIGURES_COLUMN,
    SEATING_COLUMNS,
    SEATING_TABLES,
    Migration,
    abandons,
    action_rows,
    device_seen_at,
    few_games,
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

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "SqliteStore"]

# Each migration's statements, in order; never change one that has shipped, add another.
MIGRATIONS: tuple[Migration, ...] = (
    # 1: games and their actions
    (
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
    ),
    # 2: the game's kind in a column, for the history's filters
    (
        "ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
        "UPDATE games SET kind = json_extract(settings, '$.kind')",
        "CREATE INDEX games_by_kind ON games (finished, kind, updated_at)",
    ),
    # 3: a game may be abandoned, kept and never listed again: the lists' indexes lead with it
    (
        "ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0",
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
        " ELSE coalesce(json_extract(summary, '$.seat'), -1) END",
        *SEATING_TABLES,
    ),
    # 5: each finished game's part in the statistics, kept with it (the games stored before
    # are replayed once here), and in the index the statistics read, which holds them
    (
        FIGURES_COLUMN,
        lambda db: fill_figures(db, "?"),
        "DROP INDEX games_listed_by_kind",
        "CREATE INDEX games_listed_by_kind"
        " ON games (abandoned, finished, kind, updated_at, id, figures)",
    ),
    # 6: which seats are the computer's, in each game's summary and in the figures it keeps
    # (the list of games and the statistics name it in the page's language, and count it as
    # one player), read from its settings
    (lambda db: fill_seat_kinds(db, "?"),),
    # 7: what the pruning looks for (zar.store.retention), by an index
    RETENTION_INDEXES,
)
SCHEMA_VERSION = len(MIGRATIONS)
BUSY_SECONDS = 30  # how long a write waits for another process's transaction to end


class _File:
    """The one connection to a SQLite file: opened, checked and brought up to this version
    of Zar; its transactions, one thread at a time."""

    def __init__(self, path: Path | str, *, max_pages: int | None) -> None:
        self.name = str(path)
        uri = isinstance(path, str) and path.startswith("file:")
        if not uri and self.name != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            _allocate_shared_memory(Path(path))
        self._lock = threading.Lock()
        try:
            self.db = sqlite3.connect(
                self.name,
                check_same_thread=False,
                isolation_level=None,
                timeout=BUSY_SECONDS,
                uri=uri,
            )
        except sqlite3.Error as error:
            raise UnusableStore(f"{self.name} cannot be opened: {error}") from None
        try:
            self._check()
            self.db.execute("PRAGMA journal_mode=WAL")
            # FULL: a committed action survives a power cut, not only a killed process.
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            if max_pages is not None:
                self.db.execute(f"PRAGMA max_page_count={int(max_pages)}")
            self._migrate()
        except sqlite3.Error as error:
            self.db.close()
            if error.sqlite_errorname in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
                raise UnusableStore(_damaged(self.name, str(error))) from None
            raise UnusableStore(f"{self.name} cannot be opened: {error}") from None
        except UnusableStore:
            self.db.close()
            raise

    def _check(self) -> None:
        """Refuse a damaged file before anything is written to it."""
        problems = [row[0] for row in self.db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise UnusableStore(_damaged(self.name, problems[0]))

    def _migrate(self) -> None:
        """Apply the migrations this file lacks, each in its own transaction."""
        for version in range(self._version(), SCHEMA_VERSION):
            with self._transaction() as db:
                if self._version() > version:
                    continue  # another process did it first
                for step in MIGRATIONS[version]:
                    if isinstance(step, str):
                        db.execute(step)
                    else:
                        step(db)
                db.execute(f"PRAGMA user_version={version + 1}")
        if self._version() > SCHEMA_VERSION:
            raise UnusableStore(
                f"{self.name} was written by a newer Zar (schema version {self._version()};"
                f" this one knows up to {SCHEMA_VERSION}): upgrade Zar to open it"
            )

    def _version(self) -> int:
        version: int = self.db.execute("PRAGMA user_version").fetchone()[0]
        return version

    def close(self) -> None:
        with self._lock:
            self.db.close()

    @contextmanager
    def _transaction(self, *, wait: bool = True) -> Iterator[sqlite3.Connection]:
        if wait:
            self.db.execute("BEGIN IMMEDIATE")
        else:
            # Another process's transaction is not waited for: Busy at once.
            self.db.execute("PRAGMA busy_timeout=0")
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                if error.sqlite_errorname == "SQLITE_BUSY":
                    raise Busy(f"{self.name} is being written by another process") from None
                raise
            finally:
                self.db.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
        try:
            yield self.db
            self.db.execute("COMMIT")
        except BaseException:
            # A full disk may have rolled the transaction back already.
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    @contextmanager
    def writing(self, *, wait: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction, all or nothing; a write the disk refuses is StoreUnavailable.
        ``wait=False``: :class:`Busy` rather than wait for another thread or process."""
        if not self._lock.acquire(blocking=wait):
            raise Busy(f"{self.name} is being read or written by another thread")
        try:
            with self._transaction(wait=wait) as db:
                yield db
        except sqlite3.Error as error:
            if not _unavailable(error):
                raise
            raise StoreUnavailable(f"{self.name}: {error}", writing=True) from error
        finally:
            self._lock.release()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self.db
            except sqlite3.Error as error:
                if not _unavailable(error):
                    raise
                raise StoreUnavailable(f"{self.name}: {error}", writing=False) from error


class SqliteStore:
    """The embedded store: one SQLite file in WAL mode, every append a committed transaction.

    ``path`` is a file, ``":memory:"``, or a ``file:`` URI (``file:zar.sqlite3?mode=ro``
    opens it read-only). ``max_pages`` caps the file's size in pages, as a quota would.
    """

    def __init__(self, path: Path | str, *, max_pages: int | None = None) -> None:
        self.path = Path(path)
        self.name = str(path)
        self._file = _File(path, max_pages=max_pages)

    def watch(self, changed: Callable[[str | None, int, str], None]) -> Callable[[], None]:
        """Nothing to watch: one process serves a SQLite file and announces its own changes."""
        return lambda: None

    def announce(self, game_id: str, note: str) -> None:
        """Nobody else to tell: one process serves a SQLite file."""

    def close(self) -> None:
        self._file.close()

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
        with self._file.writing() as db:
            db.execute(
                "INSERT INTO games (id, kind, settings, created_at, updated_at, summary,"
                " seating, turn) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, record.kind, settings, now, now, json.dumps(summary),
                 seating_text(seating), turn_of(False, summary)),
            )  # fmt: skip
            if seating is not None:
                insert_access(db, "?", game_id, seating)

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
        ``seating_rev``: only while the seating is at that revision. ``figures``: the
        game's part in the statistics, once it is over. ``wait=False``: :class:`Busy`
        rather than wait for another thread or process."""
        with self._file.writing(wait=wait) as db:
            row = db.execute(
                "SELECT version, seating_rev FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise UnknownGame(game_id)
            if row[0] != expected_version or seating_rev not in (None, row[1]):
                raise Conflict(row[0])
            db.executemany(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                action_rows(game_id, expected_version, actions, now),
            )
            version = expected_version + len(actions)
            abandoned = abandons(actions)
            db.execute(
                "UPDATE games SET version = ?, finished = ?, abandoned = ?, updated_at = ?,"
                " summary = ?, turn = ?, figures = ? WHERE id = ?",
                (version, finished, abandoned, now, json.dumps(summary),
                 turn_of(finished or abandoned, summary), figures_text(figures), game_id),
            )  # fmt: skip
        return version

    def seating(self, game_id: str) -> Seating | None:
        """Who holds the game's seats, at its revision; None for a game from before seats."""
        with self._file.reading() as db:
            return read_seating(db, "?", game_id)

    def reseat(self, game_id: str, seating: Seating, *, before: Seating | None = None) -> None:
        """Keep ``seating`` (one revision on from the stored one, ``before`` if given) and who
        may reach the game: only the rows that change."""
        with self._file.writing() as db:
            if not write_seating(db, "?", game_id, seating, before):
                row = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None:
                    raise UnknownGame(game_id)
                raise Conflict(row[0])

    def add_device(self, key: str, now: str) -> None:
        with self._file.writing() as db:
            db.execute(
                "INSERT INTO devices (key, created_at, seen_at) VALUES (?, ?, ?)", (key, now, now)
            )

    def device_seen(self, key: str, now: str, since: str) -> bool:
        """Whether ``key`` is a device's, used since ``since``; its use is noted once a day at
        most (a read, most of the time)."""
        with self._file.reading() as db:
            seen = device_seen_at(db, "?", key)
        if seen is None or seen < since:
            return False
        if seen[:10] != now[:10]:
            with self._file.writing() as db:
                db.execute("UPDATE devices SET seen_at = ? WHERE key = ?", (now, key))
        return True

    def add_invitation(self, invitation: Invitation) -> None:
        with self._file.writing() as db:
            insert_invitation(db, "?", invitation)

    def invitation(self, *, key: str | None = None, code: str | None = None) -> Invitation | None:
        with self._file.reading() as db:
            return read_invitation(db, "?", key, code)

    def claim(
        self,
        game_id: str,
        seating: Seating,
        invitation: str,
        device: str,
        now: str | None = None,
    ) -> bool:
        """A seat taken with an invitation, all or nothing (:func:`claim_seat`)."""
        with self._file.writing() as db:
            return claim_seat(db, "?", game_id, seating, invitation, device, now)

    def prune(self, retention: Retention) -> Pruned:
        """Prune what ``retention`` says goes, a batch a transaction (:func:`prune`)."""
        return prune(self._file.writing, "?", retention)

    def keep_figures(self, game_id: str, version: int, figures: Mapping[str, Any]) -> None:
        """Keep a finished game's ``figures``, worked out again at ``version``."""
        with self._file.writing() as db:
            write_figures(db, "?", game_id, version, figures)

    def load(self, game_id: str) -> Record:
        """The game's record, replayed from its log; raises :class:`UnknownGame`."""
        with self._file.reading() as db:
            settings, log = read_log(db, "?", game_id)
        return record_from_rows(settings, (action for action, _ in log))

    def since(self, record: Record, game_id: str) -> Record:
        """``record`` of the game caught up with the actions stored after it."""
        with self._file.reading() as db:
            actions = read_since(db, "?", game_id, record.version)
        return record.extended([json.loads(action) for action in actions])

    def times(self, game_id: str) -> list[str]:
        """When each action of the log was stored, in order; raises :class:`UnknownGame`."""
        with self._file.reading() as db:
            _, log = read_log(db, "?", game_id)
        return [at for _, at in log]

    def game_ids(self, *, after: str = "", limit: int = 1000) -> list[str]:
        """Up to ``limit`` ids of games, abandoned ones too, in order, each after ``after``."""
        with self._file.reading() as db:
            return [row[0] for row in db.execute(game_ids_query("?"), (after, limit))]

    def stored(self, game_id: str) -> StoredGame:
        """The whole game, read in one transaction: a moment of it, whatever another process
        appends meanwhile."""
        with self._file.reading() as db:
            db.execute("BEGIN")
            try:
                return read_game(db, "?", game_id)
            finally:
                db.execute("COMMIT")

    def restore(self, game: StoredGame, summary: Mapping[str, Any]) -> bool:
        """Keep ``game`` whole in one transaction; false if a game of its id is there."""
        with self._file.writing() as db:
            return insert_game(db, "?", game, summary, db.executemany)

    def finished_figures(
        self, kind: str, *, limit: int, device: str | None = None
    ) -> list[tuple[str, Mapping[str, Any] | None]]:
        """The latest finished games of ``kind`` first, each id with its kept figures."""
        with self._file.reading() as db:
            first = device is not None and few_games(db, "?", device)
            query, params = figures_query(
                "?", kind=kind, limit=limit, device=device, device_first=first
            )
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
        with self._file.reading() as db:
            query, params = games_query(
                "?", finished=finished, kind=kind, limit=limit, offset=offset, device=device,
                device_first=device is not None and few_games(db, "?", device),
            )  # fmt: skip
            rows = db.execute(query, params).fetchall()
        return [summary_of(row) for row in rows]


# What the file or the disk may refuse (full, read-only, gone, locked for too long), unlike a
# constraint or a misuse, which are bugs.
_UNAVAILABLE = (
    "SQLITE_FULL",
    "SQLITE_READONLY",
    "SQLITE_IOERR",
    "SQLITE_CANTOPEN",
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
    "SQLITE_PERM",
    "SQLITE_NOMEM",
    "SQLITE_CORRUPT",
    "SQLITE_NOTADB",
)


def _unavailable(error: sqlite3.Error) -> bool:
    name = getattr(error, "sqlite_errorname", None) or ""
    return name.startswith(_UNAVAILABLE)


def _damaged(name: str, problem: str) -> str:
    return (
        f"{name} is damaged ({problem}); Zar will not use it:"
        " restore a copy, or move it aside to start afresh"
    )


def _allocate_shared_memory(path: Path) -> None:
    """Give the blocks of a WAL index (``-shm``) left by another connection to it, before
    SQLite maps it: writing into a mapped hole that a full disk cannot fill is a SIGBUS, not
    an error. One that cannot be given is :class:`UnusableStore`, in one line."""
    shm = path.with_name(path.name + "-shm")
    try:
        fd = os.open(shm, os.O_RDWR)
    except OSError:
        return  # none yet (SQLite writes each page it adds), or not ours to write: SQLite says
    try:
        size = os.fstat(fd).st_size
        if size:
            os.posix_fallocate(fd, 0, size)
    except OSError as error:
        if error.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
            raise UnusableStore(f"{path} cannot be opened: {shm}: {error.strerror}") from None
    finally:
        os.close(fd)
