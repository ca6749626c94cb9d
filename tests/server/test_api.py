"""The JSON API in-process: every intention, every refusal, and nothing changed by a refusal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import new
from zar.server import create_app
from zar.store import SqliteStore


@pytest.fixture
def client(db: Path, dice: ScriptedDice) -> Iterator[TestClient]:
    store = SqliteStore(db)
    with TestClient(create_app(store, dice=dice)) as c:
        yield c
    store.close()


def act(
    client: TestClient, game: dict[str, Any], status: int = 200, **intent: Any
) -> dict[str, Any]:
    """Send an intention on the game's version; a refusal must leave the game as it was."""
    before = client.get(f"/api/games/{game['id']}").json()
    body = {"version": game["version"], **intent}
    response = client.post(f"/api/games/{game['id']}/actions", json=body)
    assert response.status_code == status, response.text
    result: dict[str, Any] = response.json()
    if status != 200:
        assert result["detail"]
        after = client.get(f"/api/games/{game['id']}").json()
        assert after == before
    return result


# New games


def test_new_yams_game_with_the_computer(client: TestClient) -> None:
    game = new(client, "yams", "Ali", "Ayşe", computer=True)
    assert [p["name"] for p in game["players"]] == ["Ali", "Ayşe", "IA"]
    assert game["players"][2]["computer"] is True
    assert game["version"] == 0
    assert game["round"] == 1
    assert game["throws_left"] == 3
    assert game["autofill"] == 3
    assert all(v is None for v in game["cards"][0]["boxes"].values())


@pytest.mark.parametrize(
    ("lang", "computer", "refused"),
    [
        ("tr", "IA", "IA bilgisayarın adı: bu oyuncuya başka bir ad verin"),
        ("fr", "IA", "IA est le nom de l'ordinateur : donnez un autre nom à ce joueur"),
        ("en", "Computer", "Computer is the computer's name: give this player another name"),
    ],
)
def test_the_computers_name_is_its_own(
    client: TestClient, lang: str, computer: str, refused: str
) -> None:
    """The computer is "IA" in Turkish and French (the seeds'), "Computer" in English; a
    person may be called anything else, and is told so."""
    body = {"game": "yams", "players": ["Ali"], "computer": True}
    game = client.post(f"/api/games?lang={lang}", json=body).json()
    assert [p["name"] for p in game["players"]] == ["Ali", computer]
    body["players"] = [computer.lower()]
    response = client.post(f"/api/games?lang={lang}", json=body)
    assert response.status_code == 422
    assert response.json() == {"detail": refused, "reason": "computer-name"}
    alone = client.post(f"/api/games?lang={lang}", json={"game": "yams", "players": [computer]})
    assert alone.status_code == 201  # no computer at the table: the name is free


def test_a_game_shows_the_computer_by_its_name_in_the_screens_language(
    client: TestClient,
) -> None:
    """A game started in Turkish stores "IA"; an English screen shows "Computer", a French
    one "IA" again; the stored name stays."""
    game = new(client, "yams", "Ali", computer=True)
    url = f"/api/games/{game['id']}"
    shown = {
        lang: [p["name"] for p in client.get(f"{url}?lang={lang}").json()["players"]]
        for lang in ("tr", "fr", "en")
    }
    assert shown == {"tr": ["Ali", "IA"], "fr": ["Ali", "IA"], "en": ["Ali", "Computer"]}
    log = client.get(f"/api/games/{game['id']}/log?lang=en").json()
    assert log["players"] == ["Ali", "IA"]  # the game's own record, as stored


