"""A game's live stream: through a real server, given lean in front of the app or refused in
words by it; and what a game shows made once a change for every device in the same place."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.api_support import new
from server.serving import Server, running
from zar.dice import SeededDice
from zar.refusal import Refusal
from zar.server import create_app
from zar.server import followers as followers_module
from zar.server import presence as presence_module
from zar.server import streams as streams_module
from zar.server.devices import COOKIE, key_of
from zar.server.followers import WOKEN_AT_ONCE
from zar.server.games import Games
from zar.server.limits import SECURITY_HEADERS
from zar.server.streams import (
    STREAMS_PER_ADDRESS,
    STREAMS_PER_DEVICE,
    STREAMS_PER_GAME,
    Streams,
    TooManyStreams,
)
from zar.store import SqliteStore


@contextmanager
def open_stream(server: Server, path: str, cookie: str) -> Iterator[http.client.HTTPResponse]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", path, headers={"cookie": cookie, "accept": "text/event-stream"})
        with conn.getresponse() as response:
            yield response
    finally:
        conn.close()


def test_a_stream_is_given_with_the_replies_headers_and_refused_in_words(tmp_path: Path) -> None:
    with running(tmp_path / "zar.sqlite3") as server:
        game = server.call("POST", "/api/games", {"game": "yams", "players": ["Ali"]})
        path = f"/api/games/{game['id']}/events"
        with open_stream(server, path, server.cookie_header()) as given:
            assert given.status == 200
            assert given.headers["content-type"] == "text/event-stream; charset=utf-8"
            assert given.headers["cache-control"] == "no-store"
            for name, value in SECURITY_HEADERS.items():
                assert given.headers[name] == value
            first = given.readline() + given.readline()
        assert first.startswith(f"id: {game['version']}\n".encode())
        assert json.loads(first.split(b"data: ", 1)[1])["id"] == game["id"]

        stranger = server.another_device()
        for asked, cookie, status, reason in (
            (path, "", 403, "not-at-table"),  # no credential
            (path, f"{COOKIE}=forged", 403, "not-at-table"),
            ("/api/games/nothing-here/events", server.cookie_header(), 404, "unknown-game"),
        ):
            with open_stream(stranger, asked, cookie) as refused:
                assert refused.status == status
                assert refused.headers["content-type"] == "application/json"
                assert refused.headers["x-frame-options"] == "DENY"
                body = json.loads(refused.read())
            assert body["reason"] == reason
            assert body["detail"]


def test_what_a_game_shows_is_made_once_for_every_device_in_the_same_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifty streams of one device, and a watcher's: each change makes what the game shows
    everyone once, and from it a view for each place at the table: two, not fifty-one."""
    made: list[Any] = []  # each view made: for everyone, or for a device
    real_game_view, real_table_view = streams_module.game_view, streams_module.table_view

    def game_view(*args: Any, **kwargs: Any) -> Any:
        made.append("everyone")
        return real_game_view(*args, **kwargs)

    def table_view(record: Any, table: Any, **flags: bool) -> Any:
        made.append(table.device)
        return real_table_view(record, table, **flags)

    monkeypatch.setattr(streams_module, "game_view", game_view)
    monkeypatch.setattr(streams_module, "table_view", table_view)
    monkeypatch.setattr(streams_module, "STREAMS_PER_GAME", 50)  # one device's fifty, here
    monkeypatch.setattr(streams_module, "STREAMS_PER_DEVICE", 50)
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with TestClient(create_app(store)) as host, TestClient(host.app) as watcher:
        game = new(host, "yams", "Ali", "Ece")
        links = host.post(f"/api/games/{game['id']}/invitations").json()
        watch = {"invitation": links["watch"].split("=", 1)[1]}
        assert watcher.post("/api/invitations/watch", json=watch).status_code == 200
        credentials = [str(client.cookies[COOKIE]) for client in (host, watcher)]
    keys = [key_of(credential) for credential in credentials]
    # Another app over the store, its streams served in this test's own loop.
    app = create_app(store, dice=SeededDice(3))
    streams: Streams = app.state.streams

    async def main() -> list[bytes]:
        devices = [credentials[0]] * 50 + [credentials[1]]
        received: list[list[bytes]] = [[] for _ in devices]
        gone = asyncio.Event()

        def channel(i: int) -> tuple[Any, Any]:
            async def receive() -> dict[str, Any]:
                await gone.wait()
                return {"type": "http.disconnect"}

            async def send(message: dict[str, Any]) -> None:
                if message.get("body", b"").startswith(b"id: "):
                    received[i].append(message["body"])

            return receive, send

        async def until(done: Any) -> None:
            while not done():
                await asyncio.sleep(0.01)

        tasks = [
            asyncio.create_task(_serve(streams, game["id"], credential, *channel(i)))
            for i, credential in enumerate(devices)
        ]
        await until(lambda: all(received))
        await asyncio.sleep(0.2)  # the wake-ups of the devices' coming are over
        counts = [len(r) for r in received]
        made.clear()
        await app.state.games.act(game["id"], _throw(game["version"]), keys[0])
        await until(lambda: all(len(r) > n for r, n in zip(received, counts, strict=True)))
        gone.set()
        assert await asyncio.gather(*tasks) == [True] * len(tasks)
        return [r[n] for r, n in zip(received, counts, strict=True)]

    seconds = asyncio.run(asyncio.wait_for(main(), timeout=30))
    store.close()
    # What everyone sees made once, then once for the host's place, once for the watcher's.
    assert sorted(made) == sorted([*keys, "everyone"])
    assert len({id(event) for event in seconds[:50]}) == 1  # the very same bytes, shared
    assert json.loads(seconds[0].split(b"data: ", 1)[1])["version"] == game["version"] + 1
    assert json.loads(seconds[50].split(b"data: ", 1)[1])["you"]["role"] == "watcher"


