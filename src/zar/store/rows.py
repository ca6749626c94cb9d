"""What both stores write and read alike: a game's settings and actions as JSON text, its
seating and who may reach it, and the list of games as one query, in the driver's
placeholder style (``?`` or ``%s``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from zar.history import figures
from zar.record import Abandon, Action, Record, action_from_json, action_to_json
from zar.seating import Seating
from zar.store.base import Device, GameSummary, Invitation, StoredGame, UnknownGame
from zar.table import Seat

__all__ = [
    "FIGURES_COLUMN",
    "HOST",
    "WATCHER",
    "Migration",
    "abandons",
    "access_changes",
    "access_rows",
    "action_rows",
    "device_seen_at",
    "few_games",
    "figures_query",
    "figures_text",
    "fill_figures",
    "fill_seat_kinds",
    "game_ids_query",
    "games_query",
    "insert_access",
    "insert_game",
    "insert_invitation",
    "kept_figures",
    "read_game",
    "read_invitation",
    "read_log",
    "read_seating",
    "record_from_rows",
    "seating_text",
    "settings_text",
    "spend_invitation",
    "summary_of",
    "turn_of",
    "write_figures",
    "write_seating",
]


class Connection(Protocol):
    """What both drivers' connections do: run a query and give a cursor to fetch from."""

    def execute(self, query: str, params: Sequence[Any], /) -> Any: ...


# A migration's steps, in order: statements, or what cannot be said in SQL (a replay), a
# function of the connection.
Migration = tuple[str | Callable[[Connection], None], ...]


def settings_text(record: Record) -> str:
    return json.dumps(record.settings_json())


def action_rows(
    game_id: str, expected_version: int, actions: Sequence[Action], now: str
) -> list[tuple[str, int, str, str]]:
    """The rows (game_id, seq, action, at) of ``actions`` appended after ``expected_version``."""
    return [
        (game_id, expected_version + i + 1, json.dumps(action_to_json(action)), now)
        for i, action in enumerate(actions)
    ]


# Migration 4 of both stores, but for filling ``turn`` (each database reads JSON its own
# way): seats that belong to devices.
SEATING_COLUMNS = (
    "ALTER TABLE games ADD COLUMN seating TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE games ADD COLUMN seating_rev INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN turn INTEGER NOT NULL DEFAULT -1",
)
SEATING_TABLES = (
    """CREATE TABLE access (
        game_id TEXT NOT NULL REFERENCES games(id),
        device TEXT NOT NULL,
        seat INTEGER NOT NULL,
        PRIMARY KEY (device, game_id, seat)
    )""",
    "CREATE INDEX access_by_game ON access (game_id)",
    """CREATE TABLE devices (
        key TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        seen_at TEXT NOT NULL
    )""",
    """CREATE TABLE invitations (
        key TEXT PRIMARY KEY,
        code TEXT UNIQUE,
        game_id TEXT NOT NULL REFERENCES games(id),
        kind TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        spent_by TEXT
    )""",
    "CREATE INDEX invitations_by_game ON invitations (game_id)",
)


# Migration 5 of both stores, with fill_figures: each finished game's part in the
# statistics (zar.history.figures), kept with it so that the statistics never replay.
FIGURES_COLUMN = "ALTER TABLE games ADD COLUMN figures TEXT"


def figures_text(kept: Mapping[str, Any] | None) -> str | None:
    """A game's figures as stored: JSON, or NULL while it is not finished."""
    return None if kept is None else json.dumps(kept)


def fill_figures(db: Connection, mark: str) -> None:
    """Work out the figures of the finished games stored before they were kept, each game
    replayed once; one whose log does not replay is left without (and worked out again, and
    refused, when the statistics read it, as before)."""
    query = f"SELECT id FROM games WHERE finished = {mark} AND abandoned = {mark} ORDER BY id"
    for (game_id,) in db.execute(query, (True, False)).fetchall():
        settings, log = read_log(db, mark, game_id)
        try:
            record = record_from_rows(settings, (action for action, _ in log))
        except ValueError:
            continue
        db.execute(
            f"UPDATE games SET figures = {mark} WHERE id = {mark}",
            (figures_text(figures(record)), game_id),
        )


