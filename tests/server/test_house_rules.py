"""House rules over HTTP (docs/rules.md, "House rules"): the dialog's choices, a game of
each Yams preset started, played by a person and the computer to its end, its coach and
its review by the preset's own strategy; rules a game has not, refused in words, the store
unchanged."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import act, new
from zar.ai import computer_player
from zar.ai.yams import Strategy
from zar.ai.yams_win import calibration, late_laws
from zar.server import create_app
from zar.store import SqliteStore
from zar.yams import Rules, Scorecard

Game = dict[str, Any]


@pytest.fixture
def client(
    store: SqliteStore, solved: Callable[[str], Strategy], dice: ScriptedDice
) -> Iterator[TestClient]:
    for variant in ("standard", "official", "scandinavian"):
        solved(variant)  # in the session's cache, for the server to read
    with TestClient(create_app(store, dice=dice, games_per_minute=None)) as c:
        yield c


def test_the_dialog_offers_each_games_rules_the_seeds_first(client: TestClient) -> None:
    setup = client.get("/api/setup").json()
    assert setup["rules"]["yams"] == ["standard", "official", "free-joker", "scandinavian"]
    assert setup["default_rules"] == {"yams": "standard", "10000": setup["rules"]["10000"][0]}
    assert setup["rules_levels"]["yams"]["standard"] == ["easy", "expert", "win"]
    assert setup["rules_levels"]["yams"]["scandinavian"] == ["expert", "win"]
    assert setup["rules_levels"]["yams"]["official"] == ["expert", "win"]
    words = client.get("/api/i18n/tr").json()
    assert words["boxes"]["TWO_PAIRS"] == "Çifte çift"
    assert words["boxes"]["PENTA"] == "Penta"
    for name in setup["rules"]["yams"]:
        assert words["messages"][f"rules-yams-{name}"]


def play_to_the_end(client: TestClient, game: Game) -> Game:
    """Ali throws once a round and writes the first box offered; the computer plays its own."""
    while not game["over"]:
        if game["players"][game["seat"]]["computer"]:
            game = act(client, game, type="computer")
        elif not game["dice"]:
            game = act(client, game, type="throw")
        else:
            game = act(client, game, type="fill", box=next(iter(game["options"])))
    return game


@pytest.mark.parametrize("level", ["expert", "win"])
def test_a_game_of_scandinavian_yatzy_plays_fifteen_rounds_of_its_card(
    client: TestClient, solved: Callable[[str], Strategy], level: str
) -> None:
    game = new(client, "yams", "Ali", rules="scandinavian", computer=True, level=level)
    assert game["players"][1]["level"] == level
    assert (game["rules"], game["rounds"], game["upper_bonus"]) == ("scandinavian", 15, 50)
    assert list(game["cards"][0]["boxes"]) == [
        "ONES", "TWOS", "THREES", "FOURS", "FIVES", "SIXES", "ONE_PAIR", "TWO_PAIRS",
        "THREE_OF_A_KIND", "FOUR_OF_A_KIND", "SMALL_STRAIGHT", "LARGE_STRAIGHT",
        "FULL_HOUSE", "CHANCE", "YATZY",
    ]  # fmt: skip
    game = act(client, game, type="throw")
    assert set(game["options"]) == set(game["cards"][0]["boxes"])
    assert set(game["notes"]) == set(game["options"])
    refused = client.post(
        f"/api/games/{game['id']}/actions",
        json={"version": game["version"], "type": "fill", "box": "PENTA"},
    )
    assert (refused.status_code, refused.json()["reason"]) == (422, "no-such-box")
    game = play_to_the_end(client, game)
    assert all(None not in card["boxes"].values() for card in game["cards"])
    listed = client.get("/api/games").json()
    assert listed[0]["rounds"] == 15
    # The review judges Ali's 15 boxes by Yatzy's own strategy.
    (ali,) = client.get(f"/api/games/{game['id']}/review?lang=en").json()["players"]
    assert ali["decisions"] == 15
    assert ali["start"] == pytest.approx(solved("scandinavian").expected_score(), abs=1e-9)
    assert ali["start"] == pytest.approx(248.4400, abs=5e-5)
    assert ali["result"] == game["totals"][0]
    assert ali["result"] == pytest.approx(ali["start"] + ali["luck"] - ali["total_cost"], abs=1e-9)


def test_the_coach_of_yatzy_values_by_its_strategy_points_and_chances(
    client: TestClient, solved: Callable[[str], Strategy]
) -> None:
    """Two seats under Scandinavian rules: the coach gives expected final scores of that
    strategy and, its laws at hand, each option's chance of winning on Yatzy's card."""
    strategy = computer_player("yams", "expert", "scandinavian").strategy  # type: ignore[attr-defined]
    late_laws(strategy)
    calibration(strategy)
    game = new(client, "yams", "Ali", "Ece", rules="scandinavian", hints=["Ali"])
    game = act(client, game, type="throw")
    hint = client.get(f"/api/games/{game['id']}/hint").json()
    assert hint["options"]
    assert all(0 <= option["win"] <= 1 for option in hint["options"])
    strategy = solved("scandinavian")
    card, dice = Scorecard(rules=Rules.SCANDINAVIAN), tuple(game["dice"])  # the first round
    best = max(hint["options"], key=lambda o: o["expected"])
    assert best["expected"] == pytest.approx(
        max(
            *strategy.box_values(card, dice).values(), *strategy.keep_values(card, dice, 2).values()
        ),
        abs=1e-9,
    )


def test_a_game_of_two_under_hasbros_rules_is_read_in_chance_of_winning(
    client: TestClient, solved: Callable[[str], Strategy]
) -> None:
    """Hasbro's card has our thirteen boxes: its computer may play to win, and the coach of
    a table of two gives each option's chance of winning, from that strategy's laws."""
    solved("official")  # in the session's cache
    # The process's strategy, its laws readied as the game's start does, here at once.
    strategy = computer_player("yams", "expert", "official").strategy  # type: ignore[attr-defined]
    late_laws(strategy)
    calibration(strategy)
    game = new(client, "yams", "Ali", rules="official", computers=["win"])
    assert game["players"][1]["level"] == "win"
    game = act(client, game, type="throw")
    hint = client.get(f"/api/games/{game['id']}/hint").json()
    assert hint["options"]
    assert all(0 <= option["win"] <= 1 for option in hint["options"])
    game = act(client, game, type="fill", box=next(iter(game["options"])))
    game = act(client, game, type="computer")  # the play-to-win computer's first step
    assert game["version"] == 3


@pytest.mark.parametrize(
    ("body", "reason", "words"),
    [
        ({"rules": "yatzy"}, "bad-rules", "Bu oyunun böyle kuralları yok: yatzy"),
        ({"rules": "seed"}, "bad-rules", "Bu oyunun böyle kuralları yok: seed"),
        (
            {"rules": "scandinavian", "computer": True, "level": "easy"},
            "bad-level-rules",
            "Bu kurallarla IA Kolay seviyesinde oynamıyor",
        ),
        (
            {"rules": "official", "computer": True, "level": "easy"},
            "bad-level-rules",
            "Bu kurallarla IA Kolay seviyesinde oynamıyor",
        ),
    ],
)
def test_rules_a_game_has_not_are_refused_in_words_and_nothing_is_stored(
    client: TestClient, body: dict[str, Any], reason: str, words: str
) -> None:
    before = client.get("/api/games").json()
    response = client.post("/api/games", json={"game": "yams", "players": ["Ali"], **body})
    assert response.status_code == 422, response.text
    assert (response.json()["reason"], response.json()["detail"]) == (reason, words)
    assert client.get("/api/games").json() == before


def test_a_game_of_our_rules_says_so_and_stores_no_name(
    client: TestClient, store: SqliteStore
) -> None:
    game = new(client, "yams", "Ali", rules="standard")
    assert (game["rules"], game["rounds"], game["upper_bonus"]) == ("standard", 13, 35)
    assert store.load(game["id"]).rules is None
    assert "rules" not in store.load(game["id"]).to_json()


# 10 000.


def test_a_game_under_an_entry_minimum_waits_for_it_to_bank(
    client: TestClient, dice: ScriptedDice
) -> None:
    """entry-500: a turn of 100 may not be banked before the player is on the board; the
    view says what the turn still needs, the bank is refused in words, the game unchanged."""
    game = new(client, "10000", "Ali", "Ece", rules="entry-500")
    assert (game["rules"], game["bank_floor"], game["bank_needs"]) == ("entry-500", 500, 500)
    dice.script(1, 2, 3, 4, 6, 6)
    game = act(client, game, type="throw")
    game = act(client, game, type="set_aside", set_aside=[0])
    assert (game["turn_points"], game["bank_needs"], game["can_bank"]) == (100, 400, False)
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": game["version"], "type": "bank"}
    )
    assert response.status_code == 422
    assert response.json()["reason"] == "bank-under-entry"
    assert "500" in response.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_the_levels_of_10000_follow_what_each_preset_has_solved(client: TestClient) -> None:
    setup = client.get("/api/setup").json()
    assert setup["rules"]["10000"][0] == "seed"
    assert len(setup["rules"]["10000"]) == 15
    assert setup["rules_levels"]["10000"]["entry-500"] == ["seed", "max-points", "expert"]
    for name in ("three-lost-500", "three-lost-1000", "facebook"):
        assert setup["rules_levels"]["10000"][name] == ["seed", "max-points"]
    response = client.post(
        "/api/games",
        json={"game": "10000", "players": ["Ali"], "rules": "facebook", "computers": ["expert"]},
    )
    assert (response.status_code, response.json()["reason"]) == (422, "bad-level-rules")
    game = new(client, "10000", "Ali", rules="facebook", computers=["max-points"])
    assert (game["rules"], game["bank_floor"], game["three_lost"], game["last_round"]) == (
        "facebook", 300, 500, False,
    )  # fmt: skip


@pytest.mark.parametrize("lang", ["tr", "fr", "en"])
def test_the_rules_page_has_a_section_for_every_house_rules(lang: str) -> None:
    """The game's screen links `Kurallar: <name>` to the rules page at its section."""
    from zar.record import HOUSE_RULES
    from zar.server.app import STATIC

    page = (STATIC / "rules" / f"{lang}.html").read_text()
    for game, names in HOUSE_RULES.items():
        for name in names:
            assert f'id="rules-{game}-{name}"' in page, (game, name)
