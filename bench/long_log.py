"""A long log read back in loops while a normal client plays, against the 100 ms anchor.

Writes a 10 000 game of one player who never banks, its log ``--entries`` long (20 000 by
default: a script playing it through the API would be held to the budget of actions, so
it is written in the store directly), then starts ``zar serve`` on it. Several clients
(``--readers``, from 127.0.0.1) read it back again and again: the game at an old version
drawn at random (``?at=``), its progress and its log, in turn. Meanwhile a normal client,
from another address of this machine (127.0.0.200), plays a game of its own at a fast
person's pace and reads it after each action. Prints what the readers got, and the normal
client's p50, p99 and worst against the anchor (its p99 under 100 ms). ``--acting``: each
reader acts on the long game before each turn, so that its log and progress are made again.

    .venv/bin/python bench/long_log.py [--entries 20000] [--readers 4] [--seconds 15] [--acting]
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import multiprocessing
import random
import secrets
import statistics
import tempfile
import time
from collections import defaultdict
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from load import cpu_seconds
from serving import COOKIE, credential, serve

from zar import farkle
from zar.record import Action, Record
from zar.seating import Seating
from zar.server.views import summary
from zar.store import SqliteStore
from zar.table import Seat

ANCHOR_P99_MS = 100.0
CLIENT = "127.0.0.200"  # the normal client: not a reader's address
NOW = "2026-01-01T00:00:00+00:00"


def never_banks(entries: int, seed: int) -> tuple[Record, list[Action]]:
    """A 10 000 game of one player who throws and sets aside for ever, never banking: the
    new game and its log of ``entries`` entries."""
    chance = random.Random(seed)
    record = Record.new("10000", (Seat("Ali"),))
    state = record.start
    assert isinstance(state, farkle.FarkleState)
    log: list[Action] = []
    while len(log) < entries:
        action: farkle.FarkleAction
        if state.phase is farkle.Phase.THROW:
            dice = tuple(chance.randint(1, 6) for _ in range(state.dice_in_play))
            action = farkle.Throw(0, dice)
        else:
            faces = min(farkle.selections(state.throw), key=len)
            free = [p for p in range(farkle.DICE) if not state.aside[p]]
            chosen: list[int] = []
            for face in faces:
                chosen.append(next(p for p in free if state.tray[p] == face and p not in chosen))
            action = farkle.SetAside(0, tuple(chosen))
        state = state.apply(action)
        log.append(action)
    return record, log


def written(folder: Path, entries: int) -> tuple[str, str]:
    """The long game written in the store of ``folder``, hosted by a device of its own:
    the game's id and the cookie of its device."""
    record, log = never_banks(entries, seed=22)
    secret = secrets.token_urlsafe(32)
    key = hashlib.sha256(secret.encode()).hexdigest()
    store = SqliteStore(folder / "zar.sqlite3")
    try:
        store.add_device(key, NOW)
        game_id = secrets.token_urlsafe(9)
        store.create(
            game_id, record, NOW, summary(record), seating=Seating.hosted(key, record.seats)
        )
        after = record
        for action in log:
            after = after.append(action)
        store.append(game_id, 0, log, NOW, finished=False, summary=summary(after))
    finally:
        store.close()
    return game_id, f"{COOKIE}={secret}"


def _read(
    port: int,
    game: str,
    cookie: str,
    entries: int,
    until: float,
    report: Connection,
    acting: bool,
) -> None:
    """A reader: the game at an old version, its progress, its log, in turn until ``until``
    (``acting``: an action on the game before each turn, so that its log and progress are
    made again); each kind's times (ms) and statuses sent to ``report``."""
    chance = random.Random()
    times: dict[str, list[float]] = defaultdict(list)
    statuses: dict[int, int] = defaultdict(int)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    paths = {
        "?at=": lambda: f"/api/games/{game}?at={chance.randrange(entries)}",
        "/progress": lambda: f"/api/games/{game}/progress",
        "/log": lambda: f"/api/games/{game}/log",
    }
    while time.monotonic() < until:
        if acting:
            statuses[_act(conn, game, cookie)] += 1
        for kind, path in paths.items():
            start = time.perf_counter()
            conn.request("GET", path(), headers={"cookie": cookie})
            response = conn.getresponse()
            response.read()
            statuses[response.status] += 1
            times[kind].append((time.perf_counter() - start) * 1000)
    conn.close()
    report.send((dict(times), dict(statuses)))


def _intent(game: dict[str, Any]) -> dict[str, Any]:
    """A fast person's next action: the first selection that scores, a bank past 300
    points, else a throw."""
    if game["phase"] == "set-aside":
        mask = next(int(m) for m, worth in game["selections"].items() if "points" in worth)
        return {"type": "set_aside", "set_aside": [p for p in range(6) if mask >> p & 1]}
    return {"type": "bank" if game["turn_points"] >= 300 else "throw"}


