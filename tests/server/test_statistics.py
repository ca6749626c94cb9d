"""The statistics over HTTP read the figures each finished game kept when it ended: the
same answer as when every game was replayed at every request, its CSV the same, an
abandoned game or one in play nowhere; figures missing or of an older version are worked
out again from the log, and kept."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from history_support import replayed_stats
from zar.dice import SeededDice
from zar.history import FIGURES_VERSION, figures, stats_csv
from zar.server import create_app
from zar.store import SqliteStore

Game = dict[str, Any]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(tmp_path / "zar.sqlite3")
    yield opened
    opened.close()


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    app = create_app(store, dice=SeededDice(11), games_per_minute=None)
    with TestClient(app) as c:
        yield c


def act(client: TestClient, game: Game, **intent: Any) -> Game:
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": game["version"], **intent}
    )
    assert response.status_code == 200, response.text
    result: Game = response.json()
    return result


def turn(client: TestClient, game: Game) -> Game:
    """One step of whoever is on turn: the computer's own; a person's plain play (Yams: throw
    once, write the first box offered; 10 000: set aside the most points, bank when it may)."""
    if game["players"][game["seat"]]["computer"]:
        return act(client, game, type="computer")
    if game["game"] == "yams":
        if not game["dice"]:
            return act(client, game, type="throw")
        return act(client, game, type="fill", box=next(iter(game["options"])))
    if game["phase"] != "set-aside":
        return act(client, game, type="throw")
    taken = [m for m, s in game["selections"].items() if "points" in s]
    best = max(taken, key=lambda m: (game["selections"][m]["points"], m))
    positions = [p for p in range(6) if int(best) >> p & 1]
    banked = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": game["version"], "type": "bank", "set_aside": positions},
    )
    if banked.status_code == 200:
        result: Game = banked.json()
        return result
    return act(client, game, type="throw", set_aside=positions)


def played(
    client: TestClient, kind: str, *names: str, steps: int | None = None, computer: bool = True
) -> Game:
    """A new game of ``names`` and the computer, played to its end (or ``steps`` steps)."""
    body: dict[str, Any] = {"game": kind, "players": list(names), "computer": computer}
    body |= {"level": "easy"} if kind == "yams" else {"target": 5_000}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    game: Game = response.json()
    done = 0
    while not game["over"] and (steps is None or done < steps):
        game = turn(client, game)
        done += 1
    return game


def test_the_statistics_answer_as_when_every_game_was_replayed(
    client: TestClient, store: SqliteStore
) -> None:
    finished = [
        played(client, "yams", "Ali"),
        played(client, "10000", "Ece", "Ali"),
        played(client, "yams", "Ece", "Ali"),
        played(client, "10000", "Ali"),
    ]
    in_play = played(client, "yams", "Ali", steps=4)
    left = act(client, played(client, "10000", "Can", steps=3), type="abandon")
    assert left["abandoned"]
    records = [store.load(g["id"]) for g in finished]
    # Each kept its figures with the append that ended it, as a replay works them out.
    kept = dict(
        store.finished_figures("yams", limit=10) + store.finished_figures("10000", limit=10)
    )
    assert kept == {g["id"]: figures(r) for g, r in zip(finished, records, strict=True)}
    assert in_play["id"] not in kept
    for game in ("yams", "10000"):
        expected = json.loads(
            json.dumps(replayed_stats(game, [store.load(in_play["id"]), *records]))
        )
        assert client.get(f"/api/stats?game={game}").json() == expected
        assert client.get(f"/api/stats/export?game={game}").json() == expected
        csv = client.get(f"/api/stats/export?game={game}&format=csv")
        assert csv.text == stats_csv(expected)
    assert {p["name"] for p in client.get("/api/stats?game=10000").json()["players"]} == {
        "Ali", "Ece", "IA",
    }  # fmt: skip


def test_figures_missing_or_older_are_worked_out_again_and_kept(
    client: TestClient, store: SqliteStore
) -> None:
    games = [played(client, "yams", "Ali"), played(client, "yams", "Ece")]
    before = client.get("/api/stats?game=yams").json()
    db = store._db  # behind the store's back: as a game stored by an older Zar, or a restore
    db.execute("UPDATE games SET figures = NULL WHERE id = ?", (games[0]["id"],))
    older = {"version": FIGURES_VERSION - 1, "game": "yams", "seats": []}
    db.execute("UPDATE games SET figures = ? WHERE id = ?", (json.dumps(older), games[1]["id"]))
    assert client.get("/api/stats?game=yams").json() == before
    kept = dict(store.finished_figures("yams", limit=10))
    assert kept == {g["id"]: figures(store.load(g["id"])) for g in games}


def test_a_game_undone_after_its_end_leaves_the_statistics_until_it_ends_again(
    client: TestClient,
) -> None:
    game = played(client, "yams", "Ali", computer=False)
    assert client.get("/api/stats?game=yams").json()["players"]
    game = act(client, game, type="undo")  # the last box

    assert not game["over"]
    assert client.get("/api/stats?game=yams").json()["players"] == []
    game = turn(client, game)
    assert game["over"]
    assert client.get("/api/stats?game=yams").json()["players"]