def _throw(version: int) -> Any:
    from zar.server.intents import Intent

    return Intent.model_validate({"version": version, "type": "throw"})


@pytest.mark.parametrize("game", ["yams", "10000"])
def test_the_view_a_move_is_answered_with_is_the_games_view(tmp_path: Path, game: str) -> None:
    """The reply to a move is put together from what everyone sees and the device's part
    (kept as JSON): the same, key for key, as the game's view asked afterwards."""
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with TestClient(create_app(store, dice=SeededDice(5))) as host, TestClient(host.app) as guest:
        shown = new(host, game, "Ali", "Ece", computer=True)
        token = host.post(f"/api/games/{shown['id']}/invitations").json()["join"].split("=")[1]
        claim = {"invitation": token, "seat": 1}
        assert guest.post("/api/invitations/claim", json=claim).status_code == 200
        reply = host.post(
            f"/api/games/{shown['id']}/actions?lang=fr",
            json={"version": shown["version"], "type": "throw"},
        )
        assert reply.status_code == 200, reply.text
        assert reply.json() == host.get(f"/api/games/{shown['id']}?lang=fr").json()
        assert reply.json()["you"] == {"role": "host", "seats": [0]}
    store.close()


def test_streams_past_a_devices_cap_are_refused_and_nothing_else_changes(tmp_path: Path) -> None:
    """A device holds at most STREAMS_PER_GAME streams of a game: the next is 429 in words
    (and when to come back); once one closes, another is given; other devices, and the
    game, are untouched meanwhile."""
    with running(tmp_path / "zar.sqlite3") as server:
        game = server.call("POST", "/api/games", {"game": "yams", "players": ["Ali", "Ece"]})
        path = f"/api/games/{game['id']}/events"
        cookie = server.cookie_header()
        with ExitStack() as held:
            for _ in range(STREAMS_PER_GAME):
                stream = held.enter_context(open_stream(server, path, cookie))
                assert stream.status == 200
                stream.readline()
            with open_stream(server, path, cookie) as refused:
                assert refused.status == 429
                assert refused.headers["retry-after"] == "15"
                body = json.loads(refused.read())
            assert body["reason"] == "too-many-streams"
            assert (
                body["detail"]
                == f"Bu cihaz bu oyunu zaten {STREAMS_PER_GAME} yerden izliyor: birini kapatın"
            )
            # The watchers' link still lets another device in; the game is as it was.
            links = server.call("POST", f"{path[: -len('/events')]}/invitations")
            watcher = server.another_device()
            watcher.call(
                "POST", "/api/invitations/watch", {"invitation": links["watch"].split("=")[1]}
            )
            with open_stream(watcher, path, watcher.cookie_header()) as other:
                assert other.status == 200
            assert server.call("GET", f"/api/games/{game['id']}")["version"] == game["version"]
        # Every stream of the device closed: it may follow again.
        deadline = time.monotonic() + 10
        while True:
            with open_stream(server, path, cookie) as again:
                if again.status == 200 or time.monotonic() > deadline:
                    break
            time.sleep(0.1)
        assert again.status == 200


