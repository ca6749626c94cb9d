"""What the API tests share: a clock the test moves, and a new game over HTTP (dice a test
scripts are in ``dice_support``)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

__all__ = ["Clock", "new"]


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def new(client: TestClient, game: str, *players: str, **options: Any) -> dict[str, Any]:
    """A new game of these players (and options), as the server returns it."""
    response = client.post("/api/games", json={"game": game, "players": list(players), **options})
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result
