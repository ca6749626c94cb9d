"""What both stores write and read alike: a game's settings and actions as JSON text, and
the list of games as one query, in the driver's placeholder style (``?`` or ``%s``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from zar.record import Abandon, Action, Record, action_to_json
from zar.store.base import GameSummary, UnknownGame

__all__ = [
    "abandons",
    "action_rows",
    "games_query",
    "read_log",
    "record_from_rows",
    "settings_text",
    "summary_of",
]


class Connection(Protocol):
    """What both drivers' connections do: run a query and give a cursor to fetch from."""

    def execute(self, query: str, params: Sequence[Any], /) -> Any: ...


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


def abandons(actions: Sequence[Action]) -> bool:
    """Whether ``actions`` abandon the game: its row is marked so, for good, and no list of
    games shows it again. Derived from the log, the mark can never disagree with it."""
    return any(isinstance(action, Abandon) for action in actions)


def read_log(db: Connection, mark: str, game_id: str) -> tuple[str, list[tuple[str, str]]]:
    """A game's settings row and its log, each action with the time it was stored, in order,
    in the driver's placeholder style; raises :class:`UnknownGame`."""
    row = db.execute(f"SELECT settings FROM games WHERE id = {mark}", (game_id,)).fetchone()
    if row is None:
        raise UnknownGame(game_id)
    query = f"SELECT action, at FROM actions WHERE game_id = {mark} ORDER BY seq"
    log = [(str(action), str(at)) for action, at in db.execute(query, (game_id,)).fetchall()]
    return str(row[0]), log


def record_from_rows(settings: str, actions: Iterable[str]) -> Record:
    """The record of a game's settings row and its action rows in order, replayed."""
    return Record.from_json({**json.loads(settings), "log": [json.loads(a) for a in actions]})


def games_query(
    mark: str, *, finished: bool | None, kind: str | None, limit: int, offset: int
) -> tuple[str, tuple[Any, ...]]:
    """``SELECT`` the latest games first, never an abandoned one; only finished or unfinished
    ones, or of one kind; ``limit`` of them after the first ``offset``.

    >>> games_query("?", finished=True, kind=None, limit=5, offset=10)[1]
    (False, True, 5, 10)
    """
    query = "SELECT id, kind, created_at, updated_at, version, finished, summary FROM games"
    where = [f"abandoned = {mark}"]
    params: list[Any] = [False]
    if finished is not None:
        where.append(f"finished = {mark}")
        params.append(finished)
    if kind is not None:
        where.append(f"kind = {mark}")
        params.append(kind)
    query += " WHERE " + " AND ".join(where)
    query += f" ORDER BY updated_at DESC, id LIMIT {mark} OFFSET {mark}"
    return query, (*params, limit, offset)


def summary_of(row: Sequence[Any]) -> GameSummary:
    """A row of :func:`games_query` as a :class:`GameSummary`."""
    id_, kind, created_at, updated_at, version, finished, summary = row
    return GameSummary(
        id=id_,
        kind=kind,
        created_at=created_at,
        updated_at=updated_at,
        version=version,
        finished=bool(finished),
        summary=json.loads(summary),
    )