def test_the_caps_count_every_game_of_a_device_and_every_device_of_an_address() -> None:
    streams = Streams.__new__(Streams)
    streams._held = Counter()
    tickets = [streams.admit(f"g{i}", "d", "a") for i in range(STREAMS_PER_DEVICE)]
    with pytest.raises(TooManyStreams) as refused:
        streams.admit("another", "d", "a")
    assert (refused.value.what, refused.value.limit) == ("device", STREAMS_PER_DEVICE)
    tickets[0].release()
    tickets[0].release()  # once only
    tickets[0] = streams.admit("another", "d", "a")
    for ticket in tickets:
        ticket.release()
    assert not streams._held
    tickets = [streams.admit("g", f"d{i}", "a") for i in range(STREAMS_PER_ADDRESS)]
    with pytest.raises(TooManyStreams) as refused:
        streams.admit("g", "one more", "a")
    assert refused.value.what == "address"
    assert streams.admit("g", "one more", "elsewhere")


# zar serve's app through uvicorn, its streams' timeouts as the test says (STALLED_S,
# LIFE_S), the sockets' send buffers the smallest: a client that stops reading fills them
# with a few events, not with the megabytes the system would otherwise give each. The
# moves as fast as the test makes them: no budget of actions.
SERVE_WITH_TIMEOUTS = """
import os, socket
import uvicorn
from zar.server import create_app
from zar.store import SqliteStore
app = create_app(SqliteStore(os.environ["ZAR_DB"]), close_store=True, action_rates=None)
app.state.streams.stalled_s = float(os.environ["STALLED_S"])
app.state.streams.life_s = float(os.environ["LIFE_S"])
port = int(os.environ["ZAR_PORT"])
listening = socket.socket()
listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)  # the accepted ones' too
listening.bind(("127.0.0.1", port))
print(f"Zar: http://127.0.0.1:{port}/", flush=True)
config = uvicorn.Config(app, log_level="warning")
uvicorn.Server(config).run(sockets=[listening])
"""


@contextmanager
def serving_with(db: Path, *, stalled_s: float, life_s: float) -> Iterator[Server]:
    env = {"STALLED_S": str(stalled_s), "LIFE_S": str(life_s)}
    server = Server(db, env, command=(sys.executable, "-c", SERVE_WITH_TIMEOUTS))
    server.start()
    try:
        yield server
    finally:
        server.kill()


class Follower(threading.Thread):
    """A stream read as it comes, on a thread of its own: the last version it showed, and
    whether it ended."""

    def __init__(self, server: Server, path: str, cookie: str) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        self.conn.request("GET", path, headers={"cookie": cookie})
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        self.version = -1
        self.ended = False
        self.start()

    def run(self) -> None:
        with contextlib.suppress(OSError, http.client.HTTPException, ValueError, AttributeError):
            for line in self.response:
                if line.startswith(b"id: "):
                    self.version = int(line[4:])
        self.ended = True

    def close(self) -> None:
        assert self.conn.sock is not None
        self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.join(timeout=10)
        self.conn.close()


def stalled_stream(server: Server, path: str, cookie: str) -> socket.socket:
    """A stream asked for by a client that never reads it (its receive buffer the smallest)."""
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    client.connect(("127.0.0.1", server.port))
    client.sendall(f"GET {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncookie: {cookie}\r\n\r\n".encode())
    return client


