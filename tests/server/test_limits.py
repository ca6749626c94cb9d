"""Careless and hostile input: bodies too large, bad names, markup, a flood of new games, and
the headers every reply carries."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from server.api_support import Clock
from zar.dice import SeededDice
from zar.i18n import LANGUAGES, text
from zar.server import create_app
from zar.server.limits import GAMES_PER_MINUTE, MAX_BODY_BYTES
from zar.store import SqliteStore

STATIC = Path(__file__).resolve().parents[2] / "src" / "zar" / "server" / "static"

# The content security policy's directives every engine the page is tested in understands.
KNOWN_EVERYWHERE = {
    "default-src", "script-src", "style-src", "img-src", "connect-src",
    "frame-ancestors", "base-uri", "form-action",
}  # fmt: skip


@pytest.fixture
def app(store: SqliteStore, clock: Clock) -> FastAPI:
    return create_app(store, dice=SeededDice(1), games_per_minute=3, monotonic=clock)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def games(client: TestClient) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = client.get("/api/games").json()
    return listed


# The size of a body


def test_a_body_over_the_limit_is_a_413_before_it_is_read(client: TestClient) -> None:
    body = json.dumps({"game": "yams", "players": ["Ali"], "pad": "x" * MAX_BODY_BYTES})
    for lang in LANGUAGES:
        response = client.post(f"/api/games?lang={lang}", content=body)
        assert response.status_code == 413
        assert response.json() == {
            "detail": text(lang, "body-too-large", limit=16),
            "reason": "body-too-large",
        }
    assert games(client) == []


def test_a_body_at_the_limit_reaches_the_rules(client: TestClient) -> None:
    body = {"game": "yams", "players": ["Ali"], "pad": ""}
    body["pad"] = "x" * (MAX_BODY_BYTES - len(json.dumps(body)))
    response = client.post("/api/games", content=json.dumps(body))
    assert response.status_code == 422  # the model has no "pad": refused, but read
    assert response.json()["reason"] == "bad-request"


async def _call(app: FastAPI, chunks: list[bytes]) -> tuple[int, dict[str, Any], int]:
    """POST /api/games with a body in chunks and no Content-Length, straight over ASGI:
    the status, the reply, and how many chunks the server read."""
    read = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read < len(chunks):
            read += 1
            return {"type": "http.request", "body": chunks[read - 1], "more_body": True}
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/games",
        "raw_path": b"/api/games",
        "root_path": "",
        "query_string": b"lang=en",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    await app(scope, receive, send)
    status = sent[0]["status"]
    reply = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    return status, reply, read


def test_a_streamed_body_without_a_length_is_cut_at_the_limit(app: FastAPI) -> None:
    chunks = [b'{"game": "yams", "players": ["Ali"], "pad": "'] + [b"x" * 1024] * 100
    status, reply, read = asyncio.run(_call(app, chunks))
    assert status == 413
    assert reply == {"detail": text("en", "body-too-large", limit=16), "reason": "body-too-large"}
    assert read <= MAX_BODY_BYTES // 1024 + 2  # it stopped reading, the rest never came in
    with TestClient(app) as client:
        assert games(client) == []


def test_a_streamed_body_under_the_limit_is_read_whole(app: FastAPI) -> None:
    body = json.dumps({"game": "10000", "players": ["Ali", "Ece"], "target": 5000}).encode()
    chunks = [body[i : i + 7] for i in range(0, len(body), 7)]
    status, reply, read = asyncio.run(_call(app, chunks))
    assert status == 201, reply
    assert reply["players"][1]["name"] == "Ece"
    assert read == len(chunks)


# Names


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "name-empty"),
        ("   ", "name-empty"),
        (" Ali", "name-spaces"),
        ("Ali\t", "name-spaces"),
        ("A" * 25, "name-too-long"),
        ("<img src=x onerror=alert(1)>", "name-too-long"),
        ("Al\x00i", "name-control"),
        ("Ali\nEce", "name-control"),
        ("Al\x7fi", "name-control"),
        ("Ali\u200b", "name-control"),  # a zero-width space: a format character
        ("\u202eilA", "name-control"),  # right-to-left override
        ("\ud800", "name-control"),  # a lone surrogate
        ("\u3164", "name-invisible"),  # the Hangul filler: a letter that shows as nothing
        ("\u2800\u2800", "name-invisible"),  # Braille blanks
        ("\u3164 \uffa0", "name-invisible"),
        ("\u0301\u0308", "name-invisible"),  # marks alone, on nothing
        ("\u0301Ali", "name-marks"),
        ("Ali\u2028Ece", "name-line-break"),  # a line separator
        ("Ali\u2029Ece", "name-line-break"),  # a paragraph separator
    ],
)
def test_every_bad_name_is_a_422_in_the_players_language(
    client: TestClient, name: str, reason: str
) -> None:
    for lang in LANGUAGES:
        body = json.dumps({"game": "yams", "players": ["Ece", name]})  # \ud800 as an escape
        response = client.post(
            f"/api/games?lang={lang}", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 422
        assert response.json() == {"detail": text(lang, reason), "reason": reason}
    assert games(client) == []


def test_a_name_is_kept_in_one_form_and_two_alike_are_one(client: TestClient) -> None:
    """NFC: "e" and a combining acute is "é", whichever way it was typed; two people whose
    names differ only so are refused at one table, as any two of the same name are."""
    shown = client.post("/api/games", json={"game": "yams", "players": ["Rene\u0301"]}).json()
    assert shown["players"][0]["name"] == "Ren\u00e9"
    refused = client.post(
        "/api/games", json={"game": "yams", "players": ["Ren\u00e9", "Rene\u0301"]}
    )
    assert (refused.status_code, refused.json()["reason"]) == (422, "name-taken")
    coached = {"game": "yams", "players": ["Ren\u00e9", "Ali"], "hints": ["Rene\u0301"]}
    assert client.post("/api/games", json=coached).json()["hints"] == [0]


LOOK_ALIKE = {
    "tr": "\u0410li, Ali adına çok benziyor: bu oyuncuya başka bir ad verin",
    "fr": "\u0410li ressemble trop à Ali : donnez un autre nom à ce joueur",
    "en": "\u0410li looks too much like Ali: give this player another name",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_names_that_look_alike_are_refused_at_one_table(client: TestClient, lang: str) -> None:
    """UTS #39 skeletons: Latin "Ali" and "Аli" with a Cyrillic А are one name to the eye;
    at another table each is free."""
    body = {"game": "yams", "players": ["Ali", "\u0410li"]}
    refused = client.post(f"/api/games?lang={lang}", json=body)
    assert refused.status_code == 422
    assert refused.json() == {"detail": LOOK_ALIKE[lang], "reason": "name-look-alike"}
    assert games(client) == []
    for name in body["players"]:
        assert client.post("/api/games", json={"game": "yams", "players": [name]}).is_success
    assert sorted(game["players"][0] for game in games(client)) == sorted(body["players"])


@pytest.mark.parametrize(("lang", "computer"), [("tr", "IA"), ("fr", "IA"), ("en", "Computer")])
def test_a_name_that_looks_like_the_computers_is_refused_beside_it(
    client: TestClient, lang: str, computer: str
) -> None:
    """ "ІА" in Cyrillic beside the computer's "IA", "Cоmputer" with a Cyrillic о beside
    "Computer"."""
    name = {"IA": "\u0406\u0410", "Computer": "C\u043emputer"}[computer]
    body = {"game": "yams", "players": [name], "computer": True}
    refused = client.post(f"/api/games?lang={lang}", json=body)
    assert refused.json() == {
        "detail": text(lang, "name-look-alike", name=name, other=computer),
        "reason": "name-look-alike",
    }
    alone = client.post(f"/api/games?lang={lang}", json={"game": "yams", "players": [name]})
    assert alone.status_code == 201  # no computer at the table: the name is free


def test_turkish_names_that_differ_by_a_mark_are_two(client: TestClient) -> None:
    """ş, ç, ğ, ö, ü keep their marks in a skeleton: "Şule" and "Sule" are two people."""
    names = ["Şule", "Sule", "Çağla", "Cagla", "Gül", "Gul"]
    game = client.post("/api/games", json={"game": "yams", "players": names})
    assert [p["name"] for p in game.json()["players"]] == names


@pytest.mark.parametrize("name", [None, 7, ["Ali"], {"name": "Ali"}])
def test_a_name_that_is_not_text_is_a_422(client: TestClient, name: object) -> None:
    response = client.post("/api/games?lang=fr", json={"game": "yams", "players": [name]})
    assert response.status_code == 422
    assert response.json() == {
        "detail": text("fr", "bad-request", where="players.0"),
        "reason": "bad-request",
    }


def test_markup_in_a_name_is_kept_and_sent_back_as_text(client: TestClient) -> None:
    names = ["<b onmouseover=alert(1)>", "</script><i>", "&lt;Ali&amp;", "'\"`${x}"]
    game = client.post("/api/games", json={"game": "10000", "players": names})
    assert game.status_code == 201
    assert game.headers["content-type"] == "application/json"
    assert [p["name"] for p in game.json()["players"]] == names
    again = client.get(f"/api/games/{game.json()['id']}").json()
    assert [p["name"] for p in again["players"]] == names
    assert games(client)[0]["players"] == names


def test_the_page_sets_no_markup_from_data() -> None:
    """Names reach the page as text: no script module writes HTML from a string."""
    sinks = re.compile(
        r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|Function\("
    )
    modules = sorted((STATIC / "js").glob("*.js"))
    assert modules
    for module in modules:
        assert not sinks.findall(module.read_text(encoding="utf-8")), module.name


def test_the_page_has_no_inline_script() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>", page)
    assert scripts
    assert all(" src=" in tag for tag in scripts)
    assert not re.search(r"\son[a-z]+\s*=", page)  # no onclick= and the like


# New games a minute


def test_a_flood_of_new_games_is_a_429_with_retry_after(client: TestClient, clock: Clock) -> None:
    body = {"game": "yams", "players": ["Ali"]}
    for _ in range(3):
        assert client.post("/api/games", json=body).status_code == 201
        clock.now += 10
    refused = client.post("/api/games?lang=en", json=body)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "30"  # when the first game leaves the minute
    assert refused.json() == {
        "detail": text("en", "too-many-games", seconds=30),
        "reason": "too-many-games",
    }
    assert len(games(client)) == 3
    # Playing goes on meanwhile; only starting games waits.
    game_id = games(client)[0]["id"]
    moved = client.post(f"/api/games/{game_id}/actions", json={"version": 0, "type": "throw"})
    assert moved.status_code == 200
    clock.now += 29
    assert client.post("/api/games", json=body).headers["retry-after"] == "1"
    clock.now += 1
    assert client.post("/api/games", json=body).status_code == 201


def test_what_counts_is_what_was_taken(client: TestClient) -> None:
    """Malformed requests (a bad name, a field that does not exist, a body too large) do
    not use up the minute's games; a game started does; a join with a wrong code counts (a
    guess is a try), and one with no code at all does not."""
    for body in (
        {"game": "yams", "players": [""]},
        {"game": "yams", "players": ["Ali"], "dice": [6, 6, 6, 6, 6]},
        {"game": "chess", "players": ["Ali"]},
    ) * 5:
        assert client.post("/api/games", json=body).status_code == 422
    assert client.post("/api/games", content="x" * 20_000).status_code == 413
    body = {"game": "yams", "players": ["Ali"]}
    assert [client.post("/api/games", json=body).status_code for _ in range(4)] == [
        201, 201, 201, 429,
    ]  # fmt: skip
    for _ in range(10):
        assert client.post("/api/invitations/claim", json={"seat": 0}).status_code == 422
    tries = [
        client.post("/api/invitations/claim", json={"invitation": "ZZZZZZ", "seat": 0})
        for _ in range(4)
    ]
    assert [t.status_code for t in tries] == [403, 403, 403, 429]


def test_the_limit_is_per_client_address(app: FastAPI) -> None:
    body = {"game": "10000", "players": ["Ali"]}
    with TestClient(app, client=("192.0.2.1", 4000)) as first:
        for _ in range(3):
            assert first.post("/api/games", json=body).status_code == 201
        assert first.post("/api/games", json=body).status_code == 429
    with TestClient(app, client=("192.0.2.2", 4000)) as second:
        assert second.post("/api/games", json=body).status_code == 201


def test_the_default_limit_lets_a_table_play(store: SqliteStore, clock: Clock) -> None:
    with TestClient(create_app(store, monotonic=clock)) as client:
        body = {"game": "yams", "players": ["Ali"]}
        statuses = [client.post("/api/games", json=body).status_code for _ in range(31)]
    assert statuses == [201] * GAMES_PER_MINUTE + [429]


def test_no_limit_when_the_app_is_told_so(store: SqliteStore, clock: Clock) -> None:
    with TestClient(create_app(store, games_per_minute=None, monotonic=clock)) as client:
        body = {"game": "yams", "players": ["Ali"]}
        assert all(client.post("/api/games", json=body).status_code == 201 for _ in range(40))


# Headers


def test_every_reply_carries_the_security_headers(client: TestClient, clock: Clock) -> None:
    new = {"game": "yams", "players": ["Ali"]}
    replies = {
        "the page": client.get("/"),
        "a static file": client.get("/static/js/main.js"),
        "the manifest": client.get("/manifest.webmanifest"),
        "an API 200": client.get("/api/setup"),
        "an API 201": client.post("/api/games", json=new),
        "an API 404": client.get("/api/games/nope"),
        "a missing file": client.get("/static/js/nope.js"),
        "a 405": client.delete("/api/games"),
        "a 413": client.post("/api/games", content=b"x" * (MAX_BODY_BYTES + 1)),
        "a 422": client.post("/api/games", json={"game": "chess"}),
    }
    client.post("/api/games", json=new)
    client.post("/api/games", json=new)
    replies["a 429"] = client.post("/api/games", json=new)
    statuses = {what: r.status_code for what, r in replies.items()}
    assert statuses == {
        "the page": 200,
        "a static file": 200,
        "the manifest": 200,
        "an API 200": 200,
        "an API 201": 201,
        "an API 404": 404,
        "a missing file": 404,
        "a 405": 405,
        "a 413": 413,
        "a 422": 422,
        "a 429": 429,
    }
    for what, reply in replies.items():
        policy = reply.headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        # Only directives Chromium, Firefox and WebKit all know (WebKit logs an error on
        # every load for one it does not, manifest-src).
        assert set(directives) <= KNOWN_EVERYWHERE, what
        assert directives["script-src"] == "'self'", what
        assert directives["frame-ancestors"] == "'none'", what
        assert "'unsafe-inline'" not in policy, what
        assert "'unsafe-eval'" not in policy, what
        assert reply.headers["x-content-type-options"] == "nosniff", what
        assert reply.headers["x-frame-options"] == "DENY", what


def test_unknown_addresses_and_methods_are_refused_in_words(client: TestClient) -> None:
    missing = client.get("/api/nothing?lang=fr")
    assert missing.status_code == 404
    assert missing.json() == {"detail": text("fr", "not-found"), "reason": "not-found"}
    wrong = client.put("/api/games?lang=en")
    assert wrong.status_code == 405
    assert wrong.json()["reason"] == "method-not-allowed"
    assert "GET" in wrong.headers["allow"]
    garbled = client.post(
        "/api/games", content=b"\xff\xfe", headers={"content-type": "application/json"}
    )
    assert garbled.status_code == 422
    assert garbled.json()["reason"] == "bad-request"


# Types


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        ("/api/games", {"game": "yams", "players": ["Ali"], "computer": "yes"}, "computer"),
        ("/api/games", {"game": "yams", "players": ["Ali"], "computer": 1}, "computer"),
        ("/api/games", {"game": "10000", "players": ["Ali"], "target": "5000"}, "target"),
        ("/api/games/{id}/actions", {"version": "0", "type": "throw"}, "version"),
        ("/api/games/{id}/actions", {"version": False, "type": "throw"}, "version"),
        ("/api/games/{id}/actions", {"version": 0, "type": "throw", "keep": [True]}, "keep.0"),
        ("/api/games/{id}/actions", {"version": 0, "type": "throw", "keep": ["1"]}, "keep.0"),
    ],
)
def test_a_value_of_another_type_is_refused_not_guessed(
    client: TestClient, path: str, body: dict[str, Any], where: str
) -> None:
    game = client.post("/api/games", json={"game": "yams", "players": ["Ece"]}).json()
    response = client.post(f"{path.format(id=game['id'])}?lang=en", json=body)
    assert response.status_code == 422
    assert response.json() == {
        "detail": text("en", "bad-request", where=where),
        "reason": "bad-request",
    }
    assert [g["version"] for g in games(client)] == [0]


# Memory


def test_ids_no_game_has_leave_nothing_behind(app: FastAPI, client: TestClient) -> None:
    """A script trying made-up ids gets 404s, and the server keeps nothing for them."""
    for i in range(50):
        url = f"/api/games/made-up-{i}"
        assert (
            client.post(f"{url}/actions", json={"version": 0, "type": "throw"}).status_code == 404
        )
        assert client.get(f"{url}/events").status_code == 404
        assert client.get(url).status_code == 404
    kept = {name: len(v) for name, v in vars(app.state.games).items() if isinstance(v, dict)}
    assert kept == dict.fromkeys(kept, 0)


class BrokenDice:
    """Dice that fail as a bug would: the server's own fault, not the player's."""

    def roll(self, n: int) -> tuple[int, ...]:
        raise RuntimeError("the dice fell off the table")


def test_a_fault_of_the_server_is_said_in_words_and_changes_nothing(store: SqliteStore) -> None:
    app = create_app(store, dice=BrokenDice(), games_per_minute=None)
    with TestClient(app, raise_server_exceptions=False) as client:
        game = client.post("/api/games", json={"game": "yams", "players": ["Ali"]}).json()
        url = f"/api/games/{game['id']}/actions?lang=en"
        reply = client.post(url, json={"version": 0, "type": "throw"})
        assert reply.status_code == 500
        assert reply.json() == {
            "detail": "Something went wrong on the server; nothing stored is lost. Try again.",
            "reason": "server-error",
        }
        assert reply.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in reply.headers["content-security-policy"]
        assert client.get(f"/api/games/{game['id']}").json()["version"] == 0
    assert store.load(game["id"]).version == 0