# The rows migration 6 reads at a time.
KINDS_BATCH = 500


def fill_seat_kinds(db: Connection, mark: str) -> None:
    """Mark which seats are the computer's, read from each game's settings: in its summary
    (``computer``, which the list of games names it by) and in the figures it keeps of
    version 2 (made of version 3, the luck account kept: nothing is replayed). Older
    figures are worked out again when the statistics read them, as before."""
    last = ""
    while True:
        rows = db.execute(
            f"SELECT id, settings, summary, figures FROM games WHERE id > {mark}"
            f" ORDER BY id LIMIT {KINDS_BATCH}",
            (last,),
        ).fetchall()
        for game_id, settings, summary, kept in rows:
            seats = json.loads(settings).get("seats", [])
            computer = [bool(seat.get("computer")) for seat in seats]
            listed = {**json.loads(summary), "computer": computer}
            part = None if kept is None else json.loads(kept)
            if part is not None and part.get("version") == 2 and len(part["seats"]) == len(seats):
                part["version"] = 3
                for seat, machine in zip(part["seats"], computer, strict=True):
                    seat["computer"] = machine
            db.execute(
                f"UPDATE games SET summary = {mark}, figures = {mark} WHERE id = {mark}",
                (json.dumps(listed), figures_text(part), game_id),
            )
        if len(rows) < KINDS_BATCH:
            return
        last = rows[-1][0]


def write_figures(
    db: Connection, mark: str, game_id: str, version: int, kept: Mapping[str, Any]
) -> None:
    """Keep a finished game's figures, if it is still at ``version``."""
    db.execute(
        f"UPDATE games SET figures = {mark} WHERE id = {mark} AND version = {mark}"
        f" AND finished = {mark}",
        (json.dumps(kept), game_key(game_id), version, True),
    )


def abandons(actions: Sequence[Action]) -> bool:
    """Whether ``actions`` abandon the game: its row is marked so, for good, and no list of
    games shows it again. Derived from the log, the mark can never disagree with it."""
    return any(isinstance(action, Abandon) for action in actions)


# The seat an access row names for a host or a watcher, who hold no seat by that row.
HOST = -1
WATCHER = -2


def seating_text(seating: Seating | None) -> str:
    """A seating as stored: JSON, or nothing for a game from before seats. The watchers are
    not in it: they are their rows of ``access`` alone (a game may have thousands, and the
    seating is written again at each change of a seat)."""
    if seating is None:
        return ""
    return json.dumps(seating.to_json(watchers=False))


def _seat_rows(game_id: str, seating: Seating) -> set[tuple[str, str, int]]:
    """The rows of ``access`` of the host and of the seats held: a few, whatever the watchers."""
    rows = {(game_id, seating.host, HOST)}
    rows |= {(game_id, device, seat) for seat, device in enumerate(seating.holders) if device}
    return rows


def access_rows(game_id: str, seating: Seating) -> list[tuple[str, str, int]]:
    """The rows (game_id, device, seat) that say who may reach the game: a row per seat held,
    one for the host, one per watcher. The lists of a device's games read them."""
    rows = _seat_rows(game_id, seating)
    rows |= {(game_id, device, WATCHER) for device in seating.watchers}
    return sorted(rows)


def access_changes(
    game_id: str, before: Seating | None, after: Seating
) -> tuple[list[tuple[str, str, int]], list[tuple[str, str, int]]]:
    """The rows of ``access`` that go and those that come when ``before`` becomes ``after``:
    the seats' that changed and the watchers' that came or went, never the others'."""
    if before is None:
        return [], access_rows(game_id, after)
    old, new = _seat_rows(game_id, before), _seat_rows(game_id, after)
    if after.watchers is not before.watchers:  # else the same set: nothing to compare
        old |= {(game_id, d, WATCHER) for d in before.watchers - after.watchers}
        new |= {(game_id, d, WATCHER) for d in after.watchers - before.watchers}
    return sorted(old - new), sorted(new - old)


