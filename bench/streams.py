"""Thousands of watchers on live streams, against the streams anchors: the memory an open
stream costs the server, other games' requests while a move fans out to every watcher, and
the time a move takes to reach them all.

Starts ``zar serve`` on a free port over a throwaway SQLite file (``ZAR_GAMES_PER_MINUTE=off``:
the watchers join from one machine), starts ``--games`` Yams games of six people, and gives
each ``--watchers`` / ``--games`` watchers: each watcher a device of its own (a watch link
taken, its credential kept) with one event stream open. The server's caps hold throughout
(4 streams a device on a game, 32 a device, 256 an address): the streams come from the
loopback addresses 127.0.0.2, 127.0.0.3, ... in turn, 250 on each, as phones behind many
routers would. The watchers read their streams as they come, on asyncio protocols; an
event's version (its ``id``) is all they look at.

Then two phases of ``--seconds`` each, while ``--others`` tables (each a device on its own
keep-alive connection, its own game; in a process of their own, so that the watchers'
reading never delays their clocks) play moves and read their game back, at a person's
pace (``--think``): first with every stream open but no move in the watched games, then
with a round every ``--every`` seconds, from two seconds after the tables start (each
table's first requests make its device and its game, all at once: not a fan-out's doing):
a move in each watched game, one after another, fanned out to every watcher. A round
lasts from its first move to the last watcher's read of it. Prints the other tables'
requests' p50/p95/p99 while the streams are quiet, and of those that overlapped a round;
the server's memory a stream (VmRSS with every stream open, less VmRSS with every
watcher's device made, over the streams); the time from a move's reply to its arrival on
the last of its game's watchers; the errors; then each anchor with PASS or FAIL, and last
the line ``other requests p99 X ms during a fan-out to N watchers``.
The bench raises its own limit on open files (and the server's, which it starts) to hold
the connections, the server's cap on connections (``ZAR_CONNECTIONS``) to the watchers
and the tables, and its places for streams (``ZAR_STREAMS``) to the watchers. Exits 0
either way.

With ``--nice N`` the watchers' process (this one) runs at niceness N once the server and
the other tables' process are started (they keep theirs): the 5 000 phones a watcher
stands for are other machines in truth, and on a machine of two cores their reading here
otherwise takes the core the server or the other tables wait for.

    .venv/bin/python bench/streams.py [--watchers 5000] [--games 1] [--seconds 20] [--nice 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from api_latency import next_intent
from load import StreamConnection, cpu_seconds, own_cpu_seconds, rss_bytes
from serving import serve

ANCHOR_WATCHERS = 5_000
ANCHOR_P99_MS = 50.0
ANCHOR_STREAM_BYTES = 20 * 1024
PER_ADDRESS = 250  # streams from one loopback address (the server's cap: 256)
ALONE = {"game": "yams", "players": ["Ali"]}
SIX = {"game": "yams", "players": ["Ali", "Ece", "Can", "Su", "Ada", "Naz"]}
ARRIVAL_WITHIN_S = 30.0  # a move not on every watcher by then is an error
# The fan-outs begin this long after the other tables: a table starts with a new device
# and a new game (two commits), all ten at once, and their first moves wait behind them
# (50-145 ms, traced in the server): the tables' own start, not a fan-out's doing.
SETTLE_S = 2.0


@dataclass
class Arrivals:
    """When each version of a watched game reached how many of its watchers."""

    watchers: int = 0
    reached: Counter[int] = field(default_factory=Counter)
    last: dict[int, float] = field(default_factory=dict)  # version: when the last came
    ended: Counter[str] = field(default_factory=Counter)  # streams that stopped, and why


class Watcher(asyncio.Protocol):
    """One watcher's event stream, read as it comes: the version of its latest event."""

    def __init__(self, request: bytes, arrivals: Arrivals) -> None:
        self.request = request
        self.arrivals = arrivals
        self.version = -1
        self.status = b""
        self.tail = b""  # the last bytes of what came, for an id cut in two
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.closing = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if not self.status:
            self.status = data[9:12]
            if self.status != b"200":
                self._fail(f"status {self.status.decode()}")
                return
        data = self.tail + data
        at = data.rfind(b"\nid: ")
        if at >= 0:
            end = data.find(b"\n", at + 5)
            if end < 0:  # the id cut in two: the next bytes finish it
                at = data.rfind(b"\nid: ", 0, at)
                end = data.find(b"\n", at + 5) if at >= 0 else -1
            if end >= 0:
                self._heard(int(data[at + 5 : end]))
        self.tail = data[-24:]

    def _heard(self, version: int) -> None:
        if version <= self.version:
            return
        now = time.perf_counter()
        for v in range(max(self.version + 1, version - 64), version + 1):
            self.arrivals.reached[v] += 1
            self.arrivals.last[v] = now
        self.version = version
        if not self.opened.done():
            self.opened.set_result(None)

    def _fail(self, why: str) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(why))
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closing:
            self.arrivals.ended[f"a stream ended: {type(exc).__name__ if exc else 'closed'}"] += 1
        self._fail("closed")

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()


