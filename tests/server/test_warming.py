"""``zar serve``'s process of tables: as it starts, every step ``zar warm`` makes
(:data:`zar.ai.warm.STEPS`) is made ready in one process of its own, at a lower priority;
a game that asks for a table meanwhile waits for that process rather than building its
own in the server (where the build held the interpreter's lock under every request).

The steps here are the tests' own (tests/server/warm_support.py), which write down the
process that ran them, or copy a table the session built once: no big table is built."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from server import warm_support
from support import until
from zar.ai import cache, farkle, warm
from zar.ai.ahead import ahead
from zar.ai.farkle import CACHE_NAME, WinStrategy
from zar.ai.warm import Step, table_of_two
from zar.record import Record
from zar.server import penalty_tables, run
from zar.table import Seat
from zar.yams import Rules

DEADLINE = 120.0  # for a process to start (numpy, numba) on a busy machine


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh cache folder, and ``zar serve``'s warming on (the session's is off), the
    penalty tables it then builds in the background wanted and never built
    (tests/server/test_penalty_tables.py builds them). At the end, a held step is let go:
    even after a failure no step is left pending for the tests after (their loaders would
    wait for it)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("ZAR_CACHE_DIR", str(folder))
    monkeypatch.delenv("ZAR_WARM", raising=False)
    monkeypatch.setattr(penalty_tables, "builds", penalty_tables.Builds())
    monkeypatch.setattr(penalty_tables, "_build", lambda table: 0)
    yield folder
    folder.mkdir(parents=True, exist_ok=True)
    (folder / warm_support.GO).touch()


def test_the_start_makes_every_step_ready_in_one_process_of_its_own(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = (Step("the first", warm_support.first), Step("the second", warm_support.second))
    monkeypatch.setattr(warm, "STEPS", steps)
    loaded = threading.Event()
    monkeypatch.setattr(run, "yams_strategy_after", lambda built: built())
    monkeypatch.setattr(run, "warm_up", loaded.set)  # the real one reads the Yams table
    run._prepare()
    until(lambda: warm_support.made("first") and warm_support.made("second"))
    first, second = warm_support.made("first"), warm_support.made("second")
    assert first is not None
    assert second is not None
    assert first["pid"] == second["pid"] != os.getpid()  # one process, not the server's
    assert first["nice"] > os.nice(0)  # below the server's priority
    until(lambda: not any(ahead.pending(step.what) for step in steps))  # it said each is done
    assert loaded.wait(timeout=DEADLINE)  # then the server readied its own


def test_the_steps_are_those_of_zar_warm() -> None:
    """One list: the default target's 10 000 table is the one a game asks the loader for."""
    assert [step.what for step in warm.STEPS] == [
        "Yams: the optimal strategy",
        "10 000: the turn's strategy",
        "10 000: the table of two to 10 000",
        "Yams: the coach's chances of winning at a table of two",
    ]
    assert table_of_two(10_000) in warm.STEPS
    assert table_of_two(5_000) not in warm.STEPS


def test_a_table_asked_for_meanwhile_is_read_once_the_process_made_it(
    fresh: Path, monkeypatch: pytest.MonkeyPatch, expert: WinStrategy, session_cache: Path
) -> None:
    """The loader waits for the step that makes its table, then reads it: it builds none."""
    made = cache.cache_path(CACHE_NAME, WinStrategy.cache_key(5_000))
    source = session_cache / made.name
    assert source.exists()  # the session's, built once (the `expert` fixture)
    monkeypatch.setenv(warm_support.SOURCE, str(source))
    monkeypatch.setattr(farkle, "_loaded", {})
    monkeypatch.setattr(WinStrategy, "build", _no_build)
    step = Step(table_of_two(5_000).what, warm_support.copied)  # named as the loader asks
    assert run.make_ready([step]) is not None
    got: list[WinStrategy] = []
    asking = threading.Thread(target=lambda: got.append(WinStrategy.load(5_000)), daemon=True)
    asking.start()
    asking.join(timeout=1.0)
    assert asking.is_alive()  # waiting for the process
    assert not made.exists()
    fresh.mkdir(parents=True, exist_ok=True)
    (fresh / warm_support.GO).touch()
    asking.join(timeout=DEADLINE)
    assert not asking.is_alive()
    assert made.exists()
    [strategy] = got
    assert strategy.target == 5_000
    assert not ahead.pending(step.what)


