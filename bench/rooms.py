"""Many games at once, each on three phones with its live stream open, against the rooms anchors.

Each game is a room of three devices: the host (it starts a Yams game for two and holds
seat 0), a guest (it claims seat 1 through the host's invitation) and a watcher (through
the watchers' link). Every device keeps its own credential (the ``zar_device`` cookie)
and its own event stream (``GET /api/games/{id}/events``) open throughout; the player on
turn waits until its own phone shows its turn, thinks (``--think``, uniformly, as in
``load.py``) and moves (a throw, a throw keeping two dice, the first box offered). A
finished game is followed by another in the same room, on the same devices. The streams of
80 rooms come from one loopback address (127.0.0.2, then 127.0.0.3, ...), as households'
phones behind their own routers: the server holds an address to 256 streams.

Through real ``zar serve`` processes: one over a throwaway SQLite file (started with
``ZAR_GAMES_PER_MINUTE=off``), or ``--processes N`` over one PostgreSQL database (``--url``,
or ``--postgres`` for a throwaway server, as the tests start one), the devices taking the
processes in turn, so that with two processes the two players of a game are on different
ones and a move reaches the other player through the database's ``NOTIFY``.

Prints the requests per second and their round trip; for each acknowledged move, the time
from its acknowledgement (the reply to the POST, read) to its arrival (the first event of
that version or later, read) on each of the two other devices; the errors (any status but
the one expected or a 409, any exception, an event stream that ends, a move that never
arrives); the servers' memory: a room's (VmRSS with every room seated, no stream open
yet, less VmRSS before the first game, over the rooms), a connected device's (VmRSS with
every stream open less VmRSS with every room seated, over the devices); the CPU time of the
servers and of the client (one asyncio loop, sharing the machine's cores); then each anchor
with PASS or FAIL. Exits 0 either way.

    .venv/bin/python bench/rooms.py [--games 200] [--seconds 60] [--think 0.5 1.5]
    .venv/bin/python bench/rooms.py --postgres --processes 2
    .venv/bin/python bench/rooms.py --url postgresql://USER@HOST/DB --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from api_latency import next_intent
from load import StreamConnection, cpu_seconds, own_cpu_seconds, rss_bytes
from serving import serve, throwaway_postgres

ANCHOR_GAMES = 200
ANCHOR_P99_MS = 50.0
ANCHOR_DEVICE_BYTES = 20 * 1024
SHOWN_WITHIN_S = 10.0  # a turn not shown on its player's phone by then is an error
GRACE_S = 2.0  # after the last move, for the last events to arrive

NEW_GAME = {"game": "yams", "players": ["Ali", "Ece"]}
HOST, GUEST, WATCHER = range(3)
ROOMS_PER_ADDRESS = 80  # their streams from one loopback address (source)


class EventStream:
    """A device's live stream of one game, read as it comes: the version of each event (its
    ``id``) and when each version was first seen; the event's body is not parsed."""

    def __init__(self, host: str, port: int, path: str, cookie: str, source: str) -> None:
        self.host, self.port, self.path, self.cookie = host, port, path, cookie
        self.source = source  # the loopback address it connects from
        self.version = -1
        self.seen: dict[int, float] = {}  # version: when an event of it or later was read
        self.ended: str | None = None  # why it stopped
        self.dropped = False  # it stopped before it was closed
        self._closing = False
        self._moved = asyncio.Event()
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Connect and read on in the background; returns once the first event came."""
        reader, self._writer = await asyncio.open_connection(
            self.host, self.port, local_addr=(self.source, 0)
        )
        self._writer.write(
            f"GET {self.path} HTTP/1.1\r\nhost: {self.host}\r\ncookie: {self.cookie}\r\n"
            "accept: text/event-stream\r\n\r\n".encode()
        )
        status_line = await reader.readline()
        status = int(status_line.split()[1]) if status_line else 0
        chunked = False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
        if status != 200 or not chunked:
            self._writer.close()
            raise ConnectionError(f"event stream: {status}, chunked {chunked}")
        self._task = asyncio.create_task(self._read(reader))
        await self.until(0)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        buffer = b""
        try:
            while True:
                size = int((await reader.readline()).split(b";")[0] or b"0", 16)
                if size == 0:
                    raise EOFError("the stream ended")
                buffer += (await reader.readexactly(size + 2))[:-2]
                now = time.perf_counter()
                while (end := buffer.find(b"\n\n")) >= 0:
                    event, buffer = buffer[:end], buffer[end + 2 :]
                    if event.startswith(b"id: "):
                        self._heard(int(event[4 : event.index(b"\n")]), now)
        except (OSError, EOFError, ValueError, asyncio.IncompleteReadError) as error:
            self.ended = f"event stream ended: {type(error).__name__}"
            self.dropped = not self._closing
        finally:
            self.ended = self.ended or "closed"
            self._moved.set()

    def _heard(self, version: int, now: float) -> None:
        for v in range(self.version + 1, version + 1):
            self.seen[v] = now
        if version > self.version:
            self.version = version
            self._moved.set()
            self._moved = asyncio.Event()

    async def until(self, version: int, timeout: float = SHOWN_WITHIN_S) -> None:
        """Wait until an event of ``version`` or later came (TimeoutError if it does not,
        ConnectionError if the stream ended)."""
        async with asyncio.timeout(timeout):
            while self.version < version:
                if self.ended:
                    raise ConnectionError(self.ended)
                await self._moved.wait()

    async def close(self) -> None:
        self._closing = True
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


@dataclass
class Device:
    """A phone: its requests on one keep-alive connection (with its credential), its stream
    of the room's current game."""

    conn: StreamConnection
    stream: EventStream | None = None