def _act(conn: http.client.HTTPConnection, game: str, cookie: str) -> int:
    """The long game read, then an action on it (never a bank: it goes on): its status."""
    conn.request("GET", f"/api/games/{game}", headers={"cookie": cookie})
    shown = json.loads(conn.getresponse().read())
    intent = _intent(shown) if shown["phase"] == "set-aside" else {"type": "throw"}
    body = json.dumps({"version": shown["version"], **intent})
    headers = {"cookie": cookie, "content-type": "application/json"}
    conn.request("POST", f"/api/games/{game}/actions", body, headers)
    response = conn.getresponse()
    response.read()
    return response.status


def _request(conn: http.client.HTTPConnection, method: str, path: str, **options: Any) -> Any:
    conn.request(method, path, **options)
    response = conn.getresponse()
    body = json.loads(response.read())
    if response.status not in (200, 201):
        raise OSError(f"{method} {path}: {response.status} {body}")
    return body, response


def _play(port: int, seconds: float) -> list[float]:
    """A normal client: a new game of 10 000, then an action (a throw, the first selection
    that scores, a bank past 300 points) and a read of the game every 100 ms or so, for
    ``seconds``: each request's time in ms."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(CLIENT, 0))
    body = json.dumps({"game": "10000", "players": ["Ece"]})
    game, created = _request(
        conn, "POST", "/api/games", body=body, headers={"content-type": "application/json"}
    )
    cookie = next(filter(None, map(credential, created.headers.get_all("set-cookie"))))
    headers = {"cookie": cookie, "content-type": "application/json"}
    times: list[float] = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        intent = _intent(game)
        if game["over"]:
            game, _ = _request(conn, "POST", "/api/games", body=body, headers=headers)
            continue
        start = time.perf_counter()
        path = f"/api/games/{game['id']}/actions"
        game, _ = _request(
            conn, "POST", path, body=json.dumps({"version": game["version"], **intent}),
            headers=headers,
        )  # fmt: skip
        times.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        _request(conn, "GET", f"/api/games/{game['id']}", headers=headers)
        times.append((time.perf_counter() - start) * 1000)
        time.sleep(0.1)
    conn.close()
    return times


def _first_reads(port: int, game: str, cookie: str) -> str:
    """The game read once (the server reads and replays its log), then its progress and its
    log made once: what each took."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    spent = []
    for path in ("", "/progress", "/log"):
        start = time.perf_counter()
        _request(conn, "GET", f"/api/games/{game}{path}", headers={"cookie": cookie})
        spent.append(f"{path or 'the game'} {(time.perf_counter() - start) * 1000:.0f} ms")
    conn.close()
    return ", ".join(spent)


def _p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument(
        "--acting", action="store_true", help="the readers act on the game before each turn"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        started = time.perf_counter()
        game, cookie = written(folder, args.entries)
        print(f"a log of {args.entries} entries written in {time.perf_counter() - started:.1f} s")
        server, url = serve(folder, {"ZAR_WARM": "off"})
        port = int(url.rsplit(":", 1)[1])
        try:
            first = _first_reads(port, game, cookie)
            readers = []
            until = time.monotonic() + args.seconds + 1
            for _ in range(args.readers):
                receiving, report = multiprocessing.Pipe(duplex=False)
                reader = multiprocessing.Process(
                    target=_read,
                    args=(port, game, cookie, args.entries, until, report, args.acting),
                )
                reader.start()
                readers.append((reader, receiving))
            time.sleep(0.5)  # the readers under way
            cpu = cpu_seconds(server.pid)
            times = _play(port, args.seconds)
            cpu = cpu_seconds(server.pid) - cpu
            got: dict[str, list[float]] = defaultdict(list)
            statuses: dict[int, int] = defaultdict(int)
            for reader, receiving in readers:
                kinds, answered = receiving.recv()
                reader.join()
                for kind, spent in kinds.items():
                    got[kind] += spent
                for status, count in answered.items():
                    statuses[status] += count
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"first reads, before the loops: {first}")
    acting = ", each acting before each turn" if args.acting else ""
    print(f"{args.readers} readers from 127.0.0.1{acting} for {args.seconds:g} s "
          f"(statuses {dict(statuses)}):")  # fmt: skip
    for kind, spent in got.items():
        print(f"  {kind:10} {len(spent):6} read  p50 {statistics.median(spent):7.1f} ms  "
              f"p99 {_p99(spent):7.1f} ms")  # fmt: skip
    p99 = _p99(times)
    verdict = "under" if p99 < ANCHOR_P99_MS else "OVER"
    print(
        f"the normal client (127.0.0.200), {len(times)} requests: p50 "
        f"{statistics.median(times):.1f} ms  p99 {p99:.1f} ms  max {max(times):.1f} ms  "
        f"against the {ANCHOR_P99_MS:g} ms anchor for its p99: {verdict}  "
        f"(server CPU {cpu / args.seconds:.0%})"
    )


if __name__ == "__main__":
    main()