def wait_for(done: Callable[[], bool], seconds: float = 20) -> bool:
    """Whether ``done`` said true within ``seconds``: asked until it does, and no more (a
    check that opens a stream holds it a little while after)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_stream_whose_client_stops_reading_is_closed_and_its_place_freed(
    tmp_path: Path,
) -> None:
    """A device holds its four streams of a game, one of them on a client that stopped
    reading. Moves fill that client's buffers; once a write has waited on it past the
    timeout, its stream is closed and the device may open another. Meanwhile its other
    streams, and a watcher's, show every move; the game is as played."""
    with serving_with(tmp_path / "zar.sqlite3", stalled_s=1, life_s=3600) as server:
        six = {"game": "yams", "players": ["Ali", "Ece", "Can", "Su", "Ada", "Naz"]}
        game = server.call("POST", "/api/games", six)
        path = f"/api/games/{game['id']}/events"
        links = server.call("POST", f"/api/games/{game['id']}/invitations")
        watcher = server.another_device()
        watcher.call("POST", "/api/invitations/watch", {"invitation": links["watch"].split("=")[1]})
        cookie = server.cookie_header()
        stalled = stalled_stream(server, path, cookie)
        followers = [Follower(server, path, cookie) for _ in range(STREAMS_PER_GAME - 1)]
        followers.append(Follower(watcher, path, watcher.cookie_header()))

        def another_given() -> bool:
            with open_stream(server, path, cookie) as again:
                return again.status == 200

        assert not another_given()  # the device holds as many as it may
        freed = False
        while not game["over"] and not freed:
            version = game["version"]
            if game["throws"] < 3:
                intent = {"version": version, "type": "throw"}
            else:
                intent = {"version": version, "type": "fill", "box": next(iter(game["options"]))}
            game = server.call("POST", f"/api/games/{game['id']}/actions", intent)
            freed = another_given()
        # The last moves' writes wait on the stalled client: a little while after, it is freed.
        freed = freed or wait_for(another_given, seconds=10)
        assert freed, "the stalled stream was never closed"
        # Every other stream showed every move, and still follows the game.
        assert wait_for(lambda: all(f.version == game["version"] for f in followers))
        assert not any(f.ended for f in followers)
        assert server.call("GET", f"/api/games/{game['id']}")["version"] == game["version"]
        # The stalled client, reading at last, finds its stream ended short of the game.
        stalled.settimeout(10)
        received = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := stalled.recv(65536):
                received += chunk
        versions = [int(line[4:]) for line in received.split(b"\n") if line.startswith(b"id: ")]
        assert versions
        assert max(versions) < game["version"]
        stalled.close()
        for follower in followers:
            follower.close()


def test_a_stream_that_lived_its_life_ends_and_may_be_opened_again(tmp_path: Path) -> None:
    """A stream lives a while, then ends as a finished reply (the browser comes back by
    itself); its place is free again, and the next stream starts from the state now."""
    with serving_with(tmp_path / "zar.sqlite3", stalled_s=30, life_s=1) as server:
        game = server.call("POST", "/api/games", {"game": "yams", "players": ["Ali"]})
        path = f"/api/games/{game['id']}/events"
        cookie = server.cookie_header()
        started = time.monotonic()
        with ExitStack() as held:
            streams = [
                held.enter_context(open_stream(server, path, cookie))
                for _ in range(STREAMS_PER_GAME)
            ]
            bodies = [stream.read() for stream in streams]  # the whole reply: it ended
        assert time.monotonic() - started < 10
        for body in bodies:
            assert body.startswith(f"id: {game['version']}\n".encode())
        with open_stream(server, path, cookie) as again:
            assert again.status == 200
            assert again.readline() == f"id: {game['version']}\n".encode()


