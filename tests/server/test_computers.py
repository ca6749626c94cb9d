"""Several computers at one table through the API (issue 23): every table of up to seven
seats, six people at most, any of them a computer at its own level, named ``IA``, ``IA 2``…;
every refusal leaves the store as it was; whole games of a person and three computers, the
computers stepped by the intention the page sends (``computer``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from play_support import shortest_yams_intent
from server.api_support import act, new, settle
from zar import ai
from zar.dice import SeededDice
from zar.server import create_app
from zar.store import SqliteStore
from zar.table import MAX_PEOPLE, MAX_SEATS

Game = dict[str, Any]
GAMES = ("yams", "10000")
LANGS = ("tr", "fr", "en")
# The store's tables a new game writes to.
TABLES = ("games", "actions", "access")


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    # Whole games played as fast as the test goes, from one device: no budget of actions.
    app = create_app(store, dice=SeededDice(23), games_per_minute=None, action_rates=None)
    with TestClient(app) as c:
        yield c


def rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """The store's games, their actions and who reaches them, as a fresh reader sees them."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as reader:
        return {t: list(reader.execute(f"SELECT * FROM {t} ORDER BY 1, 2")) for t in TABLES}


def tables() -> list[tuple[str, int, int]]:
    """Every table a new game may seat, for both games: people, computers."""
    return [
        (game, people, computers)
        for game in GAMES
        for people in range(MAX_PEOPLE + 1)
        for computers in range(MAX_SEATS - people + 1)
        if people + computers
    ]


def test_the_setup_says_the_limits(client: TestClient) -> None:
    setup = client.get("/api/setup").json()
    assert (setup["max_people"], setup["max_seats"]) == (6, 7)


def numbered(word: str, count: int) -> list[str]:
    """``count`` computers' names: the word, then the word numbered from 2."""
    return [word if n == 1 else f"{word} {n}" for n in range(1, count + 1)]


@pytest.mark.parametrize(("game", "people", "computers"), tables())
def test_every_table_of_up_to_seven_seats_starts(
    client: TestClient, game: str, people: int, computers: int
) -> None:
    """The people in their order, the computers after them in the order given, each at its
    level (null: the game's default), named IA, IA 2… (Computer, Computer 2… in English)."""
    choices = [*ai.LEVELS[game], None]
    levels = [choices[(people + i) % len(choices)] for i in range(computers)]
    names = [f"Oyuncu {i + 1}" for i in range(people)]
    started = new(client, game, *names, computers=levels)
    seats = started["players"]
    assert [p["name"] for p in seats] == names + numbered("IA", computers)
    assert [p["computer"] for p in seats] == [False] * people + [True] * computers
    assert [p["level"] for p in seats[people:]] == [
        level or ai.DEFAULT_LEVEL[game] for level in levels
    ]
    english = client.get(f"/api/games/{started['id']}?lang=en").json()["players"]
    assert [p["name"] for p in english[people:]] == numbered("Computer", computers)


def test_the_computers_are_named_in_the_language_the_game_starts_in(client: TestClient) -> None:
    body = {"game": "yams", "players": ["Ali"], "computers": ["easy", "easy"]}
    english = client.post("/api/games?lang=en", json=body).json()
    assert [p["name"] for p in english["players"]] == ["Ali", "Computer", "Computer 2"]
    for lang, shown in (("tr", ["IA", "IA 2"]), ("fr", ["IA", "IA 2"])):
        seats = client.get(f"/api/games/{english['id']}?lang={lang}").json()["players"]
        assert [p["name"] for p in seats] == ["Ali", *shown]
    log = client.get(f"/api/games/{english['id']}/log").json()
    assert log["players"] == ["Ali", "Computer", "Computer 2"]  # as stored


def test_the_lists_and_the_progress_name_the_computers_in_the_language_asked(
    client: TestClient,
) -> None:
    game = new(client, "yams", "Ali", computers=["easy", "easy"])
    for lang, shown in (("tr", ["IA", "IA 2"]), ("en", ["Computer", "Computer 2"])):
        listed = client.get(f"/api/games?lang={lang}").json()
        assert [(g["players"], g["computer"]) for g in listed] == [
            (["Ali", *shown], [False, True, True])
        ]
        progress = client.get(f"/api/games/{game['id']}/progress?lang={lang}").json()
        assert progress["players"] == ["Ali", *shown]


