"""The computer in the lists of games, a game's progress and the statistics: named in the
language asked (``IA`` in Turkish and French, ``Computer`` in English) whatever language
its game was started in, and counted in the statistics as one player by its seat's kind,
not by its name: a person who typed ``IA`` or ``Computer`` stays a person of their own."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from play_support import shortest_yams_intent
from server.api_support import act, settle
from zar.dice import SeededDice
from zar.server import create_app
from zar.store import SqliteStore

Game = dict[str, Any]
LANGS = ("tr", "fr", "en")
WORD = {"tr": "IA", "fr": "IA", "en": "Computer"}  # the computer, as each language calls it


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    # Whole games played as fast as the test goes, from one device: no budget of actions.
    app = create_app(store, dice=SeededDice(7), games_per_minute=None, action_rates=None)
    with TestClient(app) as c:
        yield c


def started(client: TestClient, lang: str, *people: str) -> Game:
    """A new Yams game of ``people`` and the computer, started on a screen in ``lang``."""
    body = {"game": "yams", "players": list(people), "computer": True, "level": "easy"}
    response = client.post(f"/api/games?lang={lang}", json=body)
    assert response.status_code == 201, response.text
    game: Game = response.json()
    return game


def finished(client: TestClient, lang: str, *people: str) -> Game:
    """:func:`started`, played to its end: a person throws once and writes the first box
    offered; the computer plays its own."""
    game = started(client, lang, *people)
    while not game["over"]:
        game = act(client, game, **shortest_yams_intent(game))
    return game


def listed(client: TestClient, lang: str, **query: str) -> dict[str, tuple[list[str], list[bool]]]:
    """The device's list of games in ``lang``: each game's names and seats' kinds, by id."""
    params = "".join(f"&{key}={value}" for key, value in query.items())
    reply = client.get(f"/api/games?lang={lang}{params}")
    assert reply.status_code == 200, reply.text
    return {g["id"]: (g["players"], g["computer"]) for g in reply.json()}


def rows(client: TestClient, lang: str) -> list[tuple[str, bool, int]]:
    """The Yams statistics in ``lang``: each row's name, whether it is the computer's, games."""
    found = client.get(f"/api/stats?game=yams&lang={lang}").json()
    return [(row["name"], row["computer"], row["games"]) for row in found["players"]]


def test_the_list_of_games_names_the_computer_in_the_language_asked(client: TestClient) -> None:
    turkish = started(client, "tr", "Ali")
    english = started(client, "en", "Ece")
    beside = started(client, "tr", "Computer")  # a person who typed the English word
    assert [p["name"] for p in turkish["players"]] == ["Ali", "IA"]
    assert [p["name"] for p in english["players"]] == ["Ece", "Computer"]
    for lang in LANGS:
        games = listed(client, lang)
        assert games[turkish["id"]] == (["Ali", WORD[lang]], [False, True])
        assert games[english["id"]] == (["Ece", WORD[lang]], [False, True])
        # Never two seats alike: beside a person called Computer, the computer keeps IA.
        assert games[beside["id"]] == (["Computer", "IA"], [False, True])
    progress = {
        lang: client.get(f"/api/games/{turkish['id']}/progress?lang={lang}").json()
        for lang in LANGS
    }
    assert {lang: p["players"] for lang, p in progress.items()} == {
        lang: ["Ali", WORD[lang]] for lang in LANGS
    }
    assert client.get(f"/api/games/{beside['id']}/progress?lang=en").json()["players"] == [
        "Computer",
        "IA",
    ]


def test_the_statistics_count_the_computer_of_every_language_as_one_player(
    client: TestClient,
) -> None:
    games = [finished(client, "tr", "Ali"), finished(client, "en", "Ali")]
    settle(client)  # both games' luck accounts kept, as the statistics read them
    for lang in LANGS:
        assert rows(client, lang) == [("Ali", False, 2), (WORD[lang], True, 2)]
        history = listed(client, lang, finished="true")
        assert [history[g["id"]][0] for g in games] == [["Ali", WORD[lang]]] * 2
        found = client.get(f"/api/stats?game=yams&lang={lang}").json()
        assert set(found["totals"]) == set(found["cost_per_decision"]) == {"Ali", WORD[lang]}
        assert len(found["totals"][WORD[lang]]) == 2
        exported = client.get(f"/api/stats/export?game=yams&format=csv&lang={lang}").text
        table = list(csv.DictReader(io.StringIO(exported)))
        assert [(r["name"], r["computer"], r["games"]) for r in table] == [
            ("Ali", "false", "2"),
            (WORD[lang], "true", "2"),
        ]
        assert client.get(f"/api/stats/export?game=yams&lang={lang}").json() == found


def test_a_person_named_ia_or_computer_is_never_the_computer(client: TestClient) -> None:
    finished(client, "tr", "Computer")  # a person called Computer beside the computer IA
    finished(client, "en", "Ece")
    assert rows(client, "tr") == [("IA", True, 2), ("Computer", False, 1), ("Ece", False, 1)]
    # In English the computer's word is the person's name: the computer keeps IA.
    assert rows(client, "en") == [("IA", True, 2), ("Computer", False, 1), ("Ece", False, 1)]
    client.cookies.clear()  # another device, with statistics of its own
    finished(client, "en", "IA")  # a person called IA beside the computer Computer
    finished(client, "tr", "Ece")
    assert rows(client, "en") == [("Computer", True, 2), ("Ece", False, 1), ("IA", False, 1)]
    assert rows(client, "fr") == [("Computer", True, 2), ("Ece", False, 1), ("IA", False, 1)]
