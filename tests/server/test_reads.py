"""The heavy reads from the attacker's side: a client asking for a finished game's review,
export, log or hint in a loop gets what was worked out once for that version (a lookup),
is slowed past its budget (429 ``too-many-reads`` in words, with ``Retry-After``, the store
unchanged), and what was kept is given to nobody the rights refuse."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from server.api_support import Clock, act, new, settle, yams_alone
from zar.ai.yams import Strategy
from zar.dice import SeededDice
from zar.i18n import text
from zar.server import analysis, create_app
from zar.server.limits import Rate
from zar.server.reads import READ_RATES, Kept, Reads
from zar.store import SqliteStore

Game = dict[str, Any]
HERE, THERE = ("192.0.2.1", 4000), ("192.0.2.2", 4000)


def serve(
    store: SqliteStore, clock: Clock, rates: Mapping[str, Rate] | None = READ_RATES
) -> FastAPI:
    return create_app(
        store,
        dice=ScriptedDice(SeededDice(17)),
        games_per_minute=None,
        read_rates=rates,
        monotonic=clock,
    )


@pytest.fixture
def strategies(solved: Callable[[str], Strategy]) -> None:
    solved("standard")  # in the session's cache, for the server to read


def counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """How many times the routes work ``name`` out (``review``, ``luck_figures``...)."""
    calls: list[int] = []
    original = getattr(analysis, name)

    def counted(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(analysis, name, counted)
    return calls


def dump(db: Path) -> str:
    return "".join(sqlite3.connect(db).iterdump())


@pytest.mark.usefixtures("strategies")
def test_a_loop_of_reviews_and_exports_works_each_out_once_per_version(
    store: SqliteStore, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(serve(store, clock, None)) as client:
        game = yams_alone(client)
        reviews, lucks = counting(monkeypatch, "review"), counting(monkeypatch, "luck_figures")
        path = f"/api/games/{game['id']}"
        first = client.get(f"{path}/review?lang=en").json()
        exported = client.get(f"{path}/export").content
        for _ in range(20):
            assert client.get(f"{path}/review?lang=en").json() == first
            assert client.get(f"{path}/export").content == exported
            assert client.get(f"{path}/log").status_code == 200
        assert (len(reviews), len(lucks)) == (1, 1)
        # Another language is another review; the CSV another file.
        assert client.get(f"{path}/review?lang=fr").json() != first
        assert client.get(f"{path}/export?format=csv").status_code == 200
        assert (len(reviews), len(lucks)) == (2, 2)


@pytest.mark.usefixtures("strategies")
def test_a_hint_is_worked_out_again_once_the_game_moves(
    store: SqliteStore, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(serve(store, clock, None)) as client:
        game = act(client, new(client, "yams", "Ali"), type="throw")
        hints = counting(monkeypatch, "hint")
        path = f"/api/games/{game['id']}/hint?lang=en"
        first = client.get(path).json()
        for _ in range(10):
            assert client.get(path).json() == first
        game = act(client, game, type="throw", keep=[0])
        assert client.get(path).json() != first
        assert client.get(path).status_code == 200
        assert len(hints) == 2


@pytest.mark.usefixtures("strategies")
def test_what_is_kept_is_given_to_nobody_the_rights_refuse(
    store: SqliteStore, clock: Clock, db: Path
) -> None:
    app = serve(store, clock, None)
    with TestClient(app) as host, TestClient(app) as stranger:
        game = yams_alone(host)
        settle(host)  # its luck account kept
        for route in ("review", "export", "log", "progress"):
            assert host.get(f"/api/games/{game['id']}/{route}").status_code == 200
            before = dump(db)
            refused = stranger.get(f"/api/games/{game['id']}/{route}")
            assert (refused.status_code, refused.json()["reason"]) == (403, "not-at-table")
            assert dump(db) == before


@pytest.mark.usefixtures("strategies")
def test_a_looping_reader_is_slowed_and_the_store_stays_as_it_was(
    store: SqliteStore, clock: Clock, db: Path
) -> None:
    """A device past its budget is slowed, in words, whatever it reads; another device at
    the same address, past the address's, too; another address is not."""
    app = serve(store, clock, {"device": Rate(10, 0.5), "address": Rate(15, 1.0)})
    with TestClient(app, client=HERE) as looper, TestClient(app, client=HERE) as other:
        game = yams_alone(looper)
        settle(looper)
        path = f"/api/games/{game['id']}"
        for _ in range(10):
            assert looper.get(f"{path}/review").status_code == 200
        before = dump(db)
        for route in ("review", "export?format=csv", "log", "progress", "hint"):
            refused = looper.get(f"{path}/{route}{'&' if '?' in route else '?'}lang=fr")
            assert refused.status_code == 429, route
            assert refused.headers["retry-after"] == "2"
            assert refused.json() == {
                "detail": text("fr", "too-many-reads", seconds=2),
                "reason": "too-many-reads",
            }
        assert looper.get("/api/stats?game=yams").status_code == 429
        assert dump(db) == before
        mine = yams_alone(other)
        for _ in range(5):
            assert other.get(f"/api/games/{mine['id']}/export").status_code == 200
        assert other.get(f"/api/games/{mine['id']}/export").json()["reason"] == "too-many-reads"
        clock.now += 2  # the device's bucket holds one read again
        assert looper.get(f"{path}/review").status_code == 200
        assert looper.get(f"{path}/review").status_code == 429
    with TestClient(app, client=THERE) as elsewhere:
        theirs = yams_alone(elsewhere)
        assert elsewhere.get(f"/api/games/{theirs['id']}/review").status_code == 200


def test_the_refusal_is_said_in_three_languages() -> None:
    said = {lang: text(lang, "too-many-reads", seconds=3) for lang in ("tr", "fr", "en")}
    assert len(set(said.values())) == 3
    assert all("3" in words for words in said.values())


def test_concurrent_asks_share_one_working_out() -> None:
    """Many askers at once, the working out slow: it runs once, off the event loop, and
    every asker gets its reply; the loop answers meanwhile."""
    reads = Reads()
    calls: list[int] = []
    started = threading.Event()
    release = threading.Event()

    def work() -> Kept:
        calls.append(1)
        started.set()
        assert release.wait(10)
        return Kept(b'{"review": 1}', "application/json")

    async def ask() -> list[Kept]:
        askers = [
            asyncio.create_task(reads.kept(("g", 30, "review", "en"), work)) for _ in range(8)
        ]
        while not started.is_set():
            await asyncio.sleep(0.001)  # the loop turns while the working out runs
        release.set()
        return await asyncio.gather(*askers)

    replies = asyncio.run(ask())
    assert len(calls) == 1
    assert {reply.body for reply in replies} == {b'{"review": 1}'}


def test_a_refusal_is_kept_by_nobody() -> None:
    reads = Reads()
    calls: list[int] = []

    def work() -> Kept:
        calls.append(1)
        raise ValueError("not finished")

    async def ask() -> None:
        for _ in range(2):
            with pytest.raises(ValueError, match="not finished"):
                await reads.kept(("g", 3, "review", "en"), work)

    asyncio.run(ask())
    assert (len(calls), len(reads)) == (2, 0)


def test_the_kept_replies_are_bounded() -> None:
    reads = Reads(max_bytes=100)

    async def fill() -> None:
        for version in range(10):
            await reads.kept(("g", version, "export-json", ""), lambda: Kept(b"x" * 30, "a"))
        await reads.kept(("g", 99, "export-json", ""), lambda: Kept(b"x" * 101, "a"))

    asyncio.run(fill())
    assert len(reads) == 3  # the latest three: 90 bytes of 100; one over 100 kept by none