class Recording(followers_module.Follower):
    """A screen following a game that notes what it is told: true for a change, false for
    a keep-alive (woken, it is stirred, as a stream's follower is)."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[bool] = []

    def wake(self) -> None:
        self.stirred = True
        self.told.append(True)

    def keep_alive(self) -> None:
        self.told.append(False)


def test_a_change_wakes_its_followers_a_few_at_a_time_and_a_watcher_wakes_no_one(
    tmp_path: Path,
) -> None:
    """Fifty screens follow a game: a change wakes WOKEN_AT_ONCE of them at one turn of the
    event loop, the others at the turns after (the loop serves other requests between), and
    every one of them in the end; a watcher's screen coming wakes none of them."""
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with TestClient(create_app(store)) as host, TestClient(host.app) as watcher:
        game = new(host, "yams", "Ali", "Ece")
        links = host.post(f"/api/games/{game['id']}/invitations").json()
        watch = {"invitation": links["watch"].split("=", 1)[1]}
        assert watcher.post("/api/invitations/watch", json=watch).status_code == 200
        key = key_of(str(watcher.cookies[COOKIE]))
    games = create_app(store).state.games

    async def main() -> tuple[list[int], list[int], int]:
        await games.reach(game["id"], key, here=False)  # as a stream does: who holds a seat
        screens = [Recording() for _ in range(51)]  # fifty without a device, the watcher's

        def woken() -> list[int]:
            return [sum(screen.told) for screen in screens]

        async with contextlib.AsyncExitStack() as following:
            for screen in screens[:50]:
                await following.enter_async_context(games.following(game["id"], screen))
            await asyncio.sleep(0.1)
            await following.enter_async_context(games.following(game["id"], screens[50], key))
            await asyncio.sleep(0.1)
            after_watcher = sum(woken())
            games.changed(game["id"], -1)  # a change: every follower looks again
            first_turn = woken()  # this turn's followers have looked, no others yet
            deadline = time.monotonic() + 10
            while not all(woken()) and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        return first_turn, woken(), after_watcher

    first_turn, woken, after_watcher = asyncio.run(asyncio.wait_for(main(), timeout=30))
    store.close()
    assert after_watcher == 0  # the watcher came: nobody woke
    assert sum(first_turn) == WOKEN_AT_ONCE
    assert woken == [1] * 51


def test_the_heartbeat_says_every_device_here_in_one_handoff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every little while each device following a game here is said to be here (for the
    other processes of a shared store): all of them in one worker thread's turn, not one
    turn each (5 000 watchers were 5 000 handoffs every 20 s, each taking the event loop's
    time from the other requests)."""
    said: list[tuple[str, str]] = []
    handoffs: list[str] = []

    class Told(SqliteStore):
        def announce(self, game_id: str, note: str) -> None:
            said.append((game_id, note))

    real = presence_module.run_in_threadpool

    async def counted(f: Callable[..., Any], *args: Any) -> Any:
        handoffs.append(getattr(f, "__name__", ""))
        return await real(f, *args)

    monkeypatch.setattr(presence_module, "PRESENCE_EVERY", 0.05)
    monkeypatch.setattr(presence_module, "run_in_threadpool", counted)
    store = Told(tmp_path / "zar.sqlite3")
    games = Games(store, SeededDice(1), lambda: "2026-12-02T00:00:00Z")
    here = {"g1": ["a", "b", "c"], "g2": ["d"]}
    beat: list[str] = []  # the handoffs of the heartbeat

    async def one_beat() -> None:
        async with contextlib.AsyncExitStack() as following:
            for game_id, devices in here.items():
                for device in devices:
                    screen = games.following(game_id, Recording(), device)
                    await following.enter_async_context(screen)
            said.clear()  # each device's coming, said as it came
            stop = await games.watch()
            handoffs.clear()
            while len(said) < 4:
                await asyncio.sleep(0.01)
            stop()
            beat.extend(handoffs)  # before the devices go (each said as it goes)

    asyncio.run(asyncio.wait_for(one_beat(), timeout=10))
    store.close()
    expected = [(g, f"presence {d} 1") for g, devices in here.items() for d in devices]
    assert said[:4] == expected
    assert beat == ["announce"]


def test_followers_nothing_woke_are_told_to_say_they_hold_by_one_timer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A follower nothing woke for a while is told to say it holds (a keep-alive, false),
    one woken meanwhile is not; the followers of a loop share one timer for it (thousands
    of streams are not thousands of timers made anew at every move), gone with the last."""
    monkeypatch.setattr(followers_module, "KEEP_ALIVE_S", 0.2)
    store = SqliteStore(tmp_path / "zar.sqlite3")
    games = Games(store, SeededDice(1), lambda: "2026-12-02T00:00:00Z")

    async def main() -> tuple[list[list[bool]], int, int]:
        screens = [Recording() for _ in range(20)]
        heard = [screen.told for screen in screens]

        async def until(done: Callable[[], bool]) -> None:
            while not done():
                await asyncio.sleep(0.01)

        async with contextlib.AsyncExitStack() as following:
            for screen in screens:
                await following.enter_async_context(games.following("g", screen))
            await until(lambda: all(h == [False] for h in heard))
            timers = games.followers.sweeps
            games.changed("g", 1)
            await until(lambda: all(h == [False, True] for h in heard))
            await until(lambda: all(len(h) == 3 for h in heard))
        await until(lambda: not games.followers.sweeps)
        return heard, timers, games.followers.sweeps

    heard, timers, left = asyncio.run(asyncio.wait_for(main(), timeout=20))
    store.close()
    assert heard == [[False, True, False]] * 20
    assert timers == 1
    assert left == 0


