"""Session fixation, from the attacker's side: a credential planted in a victim's browser
(by a sibling domain, a page on plain HTTP, a moment with the phone) must not follow the
victim to the tables it hosts, takes a seat at or watches; a second cookie beside the
device's own must not be believed; over HTTPS the cookie is ``__Host-``, which no other
site can set."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import new
from server.serving import running
from zar.server import create_app
from zar.server.devices import COOKIE, SECURE_COOKIE, key_of
from zar.store import SqliteStore

Game = dict[str, Any]


@pytest.fixture
def app(store: SqliteStore) -> FastAPI:
    return create_app(store, dice=ScriptedDice(), games_per_minute=None)


@pytest.fixture
def attacker(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


def unplaced(attacker: TestClient) -> str:
    """A credential the server knows that holds no place yet: the one a device is given
    when it opens an invitation (here, to a game the attacker hosts elsewhere)."""
    with TestClient(attacker.app) as elsewhere:
        game = new(elsewhere, "yams", "Cem")
        link = elsewhere.post(f"/api/games/{game['id']}/invitations").json()["join"]
    opened = attacker.post("/api/invitations/open", json={"invitation": link.split("#join=")[1]})
    assert opened.status_code == 200, opened.text
    assert opened.json()["yours"] == []
    return str(opened.cookies[COOKIE])


def reaches(credential: str, app: Any, game_id: str) -> bool:
    with TestClient(app, cookies={COOKIE: credential}) as planted:
        return planted.get(f"/api/games/{game_id}").status_code == 200


@pytest.mark.parametrize("how", ["host", "claim", "watch"])
def test_a_planted_credential_never_follows_its_victim_to_a_table(
    app: FastAPI, attacker: TestClient, how: str
) -> None:
    planted = unplaced(attacker)
    with TestClient(app) as host, TestClient(app, cookies={COOKIE: planted}) as victim:
        if how == "host":
            reply = victim.post("/api/games", json={"game": "yams", "players": ["Ali"]})
            game = reply.json()
        else:
            game = new(host, "yams", "Ali", "Ece")
            invited = host.post(f"/api/games/{game['id']}/invitations").json()
            secret = invited["join" if how == "claim" else "watch"].split("#", 1)[1]
            body: dict[str, Any] = {"invitation": secret.split("=", 1)[1]}
            if how == "claim":  # as the page does: the invitation opened, then a seat taken
                opened = victim.post("/api/invitations/open", json=body)
                assert opened.status_code == 200, opened.text
                assert opened.cookies[COOKIE] != planted
                victim.cookies.clear()
                victim.cookies.set(COOKIE, opened.cookies[COOKIE])
                body["seat"] = 1
            reply = victim.post(f"/api/invitations/{how}", json=body)
            assert reply.status_code == 200, reply.text
        own = str(reply.cookies.get(COOKIE) or victim.cookies[COOKIE])
        assert own != planted  # a fresh credential, given in place of the planted one
        assert reaches(own, app, game["id"])
        assert not reaches(planted, app, game["id"])
        with TestClient(app, cookies={COOKIE: planted}) as again:
            assert again.get("/api/games").json() == []


def test_a_device_with_a_place_keeps_its_credential(app: FastAPI) -> None:
    with TestClient(app) as host:
        first = new(host, "yams", "Ali")
        credential = str(host.cookies[COOKIE])
        second = new(host, "10000", "Ali")
        assert str(host.cookies[COOKIE]) == credential
        listed = {g["id"] for g in host.get("/api/games").json()}
        assert listed == {first["id"], second["id"]}


def test_a_second_cookie_beside_the_devices_own_is_not_believed(
    app: FastAPI, attacker: TestClient
) -> None:
    """Two ``zar_device`` cookies (one planted for another path or a parent domain): the
    server cannot tell which is whose, and takes the request as carrying none."""
    mine = new(attacker, "yams", "Cem")  # the attacker's device, with a place of its own
    planted = str(attacker.cookies[COOKIE])
    with TestClient(app) as victim:
        new(victim, "yams", "Ali")
        own = str(victim.cookies[COOKIE])
    both = {"cookie": f"{COOKIE}={own}; {COOKIE}={planted}"}
    with TestClient(app) as browser:
        assert browser.get("/api/games", headers=both).json() == []
        assert browser.get(f"/api/games/{mine['id']}", headers=both).status_code == 403
        hosted = browser.post("/api/games", json={"game": "yams", "players": ["Ali"]}, headers=both)
        assert hosted.status_code == 201
        given = hosted.cookies[COOKIE]
        assert given not in (own, planted)
    assert not reaches(planted, app, hosted.json()["id"])


def test_over_https_the_cookie_is_host_prefixed_and_preferred(
    app: FastAPI, store: SqliteStore
) -> None:
    with TestClient(app, base_url="https://testserver") as phone:
        reply = phone.post("/api/games", json={"game": "yams", "players": ["Ali"]})
        set_cookie = reply.headers["set-cookie"]
        assert set_cookie.startswith(f"{SECURE_COOKIE}=")
        assert "Secure" in set_cookie
        assert "Path=/" in set_cookie
        assert "Domain" not in set_cookie
        assert "HttpOnly" in set_cookie
        secret = str(phone.cookies[SECURE_COOKIE])
        game = reply.json()["id"]
        assert phone.get(f"/api/games/{game}").status_code == 200
    # A plain cookie planted beside it (by a sibling domain) is not the one read.
    with TestClient(app, base_url="https://testserver") as attacker:
        new(attacker, "yams", "Cem")
        planted = str(attacker.cookies[SECURE_COOKIE])
    header = {"cookie": f"{COOKIE}={planted}; {SECURE_COOKIE}={secret}"}
    with TestClient(app, base_url="https://testserver") as browser:
        assert [g["id"] for g in browser.get("/api/games", headers=header).json()] == [game]
    assert store.games(device=key_of(secret))


def test_over_https_an_older_plain_cookie_keeps_its_places_and_moves_to_the_host_prefix(
    app: FastAPI,
) -> None:
    with TestClient(app, base_url="https://testserver") as phone:
        # Given before the __Host- cookie was: the plain one.
        with TestClient(app) as before:
            game = new(before, "yams", "Ali")
            secret = str(before.cookies[COOKIE])
        phone.cookies.set(COOKIE, secret)
        assert [g["id"] for g in phone.get("/api/games").json()] == [game["id"]]
        again = phone.post("/api/games", json={"game": "10000", "players": ["Ali"]})
        assert again.status_code == 201
        cookies = again.headers.get_list("set-cookie")
        assert any(c.startswith(f"{SECURE_COOKIE}={secret};") for c in cookies)
        assert any(c.startswith(f'{COOKIE}="";') and "Max-Age=0" in c for c in cookies)


def given_cookie(db: Path, env: dict[str, str]) -> str:
    """The ``Set-Cookie`` a new game gets through a real ``zar serve`` from a front server
    on 127.0.0.1 that says the browser came over HTTPS."""
    with running(db, env) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        headers = {"content-type": "application/json", "x-forwarded-proto": "https"}
        conn.request(
            "POST", "/api/games", json.dumps({"game": "yams", "players": ["Ali"]}), headers
        )
        reply = conn.getresponse()
        reply.read()
        conn.close()
        assert reply.status == 201
        return reply.getheader("set-cookie") or ""


def test_https_is_believed_from_a_named_proxy_only(tmp_path: Path) -> None:
    named = given_cookie(tmp_path / "named.sqlite3", {"ZAR_PROXIES": "127.0.0.1"})
    assert named.startswith(f"{SECURE_COOKIE}=")
    assert "Secure" in named
    unnamed = given_cookie(tmp_path / "unnamed.sqlite3", {})
    assert unnamed.startswith(f"{COOKIE}=")
    assert "Secure" not in unnamed
