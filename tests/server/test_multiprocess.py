"""Several server processes on one database serve one game between them: each request may
go to either, on the version the player saw; a screen following the game on one process
sees what is done through the other (PostgreSQL's notifications)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.serving import Server
from zar.server import create_app
from zar.store import SqliteStore


@pytest.fixture
def servers(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Server, Server]]:
    env = {"ZAR_DATABASE_URL": postgres_url}
    a = Server(tmp_path / "unused-a.sqlite3", env=env)
    b = Server(tmp_path / "unused-b.sqlite3", env=env)
    try:
        a.start()
        b.start()
        b.same_device_as(a)  # one phone, its requests going to either process
        yield a, b
    finally:
        for server in (a, b):
            if server.process and server.process.poll() is None:
                server.kill()
    assert not (tmp_path / "unused-a.sqlite3").exists()  # the games were all in PostgreSQL


class Follower:
    """A second screen: the game's server-sent events from one server, in a thread."""

    def __init__(self, server: Server, game_id: str) -> None:
        self.seen: list[dict[str, Any]] = []
        self._arrived = threading.Condition()
        url = f"{server.url}/api/games/{game_id}/events"
        self._server = server
        self._thread = threading.Thread(target=self._follow, args=(url,), daemon=True)
        self._thread.start()

    def _follow(self, url: str) -> None:
        with self._server.open(url, timeout=30) as events:
            for raw in events:
                line = raw.decode().strip()
                if line.startswith("data: "):
                    with self._arrived:
                        self.seen.append(json.loads(line[6:]))
                        self._arrived.notify_all()
                    if self.seen[-1]["over"]:
                        return

    def wait_for(self, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first state seen that passes ``check``, waiting for it up to 10 s."""
        with self._arrived:
            self._arrived.wait_for(lambda: any(check(s) for s in self.seen), timeout=10)
            return next(s for s in self.seen if check(s))


def next_intent(game: dict[str, Any]) -> dict[str, Any]:
    """A one-person Yams: throw once, then write the first box offered."""
    if game["throws"] == 0:
        return {"version": game["version"], "type": "throw"}
    return {"version": game["version"], "type": "fill", "box": sorted(game["options"])[0]}


def test_two_processes_play_one_game_in_turn(servers: tuple[Server, Server]) -> None:
    a, b = servers
    game = a.call("POST", "/api/games", {"game": "yams", "players": ["Ali"]})
    actions = f"/api/games/{game['id']}/actions"
    follower = Follower(b, game["id"])
    assert follower.wait_for(lambda s: True)["version"] == 0

    # Made through A, seen on B's live screen.
    shown = a.call("POST", actions, next_intent(game))
    assert follower.wait_for(lambda s: s["version"] == 1) == shown

    # The rest of the game, every request to the other process, on the version last shown.
    for served_by in [b, a] * 13:
        if shown["over"]:
            break
        moved = served_by.call("POST", actions, next_intent(shown))
        assert moved["version"] == shown["version"] + 1
        shown = moved
    assert shown["over"]
    assert shown["version"] == 26
    assert follower.wait_for(lambda s: s["over"]) == shown

    # Both processes show the same finished game; a stale intention is refused by either.
    deadline = time.monotonic() + 10
    while b.call("GET", f"/api/games/{game['id']}") != shown and time.monotonic() < deadline:
        time.sleep(0.05)
    assert a.call("GET", f"/api/games/{game['id']}") == shown
    assert b.call("GET", f"/api/games/{game['id']}") == shown
    for server in (a, b):
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.call("POST", actions, {"version": 25, "type": "throw"})
        assert refused.value.code == 409
        assert json.loads(refused.value.read())["version"] == 26
        refused.value.close()
    listed = b.call("GET", "/api/games?finished=true")
    assert [(g["id"], g["version"]) for g in listed] == [(game["id"], 26)]


def test_a_process_reads_again_a_game_another_moved_on(tmp_path: Path) -> None:
    """Two apps over one SQLite file, which tells nothing: an intention on a version ahead
    of the one cached is not refused but makes the app read the game again."""
    stores = [SqliteStore(tmp_path / "zar.sqlite3") for _ in range(2)]
    with TestClient(create_app(stores[0])) as a, TestClient(create_app(stores[1])) as b:
        shown = a.post("/api/games", json={"game": "yams", "players": ["Ali"]}).json()
        b.cookies = a.cookies  # one device, its requests going to either app
        actions = f"/api/games/{shown['id']}/actions"
        assert b.get(f"/api/games/{shown['id']}").json() == shown  # B caches version 0
        for served_by in [a, b] * 13:
            response = served_by.post(actions, json=next_intent(shown))
            assert response.status_code == 200, response.text
            shown = response.json()
        assert shown["over"]
        for served_by in (a, b):  # a stale intention is refused by either
            stale = served_by.post(actions, json={"version": 24, "type": "throw"})
            assert stale.status_code == 409
        assert b.get(f"/api/games/{shown['id']}").json() == shown
    for store in stores:
        store.close()