def _stream_scope(game_id: str, credential: str) -> dict[str, Any]:
    """An ASGI request for the game's stream, as a browser on this machine sends it."""
    return {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": f"/api/games/{game_id}/events",
        "raw_path": f"/api/games/{game_id}/events".encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"cookie", f"{COOKIE}={credential}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def _serve(streams: Streams, game_id: str, credential: str, receive: Any, send: Any) -> bool:
    """The game's stream served to a browser on this machine holding ``credential``, as the
    app serves it in front of itself (LiveStreams): false if it is refused."""
    try:
        opened = await streams.open(game_id, _stream_scope(game_id, credential))
    except Refusal:
        return False
    await streams.serve(opened, receive, send)
    return True


def _hosted_game(tmp_path: Path) -> tuple[SqliteStore, dict[str, Any], str]:
    """A store with a Yams game of two and its host's credential."""
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with TestClient(create_app(store)) as host:
        game = new(host, "yams", "Ali", "Ece")
        credential = str(host.cookies[COOKIE])
    return store, game, credential


def _versions(messages: list[dict[str, Any]]) -> list[int]:
    return [
        int(m["body"].split(b"\n", 1)[0][4:])
        for m in messages
        if m["type"] == "http.response.body" and m["body"].startswith(b"id: ")
    ]


def test_a_move_is_written_to_live_streams_as_it_happens_not_by_their_tasks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty live streams of a game (served in front of the app): a move reaches each of
    them, written from the line of wakes; no stream's own task is woken for it, so that
    between two moves a stream holds nothing new (thousands of them: nothing for the
    collector to walk). Each ends when its client goes."""
    monkeypatch.setattr(streams_module, "STREAMS_PER_GAME", 20)  # one device's, here
    store, game, credential = _hosted_game(tmp_path)
    app = create_app(store, dice=SeededDice(3))
    streams: Streams = app.state.streams
    count = 20

    async def main() -> tuple[list[list[tuple[dict[str, Any], bool]]], list[bool]]:
        sent: list[list[tuple[dict[str, Any], bool]]] = [[] for _ in range(count)]
        gone = [asyncio.Event() for _ in range(count)]
        tasks: list[asyncio.Task[bool]] = []

        def channel(i: int) -> tuple[Any, Any]:
            async def receive() -> dict[str, Any]:
                await gone[i].wait()
                return {"type": "http.disconnect"}

            async def send(message: dict[str, Any]) -> None:
                # Whether the stream's own task is the one writing.
                sent[i].append((message, asyncio.current_task() is tasks[i]))

            return receive, send

        for i in range(count):
            receive, send = channel(i)
            tasks.append(
                asyncio.create_task(_serve(streams, game["id"], credential, receive, send))
            )

        async def until(done: Callable[[], bool]) -> None:
            while not done():
                await asyncio.sleep(0.01)

        await until(lambda: all(_versions([m for m, _ in s]) == [game["version"]] for s in sent))
        await app.state.games.act(game["id"], _throw(game["version"]), key_of(credential))
        await until(lambda: all(len(_versions([m for m, _ in s])) == 2 for s in sent))
        for event in gone:
            event.set()
        served = await asyncio.gather(*tasks)
        return sent, served

    sent, served = asyncio.run(asyncio.wait_for(main(), timeout=30))
    store.close()
    assert served == [True] * count
    for messages in sent:
        assert messages[0][0]["type"] == "http.response.start"
        moves = [(m, by_task) for m, by_task in messages if m.get("body", b"").startswith(b"id: ")]
        assert _versions([m for m, _ in moves]) == [game["version"], game["version"] + 1]
        first, move = moves
        assert first[1]  # the state at the start: by the stream's task
        assert not move[1]  # the move: written from the line, the stream's task asleep


def test_a_stream_whose_client_is_slow_is_caught_up_with_the_state_now(tmp_path: Path) -> None:
    """A stream's client stops taking writes: the write waiting on it is finished by the
    stream's own task once the client reads again, then the state now is sent (the moves
    meanwhile folded into it), and the line writes the moves after at once again."""
    store, game, credential = _hosted_game(tmp_path)
    app = create_app(store, dice=SeededDice(3))
    streams: Streams = app.state.streams
    key = key_of(credential)

    async def main() -> tuple[list[dict[str, Any]], int]:
        sent: list[dict[str, Any]] = []
        reading = asyncio.Event()
        reading.set()
        gone = asyncio.Event()

        async def receive() -> dict[str, Any]:
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            await reading.wait()  # at once while the client reads
            sent.append(message)

        async def until(done: Callable[[], bool]) -> None:
            while not done():
                await asyncio.sleep(0.01)

        task = asyncio.create_task(_serve(streams, game["id"], credential, receive, send))
        await until(lambda: _versions(sent) == [game["version"]])
        reading.clear()  # the client stops reading
        version = game["version"]
        for _ in range(3):  # three throws: the first waits on the client, the others fold
            version = (await app.state.games.act(game["id"], _throw(version), key)).version
            await asyncio.sleep(0.05)
        assert _versions(sent) == [game["version"]]
        reading.set()
        await until(lambda: _versions(sent)[-1:] == [version])
        fill = {"version": version, "type": "fill", "box": "CHANCE"}
        from zar.server.intents import Intent

        version = (await app.state.games.act(game["id"], Intent.model_validate(fill), key)).version
        await until(lambda: _versions(sent)[-1:] == [version])
        gone.set()
        await task
        return sent, version

    sent, last = asyncio.run(asyncio.wait_for(main(), timeout=30))
    store.close()
    start = game["version"]
    # The first throw, finished once the client read again; the state then (the third
    # throw, the second folded into it); the box written.
    assert _versions(sent) == [start, start + 1, start + 3, last]


def test_a_send_the_server_takes_at_once_is_done_else_its_rest_is_awaited_or_let_go() -> None:
    """send_now: a send that does not wait is done by the call (None); one that waits gives
    its rest, which finishes when awaited, passes a cancellation on, or is closed unawaited
    (the send's own cleanup runs)."""

    async def main() -> list[str]:
        happened: list[str] = []
        gate = asyncio.Event()

        async def send(message: dict[str, Any]) -> None:
            try:
                await gate.wait()
                happened.append(message["body"].decode())
            except asyncio.CancelledError:
                happened.append("cancelled")
                raise
            finally:
                happened.append("cleaned")

        gate.set()
        assert streams_module.send_now(send, {"body": b"at once"}) is None
        gate.clear()
        rest = streams_module.send_now(send, {"body": b"later"})
        assert rest is not None
        assert happened == ["at once", "cleaned"]
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, gate.set)
        await rest
        gate.clear()
        rest = streams_module.send_now(send, {"body": b"never"})
        assert rest is not None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.05):
                await rest
        rest = streams_module.send_now(send, {"body": b"let go"})
        assert rest is not None
        rest.close()
        return happened

    happened = asyncio.run(asyncio.wait_for(main(), timeout=10))
    assert happened == [
        "at once", "cleaned", "later", "cleaned", "cancelled", "cleaned", "cleaned",
    ]  # fmt: skip


