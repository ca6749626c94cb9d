"""Stopping ``zar serve`` with phones following their games: one Ctrl-C (or SIGTERM) ends
every live stream and the server exits, quietly.

A stream never ends by itself, and uvicorn waits for every request being served before it
exits: the server used to stop answering and wait for ever, and a second Ctrl-C printed a
``CancelledError`` traceback for each stream. The times below are generous bounds ("it ends
at all"), never how fast."""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path

import pytest

from server.serving import Server

DEADLINE = 30.0  # generous: it exits within a second or two


def open_stream(server: Server, game: str) -> socket.socket:
    """A game's event stream, as a phone's page holds it open; its first event read."""
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=DEADLINE)
    connection.sendall(
        f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Accept: text/event-stream\r\nCookie: {server.cookie_header()}\r\n\r\n".encode()
    )
    first = b""
    while b"\ndata: " not in first:
        first += connection.recv(65536)
    assert first.startswith(b"HTTP/1.1 200")
    return connection


def ended(connection: socket.socket) -> bool:
    """Whether the stream's connection is closed by the server before the deadline."""
    deadline = time.monotonic() + DEADLINE
    try:
        while time.monotonic() < deadline:
            if not connection.recv(65536):
                return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_one_signal_ends_every_stream_and_the_server_exits_quietly(
    tmp_path: Path, sig: signal.Signals
) -> None:
    # In a process group of its own, as a terminal starts it: Ctrl-C reaches the server and
    # the process it started (the luck accounts') alike.
    server = Server(tmp_path / "zar.sqlite3", group=True)
    server.start()
    streams: list[socket.socket] = []
    try:
        yams = server.call("POST", "/api/games", {"game": "yams", "players": ["Ali", "Ece"]})
        farkle = server.call("POST", "/api/games", {"game": "10000", "players": ["Can"]})
        guest = server.another_device()
        watch = server.call("POST", f"/api/games/{yams['id']}/invitations")
        guest.call("POST", "/api/invitations/watch", {"invitation": watch["code"]})
        streams.append(open_stream(server, yams["id"]))
        streams.append(open_stream(server, yams["id"]))
        streams.append(open_stream(server, farkle["id"]))
        streams.append(open_stream(guest, yams["id"]))
        server.interrupt(sig)
        assert server.process is not None
        assert server.process.wait(timeout=DEADLINE) == 0
        assert all(ended(stream) for stream in streams)
        said = server.lines()
        assert "Traceback" not in said, said
        assert "Error" not in said, said
    finally:
        for stream in streams:
            stream.close()
        if server.process is not None and server.process.poll() is None:
            server.kill()