def test_new_10000_game_takes_its_target(client: TestClient) -> None:
    game = new(client, "10000", "Ali", target=5000)
    assert game["target"] == 5000
    assert game["dice_in_play"] == 6
    assert game["risk"] == pytest.approx(5 / 216)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        # No people is a table of computers alone: with none either, nobody plays.
        ({"game": "yams", "players": []}, "no-players"),
        ({"game": "yams", "players": [f"P{i}" for i in range(7)]}, "bad-request"),
        ({"game": "yams", "players": ["Ali", "ali"]}, "name-taken"),
        ({"game": "yams", "players": ["<b>x</b>\u0007"]}, "name-control"),
        ({"game": "yams", "players": [" "]}, "name-empty"),
        ({"game": "10000", "players": ["Ali"], "target": 7000}, "bad-request"),
        ({"game": "chess", "players": ["Ali"]}, "bad-request"),
        ({"game": "yams", "players": ["Ali"], "computer": True, "level": "god"}, "bad-level"),
        ({"game": "yams", "players": ["Ali"], "cheat": True}, "bad-request"),
        ({"game": "yams", "players": ["Ali"], "autofill": 1}, "bad-request"),
    ],
)
def test_a_bad_new_game_is_a_422_in_the_players_language(
    client: TestClient, body: dict[str, Any], reason: str
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert response.json()["reason"] == reason
    assert client.get("/api/games").json() == []


def test_messages_follow_the_language(client: TestClient) -> None:
    body = {"game": "yams", "players": ["Ali", "Ali"]}
    tr = client.post("/api/games", json=body).json()["detail"]
    en = client.post("/api/games?lang=en", json=body).json()["detail"]
    fr = client.post("/api/games", json=body, headers={"accept-language": "fr-FR,fr;q=0.9"})
    assert tr == "İki oyuncu aynı adı taşıyor: Ali"
    assert en == "Two players are called Ali"
    assert fr.json()["detail"] == "Deux joueurs s'appellent Ali"


def test_a_malformed_body_is_a_422(client: TestClient) -> None:
    response = client.post(
        "/api/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["reason"] == "bad-request"


def test_an_unknown_game_is_a_404(client: TestClient) -> None:
    assert client.get("/api/games/nope").status_code == 404
    response = client.post("/api/games/nope/actions", json={"version": 0, "type": "throw"})
    assert response.status_code == 404
    assert response.json()["detail"] == "Böyle bir oyun yok"


# Yams


def test_yams_throw_keep_and_write(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "yams", "Ali")
    dice.script(1, 1, 3, 4, 6)
    game = act(client, game, type="throw")
    assert game["dice"] == [1, 1, 3, 4, 6]
    assert game["kept"] == []
    assert game["options"]["ONES"] == 2
    assert game["options"]["FULL_HOUSE"] == 0  # Y-1
    dice.script(1, 1, 2)
    game = act(client, game, type="throw", keep=[0, 1])
    assert game["dice"] == [1, 1, 1, 1, 2]
    assert game["kept"] == [0, 1]  # every screen marks them kept, the computer's too
    game = act(client, game, type="fill", box="ONES")
    assert game["kept"] == []
    assert game["cards"][0]["boxes"]["ONES"] == 4
    assert game["events"][0] == {"type": "filled", "seat": 0, "box": "ONES", "points": 4,
                                 "penta_bonus": 0, "upper_bonus": False}  # fmt: skip
    assert game["round"] == 2
    assert game["dice"] == []


def test_yams_refusals(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "yams", "Ali")
    assert act(client, game, 422, type="fill", box="ONES")["reason"] == "throw-first"
    assert act(client, game, 422, type="throw", keep=[0])["reason"] == "keep-before-throw"
    game = act(client, game, type="throw")
    assert act(client, game, 422, type="fill", box="NOPE")["reason"] == "no-such-box"
    assert act(client, game, 422, type="throw", keep=[5])["reason"] == "no-such-die"
    assert act(client, game, 422, type="throw", keep=[0, 0])["reason"] == "die-twice"
    assert act(client, game, 422, type="autofill")["reason"] == "autofill-too-early"
    assert act(client, game, 422, type="bank")["reason"] == "no-such-action"
    assert act(client, game, 422, type="throw", set_aside=[0])["reason"] == "no-such-action"
    assert act(client, game, 422, type="computer")["reason"] == "not-computer-turn"
    game = act(client, game, type="throw")
    game = act(client, game, type="throw")
    refusal = act(client, game, 422, type="throw")
    assert refusal["reason"] == "no-throws-left"
    assert refusal["detail"] == "Bir turda en fazla 3 atış var: bir kutu seçin"
    game = act(client, game, type="fill", box="CHANCE")
    game = act(client, game, type="throw")
    assert act(client, game, 422, type="fill", box="CHANCE")["detail"] == "Şans kutusu zaten dolu"


def test_auto_fill_is_refused_where_the_game_has_it_off(client: TestClient) -> None:
    """The game's settings hold on every intention: after the third throw of a game whose
    auto-fill is off, an auto-fill asked for anyway is refused (it would write the expert's
    box), in words, the game as it was."""
    game = new(client, "yams", "Ali", autofill=None)
    for _ in range(3):
        game = act(client, game, type="throw")
    refusal = act(client, game, 422, type="autofill")
    assert refusal["reason"] == "autofill-off"
    assert refusal["detail"] == "Bu oyunda otomatik doldurma kapalı"
    assert client.get(f"/api/games/{game['id']}").json() == game
    on = new(client, "yams", "Ali")  # the default: 3 s
    for _ in range(3):
        on = act(client, on, type="throw")
    assert act(client, on, type="autofill")["version"] == on["version"] + 1


def test_yams_joker_forced_box_and_sacrifice_message(
    client: TestClient, dice: ScriptedDice
) -> None:
    game = new(client, "yams", "Ali")
    dice.script(4, 4, 4, 4, 4)
    game = act(client, game, type="throw")
    game = act(client, game, type="fill", box="PENTA")
    dice.script(4, 4, 4, 4, 4)
    game = act(client, game, type="throw")
    assert game["options"] == {"FOURS": 20}  # Y-2: the Joker's forced box alone
    refusal = act(client, game, 422, type="fill", box="CHANCE")
    assert refusal["detail"] == "Joker: bu Penta Dört kutusuna yazılmak zorunda"
    game = act(client, game, type="fill", box="FOURS")
    assert game["cards"][0]["penta_bonus"] == 100
    assert game["cards"][0]["total"] == 170


def test_yams_autofill_after_the_third_throw(client: TestClient) -> None:
    game = new(client, "yams", "Ali", autofill=10)
    for _ in range(3):
        game = act(client, game, type="throw")
    game = act(client, game, type="autofill")
    assert game["events"][0]["type"] == "filled"
    assert game["round"] == 2


def test_yams_computer_steps_until_the_turn_passes(client: TestClient) -> None:
    game = new(client, "yams", "Ali", computer=True)
    game = act(client, game, type="throw")
    game = act(client, game, type="fill", box="CHANCE")
    assert game["seat"] == 1
    assert act(client, game, 422, type="throw")["reason"] == "computer-turn"
    steps = 0
    while game["seat"] == 1:
        game = act(client, game, type="computer")
        steps += 1
    assert 2 <= steps <= 4  # one to three throws and a box
    assert sum(v is not None for v in game["cards"][1]["boxes"].values()) == 1


# 10 000


def test_10000_refused_die_says_why_and_stays(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "10000", "Ali")
    dice.script(2, 5, 1, 3, 1, 4)
    game = act(client, game, type="throw")
    assert game["refusals"] == {
        "0": "Tek başına 2 puan getirmiyor",
        "3": "Tek başına 3 puan getirmiyor",
        "5": "Tek başına 4 puan getirmiyor",
    }
    assert game["selections"][str(0b10110)] == {"points": 250}
    refusal = act(client, game, 422, type="throw", set_aside=[0, 2])
    assert refusal["detail"] == "Tek başına 2 puan getirmiyor"
    assert act(client, game, 422, type="bank")["reason"] == "set-aside-first"
    assert act(client, game, 422, type="throw", keep=[0])["reason"] == "no-such-action"
    dice.script(1, 2, 3)
    game = act(client, game, type="throw", set_aside=[1, 2, 4])
    assert game["turn_points"] == 250
    assert [d["aside"] for d in game["tray"]] == [False, True, True, False, True, False]
    assert game["dice_in_play"] == 3


def test_10000_lost_turn_hot_dice_and_bank(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "10000", "Ali", "Ece")
    dice.script(1, 1, 1, 5, 5, 5)
    game = act(client, game, type="throw")
    dice.script(1, 2, 3, 4, 5, 6)
    game = act(client, game, type="throw", set_aside=[0, 1, 2, 3, 4, 5])
    assert game["messages"] == []  # hot dice was the set-aside's event, then a new throw
    assert game["hot_dice"] is True  # ... and still holds: the six came back hot
    assert game["turn_points"] == 1500
    game = act(client, game, type="set_aside", set_aside=[0, 1, 2, 3, 4, 5])
    assert game["messages"] == ["Dés chauds ! — Sıcak zar: altısı yeniden atılabilir"]
    assert game["hot_dice"] is True
    assert game["can_bank"] is True
    game = act(client, game, type="bank")
    assert game["hot_dice"] is False
    assert game["totals"] == [4000, 0]
    assert game["seat"] == 1
    dice.script(2, 3, 4, 4, 6, 6)  # F-13
    game = act(client, game, type="throw")
    assert game["messages"] == ["Tour perdu ! — Tur kaybedildi"]
    assert game["events"][0] == {"type": "turn_lost", "seat": 1, "dice": [2, 3, 4, 4, 6, 6],
                                 "points": 0, "after_hot_dice": False}  # fmt: skip
    assert game["seat"] == 0
    # Hot dice thrown again at once, and nothing scores: both messages, the hot dice first.
    dice.script(1, 1, 1, 5, 5, 5)
    game = act(client, game, type="throw")
    dice.script(2, 3, 4, 4, 6, 6)
    game = act(client, game, type="throw", set_aside=[0, 1, 2, 3, 4, 5])
    assert game["events"][0]["after_hot_dice"] is True
    assert game["messages"] == [
        "Dés chauds ! — Sıcak zar: altısı yeniden atılabilir",
        "Tour perdu ! — Tur kaybedildi",
    ]
    assert game["seat"] == 1


def test_10000_last_round_and_winner(client: TestClient, dice: ScriptedDice) -> None:
    game = new(client, "10000", "Ali", "Ece", target=5000)
    for _ in range(2):
        dice.script(6, 6, 6, 6, 6, 6)
        game = act(client, game, type="throw")
        dice.script(6, 6, 6, 6, 6, 6)
        game = act(client, game, type="throw", set_aside=[0, 1, 2, 3, 4, 5])
        game = act(client, game, type="bank", set_aside=[0, 1, 2, 3, 4, 5])
        if game["seat"] == 1 and game["totals"][0] >= 5000:
            break
        dice.script(2, 3, 4, 4, 6, 6)
        game = act(client, game, type="throw")
    assert game["messages"] == ["Dernier tour ! — Son tur"]
    assert game["last_round_by"] == 0
    dice.script(2, 3, 4, 4, 6, 6)
    game = act(client, game, type="throw")
    assert game["over"] is True
    assert game["winners"] == [0]
    assert act(client, game, 422, type="throw")["reason"] == "game-over"


def test_10000_computer_plays_its_turn_step_by_step(client: TestClient) -> None:
    game = new(client, "10000", "Ali", computer=True, target=5000)
    dice_in_play = game["dice_in_play"]
    game = act(client, game, type="throw")
    while game["seat"] == 0 and game["phase"] == "set-aside":
        best = max(game["selections"].items(), key=lambda kv: kv[1].get("points", 0))[0]
        positions = [p for p in range(6) if int(best) >> p & 1]
        game = act(client, game, type="bank", set_aside=positions)
    steps = 0
    while game["seat"] == 1 and not game["over"]:
        game = act(client, game, type="computer")
        steps += 1
    assert steps >= 1
    assert dice_in_play == 6


# Versions, storage, the list of games


def test_a_stale_or_repeated_action_is_a_409_and_changes_nothing(client: TestClient) -> None:
    game = new(client, "yams", "Ali")
    moved = act(client, game, type="throw")
    refusal = act(client, game, 409, type="throw")  # the same tap again, on version 0
    assert refusal["version"] == 1
    assert refusal["reason"] == "stale-version"
    assert client.get(f"/api/games/{game['id']}").json() == moved


def test_games_come_back_after_a_restart(db: Path, dice: ScriptedDice) -> None:
    """A new server process on the same file finds every game where it was, mid-round."""
    store = SqliteStore(db)
    with TestClient(create_app(store, dice=dice)) as first:
        game = new(first, "yams", "Ali", computer=True)
        game = act(first, game, type="throw")
        game = act(first, game, type="throw", keep=[0, 1])
    store.close()
    store = SqliteStore(db)
    with TestClient(create_app(store, dice=dice), cookies=first.cookies) as second:  # one device
        assert second.get(f"/api/games/{game['id']}").json() == game
        listed = second.get("/api/games?finished=false").json()
        assert [g["id"] for g in listed] == [game["id"]]
        assert listed[0]["players"] == ["Ali", "IA"]
    store.close()


def test_the_list_holds_unfinished_and_finished_games(
    client: TestClient, dice: ScriptedDice
) -> None:
    playing = new(client, "yams", "Ali")
    done = new(client, "10000", "Ece", target=5000)
    dice.script(*([6] * 12))
    done = act(client, done, type="throw")
    done = act(client, done, type="bank", set_aside=list(range(6)))
    done = act(client, done, type="throw")
    done = act(client, done, type="bank", set_aside=list(range(6)))
    assert done["over"] is True
    unfinished = client.get("/api/games?finished=false").json()
    finished = client.get("/api/games?finished=true").json()
    assert [g["id"] for g in unfinished] == [playing["id"]]
    assert [g["id"] for g in finished] == [done["id"]]
    assert finished[0]["winners"] == [0]


def test_the_openapi_schema_describes_the_api(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    assert "/api/games/{game_id}/actions" in schema["paths"]
    assert "Intent" in schema["components"]["schemas"]


def test_security_headers(client: TestClient) -> None:
    headers = client.get("/api/games").headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "'unsafe-inline'" not in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"


def test_words_for_the_page(client: TestClient) -> None:
    words = client.get("/api/i18n/tr").json()
    assert words["boxes"]["SMALL_STRAIGHT"] == "Küçük seri"
    assert words["messages"]["bank"] == "Kasaya yatır"
    assert client.get("/api/i18n/de").status_code == 422


@pytest.mark.parametrize("path", ["/api/docs", "/docs", "/redoc", "/api/redoc"])
def test_no_page_is_served_that_the_content_security_policy_would_break(
    client: TestClient, path: str
) -> None:
    """FastAPI's viewers of the schema load their scripts from a CDN, which the page's CSP
    refuses: none is served (the schema is, for any viewer to open)."""
    reply = client.get(path)
    assert reply.status_code == 404
    assert reply.json()["reason"] == "not-found"
    assert client.get("/api/openapi.json").json()["info"]["title"] == "Zar"
