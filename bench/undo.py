"""One undo's cost at 100, 1 000 and 10 000 entries of a game's log, against the replay it was.

Builds games whose logs hold 100, 1 000 and 10 000 entries as a looping client grows them
(10 000: a 1 set aside and undone again and again; Yams: a box written and undone), then
times one undo at each length: through the engine (``Record.append``), and through the app
and its SQLite store (the API's ``POST /api/games/{id}/actions``, the view it sends back and
the commit included, in process, the undo limit off). It prints the p50 and p95 of each and
the ratio of 10 000 entries to 100: an undo that replays nothing costs about the same. Beside
the engine's, the replay of the whole log at each length: what an undo cost before.

Then, through a real ``zar serve`` (SQLite, the undo limit on): ``--tables`` other games
played at a person's pace, one action each ``--pace`` seconds, alone for ``--seconds``,
then as long again while one client sets aside and undoes in a loop as fast as it can; the
other games' p99 each time, and what the looper got.

    .venv/bin/python bench/undo.py [--repeat 200] [--games 20] [--tables 20] [--seconds 15]

The anchor is issue 11's figure before: 36 ms an undo at 5 000 entries, 66 ms at 10 000,
through the server (the whole log was replayed at each undo).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from api_latency import Device, next_intent
from fastapi.testclient import TestClient
from serving import credential, serve

from zar import farkle, yams
from zar.record import GameKind, Move, Record, Undo
from zar.server import create_app
from zar.server.views import summary
from zar.store import SqliteStore
from zar.table import Seat

LENGTHS = (100, 1_000, 10_000)
ANCHOR_MS = {5_000: 36.0, 10_000: 66.0}  # issue 11, through the server, before


class Dice:
    """Dice that always fall the same: a lone 1 to set aside in 10 000, a full house in Yams."""

    def roll(self, n: int) -> tuple[int, ...]:
        return (1, 2, 3, 4, 6, 6)[:n] if n == 6 else (2, 2, 3, 3, 3)[:n]


# Per game: its first throw, the decision looped, and the intentions that make them.
GAMES: dict[GameKind, tuple[Move, Move, dict[str, Any]]] = {
    "10000": (
        farkle.Throw(0, (1, 2, 3, 4, 6, 6)),
        farkle.SetAside(0, (0,)),
        {"type": "set_aside", "set_aside": [0]},
    ),
    "yams": (
        yams.Throw(0, (), (2, 2, 3, 3, 3)),
        yams.Fill(0, yams.Box.FULL_HOUSE),
        {"type": "fill", "box": "FULL_HOUSE"},
    ),
}


def grown(record: Record, decision: Move, entries: int) -> Record:
    """``record`` with ``decision`` made and undone until its log holds ``entries - 1``
    entries: the decision then makes the ``entries``-th."""
    actions: list[Move | Undo] = [decision, Undo(0)] * ((entries - 1 - record.version) // 2)
    for action in actions:
        record = record.append(action)
    assert record.version == entries - 1
    return record


def quantiles(times: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(times, n=100)
    return q[49], q[94]


def engine(kind: GameKind, repeat: int) -> tuple[dict[int, list[float]], dict[int, list[float]]]:
    """One undo through the engine, ``repeat`` times at each length, in ms; and the replay
    of the whole log (what each undo cost before), a tenth as many times."""
    throw, decision, _ = GAMES[kind]
    start = Record.new(kind, (Seat("Ali"),)).append(throw)
    undos: dict[int, list[float]] = {}
    replays: dict[int, list[float]] = {}
    for entries in LENGTHS:
        decided = grown(start, decision, entries).append(decision)
        undos[entries] = []
        for _ in range(repeat):
            began = time.perf_counter()
            decided.append(decided.undo())
            undos[entries].append((time.perf_counter() - began) * 1000)
        replays[entries] = []
        for _ in range(max(2, repeat // 10)):
            unplayed = decided.upto(decided.version)  # the same log, not replayed yet
            began = time.perf_counter()
            unplayed.state  # noqa: B018 -- the replay
            replays[entries].append((time.perf_counter() - began) * 1000)
    return undos, replays


def api(kind: GameKind, games: int, folder: Path) -> dict[int, list[float]]:
    """One undo through the API and the store, in ``games`` games at each length, in ms."""
    _, decision, intent = GAMES[kind]
    store = SqliteStore(folder / f"{kind}.sqlite3")
    app = create_app(store, dice=Dice(), games_per_minute=None, undo_rates=None, action_rates=None)
    with TestClient(app) as client:

        def act(game: dict[str, Any], **body: Any) -> dict[str, Any]:
            reply = client.post(
                f"/api/games/{game['id']}/actions", json={"version": game["version"], **body}
            )
            assert reply.status_code == 200, reply.text
            shown: dict[str, Any] = reply.json()
            return shown

        # The games built first, then timed in turn, one of each length after another: the
        # load of the machine meanwhile falls on every length alike.
        built: list[tuple[int, dict[str, Any]]] = []
        for _ in range(games):
            for entries in LENGTHS:
                game = client.post("/api/games", json={"game": kind, "players": ["Ali"]}).json()
                game = act(game, type="throw")
                # The loop's entries written as the store would have them.
                record = store.load(game["id"])
                looped = grown(record, decision, entries)
                store.append(
                    game["id"], record.version, list(looped.log[record.version :]),
                    datetime.now(UTC).isoformat(),
                    finished=False, summary=summary(looped),
                )  # fmt: skip
                built.append((entries, game))
        app.state.games.changed(None, 0)  # read back (replayed once), as after a restart
        times: dict[int, list[float]] = {entries: [] for entries in LENGTHS}
        for entries, game in built:
            game = client.get(f"/api/games/{game['id']}").json()
            game = act(game, **intent)
            assert game["can_undo"]
            assert game["version"] == entries
            began = time.perf_counter()
            act(game, type="undo")
            times[entries].append((time.perf_counter() - began) * 1000)
    store.close()
    return times


class Looper:
    """A client that sets aside a 1 and undoes it as fast as the server answers, its undo
    refused or not: what it was answered, counted."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=10)
        self.cookie = ""
        self.statuses: dict[tuple[str, int], int] = {}

    def call(self, path: str, body: Any) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers["cookie"] = self.cookie
        self.conn.request("POST", path, body=json.dumps(body), headers=headers)
        response = self.conn.getresponse()
        payload = json.loads(response.read())
        for value in response.headers.get_all("set-cookie") or ():
            self.cookie = credential(value) or self.cookie
        return response.status, payload

    def loop(self, until: float) -> int:
        """Loop until ``until`` (monotonic); the game's version at the end."""
        _, game = self.call("/api/games", {"game": "10000", "players": ["Ali"]})
        path = f"/api/games/{game['id']}/actions"
        game = self.call(path, {"version": 0, "type": "throw"})[1]
        while time.monotonic() < until:
            if game["can_undo"]:
                intent: dict[str, Any] = {"type": "undo"}
            elif game["phase"] == "set-aside":
                mask = next(int(m) for m, v in game["selections"].items() if "points" in v)
                intent = {"type": "set_aside", "set_aside": [p for p in range(6) if mask >> p & 1]}
            else:
                intent = {"type": "throw"}  # nothing to set aside, or a bank
            status, reply = self.call(path, {"version": game["version"], **intent})
            key = (intent["type"], status)
            self.statuses[key] = self.statuses.get(key, 0) + 1
            if status == 200:
                game = reply
        return int(game["version"])


