"""``zar serve`` from the attacker's side: huge headers, half-sent requests held open, more
connections than an address may hold, forwarded headers from nobody's proxy. Each is refused
or closed by the serving itself, with the security headers, while others are answered."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.serving import Server, free_port, running
from zar.server.connections import ConnectionLimits
from zar.server.limits import SECURITY_HEADERS
from zar.server.run import connection_limits, proxies

# Small timeouts, so that the tests take seconds; the defaults are in docs/security.md.
QUICK = {
    "ZAR_HEADER_SECONDS": "2",
    "ZAR_BODY_SECONDS": "2",
    "ZAR_IDLE_SECONDS": "2",
    "ZAR_CONNECTIONS_PER_CLIENT": "700",
}
DEADLINE = 20.0  # generous: "answered at all", never how fast
GET = b"GET /api/setup HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("connections") / "zar.sqlite3", QUICK) as served:
        yield served


def connect(server: Server, source: str = "127.0.0.1") -> socket.socket:
    connection = socket.socket()
    try:
        connection.bind((source, 0))
        connection.connect(("127.0.0.1", server.port))
    except OSError:
        connection.close()
        raise
    return connection


def exchange(server: Server, request: bytes, source: str = "127.0.0.1") -> bytes:
    """What the server writes back to ``request`` until it closes the connection."""
    with connect(server, source) as connection:
        connection.settimeout(DEADLINE)
        # It may close before the whole request is sent: its reply is still there.
        with contextlib.suppress(OSError):
            connection.sendall(request)
        return read_all(connection)


def read_all(connection: socket.socket) -> bytes:
    answer = b""
    try:
        while chunk := connection.recv(65536):
            answer += chunk
    except ConnectionResetError:
        pass  # closed with unread bytes of ours: the reply came first
    return answer


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def headers(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in head)}


def words(answer: bytes) -> dict[str, str]:
    body: dict[str, str] = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    return body


def assert_secured(answer: bytes) -> None:
    got = headers(answer)
    for name, value in SECURITY_HEADERS.items():
        assert got[name] == value, name


def answers_others(server: Server, source: str = "127.0.0.2") -> None:
    answer = exchange(server, GET, source)
    assert status(answer) == 200


def test_a_megabyte_header_is_refused_and_others_are_answered(server: Server) -> None:
    answer = exchange(server, GET[:-2] + b"X-Big: " + b"a" * 1_000_000 + b"\r\n\r\n")
    assert status(answer) == 431
    assert_secured(answer)
    assert words(answer)["reason"] == "headers-too-large"
    answers_others(server)


def test_five_thousand_headers_are_refused(server: Server) -> None:
    many = b"".join(b"x-%d: 1\r\n" % i for i in range(5000))
    answer = exchange(server, GET[:-2] + many + b"\r\n")
    assert status(answer) == 431
    assert_secured(answer)


def test_what_is_not_http_is_a_400_with_the_security_headers(server: Server) -> None:
    answer = exchange(server, b"NOT HTTP AT ALL\r\n\r\n")
    assert status(answer) == 400
    assert_secured(answer)
    assert words(answer)["reason"] == "not-http"


def test_the_refusals_speak_the_language_the_headers_ask_for(server: Server) -> None:
    request = b"GET / HTTP/1.1\r\nAccept-Language: fr\r\n" + b"x: 1\r\n" * 200 + b"\r\n"
    answer = exchange(server, request)
    assert words(answer)["detail"] == "En-têtes de requête trop grands : 16 Kio au plus"


def test_half_sent_requests_do_not_stop_the_server_and_are_closed(server: Server) -> None:
    slow = [connect(server) for _ in range(500)]
    try:
        for connection in slow:
            connection.sendall(b"GET /api/setup HTTP/1.1\r\nHost: 127.")  # and no more
        answers_others(server)
        answers_others(server, "127.0.0.1")  # the same address as the half-sent ones too
        # A byte now and then does not keep one open past the header timeout.
        slow[0].sendall(b"0")
        for connection in slow:
            connection.settimeout(DEADLINE)
            answer = read_all(connection)
            assert status(answer) == 408
            assert_secured(answer)
    finally:
        for connection in slow:
            connection.close()


def test_a_body_that_never_comes_is_closed(server: Server) -> None:
    request = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"
    with connect(server) as connection:
        connection.sendall(request)
        connection.settimeout(DEADLINE)
        answer = read_all(connection)
    assert status(answer) == 408
    assert_secured(answer)


def test_a_connection_that_says_nothing_is_closed(server: Server) -> None:
    with connect(server) as connection:
        connection.settimeout(DEADLINE)
        assert read_all(connection) == b""  # closed: recv did not wait past the deadline


def test_an_address_holds_so_many_connections_and_another_is_served(tmp_path: Path) -> None:
    env = {"ZAR_CONNECTIONS_PER_CLIENT": "5", "ZAR_IDLE_SECONDS": "60"}
    with running(tmp_path / "zar.sqlite3", env) as server:
        held = [connect(server) for _ in range(5)]
        try:
            over = exchange(server, GET)
            assert status(over) == 429
            assert_secured(over)
            assert words(over)["reason"] == "too-many-client-connections"
            answers_others(server)
            held.pop().close()
            deadline = time.monotonic() + DEADLINE
            while status(exchange(server, GET)) != 200:  # once the server saw it go
                assert time.monotonic() < deadline
                time.sleep(0.05)
        finally:
            for connection in held:
                connection.close()


def new_game(server: Server, forwarded_for: str) -> int:
    request = urllib.request.Request(
        server.url + "/api/games",
        data=json.dumps({"game": "yams", "players": ["Ali"]}).encode(),
        method="POST",
        headers={"content-type": "application/json", "x-forwarded-for": forwarded_for},
    )
    try:
        with server.open(request, timeout=DEADLINE) as response:
            code: int = response.status
    except urllib.error.HTTPError as error:
        code = error.code
    return code


def test_a_forwarded_address_is_not_believed_from_an_unnamed_proxy(tmp_path: Path) -> None:
    with running(tmp_path / "zar.sqlite3", {"ZAR_GAMES_PER_MINUTE": "2"}) as server:
        codes = [new_game(server, f"203.0.113.{n}") for n in range(3)]
    assert codes == [201, 201, 429]  # one address: 127.0.0.1's, whatever the header says


def test_a_forwarded_address_is_believed_from_a_named_proxy(tmp_path: Path) -> None:
    env = {"ZAR_GAMES_PER_MINUTE": "2", "ZAR_PROXIES": "127.0.0.1"}
    with running(tmp_path / "zar.sqlite3", env) as server:
        codes = [new_game(server, f"203.0.113.{n}") for n in range(3)]
        codes.append(new_game(server, "203.0.113.0"))
        codes.append(new_game(server, "203.0.113.0"))
    assert codes == [201, 201, 201, 201, 429]


@pytest.fixture(scope="module")
def five(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that holds five connections in all."""
    env = {"ZAR_CONNECTIONS": "5", "ZAR_HEADER_SECONDS": "60", "ZAR_BODY_SECONDS": "60"}
    with running(tmp_path_factory.mktemp("five") / "zar.sqlite3", env) as served:
        yield served


