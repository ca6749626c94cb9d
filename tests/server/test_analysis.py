"""The coach and the history over HTTP: hints, undo, replays, reviews, progress, statistics,
exports; every refusal translated and changing nothing."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import act, yams_alone
from zar.ai.coach import Strategies
from zar.ai.farkle import WinStrategy
from zar.ai.review import review
from zar.ai.yams import Strategy
from zar.dice import SeededDice
from zar.server import create_app
from zar.store import SqliteStore

Game = dict[str, Any]


@pytest.fixture
def dice() -> ScriptedDice:
    """The faces a test names, then seeded ones."""
    return ScriptedDice(SeededDice(17))


@pytest.fixture
def client(
    store: SqliteStore, dice: ScriptedDice, solved: Callable[[str], Strategy], expert: WinStrategy
) -> Iterator[TestClient]:
    solved("standard")  # in the session's cache, for the server to read
    with TestClient(create_app(store, dice=dice, games_per_minute=None)) as c:
        yield c


def new(client: TestClient, game: str, *players: str, **options: Any) -> Game:
    response = client.post("/api/games", json={"game": game, "players": list(players), **options})
    assert response.status_code == 201, response.text
    result: Game = response.json()
    return result


def refused(client: TestClient, method: str, url: str, status: int, reason: str, **kw: Any) -> str:
    """A refusal with its reason, in Turkish unless asked otherwise; the game unchanged."""
    game_url = "/".join(url.split("?")[0].split("/")[:4])
    before = client.get(game_url).json() if url.startswith("/api/games/") else None
    response = client.request(method, url, **kw)
    assert response.status_code == status, response.text
    assert response.json()["reason"] == reason
    if before is not None and client.get(game_url).status_code == 200:
        assert client.get(game_url).json() == before
    detail: str = response.json()["detail"]
    return detail


# The coach's settings and the hint.


def test_the_coach_is_on_for_a_person_alone(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "yams", "Ali")
    assert (game["hints"], game["can_hint"], game["can_undo"]) == ([0], False, False)
    assert (game["replay"], game["at"]) == (False, None)
    dice.script(1, 2, 3, 4, 5)
    game = act(client, game, type="throw")
    assert game["can_hint"]
    assert set(game["notes"]) == set(game["options"])
    assert game["notes"]["LARGE_STRAIGHT"] == "Art arda 5 değer: 40"
    advice = client.get(f"/api/games/{game['id']}/hint?lang=en").json()
    assert advice["seat"] == 0
    assert advice["game"] == "yams"
    assert advice["decision"] == "keep"
    assert advice["options"][0]["box"] == "LARGE_STRAIGHT"
    assert {o["kind"] for o in advice["options"]} == {"box", "keep"}
    assert advice["text"].startswith("Write the dice in Large straight (40 points)")
    with_computer = new(client, "yams", "Ali", computer=True)
    assert with_computer["hints"] == [0]


def test_two_people_have_the_coach_off_unless_asked(client: TestClient) -> None:
    game = new(client, "yams", "Ali", "Ece")
    assert game["hints"] == []
    game = act(client, game, type="throw")
    assert not game["can_hint"]
    detail = refused(client, "GET", f"/api/games/{game['id']}/hint", 422, "no-hint")
    assert detail == "Koç bu oyuncu için kapalı"
    asked = new(client, "yams", "Ali", "Ece", hints=["Ece"])
    assert asked["hints"] == [1]
    before = client.get("/api/games").json()
    body = {"game": "yams", "players": ["Ali"], "hints": ["IA"], "computer": True}
    response = client.post("/api/games?lang=en", json=body)
    assert response.status_code == 422
    assert response.json() == {
        "detail": "The coach helps only the players at the table: IA is not one",
        "reason": "hints-not-players",
    }
    assert client.get("/api/games").json() == before


def test_no_hint_on_the_computers_turn(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "10000", "Ali", computer=True, level="seed", target=5_000)
    dice.script(2, 2, 3, 3, 4, 6)  # Ali loses the turn: the computer's
    game = act(client, game, type="throw")
    assert game["seat"] == 1
    assert not game["can_hint"]
    refused(client, "GET", f"/api/games/{game['id']}/hint", 422, "no-hint")


def test_the_10000_coach_against_one_opponent(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "10000", "Ali", "Ece", target=5_000, hints=["Ali", "Ece"])
    start = client.get(f"/api/games/{game['id']}/hint").json()
    assert start["decision"] == "throw"
    assert not game["can_hint"]
    dice.script(1, 1, 5, 2, 3, 4)
    game = act(client, game, type="throw")
    assert game["can_hint"]
    advice = client.get(f"/api/games/{game['id']}/hint?lang=en").json()
    assert advice["decision"] == "set_aside"
    assert 1 <= len(advice["options"]) <= 3
    assert all(0 < o["win"] < 1 for o in advice["options"])
    game = act(client, game, type="set_aside", set_aside=[0, 1])
    advice = client.get(f"/api/games/{game['id']}/hint").json()
    assert advice["decision"] == "bank_or_throw"
    assert {o["kind"] for o in advice["options"]} == {"bank", "throw"}
    throw = next(o for o in advice["options"] if o["kind"] == "throw")
    assert throw["risk"] == pytest.approx(game["risk"])
    assert "%" in advice["text"]
    alone = new(client, "10000", "Ali", target=5_000)
    dice.script(1, 1, 5, 2, 3, 4)
    alone = act(client, alone, type="throw")
    options = client.get(f"/api/games/{alone['id']}/hint").json()["options"]
    assert all(o["win"] is None for o in options)


# Undo, the log and replays.


def test_undo_takes_back_the_last_decisions_down_to_the_throw(
    client: TestClient, dice: ScriptedDice, store: SqliteStore
) -> None:
    game = new(client, "10000", "Ali", "Ece", target=5_000)
    dice.script(1, 5, 2, 3, 4, 6)
    thrown = act(client, game, type="throw")
    assert not thrown["can_undo"]
    banked = act(client, thrown, type="bank", set_aside=[0, 1])
    assert banked["version"] == 3
    assert banked["totals"] == [150, 0]
    assert banked["can_undo"]
    once = act(client, banked, type="undo")
    assert (once["version"], once["seat"], once["turn_points"]) == (4, 0, 150)
    assert once["totals"] == [0, 0]
    twice = act(client, once, type="undo")
    assert twice["phase"] == "set-aside"
    assert twice["tray"] == thrown["tray"]
    assert not twice["can_undo"]
    url = f"/api/games/{game['id']}/actions?lang=fr"
    body = {"version": twice["version"], "type": "undo"}
    detail = refused(client, "POST", url, 422, "nothing-to-undo", json=body)
    assert detail == "Aucune décision à annuler"
    refused(client, "POST", url, 409, "stale-version", json={"version": 3, "type": "undo"})
    log = client.get(f"/api/games/{game['id']}/log").json()
    assert (log["id"], log["game"], log["players"]) == (game["id"], "10000", ["Ali", "Ece"])
    assert [(e["version"], e["type"], e["undone"]) for e in log["entries"]] == [
        (1, "throw", False), (2, "set_aside", True), (3, "bank", True),
        (4, "undo", False), (5, "undo", False),
    ]  # fmt: skip
    assert log["entries"][1]["positions"] == [0, 1]
    assert all(e["seat"] == 0 for e in log["entries"])
    assert [e["at"] for e in log["entries"]] == store.times(game["id"])
    assert all(e["at"] for e in log["entries"])
    stored = store.load(game["id"])  # the undos went through the store as entries
    assert (stored.version, stored.undone) == (5, frozenset({2, 3}))
    assert stored.state.phase.value == twice["phase"]


def test_no_undo_after_the_computer_has_thrown(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "yams", "Ali", computer=True, level="easy")
    dice.script(6, 6, 6, 6, 6)
    game = act(client, game, type="throw")
    game = act(client, game, type="fill", box="PENTA")
    assert game["can_undo"]
    game = act(client, game, type="computer")
    assert not game["can_undo"]
    refused(
        client, "POST", f"/api/games/{game['id']}/actions", 422, "nothing-to-undo",
        json={"version": game["version"], "type": "undo"},
    )  # fmt: skip


def test_a_replay_shows_every_version_read_only(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "yams", "Ali")
    seen = [game]
    dice.script(2, 2, 2, 5, 5)
    for intent in ({"type": "throw"}, {"type": "fill", "box": "FULL_HOUSE"}, {"type": "undo"},
                   {"type": "fill", "box": "TWOS"}):  # fmt: skip
        seen.append(act(client, seen[-1], **intent))
    for version, live in enumerate(seen):
        shown = client.get(f"/api/games/{game['id']}?at={version}").json()
        assert (shown["replay"], shown["at"], shown["version"]) == (True, version, version)
        assert not shown["can_hint"]
        assert not shown["can_undo"]
        different = {"replay", "at", "can_hint", "can_undo", "you", "seats", "seating_rev"}
        assert {k: v for k, v in shown.items() if k not in different} == {
            k: v for k, v in live.items() if k not in different
        }
    detail = refused(client, "GET", f"/api/games/{game['id']}?at=5&lang=en", 422, "no-such-version")
    assert detail == "This game has steps 0 to 4"
    refused(client, "GET", f"/api/games/{game['id']}?at=-1", 422, "bad-request")


# After the game.


def test_a_finished_game_is_reviewed_as_the_coach_sees_it(
    client: TestClient, dice: ScriptedDice, store: SqliteStore, solved: Callable[[str], Strategy]
) -> None:
    game = new(client, "yams", "Ali")
    refused(client, "GET", f"/api/games/{game['id']}/review", 422, "not-finished")
    game = yams_alone(client)
    result = client.get(f"/api/games/{game['id']}/review?lang=en").json()
    (ali,) = result["players"]
    assert (ali["seat"], ali["name"], ali["unit"], ali["decisions"]) == (0, "Ali", "points", 13)
    assert (ali["model"], ali["account_unit"]) == ("points", "points")
    assert ali["total_cost"] > 0
    assert ali["mean_cost"] == pytest.approx(ali["total_cost"] / 13)
    assert 1 <= len(ali["worst"]) <= 3
    worst = ali["worst"][0]
    assert set(worst["board"]) == {"dice", "throws_left", "card", "options"}
    # What the dice would score in each open box, as the game showed it then.
    then = client.get(f"/api/games/{game['id']}?at={worst['version'] - 1}").json()
    assert worst["board"]["options"] == then["options"]
    assert all(worst["board"]["card"][box] is None for box in then["options"])
    assert worst["cost"] == max(decision["cost"] for decision in ali["worst"])
    # Luck and skill: the card's total is its start, plus the dice's luck, less the costs.
    assert ali["result"] == game["totals"][0]
    assert ali["start"] == pytest.approx(254.4848, abs=5e-5)
    assert ali["result"] == pytest.approx(ali["start"] + ali["luck"] - ali["total_cost"], abs=1e-9)
    assert ali["account_cost"] == ali["total_cost"]
    assert len(ali["values"]) == 26 + 1
    assert ali["luckiest"][0]["luck"] > 0 > ali["unluckiest"][0]["luck"]
    coach = review(store.load(game["id"]), Strategies(solved("standard")), "en")
    assert result == json.loads(json.dumps(coach))


def test_progress_statistics_and_exports(client: TestClient, dice: ScriptedDice) -> None:
    games = [yams_alone(client) for _ in range(2)]
    app: Any = client.app
    assert client.portal is not None
    client.portal.call(app.state.games.settled)  # the luck accounts kept: the figures settled
    progress = client.get(f"/api/games/{games[0]['id']}/progress").json()
    assert progress["players"] == ["Ali"]
    assert len(progress["turns"]) == 13
    assert progress["turns"][-1] == games[0]["totals"]
    figures = client.get("/api/stats?game=yams").json()
    assert figures["game"] == "yams"
    (ali,) = figures["players"]
    totals = [g["totals"][0] for g in games]
    assert (ali["name"], ali["games"], ali["wins"]) == ("Ali", 2, 2)
    assert ali["best_total"] == max(totals)
    assert figures["totals"] == {"Ali": totals}
    assert client.get("/api/stats?game=10000").json() == {
        "game": "10000", "rules": "seed", "players": [], "totals": {},
        "accounted": 0, "unit": "win", "cost_per_decision": {},
    }  # fmt: skip

    exported = client.get(f"/api/games/{games[0]['id']}/export")
    assert exported.headers["content-type"] == "application/json"
    name = f'attachment; filename="zar-yams-{games[0]["id"]}.json"'
    assert exported.headers["content-disposition"] == name
    data = exported.json()
    assert data["totals"] == games[0]["totals"]
    assert len(data["entries"]) == 26
    assert [e["luck"] is None for e in data["entries"]] == [False, True] * 13  # throws
    assert [e["cost"] is None for e in data["entries"]] == [True, False] * 13  # boxes
    rows = list(csv.DictReader(io.StringIO(
        client.get(f"/api/games/{games[0]['id']}/export?format=csv").text
    )))  # fmt: skip
    assert len(rows) == 27
    assert [row["luck"] for row in rows[:-1]] == [
        "" if e["luck"] is None else str(e["luck"]) for e in data["entries"]
    ]
    assert rows[-1]["total"] == str(games[0]["totals"][0])

    saved = client.get("/api/stats/export?game=yams&format=csv")
    assert saved.headers["content-type"].startswith("text/csv")
    assert saved.headers["content-disposition"] == 'attachment; filename="zar-stats-yams.csv"'
    (row,) = csv.DictReader(io.StringIO(saved.text))
    assert (row["name"], row["games"]) == ("Ali", "2")
    assert client.get("/api/stats/export?game=yams").json() == figures


@pytest.mark.parametrize("route", ["hint", "review", "log", "progress", "export"])
def test_an_unknown_game_is_a_404(client: TestClient, route: str) -> None:
    refused(client, "GET", f"/api/games/nothing/{route}", 404, "unknown-game")


@pytest.mark.parametrize(
    "url",
    ["/api/stats", "/api/stats?game=chess", "/api/stats/export?game=yams&format=xml"],
)
def test_a_bad_question_is_a_422(client: TestClient, url: str) -> None:
    refused(client, "GET", url, 422, "bad-request")
