"""What a cache may keep, from the attacker's side: a shared cache in front of the server
(or a browser's on a phone passed around) that kept a device's game, log, review, export,
lists or statistics would hand them to whoever asks next. Every such reply, refusals too,
says ``Cache-Control: private, no-store`` and ``Vary: Cookie``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import new
from zar.server import create_app
from zar.server.caching import PRIVATE
from zar.store import SqliteStore


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    with TestClient(create_app(store, dice=ScriptedDice(), games_per_minute=None)) as opened:
        yield opened


def test_no_cache_keeps_a_devices_replies(client: TestClient) -> None:
    game = new(client, "yams", "Ali", "Ece")["id"]
    asked = [
        ("GET", "/api/games"),
        ("GET", "/api/games?finished=true"),
        ("GET", f"/api/games/{game}"),
        ("GET", f"/api/games/{game}?at=0"),
        ("GET", f"/api/games/{game}/log"),
        ("GET", f"/api/games/{game}/progress"),
        ("GET", f"/api/games/{game}/review"),  # not finished: a refusal, private all the same
        ("GET", f"/api/games/{game}/hint"),
        ("GET", f"/api/games/{game}/export"),
        ("GET", f"/api/games/{game}/export?format=csv"),
        ("GET", "/api/games/unknown/log"),
        ("GET", "/api/stats?game=yams"),
        ("GET", "/api/stats/export?game=yams&format=csv"),
        ("POST", f"/api/games/{game}/invitations"),
    ]
    for method, path in asked:
        reply = client.request(method, path)
        assert reply.headers.get("cache-control") == PRIVATE, (path, reply.status_code)
        vary = [v.strip().lower() for v in reply.headers.get("vary", "").split(",")]
        assert "cookie" in vary, path
    stranger = TestClient(client.app)
    refused = stranger.get(f"/api/games/{game}/export")
    assert refused.status_code == 403
    assert refused.headers["cache-control"] == PRIVATE


def test_the_words_everyone_reads_are_left_to_their_own_rules(client: TestClient) -> None:
    """The page's words and setup are the same for every device: the service worker keeps
    the words for offline play."""
    for path in ("/api/setup", "/api/i18n/en"):
        assert "no-store" not in client.get(path).headers.get("cache-control", ""), path
