"""The statistics over HTTP read the figures each finished game kept when it ended: the
same answer as when every game was replayed at every request, its CSV the same, an
abandoned game or one in play nowhere; figures missing or of an older version are worked
out again from the log, and kept. Each game's luck account is kept after its end, the
statistics' luck means are those of the accounts, a game without its account yet stays out
of them alone, and the slow pass fills an old game's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from history_support import replayed_stats, without_luck
from server.api_support import act, settle
from zar.ai.coach import Strategies
from zar.ai.luck import account
from zar.dice import SeededDice
from zar.history import FIGURES_VERSION, figures, stats_csv
from zar.server import create_app
from zar.server.accounts import account_process
from zar.store import SqliteStore

Game = dict[str, Any]


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    # Whole games played as fast as the test goes, from one device: no budget of actions.
    app = create_app(store, dice=SeededDice(11), games_per_minute=None, action_rates=None)
    with TestClient(app) as c:
        yield c


STRATEGIES = Strategies()  # the same tables as the server's: each built once


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
    # Each kept its figures with the append that ended it, as a replay works them out, and
    # then again with its luck account.
    settle(client)
    kept = dict(
        store.finished_figures("yams", limit=10) + store.finished_figures("10000", limit=10)
    )
    assert kept == {
        g["id"]: figures(r, account(r, STRATEGIES)) for g, r in zip(finished, records, strict=True)
    }
    assert in_play["id"] not in kept
    for game in ("yams", "10000"):
        expected = json.loads(
            json.dumps(replayed_stats(game, [store.load(in_play["id"]), *records]))
        )
        found = client.get(f"/api/stats?game={game}").json()
        assert without_luck(found) == expected
        assert client.get(f"/api/stats/export?game={game}").json() == found
        csv = client.get(f"/api/stats/export?game={game}&format=csv")
        assert csv.text == stats_csv(found)
    assert {p["name"] for p in client.get("/api/stats?game=10000").json()["players"]} == {
        "Ali", "Ece", "IA",
    }  # fmt: skip


def test_figures_missing_or_older_are_worked_out_again_and_kept(
    client: TestClient, store: SqliteStore
) -> None:
    games = [played(client, "yams", "Ali"), played(client, "yams", "Ece")]
    before = client.get("/api/stats?game=yams").json()
    db = store._file.db  # behind the store's back: as a game stored by an older Zar, or a restore
    db.execute("UPDATE games SET figures = NULL WHERE id = ?", (games[0]["id"],))
    older = {"version": FIGURES_VERSION - 1, "game": "yams", "seats": []}
    db.execute("UPDATE games SET figures = ? WHERE id = ?", (json.dumps(older), games[1]["id"]))
    assert without_luck(client.get("/api/stats?game=yams").json()) == without_luck(before)
    # The statistics kept them without the account, left to the slow pass: one pass here.
    app: Any = client.app
    assert client.portal is not None
    client.portal.call(lambda: app.state.games.accounts.sweep(idle=0, pace=0))
    kept = dict(store.finished_figures("yams", limit=10))
    assert kept == {
        g["id"]: figures(r, account(r, STRATEGIES)) for g in games for r in [store.load(g["id"])]
    }


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


def test_the_luck_account_kept_at_a_games_end_is_its_account_and_the_means_are_theirs(
    client: TestClient, store: SqliteStore
) -> None:
    games = [played(client, "yams", "Ali"), played(client, "yams", "Ali", "Ece")]
    settle(client)
    accounts = [account(store.load(g["id"]), STRATEGIES) for g in games]
    kept = dict(store.finished_figures("yams", limit=10))
    for game, own in zip(games, accounts, strict=True):
        seats = kept[game["id"]]["seats"]  # type: ignore[index]
        assert [{k: s[k] for k in ("luck", "cost", "decisions", "unit")} for s in seats] == [
            {k: a[k] for k in ("luck", "cost", "decisions", "unit")} for a in own
        ]
    found = client.get("/api/stats?game=yams").json()
    assert (found["accounted"], found["unit"]) == (2, "points")
    rows = {row["name"]: row for row in found["players"]}
    for name in ("Ali", "Ece", "IA"):
        mine = [a for own in accounts for a in own if a["name"] == name]
        assert rows[name]["luck_games"] == len(mine)
        assert rows[name]["mean_luck"] == pytest.approx(sum(a["luck"] for a in mine) / len(mine))
        assert rows[name]["mean_cost"] == pytest.approx(sum(a["cost"] for a in mine) / len(mine))
        assert found["cost_per_decision"][name] == pytest.approx(
            [a["cost"] / a["decisions"] for a in mine if a["decisions"]]
        )  # oldest first
    csv = client.get("/api/stats/export?game=yams&format=csv").text
    assert csv.splitlines()[0].endswith("luck_games,mean_luck,mean_cost")


def test_zar_serve_works_the_accounts_out_in_a_process_of_their_own(store: SqliteStore) -> None:
    """As ``zar serve`` does: the accounts in another process (not a thread holding the
    interpreter's lock against the event loop), the same figures kept."""
    app = create_app(
        store,
        dice=SeededDice(11),
        games_per_minute=None,
        action_rates=None,
        account_process=account_process(),
    )
    with TestClient(app) as client:
        game = played(client, "10000", "Ali", computer=True)
        settle(client)
        record = store.load(game["id"])
        kept = dict(store.finished_figures("10000", limit=10))[game["id"]]
        assert kept == figures(record, account(record, STRATEGIES))


def test_a_game_without_its_account_yet_counts_everywhere_but_in_the_luck_means(
    client: TestClient, store: SqliteStore
) -> None:
    games = [played(client, "yams", "Ali"), played(client, "yams", "Ali")]
    settle(client)
    first = store.load(games[0]["id"])
    db = store._file.db  # as though the second game's account were still being worked out
    db.execute(
        "UPDATE games SET figures = ? WHERE id = ?",
        (json.dumps(figures(store.load(games[1]["id"]))), games[1]["id"]),
    )
    found = client.get("/api/stats?game=yams").json()
    ali = next(row for row in found["players"] if row["name"] == "Ali")
    assert (ali["games"], ali["luck_games"], found["accounted"]) == (2, 1, 1)
    own = next(a for a in account(first, STRATEGIES) if a["name"] == "Ali")
    assert ali["mean_luck"] == pytest.approx(own["luck"])
    assert ali["mean_cost"] == pytest.approx(own["cost"])


def test_the_slow_pass_fills_the_account_of_a_game_kept_without_it(
    client: TestClient, store: SqliteStore
) -> None:
    game = played(client, "10000", "Ali")
    settle(client)
    record = store.load(game["id"])
    older = {"version": FIGURES_VERSION - 1, "game": "10000", "seats": []}
    db = store._file.db  # as a game kept by an older Zar
    db.execute("UPDATE games SET figures = ? WHERE id = ?", (json.dumps(older), game["id"]))
    app: Any = client.app
    assert client.portal is not None
    kept = client.portal.call(lambda: app.state.games.accounts.sweep(idle=0, pace=0))
    assert kept == 1
    assert dict(store.finished_figures("10000", limit=10))[game["id"]] == figures(
        record, account(record, STRATEGIES)
    )
    assert client.get("/api/stats?game=10000").json()["accounted"] == 1
