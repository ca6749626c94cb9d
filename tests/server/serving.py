"""``zar serve`` as a real process on a free port, for the tests that start, kill and
start it again."""

from __future__ import annotations

import copy
import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["Server", "free_port", "running"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``zar serve`` in its own process, on a free port of 127.0.0.1, its games in ``db``;
    ``env`` adds to (or overrides) the environment it is started with; ``command`` serves
    in its place (it reads ``ZAR_PORT`` and ``ZAR_DB`` and prints its address first);
    ``group``: in a process group of its own, as a terminal starts it (:meth:`interrupt`)."""

    def __init__(
        self,
        db: Path | str,
        env: Mapping[str, str] | None = None,
        command: Sequence[str] = (sys.executable, "-m", "zar", "serve"),
        *,
        group: bool = False,
    ) -> None:
        self.db = db
        self.env = dict(env or {})
        self.command = list(command)
        self.group = group
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None
        self.output: deque[str] = deque(maxlen=200)  # its last lines, for a failure's message
        self._reader: threading.Thread | None = None
        # One device: its credential, the cookie the server gave, kept for every request.
        self.cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "ZAR_PORT": str(self.port), "ZAR_DB": str(self.db), **self.env}
        self.process = subprocess.Popen(
            self.command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=self.group,
        )
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        if f"http://127.0.0.1:{self.port}/" not in first:  # it prints its address
            self.process.wait(timeout=10)
            raise AssertionError("the server did not start:\n" + first + self.process.stdout.read())
        # Read whatever else it says, so that a full pipe never blocks it.
        self._reader = threading.Thread(
            target=self.output.extend, args=(self.process.stdout,), daemon=True
        )
        self._reader.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.call("GET", "/api/games")
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no chance to tidy up."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        if self._reader is not None:
            self._reader.join(timeout=10)  # the pipe has ended: it has read everything
        if self.process.stdout:
            self.process.stdout.close()

    def interrupt(self, sig: signal.Signals = signal.SIGINT) -> None:
        """Ctrl-C (SIGINT) as a terminal sends it, to the server and every process it
        started, when it has a group of its own; else to the server alone."""
        assert self.process is not None
        if self.group:
            os.killpg(self.process.pid, sig)
        else:
            self.process.send_signal(sig)

    def lines(self) -> str:
        """What it has printed, once it has ended (the reader has read it all)."""
        assert self.process is not None
        assert self.process.poll() is not None
        if self._reader is not None:
            self._reader.join(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()
        return "".join(self.output)

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, timeout: float = 10
    ) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"content-type": "application/json"}
        )
        with self.open(request, timeout=timeout) as response:
            return json.loads(response.read())

    def open(self, request: urllib.request.Request | str, timeout: float) -> Any:
        """``urlopen`` as this client's device (with its credential)."""
        return self._opener.open(request, timeout=timeout)

    def cookie_header(self) -> str:
        """This client's device credential as a ``Cookie`` header, for a hand-made request."""
        return "; ".join(f"{c.name}={c.value}" for c in self.cookies)

    def same_device_as(self, other: Server) -> None:
        """Ask as ``other``'s device from now on (two processes, one phone)."""
        self.cookies = other.cookies
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def another_device(self) -> Server:
        """This server asked from another device (a second phone, no credential yet): for its
        requests only; the process is started and killed through ``self``."""
        other = copy.copy(self)
        other.cookies = http.cookiejar.CookieJar()
        other._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(other.cookies)
        )
        return other


@contextmanager
def running(db: Path | str, env: Mapping[str, str] | None = None) -> Iterator[Server]:
    """A started :class:`Server` for the block, killed at its end if it still runs (a test
    may kill and start it again itself)."""
    server = Server(db, env)
    server.start()
    try:
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()