def turn_of(finished: bool, summary: Mapping[str, Any]) -> int:
    """The seat on turn, for the list of a device's games (the games where it is its turn
    first); -1 once the game is over."""
    seat = summary.get("seat", -1)
    return -1 if finished or summary.get("abandoned") or type(seat) is not int else seat


# What a game's id is made of (``secrets.token_urlsafe``): anything else is no game, and
# never reaches the database (a NUL is an error to PostgreSQL, not a miss).
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def game_key(game_id: str) -> str:
    """``game_id``, if it can be a game's; else :class:`UnknownGame`."""
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        raise UnknownGame(game_id)
    return game_id


def read_seating(db: Connection, mark: str, game_id: str) -> Seating | None:
    """The game's seating at its revision (None: from before seats); :class:`UnknownGame`."""
    return _stored_seating(db, mark, game_id)


def _stored_seating(db: Connection, mark: str, game_id: str) -> Seating | None:
    """:func:`read_seating`: the seating's row, and its watchers' rows of ``access``."""
    row = db.execute(
        f"SELECT seating, seating_rev FROM games WHERE id = {mark}", (game_key(game_id),)
    ).fetchone()
    if row is None:
        raise UnknownGame(game_id)
    if not row[0]:
        return None
    seating = Seating.from_json(json.loads(row[0]), row[1])
    query = f"SELECT device FROM access WHERE game_id = {mark} AND seat = {mark}"
    watchers = {device for (device,) in db.execute(query, (game_id, WATCHER)).fetchall()}
    # A seating stored before the watchers left it still names them: they have rows too.
    return replace(seating, watchers=seating.watchers | watchers) if watchers else seating


def write_seating(
    db: Connection, mark: str, game_id: str, seating: Seating, before: Seating | None = None
) -> bool:
    """Keep ``seating`` if the stored one is still the revision before it, and who may reach
    the game by it; false (nothing written) if it moved on. In the caller's transaction.

    Only the rows of ``access`` that change are written (:func:`access_changes`): a seat's
    move writes as many rows with 5 000 watchers as with none. ``before`` is the seating
    as stored at the revision before (read here if not given)."""
    if before is None or before.rev != seating.rev - 1:
        before = _stored_seating(db, mark, game_id)
    done = db.execute(
        f"UPDATE games SET seating = {mark}, seating_rev = {mark}"
        f" WHERE id = {mark} AND seating_rev = {mark}",
        (seating_text(seating), seating.rev, game_id, seating.rev - 1),
    ).rowcount
    if not done:
        return False
    gone, come = access_changes(game_id, before, seating)
    for row in gone:
        db.execute(
            f"DELETE FROM access WHERE game_id = {mark} AND device = {mark} AND seat = {mark}", row
        )
    for row in come:
        db.execute(
            f"INSERT INTO access (game_id, device, seat) VALUES ({mark}, {mark}, {mark})", row
        )
    return True


def insert_access(db: Connection, mark: str, game_id: str, seating: Seating) -> None:
    for row in access_rows(game_id, seating):
        db.execute(
            f"INSERT INTO access (game_id, device, seat) VALUES ({mark}, {mark}, {mark})", row
        )


def insert_invitation(db: Connection, mark: str, invitation: Invitation) -> None:
    db.execute(
        "INSERT INTO invitations (key, code, game_id, kind, created_at, expires_at, spent_by)"
        f" VALUES ({', '.join([mark] * 7)})",
        (invitation.key, invitation.code, invitation.game_id, invitation.kind,
         invitation.created_at, invitation.expires_at, invitation.spent_by),
    )  # fmt: skip


