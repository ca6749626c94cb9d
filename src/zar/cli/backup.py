"""``zar backup FILE`` and ``zar restore FILE``: every game of the store to one file and back.

The file is JSON lines, compressed with gzip: a first line that says what it is, then one
line a game, written and read one game at a time (a store of any size in constant
memory). A game's line is its export but for the figures only a replay gives (settings,
the whole log with the undone marks and the times, whether it was abandoned) with what a
restore needs to give the same game back: its id, when it was made, who holds its seats
and the devices that seating names (their keys, the hashes the store keeps; never a
credential).

A restore replays each game through the engine and checks it against what the line says:
one that does not replay, or says other than its log, is refused in words and the others
go in. A game already there with the same log is skipped, so restoring twice changes
nothing; one there with another log is left as it is, and refused.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, TypeGuard

from zar.history import game_export, log_entries
from zar.record import Record
from zar.seating import Seating
from zar.server.views import summary
from zar.store import (
    Device,
    SqliteStore,
    Store,
    StoredGame,
    StoreUnavailable,
    UnknownGame,
    UnusableStore,
    default_db_path,
    open_store,
    sqlite_path,
)
from zar.store.rows import game_key

__all__ = [
    "FORMAT",
    "Restored",
    "Written",
    "game_of",
    "line_of",
    "restore",
    "run",
    "write_backup",
]

FORMAT = {"zar": "backup", "version": 1}  # the first line's words, and the version of the lines
PAGE = 500  # game ids read at a time
_SETTINGS = ("kind", "seats", "target", "autofill", "hints")

Progress = Callable[[int, int], None]


def open_configured(db: Path | None, *, existing: bool = False) -> Store:
    """The store ``zar serve`` would use: ``--db``'s file, else ``$ZAR_DATABASE_URL``'s, else
    ``$ZAR_DB``'s; one that cannot be opened is one line and exit status 1, and so is a
    SQLite file that is not there when it must be (``existing``: a typo backs up nothing)."""
    try:
        file = _sqlite_file(db)
        if existing and file is not None and not file.exists():
            raise UnusableStore(f"{file}: no such SQLite file (--db, ZAR_DATABASE_URL, ZAR_DB)")
        return SqliteStore(db) if db is not None else open_store()
    except UnusableStore as error:
        raise SystemExit(f"zar: {error}") from None


def _sqlite_file(db: Path | None) -> Path | None:
    """The SQLite file the configured store is (None: PostgreSQL, or a URL of no kind)."""
    if db is not None:
        return db
    url = os.environ.get("ZAR_DATABASE_URL", "")
    if not url:
        return default_db_path()
    return sqlite_path(url) if url.lower().startswith("sqlite://") else None


def every_game_id(store: Store) -> Iterator[str]:
    """Every game's id, in order, a page at a time."""
    after = ""
    while page := store.game_ids(after=after, limit=PAGE):
        yield from page
        after = page[-1]


def line_of(game: StoredGame) -> dict[str, Any]:
    """A game's line in a backup: its export but for what only a replay says (totals,
    winners, whether it is over), when it was made, its seating, its devices. Nothing here
    replays the log: a backup copies every game, one the rules would refuse too."""
    record, seating = game.record, game.seating
    return {
        "id": game.id,
        **record.settings_json(),
        "game": record.kind,
        "players": [seat.name for seat in record.seats],
        "abandoned": record.abandoned,
        "entries": log_entries(record, game.times),
        "created_at": game.created_at,
        "seating": None if seating is None else {**seating.to_json(), "rev": seating.rev},
        "devices": [
            {"key": d.key, "created_at": d.created_at, "seen_at": d.seen_at} for d in game.devices
        ],
    }


@dataclass(frozen=True)
class Written:
    """What a backup did: games written, and left out (in words)."""

    games: int
    left_out: int