@dataclass
class Figures:
    """What the rooms measured."""

    requests: int = 0  # every request: moves, the new games' (game, invitation, claim,
    # watch, the three streams)
    request_ms: list[float] = field(default_factory=list)  # the moves'
    arrival_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    conflicts: int = 0  # 409s (none expected: one player moves at a time)
    moves: int = 0  # acknowledged
    early: int = 0  # arrivals read before the reply to the move itself
    games: int = 0  # started, in the rooms
    finished: int = 0
    clean_rooms: int = 0  # rooms that played throughout without an error


@dataclass
class Room:
    """A game on three devices; the moves acknowledged in its current game."""

    index: int
    devices: list[Device]
    game: dict[str, Any] = field(default_factory=dict)
    acked: list[tuple[int, float, int]] = field(default_factory=list)  # version, when, who
    clean: bool = True


def source(index: int) -> str:
    """The loopback address the ``index``-th room's streams come from: 80 rooms' 240 streams
    on each of 127.0.0.2, 127.0.0.3, ..., as households' phones behind their own routers
    (the server holds an address to 256 streams)."""
    return f"127.0.0.{2 + index // ROOMS_PER_ADDRESS}"


def secret(link: str) -> str:
    """The secret in an invitation's link, after ``#join=`` or ``#watch=``."""
    return link.split("=", 1)[1]


async def expect(device: Device, path: str, body: Any, status: int, what: str) -> Any:
    """POST ``body`` to ``path``; the reply if it has ``status``, else RuntimeError."""
    got, reply = await device.conn.request("POST", path, body)
    if got != status:
        raise RuntimeError(f"{what}: {got} {reply.get('reason')}")
    return reply


async def sit_down(room: Room, figures: Figures | None = None, *, follow: bool = True) -> None:
    """A new game in the room: the host starts it and invites, the guest claims seat 1, the
    watcher watches; with ``follow``, each device's stream of it opened (the last game's
    closed). Its requests are counted in ``figures``."""
    host, guest, watcher = room.devices
    game = await expect(host, "/api/games", NEW_GAME, 201, "new game")
    links = await expect(host, f"/api/games/{game['id']}/invitations", None, 201, "invitation")
    claim = {"invitation": secret(links["join"]), "seat": 1}
    await expect(guest, "/api/invitations/claim", claim, 200, "claim")
    watch = {"invitation": secret(links["watch"])}
    await expect(watcher, "/api/invitations/watch", watch, 200, "watch")
    room.game, room.acked = game, []
    if follow:
        await follow_room(room)
    if figures is not None:
        figures.requests += 7


