"""A game's id that cannot be one (a NUL, a space, letters from elsewhere, a thousand
characters) is no game, on every route and on both stores: 404 in words, never a server
error, and the database never asked (PostgreSQL refuses a NUL in a string outright)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from server.api_support import new
from zar.server import create_app
from zar.store import SqliteStore, Store
from zar.store.postgres import PostgresStore

IDS = ["a\x00b", "\x00", "a b", "ğame", "x" * 1_000, "g;DROP", "%00"]


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        opened: Store = SqliteStore(tmp_path / "zar.sqlite3")
    else:
        opened = PostgresStore(request.getfixturevalue("postgres_url"))
    yield opened
    opened.close()


def routes(client: TestClient) -> list[tuple[str, str, Any]]:
    """Every route of the schema that names a game: its method, path and a body that fits."""
    bodies: dict[str, Any] = {
        "/api/games/{game_id}/actions": {"version": 0, "type": "throw"},
        "/api/games/{game_id}/seats/{seat}": {"to": "computer"},
    }
    found = []
    for path, operations in client.get("/api/openapi.json").json()["paths"].items():
        if "{game_id}" in path:
            for method in operations:
                found.append((method.upper(), path.replace("{seat}", "1"), bodies.get(path)))
    return found


@pytest.mark.parametrize("game_id", IDS)
def test_an_id_that_cannot_be_a_game_is_no_game(store: Store, game_id: str) -> None:
    with TestClient(create_app(store)) as client:
        new(client, "yams", "Ali", "Ece")  # a device with a game, asking for another
        asked = routes(client)
        assert len(asked) >= 10
        for method, path, body in asked:
            url = path.replace("{game_id}", quote(game_id, safe=""))
            reply = client.request(method, url, json=body)
            assert reply.status_code == 404, (method, path, reply.text)
            assert reply.json()["reason"] in ("unknown-game", "not-found"), reply.text
