"""A normal client's requests and its own stream while live streams from many addresses
flood the server's places for streams, against the 100 ms anchor (p99) and no 503.

Starts ``zar serve`` on a free port of 127.0.0.1 with a fresh SQLite file
(``ZAR_GAMES_PER_MINUTE=off``: the attackers' devices are made from one address;
``ZAR_STREAMS`` from ``--places``), raising its own limit on open files and the server's.
An attacker, in a process of its own, makes a device and a game for each four streams,
then opens ``--streams`` streams from ``--addresses`` loopback addresses (127.0.2.1,
127.0.2.2, ... in turn: each address under its cap of 256, each device under its caps),
more than the places: a stream closed by the server is asked for again a second later
(as a browser comes back), one refused again after ``--retry`` seconds (the ``Retry-After``
said, 15, by default); what they got back is counted by status, a stream the server
closed (its place given up to a newcomer), or a connection closed before an answer (past
``ZAR_CONNECTIONS``, the longest waiting for its request's headers makes room for a newcomer,
docs/security.md). Once every stream has had its first answer, a normal client from
another address (127.0.0.200) starts a game of its own, opens its game's stream and reads
it, and reads its game again and again for ``--seconds`` (a connection each, about 40 a
second). Prints the normal client's p50, p99 and worst against the anchor, its 503s and
other failures, whether its stream was given and stayed open, what the attackers got
back, and the server's CPU time meanwhile. With ``--nice N`` the attackers' process runs
at niceness N: on a machine of two cores, their thousands of connections otherwise take
the core the server or the normal client waits for, where in truth they are other machines.

    .venv/bin/python bench/stream_flood.py [--streams 5000] [--addresses 50] [--places 4096]
        [--seconds 10] [--retry 15] [--nice 0]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import multiprocessing
import os
import resource
import socket
import tempfile
import threading
import time
from collections import Counter
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from pathlib import Path

from connections import CLIENT, normal_reads
from load import cpu_seconds
from serving import credential, serve

ANCHOR_P99_MS = 100.0
ALONE = json.dumps({"game": "yams", "players": ["Ali"]})
COME_BACK_S = 1.0  # a stream the server closed is asked for again (a browser comes back)


def new_game(port: int, source: str, cookie: str = "") -> tuple[int, str, str]:
    """A game started from ``source`` (by a new device, without ``cookie``): the status, the
    game's id and the device's cookie."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        headers = {"content-type": "application/json"} | ({"cookie": cookie} if cookie else {})
        conn.request("POST", "/api/games", ALONE, headers)
        reply = conn.getresponse()
        body = reply.read()
        if reply.status != 201:
            return reply.status, "", cookie
        given = next(filter(None, map(credential, reply.headers.get_all("set-cookie") or [])), "")
        return reply.status, json.loads(body)["id"], given or cookie
    finally:
        conn.close()


def stream_request(game: str, cookie: str) -> bytes:
    head = f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
    return head.encode() + b"\r\n"


class Flood:
    """The attackers' streams: what they got back, and when to stop."""

    def __init__(self, port: int, retry: float) -> None:
        self.port, self.retry = port, retry
        self.got: Counter[str] = Counter()
        self.stop = asyncio.Event()


async def _stream(
    flood: Flood, source: str, game: str, cookie: str, answered: asyncio.Event
) -> None:
    """One attacker's stream, asked for again and again until the flood stops."""
    request, got, stop = stream_request(game, cookie), flood.got, flood.stop
    first = True
    while not stop.is_set():
        wait = flood.retry
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", flood.port, local_addr=(source, 0)
            )
        except OSError:
            got["not connected"] += 1
        else:
            try:
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                status = head[9:12].decode()
                got[status] += 1
                if first:
                    first = False
                    answered.set()
                if status == "200":
                    while await reader.read(65536):  # until the server closes it
                        pass
                    got["stream closed"] += 1
                    wait = COME_BACK_S
            except (OSError, asyncio.IncompleteReadError):
                got["closed before an answer"] += 1
                wait = COME_BACK_S
            finally:
                writer.close()
        if first:
            first = False
            answered.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=wait)


