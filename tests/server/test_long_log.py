"""A long log read back: the game at an old version replays from the nearest snapshot of
its record, and its progress is read off the record, whatever the log's length."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from record_support import counting
from server.api_support import new
from zar import farkle
from zar.record import SNAPSHOT_EVERY, Action, Undo
from zar.server import create_app
from zar.server.limits import Rate
from zar.server.views import summary
from zar.store import SqliteStore

ENTRIES = 2_002  # a log of 2 001 entries


def long_game(store: SqliteStore, client: TestClient) -> dict[str, Any]:
    """A 10 000 game of Ali's whose log holds ``ENTRIES`` entries (a throw, then a set
    aside and its undo over and over, written in the store directly), as the server reads
    it."""
    app: Any = client.app
    game = new(client, "10000", "Ali")
    record = store.load(game["id"])
    log: list[Action] = [farkle.Throw(0, (1, 2, 3, 4, 6, 6))]
    log += [farkle.SetAside(0, (0,)), Undo(0)] * ((ENTRIES - 1) // 2)
    for action in log:
        record = record.append(action)
    store.append(
        game["id"], 0, log, "2026-01-01T00:00:00+00:00", finished=False, summary=summary(record)
    )
    app.state.games.changed(None, 0)  # what is cached is read again
    shown = client.get(f"/api/games/{game['id']}").json()
    assert shown["version"] == len(log) == ENTRIES - 1
    return dict(shown)


def test_an_old_version_of_a_long_log_replays_from_the_nearest_snapshot(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The moves the engine applies to show the game at a version: fewer than a snapshot's
    span, whichever version, at the log's end as at its start."""
    with TestClient(create_app(store)) as client:
        game = long_game(store, client)
        for at in (0, 1, 99, 100, 250, 1_001, ENTRIES - 2, ENTRIES - 1):
            applied = counting(monkeypatch)
            shown = client.get(f"/api/games/{game['id']}?at={at}")
            assert shown.status_code == 200, shown.text
            assert shown.json()["at"] == at
            assert shown.json()["turn_points"] == (100 if at % 2 == 0 and at else 0)
            assert applied[0] < SNAPSHOT_EVERY, (at, applied[0])
            monkeypatch.undo()


def test_a_long_logs_progress_applies_no_move(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The totals after each turn are kept with the record's replay: its progress (made
    again at each of its versions) is read off it, none of the log's moves applied again."""
    with TestClient(create_app(store)) as client:
        game = long_game(store, client)
        url = f"/api/games/{game['id']}"
        for intent in ({"type": "set_aside", "set_aside": [0]}, {"type": "bank"}):
            moved = client.post(f"{url}/actions", json={"version": game["version"], **intent})
            assert moved.status_code == 200, moved.text
            game = moved.json()
        applied = counting(monkeypatch)
        assert client.get(f"{url}/progress").json()["turns"] == [[100]]
        assert applied[0] == 0


def test_a_long_logs_reads_cost_as_the_work_they_ask_for(store: SqliteStore) -> None:
    """A heavy read of a long log is worth a token and one more each thousand entries: a
    client reading a 2 001-entry log in a loop is refused three times sooner than one
    reading a short game's, the refusal in words with the seconds to wait."""
    rates = {"device": Rate(9, 0.001)}
    with TestClient(create_app(store, read_rates=rates)) as client:
        game = long_game(store, client)
        reads = [client.get(f"/api/games/{game['id']}/log") for _ in range(4)]
        assert [r.status_code for r in reads] == [200, 200, 200, 429]  # 3 tokens each
        assert reads[-1].json()["reason"] == "too-many-reads"
        assert int(reads[-1].headers["retry-after"]) >= 1
    with TestClient(create_app(store, read_rates=rates)) as client:
        short = new(client, "10000", "Ece")
        reads = [client.get(f"/api/games/{short['id']}/log") for _ in range(10)]
        assert [r.status_code for r in reads] == [200] * 9 + [429]  # a token each
