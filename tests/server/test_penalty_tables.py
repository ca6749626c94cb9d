"""The 10 000 tables under a penalty for three lost turns in a row, which ``zar serve`` builds
in the background (15 to 30 minutes each): as it starts, those of 10 000 not in the cache,
``facebook`` first, one after another; for a game to another target, that target's, once.
No request waits for them: the game plays for points meanwhile.

No table is solved here: the process is stood in for (:class:`Spawned`), or the solve by
one that writes down its process (tests/server/warm_support.py)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server import warm_support
from server.warm_support import DEADLINE, Spawned
from support import until
from zar.ai import cache, computer_player
from zar.ai.ahead import ahead, table_of_two
from zar.ai.farkle import CACHE_NAME, WinStrategy
from zar.ai.judging import Strategies
from zar.ai.players import levels
from zar.farkle import PRESETS, FarkleRules, FarkleSettings, FarkleState, Throw
from zar.record import Record
from zar.server import create_app, penalty_tables, processes, run
from zar.store import SqliteStore
from zar.table import Seat

FACEBOOK = PRESETS["facebook"]
WANTED = [(t, name) for t in (5_000, 10_000, 15_000) for name in penalty_tables.PENALTY_PRESETS]


@pytest.fixture
def spawned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Spawned]:
    """A fresh cache folder, ``zar serve``'s warming on (the session's is off), the
    server's builds its own, their processes stood in for; let go at the end."""
    monkeypatch.setenv("ZAR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ZAR_WARM", raising=False)
    monkeypatch.setattr(penalty_tables, "builds", penalty_tables.Builds())
    stand_in = Spawned()
    stand_in.go.set()
    monkeypatch.setattr(penalty_tables, "own_process", stand_in)
    yield stand_in
    stand_in.go.set()
    until(idle)


def idle() -> bool:
    return not any(penalty_tables.builds.wanted((t, PRESETS[n])) for t, n in WANTED)


def in_the_cache(target: int, rules: FarkleRules) -> None:
    """A file where the table goes, as if a build had stored it."""
    path = cache.cache_path(CACHE_NAME, WinStrategy.cache_key(target, rules))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"a table")


