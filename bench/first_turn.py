"""The computer's first turn on a fresh machine: ``zar serve`` started over empty caches
(its tables and numba's compiled code in new folders, never the user's own), a Yams game
of one person and the computer started at once, the person's round played, then the
computer's turn step by step, as the page asks for it.

Prints how long after the server's start it answered the game's screen (``GET /`` and the
game's state), how long the computer's first step and its whole turn took, and the longest
any request waited meanwhile.

    .venv/bin/python bench/first_turn.py             # fresh caches (made and removed here)
    .venv/bin/python bench/first_turn.py --warm      # the caches `zar warm` fills first
    .venv/bin/python bench/first_turn.py --caches D  # D/cache and D/numba, filled before
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from serving import credential, free_port


class Client:
    def __init__(self, url: str) -> None:
        self.url = url
        self.cookie = ""
        self.slowest = 0.0

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        if self.cookie:
            request.add_header("cookie", self.cookie)
        began = time.monotonic()
        with urllib.request.urlopen(request, timeout=300) as response:
            for header in response.headers.get_all("set-cookie") or []:
                self.cookie = credential(header) or self.cookie
            raw = response.read()
        self.slowest = max(self.slowest, time.monotonic() - began)
        return json.loads(raw) if raw.startswith((b"{", b"[")) else raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warm", action="store_true", help="fill the fresh caches first")
    parser.add_argument(
        "--caches", type=Path, help="a folder whose cache/ and numba/ were filled before (kept)"
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="zar-first-turn-"))
    caches = args.caches or folder
    env = {
        **os.environ,
        "ZAR_CACHE_DIR": str(caches / "cache"),
        "NUMBA_CACHE_DIR": str(caches / "numba"),
        "ZAR_DB": str(folder / "zar.sqlite3"),
        "ZAR_PORT": str(free_port()),
    }
    try:
        if args.warm:
            began = time.monotonic()
            subprocess.run([sys.executable, "-m", "zar", "warm"], env=env, check=True)
            print(f"zar warm: {time.monotonic() - began:.1f} s")
        began = time.monotonic()
        server = subprocess.Popen(
            [sys.executable, "-m", "zar", "serve"], env=env, stdout=subprocess.DEVNULL
        )
        try:
            measure(Client(f"http://127.0.0.1:{env['ZAR_PORT']}"), began)
        finally:
            server.terminate()
            server.wait(timeout=30)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(client: Client, began: float) -> None:
    while True:
        try:
            client.call("GET", "/api/setup")
            break
        except OSError:
            time.sleep(0.05)
    print(f"the server answered {time.monotonic() - began:.1f} s after the start")
    game = client.call("POST", "/api/games", {"game": "yams", "players": ["Ali"], "computer": True})
    client.call("GET", "/")
    client.call("GET", f"/api/games/{game['id']}")
    print(f"the game's screen answered {time.monotonic() - began:.1f} s after the start")
    client.slowest = 0.0
    game = client.call("POST", f"/api/games/{game['id']}/actions", {"version": 0, "type": "throw"})
    box = next(iter(game["options"]))
    game = client.call(
        "POST",
        f"/api/games/{game['id']}/actions",
        {"version": game["version"], "type": "fill", "box": box},
    )
    turn = time.monotonic()
    first = None
    while game["seat"] == 1 and not game["over"]:
        step = time.monotonic()
        game = client.call(
            "POST",
            f"/api/games/{game['id']}/actions",
            {"version": game["version"], "type": "computer"},
        )
        first = first if first is not None else time.monotonic() - step
    print(
        f"the computer's first step: {first:.2f} s, its whole turn {time.monotonic() - turn:.2f} s"
    )
    print(f"the longest request meanwhile: {client.slowest:.2f} s")


if __name__ == "__main__":
    main()
