"""A normal client's requests while others attack the connections, against the 50 ms anchor.

Starts ``zar serve`` on a free port of 127.0.0.1 with a fresh SQLite file, then, one attack
at a time, runs it from a process of its own while a normal client (from another address
of this machine, 127.0.0.200) opens a connection, asks for a game and reads it, again and
again; prints each attack's p50, p99 and worst of the normal client's requests, the
requests it could not get answered, and what the attackers got back:

- ``1 MB header``: clients sending a 1 MB header, again as soon as one is refused;
- ``5 000 headers``: the same with 5 000 small headers;
- ``slowloris 500``: 500 connections from one address, each sending its headers a byte a
  second, opened again when closed;
- ``slowloris 5 000``: 5 000 such connections spread over 50 addresses.

``--server uvicorn`` (or ``uvicorn-h11``) serves the same app with uvicorn's own protocol
instead (``uvicorn --factory zar.server.run:app``), to compare; ``--attacks`` picks some.
The server's CPU time during each attack is printed beside it.

    .venv/bin/python bench/connections.py [--seconds 6] [--server zar|uvicorn|uvicorn-h11]
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
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from load import cpu_seconds
from serving import credential, free_port, ready, serve

ANCHOR_P99_MS = 50.0
CLIENT = "127.0.0.200"  # the normal client: not an attacker's address
HEADERS = b"GET /api/setup HTTP/1.1\r\nHost: 127.0.0.1\r\n"


@dataclass(frozen=True)
class Attack:
    name: str
    kind: str  # "header" (whole requests, again and again) or "slow" (half-sent, held)
    request: bytes = b""
    connections: int = 0
    addresses: int = 1
    senders: int = 4


ATTACKS = (
    Attack("none", "none"),
    Attack("1 MB header", "header", HEADERS + b"X-Big: " + b"a" * 1_000_000 + b"\r\n\r\n"),
    Attack(
        "5 000 headers",
        "header",
        HEADERS + b"".join(b"x-%d: 1\r\n" % i for i in range(5000)) + b"\r\n",
    ),
    Attack("slowloris 500", "slow", connections=500),
    Attack("slowloris 5 000", "slow", connections=5000, addresses=50),
)


async def _exchange(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
    except OSError:
        pass  # refused before the whole request was read: the reply is there
    try:
        return await reader.read(100)
    except OSError:
        return b""
    finally:
        writer.close()


async def _headers(attack: Attack, port: int, until: float, got: Counter[str]) -> None:
    async def sender() -> None:
        while time.monotonic() < until:
            reply = await _exchange(port, attack.request)
            got[reply[9:12].decode() or "closed"] += 1

    await asyncio.gather(*(sender() for _ in range(attack.senders)))


async def _slow(attack: Attack, port: int, until: float, got: Counter[str]) -> None:
    async def one(n: int) -> None:
        address = f"127.0.1.{1 + n % attack.addresses}"
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(address, 0)
                )
            except OSError:
                got["not connected"] += 1
                await asyncio.sleep(1)
                continue
            try:
                for byte in HEADERS:  # never the blank line that ends them
                    writer.write(bytes([byte]))
                    await writer.drain()
                    reply = await asyncio.wait_for(reader.read(100), timeout=1)
                    if reply or reader.at_eof():
                        got[reply[9:12].decode() or "closed"] += 1
                        break
            except TimeoutError:
                pass
            except OSError:
                got["reset"] += 1
            finally:
                writer.close()
            # A connection closed by the server, or past its headers: another.

    async def bounded(n: int) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(one(n), timeout=until - time.monotonic() + 2)

    await asyncio.gather(*(bounded(n) for n in range(attack.connections)))


def _attack(attack: Attack, port: int, seconds: float, report: Connection) -> None:
    """The attack, for ``seconds``, in this process; what it got back sent to ``report``."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    got: Counter[str] = Counter()
    until = time.monotonic() + seconds
    runs: dict[str, Callable[..., Coroutine[Any, Any, None]]] = {
        "header": _headers,
        "slow": _slow,
    }
    if attack.kind in runs:
        asyncio.run(runs[attack.kind](attack, port, until, got))
    report.send(dict(got))


