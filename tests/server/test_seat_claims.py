"""Invitations and claims from the attacker's side, on SQLite and on PostgreSQL: a spent
invitation gives nothing, nor does one of a game that ended; a game another device saw end
stays ended whatever happens to its seats after; a seat taken back stays taken back; a
refused claim, raced or not, leaves every table of the store as it was.

Each ``TestClient`` is one device (its cookie jar holds its credential)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import httpx2 as httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import Days, act, invite, new, secret
from store_support import Backend
from zar.server import create_app
from zar.store import Store

Game = dict[str, Any]
ALL = list(range(6))


@pytest.fixture
def stores(backend: Backend) -> Iterator[Callable[[], Store]]:
    """``stores()``: a store on the database (one per server process), closed after."""
    opened: list[Store] = []

    def make() -> Store:
        opened.append(backend.open())
        return opened[-1]

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def app(stores: Callable[[], Store]) -> FastAPI:
    return create_app(stores(), dice=ScriptedDice(), clock=Days(), games_per_minute=None)


OPENED: list[TestClient] = []


@pytest.fixture
def device(app: FastAPI) -> Iterator[Callable[..., TestClient]]:
    """``device()``: a new device (a phone, a browser) on the app; ``device(other_app)``: on
    another app (another process) over the same database."""
    OPENED.clear()

    def make(on: FastAPI = app) -> TestClient:
        client = TestClient(on)
        client.__enter__()
        OPENED.append(client)
        return client

    yield make
    for client in OPENED:
        client.__exit__(None, None, None)
    OPENED.clear()


def tables(backend: Backend) -> dict[str, list[str]]:
    """Every row of every table, as another connection reads it."""
    if backend.kind == "sqlite":
        names = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    else:
        names = "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
    return {
        name: sorted(repr(row) for row in backend.sql(f"SELECT * FROM {name}"))
        for (name,) in backend.sql(names)
    }


def refused(
    client: TestClient, backend: Backend, path: str, reason: str, **body: Any
) -> dict[str, Any]:
    """A POST refused with a 403 of ``reason``, in words; no table of the store changed (a
    finished game's luck account, which the server writes by itself, written first)."""
    for opened in OPENED:
        assert opened.portal is not None
        opened.portal.call(opened.app.state.games.settled)  # type: ignore[attr-defined]
    before = tables(backend)
    response = client.post(path, json=body)
    assert (response.status_code, response.json()["reason"]) == (403, reason), response.text
    assert response.json()["detail"]
    assert "set-cookie" not in response.headers  # no credential given
    assert tables(backend) == before
    reply: dict[str, Any] = response.json()
    return reply


def claim(client: TestClient, invitation: str, seat: int) -> Game:
    response = client.post("/api/invitations/claim", json={"invitation": invitation, "seat": seat})
    assert response.status_code == 200, response.text
    result: Game = response.json()
    return result


def banked(client: TestClient, game: Game, hot: int) -> Game:
    """A turn of 10 000 on the dice the app was scripted with: six 1s ``hot`` times over,
    every die set aside each time, then banked (3 000 points a throw)."""
    game = act(client, game, type="throw")
    for _ in range(hot - 1):
        game = act(client, game, type="throw", set_aside=ALL)
    return act(client, game, type="bank", set_aside=ALL)


def ended_on_eces_bank(host: TestClient, guest: TestClient, game: Game) -> Game:
    """A game to 5 000: Ali banks 6 000 (the last round), then Ece 9 000 and wins."""
    host.app.state.games.dice.script(*(1,) * 6 * 5)  # type: ignore[attr-defined]
    game = banked(host, game, 2)
    game = banked(guest, game, 3)
    assert game["over"]
    assert game["winners"] == [1]
    return game


def test_a_spent_seat_invitation_gives_nothing(
    device: Callable[..., TestClient], backend: Backend
) -> None:
    host, guest, stranger = device(), device(), device()
    game = new(host, "yams", "Ali", "Ece")
    invitation = invite(host, game)
    token = secret(invitation["join"])
    claim(guest, token, 1)
    for way in (token, invitation["code"]):
        for path in ("/api/invitations/watch", "/api/invitations/open"):
            refused(stranger, backend, path, "invitation-spent", invitation=way)
    # Its spender has its seat: the invitation gives it no other place.
    refused(guest, backend, "/api/invitations/watch", "invitation-spent", invitation=token)
    # The watchers' own link still lets anyone follow the game.
    watched = stranger.post(
        "/api/invitations/watch", json={"invitation": secret(invitation["watch"])}
    )
    assert watched.json()["you"] == {"role": "watcher", "seats": []}


@pytest.mark.parametrize("end", ["finished", "abandoned"])
def test_the_invitations_of_a_game_that_ended_give_nothing(
    device: Callable[..., TestClient], backend: Backend, end: str
) -> None:
    host, stranger = device(), device()
    game = new(host, "10000", "Ali", "Ece", target=5_000)
    invitation = invite(host, game)
    if end == "finished":
        ended_on_eces_bank(host, host, game)
    else:
        act(host, game, type="abandon")
    ways = (secret(invitation["join"]), invitation["code"], secret(invitation["watch"]))
    for way in ways:
        refused(stranger, backend, "/api/invitations/open", "invitation-ended", invitation=way)
        refused(stranger, backend, "/api/invitations/watch", "invitation-ended", invitation=way)
        refused(
            stranger,
            backend,
            "/api/invitations/claim",
            "invitation-ended",
            invitation=way,
            seat=1,
        )


def test_a_game_another_device_saw_end_stays_ended_whatever_happens_to_its_seats(
    device: Callable[..., TestClient], backend: Backend
) -> None:
    host, guest = device(), device()
    game = new(host, "10000", "Ali", "Ece", target=5_000)
    claim(guest, secret(invite(host, game)["join"]), 1)
    game = ended_on_eces_bank(host, guest, game)
    actions = f"/api/games/{game['id']}/actions"
    undo = {"version": game["version"], "type": "undo"}
    refused(guest, backend, actions, "seen-over", **undo)
    # The host takes Ece's seat back to its own device: the table is its alone now, and the
    # game Ece saw end stays ended.
    taken = host.post(f"/api/games/{game['id']}/seats/1", json={"to": "host"})
    assert taken.json()["you"] == {"role": "host", "seats": [0, 1]}
    refused(host, backend, actions, "seen-over", **undo)
    assert host.get(f"/api/games/{game['id']}").json()["winners"] == [1]


def test_a_seat_taken_back_stays_taken_back(
    device: Callable[..., TestClient], backend: Backend
) -> None:
    host, guest = device(), device()
    game = new(host, "yams", "Ali", "Ece", "Can")
    invitation = invite(host, game)
    token = secret(invitation["join"])
    claim(guest, token, 1)
    claim(guest, token, 2)  # two people on the guest's phone
    host.post(f"/api/games/{game['id']}/seats/2", json={"to": "host"})
    # Can's seat taken back: the spent invitation gives the guest's phone nothing more, not
    # Can's seat again, nor the host's own.
    for way in (token, invitation["code"]):
        for seat in (2, 0):
            refused(
                guest,
                backend,
                "/api/invitations/claim",
                "invitation-spent",
                invitation=way,
                seat=seat,
            )
        refused(guest, backend, "/api/invitations/open", "invitation-spent", invitation=way)
    host.post(f"/api/games/{game['id']}/seats/1", json={"to": "host"})
    refused(guest, backend, "/api/invitations/claim", "invitation-spent", invitation=token, seat=1)
    refused(guest, backend, "/api/invitations/watch", "invitation-spent", invitation=token)
    # A new invitation from the host lets the guest's phone in again.
    assert claim(guest, secret(invite(host, game)["join"]), 1)["you"]["seats"] == [1]


def test_a_claim_refused_after_its_first_check_writes_nothing(
    device: Callable[..., TestClient], backend: Backend, stores: Callable[[], Store]
) -> None:
    """Two processes on one database: B judges a claim first on the seating it has, from
    before the seat was taken through A (SQLite tells B nothing); the claim is refused as the
    store has it, nothing written: no device, the loser's invitation unspent."""
    other = create_app(stores(), dice=ScriptedDice(), clock=Days(), games_per_minute=None)
    host, on_b = device(), device(other)
    game = new(host, "yams", "Ali", "Ece")
    on_b.cookies = host.cookies  # the host's device, its requests going to either process
    assert on_b.get(f"/api/games/{game['id']}").json()["you"]["seats"] == [0, 1]
    first, second = secret(invite(host, game)["join"]), secret(invite(host, game)["join"])
    claim(device(), first, 1)
    late = device(other)
    refused(late, backend, "/api/invitations/claim", "seat-taken", invitation=second, seat=1)
    # The loser's link is as it was: another device takes a seat with it.
    assert claim(device(other), second, 0)["you"]["seats"] == [0]


def test_devices_racing_with_one_link_leave_the_winner_alone_in_the_store(
    app: FastAPI, backend: Backend
) -> None:
    """Twelve new devices claim at once, each a seat, with one link: one gets a seat, and
    the store knows no other device."""

    def client(cookies: httpx.Cookies | None = None) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=app)
        return httpx.AsyncClient(transport=transport, base_url="http://testserver", cookies=cookies)

    async def race() -> tuple[dict[str, list[str]], list[httpx.Response]]:
        async with client() as host:
            players = ["Ali", "Ece", "Can", "Su", "Ada", "Naz"]
            game = await host.post("/api/games", json={"game": "yams", "players": players})
            invitation = await host.post(f"/api/games/{game.json()['id']}/invitations")
        body = {"invitation": secret(invitation.json()["join"])}
        before = tables(backend)

        async def claimant(seat: int) -> httpx.Response:
            async with client() as c:
                return await c.post("/api/invitations/claim", json={**body, "seat": seat})

        return before, list(await asyncio.gather(*(claimant(1 + i % 5) for i in range(12))))

    before, replies = asyncio.run(race())
    assert Counter(r.status_code for r in replies) == {200: 1, 403: 11}
    reasons = {r.json()["reason"] for r in replies if r.status_code == 403}
    assert reasons <= {"invitation-spent", "seat-taken"}
    assert ["set-cookie" in r.headers for r in replies].count(True) == 1
    after = tables(backend)
    assert len(after["devices"]) == len(before["devices"]) + 1
    (spender,) = backend.sql("SELECT spent_by FROM invitations WHERE kind = 'seat'")
    assert backend.sql("SELECT key FROM devices WHERE key = %s", spender) == [spender]
