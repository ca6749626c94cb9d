"""Many tables at once, at a person's pace, through the HTTP API, against the load anchors.

Starts ``zar serve`` on a free port of 127.0.0.1 over a fresh SQLite file (``--postgres``:
over a throwaway PostgreSQL, ``--database``: over a given one; ``--processes N``: N servers
over the same PostgreSQL, the tables spread over them in turn; ``--url``: a server already
running), then plays ``--tables`` tables at once for
``--seconds``: each table its own keep-alive connection and whole games (Yams and 10 000,
with and without the computer, in turn), waiting a think time drawn uniformly from
``--think`` between two requests. Prints the requests per second, the 50th, 95th and 99th
percentiles of a request's round trip, the errors (any other status than the expected
one, any exception), the server's memory per live game and the CPU time of both sides,
then each anchor with PASS or FAIL. ``--runs N`` does it N times in a row, each time on
new servers over a new store, and checks the p99 anchor in each run; the last line is
``p99 X ms at T tables, the worst of N runs, ...``.

The client and the server share the machine: the client is a small HTTP/1.1 client on
asyncio streams (``--client httpx`` for httpx instead, to compare their cost). Each table
is one device: it keeps the credential (the ``zar_device`` cookie) the server gave it with
its first game and sends it with every later request.

``--timed`` serves with a clock on each step of a request (the body's parsing, the
intention's actions, the engine, the commit, the view, the reply's serialization), on the
garbage collector and on the event loop's lag, and prints their distributions after the
figures. With ``--timed``, two fixes to try: ``--freeze``, the server makes the computer's
first decisions before it serves, and at its first request moves every object then alive
out of the collector's reach (``gc.freeze()``); ``--inline-commit``, the commit runs on
the event loop's thread instead of a worker thread.

    .venv/bin/python bench/load.py [--tables 200] [--seconds 30] [--think 0.5 1.5] [--runs 3]
    .venv/bin/python bench/load.py --postgres [--processes 2]
    .venv/bin/python bench/load.py --database postgresql://USER@HOST/DB [--processes 2]
    .venv/bin/python bench/load.py --timed [--freeze] [--inline-commit]
    ZAR_GAMES_PER_MINUTE=off ZAR_ACTION_BUDGET=off .venv/bin/zar serve &
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 [--pid PID]

(All the tables come from one address: a server of its own limit on new games, 30 a
minute from one address, refuses most of them with 429.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import json
import os
import random
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from api_latency import next_intent
from serving import credential, throwaway_postgres

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from server.serving import Server

ANCHOR_TABLES = 200
ANCHOR_P99_MS = 50.0
ANCHOR_GAME_BYTES = 50 * 1024

# What the tables play, in turn: both games, people alone and with the computer.
GAMES: tuple[dict[str, Any], ...] = (
    {"game": "yams", "players": ["Ali", "Ece"]},
    {"game": "10000", "players": ["Ali", "Ece"]},
    {"game": "yams", "players": ["Ali"], "computer": True},
    {"game": "10000", "players": ["Ali"], "computer": True},
)


class Connection(Protocol):
    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]: ...

    async def close(self) -> None: ...


class StreamConnection:
    """One device on one keep-alive HTTP/1.1 connection on asyncio streams: JSON in, JSON
    out; the credential the server set is sent back with every later request (a connection
    opened again keeps it). A connection left idle almost as long as the server keeps one
    (uvicorn: 5 s) is opened again first, as a browser does, rather than raced."""

    IDLE_S = 4.0

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookie: str | None = None  # "zar_device=SECRET", once the server gave one
        self.used = 0.0  # when its last reply came (time.monotonic)

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if self.writer is not None and time.monotonic() - self.used > self.IDLE_S:
            await self.close()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        cookie = f"cookie: {self.cookie}\r\n" if self.cookie else ""
        head = (
            f"{method} {path} HTTP/1.1\r\nhost: {self.host}\r\n{cookie}"
            f"content-type: application/json\r\ncontent-length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode() + data)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"set-cookie":
                self.cookie = credential(value.decode("latin-1")) or self.cookie
        payload = json.loads(await self.reader.readexactly(length))
        self.used = time.monotonic()
        return status, payload

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


class HttpxConnection:
    """The same through one httpx client shared by the tables (a pool of keep-alive
    connections, one for each table at most); each table its own credential, sent in its
    own ``cookie`` header (the pool's cookie jar would make every table one device)."""

    def __init__(self, client: Any, url: str) -> None:
        self.client = client
        self.url = url
        self.cookie: str | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"cookie": self.cookie} if self.cookie else {}
        response = await self.client.request(method, self.url + path, json=body, headers=headers)
        for value in response.headers.get_list("set-cookie"):
            self.cookie = credential(value) or self.cookie
        self.client.cookies.clear()
        return response.status_code, response.json()

    async def close(self) -> None:
        pass  # the pool is closed at the end