def read_invitation(
    db: Connection, mark: str, key: str | None, code: str | None
) -> Invitation | None:
    """The invitation of this key, or else of this short code."""
    column, value = ("key", key) if key is not None else ("code", code)
    row = db.execute(
        "SELECT key, code, game_id, kind, created_at, expires_at, spent_by"
        f" FROM invitations WHERE {column} = {mark}",
        (value,),
    ).fetchone()
    return None if row is None else Invitation(*row)


def spend_invitation(db: Connection, mark: str, key: str, device: str) -> bool:
    """Spent by ``device``, if nobody else spent it first."""
    done = db.execute(
        f"UPDATE invitations SET spent_by = {mark} WHERE key = {mark}"
        f" AND (spent_by IS NULL OR spent_by = {mark})",
        (device, key, device),
    ).rowcount
    return bool(done)


def device_seen_at(db: Connection, mark: str, key: str) -> str | None:
    row = db.execute(f"SELECT seen_at FROM devices WHERE key = {mark}", (key,)).fetchone()
    return None if row is None else str(row[0])


def read_log(db: Connection, mark: str, game_id: str) -> tuple[str, list[tuple[str, str]]]:
    """A game's settings row and its log, each action with the time it was stored, in order,
    in the driver's placeholder style; raises :class:`UnknownGame`."""
    row = db.execute(
        f"SELECT settings FROM games WHERE id = {mark}", (game_key(game_id),)
    ).fetchone()
    if row is None:
        raise UnknownGame(game_id)
    query = f"SELECT action, at FROM actions WHERE game_id = {mark} ORDER BY seq"
    log = [(str(action), str(at)) for action, at in db.execute(query, (game_id,)).fetchall()]
    return str(row[0]), log


def read_since(db: Connection, mark: str, game_id: str, version: int) -> list[str]:
    """The game's actions after ``version``, in order (none: it is no further, or unknown)."""
    query = f"SELECT action FROM actions WHERE game_id = {mark} AND seq > {mark} ORDER BY seq"
    rows = db.execute(query, (game_key(game_id), version)).fetchall()
    return [str(action) for (action,) in rows]


def record_from_rows(settings: str, actions: Iterable[str]) -> Record:
    """The record of a game's settings row and its action rows in order, replayed (the rows,
    each a JSON object, read as one list: one parse, not one a row)."""
    log = json.loads(f"[{','.join(actions)}]")
    return Record.from_json({**json.loads(settings), "log": log})


# Under this many rows of ``access``, a device's games are read from there first.
FEW_ROWS = 2_000


def few_games(db: Connection, mark: str, device: str) -> bool:
    """Whether ``device`` may reach few games: its rows of ``access`` counted in the index,
    no further than :data:`FEW_ROWS`."""
    query = f"SELECT count(*) FROM (SELECT 1 FROM access WHERE device = {mark} LIMIT {FEW_ROWS})"
    return int(db.execute(query, (device,)).fetchone()[0]) < FEW_ROWS


def _reaching(mark: str, device_first: bool) -> tuple[str, str]:
    """The test of a row's abandon and of the device reaching the game. By default the games
    come in the lists' index order, each probed in ``access``: what a device with many
    games wants. ``device_first`` (SQLite, for a device with :func:`few_games`, as it keeps
    no statistics to choose by): its games read from ``access`` first, then sorted, and
    ``+`` keeps SQLite from taking the lists' index instead."""
    if device_first:
        return "+g.abandoned", f"g.id IN (SELECT a.game_id FROM access a WHERE a.device = {mark})"
    reach = f"EXISTS (SELECT 1 FROM access a WHERE a.game_id = g.id AND a.device = {mark})"
    return "g.abandoned", reach


def game_ids_query(mark: str) -> str:
    """``SELECT`` the ids of games after one (``after``, ``limit``), in order: every game,
    abandoned ones too, page by page by the primary key."""
    return f"SELECT id FROM games WHERE id > {mark} ORDER BY id LIMIT {mark}"


