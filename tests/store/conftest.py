"""The store tests run against both databases: a SQLite file and a throwaway PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from store_support import Backend
from zar.store import Store


@pytest.fixture
def store(backend: Backend) -> Iterator[Store]:
    opened = backend.open()
    yield opened
    opened.close()
