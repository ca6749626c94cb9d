"""Live streams from the attacker's side, through a real ``zar serve``: streams from several
addresses fill their budget, and a newcomer's requests and its own stream are still served;
a household's streams behind one address do not shut it out of its requests; past the
budget, the address that holds its share is refused in words. And the budget's own rule:
the oldest stream of the address holding the most gives its place up."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.serving import Server, running
from zar.server.run import connection_limits
from zar.server.stream_budget import StreamBudget
from zar.server.streams import TooManyStreams

DEADLINE = 20.0  # generous: "answered at all", never how fast
ALONE = {"game": "yams", "players": ["Ali"]}


class Client:
    """Requests written by hand from one loopback address, as one device (its cookie)."""

    def __init__(self, server: Server, source: str, cookie: str = "", via: str = "") -> None:
        self.server, self.source, self.cookie = server, source, cookie
        self.via = f"X-Forwarded-For: {via}\r\n" if via else ""  # a proxy's client

    def connect(self) -> socket.socket:
        connection = socket.socket()
        try:
            connection.bind((self.source, 0))
            connection.connect(("127.0.0.1", self.server.port))
        except OSError:
            connection.close()
            raise
        connection.settimeout(DEADLINE)
        return connection

    def ask(self, method: str, path: str, body: object = None) -> tuple[int, dict[str, str], bytes]:
        """The status, headers and body of the reply to one request on a connection of its own."""
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        head += f"Cookie: {self.cookie}\r\n" if self.cookie else ""
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        with self.connect() as connection:
            connection.sendall(head.encode() + data)
            answer = b""
            with contextlib.suppress(ConnectionResetError):
                while chunk := connection.recv(65536):
                    answer += chunk
        return parse(answer)

    def new_game(self) -> str:
        """A game of its own (and, the first time, its device's credential): the game's id."""
        status, headers, body = self.ask("POST", "/api/games", ALONE)
        assert status == 201, body
        if not self.cookie:
            self.cookie = headers["set-cookie"].split(";", 1)[0]
        game: str = json.loads(body)["id"]
        return game

    def stream(self, game: str) -> tuple[socket.socket, int, bytes]:
        """The game's stream asked for: its connection, the status, and what came first (the
        state now, or the refusal's headers and body)."""
        connection = self.connect()
        head = f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n{self.via}"
        head += f"Cookie: {self.cookie}\r\nAccept-Language: en\r\n\r\n"
        connection.sendall(head.encode())
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.split(b"\r\n\r\n", 1)[1]:
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
        status = int(answer.split(b" ", 2)[1])
        return connection, status, answer if status != 200 else answer.split(b"\r\n\r\n", 1)[1]


def parse(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, body = answer.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split(" ", 2)[1]), headers, body


def ended(connection: socket.socket) -> bool:
    """Whether the server closes the stream: what is left read until then (or the deadline)."""
    try:
        while connection.recv(65536):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


def events(connection: socket.socket, version: int) -> bool:
    """Whether the stream shows ``version`` (read until it does, or the deadline)."""
    seen = b""
    try:
        while f"id: {version}\n".encode() not in seen:
            chunk = connection.recv(65536)
            if not chunk:
                return False
            seen += chunk
    except (TimeoutError, ConnectionResetError):
        return False
    return True


@contextlib.contextmanager
def held(connections: list[socket.socket]) -> Iterator[list[socket.socket]]:
    try:
        yield connections
    finally:
        for connection in connections:
            connection.close()


def test_streams_that_fill_their_budget_leave_a_newcomers_requests_and_stream_served(
    tmp_path: Path,
) -> None:
    """Twelve streams from three addresses take every place for streams, and as many as the
    connections the server holds for requests: a newcomer from another address is answered
    (not 503), its own stream is given the place of the oldest stream of an address holding
    the most, and the host's move still reaches its streams."""
    env = {"ZAR_STREAMS": "12", "ZAR_CONNECTIONS": "12", "ZAR_GAMES_PER_MINUTE": "off"}
    with running(tmp_path / "zar.sqlite3", env) as server:
        host = Client(server, "127.0.0.1")
        games = [host.new_game() for _ in range(4)]
        flood = []
        with held(flood):
            for n in range(12):
                source = Client(server, f"127.0.0.{11 + n % 3}", host.cookie)
                connection, status, first = source.stream(games[n % 3])
                flood.append(connection)
                assert status == 200, first
            newcomer = Client(server, "127.0.0.200")
            game = newcomer.new_game()  # a request, and a device of its own
            assert newcomer.ask("GET", f"/api/games/{game}")[0] == 200
            connection, status, first = newcomer.stream(game)
            flood.append(connection)
            assert status == 200, first
            assert b"\r\nid: 0\n" in first
            # The first address to hold four gave its oldest stream up: closed.
            assert ended(flood[0])
            # An address holding its share (four, as many as any) is refused in words.
            refused, status, answer = Client(server, "127.0.0.12", host.cookie).stream(games[3])
            refused.close()
            assert_refused(answer)
            # The host's move is answered, and shown on the streams still open.
            status, _, moved = host.ask(
                "POST", f"/api/games/{games[1]}/actions", {"version": 0, "type": "throw"}
            )
            assert status == 200, moved
            assert all(events(flood[n], 1) for n in (1, 4, 7, 10))


def assert_refused(answer: bytes) -> None:
    """A stream refused in words: the server's places are taken, the address has its share."""
    status, headers, body = parse(answer)
    assert status == 429
    assert headers["retry-after"] == "15"
    words = json.loads(body)
    assert words["reason"] == "too-many-streams"
    assert words["detail"] == (
        "The server holds 12 live connections at most, and this address has its share: try "
        "again later"
    )


def test_behind_a_named_proxy_the_places_are_shared_by_the_addresses_it_forwards(
    tmp_path: Path,
) -> None:
    """Every stream comes through one front server: the budget counts the addresses it
    forwards, and gives a newcomer's stream the place of the oldest of the one holding the
    most; one that holds its share is refused in words by the app, and may still follow
    once a place is free."""
    env = {"ZAR_STREAMS": "12", "ZAR_PROXIES": "127.0.0.1", "ZAR_GAMES_PER_MINUTE": "off"}
    with running(tmp_path / "zar.sqlite3", env) as server:
        host = Client(server, "127.0.0.1")
        games = [host.new_game() for _ in range(5)]
        flood = []
        with held(flood):
            for n in range(12):
                forwarded = Client(server, "127.0.0.1", host.cookie, via=f"203.0.113.{n % 3}")
                connection, status, first = forwarded.stream(games[n % 3])
                flood.append(connection)
                assert status == 200, first
            newcomer = Client(server, "127.0.0.1", host.cookie, via="198.51.100.7")
            connection, status, first = newcomer.stream(games[3])
            flood.append(connection)
            assert status == 200, first
            assert ended(flood[0])  # 203.0.113.0's oldest
            heavy = Client(server, "127.0.0.1", host.cookie, via="203.0.113.1")
            refused, status, answer = heavy.stream(games[4])
            refused.close()
            assert_refused(answer)
            flood.pop(1).close()  # 203.0.113.1 lets one go: the place is its own again
            deadline = time.monotonic() + DEADLINE
            while True:
                again, status, _ = heavy.stream(games[4])
                flood.append(again)
                if status == 200:
                    break
                assert time.monotonic() < deadline
                time.sleep(0.05)


def test_a_households_streams_do_not_shut_it_out_of_its_requests(tmp_path: Path) -> None:
    """Phones behind one router: their streams are not counted among the connections the
    address may hold for requests, which are still answered."""
    env = {"ZAR_CONNECTIONS_PER_CLIENT": "4", "ZAR_GAMES_PER_MINUTE": "off"}
    with running(tmp_path / "zar.sqlite3", env) as server:
        home = Client(server, "127.0.0.21")
        games = [home.new_game() for _ in range(3)]
        streams = []
        with held(streams):
            for n in range(8):
                connection, status, first = home.stream(games[n % 2])
                streams.append(connection)
                assert status == 200, first
            assert home.ask("GET", f"/api/games/{games[2]}")[0] == 200
            connection, status, first = home.stream(games[2])
            streams.append(connection)
            assert status == 200, first


def test_the_budget_gives_up_the_oldest_stream_of_the_address_holding_the_most() -> None:
    budget: StreamBudget[int] = StreamBudget(6)
    for n in range(6):
        assert budget.take(n, "a" if n < 4 else "b") is None
    assert budget.take(6, "c") == 0  # a holds 4, c none: a's oldest
    assert budget.take(7, "c") == 1  # a holds 3, c one
    with pytest.raises(TooManyStreams) as refused:  # a, b and c hold two each
        budget.take(8, "c")
    assert (refused.value.what, refused.value.limit) == ("server", 6)
    assert (budget.held("a"), budget.held("b"), budget.held("c"), len(budget)) == (2, 2, 2, 6)
    assert budget.take(8, "d") == 4  # a tie: the first to hold that many (b, before a came to it)
    budget.release(2)
    budget.release(3)
    budget.release(3)  # once only
    budget.release(0)  # given up already: nothing
    assert (budget.held("a"), budget.held("b"), len(budget)) == (0, 1, 4)
    assert budget.take(9, "a") is None


def test_the_budget_settles_evenly_and_never_holds_more_than_its_places() -> None:
    """Streams come and go at random from a few addresses: never more than the places, each
    address's count as the budget says, and once all want more than their share, no address
    holds two more than another."""
    rng = random.Random(7)
    budget: StreamBudget[int] = StreamBudget(10)
    open_: dict[int, str] = {}
    for n in range(2000):
        if open_ and rng.random() < 0.3:
            stream = rng.choice(list(open_))
            budget.release(stream)
            del open_[stream]
            continue
        address = rng.choice("abcd")
        with contextlib.suppress(TooManyStreams):
            given_up = budget.take(n, address)
            open_[n] = address
            if given_up is not None:
                del open_[given_up]
        assert len(budget) == len(open_) <= 10
        for each in "abcd":
            assert budget.held(each) == sum(1 for a in open_.values() if a == each)
    for n in range(2000, 2100):  # every address asks, again and again
        with contextlib.suppress(TooManyStreams):
            given_up = budget.take(n, "abcd"[n % 4])
            open_[n] = "abcd"[n % 4]
            if given_up is not None:
                del open_[given_up]
    counts = sorted(budget.held(each) for each in "abcd")
    assert counts[-1] - counts[0] <= 1
    assert sum(counts) == 10


def test_the_streams_budget_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZAR_STREAMS", "300")
    assert connection_limits().streams == 300
    monkeypatch.setenv("ZAR_STREAMS", "none")
    with pytest.raises(SystemExit, match="ZAR_STREAMS is a positive number: none"):
        connection_limits()