def test_a_game_to_another_target_has_its_table_built_in_a_process_of_its_own(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5 000 is not among the steps: a new game to it starts one process for its table (a
    second game meanwhile starts none), and the server reads what that process built."""
    started: list[object] = []
    own_process = run.own_process

    def counted(target: Callable[..., object], *args: object) -> object:
        started.append(args[0])
        return own_process(target, *args)

    monkeypatch.setattr(run, "own_process", counted)
    monkeypatch.setattr(farkle, "_loaded", {})
    monkeypatch.setattr(WinStrategy, "build", _no_build)  # in the server: never
    seats = (Seat("Ali"), Seat("IA", computer=True, level="expert"))
    run.ready_strategies(Record.new("10000", seats, target=5_000))
    run.ready_strategies(Record.new("10000", seats, target=5_000))
    assert started == [(table_of_two(5_000),)]
    strategy = WinStrategy.load(5_000)  # waits for the process, then reads its table
    assert strategy.target == 5_000
    assert cache.cache_path(CACHE_NAME, WinStrategy.cache_key(5_000)).exists()


def _no_build(*args: object, **kwargs: object) -> WinStrategy:
    raise AssertionError("built in the server's process")


def test_zar_warm_off_makes_nothing_ready_ahead(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[object] = []
    monkeypatch.setattr(run, "own_process", lambda *args: started.append(args))
    monkeypatch.setattr(run, "warm_up", lambda: started.append("read"))
    monkeypatch.setenv("ZAR_WARM", "off")
    run._prepare()  # the Yams table not in the cache: left to the first game that asks
    seats = (Seat("Ali"), Seat("IA", computer=True, level="expert"))
    monkeypatch.setattr(WinStrategy, "load", lambda target, **rules: None)
    run.ready_strategies(Record.new("10000", seats, target=5_000))
    assert started == []
    monkeypatch.setenv("ZAR_WARM", "lots")
    with pytest.raises(SystemExit, match="ZAR_WARM is on or off"):
        run._prepare()


def test_a_yams_game_under_house_rules_has_their_strategy_made_ready_in_a_process_of_its_own(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hasbro's rules are not among the steps: a new game under them starts one process for
    their optimal strategy (a second game meanwhile starts none), and the server then reads
    it for the computer (in a thread of its own: no request waits); a game of ours starts
    none."""
    started: list[object] = []
    read: list[tuple[object, ...]] = []
    held: list[Connection] = []  # the pipe's end the process would hold until it ends

    def process(target: object, steps: object, tell: Connection) -> None:
        started.append(steps)
        held.append(Connection(os.dup(tell.fileno())))

    monkeypatch.setattr(run, "own_process", process)
    monkeypatch.setattr(run, "computer_player", lambda *args: read.append(args))
    seats = (Seat("Ali"), Seat("IA", computer=True, level="expert"))
    run.ready_strategies(Record.new("yams", seats, rules="official"))
    run.ready_strategies(Record.new("yams", seats, rules="official"))
    run.ready_strategies(Record.new("yams", seats))
    assert started == [(warm.yams_strategy_of(Rules.OFFICIAL),)]
    until(lambda: len(read) == 2)
    assert read == [("yams", "expert", "official")] * 2
    held[0].close()  # the process ends: its step is no longer pending
    until(lambda: not ahead.pending(warm.yams_strategy_of(Rules.OFFICIAL).what))