async def follow_room(room: Room) -> None:
    """Each device's stream of the room's game opened (the last game's closed)."""
    for device in room.devices:
        if device.stream is not None:
            await device.stream.close()
        conn = device.conn
        assert conn.cookie is not None
        path = f"/api/games/{room.game['id']}/events"
        device.stream = EventStream(conn.host, conn.port, path, conn.cookie, source(room.index))
        await device.stream.open()


def settle(room: Room, figures: Figures) -> None:
    """The arrivals of the room's current game's moves on the two other devices."""
    for version, acked, mover in room.acked:
        for other in (HOST, GUEST, WATCHER):
            if other == mover:
                continue
            stream = room.devices[other].stream
            assert stream is not None
            arrived = stream.seen.get(version)
            if arrived is None:
                figures.errors["a move never arrived"] += 1
                room.clean = False
                continue
            figures.early += arrived < acked
            figures.arrival_ms.append(max(0.0, arrived - acked) * 1000)
    room.acked = []


async def play_room(room: Room, figures: Figures, until: float, think: tuple[float, float]) -> None:
    """The room's games, one after another, until ``until`` (time.monotonic)."""
    rng = random.Random(room.index)
    await asyncio.sleep(rng.uniform(0, think[1]))  # the rooms do not all start at once
    while time.monotonic() < until:
        game = room.game
        if game["over"]:
            figures.finished += 1
            for other in room.devices:  # the last move seen on every phone, or not in time
                assert other.stream is not None
                with contextlib.suppress(TimeoutError, ConnectionError):
                    await other.stream.until(game["version"])
            settle(room, figures)
            try:
                await sit_down(room, figures)
                figures.games += 1
            except Exception as error:
                figures.errors[f"{type(error).__name__}: {error}"] += 1
                room.clean = False
                return
            continue
        mover = HOST if game["seat"] == 0 else GUEST
        device = room.devices[mover]
        assert device.stream is not None
        try:
            await device.stream.until(game["version"])  # the turn shown on the mover's phone
        except (TimeoutError, ConnectionError) as error:
            figures.errors[f"turn not shown: {type(error).__name__}"] += 1
            room.clean = False
            return
        await asyncio.sleep(rng.uniform(*think))
        path = f"/api/games/{game['id']}/actions"
        started = time.perf_counter()
        try:
            status, reply = await device.conn.request("POST", path, next_intent(game))
        except Exception as error:  # counted; the device connects again for its next move
            figures.errors[f"POST actions: {type(error).__name__}"] += 1
            room.clean = False
            await device.conn.close()
            continue
        acked = time.perf_counter()
        figures.requests += 1
        figures.request_ms.append((acked - started) * 1000)
        if status == 200:
            figures.moves += 1
            room.acked.append((reply["version"], acked, mover))
            room.game = reply
        elif status == 409:
            figures.conflicts += 1
            status, reply = await device.conn.request("GET", f"/api/games/{game['id']}")
            figures.requests += 1
            if status == 200:
                room.game = reply
        else:
            figures.errors[f"POST actions: {status} {reply.get('reason')}"] += 1
            room.clean = False
            return


async def open_room(index: int, address: list[tuple[str, int]], *, follow: bool = True) -> Room:
    """Three new devices, the ``index``-th room's, each on the next server in turn, sat down
    at a game (``follow``: their streams of it open)."""
    devices = [Device(StreamConnection(*address[(3 * index + i) % len(address)])) for i in range(3)]
    room = Room(index, devices)
    await sit_down(room, follow=follow)
    return room


async def warm_up(address: list[tuple[str, int]]) -> None:
    """A room sat down and a few moves played, on each server, so that what a server loads
    once is in its memory before the baseline; then its devices leave."""
    for i in range(len(address)):
        room = await open_room(i, address)
        figures = Figures()
        await play_room(room, figures, time.monotonic() + 3, (0.05, 0.1))
        if figures.errors:
            raise RuntimeError(f"the warm-up failed: {dict(figures.errors)}")
        await close_room(room)


async def close_room(room: Room) -> None:
    for device in room.devices:
        if device.stream is not None:
            await device.stream.close()
        await device.conn.close()