def test_a_sweep_tells_its_quiet_followers_a_few_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifty followers nothing woke: the sweep tells each to say it holds, through the
    line of wakes, WOKEN_AT_ONCE of them a turn of the event loop (5 000 streams told at
    once held the loop a few tenths of a second, and every other request with it)."""
    monkeypatch.setattr(followers_module, "KEEP_ALIVE_S", 0.2)
    store = SqliteStore(tmp_path / "zar.sqlite3")
    games = Games(store, SeededDice(1), lambda: "2026-12-02T00:00:00Z")
    turns = [0]  # turns of the event loop so far
    told: list[int] = []  # the turn at which each follower was told

    class Quiet(followers_module.Follower):
        def wake(self) -> None:
            pass

        def keep_alive(self) -> None:
            told.append(turns[0])

    async def main() -> None:
        async def count_turns() -> None:
            while True:
                turns[0] += 1
                await asyncio.sleep(0)

        ticking = asyncio.create_task(count_turns())
        async with contextlib.AsyncExitStack() as following:
            for _ in range(50):
                await following.enter_async_context(games.following("g", Quiet()))
            while len(told) < 50:
                await asyncio.sleep(0.01)
        ticking.cancel()

    asyncio.run(asyncio.wait_for(main(), timeout=10))
    store.close()
    per_turn = Counter(told)
    assert sum(per_turn.values()) == 50
    assert max(per_turn.values()) == WOKEN_AT_ONCE
    assert len(per_turn) == -(-50 // WOKEN_AT_ONCE)


def test_a_follower_that_fails_is_reported_and_the_others_are_told(tmp_path: Path) -> None:
    """A follower whose wake raises: the event loop's exception handler hears of it, and
    every other follower of every game is told all the same, in the turns after too."""
    store = SqliteStore(tmp_path / "zar.sqlite3")
    games = Games(store, SeededDice(1), lambda: "2026-12-02T00:00:00Z")
    woken: list[int] = []
    reported: list[BaseException] = []

    class Counted(followers_module.Follower):
        def __init__(self, i: int) -> None:
            super().__init__()
            self.i = i

        def wake(self) -> None:
            if self.i == 0:
                raise RuntimeError("a broken follower")
            woken.append(self.i)

        def keep_alive(self) -> None:
            pass

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda _, context: reported.append(context["exception"])
        )
        async with contextlib.AsyncExitStack() as following:
            for i in range(20):
                await following.enter_async_context(games.following("g", Counted(i)))
            games.changed("g", 1)
            while len(woken) < 19:
                await asyncio.sleep(0.01)

    asyncio.run(asyncio.wait_for(main(), timeout=10))
    store.close()
    assert sorted(woken) == list(range(1, 20))
    assert [str(error) for error in reported] == ["a broken follower"]


def test_a_stream_whose_game_is_not_at_hand_is_caught_up_by_its_task(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the game or its seating is not in memory (read again from the store), the
    line leaves the change to the stream's own task, which reads it and sends it: every
    move still arrives, in order."""
    store, game, credential = _hosted_game(tmp_path)
    app = create_app(store, dice=SeededDice(3))
    streams: Streams = app.state.streams
    monkeypatch.setattr(Games, "at_hand", lambda self, game_id: None)
    key = key_of(credential)

    async def main() -> tuple[list[tuple[dict[str, Any], bool]], int]:
        sent: list[tuple[dict[str, Any], bool]] = []
        gone = asyncio.Event()
        task: asyncio.Task[bool] | None = None

        async def receive() -> dict[str, Any]:
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append((message, asyncio.current_task() is task))

        def versions() -> list[int]:
            return _versions([m for m, _ in sent])

        async def until(done: Callable[[], bool]) -> None:
            while not done():
                await asyncio.sleep(0.01)

        task = asyncio.create_task(_serve(streams, game["id"], credential, receive, send))
        await until(lambda: versions() == [game["version"]])
        version = game["version"]
        for _ in range(3):
            version = (await app.state.games.act(game["id"], _throw(version), key)).version
            await until(lambda moved=version: versions()[-1:] == [moved])
        gone.set()
        await task
        return sent, version

    sent, last = asyncio.run(asyncio.wait_for(main(), timeout=30))
    store.close()
    events = [(m, by_task) for m, by_task in sent if m.get("body", b"").startswith(b"id: ")]
    assert _versions([m for m, _ in events]) == list(range(game["version"], last + 1))
    assert all(by_task for _, by_task in events)  # each read and sent by the stream's task
