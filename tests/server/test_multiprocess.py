"""Several server processes on one database serve one game between them: each request may
go to either, on the version the player saw; a screen following the game on one process
sees what is done through the other (PostgreSQL's notifications)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from server.serving import Server
from zar.ai.yams import Strategy
from zar.server import create_app
from zar.store import SqliteStore


@pytest.fixture
def servers(
    tmp_path: Path, postgres_url: str, solved: Callable[[str], Strategy]
) -> Iterator[tuple[Server, Server]]:
    # The optimal Yams player built now, in the session's cache, which the servers read: a
    # computer's step is then a reply, not a build (and a compile) on a busy machine.
    solved("standard")
    env = {"ZAR_DATABASE_URL": postgres_url}
    a = Server(tmp_path / "unused-a.sqlite3", env=env)
    b = Server(tmp_path / "unused-b.sqlite3", env=env)
    try:
        a.start()
        b.start()
        b.same_device_as(a)  # one phone, its requests going to either process
        yield a, b
    finally:
        for server in (a, b):
            if server.process and server.process.poll() is None:
                server.kill()
    assert not (tmp_path / "unused-a.sqlite3").exists()  # the games were all in PostgreSQL


class Follower:
    """A second screen: the game's server-sent events from one server, in a thread."""

    def __init__(self, server: Server, game_id: str) -> None:
        self.seen: list[dict[str, Any]] = []
        self._arrived = threading.Condition()
        url = f"{server.url}/api/games/{game_id}/events"
        self._server = server
        self._thread = threading.Thread(target=self._follow, args=(url,), daemon=True)
        self._thread.start()

    def _follow(self, url: str) -> None:
        with self._server.open(url, timeout=30) as events:
            for raw in events:
                line = raw.decode().strip()
                if line.startswith("data: "):
                    with self._arrived:
                        self.seen.append(json.loads(line[6:]))
                        self._arrived.notify_all()
                    if self.seen[-1]["over"]:
                        return

    def wait_for(self, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first state seen that passes ``check``, waiting for it up to 10 s."""
        with self._arrived:
            self._arrived.wait_for(lambda: any(check(s) for s in self.seen), timeout=10)
            return next(s for s in self.seen if check(s))


def next_intent(game: dict[str, Any]) -> dict[str, Any]:
    """A one-person Yams: throw once, then write the first box offered."""
    if game["throws"] == 0:
        return {"version": game["version"], "type": "throw"}
    return {"version": game["version"], "type": "fill", "box": sorted(game["options"])[0]}


def test_two_processes_play_one_game_in_turn(servers: tuple[Server, Server]) -> None:
    a, b = servers
    game = a.call("POST", "/api/games", {"game": "yams", "players": ["Ali"]})
    actions = f"/api/games/{game['id']}/actions"
    follower = Follower(b, game["id"])
    assert follower.wait_for(lambda s: True)["version"] == 0

    # Made through A, seen on B's live screen.
    shown = a.call("POST", actions, next_intent(game))
    assert follower.wait_for(lambda s: s["version"] == 1) == shown

    # The rest of the game, every request to the other process, on the version last shown.
    for served_by in [b, a] * 13:
        if shown["over"]:
            break
        moved = served_by.call("POST", actions, next_intent(shown))
        assert moved["version"] == shown["version"] + 1
        shown = moved
    assert shown["over"]
    assert shown["version"] == 26
    assert follower.wait_for(lambda s: s["over"]) == shown

    # Both processes show the same finished game (the one that did not make the last move
    # once PostgreSQL's notification has reached it); a stale intention is refused by either.
    deadline = time.monotonic() + 10
    for server in (a, b):
        while server.call("GET", f"/api/games/{game['id']}") != shown:
            assert time.monotonic() < deadline, "not shown by both processes in time"
            time.sleep(0.05)
    for server in (a, b):
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.call("POST", actions, {"version": 25, "type": "throw"})
        assert refused.value.code == 409
        assert json.loads(refused.value.read())["version"] == 26
        refused.value.close()
    listed = b.call("GET", "/api/games?finished=true")
    assert [(g["id"], g["version"]) for g in listed] == [(game["id"], 26)]


def refusal(call: Callable[[], Any]) -> tuple[int, str]:
    """The status and reason of a request that must be refused."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        call()
    reply = json.loads(refused.value.read())
    refused.value.close()
    return refused.value.code, reply["reason"]


def test_a_seat_claimed_or_handed_over_on_one_process_holds_on_the_other(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    guest_a = a.another_device()
    guest_b = b.another_device()
    guest_b.same_device_as(guest_a)  # the guest's phone, its requests going to either too
    game = a.call("POST", "/api/games", {"game": "yams", "players": ["Ali", "Ece"]})
    path = f"/api/games/{game['id']}"
    shown = a.call("POST", f"{path}/actions", next_intent(game))
    shown = a.call("POST", f"{path}/actions", next_intent(shown))
    assert shown["seat"] == 1  # Ece's turn, on the host's device so far
    assert b.call("GET", path)["you"]["seats"] == [0, 1]  # B has the game and its seating
    follower = Follower(b, game["id"])
    follower.wait_for(lambda s: True)

    # Ece's seat taken through A: B, asked at once, gives it to the guest alone.
    invitation = a.call("POST", f"{path}/invitations")
    token = invitation["join"].split("=", 1)[1]
    claimed = guest_a.call("POST", "/api/invitations/claim", {"invitation": token, "seat": 1})
    assert claimed["you"] == {"role": "player", "seats": [1]}
    throw = {"version": shown["version"], "type": "throw"}
    assert refusal(lambda: b.call("POST", f"{path}/actions", throw)) == (403, "not-your-seat")
    moved = guest_b.call("POST", f"{path}/actions", throw)
    assert moved["version"] == shown["version"] + 1
    assert moved["you"]["seats"] == [1]
    assert b.call("GET", path)["seats"][1]["holder"] == "guest"

    # Ece's seat handed to the computer through A: B's screen and B's view show the stand-in,
    # and B refuses the guest its seat meanwhile.
    handed = a.call("POST", f"{path}/seats/1", {"to": "computer"})
    assert handed["seats"][1]["standin"] == "expert"  # Yams without a computer: its default
    follower.wait_for(lambda s: s["seats"][1]["standin"] == "expert")
    assert b.call("GET", path)["seats"][1]["standin"] == "expert"
    fill = {"version": moved["version"], "type": "fill", "box": sorted(moved["options"])[0]}
    assert refusal(lambda: guest_b.call("POST", f"{path}/actions", fill)) == (403, "standing-in")
    stepped = b.call("POST", f"{path}/actions", {"version": moved["version"], "type": "computer"})
    assert stepped["version"] > moved["version"]


def test_a_process_reads_again_a_game_another_moved_on(tmp_path: Path) -> None:
    """Two apps over one SQLite file, which tells nothing: an intention on a version ahead
    of the one cached is not refused but makes the app read the game again."""
    stores = [SqliteStore(tmp_path / "zar.sqlite3") for _ in range(2)]
    with TestClient(create_app(stores[0])) as a, TestClient(create_app(stores[1])) as b:
        shown = a.post("/api/games", json={"game": "yams", "players": ["Ali"]}).json()
        b.cookies = a.cookies  # one device, its requests going to either app
        actions = f"/api/games/{shown['id']}/actions"
        assert b.get(f"/api/games/{shown['id']}").json() == shown  # B caches version 0
        for served_by in [a, b] * 13:
            response = served_by.post(actions, json=next_intent(shown))
            assert response.status_code == 200, response.text
            shown = response.json()
        assert shown["over"]
        for served_by in (a, b):  # a stale intention is refused by either
            stale = served_by.post(actions, json={"version": 24, "type": "throw"})
            assert stale.status_code == 409
        assert b.get(f"/api/games/{shown['id']}").json() == shown
    for store in stores:
        store.close()


def test_a_process_that_has_not_heard_of_a_claim_still_refuses_the_seat(tmp_path: Path) -> None:
    """Two apps over one SQLite file, which tells nothing: B judges the host's intention on
    the seating it cached, from before the guest took the seat through A; the store keeps no
    such action, and the refusal says why (the seat is another device's), not that the game
    moved on (it did not: its version is the one the host has)."""
    stores = [SqliteStore(tmp_path / "zar.sqlite3") for _ in range(2)]
    with (
        TestClient(create_app(stores[0])) as a,
        TestClient(create_app(stores[1])) as b,
        TestClient(create_app(stores[0])) as guest,
    ):
        shown = a.post("/api/games", json={"game": "yams", "players": ["Ali", "Ece"]}).json()
        b.cookies = a.cookies  # the host's device, its requests going to either app
        path = f"/api/games/{shown['id']}"
        for _ in range(2):  # Ali's turn: Ece's next
            shown = a.post(f"{path}/actions", json=next_intent(shown)).json()
        assert b.get(path).json()["you"]["seats"] == [0, 1]  # B caches the seating
        token = a.post(f"{path}/invitations").json()["join"].split("=", 1)[1]
        claim = guest.post("/api/invitations/claim", json={"invitation": token, "seat": 1})
        assert claim.status_code == 200, claim.text
        refused = b.post(f"{path}/actions", json={"version": shown["version"], "type": "throw"})
        assert (refused.status_code, refused.json()["reason"]) == (403, "not-your-seat")
    for store in stores:
        store.close()


def test_links_racing_for_one_seat_through_two_processes_leave_the_losers_as_they_were(
    servers: tuple[Server, Server], postgres_url: str
) -> None:
    """Six phones, each with a link of its own, claim Ece's seat at once, through either
    process: one takes it; the others are refused, and the store knows none of them, nor
    spent their links (each still gives the seat left)."""
    a, b = servers
    game = a.call("POST", "/api/games", {"game": "yams", "players": ["Ali", "Ece"]})
    links = [
        a.call("POST", f"/api/games/{game['id']}/invitations")["join"].split("=", 1)[1]
        for _ in range(6)
    ]
    phones = [(a if i % 2 else b).another_device() for i in range(6)]
    with psycopg.connect(postgres_url) as db:
        known = db.execute("SELECT count(*) FROM devices").fetchone()
    start = threading.Barrier(len(phones))
    replies: list[tuple[int, str]] = [(0, "")] * len(phones)

    def race(i: int) -> None:
        body = {"invitation": links[i], "seat": 1}
        start.wait()
        try:
            phones[i].call("POST", "/api/invitations/claim", body)
            replies[i] = (200, "")
        except urllib.error.HTTPError as refused:
            replies[i] = (refused.code, json.loads(refused.read())["reason"])
            refused.close()

    racers = [threading.Thread(target=race, args=(i,)) for i in range(len(phones))]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(replies) == [(200, "")] + [(403, "seat-taken")] * 5
    with psycopg.connect(postgres_url) as db:
        assert db.execute("SELECT count(*) FROM devices").fetchone() == (known[0] + 1,)
        spent = db.execute("SELECT count(*) FROM invitations WHERE spent_by IS NOT NULL")
        assert spent.fetchone() == (1,)
    for i, (status, _) in enumerate(replies):
        if status != 200:
            offered = phones[i].call("POST", "/api/invitations/open", {"invitation": links[i]})
            assert offered["seats"] == [{"seat": 0, "name": "Ali"}]
