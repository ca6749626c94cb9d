"""The real server process: killed mid-game and started again, the game is intact; a second
screen follows the game live."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.serving import Server, running


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(tmp_path / "zar.sqlite3") as started:
        yield started


def test_a_killed_server_brings_every_game_back(server: Server) -> None:
    yams = server.call("POST", "/api/games", {"game": "yams", "players": ["Ali"], "computer": True})
    farkle = server.call("POST", "/api/games", {"game": "10000", "players": ["Ece", "Can"]})
    yams = server.call("POST", f"/api/games/{yams['id']}/actions", {"version": 0, "type": "throw"})
    yams = server.call(
        "POST", f"/api/games/{yams['id']}/actions", {"version": 1, "type": "throw", "keep": [0]}
    )
    farkle = server.call(
        "POST", f"/api/games/{farkle['id']}/actions", {"version": 0, "type": "throw"}
    )
    server.kill()  # SIGKILL, mid-round: no chance to tidy up
    server.start()
    assert server.call("GET", f"/api/games/{yams['id']}") == yams
    assert server.call("GET", f"/api/games/{farkle['id']}") == farkle
    # and it plays on from there
    moved = server.call(
        "POST", f"/api/games/{yams['id']}/actions", {"version": 2, "type": "fill", "box": "CHANCE"}
    )
    assert moved["version"] == 3
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.call("POST", f"/api/games/{yams['id']}/actions", {"version": 2, "type": "throw"})
    assert refused.value.code == 409
    refused.value.close()


def test_a_second_screen_follows_live(server: Server) -> None:
    game = server.call("POST", "/api/games", {"game": "yams", "players": ["Ali"]})
    seen: list[dict[str, Any]] = []

    def follow() -> None:
        with server.open(f"{server.url}/api/games/{game['id']}/events", timeout=20) as r:
            for raw in r:
                line = raw.decode().strip()
                if line.startswith("data: "):
                    seen.append(json.loads(line[6:]))
                    if len(seen) == 2:
                        return

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    deadline = time.monotonic() + 10
    while not seen and time.monotonic() < deadline:
        time.sleep(0.02)
    assert seen
    assert seen[0]["version"] == 0
    thrown = server.call(
        "POST", f"/api/games/{game['id']}/actions", {"version": 0, "type": "throw"}
    )
    follower.join(timeout=10)
    assert len(seen) == 2
    assert seen[1] == thrown
