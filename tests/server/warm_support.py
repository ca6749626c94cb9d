"""Steps for the tests of ``zar serve``'s process of tables (tests/server/test_warming.py)
and of its penalty tables built in the background (tests/server/test_penalty_tables.py):
module functions, so that a process of its own (spawned) finds them by name. Each writes
down, in the cache folder, the process that ran it and its priority."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from zar.ai.cache import cache_dir
from zar.farkle import FarkleRules

DEADLINE = 120.0  # for a process to start (numpy, numba) on a busy machine
GO = "go"  # the file a held step waits for
SOURCE = "ZAR_TEST_TABLE"  # the table file a copying step copies into the cache


def made(name: str) -> dict[str, int] | None:
    """What the step ``name`` wrote down (its process, its niceness), or None yet."""
    path = cache_dir() / f"{name}.step"
    return json.loads(path.read_text()) if path.exists() else None


def _write_down(name: str) -> None:
    path = cache_dir() / f"{name}.step"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"pid": os.getpid(), "nice": os.nice(0)}))


def _held() -> None:
    while not (cache_dir() / GO).exists():
        time.sleep(0.05)


def first() -> None:
    _write_down("first")


def second() -> None:
    _write_down("second")


def copied() -> None:
    """Once the test says go, the table ``$ZAR_TEST_TABLE`` names put in the cache, as a
    build would (whole, under its own name)."""
    _held()
    source = Path(os.environ[SOURCE])
    shutil.copyfile(source, cache_dir() / f".{source.name}.tmp")
    os.replace(cache_dir() / f".{source.name}.tmp", cache_dir() / source.name)
    _write_down("copied")


def solved(target: int, rules: FarkleRules) -> None:
    """Stands in for a penalty table's solve (tens of minutes): writes down the process
    and its priority under ``penalty-TARGET-RULES``, and puts a file where the table goes
    in the cache, whole, as a build would."""
    from zar.ai import cache
    from zar.ai.farkle import CACHE_NAME, WinStrategy

    table = cache.cache_path(CACHE_NAME, WinStrategy.cache_key(target, rules))
    table.parent.mkdir(parents=True, exist_ok=True)
    table.with_name(f".{table.name}.tmp").write_bytes(b"a table")
    os.replace(table.with_name(f".{table.name}.tmp"), table)
    _write_down(f"penalty-{target}-{rules.name}")


def deaf() -> None:
    """A step that will not hear SIGTERM (as a process spawned while the server had it
    ignored for a moment), held until the test says go."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _write_down("deaf")
    _held()


@dataclass
class Spawned:
    """Stands in for :func:`zar.server.processes.own_process`: writes down each process
    asked for (what it runs, the table, its niceness), which ends once let go with
    ``exitcode``."""

    runs: list[object] = field(default_factory=list)
    tables: list[tuple[int, str | None]] = field(default_factory=list)
    niceness: list[int] = field(default_factory=list)
    go: threading.Event = field(default_factory=threading.Event)
    exitcode: int = 0

    def __call__(self, target: object, points: int, rules: FarkleRules, niceness: int) -> Spawned:
        self.runs.append(target)
        self.tables.append((points, rules.name))
        self.niceness.append(niceness)
        return self

    def join(self) -> None:
        assert self.go.wait(timeout=DEADLINE)