def test_past_the_total_the_longest_waiting_makes_room(five: Server) -> None:
    slow = [connect(five, f"127.0.0.{2 + n % 3}") for n in range(20)]
    try:
        for connection in slow:
            connection.sendall(b"GET /api/setup HTTP/1.1\r\nHost: 127.")
        answers_others(five, "127.0.0.9")
        slow[0].settimeout(DEADLINE)  # the first is among those closed for the others
        answer = read_all(slow[0])
        if answer:  # its headers had begun when it was closed (else it closes with no word)
            assert status(answer) == 503
            assert_secured(answer)
            assert words(answer)["reason"] == "too-many-connections"
    finally:
        for connection in slow:
            connection.close()


def test_past_the_total_with_every_connection_serving_a_newcomer_is_refused(
    five: Server,
) -> None:
    posting = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n"
    serving = [connect(five, "127.0.0.2") for _ in range(5)]
    try:
        for connection in serving:
            # The server says "100 Continue" once it has read the headers: being served.
            connection.sendall(posting + b"Expect: 100-continue\r\n\r\n")
            connection.settimeout(DEADLINE)
            assert connection.recv(100).startswith(b"HTTP/1.1 100 Continue")
        answer = exchange(five, GET, "127.0.0.9")
        assert status(answer) == 503
        assert_secured(answer)
    finally:
        for connection in serving:
            connection.close()
    deadline = time.monotonic() + DEADLINE
    while status(exchange(five, GET, "127.0.0.9")) != 200:  # room again once they are gone
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_uvicorn_serves_the_factory_with_the_same_protocol(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "ZAR_DB": str(tmp_path / "zar.sqlite3"), "ZAR_HEADER_SECONDS": "1"}
    env.pop("ZAR_DATABASE_URL", None)
    command = [sys.executable, "-m", "uvicorn", "--factory", "zar.server.run:app"]
    command += ["--http", "zar.server.run:protocol", "--port", str(port)]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    with subprocess.Popen(command, env=env, **quiet) as uvicorn:
        try:
            server = Server(tmp_path / "zar.sqlite3")
            server.port = port
            deadline = time.monotonic() + DEADLINE
            while True:
                with contextlib.suppress(OSError):
                    answers_others(server)
                    break
                assert time.monotonic() < deadline
                time.sleep(0.1)
            assert status(exchange(server, GET[:-2] + b"x: 1\r\n" * 5000 + b"\r\n")) == 431
            with connect(server) as slow:
                slow.sendall(b"GET / HTTP/1.1\r\n")
                slow.settimeout(DEADLINE)
                assert status(read_all(slow)) == 408
        finally:
            uvicorn.terminate()


