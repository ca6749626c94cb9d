"""Fixtures the test packages share.

A cache folder of the session's own for solved strategies, for every test (the user's is
never touched); the optimal Yams strategies, each variant built once per session; the
two-player 10 000 strategy to 5 000, built once; a throwaway PostgreSQL server, started on
first use (skipped where PostgreSQL is not installed, unless ``ZAR_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from store_support import Backend
from throwaway_postgres import ThrowawayPostgres, find_bin
from zar.ai import yams_win
from zar.ai.farkle import WinStrategy
from zar.ai.yams import Strategy


@pytest.fixture(scope="session", autouse=True)
def session_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``$ZAR_CACHE_DIR`` for the session: a folder under pytest's temporary one. The Yams
    chance's calibration is fitted on a tenth of its games there (seconds fewer; how well
    it calibrates is measured by ``bench/yams_duel.py``). ``$ZAR_WARM`` off: a server a
    test starts makes no table ready ahead (minutes of building beside every test); the
    tests of that process turn it on."""
    path = tmp_path_factory.getbasetemp() / "zar-cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ZAR_CACHE_DIR", str(path))
        patch.setenv("ZAR_WARM", "off")
        patch.setattr(yams_win, "CALIBRATION_GAMES", yams_win.CALIBRATION_GAMES // 10)
        yield path


@pytest.fixture(scope="session")
def solved(session_cache: Path) -> Callable[[str], Strategy]:
    """``solved(variant)``: the strategy, built on first use, then read from the cache."""
    strategies: dict[str, Strategy] = {}

    def get(variant: str) -> Strategy:
        if variant not in strategies:
            with pytest.MonkeyPatch.context() as patch:
                # Into the session's folder, even from a test that moved $ZAR_CACHE_DIR.
                patch.setenv("ZAR_CACHE_DIR", str(session_cache))
                strategies[variant] = Strategy.load(variant)
        return strategies[variant]

    return get


@pytest.fixture(scope="session")
def expert(session_cache: Path) -> WinStrategy:
    """The two-player 10 000 strategy to 5 000, built once (then in the session's cache)."""
    return WinStrategy.load(5_000)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[ThrowawayPostgres]:
    """A PostgreSQL server for the session, stopped at its end (also after a failure)."""
    bin_dir = find_bin()
    if bin_dir is None:
        reason = "PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql)"
        if os.environ.get("ZAR_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"ZAR_REQUIRE_POSTGRES=1: {reason}")
        pytest.skip(reason)
    server = ThrowawayPostgres(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: ThrowawayPostgres) -> Iterator[str]:
    """The URL of a fresh, empty database, dropped after the test."""
    url = postgres_server.new_database()
    yield url
    postgres_server.drop_database(url)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """An empty database of each kind."""
    if request.param == "sqlite":
        path = tmp_path / "zar.sqlite3"
        return Backend("sqlite", f"sqlite:///{path}", path)
    url: str = request.getfixturevalue("postgres_url")
    return Backend("postgres", url)


# What the comparisons with solvers nobody here wrote found, said at the run's end.
_COMPARED = pytest.StashKey[list[str]]()


@pytest.fixture
def compared(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """``compared(line)``: a comparison with a peer's figures, said in the run's summary
    (a section "compared with peers"), whether the run shows what tests print or not."""
    lines = request.config.stash.setdefault(_COMPARED, [])
    return lines.append


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    lines = terminalreporter.config.stash.get(_COMPARED, [])
    if lines:
        terminalreporter.section("compared with peers")
        for line in lines:
            terminalreporter.write_line(line)