def others(url: str, tables: int, pace: float, seconds: float) -> list[float]:
    """``tables`` games played alone against the computer, one action every ``pace``
    seconds each, for ``seconds``: every action's round trip, in ms."""
    port = int(url.rsplit(":", 1)[1])
    times: list[float] = []
    until = time.monotonic() + seconds

    def play() -> None:
        device = Device(port)
        game: dict[str, Any] | None = None
        while time.monotonic() < until:
            if game is None or game["over"]:
                body = {"game": "yams", "players": ["Ece"], "computer": True}
                game = device.call("POST", "/api/games", body)
            intent = next_intent(game)
            began = time.perf_counter()
            game = device.call("POST", f"/api/games/{game['id']}/actions", intent)
            times.append((time.perf_counter() - began) * 1000)
            time.sleep(pace)

    threads = [threading.Thread(target=play) for _ in range(tables)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def loop_figures(tables: int, pace: float, seconds: float, folder: Path) -> None:
    """Other games' p99 alone, then while one client loops; what the looper got."""
    # The games' start limit lifted: the tables start as many games as they finish.
    server, url = serve(folder, {"ZAR_GAMES_PER_MINUTE": "off", "ZAR_ACTION_BUDGET": "off"})
    try:
        alone = others(url, tables, pace, seconds)
        looper = Looper(url)
        until = time.monotonic() + seconds
        ended: list[int] = []
        thread = threading.Thread(target=lambda: ended.append(looper.loop(until)))
        thread.start()
        beside = others(url, tables, pace, seconds)
        thread.join()
    finally:
        server.terminate()
        server.wait(timeout=10)
    for what, times in (("alone", alone), ("while one loops", beside)):
        q = statistics.quantiles(times, n=100)
        print(f"  other games, {what:<16} {len(times):>5} actions  p50 {q[49]:6.2f} ms  "
              f"p99 {q[98]:6.2f} ms")  # fmt: skip
    taken = looper.statuses.get(("undo", 200), 0)
    refused = looper.statuses.get(("undo", 429), 0)
    print(f"  the looper: {taken} undos taken ({taken / seconds:.1f} a second), {refused} "
          f"refused with 429; its log {ended[0]} entries after {seconds:.0f} s")  # fmt: skip


def report(what: str, times: dict[int, list[float]]) -> tuple[float, float]:
    """Print a line per length and the ratio; the p50s at 10 000 entries and at 100."""
    for entries, samples in times.items():
        p50, p95 = quantiles(samples)
        print(f"  {what:<12} {entries:>6} entries  p50 {p50:8.3f} ms  p95 {p95:8.3f} ms")
    first, last = quantiles(times[LENGTHS[0]])[0], quantiles(times[LENGTHS[-1]])[0]
    print(f"  {what:<12} p50 at {LENGTHS[-1]} entries / at {LENGTHS[0]}: {last / first:.2f}x")
    return last, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="undos timed per length, engine")
    parser.add_argument("--games", type=int, default=20, help="games per length, API")
    parser.add_argument("--tables", type=int, default=20, help="other games played meanwhile")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between their actions")
    parser.add_argument("--seconds", type=float, default=15.0, help="each phase's length")
    args = parser.parse_args()

    results: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in GAMES:
            print(f"{kind}: {GAMES[kind][1]} made and undone again and again")
            undos, replays = engine(kind, args.repeat)
            results[f"engine, {kind}"] = report("engine", undos)
            report("replay", replays)
            results[f"api, {kind}"] = report("API + SQLite", api(kind, args.games, Path(tmp)))
        print("zar serve (SQLite, the undo limit on): one client loops set aside and undo")
        loop_figures(args.tables, args.pace, args.seconds, Path(tmp))
    at_10_000, at_100 = results["api, 10000"]
    anchor = ", ".join(f"{ms:.0f} ms at {n} entries" for n, ms in ANCHOR_MS.items())
    print(f"anchor (before, through the server): {anchor}; now {at_10_000:.2f} ms at 10000, "
          f"{ANCHOR_MS[10_000] / at_10_000:.0f}x less")  # fmt: skip
    print(f"undo p50 {at_10_000:.2f} ms at 10000 entries ({at_100:.2f} ms at 100)")


if __name__ == "__main__":
    main()
