"""Seats that belong to devices, from the attacker's side: every intention with no
credential, another seat's, a spent invitation's, a watcher's, a forged or an expired one is
a 403 in words, the store unchanged; an invitation gives a seat once; the host's powers are
the host's; a game's id alone gives nothing.

Each ``TestClient`` is one device (its cookie jar holds its credential)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import Days, act, invite, new, secret
from zar.server import create_app
from zar.server.devices import COOKIE, DEVICE_DAYS, key_of
from zar.store import SqliteStore

Game = dict[str, Any]


@pytest.fixture
def clock() -> Days:
    return Days()


@pytest.fixture
def app(db: Path, clock: Days) -> Iterator[FastAPI]:
    store = SqliteStore(db)
    yield create_app(store, dice=ScriptedDice(), clock=clock, games_per_minute=None)
    store.close()


# The devices open on the app: each serves from its own event loop, where the luck accounts
# of the games it ended are worked out.
OPENED: list[TestClient] = []


@pytest.fixture
def device(app: FastAPI) -> Iterator[Callable[[], TestClient]]:
    """``device()``: a new device (a phone, a browser) on the app."""
    opened = OPENED
    opened.clear()

    def make() -> TestClient:
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)
    opened.clear()


def rows(db: Path) -> tuple[Any, ...]:
    """Everything the store holds (the devices' credentials too), as a fresh reader sees it."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as reader:
        return tuple(
            tuple(reader.execute(f"SELECT * FROM {table} ORDER BY 1, 2"))
            for table in ("games", "actions", "access", "invitations", "devices")
        )


def refused(client: TestClient, db: Path, method: str, path: str, reason: str, **kw: Any) -> str:
    """A 403 with its reason and words; nothing in the store changed (what the server writes
    by itself, a finished game's luck account, written first)."""
    for opened in OPENED:
        assert opened.portal is not None
        opened.portal.call(opened.app.state.games.settled)  # type: ignore[attr-defined]
    before = rows(db)
    response = client.request(method, path, **kw)
    assert response.status_code == 403, response.text
    assert response.json()["reason"] == reason
    assert rows(db) == before
    detail: str = response.json()["detail"]
    assert detail
    return detail


def claim(client: TestClient, invitation: str, seat: int, status: int = 200) -> Game:
    response = client.post("/api/invitations/claim", json={"invitation": invitation, "seat": seat})
    assert response.status_code == status, response.text
    result: Game = response.json()
    return result


def test_the_device_that_starts_a_game_holds_every_seat(device: Callable[[], TestClient]) -> None:
    host = device()
    game = new(host, "yams", "Ali", "Ece", computer=True)
    cookie = host.cookies.get(COOKIE)
    assert cookie
    assert len(cookie) >= 43  # 256 random bits, base64: at least 128 bits asked
    assert game["you"] == {"role": "host", "seats": [0, 1]}
    assert [s["holder"] for s in game["seats"]] == ["you", "you", "computer"]


def test_the_credential_is_an_http_only_strict_cookie(app: FastAPI) -> None:
    with TestClient(app) as host:
        response = host.post("/api/games", json={"game": "yams", "players": ["Ali"]})
    set_cookie = response.headers["set-cookie"]
    assert set_cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in set_cookie
    assert "SameSite=strict" in set_cookie or "SameSite=Strict" in set_cookie
    assert "Path=/" in set_cookie


def test_the_store_keeps_only_the_credentials_hash(app: FastAPI, db: Path) -> None:
    with TestClient(app) as host:
        host.post("/api/games", json={"game": "yams", "players": ["Ali"]})
        cookie = host.cookies[COOKIE]
    dump = "".join(sqlite3.connect(db).iterdump())
    assert cookie not in dump
    assert key_of(cookie) in dump


def test_a_games_id_alone_gives_nothing(device: Callable[[], TestClient], db: Path) -> None:
    host, stranger = device(), device()
    game = new(host, "yams", "Ali")
    assert [g["id"] for g in host.get("/api/games").json()] == [game["id"]]
    assert stranger.get("/api/games").json() == []  # no credential: no game
    new(stranger, "10000", "Can")
    assert [g["game"] for g in stranger.get("/api/games").json()] == ["10000"]
    for path in ("", "/events", "/log", "/progress", "/export", "/hint", "?at=0"):
        refused(stranger, db, "GET", f"/api/games/{game['id']}{path}", "not-at-table")
    refused(
        stranger,
        db,
        "POST",
        f"/api/games/{game['id']}/actions",
        "not-at-table",
        json={"version": 0, "type": "throw"},
    )
    refused(stranger, db, "POST", f"/api/games/{game['id']}/invitations", "not-at-table")


@pytest.mark.parametrize("credential", ["none", "forged", "expired"])
def test_an_intention_without_a_valid_credential_is_refused(
    device: Callable[[], TestClient], db: Path, clock: Days, credential: str
) -> None:
    host = device()
    game = new(host, "yams", "Ali")
    other = device()
    match credential:
        case "forged":
            other.cookies.set(COOKIE, "x" * 43)
        case "expired":
            other.cookies.set(COOKIE, host.cookies[COOKIE])
            clock.days = DEVICE_DAYS + 1  # unused this long: expired, even the host's
    detail = refused(
        other,
        db,
        "POST",
        f"/api/games/{game['id']}/actions?lang=en",
        "not-at-table",
        json={"version": 0, "type": "throw"},
    )
    assert detail == "This device has no place at this table"


def test_an_invitation_names_the_computer_in_the_guests_language(
    device: Callable[[], TestClient],
) -> None:
    host, guest = device(), device()
    game = new(host, "yams", "Ali", computer=True)  # started in Turkish: its "IA"
    token = secret(invite(host, game)["join"])
    opened = guest.post("/api/invitations/open?lang=en", json={"invitation": token}).json()
    assert opened["players"] == ["Ali", "Computer"]


def test_an_invitation_gives_a_seat_once_and_only_its_device_acts_for_it(
    device: Callable[[], TestClient], db: Path
) -> None:
    host, guest, late = device(), device(), device()
    game = new(host, "yams", "Ali", "Ece")
    invitation = invite(host, game)
    assert invitation["join"].startswith("http://testserver/#join=")  # a secret never sent
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{6}", invitation["code"])
    assert invitation["qr"].startswith("data:image/svg+xml")
    token = secret(invitation["join"])
    opened = guest.post("/api/invitations/open", json={"invitation": token}).json()
    assert opened["seats"] == [{"seat": 0, "name": "Ali"}, {"seat": 1, "name": "Ece"}]
    shown = claim(guest, token, 1)
    assert shown["you"] == {"role": "player", "seats": [1]}
    assert [s["holder"] for s in shown["seats"]] == ["host", "you"]
    # Spent: another device cannot use it; the same seat is given once.
    refused(
        late,
        db,
        "POST",
        "/api/invitations/claim",
        "invitation-spent",
        json={"invitation": token, "seat": 0},
    )
    refused(
        guest,
        db,
        "POST",
        "/api/invitations/claim",
        "seat-taken",
        json={"invitation": token, "seat": 1},
    )
    # A seat already taken, asked with a new invitation by a device with no credential yet:
    # refused before the invitation is spent or a credential given.
    fresh = secret(invite(host, game)["join"])
    refused(
        device(),
        db,
        "POST",
        "/api/invitations/claim",
        "seat-taken",
        json={"invitation": fresh, "seat": 1},
    )
    opened = late.post("/api/invitations/open", json={"invitation": fresh})
    assert opened.json()["seats"] == [{"seat": 0, "name": "Ali"}]  # not spent: still good
    # Ali plays on the host's device; Ece's turn is the guest's alone.
    game = act(host, game, type="throw")
    game = act(host, game, type="fill", box=next(iter(game["options"])))
    host_view = host.get(f"/api/games/{game['id']}").json()
    assert host_view["seats"][1] == {
        "holder": "guest",
        "standin": None,
        "here": False,
        "away_since": None,
    }
    refused(
        host,
        db,
        "POST",
        f"/api/games/{game['id']}/actions",
        "not-your-seat",
        json={"version": game["version"], "type": "throw"},
    )
    refused(host, db, "GET", f"/api/games/{game['id']}/hint", "not-your-seat")
    game = act(guest, game, type="throw")
    assert game["seat"] == 1


def test_a_short_code_stands_for_the_link(device: Callable[[], TestClient]) -> None:
    host, guest = device(), device()
    game = new(host, "10000", "Ali", "Ece")
    code = invite(host, game)["code"]
    typed = f" {code[:3].lower()}-{code[3:]} "
    opened = guest.post("/api/invitations/open", json={"invitation": typed}).json()
    assert opened["game"] == game["id"]
    assert claim(guest, typed, 0)["you"]["seats"] == [0]


def test_two_people_on_one_guest_phone(device: Callable[[], TestClient]) -> None:
    host, guests = device(), device()
    game = new(host, "yams", "Ali", "Ece", "Can")
    token = secret(invite(host, game)["join"])
    claim(guests, token, 1)
    shown = claim(guests, token, 2)  # the invitation is theirs: a second seat with it
    assert shown["you"]["seats"] == [1, 2]


def test_an_invitation_expires(device: Callable[[], TestClient], db: Path, clock: Days) -> None:
    host, guest = device(), device()
    game = new(host, "yams", "Ali", "Ece")
    token = secret(invite(host, game)["join"])
    clock.days = 1.01
    refused(
        guest, db, "POST", "/api/invitations/open", "invitation-unknown", json={"invitation": token}
    )
    refused(
        guest,
        db,
        "POST",
        "/api/invitations/claim",
        "invitation-unknown",
        json={"invitation": "made-up-" + "x" * 30, "seat": 0},
    )


def test_a_watcher_sees_everything_and_never_acts(
    device: Callable[[], TestClient], db: Path
) -> None:
    host, watcher = device(), device()
    game = new(host, "10000", "Ali", computer=True)
    watch = secret(invite(host, game)["watch"])
    shown = watcher.post("/api/invitations/watch", json={"invitation": watch}).json()
    assert shown["you"] == {"role": "watcher", "seats": []}
    assert watcher.get(f"/api/games/{game['id']}").status_code == 200
    listed = watcher.get("/api/games").json()
    assert [(g["id"], g["host"], g["my_turn"]) for g in listed] == [(game["id"], False, False)]
    assert [g["host"] for g in host.get("/api/games").json()] == [True]
    for intent in ({"type": "throw"}, {"type": "computer"}, {"type": "abandon"}, {"type": "undo"}):
        refused(
            watcher,
            db,
            "POST",
            f"/api/games/{game['id']}/actions",
            "watching",
            json={"version": 0, **intent},
        )
    refused(watcher, db, "POST", f"/api/games/{game['id']}/invitations", "host-only")
    # A seat's invitation may be used to watch, without spending it.
    token = secret(invite(host, game)["join"])
    watcher.post("/api/invitations/watch", json={"invitation": token})
    other = device()
    assert claim(other, token, 0)["you"]["seats"] == [0]


def test_the_host_hands_an_absent_seat_to_the_computer_and_its_holder_takes_it_back(
    device: Callable[[], TestClient], db: Path
) -> None:
    host, guest = device(), device()
    game = new(host, "yams", "Ali", "Ece")
    claim(guest, secret(invite(host, game)["join"]), 1)
    game = act(host, game, type="throw")
    game = act(host, game, type="fill", box="CHANCE")
    seats = f"/api/games/{game['id']}/seats/1"
    refused(guest, db, "POST", seats, "host-only", json={"to": "computer"})
    handed = host.post(seats, json={"to": "computer"}).json()
    assert handed["seats"][1]["standin"] == "expert"  # Yams without a computer: its default
    refused(
        guest,
        db,
        "POST",
        f"/api/games/{game['id']}/actions",
        "standing-in",
        json={"version": game["version"], "type": "throw"},
    )
    steps = 0
    while game["seat"] == 1:  # any device at the table steps the computer, here the host
        game = act(host, game, type="computer")
        steps += 1
    assert 2 <= steps <= 4
    assert game["cards"][1]["total"] >= 0
    back = guest.post(seats, json={"to": "holder"}).json()
    assert back["seats"][1]["standin"] is None
    assert back["you"]["seats"] == [1]
    # The host takes an absent guest's seat back to its own device.
    taken = host.post(seats, json={"to": "host"}).json()
    assert taken["you"]["seats"] == [0, 1]
    refused(guest, db, "GET", f"/api/games/{game['id']}", "not-at-table")


def test_a_holder_back_from_the_computer_is_told_what_it_did_from_the_log(
    device: Callable[[], TestClient],
) -> None:
    host, guest = device(), device()
    game = new(host, "yams", "Ali", "Ece")
    claim(guest, secret(invite(host, game)["join"]), 1)
    game = act(host, game, type="throw")
    game = act(host, game, type="fill", box="CHANCE")
    seats = f"/api/games/{game['id']}/seats/1"
    host.post(seats, json={"to": "computer"})
    for _ in range(2):  # two of Ece's rounds played by the computer, one of Ali's between
        while game["seat"] == 1:
            game = act(host, game, type="computer")
        if game["round"] == 2 and game["seat"] == 0 and not game["throws"]:
            game = act(host, game, type="throw")
            game = act(host, game, type="fill", box=next(iter(game["options"])))
    back = guest.post(seats, json={"to": "holder"}).json()
    card = back["cards"][1]["boxes"]
    written = [{"box": box, "points": points} for box, points in card.items() if points is not None]
    assert back["stood_in"] == {"seat": 1, "rounds": 2, "boxes": written}
    # Handed again and taken back at once: the computer did nothing meanwhile.
    host.post(seats, json={"to": "computer"})
    again = guest.post(seats, json={"to": "holder"}).json()
    assert again["stood_in"] == {"seat": 1, "rounds": 0, "boxes": []}


def test_a_holder_back_from_the_computer_at_10000_is_told_its_turns_and_points(
    device: Callable[[], TestClient],
) -> None:
    host, guest = device(), device()
    game = new(host, "10000", "Ali", "Ece")
    claim(guest, secret(invite(host, game)["join"]), 1)
    seats = f"/api/games/{game['id']}/seats/1"
    host.post(seats, json={"to": "computer"})
    host.app.state.games.dice.script(1, 1, 1, 2, 3, 4)  # type: ignore[attr-defined]
    game = act(host, game, type="throw")
    game = act(host, game, type="bank", set_aside=[0, 1, 2])
    while game["seat"] == 1:
        game = act(host, game, type="computer")
    back = guest.post(seats, json={"to": "holder"}).json()
    assert back["stood_in"] == {"seat": 1, "turns": 1, "points": back["totals"][1]}


def test_only_the_host_ends_the_game(device: Callable[[], TestClient], db: Path) -> None:
    host, guest = device(), device()
    game = new(host, "yams", "Ali", "Ece")
    claim(guest, secret(invite(host, game)["join"]), 1)
    refused(
        guest,
        db,
        "POST",
        f"/api/games/{game['id']}/actions",
        "host-only",
        json={"version": 0, "type": "abandon"},
    )
    assert act(host, game, type="abandon")["abandoned"]


def test_undo_is_the_decisions_owners_and_never_reopens_a_game_seen_over(
    device: Callable[[], TestClient], db: Path
) -> None:
    host, guest = device(), device()
    game = new(host, "yams", "Ali", "Ece")
    claim(guest, secret(invite(host, game)["join"]), 1)
    game = act(host, game, type="throw")
    game = act(host, game, type="fill", box="CHANCE")
    refused(
        guest,
        db,
        "POST",
        f"/api/games/{game['id']}/actions",
        "not-your-seat",
        json={"version": game["version"], "type": "undo"},
    )
    game = act(host, game, type="undo")  # Ali's own decision, on Ali's device
    assert game["seat"] == 0
    # To the end: the last box written on the guest's phone, which the host has seen.
    for _ in range(13):
        for player in (host, guest):
            game = act(player, game, type="throw")
            game = act(player, game, type="fill", box=next(iter(game["options"])))
    assert game["over"]
    refused(
        guest,
        db,
        "POST",
        f"/api/games/{game['id']}/actions",
        "seen-over",
        json={"version": game["version"], "type": "undo"},
    )


def test_requests_from_another_site_are_refused(device: Callable[[], TestClient], db: Path) -> None:
    host = device()
    game = new(host, "yams", "Ali")
    refused(
        host,
        db,
        "POST",
        f"/api/games/{game['id']}/actions",
        "cross-origin",
        json={"version": 0, "type": "throw"},
        headers={"origin": "https://evil.example"},
    )
    refused(
        host,
        db,
        "POST",
        "/api/games",
        "cross-origin",
        json={"game": "yams", "players": ["X"]},
        headers={"sec-fetch-site": "cross-site"},
    )
    same = host.post(
        f"/api/games/{game['id']}/actions",
        json={"version": 0, "type": "throw"},
        headers={"origin": "http://testserver", "sec-fetch-site": "same-origin"},
    )
    assert same.status_code == 200


def test_joins_and_claims_are_rate_limited(db: Path) -> None:
    store = SqliteStore(db)
    app = create_app(store, games_per_minute=3, monotonic=lambda: 0.0)
    with TestClient(app) as guest:
        statuses = [
            guest.post("/api/invitations/open", json={"invitation": "ABCDEF"}).status_code
            for _ in range(5)
        ]
    store.close()
    assert statuses == [403, 403, 403, 429, 429]


def test_a_game_from_before_seats_goes_to_the_first_device_on_this_machine(db: Path) -> None:
    """A game stored by an earlier Zar has no holders: the first device that opens it from
    this machine becomes its host; any other device after it is refused."""
    store = SqliteStore(db)
    with TestClient(create_app(store)) as earlier:
        game = new(earlier, "yams", "Ali")
    store.close()
    with sqlite3.connect(db) as writer:  # as a store of an earlier Zar left it
        writer.execute("UPDATE games SET seating = '', seating_rev = 0")
        writer.execute("DELETE FROM access")
    store = SqliteStore(db)
    app = create_app(store)
    with TestClient(app) as first, TestClient(app) as second:
        new(first, "10000", "Can")  # a device with a credential of its own, on this machine
        new(second, "10000", "Su")
        shown = first.get(f"/api/games/{game['id']}").json()
        assert shown["you"] == {"role": "host", "seats": [0]}
        assert game["id"] in [g["id"] for g in first.get("/api/games").json()]
        assert second.get(f"/api/games/{game['id']}").status_code == 403
    store.close()


def test_a_stranger_or_a_watcher_learns_nothing_from_a_stale_version(
    device: Callable[[], TestClient], db: Path
) -> None:
    """An intention naming an old version is refused 403 to a device with no place and to a
    watcher, as any of theirs is: a 409 would tell them that the game moved on, and its
    version. The players' own stale intention still gets its 409."""
    host, watcher, stranger = device(), device(), device()
    game = new(host, "10000", "Ali", "Ece")
    watcher.post("/api/invitations/watch", json={"invitation": secret(invite(host, game)["watch"])})
    game = act(host, game, type="throw")
    for asker, reason in ((stranger, "not-at-table"), (watcher, "watching")):
        refused(
            asker,
            db,
            "POST",
            f"/api/games/{game['id']}/actions",
            reason,
            json={"version": 0, "type": "throw"},
        )
    response = host.post(f"/api/games/{game['id']}/actions", json={"version": 0, "type": "bank"})
    assert (response.status_code, response.json()["version"]) == (409, game["version"])