async def _flood(args: argparse.Namespace, port: int, ready: Connection, stopped: Event) -> None:
    loop = asyncio.get_running_loop()
    devices = []
    for _ in range(-(-args.streams // 4)):  # a device and a game for each four streams
        status, game, cookie = await loop.run_in_executor(None, new_game, port, "127.0.0.1")
        assert status == 201, status
        devices.append((game, cookie))
    flood = Flood(port, args.retry)
    answers = [asyncio.Event() for _ in range(args.streams)]
    sources = [f"127.0.2.{1 + n % args.addresses}" for n in range(args.streams)]
    tasks = [
        asyncio.create_task(_stream(flood, sources[n], *devices[n // 4], answers[n]))
        for n in range(args.streams)
    ]
    await asyncio.gather(*(answer.wait() for answer in answers))
    ready.send(dict(flood.got))
    while not stopped.is_set():
        await asyncio.sleep(0.2)
    flood.stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    ready.send(dict(flood.got))


def _attacker(args: argparse.Namespace, port: int, ready: Connection, stopped: Event) -> None:
    os.nice(args.nice)  # the attackers are other machines in truth: on two cores, theirs
    asyncio.run(_flood(args, port, ready, stopped))


class OwnStream(threading.Thread):
    """The normal client's stream of its game, read as it comes: its status, and whether
    the server closed it."""

    def __init__(self, port: int, game: str, cookie: str) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), 30, source_address=(CLIENT, 0))
        self.sock.sendall(stream_request(game, cookie))
        self.sock.settimeout(None)
        self.status = int(self.sock.recv(12)[9:12])
        self.closed = False
        self.start()

    def run(self) -> None:
        try:
            while self.sock.recv(65536):
                pass
        except OSError:
            pass
        self.closed = True


def _figures(times: list[float], failed: Counter[str]) -> str:
    failures = f"503: {failed['503']}, other failures: {sum(failed.values()) - failed['503']}"
    if not times:
        return f"no request answered (OVER the {ANCHOR_P99_MS:g} ms anchor), {failures}"
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    verdict = "under" if p99 < ANCHOR_P99_MS and not failed["503"] else "OVER"
    return (
        f"p50 {times[len(times) // 2]:6.1f} ms  p99 {p99:6.1f} ms  max {times[-1]:6.1f} ms  "
        f"({verdict} the {ANCHOR_P99_MS:g} ms anchor)  {len(times)} answered, {failures}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--streams", type=int, default=5000, help="the attackers' streams")
    parser.add_argument("--addresses", type=int, default=50, help="they come from (at most 250)")
    parser.add_argument("--places", type=int, default=4096, help="the server's ZAR_STREAMS")
    parser.add_argument("--seconds", type=float, default=10.0, help="the normal client's")
    parser.add_argument("--retry", type=float, default=15.0, help="after a refusal, seconds")
    parser.add_argument("--nice", type=int, default=0, help="the attackers' process's niceness")
    args = parser.parse_args()
    if not 1 <= args.addresses <= 250 or args.streams > 256 * args.addresses:
        parser.error("1 to 250 addresses, 256 streams an address at most")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    with tempfile.TemporaryDirectory() as folder:
        env = {"ZAR_GAMES_PER_MINUTE": "off", "ZAR_STREAMS": str(args.places)}
        server, url = serve(Path(folder), env)
        port = int(url.rsplit(":", 1)[1])
        try:
            ready, told = multiprocessing.Pipe(duplex=False)
            stopped = multiprocessing.Event()
            attacker = multiprocessing.Process(target=_attacker, args=(args, port, told, stopped))
            started = time.monotonic()
            attacker.start()
            if not ready.poll(600):
                raise SystemExit("stream_flood: the flood was not under way in 10 minutes")
            first = ready.recv()
            print(
                f"zar serve, ZAR_STREAMS {args.places}: {args.streams} streams from "
                f"{args.addresses} addresses (127.0.2.x), each answered once in "
                f"{time.monotonic() - started:.1f} s (devices and games made first): {first}"
            )
            cpu = cpu_seconds(server.pid)
            measure_start = time.monotonic()
            status, game, cookie = new_game(port, CLIENT)
            own = OwnStream(port, game, cookie) if status == 201 else None
            times, failed = normal_reads(port, game, cookie, args.seconds)
            measured = time.monotonic() - measure_start
            cpu = cpu_seconds(server.pid) - cpu
            stopped.set()
            got = ready.recv()
            attacker.join()
            print(
                f"the normal client ({CLIENT}) during the flood ({measured:.1f} s): its new game "
                f"{status}; its own stream "
                + (f"{own.status}, {'closed' if own.closed else 'open'} to the end" if own else "-")
            )
            print(f"  its requests: {_figures(times, failed)}")
            print(f"  server CPU {cpu / measured:4.0%}; the attackers got, in all: {got}")
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