@dataclass
class Figures:
    """What the tables measured."""

    times_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games: int = 0  # games started by the tables
    actions: int = 0  # actions they hold
    finished: int = 0  # of those, played to the end
    playing: int = 0  # tables that played to the end of the time without an error


async def play_table(
    index: int,
    conn: Connection,
    figures: Figures,
    until: float,
    think: tuple[float, float],
) -> None:
    """One table: whole games, one after another, a think time before each request."""
    rng = random.Random(index)
    game: dict[str, Any] | None = None
    clean = True  # no error at this table
    await asyncio.sleep(rng.uniform(0, think[1]))  # the tables do not all sit down at once
    try:
        while time.monotonic() < until:
            if game is None or game["over"]:
                if game is not None:
                    figures.finished += 1
                method, path, body, expected = "POST", "/api/games", GAMES[index % 4], 201
            else:
                path = f"/api/games/{game['id']}/actions"
                method, body, expected = "POST", next_intent(game), 200
            started = time.perf_counter()
            try:
                status, reply = await conn.request(method, path, body)
            except Exception as error:  # counted, and the table sits down again
                figures.errors[type(error).__name__] += 1
                clean = False
                await conn.close()  # opened again by the next request, the same device
                game = None
                continue
            figures.times_ms.append((time.perf_counter() - started) * 1000)
            if status != expected:
                figures.errors[f"{status} {reply.get('reason')}"] += 1
                clean = False
                game = None
                continue
            if expected == 201:
                figures.games += 1
            else:
                figures.actions += reply["version"] - game["version"]
            game = reply
            await asyncio.sleep(rng.uniform(*think))
        figures.playing += int(clean)
    finally:
        await conn.close()