def write_backup(
    store: Store,
    out: IO[bytes],
    *,
    progress: Progress = lambda done, total: None,
    refuse: Callable[[str], None] = lambda words: None,
) -> Written:
    """Write every game of ``store`` to ``out`` (gzip'd JSON lines), one game read at a time,
    each in one transaction; a game whose rows are not a game's (a log undoing nothing, an
    action of no game) is left out, in words (``refuse``)."""
    total = sum(1 for _ in every_game_id(store))
    done = left_out = 0
    progress(0, total)
    with gzip.GzipFile(fileobj=out, mode="wb") as packed:
        header = {**FORMAT, "written_at": datetime.now(UTC).isoformat(timespec="seconds")}
        packed.write(_json(header))
        for game_id in every_game_id(store):
            try:
                line = _json(line_of(store.stored(game_id)))
            except (KeyError, TypeError, ValueError) as error:
                refuse(f"game {game_id} is left out: its rows cannot be read as a game ({error})")
                left_out += 1
                continue
            packed.write(line)
            done += 1
            progress(done + left_out, max(total, done + left_out))
    return Written(done, left_out)


def _is_game_id(value: object) -> TypeGuard[str]:
    try:
        game_key(value)  # type: ignore[arg-type]  # anything: refused unless a game's id
    except UnknownGame:
        return False
    return True


def _json(value: Mapping[str, Any]) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode() + b"\n"


def game_of(data: object) -> StoredGame:
    """The game a backup's line holds, replayed and checked against what the line says of
    it; ValueError, in words, when it is none (which action, and why, when its log does not
    replay)."""
    if not isinstance(data, dict):
        raise ValueError("the line is not a game")
    game_id = data.get("id")
    if not _is_game_id(game_id):
        raise ValueError(f"{game_id!r} is not a game's id")
    entries = data.get("entries")
    if not isinstance(entries, list) or any(not isinstance(e, dict) for e in entries):
        raise ValueError("its log is not a list of actions")
    if not all(isinstance(entry.get("at"), str) for entry in entries):
        raise ValueError("an action of its log has no time")
    times = tuple(str(entry["at"]) for entry in entries)
    created_at = data.get("created_at")
    if not isinstance(created_at, str):
        raise ValueError("it has no creation time")
    try:
        record = Record.from_json({**{k: data.get(k) for k in _SETTINGS}, "log": entries})
    except (ValueError, TypeError) as error:
        raise ValueError(f"it does not replay: {error}") from None
    replayed = game_export(game_id, record, times)
    for key, value in replayed.items():
        if key == "entries" and data[key] != value:
            raise ValueError("the undone marks of its log are not what its replay gives")
        if key in data and data[key] != value:
            raise ValueError(f"the file says {key} {data[key]!r}, its log gives {value!r}")
    seating = _seating(data.get("seating"), record)
    devices = _devices(data.get("devices"))
    return StoredGame(game_id, record, created_at, times, seating, devices)


def _seating(data: object, record: Record) -> Seating | None:
    if data is None:
        return None
    refused = ValueError("its seating does not name a device, or nobody, for each seat")
    if not isinstance(data, dict) or type(data.get("rev")) is not int or data["rev"] < 0:
        raise refused
    try:
        seating = Seating.from_json(data, data["rev"])
    except (KeyError, TypeError, ValueError):
        raise refused from None
    named = (*seating.holders, *seating.standins)
    if (
        not isinstance(seating.host, str)
        or len(seating.holders) != len(record.seats)
        or not all(device is None or isinstance(device, str) for device in named)
        or not all(isinstance(device, str) for device in seating.watchers)
    ):
        raise refused
    return seating


def _devices(data: object) -> tuple[Device, ...]:
    fields = ("key", "created_at", "seen_at")
    if not isinstance(data, list) or not all(
        isinstance(d, dict) and all(isinstance(d.get(f), str) for f in fields) for d in data
    ):
        raise ValueError("its devices are not a list of keys and times")
    return tuple(Device(d["key"], d["created_at"], d["seen_at"]) for d in data)


@dataclass(frozen=True)
class Restored:
    """What a restore did: games written, skipped (already there, the same), refused."""

    restored: int = 0
    skipped: int = 0
    refused: int = 0

    def __str__(self) -> str:
        return (
            f"restored {self.restored} games, skipped {self.skipped} already there,"
            f" refused {self.refused}"
        )


