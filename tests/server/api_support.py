"""What the API tests share: dice that fall as a test says, a clock the test moves, and a
new game over HTTP."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

__all__ = ["Clock", "ScriptedDice", "new"]


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ScriptedDice:
    """Dice that fall as the test says, then from a fixed cycle."""

    def __init__(self) -> None:
        self.queue: list[int] = []
        self._cycle = 0

    def script(self, *faces: int) -> None:
        self.queue.extend(faces)

    def roll(self, n: int) -> tuple[int, ...]:
        faces = []
        for _ in range(n):
            if self.queue:
                faces.append(self.queue.pop(0))
            else:
                self._cycle += 1
                faces.append(self._cycle % 6 + 1)
        return tuple(faces)


def new(client: TestClient, game: str, *players: str, **options: Any) -> dict[str, Any]:
    """A new game of these players (and options), as the server returns it."""
    response = client.post("/api/games", json={"game": game, "players": list(players), **options})
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result