def normal_reads(
    port: int, game: str, cookie: str, seconds: float
) -> tuple[list[float], Counter[str]]:
    """A normal client (from :data:`CLIENT`) opening a connection and reading its game, again
    and again for ``seconds``: each request's time in ms, and the failures by kind (a
    status, or an error's name)."""
    times: list[float] = []
    failed: Counter[str] = Counter()
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        start = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(CLIENT, 0))
        try:
            conn.request("GET", f"/api/games/{game}", headers={"cookie": cookie})
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                times.append((time.perf_counter() - start) * 1000)
            else:
                failed[str(response.status)] += 1
        except OSError as error:
            failed[type(error).__name__] += 1
        finally:
            conn.close()
        time.sleep(0.02)  # a person's device, not a flood: about 40 requests a second
    return times, failed


def _figures(times: list[float]) -> str:
    if not times:
        return "no request answered (OVER)"
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    verdict = "under" if p99 < ANCHOR_P99_MS else "OVER"
    return (
        f"p50 {statistics.median(times):6.1f} ms  p99 {p99:6.1f} ms ({verdict})  "
        f"max {times[-1]:6.1f} ms"
    )


def _uvicorn(folder: Path, protocol: str) -> tuple[subprocess.Popen[bytes], int]:
    """uvicorn's own serving of the same app, ``protocol`` its HTTP protocol, on a free port."""
    port = free_port()
    env = {**os.environ, "ZAR_DB": str(folder / "zar.sqlite3"), "ZAR_GAMES_PER_MINUTE": "off"}
    command = [sys.executable, "-m", "uvicorn", "--factory", "zar.server.run:app"]
    command += ["--port", str(port), "--http", protocol, "--log-level", "error"]
    server = subprocess.Popen(command, env=env)
    ready(server, f"http://127.0.0.1:{port}")
    return server, port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="each attack's measure")
    parser.add_argument("--server", choices=["zar", "uvicorn", "uvicorn-h11"], default="zar")
    names = [attack.name for attack in ATTACKS]
    parser.add_argument("--attacks", nargs="+", choices=names, default=names)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.server == "zar":
            server, url = serve(Path(folder), {"ZAR_GAMES_PER_MINUTE": "off"})
            port = int(url.rsplit(":", 1)[1])
        else:
            protocol = "h11" if args.server == "uvicorn-h11" else "httptools"
            server, port = _uvicorn(Path(folder), protocol)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            body = json.dumps({"game": "yams", "players": ["Ali"]})
            conn.request("POST", "/api/games", body, {"content-type": "application/json"})
            created = conn.getresponse()
            game = json.loads(created.read())["id"]
            cookie = next(filter(None, map(credential, created.headers.get_all("set-cookie"))))
            conn.close()
            print(
                f"{args.server}: a normal client's requests during each attack "
                f"({args.seconds:g} s), against the {ANCHOR_P99_MS:g} ms anchor (p99):"
            )
            for attack in (a for a in ATTACKS if a.name in args.attacks):
                receiving, report = multiprocessing.Pipe(duplex=False)
                attacker = multiprocessing.Process(
                    target=_attack, args=(attack, port, args.seconds + 2, report)
                )
                attacker.start()
                time.sleep(1.5)  # the attack under way
                cpu = cpu_seconds(server.pid)
                times, failures = normal_reads(port, game, cookie, args.seconds)
                failed = sum(failures.values())
                cpu = cpu_seconds(server.pid) - cpu
                got = receiving.recv()
                attacker.join()
                print(
                    f"  {attack.name:16} {_figures(times)}  {len(times)} answered, "
                    f"{failed} not  server CPU {cpu / args.seconds:4.0%}  "
                    f"attackers got {got or '-'}"
                )
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
