"""Undo over HTTP: what it costs at any length of the log, and a client undoing in a loop
slowed alone (429 in words, the game as it was), while a person never meets the limit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from record_support import counting
from server.api_support import Clock, new
from zar import farkle
from zar.i18n import text
from zar.record import Action, Undo
from zar.server import create_app
from zar.server.limits import UNDO_RATES, Rate
from zar.server.views import summary
from zar.store import SqliteStore

Game = dict[str, Any]


def serve(
    store: SqliteStore, clock: Clock, rates: Mapping[str, Rate] | None = UNDO_RATES
) -> FastAPI:
    """The app, its dice falling 1 2 3 4 6 6 at each throw (a 1 to set aside, then more)."""
    dice = ScriptedDice()
    dice.script(*(1, 2, 3, 4, 6, 6) * 50)
    return create_app(store, dice=dice, games_per_minute=None, undo_rates=rates, monotonic=clock)


def send(client: TestClient, game: Game, **intent: Any) -> Any:
    """An intention on the game's version: the reply."""
    body = {"version": game["version"], **intent}
    return client.post(f"/api/games/{game['id']}/actions?lang=en", json=body)


def thrown(client: TestClient) -> Game:
    """A new 10 000 game of Ali's, its first throw made: a 1 to set aside."""
    reply = send(client, new(client, "10000", "Ali"), type="throw")
    assert reply.status_code == 200, reply.text
    game: Game = reply.json()
    return game


def loop(client: TestClient, game: Game) -> tuple[Game, Any]:
    """The 1 set aside, then undone: the game after the set aside, and the undo's reply."""
    aside = send(client, game, type="set_aside", set_aside=[0])
    assert aside.status_code == 200, aside.text
    game = aside.json()
    return game, send(client, game, type="undo")


def looped(client: TestClient, game: Game, times: int) -> Game:
    """``times`` loops of set aside and undo, each undo taken."""
    for _ in range(times):
        game, undo = loop(client, game)
        assert undo.status_code == 200, undo.text
        game = undo.json()
    return game


def test_a_looping_client_is_slowed_and_the_game_stays_as_it_was(
    store: SqliteStore, clock: Clock
) -> None:
    app = serve(store, clock)
    burst = UNDO_RATES["game"].burst
    with TestClient(app) as looper, TestClient(app) as other:
        game = looped(looper, thrown(looper), burst)
        aside, refused = loop(looper, game)  # the set aside taken, its undo not
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "1"
        assert refused.json() == {
            "detail": text("en", "too-many-undos", seconds=1),
            "reason": "too-many-undos",
        }
        url = f"/api/games/{game['id']}?lang=en"
        assert looper.get(url).json() == aside
        assert store.load(game["id"]).version == aside["version"] == 2 * burst + 2
        assert store.load(game["id"]).last_move == farkle.SetAside(0, (0,))
        # Another device's game, from the same address, is not slowed; nor the looper's
        # own other game.
        looped(other, thrown(other), 3)
        looped(looper, thrown(looper), 3)
        # A second later, the game may undo once more, then waits again.
        clock.now += 1
        again = send(looper, aside, type="undo")
        assert again.status_code == 200, again.text
        assert loop(looper, again.json())[1].status_code == 429


def test_the_device_and_the_address_are_slowed_too(store: SqliteStore, clock: Clock) -> None:
    """A looper that spreads its undos over games is slowed as a device; over devices
    (credentials are free), as an address; another address is not."""
    app = serve(
        store, clock, {"game": Rate(3, 1.0), "device": Rate(5, 1.0), "address": Rate(8, 1.0)}
    )
    here, there = ("192.0.2.1", 4000), ("192.0.2.2", 4000)
    with TestClient(app, client=here) as first, TestClient(app, client=here) as second:
        one, two = thrown(first), thrown(first)
        one = looped(first, one, 3)
        assert loop(first, one)[1].json()["reason"] == "too-many-undos"  # the game's
        two = looped(first, two, 2)
        assert loop(first, two)[1].json()["reason"] == "too-many-undos"  # the device's
        three = looped(second, thrown(second), 3)  # 8 from this address
        assert loop(second, three)[1].json()["reason"] == "too-many-undos"  # the address's
    with TestClient(app, client=there) as elsewhere:
        looped(elsewhere, thrown(elsewhere), 3)


def test_only_an_undo_taken_counts(store: SqliteStore, clock: Clock) -> None:
    """An undo the rules refuse (nothing to undo), a stale one, a watcher's: none counts."""
    app = serve(store, clock, {"game": Rate(2, 1.0)})
    with TestClient(app) as client:
        game = thrown(client)
        for _ in range(5):
            assert send(client, game, type="undo").json()["reason"] == "nothing-to-undo"
            assert send(client, {**game, "version": 0}, type="undo").status_code == 409
        looped(client, game, 2)


def test_a_person_never_meets_the_limit(store: SqliteStore, clock: Clock) -> None:
    """A whole turn walked back and played again, five times over a few seconds: the bank,
    then the dice set aside, undone each time."""
    with TestClient(serve(store, clock)) as client:
        game = thrown(client)
        for _ in range(5):
            aside = send(client, game, type="set_aside", set_aside=[0]).json()
            banked = send(client, aside, type="bank").json()
            assert banked["seat"] == 0  # alone at the table: Ali throws again
            back = send(client, banked, type="undo")
            assert back.status_code == 200, back.text
            game = send(client, back.json(), type="undo").json()
            assert game["turn_points"] == 0
            clock.now += 1


def test_no_limit_when_the_app_is_told_so(store: SqliteStore, clock: Clock) -> None:
    with TestClient(serve(store, clock, None)) as client:
        looped(client, thrown(client), UNDO_RATES["game"].burst * 2)


def test_an_undo_costs_as_many_moves_at_10000_entries_as_at_10(
    store: SqliteStore, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The moves the engine applies for a set aside and its undo, with the views they send
    back: the same at the log's 10 000th entry as at its 10th."""
    app = serve(store, clock, None)
    costs = []
    with TestClient(app) as client:
        for entries in (10, 10_000):
            game = thrown(client)
            loops: list[Action] = [farkle.SetAside(0, (0,)), Undo(0)] * ((entries - 2) // 2)
            record = store.load(game["id"])
            for action in loops:
                record = record.append(action)
            store.append(
                game["id"], 1, loops, "2026-01-01T00:00:00+00:00",
                finished=False, summary=summary(record),
            )  # fmt: skip
            app.state.games.changed(None, 0)  # what is cached is read again
            game = client.get(f"/api/games/{game['id']}").json()
            assert game["version"] == entries - 1
            applied = counting(monkeypatch)
            game, undo = loop(client, game)
            assert undo.status_code == 200, undo.text
            assert undo.json()["version"] == entries + 1
            costs.append(applied[0])
            monkeypatch.undo()
    assert costs[0] == costs[1], costs