def rss_bytes(pid: int) -> int:
    """The process's resident memory now (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far, user and system."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def warm_up(connect: Any) -> None:
    """A few actions of every kind of table, so that what the server loads once (the
    optimal Yams player, the code paths) is in its memory before the baseline."""
    conn: Connection = connect()
    try:
        for settings in GAMES:
            status, game = await conn.request("POST", "/api/games", settings)
            assert status == 201, game
            for _ in range(40):
                if game["over"]:
                    break
                status, game = await conn.request(
                    "POST", f"/api/games/{game['id']}/actions", next_intent(game)
                )
                assert status == 200, game
    finally:
        await conn.close()


async def run(args: argparse.Namespace, urls: list[str], pids: list[int]) -> dict[str, Any]:
    """The tables, spread over the servers at ``urls`` in turn; what they measured."""
    pool = None
    if args.client == "httpx":
        import httpx

        limits = httpx.Limits(max_connections=args.tables, max_keepalive_connections=args.tables)
        pool = httpx.AsyncClient(limits=limits, timeout=30)

    def connect(index: int) -> Connection:
        parts = urlsplit(urls[index % len(urls)])
        if pool is None:
            return StreamConnection(parts.hostname or "127.0.0.1", parts.port or 80)
        return HttpxConnection(pool, urls[index % len(urls)])

    for i in range(len(urls)):
        await warm_up(functools.partial(connect, i))
    # Every table's connection open and used once before the baseline: what grows from
    # there is the games.
    conns = [connect(i) for i in range(args.tables)]
    await asyncio.gather(*(conn.request("GET", "/api/setup") for conn in conns))
    await asyncio.sleep(1)
    rss_before = sum(map(rss_bytes, pids)) if pids else None
    server_cpu = sum(map(cpu_seconds, pids))
    client_cpu = own_cpu_seconds()
    load_before = os.getloadavg()[0]
    if args.timed and pids:
        os.kill(pids[0], signal.SIGUSR2)  # its clocks start now

    figures = Figures()
    started = time.monotonic()
    until = started + args.seconds
    think = (args.think[0], args.think[1])
    await asyncio.gather(
        *(play_table(i, conn, figures, until, think) for i, conn in enumerate(conns))
    )
    elapsed = time.monotonic() - started

    client_cpu = own_cpu_seconds() - client_cpu
    rss_after = sum(map(rss_bytes, pids)) if pids else None
    load_after = os.getloadavg()[0]
    if pool is not None:
        await pool.aclose()
    return {
        "figures": figures,
        "elapsed": elapsed,
        "rss": (rss_before, rss_after),
        "cpu": (sum(map(cpu_seconds, pids)) - server_cpu if pids else None, client_cpu),
        "load": (load_before, load_after),
    }


def report(args: argparse.Namespace, where: str, measured: dict[str, Any]) -> float:
    """Prints one run's figures and its anchors; its p99 in milliseconds."""
    figures: Figures = measured["figures"]
    elapsed: float = measured["elapsed"]
    rss: tuple[int | None, int | None] = measured["rss"]
    cpu: tuple[float | None, float] = measured["cpu"]
    requests = len(figures.times_ms)
    q = statistics.quantiles(figures.times_ms, n=100)
    p50, p95, p99 = q[49], q[94], q[98]
    errors = sum(figures.errors.values())
    print(
        f"tables {args.tables} for {elapsed:.1f} s, think time {args.think[0]}-{args.think[1]} s"
        f" (uniform), client {args.client}, {where}"
    )
    print(
        f"requests {requests}  throughput {requests / elapsed:.1f}/s  "
        f"p50 {p50:.2f} ms  p95 {p95:.2f} ms  p99 {p99:.2f} ms  max {max(figures.times_ms):.1f} ms"
    )
    print(f"errors {errors}" + (f": {dict(figures.errors)}" if errors else ""))
    print(f"games started {figures.games}, played to the end {figures.finished}")
    server_cpu, client_cpu = cpu
    if server_cpu is not None:
        print(f"server CPU {server_cpu:.1f} s ({server_cpu / requests * 1000:.2f} ms a request)")
    print(f"client CPU {client_cpu:.1f} s ({client_cpu / requests * 1000:.2f} ms a request)")
    per_game = None
    before, after = rss
    if before is not None and after is not None:
        # The server keeps every game it has served in memory: the games of this run are all
        # live, besides those of the warm-up (in the baseline, with the tables' connections).
        per_game = (after - before) / max(1, figures.games)
        print(
            f"server memory (VmRSS) {before / 2**20:.1f} MiB with the tables connected, "
            f"{after / 2**20:.1f} MiB after; {figures.games} live games of "
            f"{figures.actions / max(1, figures.games):.0f} actions on average: "
            f"{per_game / 1024:.1f} KiB a game"
        )

    def anchor(what: str, ok: bool) -> None:
        print(f"anchor: {what}  ->  {'PASS' if ok else 'FAIL'}")

    anchor(
        f"{ANCHOR_TABLES} tables at once ({figures.playing} played throughout, no error)",
        figures.playing >= ANCHOR_TABLES,
    )
    anchor(f"p99 under {ANCHOR_P99_MS:.0f} ms ({p99:.2f} ms)", p99 < ANCHOR_P99_MS)
    anchor(f"no error ({errors})", errors == 0)
    if per_game is None:
        print("anchor: memory per live game: not measured (--pid names the server's process)")
    else:
        anchor(
            f"memory per live game under {ANCHOR_GAME_BYTES // 1024} KiB ({per_game / 1024:.1f})",
            per_game < ANCHOR_GAME_BYTES,
        )
    load_before, load_after = measured["load"]
    print(f"load average (1 min) {load_before:.2f} at the start, {load_after:.2f} at the end")
    return p99


