"""What the benchmarks share: a free port of 127.0.0.1, ``zar serve`` started on one over
a throwaway SQLite file, ready when it answers, a device's credential read from a reply, and
a throwaway PostgreSQL server."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path

__all__ = ["COOKIE", "credential", "free_port", "ready", "serve", "throwaway_postgres"]

COOKIE = "zar_device"  # a device's credential (zar.server.seats.COOKIE)


def credential(set_cookie: str) -> str | None:
    """The ``cookie`` header's value that sends back a device's credential, from the
    ``set-cookie`` header that gave it; None for another cookie.

    >>> credential("zar_device=abc; HttpOnly; Max-Age=34560000; Path=/; SameSite=strict")
    'zar_device=abc'
    """
    pair = set_cookie.split(";", 1)[0].strip()
    return pair if pair.startswith(COOKIE + "=") else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(
    folder: Path, env: Mapping[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """``zar serve`` on a free port, its games in ``folder``; the process and its address."""
    port = free_port()
    environment = {
        **os.environ,
        "ZAR_PORT": str(port),
        "ZAR_DB": str(folder / "zar.sqlite3"),
        **(env or {}),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "zar", "serve"], env=environment, stdout=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    ready(server, url)
    return server, url


def ready(server: subprocess.Popen[bytes], url: str) -> None:
    """Wait until the server at ``url`` answers (30 s at most, else it is killed)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/setup", timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                server.kill()
                raise
            time.sleep(0.1)


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL server of the run's own (``tests/throwaway_postgres.py``); its URL."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from throwaway_postgres import ThrowawayPostgres, find_bin

    bin_dir = find_bin()
    if bin_dir is None:
        raise SystemExit("no initdb on PATH or in /usr/lib/postgresql/*/bin")
    server = ThrowawayPostgres(bin_dir)
    server.start()
    try:
        yield server.new_database()
    finally:
        server.stop()