def batches(n: int, size: int) -> Iterator[range]:
    """``range(n)`` in ranges of ``size``."""
    for start in range(0, n, size):
        yield range(start, min(n, start + size))


async def run(args: argparse.Namespace, urls: list[str], pids: list[int]) -> dict[str, Any]:
    address = [(urlsplit(u).hostname or "127.0.0.1", urlsplit(u).port or 80) for u in urls]
    await warm_up(address)
    await asyncio.sleep(1)
    rss_before = [rss_bytes(pid) for pid in pids]

    setup_cpu = own_cpu_seconds()
    setup_started = time.monotonic()
    rooms: list[Room] = []
    for batch in batches(args.games, 20):  # 20 rooms sitting down at a time
        rooms += await asyncio.gather(*(open_room(i, address, follow=False) for i in batch))
    await asyncio.sleep(1)
    rss_seated = [rss_bytes(pid) for pid in pids]  # the games and the devices, not connected
    for batch in batches(len(rooms), 20):
        await asyncio.gather(*(follow_room(rooms[i]) for i in batch))
    setup_s = time.monotonic() - setup_started
    setup_cpu = own_cpu_seconds() - setup_cpu
    devices = 3 * len(rooms)
    await asyncio.sleep(1)
    rss_open = [rss_bytes(pid) for pid in pids]

    figures = Figures(games=len(rooms))
    server_cpu = [cpu_seconds(pid) for pid in pids]
    client_cpu = own_cpu_seconds()
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    think = (args.think[0], args.think[1])
    await asyncio.gather(
        *(play_room(room, figures, started + args.seconds, think) for room in rooms)
    )
    elapsed = time.monotonic() - started
    client_cpu = own_cpu_seconds() - client_cpu
    server_cpu = [cpu_seconds(pid) - before for pid, before in zip(pids, server_cpu, strict=True)]
    load_after = os.getloadavg()[0]
    await asyncio.sleep(GRACE_S)
    rss_end = [rss_bytes(pid) for pid in pids]
    for room in rooms:
        settle(room, figures)
        for device in room.devices:
            assert device.stream is not None
            if device.stream.dropped:
                figures.errors[str(device.stream.ended)] += 1
                room.clean = False
        figures.clean_rooms += room.clean
    await asyncio.gather(*(close_room(room) for room in rooms))
    return {
        "figures": figures,
        "elapsed": elapsed,
        "devices": devices,
        "setup": (setup_s, setup_cpu),
        "rss": (sum(rss_before), sum(rss_seated), sum(rss_open), sum(rss_end)),
        "cpu": (sum(server_cpu), client_cpu),
        "load": (load_before, load_after),
    }


def quantiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return (values or [float("nan")])[0], float("nan"), float("nan")
    q = statistics.quantiles(values, n=100)
    return q[49], q[94], q[98]


