"""No client fills the store, from the attacker's side: fresh devices past a game's watchers
are refused in words, nothing stored; a device or an address inviting in a loop is refused
with 429 and ``Retry-After``, nothing stored; the server prunes by itself what its retention
says (invitations expired, devices unseen, abandoned games as the operator chooses).

Each ``TestClient`` is one device (its cookie jar holds its credential)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import act, new
from zar.i18n import text
from zar.server import create_app
from zar.server.inviting import INVITATION_RATES
from zar.store import SqliteStore

START = datetime(2026, 12, 1, tzinfo=UTC)
TABLES = ("games", "actions", "access", "invitations", "devices")


def rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Everything the store holds (the devices' credentials too), as a fresh reader sees it."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as reader:
        return {t: list(reader.execute(f"SELECT * FROM {t} ORDER BY 1, 2")) for t in TABLES}


class Moment:
    """The server's clocks, moved by hand: the time of day (in days) and the monotonic one."""

    def __init__(self) -> None:
        self.days = 0.0
        self.seconds = 0.0

    def __call__(self) -> str:
        return (START + timedelta(days=self.days)).isoformat(timespec="milliseconds")

    def monotonic(self) -> float:
        return self.seconds


@pytest.fixture
def moment() -> Moment:
    return Moment()


def app_on(db: Path, moment: Moment, **options: Any) -> tuple[SqliteStore, FastAPI]:
    store = SqliteStore(db)
    app = create_app(
        store,
        dice=ScriptedDice(),
        clock=moment,
        monotonic=moment.monotonic,
        games_per_minute=None,
        **options,
    )
    return store, app


@pytest.fixture
def devices(db: Path, moment: Moment) -> Iterator[list[TestClient]]:
    """Devices on an app whose games are watched by three devices at most."""
    store, app = app_on(db, moment, watchers_per_game=3)
    opened = [TestClient(app) for _ in range(6)]
    for client in opened:
        client.__enter__()
    yield opened
    for client in opened:
        client.__exit__(None, None, None)
    store.close()


def invited(host: TestClient, game_id: str, status: int = 201, **kw: Any) -> Any:
    response = host.post(f"/api/games/{game_id}/invitations", **kw)
    assert response.status_code == status, response.text
    return response


def test_a_watcher_past_the_cap_is_refused_in_words_and_nothing_is_stored(
    devices: list[TestClient], db: Path
) -> None:
    """Three devices watch a game; the fourth fresh device is refused (403
    ``too-many-watchers``, in the three languages), given no credential and the store
    unchanged, by the watch link and by the seat's link alike. A watcher already there
    watches again; a seat's holder is no watcher more."""
    host, *others = devices
    game = new(host, "yams", "Ali", "Ece")
    links = invited(host, game["id"]).json()
    watch, join = links["watch"].split("=", 1)[1], links["join"].split("=", 1)[1]
    for watcher in others[:3]:
        response = watcher.post("/api/invitations/watch", json={"invitation": watch})
        assert response.status_code == 200, response.text
    before = rows(db)
    late = others[3]
    for lang in ("tr", "fr", "en"):
        for secret in (watch, join):
            response = late.post(f"/api/invitations/watch?lang={lang}", json={"invitation": secret})
            assert response.status_code == 403, response.text
            assert response.json() == {
                "detail": text(lang, "forbidden-too-many-watchers", limit=3),
                "reason": "too-many-watchers",
            }
            assert "set-cookie" not in response.headers
            assert rows(db) == before
    assert late.get(f"/api/games/{game['id']}").status_code == 403
    again = others[0].post("/api/invitations/watch", json={"invitation": watch})
    assert again.status_code == 200
    assert rows(db) == before
    # A guest takes a seat: not a watcher, so the watchers are still three, and full.
    guest = others[4]
    claimed = guest.post("/api/invitations/claim", json={"invitation": join, "seat": 1})
    assert claimed.status_code == 200, claimed.text
    refused = late.post("/api/invitations/watch", json={"invitation": watch})
    assert refused.json()["reason"] == "too-many-watchers"


