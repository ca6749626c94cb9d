"""``zar.server.run.app``, the factory of ``uvicorn --factory`` (one app per worker): its store
from the environment, closed when it stops; the limit on new games from the environment."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from zar.ai.farkle import WinStrategy
from zar.ai.yams import Strategy
from zar.record import Record
from zar.server import create_app
from zar.server.run import app, ready_strategies, table_to_ready, warm_up
from zar.store import SqliteStore
from zar.table import Seat

NEW = {"game": "yams", "players": ["Ali"]}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "zar.sqlite3"
    monkeypatch.setenv("ZAR_DB", str(db))
    monkeypatch.delenv("ZAR_DATABASE_URL", raising=False)
    monkeypatch.delenv("ZAR_GAMES_PER_MINUTE", raising=False)
    return db


def test_the_factory_serves_the_store_the_environment_names(env: Path) -> None:
    with TestClient(app()) as client:
        created = client.post("/api/games", json=NEW)
        assert created.status_code == 201
    store = SqliteStore(env)  # the app closed its own: the file is whole and readable
    assert [g.id for g in store.games()] == [created.json()["id"]]
    store.close()


@pytest.mark.parametrize(("limit", "allowed"), [("2", 2), ("off", 40)])
def test_the_limit_on_new_games_comes_from_the_environment(
    env: Path, monkeypatch: pytest.MonkeyPatch, limit: str, allowed: int
) -> None:
    monkeypatch.setenv("ZAR_GAMES_PER_MINUTE", limit)
    with TestClient(app()) as client:
        statuses = [client.post("/api/games", json=NEW).status_code for _ in range(40)]
    assert statuses[:allowed] == [201] * allowed
    assert set(statuses[allowed:]) <= {429}


def test_a_bad_limit_is_one_line(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZAR_GAMES_PER_MINUTE", "lots")
    with pytest.raises(SystemExit, match="ZAR_GAMES_PER_MINUTE"):
        app()


def test_warming_up_makes_a_decision_and_freezes_what_is_alive(
    solved: Callable[[str], Strategy],
) -> None:
    solved("standard")  # in the session's cache: read, not built again
    gc.unfreeze()
    try:
        warm_up()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


@pytest.mark.parametrize(
    ("game", "table"),
    [
        ({"game": "10000", "players": ["Ali"], "computer": True, "level": "expert"}, 10_000),
        ({"game": "10000", "players": ["Ali"], "computer": True, "target": 5000}, 5_000),
        ({"game": "10000", "players": ["Ali", "Ece"], "hints": ["Ali"], "target": 15000}, 15_000),
        ({"game": "10000", "players": ["Ali", "Ece"]}, None),  # no coach, no computer
        ({"game": "10000", "players": ["Ali", "Ece", "Can"], "hints": ["Ali"]}, None),
        ({"game": "yams", "players": ["Ali"], "computer": True}, None),
    ],
)
def test_a_new_game_readies_the_table_its_computer_or_coach_will_ask_for(
    tmp_path: Path, game: dict[str, object], table: int | None
) -> None:
    created: list[Record] = []
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with TestClient(create_app(store, ready=created.append)) as client:
        assert client.post("/api/games", json=game).status_code == 201
    store.close()
    [record] = created
    assert table_to_ready(record) == table


def test_the_table_is_read_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    done = threading.Event()

    def load(target: int) -> None:
        asked.append(target)
        done.set()

    monkeypatch.setattr(WinStrategy, "load", load)
    seats = (Seat("Ali"), Seat("IA", computer=True, level="expert"))
    ready_strategies(Record.new("10000", seats, target=5_000))
    assert done.wait(timeout=30)
    assert asked == [5_000]