def test_the_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZAR_HEADER_SECONDS", "2.5")
    monkeypatch.setenv("ZAR_CONNECTIONS_PER_CLIENT", "off")
    monkeypatch.setenv("ZAR_CONNECTIONS", "300")
    limits = connection_limits()
    assert (limits.header_seconds, limits.per_client, limits.total) == (2.5, None, 300)
    assert limits.body_seconds == ConnectionLimits().body_seconds
    monkeypatch.setenv("ZAR_IDLE_SECONDS", "soon")
    with pytest.raises(SystemExit, match="ZAR_IDLE_SECONDS is a positive number: soon"):
        connection_limits()


def test_the_proxies_are_addresses_or_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not proxies()  # none by default
    monkeypatch.setenv("ZAR_PROXIES", "10.0.0.0/8, ::1")
    assert proxies().named("10.9.8.7")
    assert proxies("192.168.1.2").named("192.168.1.2")  # --proxies wins
    assert not proxies("192.168.1.2").named("10.9.8.7")
    with pytest.raises(SystemExit, match="ZAR_PROXIES"):
        proxies("the router")


def test_a_guarded_connection_costs_no_more_memory_than_uvicorn_s_own() -> None:
    """Every open stream is a connection: the limits' own state takes no room in uvicorn's
    instance dict, which stays one that shares its keys with every connection."""
    import asyncio

    from uvicorn.config import Config
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    from uvicorn.server import ServerState

    from zar.server.connections import Proxies, guarded_protocol

    config = Config("zar.server.run:app", http="httptools")  # read, not loaded
    loop = asyncio.new_event_loop()
    try:
        made = [
            protocol(config=config, server_state=ServerState(), app_state={}, _loop=loop)
            for protocol in (HttpToolsProtocol, guarded_protocol(ConnectionLimits(), Proxies([])))
        ]
    finally:
        loop.close()
    plain, guarded = (sys.getsizeof(vars(p)) for p in made)
    assert guarded <= plain, (plain, guarded)