def test_the_seeds_one_computer_is_asked_as_before(client: TestClient) -> None:
    """``computer`` and ``level`` still seat one computer, ``IA``, at that level."""
    game = new(client, "10000", "Ali", computer=True, level="max-points")
    assert [(p["name"], p["level"]) for p in game["players"]] == [
        ("Ali", None),
        ("IA", "max-points"),
    ]
    assert new(client, "yams", "Ali", computers=[])["players"] == [
        {"name": "Ali", "computer": False, "level": None}
    ]


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"players": [], "computers": []}, 422, "no-players"),
        ({"players": []}, 422, "no-players"),
        (
            {"players": [f"P{i}" for i in range(6)], "computers": [None, None]},
            422,
            "too-many-seats",
        ),
        ({"players": ["Ali"], "computers": [None] * 7}, 422, "too-many-seats"),
        ({"players": [], "computers": [None] * 8}, 422, "bad-request"),
        ({"players": [f"P{i}" for i in range(7)]}, 422, "bad-request"),
        ({"players": ["Ali"], "computers": ["easy", "god"]}, 422, "bad-level"),
        ({"players": ["Ali"], "computers": [None], "computer": True}, 422, "computers-twice"),
        ({"players": ["Ali"], "computers": [None], "computer": False}, 422, "computers-twice"),
        ({"players": ["Ali"], "computers": [None], "level": "easy"}, 422, "computers-twice"),
        ({"players": ["Ali"], "computers": [1]}, 422, "bad-request"),
        # The computers' names are the language's: IA 2 in Turkish, Computer 2 in English.
        ({"players": ["Ali", "ia 2"], "computers": [None, None]}, 422, "computer-name"),
        ({"players": ["IA 3"], "computers": [None, None, None]}, 422, "computer-name"),
        ({"players": ["lA 2"], "computers": [None, None]}, 422, "name-look-alike"),
        ({"players": ["COMPUTER 2"], "computers": [None, None]}, 422, "computer-name"),
    ],
)
def test_a_refused_table_leaves_the_store_as_it_was(
    client: TestClient, db: Path, body: dict[str, Any], status: int, reason: str
) -> None:
    new(client, "yams", "Ali", computers=["easy"])  # a store with a game in it
    before = rows(db)
    named = any(name.upper().startswith(("IA", "LA", "COMPUTER")) for name in body["players"])
    langs = (("en",) if "COMPUTER 2" in body["players"] else ("tr", "fr")) if named else LANGS
    for lang in langs:
        response = client.post(f"/api/games?lang={lang}", json={"game": "yams", **body})
        assert response.status_code == status, response.text
        assert response.json()["reason"] == reason
        assert response.json()["detail"]
    assert rows(db) == before


def test_a_person_may_take_a_computers_name_of_another_table(client: TestClient) -> None:
    game = new(client, "yams", "IA 3", computers=[None, None])
    assert [p["name"] for p in game["players"]] == ["IA 3", "IA", "IA 2"]


def farkle_intent(game: Game) -> dict[str, Any]:
    """The intention that ends a 10 000 game soonest for a person: the best selection of each
    throw, banked as soon as the rules let; the computers play their own."""
    if game["players"][game["seat"]]["computer"]:
        return {"type": "computer"}
    if game["phase"] == "set-aside":
        scoring = [
            (s["points"], int(mask)) for mask, s in game["selections"].items() if "points" in s
        ]
        _, mask = max(scoring)
        return {"type": "set_aside", "set_aside": [p for p in range(6) if mask >> p & 1]}
    return {"type": "bank" if game["can_bank"] else "throw"}


def played(client: TestClient, game: Game) -> Game:
    """``game`` played to its end: every person's move and every computer's step."""
    intent = shortest_yams_intent if game["game"] == "yams" else farkle_intent
    for _ in range(5_000):
        if game["over"]:
            return game
        game = act(client, game, **intent(game))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("yams", {"computers": ["easy", "easy", "easy"]}),
        ("10000", {"computers": ["seed", None, "seed"], "target": 5000}),
    ],
)
def test_a_person_and_three_computers_play_to_the_end(
    client: TestClient, game: str, options: dict[str, Any]
) -> None:
    ended = played(client, new(client, game, "Ali", **options))
    assert ended["over"]
    assert ended["winners"]
    computers = [i for i, p in enumerate(ended["players"]) if p["computer"]]
    assert computers == [1, 2, 3]
    if game == "yams":  # every computer wrote its whole card
        assert all(None not in ended["cards"][i]["boxes"].values() for i in computers)
    else:  # every computer had its turns
        assert all(ended["turns"][i] > 0 for i in computers)
    settle(client)
    stats = client.get(f"/api/stats?game={game}").json()
    # Each computer seat is one result of the one computer.
    assert [(r["name"], r["computer"], r["games"]) for r in stats["players"]] == [
        ("IA", True, 3),
        ("Ali", False, 1),
    ]
    english = client.get(f"/api/stats?game={game}&lang=en").json()["players"]
    assert [r["name"] for r in english] == ["Computer", "Ali"]


def test_computers_alone_play_a_whole_game_to_watch(client: TestClient) -> None:
    ended = played(client, new(client, "10000", computers=["seed", "seed", "seed"], target=5000))
    assert ended["over"]
    assert [p["name"] for p in ended["players"]] == ["IA", "IA 2", "IA 3"]
    assert ended["hints"] == []  # nobody to coach
    # The review judges people: there is nobody to judge.
    assert client.get(f"/api/games/{ended['id']}/review").json() == {"players": []}


def test_a_seven_seat_game_plays_to_the_end(client: TestClient) -> None:
    people = ["Ali", "Ayşe", "Ece"]
    ended = played(client, new(client, "yams", *people, computers=["easy"] * 4))
    assert ended["over"]
    assert [p["name"] for p in ended["players"]] == [*people, "IA", "IA 2", "IA 3", "IA 4"]
    assert all(None not in card["boxes"].values() for card in ended["cards"])


def test_an_absent_persons_seat_is_played_at_the_first_computers_level(
    client: TestClient,
) -> None:
    """The computer standing in for an absent person plays at the level of the first
    computer seat, or at the game's default with none."""
    for computers, level in (
        (["max-points", "seed"], "max-points"),
        (["expert"], "expert"),
        ([], ai.DEFAULT_LEVEL["10000"]),
    ):
        game = new(client, "10000", "Ali", "Ece", computers=computers)
        moved = client.post(f"/api/games/{game['id']}/seats/1", json={"to": "computer"})
        assert moved.status_code == 200, moved.text
        assert moved.json()["seats"][1]["standin"] == level
