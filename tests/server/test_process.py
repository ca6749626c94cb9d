"""The real server process: killed mid-game and started again, the game is intact; a second
screen follows the game live."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``zar serve`` in its own process, on a free port of 127.0.0.1."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "ZAR_PORT": str(self.port), "ZAR_DB": str(self.db)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "zar", "serve"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        assert f"http://127.0.0.1:{self.port}/" in first  # it prints its address
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.call("GET", "/api/games")
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "zar.sqlite3")
    running.start()
    yield running
    if running.process and running.process.poll() is None:
        running.kill()


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
        with urllib.request.urlopen(f"{server.url}/api/games/{game['id']}/events", timeout=20) as r:
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
