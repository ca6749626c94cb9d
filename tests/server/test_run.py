"""``zar.server.run.app``, the factory of ``uvicorn --factory`` (one app per worker): its store
from the environment, closed when it stops; the limit on new games from the environment."""

from __future__ import annotations

import gc
import http.client
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server.serving import Server, running
from zar.ai.farkle import WinStrategy
from zar.ai.yams import Strategy
from zar.farkle import SEED, FarkleRules
from zar.record import Record
from zar.server import create_app
from zar.server.limits import ACTION_RATES
from zar.server.run import (
    allowed_hosts,
    app,
    chances_to_ready,
    ready_strategies,
    table_to_ready,
    warm_up,
)
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


def test_the_stores_bounds_come_from_the_environment(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ZAR_WATCHERS_PER_GAME`` caps a game's watchers; ``ZAR_KEEP_ABANDONED_DAYS`` says
    when an abandoned game is pruned (unset or ``keep``: never); a bad one is one line."""
    monkeypatch.setenv("ZAR_WATCHERS_PER_GAME", "1")
    monkeypatch.setenv("ZAR_KEEP_ABANDONED_DAYS", "0")
    with TestClient(app()) as host:
        game = host.post("/api/games", json={"game": "yams", "players": ["Ali", "Ece"]}).json()
        ended = host.post("/api/games", json=NEW).json()
        host.post(f"/api/games/{ended['id']}/actions", json={"version": 0, "type": "abandon"})
        link = host.post(f"/api/games/{game['id']}/invitations").json()["watch"].split("=")[1]
        statuses = []
        for _ in range(2):  # two fresh devices
            host.cookies.clear()
            watched = host.post("/api/invitations/watch", json={"invitation": link})
            statuses.append(watched.json().get("reason", watched.status_code))
        assert statuses == [200, "too-many-watchers"]
    with TestClient(app()) as client:  # the pruning as it starts: the abandoned game goes
        for _ in range(600):
            if client.app.state.pruned:  # type: ignore[attr-defined]
                break
            time.sleep(0.05)
    store = SqliteStore(env)
    assert store.game_ids() == [game["id"]]
    store.close()
    for name, value in (("ZAR_WATCHERS_PER_GAME", "many"), ("ZAR_KEEP_ABANDONED_DAYS", "-1")):
        monkeypatch.setenv(name, value)
        with pytest.raises(SystemExit, match=name):
            app()
        monkeypatch.delenv(name)


@pytest.mark.parametrize("budget", ["", "on", "off"])
def test_the_budget_of_actions_comes_from_the_environment(
    env: Path, monkeypatch: pytest.MonkeyPatch, budget: str
) -> None:
    """A device's actions in a row, as fast as the test goes: refused past the 120 of its
    bucket (and what it filled again meanwhile) by default; never when it is off."""
    monkeypatch.setenv("ZAR_ACTION_BUDGET", budget)
    statuses = []
    with TestClient(app()) as client:
        game = client.post("/api/games", json={"game": "10000", "players": ["Ali"]}).json()
        while len(statuses) < 1_000 and set(statuses) <= {200}:
            intent: dict[str, object] = {"type": "throw"}
            if game["phase"] == "set-aside":  # the throw scored: a selection that scores
                mask = next(int(m) for m, w in game["selections"].items() if "points" in w)
                intent = {"type": "set_aside", "set_aside": [p for p in range(6) if mask >> p & 1]}
            reply = client.post(
                f"/api/games/{game['id']}/actions", json={"version": game["version"], **intent}
            )
            statuses.append(reply.status_code)
            game = reply.json() if reply.status_code == 200 else game
    if budget == "off":
        assert statuses == [200] * 1_000
    else:
        assert len(statuses) > ACTION_RATES["device"].burst
        assert statuses[-1] == 429
        assert set(statuses[:-1]) == {200}


@pytest.mark.parametrize("budget", ["", "off"])
def test_the_budget_of_invitations_comes_from_the_environment(
    env: Path, monkeypatch: pytest.MonkeyPatch, budget: str
) -> None:
    """The host's invitations in a row: refused past its device's 10 by default; never
    when ``ZAR_INVITATION_BUDGET`` is off (a load test's hosts, all from one address)."""
    monkeypatch.setenv("ZAR_INVITATION_BUDGET", budget)
    with TestClient(app()) as host:
        game = host.post("/api/games", json={"game": "yams", "players": ["Ali", "Ece"]}).json()
        statuses = [
            host.post(f"/api/games/{game['id']}/invitations").status_code for _ in range(12)
        ]
    assert statuses == ([201] * 12 if budget == "off" else [201] * 10 + [429] * 2)


@pytest.mark.parametrize("name", ["ZAR_ACTION_BUDGET", "ZAR_INVITATION_BUDGET"])
def test_a_bad_budget_is_one_line(env: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv(name, "lots")
    with pytest.raises(SystemExit, match=name):
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


def test_a_penalty_presets_table_is_readied_only_once_in_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tens of minutes to build (zar solve 10000 --rules facebook): never in a server."""
    seats = (Seat("Ali"), Seat("IA", computer=True, level="max-points"))
    record = Record.new("10000", seats, target=10_000, rules="facebook")  # Ali coached
    assert table_to_ready(record) is None
    monkeypatch.setattr(WinStrategy, "cached", classmethod(lambda cls, target, rules: True))
    assert table_to_ready(record) == 10_000


def test_the_table_is_read_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    done = threading.Event()

    def load(target: int, *, rules: FarkleRules) -> None:
        assert rules == SEED
        asked.append(target)
        done.set()

    monkeypatch.setattr(WinStrategy, "load", load)
    seats = (Seat("Ali"), Seat("IA", computer=True, level="expert"))
    ready_strategies(Record.new("10000", seats, target=5_000))
    assert done.wait(timeout=30)
    assert asked == [5_000]


@pytest.mark.parametrize(
    ("seats", "hints", "ready"),
    [
        ((Seat("Ali"), Seat("Ece")), (0,), True),  # Ali's coach
        ((Seat("Ali"), Seat("Ece")), None, False),  # two people: no coach unless asked
        ((Seat("Ali"), Seat("IA", computer=True, level="expert")), None, True),  # Ali's coach
        ((Seat("Ali"), Seat("IA", computer=True, level="win")), (), True),  # plays to win
        ((Seat("Ali"), Seat("Ece"), Seat("Can")), (0,), False),  # three: no chance shown
        ((Seat("Ali"),), None, False),
    ],
)
def test_a_yams_game_of_two_readies_its_chances(
    monkeypatch: pytest.MonkeyPatch,
    seats: tuple[Seat, ...],
    hints: tuple[int, ...] | None,
    ready: bool,
) -> None:
    from zar.ai import yams_win

    asked: list[object] = []
    monkeypatch.setattr(yams_win, "laws_at_hand", lambda strategy: asked.append(strategy))
    record = Record.new("yams", seats, hints=hints)
    assert chances_to_ready(record) is ready
    ready_strategies(record)
    assert len(asked) == ready


def ask(server: Server, host: str) -> tuple[int, dict[str, str]]:
    """GET /api/setup from ``server`` naming it ``host`` (as a browser does in ``Host``)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/api/setup", headers={"host": host})
        reply = conn.getresponse()
        reply.read()
        return reply.status, dict(reply.headers)
    finally:
        conn.close()


def test_a_server_answers_only_to_its_own_names(tmp_path: Path) -> None:
    """DNS rebinding: a page of another site that renamed itself to this server's address
    reaches nothing (400, with the security headers); the machine's own names and those of
    ZAR_HOSTS are answered."""
    with running(tmp_path / "zar.sqlite3", {"ZAR_HOSTS": "zar.example.org"}) as server:
        for name in ("attacker.example", "zar.example.org.attacker.example", "192.0.2.1"):
            status, headers = ask(server, f"{name}:{server.port}")
            assert status == 400, name
            assert headers["x-frame-options"] == "DENY"
        for name in ("127.0.0.1", "localhost", "[::1]", "zar.example.org", "ZAR.example.org"):
            assert ask(server, f"{name}:{server.port}")[0] == 200, name


def test_the_names_allowed_are_the_machines_the_addresses_and_the_environments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ZAR_HOSTS", " zar.example.org, *.zar.example.org ")
    assert allowed_hosts("0.0.0.0", ["http://192.168.1.20:8000/", "http://10.0.0.5:8000/"]) == [
        "127.0.0.1", "localhost", "[::1]", "192.168.1.20", "10.0.0.5",
        "zar.example.org", "*.zar.example.org",
    ]  # fmt: skip
    monkeypatch.delenv("ZAR_HOSTS")
    assert allowed_hosts("127.0.0.1", []) == ["127.0.0.1", "localhost", "[::1]"]
    assert allowed_hosts("zar.local", []) == ["127.0.0.1", "localhost", "[::1]", "zar.local"]
    assert allowed_hosts("::", ["http://[fd00::5]:8000/"])[-1] == "[fd00::5]"
