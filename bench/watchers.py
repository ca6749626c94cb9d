"""A player's moves and a host's hand-overs beside 5 000 watchers of one game.

A real ``zar serve`` (SQLite, the limit on joins off) serves two games: one a player plays
alone from another address of this machine (127.0.0.200), one move each ``--pace``
seconds, and one of two seats its host hands to the computer and takes back. The player
plays through each phase:

1. no watchers: the host's hand-overs (each one reseating) for ``--seconds``;
2. fresh devices, ``--attackers`` at a time from 127.0.0.1, each posting the second game's
   watch link, until ``--watchers`` of them watch it (the cap: ``ZAR_WATCHERS_PER_GAME``):
   the player's moves meanwhile, and how long the watchers took;
3. the watchers seated: the hand-overs again for ``--seconds``; then one watcher more,
   refused past the cap.

It prints the moves' p50 and p99 of each phase side by side, and the hand-overs' at none
and at ``--watchers``.

    .venv/bin/python bench/watchers.py [--watchers 5000] [--seconds 10] [--pace 0.05]

The anchor is the figures before: with 7 575 rows of access a hand-over took 247 ms (12 ms
without watchers), and the player's p99 went from 39 to 219 ms while watchers were added
(every seating change wrote one row per device of the game again).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from api_latency import next_intent
from serving import credential, serve

PLAYER = "127.0.0.200"  # the player's address: not the watchers'
ANCHOR_MS = {"hand-over": (12.0, 247.0), "move p99": (39.0, 219.0)}


class Device:
    """One device on one keep-alive connection from ``source``: JSON in, JSON out, its
    credential sent back (``fresh``: never, a new device at each request)."""

    def __init__(self, port: int, source: str = "127.0.0.1", *, fresh: bool = False) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                               source_address=(source, 0))  # fmt: skip
        self.cookie = ""
        self.fresh = fresh

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers["cookie"] = self.cookie
        data = None if body is None else json.dumps(body)
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            self.conn.close()  # closed while idle (ZAR_IDLE_SECONDS): a new connection
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        payload = json.loads(response.read())
        for value in response.headers.get_all("set-cookie") or ():
            if not self.fresh:
                self.cookie = credential(value) or self.cookie
        return response.status, payload

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, payload = self.call(method, path, body)
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {payload}")
        return payload


def play(port: int, pace: float, stop: threading.Event) -> list[float]:
    """The player's moves until ``stop``, one each ``pace``: each one's time, in ms."""
    player = Device(port, PLAYER)
    game = player.ok("POST", "/api/games", {"game": "yams", "players": ["Ali"]})
    times: list[float] = []
    while not stop.is_set():
        if game["over"]:
            game = player.ok("POST", "/api/games", {"game": "yams", "players": ["Ali"]})
        began = time.perf_counter()
        game = player.ok("POST", f"/api/games/{game['id']}/actions", next_intent(game))
        times.append((time.perf_counter() - began) * 1000)
        time.sleep(pace)
    return times


def hand_overs(host: Device, game_id: str, seconds: float) -> list[float]:
    """The host hands seat 1 to the computer and takes it back, for ``seconds``: each
    reseating's time, in ms."""
    times: list[float] = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        for to in ("computer", "host"):
            began = time.perf_counter()
            host.ok("POST", f"/api/games/{game_id}/seats/1", {"to": to})
            times.append((time.perf_counter() - began) * 1000)
        time.sleep(0.05)
    return times


def watch(port: int, link: str, count: int, attackers: int) -> int:
    """``count`` fresh devices watch by ``link``, ``attackers`` at a time; those refused."""
    left = iter(range(count))
    lock = threading.Lock()
    refused = [0]

    def attacker() -> None:
        device = Device(port, fresh=True)
        while True:
            with lock:
                if next(left, None) is None:
                    return
            status, _ = device.call("POST", "/api/invitations/watch", {"invitation": link})
            if status != 200:
                with lock:
                    refused[0] += 1

    threads = [threading.Thread(target=attacker) for _ in range(attackers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return refused[0]


def figures(times: list[float]) -> str:
    if len(times) < 2:
        return "-"
    q = statistics.quantiles(times, n=100)
    return f"{q[49]:.1f} ms, {q[98]:.1f} ms ({len(times)})"


def beside(port: int, pace: float, work: Any) -> tuple[list[float], Any]:
    """The player's moves while ``work()`` runs: their times, its result."""
    moves: list[float] = []
    stop = threading.Event()
    player = threading.Thread(target=lambda: moves.extend(play(port, pace, stop)))
    player.start()
    try:
        return moves, work()
    finally:
        stop.set()
        player.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=5_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--pace", type=float, default=0.05)
    parser.add_argument("--attackers", type=int, default=4)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        env = {"ZAR_GAMES_PER_MINUTE": "off", "ZAR_WARM": "off",
               "ZAR_WATCHERS_PER_GAME": str(args.watchers)}  # fmt: skip
        server, url = serve(Path(tmp), env)
        port = int(url.rsplit(":", 1)[1])
        try:
            host = Device(port)
            game = host.ok("POST", "/api/games", {"game": "yams", "players": ["Ali", "Ece"]})
            link = host.ok("POST", f"/api/games/{game['id']}/invitations")["watch"]
            link = link.split("=", 1)[1]

            alone, handed_alone = beside(
                port, args.pace, lambda: hand_overs(host, game["id"], args.seconds)
            )
            began = time.monotonic()
            adding, refused = beside(
                port, args.pace, lambda: watch(port, link, args.watchers, args.attackers)
            )
            took = time.monotonic() - began
            seated, handed = beside(
                port, args.pace, lambda: hand_overs(host, game["id"], args.seconds)
            )
            past, answer = Device(port, fresh=True).call(
                "POST", "/api/invitations/watch", {"invitation": link}
            )
        finally:
            server.terminate()
            server.wait()

    n = f"{args.watchers:,}".replace(",", " ")
    print(f"zar serve (SQLite); the player from {PLAYER}, one move each {args.pace} s")
    print(f"{n} watchers seated in {took:.1f} s by {args.attackers} at a time ({refused} refused);"
          f" one more: {past} {answer.get('reason')}")  # fmt: skip
    print()
    print("| | the player's moves: p50, p99 (moves) | hand-overs: p50, p99 (reseatings) |")
    print("|---|---|---|")
    print(f"| no watchers | {figures(alone)} | {figures(handed_alone)} |")
    print(f"| while {n} watchers were added | {figures(adding)} | |")
    print(f"| {n} watchers | {figures(seated)} | {figures(handed)} |")
    hand, move = ANCHOR_MS["hand-over"], ANCHOR_MS["move p99"]
    print()
    print(f"anchor, before: a hand-over {hand[0]:.0f} ms without watchers, {hand[1]:.0f} ms at"
          f" 7 575 rows of access; the moves' p99 {move[0]:.0f} ms, {move[1]:.0f} ms while"
          " watchers were added")  # fmt: skip


if __name__ == "__main__":
    main()
