"""Abandoning a game over HTTP: an intention like any move, on the game's version; the game
is kept and still shown, takes nothing more, and is out of every list and the statistics."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import new
from zar.server import create_app
from zar.store import SqliteStore

Game = dict[str, Any]


@pytest.fixture
def client(store: SqliteStore, dice: ScriptedDice) -> Iterator[TestClient]:
    # A clock that counts: the games' order in a list never hangs on a tie.
    ticks = itertools.count()
    clock = lambda: f"2025-01-01T12:00:00.{next(ticks):06}+00:00"  # noqa: E731
    with TestClient(create_app(store, dice=dice, clock=clock, games_per_minute=None)) as c:
        yield c


def send(client: TestClient, game: Game, status: int = 200, **intent: Any) -> Game:
    """An intention on the game's version, and its reply."""
    body = {"version": game["version"], **intent}
    response = client.post(f"/api/games/{game['id']}/actions", json=body)
    assert response.status_code == status, response.text
    result: Game = response.json()
    return result


def listed(client: TestClient, query: str = "") -> list[str]:
    return [g["id"] for g in client.get(f"/api/games{query}").json()]


def test_an_abandoned_game_is_kept_shown_and_takes_nothing_more(
    client: TestClient, store: SqliteStore
) -> None:
    game = send(client, new(client, "yams", "Ali"), type="throw")
    assert game["abandoned"] is False
    assert game["can_hint"]
    ended = send(client, game, type="abandon")
    assert ended["abandoned"] is True
    assert ended["version"] == 2
    assert [ended[key] for key in ("over", "can_undo", "can_hint")] == [False, False, False]
    assert ended["dice"] == game["dice"]
    url = f"/api/games/{ended['id']}"
    assert client.get(url).json() == ended
    assert client.get(f"{url}?at=1").json()["abandoned"] is False
    record, times = store.load(ended["id"]), store.times(ended["id"])
    assert record.abandoned
    for intent, lang, words in [
        ({"type": "throw", "keep": [0]}, "tr", "Bu oyun bırakıldı"),
        ({"type": "fill", "box": "CHANCE"}, "fr", "Cette partie a été abandonnée"),
        ({"type": "undo"}, "en", "This game was abandoned"),
        ({"type": "abandon"}, "en", "This game was abandoned"),
        ({"type": "computer"}, "en", "This game was abandoned"),
    ]:
        body = {"version": ended["version"], **intent}
        response = client.post(f"{url}/actions?lang={lang}", json=body)
        assert response.status_code == 422, response.text
        assert response.json() == {"detail": words, "reason": "game-abandoned"}
        assert store.load(ended["id"]) == record
        assert store.times(ended["id"]) == times
        assert client.get(url).json() == ended
    hint = client.get(f"{url}/hint?lang=en")
    assert (hint.status_code, hint.json()["reason"]) == (422, "game-abandoned")
    entries = client.get(f"{url}/log").json()["entries"]
    assert [e["type"] for e in entries] == ["throw", "abandon"]
    assert "seat" not in entries[-1]


def test_an_abandoned_game_is_out_of_the_lists_and_the_statistics(
    client: TestClient, dice: ScriptedDice
) -> None:
    done = new(client, "10000", "Ece", target=5000)
    dice.script(*([6] * 12))
    for _ in range(2):
        done = send(client, done, type="throw")
        done = send(client, done, type="bank", set_aside=list(range(6)))
    assert done["over"]
    playing = new(client, "yams", "Ali")
    left = new(client, "10000", "Ece", "Can", target=5000)
    dice.script(1, 2, 3, 4, 6, 6)
    left = send(client, left, type="throw")
    left = send(client, left, type="bank", set_aside=[0])
    assert left["totals"] == [100, 0]
    assert set(listed(client)) == {done["id"], playing["id"], left["id"]}
    before = client.get("/api/stats?game=10000").json()
    send(client, left, type="abandon")
    assert listed(client, "?finished=false") == [playing["id"]]
    assert listed(client, "?finished=true") == [done["id"]]
    assert left["id"] not in listed(client)
    figures = client.get("/api/stats?game=10000").json()
    assert figures == before
    assert [(p["name"], p["games"]) for p in figures["players"]] == [("Ece", 1)]


def test_an_abandon_on_a_stale_version_is_a_409_and_changes_nothing(client: TestClient) -> None:
    game = new(client, "yams", "Ali")
    moved = send(client, game, type="throw")
    refusal = send(client, game, 409, type="abandon")
    assert (refusal["reason"], refusal["version"]) == ("stale-version", 1)
    assert client.get(f"/api/games/{game['id']}").json() == moved
    assert listed(client, "?finished=false") == [game["id"]]


def test_a_finished_game_cannot_be_abandoned(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "10000", "Ece", target=5000)
    dice.script(*([6] * 12))
    for _ in range(2):
        game = send(client, game, type="throw")
        game = send(client, game, type="bank", set_aside=list(range(6)))
    refusal = send(client, game, 422, type="abandon")
    assert refusal == {"detail": "Oyun bitti", "reason": "game-over"}
    assert client.get(f"/api/games/{game['id']}").json() == game
    assert listed(client, "?finished=true") == [game["id"]]


@pytest.mark.parametrize(
    "extra", [{"keep": [0]}, {"box": "CHANCE"}, {"set_aside": [0]}, {"seat": 0}]
)
def test_an_abandon_takes_nothing_more(client: TestClient, extra: dict[str, Any]) -> None:
    game = new(client, "yams", "Ali")
    refusal = send(client, game, 422, type="abandon", **extra)
    assert refusal["reason"] in ("no-such-action", "bad-request")
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_the_unfinished_games_are_listed_page_by_page(client: TestClient) -> None:
    games = [new(client, "yams", f"P{i}") for i in range(5)]
    send(client, games[2], type="abandon")
    latest = [g["id"] for g in reversed(games) if g is not games[2]]
    pages = [listed(client, f"?finished=false&limit=2&offset={n}") for n in (0, 2, 4)]
    assert pages == [latest[:2], latest[2:], []]
    assert listed(client, "?limit=3") == latest[:3]
    response = client.get("/api/games?offset=-1")
    assert (response.status_code, response.json()["reason"]) == (422, "bad-request")