def kept_record(settings: str, actions: Iterable[str]) -> Record:
    """The record of a game's rows as they are kept, its log replayed only when its state
    is asked for: a backup copies logs, it need not play them (the restore does)."""
    data = json.loads(settings)
    kind, hints, rules = data["kind"], data.get("hints"), data.get("rules")
    return Record(
        kind,
        tuple(Seat(s["name"], bool(s.get("computer")), s.get("level")) for s in data["seats"]),
        data.get("target"),
        data.get("autofill"),
        tuple(action_from_json(kind, json.loads(action), rules) for action in actions),
        None if hints is None else tuple(hints),
        rules,
    )


def read_game(db: Connection, mark: str, game_id: str) -> StoredGame:
    """The whole game as kept, in the caller's transaction (one moment of it), its log not
    replayed; :class:`UnknownGame`."""
    settings, log = read_log(db, mark, game_id)
    created_at = str(
        db.execute(f"SELECT created_at FROM games WHERE id = {mark}", (game_id,)).fetchone()[0]
    )
    seating = read_seating(db, mark, game_id)
    devices: list[Device] = []
    for key in sorted(seating.devices if seating is not None else ()):
        row = db.execute(
            f"SELECT key, created_at, seen_at FROM devices WHERE key = {mark}", (key,)
        ).fetchone()
        if row is not None:
            devices.append(Device(*row))
    return StoredGame(
        game_id,
        kept_record(settings, (action for action, _ in log)),
        created_at,
        tuple(at for _, at in log),
        seating,
        tuple(devices),
    )


def insert_game(
    db: Connection,
    mark: str,
    game: StoredGame,
    summary: Mapping[str, Any],
    many: Callable[[str, list[tuple[Any, ...]]], object],
) -> bool:
    """Write ``game`` whole, its row as the appends would have left it (a finished game's
    figures too), its actions by ``many`` (the driver's ``executemany``), and the devices it
    names not known yet; false (nothing written) if a game of its id is there. In the
    caller's transaction."""
    record, finished = game.record, game.record.state.is_over
    if len(game.times) != record.version:
        raise ValueError(f"game {game.id} has {record.version} actions and {len(game.times)} times")
    inserted = db.execute(
        "INSERT INTO games (id, kind, settings, created_at, updated_at, version, finished,"
        " abandoned, summary, seating, seating_rev, turn, figures)"
        f" VALUES ({', '.join([mark] * 13)}) ON CONFLICT (id) DO NOTHING",
        (game_key(game.id), record.kind, settings_text(record), game.created_at,
         game.times[-1] if game.times else game.created_at, record.version, finished,
         record.abandoned, json.dumps(summary), seating_text(game.seating),
         game.seating.rev if game.seating is not None else 0,
         turn_of(finished or record.abandoned, summary),
         figures_text(figures(record))),
    ).rowcount  # fmt: skip
    if not inserted:
        return False
    many(
        f"INSERT INTO actions (game_id, seq, action, at) VALUES ({', '.join([mark] * 4)})",
        [(game.id, seq, json.dumps(action_to_json(action)), at)
         for seq, (action, at) in enumerate(zip(record.log, game.times, strict=True), start=1)],
    )  # fmt: skip
    for device in game.devices:
        db.execute(
            f"INSERT INTO devices (key, created_at, seen_at) VALUES ({mark}, {mark}, {mark})"
            " ON CONFLICT (key) DO NOTHING",
            (device.key, device.created_at, device.seen_at),
        )
    if game.seating is not None:
        insert_access(db, mark, game.id, game.seating)
    return True