def test_the_start_builds_the_penalty_tables_not_in_the_cache_in_order(
    spawned: Spawned, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the steps of zar warm, those of 10 000 (facebook's then three-lost-1000's:
    three-lost-500's is in the cache already), then those of 5 000, then of 15 000. One at
    a time, at the lowest priority, none counted in ``ahead``."""
    in_the_cache(10_000, PRESETS["three-lost-500"])
    started: list[object] = []
    monkeypatch.setattr(run, "make_ready", lambda steps: started.append("the steps"))
    monkeypatch.setattr(run, "yams_strategy_after", lambda built: built())
    monkeypatch.setattr(run, "warm_up", lambda: None)
    spawned.go.clear()  # the first build holds the others back
    run._prepare()
    until(lambda: spawned.tables)
    assert started == ["the steps"]
    assert spawned.tables == [(10_000, "facebook")]  # one at a time
    assert not ahead.pending(table_of_two(10_000, "facebook"))
    spawned.go.set()
    until(idle)
    names = penalty_tables.PENALTY_PRESETS
    assert spawned.tables == [
        (10_000, "facebook"), (10_000, "three-lost-1000"),
        *((target, name) for target in (5_000, 15_000) for name in names),
    ]  # fmt: skip
    assert spawned.runs == [penalty_tables._solved] * 8
    assert spawned.niceness == [processes.LOWEST] * 8


def test_a_table_a_game_asks_for_is_built_before_those_waiting(spawned: Spawned) -> None:
    """The start's builds under way (the first held), a coached game of two to 15 000
    under facebook: its table is built next, before the others waiting."""
    spawned.go.clear()
    run.build_penalty_tables()
    until(lambda: spawned.tables)
    coached = Record.new(
        "10000", (Seat("Ali"), Seat("Ece")), target=15_000, rules="facebook", hints=(0,)
    )
    run.build_penalty_tables(coached)
    spawned.go.set()
    until(idle)
    assert spawned.tables[:3] == [
        (10_000, "facebook"),
        (15_000, "facebook"),
        (10_000, "three-lost-500"),
    ]
    assert len(spawned.tables) == 9  # each once


def test_zar_warm_off_builds_no_penalty_table(
    spawned: Spawned, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZAR_WARM", "off")
    monkeypatch.setattr(run, "warm_up", lambda: None)
    run._prepare()
    seats = (Seat("Ali"), Seat("IA", computer=True, level="expert"))
    run.ready_strategies(Record.new("10000", seats, target=5_000, rules="facebook"))
    assert idle()
    assert spawned.tables == []


def test_a_game_to_another_target_starts_its_build_once(spawned: Spawned) -> None:
    """An expert seat to 5 000 under facebook: one build of that table, a second game
    meanwhile starting none; a game of the seeds' rules starts none."""
    spawned.go.clear()
    seats = (Seat("Ali"), Seat("IA", computer=True, level="expert"))
    game = Record.new("10000", seats, target=5_000, rules="facebook")
    run.ready_strategies(game)
    run.ready_strategies(game)
    until(lambda: spawned.tables)
    assert penalty_tables.builds.wanted((5_000, FACEBOOK))
    run.ready_strategies(game)
    spawned.go.set()
    until(idle)
    assert spawned.tables == [(5_000, "facebook")]
    coached = Record.new("10000", (Seat("Ali"), Seat("Ece")), target=15_000, hints=(0,))
    run.build_penalty_tables(coached)  # the seeds' rules: their table is no penalty's
    assert idle()
    assert spawned.tables == [(5_000, "facebook")]


def test_no_request_waits_for_a_penalty_table_being_built(spawned: Spawned) -> None:
    """While facebook's table of 10 000 is being built (held here), a coached game of two
    under it starts, its coach speaks in points, the expert plays for points, and the
    levels offered have no expert: each at once, nothing waiting for the build."""
    spawned.go.clear()
    game = Record.new(
        "10000", (Seat("Ali"), Seat("Ece")), target=10_000, rules="facebook", hints=(0,)
    )
    answered: list[object] = []

    def requests() -> None:
        run.ready_strategies(game)
        answered.append(run.table_to_ready(game))
        answered.append(levels("10000", "facebook"))
        seats = (Seat("Ali"), Seat("IA", computer=True, level="expert"))
        state = FarkleState.start(FarkleSettings(seats, target=10_000, rules=FACEBOOK))
        thrown = state.apply(Throw(0, (1, 5, 2, 3, 4, 6)))
        answered.append(Strategies().win(thrown))
        expert = computer_player("10000", "expert", "facebook").set_aside(thrown)
        answered.append(expert == computer_player("10000", "max-points").set_aside(thrown))

    asking = threading.Thread(target=requests, daemon=True)
    asking.start()
    asking.join(timeout=DEADLINE)  # the build is held past it: a request waiting fails here
    assert not asking.is_alive()
    assert penalty_tables.builds.wanted((10_000, FACEBOOK))  # still being built
    assert not ahead.pending(table_of_two(10_000, "facebook"))
    assert answered == [None, ("seed", "max-points"), None, True]
    spawned.go.set()
    until(idle)
    assert spawned.tables == [(10_000, "facebook")]


def test_the_dialog_hears_which_rules_expert_is_being_prepared(
    spawned: Spawned, store: SqliteStore
) -> None:
    """`/api/setup` names the house rules whose table of 10 000 is being built here, while
    it is, beside their levels without the expert; then none."""
    spawned.go.clear()
    with TestClient(create_app(store, games_per_minute=None)) as client:
        assert client.get("/api/setup").json()["rules_preparing"] == {"yams": [], "10000": []}
        penalty_tables.builds.want([(10_000, FACEBOOK), (10_000, PRESETS["three-lost-500"])])
        setup = client.get("/api/setup").json()
        assert setup["rules_preparing"]["10000"] == ["facebook", "three-lost-500"]
        assert setup["rules_levels"]["10000"]["facebook"] == ["seed", "max-points"]
        spawned.go.set()
        until(idle)
        assert client.get("/api/setup").json()["rules_preparing"]["10000"] == []


def test_the_expert_is_offered_to_each_target_whose_table_is_in_the_cache(
    spawned: Spawned, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Facebook's table of 10 000 in the cache, not that of 5 000, which is being built:
    `/api/setup` offers the expert to 10 000 only and says the 5 000 one is on its way; a
    game to 5 000 with it is refused in words, the game not made."""
    monkeypatch.setattr(
        WinStrategy,
        "cached",
        classmethod(lambda cls, target, rules=None: (target, rules) == (10_000, FACEBOOK)),
    )
    spawned.go.clear()
    with TestClient(create_app(store, games_per_minute=None)) as client:
        penalty_tables.builds.want([(5_000, FACEBOOK)])
        setup = client.get("/api/setup").json()
        by_target = setup["target_levels"]
        assert by_target["10000"]["facebook"] == ["seed", "max-points", "expert"]
        assert by_target["5000"]["facebook"] == by_target["15000"]["facebook"]
        assert by_target["5000"]["facebook"] == ["seed", "max-points"]
        assert by_target["5000"]["entry-500"] == ["seed", "max-points", "expert"]
        assert setup["rules_levels"]["10000"] == by_target["10000"]  # the default target's
        assert setup["target_preparing"] == {"5000": ["facebook"], "10000": [], "15000": []}
        body = {"game": "10000", "players": ["Ali"], "rules": "facebook", "target": 5_000}
        refused = client.post("/api/games", json={**body, "computers": ["expert"]})
        assert (refused.status_code, refused.json()["reason"]) == (422, "bad-level-rules")
        assert store.game_ids() == []  # nothing stored
        spawned.go.set()
        until(idle)
        assert client.get("/api/setup").json()["target_preparing"]["5000"] == []


def test_a_killed_build_ends_the_builds_not_begun(spawned: Spawned) -> None:
    """The server ending kills its process of tables: the tables after it are not begun,
    nor any wanted after."""
    spawned.exitcode = -15
    presets = [(10_000, PRESETS[name]) for name in penalty_tables.PENALTY_PRESETS]
    penalty_tables.builds.want(presets)
    until(idle)
    assert spawned.tables == [(10_000, "facebook")]
    assert penalty_tables.builds.want(presets) == ()


def test_a_penalty_table_is_built_in_a_process_of_its_own_at_the_lowest_priority(
    spawned: Spawned, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real process, its solve stood in for by one that writes down where it ran and puts
    the table in the cache: then it is wanted no more."""
    monkeypatch.setattr(penalty_tables, "own_process", processes.own_process)
    monkeypatch.setattr(penalty_tables, "_solved", warm_support.solved)
    assert penalty_tables.builds.want([(5_000, FACEBOOK)]) == ((5_000, FACEBOOK),)
    until(idle)
    made = warm_support.made("penalty-5000-facebook")
    assert made is not None
    assert made["pid"] != os.getpid()
    assert made["nice"] == processes.LOWEST
    assert penalty_tables.builds.want([(5_000, FACEBOOK)]) == ()  # in the cache now


def test_the_server_exiting_kills_its_processes_whatever_they_hear(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process of its own that does not hear SIGTERM (spawned while the server had it
    ignored for a moment) is killed as the server exits, not waited for; none is started
    after: a penalty build asked for then ends as a killed one."""
    monkeypatch.setenv("ZAR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(processes, "_running", [])
    monkeypatch.setattr(processes, "_ended", False)
    process = processes.own_process(warm_support.deaf)
    until(lambda: warm_support.made("deaf"))
    process.terminate()  # what multiprocessing's own exit sends: not heard
    process.join(timeout=1)
    assert process.is_alive()
    processes._end()
    process.join(timeout=DEADLINE)
    assert process.exitcode == -9  # SIGKILL
    with pytest.raises(processes.Ending):
        processes.own_process(warm_support.deaf)
    assert penalty_tables._build((5_000, FACEBOOK)) == -1
