"""The budget of actions: a client playing faster than any table plays (a script growing a
log without end) is refused 429 in words, the game as it was, per device and per address;
a person, or a table of computers on the fast pace, never meets it."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import Clock, new
from zar.i18n import text
from zar.server import create_app
from zar.server.limits import ACTION_RATES, Rate
from zar.store import SqliteStore

Game = dict[str, Any]
HERE, THERE = ("192.0.2.1", 4000), ("192.0.2.2", 4000)


def serve(
    store: SqliteStore, clock: Clock, rates: Mapping[str, Rate] | None = ACTION_RATES
) -> FastAPI:
    """The app, its dice falling 1 2 3 4 6 6 at each throw (a 1 to set aside), undos
    unlimited: only the budget of actions is at play."""
    dice = ScriptedDice()
    dice.script(*(1, 2, 3, 4, 6, 6) * 50)
    return create_app(
        store,
        dice=dice,
        games_per_minute=None,
        undo_rates=None,
        action_rates=rates,
        monotonic=clock,
    )


def send(client: TestClient, game: Game, lang: str = "en", **intent: Any) -> Any:
    """An intention on the game's version: the reply."""
    body = {"version": game["version"], **intent}
    return client.post(f"/api/games/{game['id']}/actions?lang={lang}", json=body)


def played(client: TestClient, game: Game, actions: int) -> Game:
    """``actions`` more actions, each taken: the first throw, then the 1 set aside and
    undone, over and over (the log grows, the state stays)."""
    for _ in range(actions):
        if game["version"] == 0:
            intent = {"type": "throw"}
        elif game["can_undo"]:
            intent = {"type": "undo"}
        else:
            intent = {"type": "set_aside", "set_aside": [0]}
        reply = send(client, game, **intent)
        assert reply.status_code == 200, reply.text
        game = reply.json()
    return game


def scoring(game: Game) -> list[int]:
    """The places of a selection of the throw that scores."""
    mask = next(int(m) for m, worth in game["selections"].items() if "points" in worth)
    return [p for p in range(6) if mask >> p & 1]


def stored(db: Path) -> list[str]:
    """Every row of every table of the store, as SQL."""
    with sqlite3.connect(db) as connection:
        return list(connection.iterdump())


def test_a_device_past_its_budget_is_refused_in_words_and_the_game_is_unchanged(
    store: SqliteStore, db: Path, clock: Clock
) -> None:
    app = serve(store, clock, {"device": Rate(5, 2.0), "address": Rate(100, 50.0)})
    with TestClient(app, client=HERE) as script, TestClient(app, client=HERE) as other:
        game = played(script, new(script, "10000", "Ali"), 5)
        before = stored(db)
        for lang in ("tr", "fr", "en"):
            refused = send(script, game, lang, type="set_aside", set_aside=[0])
            assert refused.status_code == 429
            assert refused.headers["retry-after"] == "1"
            assert refused.json() == {
                "detail": text(lang, "too-many-actions", seconds=1),
                "reason": "too-many-actions",
            }
        assert len({text(lang, "too-many-actions", seconds=1) for lang in ("tr", "fr", "en")}) == 3
        assert stored(db) == before
        assert script.get(f"/api/games/{game['id']}?lang=en").json() == game
        # Another device, from the same address, plays on; so does the script half a second
        # later, one action (the bucket fills at two a second), then it waits again.
        played(other, new(other, "10000", "Ece"), 5)
        clock.now += 0.5
        game = played(script, game, 1)
        assert send(script, game, type="undo").json()["reason"] == "too-many-actions"


def test_an_address_past_its_budget_is_refused_and_another_address_is_not(
    store: SqliteStore, db: Path, clock: Clock
) -> None:
    """Credentials are free: a script spreading its actions over devices is held by its
    address; a client of another address plays on."""
    app = serve(store, clock, {"device": Rate(5, 1.0), "address": Rate(8, 1.0)})
    with TestClient(app, client=HERE) as first, TestClient(app, client=HERE) as second:
        played(first, new(first, "10000", "Ali"), 5)
        game = played(second, new(second, "10000", "Ali"), 3)  # 8 from this address
        before = stored(db)
        refused = send(second, game, type="set_aside", set_aside=[0])
        assert refused.status_code == 429
        assert refused.json()["reason"] == "too-many-actions"
        assert stored(db) == before
    with TestClient(app, client=THERE) as elsewhere:
        played(elsewhere, new(elsewhere, "10000", "Ali"), 5)


def test_only_an_action_taken_counts(store: SqliteStore, clock: Clock) -> None:
    """An action the rules refuse, a stale one, one of another device's seat: none counts."""
    app = serve(store, clock, {"device": Rate(2, 1.0)})
    with TestClient(app) as client, TestClient(app) as stranger:
        game = new(client, "10000", "Ali")
        for _ in range(5):
            assert send(client, game, type="bank").status_code == 422  # nothing to bank
            assert send(client, {**game, "version": 3}, type="throw").status_code == 409
            assert send(stranger, game, type="throw").status_code == 403
        played(client, game, 2)


def step(game: Game) -> dict[str, Any]:
    """The next intention at a table of Ali and the computer: the computer's step, else
    Ali's (a selection that scores, a bank past 300 points, a throw)."""
    if game["players"][game["seat"]]["computer"]:
        return {"type": "computer"}
    if game["phase"] == "set-aside":
        return {"type": "set_aside", "set_aside": scoring(game)}
    return {"type": "bank"} if game["turn_points"] >= 300 else {"type": "throw"}


def test_the_computers_steps_count_and_a_fast_table_never_meets_the_budget(
    store: SqliteStore, clock: Clock
) -> None:
    """A person and the computer at the fast pace, a step every 150 ms whoever plays (a
    table plays one seat at a time, however many computers it has): hundreds of actions,
    never refused. The same steps at once are refused past the device's bucket."""
    app = serve(store, clock)
    with TestClient(app) as client:
        game = new(client, "10000", "Ali", computer=True)
        for _ in range(3 * ACTION_RATES["device"].burst):
            if game["over"]:
                game = new(client, "10000", "Ali", computer=True)
            reply = send(client, game, **step(game))
            assert reply.status_code == 200, reply.text
            game = reply.json()
            clock.now += 0.15
        taken = 0
        while (reply := send(client, game, **step(game))).status_code == 200:
            game = reply.json()
            taken += 1
            if game["over"]:
                game = new(client, "10000", "Ali", computer=True)
        assert reply.json()["reason"] == "too-many-actions"
        assert taken == ACTION_RATES["device"].burst


@pytest.mark.parametrize("rates", [None])
def test_no_budget_when_the_app_is_told_so(
    store: SqliteStore, clock: Clock, rates: Mapping[str, Rate] | None
) -> None:
    with TestClient(serve(store, clock, rates)) as client:
        played(client, new(client, "10000", "Ali"), ACTION_RATES["device"].burst + 10)
