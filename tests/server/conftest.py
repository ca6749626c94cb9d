"""Fixtures the server's tests share: a fresh database file and the store on it, dice the
test scripts, and a monotonic clock the test moves. A module that needs another of the same
name (a store of each kind, a wall clock moved in days, dice seeded after the script)
defines its own, and its tests get that one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dice_support import ScriptedDice
from server.api_support import Clock
from zar.store import SqliteStore


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The database file, not made yet."""
    return tmp_path / "zar.sqlite3"


@pytest.fixture
def store(db: Path) -> Iterator[SqliteStore]:
    """The SQLite store on ``db``, closed after the test."""
    opened = SqliteStore(db)
    yield opened
    opened.close()


@pytest.fixture
def dice() -> ScriptedDice:
    """Dice that fall as the test says, then from a fixed cycle."""
    return ScriptedDice()


@pytest.fixture
def clock() -> Clock:
    """A monotonic clock the test moves by hand."""
    return Clock()