def games_query(
    mark: str,
    *,
    finished: bool | None,
    kind: str | None,
    limit: int,
    offset: int,
    device: str | None = None,
    device_first: bool = False,
) -> tuple[str, tuple[Any, ...]]:
    """``SELECT`` the latest games first, never an abandoned one; only finished or unfinished
    ones, or of one kind; ``limit`` of them after the first ``offset``. With ``device``: only
    the games it may reach, those where it is its turn first.

    >>> games_query("?", finished=True, kind=None, limit=5, offset=10)[1]
    ('', '', False, True, 5, 10)
    """
    # Once a game is over, its turn is -1, which is also the host's seat in ``access``.
    turn = f"(g.turn >= 0 AND EXISTS (SELECT 1 FROM access t WHERE t.game_id = g.id" \
        f" AND t.device = {mark} AND t.seat = g.turn))"  # fmt: skip
    hosts = f"EXISTS (SELECT 1 FROM access h WHERE h.game_id = g.id AND h.device = {mark}" \
        f" AND h.seat = {HOST})"  # fmt: skip
    # The page is chosen first, then told whose turn it is and who hosts: PostgreSQL would
    # otherwise hash every row of the device's access for them, as if every game were shown.
    columns = "g.id, g.kind, g.created_at, g.updated_at, g.version, g.finished, g.summary"
    abandoned, reach = _reaching(mark, device_first)
    where = [f"{abandoned} = {mark}"]
    params: list[Any] = [device or "", device or "", False]
    if device is not None:
        where.append(reach)
        params.append(device)
    if finished is not None:
        where.append(f"g.finished = {mark}")
        params.append(finished)
    if kind is not None:
        where.append(f"g.kind = {mark}")
        params.append(kind)
    # The games on its turn first: none of the finished ones is, and the latest come in the
    # index's order, read no further than the page.
    by_turn = device is not None and finished is not True
    order = f"{turn} DESC, " if by_turn else ""
    if by_turn:
        params.append(device)
    page = (
        f"SELECT {columns}, g.turn FROM games g WHERE {' AND '.join(where)}"
        f" ORDER BY {order}g.updated_at DESC, g.id LIMIT {mark} OFFSET {mark}"
    )
    query = (
        f"SELECT {columns}, {turn} AS my_turn, {hosts} FROM ({page}) g"
        f" ORDER BY {'my_turn DESC, ' if by_turn else ''}g.updated_at DESC, g.id"
    )
    return query, (*params, limit, offset)


def figures_query(
    mark: str, *, kind: str, limit: int, device: str | None, device_first: bool = False
) -> tuple[str, tuple[Any, ...]]:
    """``SELECT`` the id and the kept figures of the latest finished games of ``kind``, never
    an abandoned one, ``limit`` of them; with ``device``, of the games it may reach (see
    :func:`_reaching`). Read no further than ``limit``; nothing else of the row is read."""
    abandoned, reach = _reaching(mark, device_first)
    query = (
        "SELECT g.id, g.figures FROM games g"
        f" WHERE {abandoned} = {mark} AND g.finished = {mark} AND g.kind = {mark}"
    )
    params: list[Any] = [False, True, kind]
    if device is not None:
        query += f" AND {reach}"
        params.append(device)
    query += f" ORDER BY g.updated_at DESC, g.id LIMIT {mark}"
    return query, (*params, limit)


def kept_figures(rows: Iterable[Sequence[Any]]) -> list[tuple[str, Mapping[str, Any] | None]]:
    """The rows of :func:`figures_query`, their figures read."""
    return [(str(id_), None if kept is None else json.loads(kept)) for id_, kept in rows]


def summary_of(row: Sequence[Any]) -> GameSummary:
    """A row of :func:`games_query` as a :class:`GameSummary`."""
    id_, kind, created_at, updated_at, version, finished, summary, my_turn, hosts = row
    return GameSummary(
        id=id_,
        kind=kind,
        created_at=created_at,
        updated_at=updated_at,
        version=version,
        finished=bool(finished),
        summary=json.loads(summary),
        my_turn=bool(my_turn),
        hosts=bool(hosts),
    )
