"""A long log read back: a game at an old version replays from the nearest snapshot, and
its log and progress are made in a worker thread, once a version, so that a client reading
them in a loop holds up nobody."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import httpx2 as httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from record_support import counting
from server.api_support import new
from zar import farkle
from zar.record import SNAPSHOT_EVERY, Action, Undo
from zar.server import analysis, create_app
from zar.server.views import summary
from zar.store import SqliteStore

ENTRIES = 2_002  # a log of 2 001 entries: long (analysis._Replies.LONG)


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


def held(monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[threading.Event, threading.Event]:
    """``analysis.<name>`` made to wait, once entered, until the test lets it go: (entered,
    let go). Run on the event loop, it would hold the loop itself."""
    entered, let_go = threading.Event(), threading.Event()
    work: Callable[..., Any] = getattr(analysis, name)

    def waiting(*args: Any) -> Any:
        entered.set()
        assert let_go.wait(10), "nobody was answered meanwhile"
        return work(*args)

    monkeypatch.setattr(analysis, name, waiting)
    return entered, let_go


@pytest.mark.parametrize(("route", "work"), [("log", "log_entries"), ("progress", "progress")])
def test_a_long_read_holds_up_nobody_and_is_made_once_a_version(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch, route: str, work: str
) -> None:
    """While a long log's ``route`` is made, another request is answered; asked again of the
    same version, it is not made again; a turn banked later, it is."""
    with TestClient(create_app(store)) as client:
        game = long_game(store, client)
        app: FastAPI = client.app  # type: ignore[assignment]
        cookies = dict(client.cookies)
    entered, let_go = held(monkeypatch, work)
    applied = counting(monkeypatch)

    async def reading() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver", cookies=cookies
        ) as reader:
            url = f"/api/games/{game['id']}"
            slow = [asyncio.create_task(reader.get(f"{url}/{route}")) for _ in range(3)]
            assert await asyncio.to_thread(entered.wait, 10)
            other = await reader.get(url)  # answered while the log's reply is made
            let_go.set()
            return [other, *await asyncio.gather(*slow)]

    other, *replies = asyncio.run(reading())
    assert other.status_code == 200, other.text
    assert [reply.status_code for reply in replies] == [200] * 3
    assert replies[0].content == replies[1].content == replies[2].content
    made = applied[0]
    assert made > 0 if route == "progress" else made == 0  # the progress replays the log
    with TestClient(app, cookies=cookies) as client:
        again = client.get(f"/api/games/{game['id']}/{route}")
        assert again.content == replies[0].content
        assert applied[0] == made  # not made again
        for version, intent in enumerate(({"type": "set_aside", "set_aside": [0]},
                                          {"type": "bank"}), game["version"]):  # fmt: skip
            moved = client.post(
                f"/api/games/{game['id']}/actions", json={"version": version, **intent}
            )
            assert moved.status_code == 200, moved.text
        assert client.get(f"/api/games/{game['id']}/{route}").content != again.content


def test_the_replies_of_long_logs_are_made_one_at_a_time(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two long logs' progress asked at once (a client acting and reading in turn has them
    made again and again): the second is made once the first is, one worker thread busy."""
    with TestClient(create_app(store)) as client:
        games = [long_game(store, client) for _ in range(2)]
        app: FastAPI = client.app  # type: ignore[assignment]
        cookies = dict(client.cookies)
    inside, most = [0], [0]
    first, second, let_go = threading.Event(), threading.Event(), threading.Event()
    work = analysis.progress

    def waiting(*args: Any) -> Any:
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        (second if first.is_set() else first).set()
        assert let_go.wait(10)
        inside[0] -= 1
        return work(*args)

    monkeypatch.setattr(analysis, "progress", waiting)

    async def reading() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver", cookies=cookies
        ) as reader:
            slow = [
                asyncio.create_task(reader.get(f"/api/games/{game['id']}/progress"))
                for game in games
            ]
            assert await asyncio.to_thread(first.wait, 10)
            assert (await reader.get(f"/api/games/{games[1]['id']}")).status_code == 200
            assert not await asyncio.to_thread(second.wait, 2)  # not while the first is made
            let_go.set()
            return [reply.status_code for reply in await asyncio.gather(*slow)]

    assert asyncio.run(reading()) == [200, 200]
    assert second.is_set()
    assert most[0] == 1
