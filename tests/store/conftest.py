"""The store tests run against both databases: a SQLite file and a throwaway PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from store_support import Backend
from zar.store import Store


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """An empty database of each kind."""
    if request.param == "sqlite":
        path = tmp_path / "zar.sqlite3"
        return Backend("sqlite", f"sqlite:///{path}", path)
    url: str = request.getfixturevalue("postgres_url")
    return Backend("postgres", url)


@pytest.fixture
def store(backend: Backend) -> Iterator[Store]:
    opened = backend.open()
    yield opened
    opened.close()