def report(args: argparse.Namespace, store: str, measured: dict[str, Any]) -> None:
    figures: Figures = measured["figures"]
    elapsed, devices = measured["elapsed"], measured["devices"]
    before, seated, opened, end = measured["rss"]
    server_cpu, client_cpu = measured["cpu"]
    requests = figures.requests
    r50, r95, r99 = quantiles(figures.request_ms)
    a50, a95, a99 = quantiles(figures.arrival_ms)
    errors = sum(figures.errors.values())
    per_room = (seated - before) / args.games
    per_device = (opened - seated) / devices
    per_device_end = (end - before) / devices
    setup_s, setup_cpu = measured["setup"]
    load_before, load_after = measured["load"]
    print(
        f"{args.games} games x 3 devices ({devices} event streams), {args.processes} "
        f"process{'es' * (args.processes > 1)} over {store}, for {elapsed:.1f} s, think time "
        f"{args.think[0]}-{args.think[1]} s (uniform)"
    )
    print(f"sat down in {setup_s:.1f} s (client CPU {setup_cpu:.1f} s)")
    rows = [
        ("requests", f"{requests} ({requests / elapsed:.1f}/s)"),
        ("a move's round trip", f"p50 {r50:.2f} ms  p95 {r95:.2f} ms  p99 {r99:.2f} ms"),
        ("moves acknowledged", f"{figures.moves}; 409 {figures.conflicts}"),
        (
            "arrival (ack to event, x2)",
            f"{len(figures.arrival_ms)}: p50 {a50:.2f} ms  p95 {a95:.2f} ms  p99 {a99:.2f} ms  "
            f"max {max(figures.arrival_ms, default=float('nan')):.1f} ms "
            f"({figures.early} read before the reply)",
        ),
        ("errors", f"{errors}" + (f": {dict(figures.errors)}" if errors else "")),
        ("games", f"{figures.games} started, {figures.finished} played to the end"),
        (
            "server memory (VmRSS)",
            f"{before / 2**20:.1f} MiB before, {seated / 2**20:.1f} MiB with every room seated "
            f"({per_room / 1024:.1f} KiB a game and its three devices' credentials), "
            f"{opened / 2**20:.1f} MiB with every device connected "
            f"({per_device / 1024:.1f} KiB a device), {end / 2**20:.1f} MiB at the end "
            f"({per_device_end / 1024:.1f} KiB a device, everything included)",
        ),
        (
            "server CPU",
            f"{server_cpu:.1f} s ({server_cpu / elapsed * 100:.0f} % of a core, "
            f"{server_cpu / max(1, requests) * 1000:.2f} ms a request)",
        ),
        (
            "client CPU",
            f"{client_cpu:.1f} s ({client_cpu / elapsed * 100:.0f} % of a core, "
            f"{client_cpu / max(1, requests) * 1000:.2f} ms a request)",
        ),
        ("load average (1 min)", f"{load_before:.2f} at the start, {load_after:.2f} at the end"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:{width}}  {value}")

    def anchor(what: str, ok: bool) -> None:
        print(f"anchor: {what}  ->  {'PASS' if ok else 'FAIL'}")

    anchor(
        f"{ANCHOR_GAMES} games x 3 devices ({figures.clean_rooms} rooms played throughout, "
        "no error)",
        figures.clean_rooms >= ANCHOR_GAMES,
    )
    anchor(f"p99 arrival under {ANCHOR_P99_MS:.0f} ms ({a99:.2f} ms)", a99 < ANCHOR_P99_MS)
    anchor(f"no error ({errors})", errors == 0)
    anchor(
        f"under {ANCHOR_DEVICE_BYTES // 1024} KiB a connected device ({per_device / 1024:.1f})",
        per_device < ANCHOR_DEVICE_BYTES,
    )
    sqlite_one = store == "SQLite" and args.processes == 1
    print(
        "anchor: on one process with SQLite  ->  "
        + ("PASS" if sqlite_one else f"not this run ({args.processes} over {store})")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=ANCHOR_GAMES)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--think", type=float, nargs=2, default=[0.5, 1.5], metavar=("LOW", "HIGH"),
        help="seconds a player thinks before each move, uniformly",
    )  # fmt: skip
    parser.add_argument("--processes", type=int, default=1, help="zar serve processes")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", help="a PostgreSQL database for the games (else SQLite)")
    where.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL")
    args = parser.parse_args()
    if args.processes > 1 and not (args.url or args.postgres):
        parser.error("several processes share PostgreSQL only (--url or --postgres)")

    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        env = {
            "ZAR_GAMES_PER_MINUTE": "off",
            "ZAR_ACTION_BUDGET": "off",
            "ZAR_INVITATION_BUDGET": "off",
            "ZAR_CONNECTIONS_PER_CLIENT": "off",
        }
        store = "SQLite"
        if args.url or args.postgres:
            url = args.url or stack.enter_context(throwaway_postgres())
            env["ZAR_DATABASE_URL"] = url
            store = "PostgreSQL"
        servers = []
        for _ in range(args.processes):
            process, url = serve(folder, env)
            stack.callback(process.wait, 10)
            stack.callback(process.terminate)
            servers.append((process, url))
        measured = asyncio.run(run(args, [u for _, u in servers], [p.pid for p, _ in servers]))
    report(args, store, measured)


if __name__ == "__main__":
    main()