async def watch(host: str, port: int, token: str) -> str:
    """A new device that takes a game's watch link; its credential."""
    conn = StreamConnection(host, port)
    try:
        status, reply = await conn.request("POST", "/api/invitations/watch", {"invitation": token})
    finally:
        await conn.close()
    if status != 200 or conn.cookie is None:
        raise RuntimeError(f"watch: {status} {reply.get('reason')}")
    return conn.cookie


async def open_stream(
    host: str, port: int, source: str, game_id: str, cookie: str, arrivals: Arrivals
) -> Watcher:
    request = (
        f"GET /api/games/{game_id}/events HTTP/1.1\r\nhost: {host}\r\ncookie: {cookie}\r\n"
        "accept: text/event-stream\r\n\r\n"
    ).encode()
    loop = asyncio.get_running_loop()
    _, watcher = await loop.create_connection(
        lambda: Watcher(request, arrivals), host, port, local_addr=(source, 0)
    )
    async with asyncio.timeout(30):
        await watcher.opened
    return watcher


@dataclass
class Timed:
    """The other tables' requests: when each started and ended (time.perf_counter)."""

    spans: list[tuple[float, float]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    def ms(self, windows: list[tuple[float, float]] | None = None) -> list[float]:
        """Each request's round trip; with ``windows``, of those that overlapped one."""
        return [
            (end - start) * 1000
            for start, end in self.spans
            if windows is None or any(start < until and end > since for since, until in windows)
        ]


async def play_other(host: str, port: int, until: float, think: tuple[float, float], timed: Timed,
                     rng: random.Random) -> None:  # fmt: skip
    """A table of its own: a move, its game read back, a think; a new game at its end."""
    conn = StreamConnection(host, port)
    try:
        _, game = await conn.request("POST", "/api/games", ALONE)
        while time.monotonic() < until:
            if game["over"]:
                _, game = await conn.request(
                    "POST", "/api/games", {"game": "yams", "players": ["Ali"]}
                )
                continue
            started = time.perf_counter()
            status, reply = await conn.request(
                "POST", f"/api/games/{game['id']}/actions", next_intent(game)
            )
            timed.spans.append((started, time.perf_counter()))
            if status != 200:
                timed.errors[f"move: {status} {reply.get('reason')}"] += 1
            started = time.perf_counter()
            status, reply = await conn.request("GET", f"/api/games/{game['id']}")
            timed.spans.append((started, time.perf_counter()))
            if status != 200:
                timed.errors[f"GET: {status} {reply.get('reason')}"] += 1
            else:
                game = reply
            await asyncio.sleep(rng.uniform(*think))
    except Exception as error:  # counted: the phase goes on without this table
        timed.errors[f"{type(error).__name__}: {error}"] += 1
    finally:
        await conn.close()


def others_apart(options: dict[str, Any], host: str, port: int) -> Timed:
    """The other tables in a process of their own (:func:`apart`): their clocks never wait
    for the watchers' reading, which keeps this process's event loop busy during a round.
    (``time.perf_counter`` is the system's monotonic clock: the spans compare with the
    rounds' windows timed here.)"""
    return asyncio.run(others(argparse.Namespace(**options), host, port))


async def apart(pool: ProcessPoolExecutor, args: argparse.Namespace, host: str, port: int,
                **changed: Any) -> Timed:  # fmt: skip
    options = {**vars(args), **changed}
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(pool, others_apart, options, host, port)


async def others(args: argparse.Namespace, host: str, port: int) -> Timed:
    timed = Timed()
    until = time.monotonic() + args.seconds
    think = (args.think[0], args.think[1])
    await asyncio.gather(
        *(play_other(host, port, until, think, timed, random.Random(i)) for i in range(args.others))
    )
    return timed


async def fan_out(conn: StreamConnection, games: list[dict[str, Any]], every: float,
                  until: float, moved: list[tuple[int, int, float, float]],
                  errors: Counter[str]) -> None:  # fmt: skip
    """A move in each watched game every ``every`` seconds until ``until``: a round, fanned
    out to every watcher; each move's game, version, when its round started and when its
    reply came."""
    while time.monotonic() < until:
        started = time.monotonic()
        round_started = time.perf_counter()
        for i, game in enumerate(games):
            if game["over"]:
                continue
            status, reply = await conn.request(
                "POST", f"/api/games/{game['id']}/actions", next_intent(game)
            )
            if status != 200:
                errors[f"watched move: {status} {reply.get('reason')}"] += 1
                continue
            games[i] = reply
            moved.append((i, reply["version"], round_started, time.perf_counter()))
        await asyncio.sleep(max(0.0, every - (time.monotonic() - started)))


def quantiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return (values or [float("nan")])[0], float("nan"), float("nan")
    q = statistics.quantiles(values, n=100)
    return q[49], q[94], q[98]


async def run(args: argparse.Namespace, url: str, pid: int) -> dict[str, Any]:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return await run_with(pool, args, url, pid)


async def run_with(pool: ProcessPoolExecutor, args: argparse.Namespace, url: str, pid: int
                   ) -> dict[str, Any]:  # fmt: skip
    host, port = urlsplit(url).hostname or "127.0.0.1", urlsplit(url).port or 80
    mover = StreamConnection(host, port)
    games: list[dict[str, Any]] = []
    tokens: list[str] = []
    for _ in range(args.games):
        status, game = await mover.request("POST", "/api/games", SIX)
        assert status == 201, game
        _, links = await mover.request("POST", f"/api/games/{game['id']}/invitations")
        games.append(game)
        tokens.append(links["watch"].split("=", 1)[1])
    arrivals = [Arrivals() for _ in games]
    await apart(pool, args, host, port, seconds=2)  # warm up
    if args.nice:
        # The server and the other tables' process started first keep their priority:
        # the watchers, phones elsewhere in truth, take what CPU they leave.
        os.nice(args.nice)
    await asyncio.sleep(1)
    rss_before = rss_bytes(pid)

    # The watchers' devices, 20 at a time; then their streams, 200 at a time.
    started = time.monotonic()
    which = [i % args.games for i in range(args.watchers)]
    cookies: list[str] = []
    for at in range(0, args.watchers, 20):
        cookies += await asyncio.gather(
            *(watch(host, port, tokens[g]) for g in which[at : at + 20])
        )
    devices_s = time.monotonic() - started
    await asyncio.sleep(1)
    rss_devices = rss_bytes(pid)
    started = time.monotonic()
    watchers: list[Watcher] = []
    for at in range(0, args.watchers, 200):
        batch = range(at, min(args.watchers, at + 200))
        watchers += await asyncio.gather(
            *(
                open_stream(
                    host,
                    port,
                    f"127.0.0.{2 + i // PER_ADDRESS}",
                    games[which[i]]["id"],
                    cookies[i],
                    arrivals[which[i]],
                )
                for i in batch
            )
        )
    for i in range(len(games)):
        arrivals[i].watchers = which.count(i)
    streams_s = time.monotonic() - started
    await asyncio.sleep(2)  # the wake-ups of the watchers' coming are over
    rss_open = rss_bytes(pid)

    # The other tables, first with the streams open and quiet, then during the fan-outs.
    quiet = await apart(pool, args, host, port)
    errors: Counter[str] = Counter()
    moved: list[tuple[int, int, float, float]] = []
    server_cpu = cpu_seconds(pid)
    client_cpu = own_cpu_seconds()

    async def rounds() -> None:
        await asyncio.sleep(SETTLE_S)  # the tables' first requests: a new device and game each
        await fan_out(mover, games, args.every, time.monotonic() + args.seconds, moved, errors)

    moving = asyncio.create_task(rounds())
    busy = await apart(pool, args, host, port, seconds=args.seconds + SETTLE_S + 1)
    await moving
    server_cpu = cpu_seconds(pid) - server_cpu
    client_cpu = own_cpu_seconds() - client_cpu
    deadline = time.monotonic() + ARRIVAL_WITHIN_S
    while time.monotonic() < deadline and any(
        arrivals[g].reached[v] < arrivals[g].watchers for g, v, _, _ in moved
    ):
        await asyncio.sleep(0.1)
    reach_ms = []
    rounds: dict[float, float] = {}  # each round's start: when its last watcher read it
    for g, version, round_started, acked in moved:
        if arrivals[g].reached[version] < arrivals[g].watchers:
            errors["a move never reached every watcher"] += 1
            continue
        arrived = arrivals[g].last[version]
        reach_ms.append((arrived - acked) * 1000)
        rounds[round_started] = max(rounds.get(round_started, 0.0), arrived)
    for a in arrivals:
        errors.update(a.ended)
    for watcher in watchers:
        watcher.close()
    await mover.close()
    return {
        "rss": (rss_before, rss_devices, rss_open),
        "setup": (devices_s, streams_s),
        "quiet": quiet,
        "busy": busy,
        "reach_ms": reach_ms,
        "windows": sorted(rounds.items()),
        "moves": len(moved),
        "errors": errors,
        "cpu": (server_cpu, client_cpu),
    }


def report(args: argparse.Namespace, measured: dict[str, Any]) -> None:
    before, devices, opened = measured["rss"]
    per_stream = (opened - devices) / args.watchers
    quiet: Timed = measured["quiet"]
    busy: Timed = measured["busy"]
    windows = measured["windows"]
    quiet_ms, busy_ms = quiet.ms(), busy.ms(windows)
    q50, q95, q99 = quantiles(quiet_ms)
    b50, b95, b99 = quantiles(busy_ms)
    fanning_s = sum(until - since for since, until in windows)
    r50, r95, _ = quantiles(measured["reach_ms"])
    errors: Counter[str] = measured["errors"] + quiet.errors + busy.errors
    server_cpu, client_cpu = measured["cpu"]
    devices_s, streams_s = measured["setup"]
    print(
        f"{args.watchers} watchers on {args.games} game{'s' * (args.games > 1)} of six people "
        f"(one device and one stream each, from {-(-args.watchers // PER_ADDRESS)} addresses), "
        f"{args.others} other tables at {args.think[0]}-{args.think[1]} s a move, "
        f"a move in each watched game every {args.every} s, {args.seconds:.0f} s a phase, "
        f"the watchers at niceness {args.nice}"
    )
    print(f"devices made in {devices_s:.1f} s, streams opened in {streams_s:.1f} s")
    rows = [
        (
            "server memory (VmRSS)",
            f"{before / 2**20:.1f} MiB before, {devices / 2**20:.1f} MiB with the watchers' "
            f"devices, {opened / 2**20:.1f} MiB with every stream open: "
            f"{per_stream / 1024:.1f} KiB a stream",
        ),
        (
            "other requests, streams quiet",
            f"{len(quiet_ms)}: p50 {q50:.2f} ms  p95 {q95:.2f} ms  p99 {q99:.2f} ms",
        ),
        (
            "other requests, fanning out",
            f"{len(busy_ms)} (of {len(busy.spans)}, those during a fan-out: {len(windows)} "
            f"rounds, {fanning_s:.1f} s in all): p50 {b50:.2f} ms  p95 {b95:.2f} ms  "
            f"p99 {b99:.2f} ms  max {max(busy_ms, default=float('nan')):.1f} ms",
        ),
        (
            "a move on every watcher",
            f"{measured['moves']} moves: p50 {r50:.1f} ms  p95 {r95:.1f} ms  "
            f"max {max(measured['reach_ms'], default=float('nan')):.1f} ms (reply to last read)",
        ),
        ("errors", f"{sum(errors.values())}" + (f": {dict(errors)}" if errors else "")),
        (
            "CPU while fanning out",
            f"server {server_cpu:.1f} s, the watchers' client {client_cpu:.1f} s, "
            f"in {args.seconds:.0f} s (2 cores shared)",
        ),
        ("load average (1 min)", f"{os.getloadavg()[0]:.2f}"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:{width}}  {value}")

    def anchor(what: str, ok: bool) -> None:
        print(f"anchor: {what}  ->  {'PASS' if ok else 'FAIL'}")

    anchor(
        f"under {ANCHOR_STREAM_BYTES // 1024} KiB an open stream ({per_stream / 1024:.1f})",
        per_stream < ANCHOR_STREAM_BYTES,
    )
    anchor(f"no error ({sum(errors.values())})", not errors)
    anchor(
        f"other requests p99 under {ANCHOR_P99_MS:.0f} ms during the fan-outs ({b99:.2f} ms), "
        f"to {args.watchers} watchers (the anchor: {ANCHOR_WATCHERS})",
        b99 < ANCHOR_P99_MS and args.watchers >= ANCHOR_WATCHERS,
    )
    print(f"other requests p99 {b99:.1f} ms during a fan-out to {args.watchers} watchers")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=ANCHOR_WATCHERS)
    parser.add_argument("--games", type=int, default=10, help="watched games")
    parser.add_argument("--others", type=int, default=10, help="other tables")
    parser.add_argument("--seconds", type=float, default=20, help="each phase's")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between fan-outs")
    parser.add_argument(
        "--think", type=float, nargs=2, default=[0.1, 0.3], metavar=("LOW", "HIGH"),
        help="seconds another table waits between two moves, uniformly",
    )  # fmt: skip
    parser.add_argument(
        "--nice", type=int, default=0,
        help="the watchers' process's niceness, once the server and the other tables run",
    )  # fmt: skip
    args = parser.parse_args()
    addresses = -(-args.watchers // PER_ADDRESS)
    if addresses > 250:
        parser.error(f"at most {250 * PER_ADDRESS} watchers (127.0.0.2 to 127.0.0.251)")
    # The connections: the bench's, and the server's (it inherits the limit).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * args.watchers + 1000
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    if min(wanted, hard) < wanted:
        raise SystemExit(f"streams: {hard} open files at most here, {wanted} wanted")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the server stopped too
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        # The operator of a server for thousands of watchers raises its cap on connections
        # (half the open files, 4 096 at most, by default) to hold them all.
        connections = str(args.watchers + 2 * args.others + 100)
        env = {
            "ZAR_GAMES_PER_MINUTE": "off",
            "ZAR_ACTION_BUDGET": "off",
            "ZAR_CONNECTIONS": connections,
        }
        env["ZAR_STREAMS"] = str(args.watchers + 100)  # 4 096 at most, by default
        process, url = serve(folder, env)
        stack.callback(process.wait, 10)
        stack.callback(process.terminate)
        measured = asyncio.run(run(args, url, process.pid))
    report(args, measured)


if __name__ == "__main__":
    main()