def test_invitations_past_a_devices_and_an_addresss_budget_are_refused(
    db: Path, moment: Moment
) -> None:
    """A host inviting in a loop gets its device's ten, then 429 ``too-many-invitations``
    with ``Retry-After`` in the three languages, nothing stored; its address's other hosts
    get the address's thirty in all. A refused invitation (not the host's) counts nothing,
    and the budget fills again with time."""
    device_rate, address_rate = INVITATION_RATES["device"], INVITATION_RATES["address"]
    store, app = app_on(db, moment)
    hosts = [TestClient(app) for _ in range(4)]
    try:
        for client in hosts:
            client.__enter__()
        games = [new(client, "yams", "Ali", "Ece")["id"] for client in hosts]
        stranger = hosts[3]
        for _ in range(device_rate.burst + 3):  # not the host's: refused, counts nothing
            invited(stranger, games[0], 403)
        for _ in range(device_rate.burst):
            invited(hosts[0], games[0])
        before = rows(db)
        wait = round(1 / device_rate.per_second)
        for lang in ("tr", "fr", "en"):
            response = invited(hosts[0], games[0], 429, headers={"accept-language": lang})
            assert response.headers["retry-after"] == str(wait)
            assert response.json() == {
                "detail": text(lang, "too-many-invitations", seconds=wait),
                "reason": "too-many-invitations",
            }
        assert rows(db) == before
        # The address's budget: thirty in all, whichever device asks.
        for host, game_id in zip(hosts[1:3], games[1:3], strict=True):
            for _ in range(device_rate.burst):
                invited(host, game_id)
        response = invited(hosts[3], games[3], 429)
        assert response.headers["retry-after"] == str(round(1 / address_rate.per_second))
        assert {**rows(db), "invitations": []} == {**before, "invitations": []}
        assert len(rows(db)["invitations"]) == 2 * address_rate.burst
        # A minute on, each device may invite again, one each.
        moment.seconds += 60
        invited(hosts[3], games[3])
        invited(hosts[0], games[0])
        invited(hosts[0], games[0], 429)
    finally:
        for client in hosts:
            client.__exit__(None, None, None)
        store.close()


def serve_once(db: Path, moment: Moment, **options: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Start the server at ``moment`` and stop it once it pruned as it starts: what the
    store then holds."""
    store, app = app_on(db, moment, **options)
    try:
        with TestClient(app):
            for _ in range(600):  # the pruning is a task of its own: until it is done
                if app.state.pruned:
                    break
                time.sleep(0.05)
            assert app.state.pruned
    finally:
        store.close()
    return rows(db)


def test_the_server_prunes_what_its_retention_says_by_itself(db: Path, moment: Moment) -> None:
    """As it starts (then hourly), the server prunes the invitations once expired, the
    devices unseen for 400 days with their rows as watchers, and the abandoned games after
    the days the operator keeps them (``keep_abandoned_days``; by default every game)."""
    store, app = app_on(db, moment)
    with TestClient(app) as host, TestClient(app) as watcher:
        kept = new(host, "yams", "Ali", "Ece")
        ended = new(host, "yams", "Ali", "Ece")
        act(host, ended, type="abandon")
        watch = invited(host, kept["id"]).json()["watch"].split("=", 1)[1]
        assert watcher.post("/api/invitations/watch", json={"invitation": watch}).status_code == 200
    store.close()
    made = rows(db)
    assert len(made["invitations"]) == 2
    assert len(made["devices"]) == 2

    moment.days = 2  # the invitations expired a day ago; the games are kept by default
    held = serve_once(db, moment)
    assert held == {**made, "invitations": []}

    moment.days = 31  # kept 30 days after it was abandoned
    held = serve_once(db, moment, keep_abandoned_days=30)
    assert [g[0] for g in held["games"]] == [kept["id"]]
    assert {a[0] for a in held["access"]} == {kept["id"]}
    assert {a[0] for a in held["actions"]} <= {kept["id"]}
    assert held["devices"] == made["devices"]

    moment.days = 401  # both devices unseen for 400 days: gone, the watcher's row too
    held = serve_once(db, moment, keep_abandoned_days=30)
    assert held["devices"] == []
    assert held["access"] == [
        row for row in made["access"] if row[0] == kept["id"] and row[2] != -2
    ]
    assert [g[0] for g in held["games"]] == [kept["id"]]


def test_a_seating_moved_on_by_another_process_is_judged_again_on_the_stored_one(
    db: Path, moment: Moment
) -> None:
    """A seat's move is judged on the seating kept in memory (its watchers not read again);
    one another process moved on meanwhile is refused by the store, read afresh and the
    move judged again on it: nothing of the other process's change is lost."""
    first, one = app_on(db, moment)
    second, other = app_on(db, moment)
    with TestClient(one) as host, TestClient(other) as guest:
        game = new(host, "yams", "Ali", "Ece")
        join = invited(host, game["id"]).json()["join"].split("=", 1)[1]
        claimed = guest.post("/api/invitations/claim", json={"invitation": join, "seat": 1})
        assert claimed.status_code == 200, claimed.text
        # The host's process still keeps the seating before the claim.
        moved = host.post(f"/api/games/{game['id']}/seats/1", json={"to": "computer"})
        assert moved.status_code == 200, moved.text
        seat = moved.json()["seats"][1]
        assert seat["holder"] == "guest"
        assert seat["standin"] is not None
        assert moved.json()["seating_rev"] == 2
    first.close()
    second.close()
