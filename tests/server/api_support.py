"""What the API tests share: a clock the test moves, a new game and an intention over HTTP,
an invitation and its secret, the luck accounts waited for (dice a test scripts are in
``dice_support``)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

__all__ = ["Clock", "Days", "act", "invite", "new", "secret", "settle", "yams_alone"]

Game = dict[str, Any]


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Days:
    """The server's clock (ISO 8601 times from 2026-12-01), moved by hand in days; each
    reading a microsecond later than the one before."""

    START = datetime(2026, 12, 1, tzinfo=UTC)

    def __init__(self) -> None:
        self.days = 0.0
        self._ticks = itertools.count()

    def __call__(self) -> str:
        moment = self.START + timedelta(days=self.days, microseconds=next(self._ticks))
        return moment.isoformat(timespec="microseconds")


def new(client: TestClient, game: str, *players: str, **options: Any) -> dict[str, Any]:
    """A new game of these players (and options), as the server returns it."""
    response = client.post("/api/games", json={"game": game, "players": list(players), **options})
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def act(client: TestClient, game: Game, **intent: Any) -> Game:
    """An intention on the game as the client last saw it (its version), answered 200."""
    response = client.post(
        f"/api/games/{game['id']}/actions", json={"version": game["version"], **intent}
    )
    assert response.status_code == 200, response.text
    result: Game = response.json()
    return result


def yams_alone(client: TestClient) -> Game:
    """A whole game of Yams for Ali: one throw a round, written in the first box open."""
    game = new(client, "yams", "Ali")
    for _ in range(13):
        game = act(client, game, type="throw")
        game = act(client, game, type="fill", box=next(iter(game["options"])))
    assert game["over"]
    return game


def invite(host: TestClient, game: Game) -> dict[str, Any]:
    """The host's invitation to the game (its links, its code), answered 201."""
    response = host.post(f"/api/games/{game['id']}/invitations")
    assert response.status_code == 201, response.text
    invitation: dict[str, Any] = response.json()
    return invitation


def secret(link: str) -> str:
    """The secret in an invitation's link: after ``#join=`` or ``#watch=``."""
    return link.split("=", 1)[1]


def settle(client: TestClient) -> None:
    """Wait until every luck account the server has scheduled is kept."""
    app: Any = client.app
    assert client.portal is not None
    client.portal.call(app.state.games.settled)