def report_steps(steps: Mapping[str, list[float]]) -> None:
    """Each step's count, p50, p99, max and total, as ``serve_timed`` clocked them."""
    print(f"{'step':42} {'count':>6} {'p50':>7} {'p99':>7} {'max':>7} {'total':>7}")
    for name, times in sorted(steps.items()):
        if name.startswith("_") or len(times) < 2:
            continue
        q = statistics.quantiles(times, n=100)
        print(
            f"{name:42} {len(times):6} {q[49]:7.2f} {q[98]:7.2f} {max(times):7.1f} "
            f"{sum(times) / 1000:6.2f}s"
        )
    print("(milliseconds; total in seconds)\nend of the steps", flush=True)


def serve_timed(freeze: bool, inline_commit: bool) -> None:
    """``zar serve`` with a clock on each step of a request, on the garbage collector and on
    the event loop's lag; SIGUSR2 starts the clocks again, SIGUSR1 prints them."""
    import fastapi.routing

    from zar import ai
    from zar.dice import SeededDice
    from zar.record import Record
    from zar.server import acting, games, play_routes, presence, records
    from zar.server import run as run_module
    from zar.store import SqliteStore
    from zar.table import Seat
    from zar.yams import Throw, YamsSettings, YamsState

    steps: defaultdict[str, list[float]] = defaultdict(list)

    def clock(name: str, f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return f(*args, **kwargs)
            finally:
                steps[name].append((time.perf_counter() - started) * 1000)

        return timed

    def called(f: Any) -> str:
        # The one lambda the games run in a thread is a commit (an append, a new game).
        name = getattr(f, "__name__", "")
        return "commit" if name == "<lambda>" else name

    def aclock(name: str, f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await f(*args, **kwargs)
            finally:
                steps[name.format(*(called(a) for a in args))].append(
                    (time.perf_counter() - started) * 1000
                )

        return timed

    fastapi.routing.solve_dependencies = aclock(
        "body: JSON and pydantic", fastapi.routing.solve_dependencies
    )
    fastapi.routing.serialize_response = aclock(
        "reply: pydantic and JSON", fastapi.routing.serialize_response
    )
    acting.actions_for = clock("intention to actions (dice, computer)", acting.actions_for)
    Record.append = clock("engine: an action applied", Record.append)
    play_routes.view = clock("view", play_routes.view)
    SqliteStore.append = clock("commit, in its thread (lock, fsync)", SqliteStore.append)
    in_thread = acting.run_in_threadpool

    async def in_thread_or_inline(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if inline_commit and called(f) == "commit":
            return f(*args, **kwargs)
        return await in_thread(f, *args, **kwargs)

    # Each part of the games that hands work to a thread: acting, keeping, presence, hearing.
    for part in (acting, records, presence, games):
        part.run_in_threadpool = aclock("awaited in a thread: {}", in_thread_or_inline)

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            steps["_gc"] = [time.perf_counter()]
        else:
            started = steps["_gc"][0]
            steps[f"gc, generation {info['generation']}"].append(
                (time.perf_counter() - started) * 1000
            )

    gc.callbacks.append(collected)

    async def lag() -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.005)
            steps["event loop lag (5 ms sleeps)"].append((time.perf_counter() - started) * 1000 - 5)

    create_app = run_module.create_app

    def create_timed(store: Any, **options: Any) -> Any:
        app = create_app(store, **options)
        monitors: list[asyncio.Task[None]] = []

        @app.middleware("http")
        async def whole(request: Any, call_next: Any) -> Any:
            if not monitors:
                monitors.append(asyncio.get_running_loop().create_task(lag()))
                if freeze:  # the app built, the server up: what lives now lives on
                    gc.collect()
                    gc.freeze()
            started = time.perf_counter()
            response = await call_next(request)
            steps["a request, in the app"].append((time.perf_counter() - started) * 1000)
            return response

        return app

    run_module.create_app = create_timed

    signal.signal(signal.SIGUSR1, lambda *_: report_steps(steps))
    signal.signal(signal.SIGUSR2, lambda *_: steps.clear())  # the tables start
    if freeze:
        # The optimal Yams player's first decisions load its compiled kernels (numba); the
        # first request then moves every object alive out of the collector's reach.
        state = YamsState.start(YamsSettings((Seat("Ali"),))).apply(Throw(0, (), (1, 2, 3, 4, 5)))
        player = ai.computer_player("yams", "expert")
        ai.next_action(state, player, SeededDice(1))
        player.box(state)
    run_module.serve()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--think", type=float, nargs=2, default=[0.5, 1.5], metavar=("LOW", "HIGH"),
        help="seconds between two requests of a table, uniformly",
    )  # fmt: skip
    parser.add_argument("--runs", type=int, default=1, help="runs in a row, each on new servers")
    parser.add_argument("--processes", type=int, default=1, help="zar serve processes")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", help="a server already running (else one is started)")
    where.add_argument("--postgres", action="store_true", help="over a throwaway PostgreSQL")
    where.add_argument("--database", help="over this PostgreSQL database (a URL)")
    parser.add_argument("--pid", type=int, help="with --url: its process, for its memory")
    parser.add_argument("--client", choices=["streams", "httpx"], default="streams")
    parser.add_argument("--timed", action="store_true", help="a clock on each step")
    parser.add_argument("--freeze", action="store_true", help="with --timed: gc.freeze()")
    parser.add_argument(
        "--inline-commit", action="store_true", help="with --timed: commit on the event loop"
    )
    parser.add_argument("--serve-timed", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    postgres = args.postgres or args.database
    if args.processes > 1 and not postgres:
        parser.error("several processes share PostgreSQL only (--postgres or --database)")
    if args.timed and (postgres or args.processes > 1):
        parser.error("--timed serves one process over SQLite")

    if args.serve_timed:
        serve_timed(args.freeze, args.inline_commit)
        return
    if args.url:
        report(
            args,
            "a server already running",
            asyncio.run(run(args, [args.url], [args.pid] if args.pid else [])),
        )
        return
    command = [sys.executable, "-m", "zar", "serve"]
    if args.timed:
        options = ["--freeze"] * args.freeze + ["--inline-commit"] * args.inline_commit
        command = [sys.executable, __file__, "--serve-timed", *options]
    store = "PostgreSQL" if postgres else "SQLite"
    where_served = f"{args.processes} process{'es' * (args.processes > 1)} over {store}"
    p99s = []
    for number in range(1, args.runs + 1):
        if args.runs > 1:
            print(f"run {number} of {args.runs}")
        with contextlib.ExitStack() as stack:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            # Every table comes from one address: no limit on the games it may start.
            env = {
                "ZAR_GAMES_PER_MINUTE": "off",
                "ZAR_ACTION_BUDGET": "off",
                "ZAR_CONNECTIONS_PER_CLIENT": "off",
            }
            if postgres:
                env["ZAR_DATABASE_URL"] = args.database or stack.enter_context(throwaway_postgres())
            servers = []
            for _ in range(args.processes):
                server = Server(folder / "load.sqlite3", env=env, command=command)
                server.start()
                stack.callback(server.kill)
                servers.append(server)
            pids = [s.process.pid for s in servers if s.process is not None]
            measured = asyncio.run(run(args, [s.url for s in servers], pids))
            if args.timed:
                print_steps(servers[0])
        p99s.append(report(args, where_served, measured))
    if args.runs > 1:
        listed = ", ".join(f"{p99:.2f}" for p99 in p99s)
        every = all(p99 < ANCHOR_P99_MS for p99 in p99s)
        print(
            f"anchor: p99 under {ANCHOR_P99_MS:.0f} ms in each of {args.runs} runs in a row "
            f"({listed} ms)  ->  {'PASS' if every else 'FAIL'}"
        )
    print(
        f"p99 {max(p99s):.2f} ms at {args.tables} tables, the worst of {args.runs} run"
        f"{'s' * (args.runs > 1)}, {where_served}"
    )


def print_steps(server: Server) -> None:
    """The timed server's clocks, asked for (SIGUSR1) and printed."""
    assert server.process is not None
    server.process.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "end of the steps\n" not in server.output:
        time.sleep(0.1)
    lines = list(server.output)
    start = max(i for i, line in enumerate(lines) if line.startswith("step "))
    print("".join(lines[start:-1]), end="")


if __name__ == "__main__":
    main()