def restore(
    store: Store,
    source: IO[bytes],
    *,
    progress: Callable[[], None] = lambda: None,
    refuse: Callable[[str], None] = lambda words: None,
) -> Restored:
    """Read the backup ``source`` into ``store``, one game at a time: each replayed, then
    written whole in one transaction, or skipped when already there with the same log, or
    refused in words (``refuse``) without stopping the others. A file that is no backup is
    a ValueError; a file cut short stops the restore, in words, with a refusal counted."""
    counts = {"restored": 0, "skipped": 0, "refused": 0}
    text = io.TextIOWrapper(gzip.GzipFile(fileobj=source, mode="rb"), encoding="utf-8")
    try:
        header = json.loads(text.readline() or "null")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, json.JSONDecodeError):
        header = None
    if not isinstance(header, dict) or {k: header.get(k) for k in FORMAT} != FORMAT:
        raise ValueError("the file is not a backup of Zar's games (zar backup writes them)")
    number = 1
    try:
        for number, line in enumerate(text, start=2):
            counts[_restore_line(store, number, line, refuse)] += 1
            progress()
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as error:
        refuse(f"the file is damaged or cut short after line {number} ({error}): the games"
               " before it are restored")  # fmt: skip
        counts["refused"] += 1
    return Restored(**counts)


def _restore_line(store: Store, number: int, line: str, refuse: Callable[[str], None]) -> str:
    """Restore one line's game: ``"restored"``, ``"skipped"`` or ``"refused"`` (in words)."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        refuse(f"line {number} is refused: it is not JSON ({error.msg})")
        return "refused"
    name = data.get("id") if isinstance(data, dict) else None
    if not _is_game_id(name):
        name = repr(name)
    try:
        game = game_of(data)
    except ValueError as error:
        refuse(f"game {name} (line {number}) is refused: {error}")
        return "refused"
    if store.restore(game, summary(game.record)):
        return "restored"
    try:
        there = store.stored(game.id)
    except ValueError as error:
        refuse(f"game {game.id} (line {number}) is refused: a game of this id is already in"
               f" the store, and does not replay there ({error}); it is left as it is")  # fmt: skip
        return "refused"
    if there.record == game.record and there.times == game.times:
        return "skipped"
    refuse(
        f"game {game.id} (line {number}) is refused: a game of this id is already in the store"
        f" with another log ({there.record.version} actions there, {game.record.version} in the"
        " file); it is left as it is"
    )
    return "refused"


def backup(path: Path, store: Store, progress: Progress) -> int:
    """``zar backup FILE``: written to ``FILE.partial`` (readable by its owner only), then
    renamed, so that a backup cut short never stands as ``FILE``. Exit status 1 when a
    game was left out."""
    partial = path.with_name(path.name + ".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            written = write_backup(store, out, progress=progress, refuse=_say)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    left = f", left out {written.left_out}" if written.left_out else ""
    print(f"backed up {written.games} games to {path}{left}")
    return 1 if written.left_out else 0


def restore_file(path: Path, store: Store, progress: Progress) -> int:
    """``zar restore FILE``: the summary line last; exit status 1 when any game was refused."""
    with path.open("rb") as source:
        size = os.fstat(source.fileno()).st_size
        done = restore(store, source, progress=lambda: progress(source.tell(), size), refuse=_say)
    print(done)
    return 1 if done.refused else 0


def run(command: str, path: Path, db: Path | None, progress: Progress) -> int:
    """Run ``zar backup`` or ``zar restore`` on the configured store; a store that fails
    midway (a full disk, the database gone) is one line, what was done before it kept."""
    store = open_configured(db, existing=command == "backup")
    try:
        if command == "backup":
            return backup(path, store, progress)
        return restore_file(path, store, progress)
    except StoreUnavailable as error:
        raise SystemExit(f"zar: {command}: {error}") from None
    except OSError as error:
        raise SystemExit(f"zar: {command}: {error.strerror or error}: {path}") from None
    finally:
        store.close()


def _say(words: str) -> None:
    print(f"zar: {words}", file=sys.stderr)
