"""Many clients at once, in-process over ASGI: the same action is applied once, one game's
actions are applied in a line, and different games never wait on each other."""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from fastapi import FastAPI

from zar import yams
from zar.dice import SeededDice
from zar.record import Record, action_to_json
from zar.server import create_app
from zar.server.games import Games
from zar.server.intents import Intent
from zar.store import Busy, SqliteStore
from zar.table import Seat

# Only a broken app waits this long: then the test fails instead of hanging.
STUCK = 30.0


@asynccontextmanager
async def client(
    app: FastAPI, of: httpx.AsyncClient | None = None
) -> AsyncIterator[httpx.AsyncClient]:
    """One client of the app (a browser tab, a phone); ``of``: another tab of that client's
    device (its credential)."""
    transport = httpx.ASGITransport(app=app)
    cookies = of.cookies if of is not None else None
    async with httpx.AsyncClient(
        transport=transport, base_url="http://testserver", cookies=cookies
    ) as c:
        yield c


async def new(
    c: httpx.AsyncClient, game: str, *players: str, computer: bool = False
) -> dict[str, Any]:
    body = {"game": game, "players": list(players), "computer": computer}
    response = await c.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def act(c: httpx.AsyncClient, game: dict[str, Any], **intent: Any) -> httpx.Response:
    body = {"version": game["version"], **intent}
    return await c.post(f"/api/games/{game['id']}/actions", json=body)


def stored_log(db: Path, game_id: str) -> tuple[Any, ...]:
    """The game's log as a fresh process reads it: replayed through the rules."""
    store = SqliteStore(db)
    try:
        return store.load(game_id).log
    finally:
        store.close()


def test_the_same_throw_from_twenty_clients_is_applied_once(store: SqliteStore, db: Path) -> None:
    app = create_app(store, dice=SeededDice(1))

    async def main() -> tuple[dict[str, Any], list[httpx.Response]]:
        async with client(app) as first:
            game = await new(first, "yams", "Ali")

        async def tap() -> httpx.Response:
            async with client(app, first) as c:  # twenty tabs of one device
                return await act(c, game, type="throw")

        return game, list(await asyncio.gather(*(tap() for _ in range(20))))

    game, replies = asyncio.run(main())
    assert Counter(r.status_code for r in replies) == {200: 1, 409: 19}
    assert {r.json()["version"] for r in replies} == {1}  # the 409s say where the game is
    assert {r.json()["reason"] for r in replies if r.status_code == 409} == {"stale-version"}
    log = stored_log(db, game["id"])
    assert len(log) == 1
    assert isinstance(log[0], yams.Throw)


def test_actions_on_one_game_are_applied_in_a_line(store: SqliteStore, db: Path) -> None:
    """Eight clients play one game of Yams as fast as they can, each on the state it last
    saw: every accepted action has its own version, none is lost or doubled."""
    app = create_app(store, dice=SeededDice(2))
    accepted: list[tuple[int, str]] = []  # (the version it made, the intention)

    async def player(game_id: str, host: httpx.AsyncClient) -> None:
        async with client(app, host) as c:  # eight tabs of the host's device
            while len(accepted) < 40:
                game = (await c.get(f"/api/games/{game_id}")).json()
                intent: dict[str, Any] = {"type": "fill", "box": next(iter(game["options"]), "")}
                if game["throws_left"] and (game["throws"] == 0 or len(accepted) % 3):
                    intent = {"type": "throw", "keep": [0] if game["throws"] else []}
                response = await act(c, game, **intent)
                assert response.status_code in (200, 409), response.text
                if response.status_code == 200:
                    accepted.append((response.json()["version"], intent["type"]))

    async def main() -> str:
        async with client(app) as c:
            game = await new(c, "yams", "Ali", "Ece")
            await asyncio.gather(*(player(game["id"], c) for _ in range(8)))
        return str(game["id"])

    game_id = asyncio.run(main())
    versions = sorted(version for version, _ in accepted)
    assert versions == list(range(1, len(accepted) + 1))  # contiguous, none twice
    log = stored_log(db, game_id)  # it replays through the rules
    assert len(log) == len(accepted)
    kinds = {"throw": yams.Throw, "fill": yams.Fill}
    for version, intent in accepted:
        assert isinstance(log[version - 1], kinds[intent]), version


class HeldDice:
    """Seeded dice whose next roll, once held, waits until the test lets it go."""

    def __init__(self) -> None:
        self._dice = SeededDice(3)
        self._lock = threading.Lock()
        self._gate: threading.Event | None = None
        self.waiting = threading.Event()

    def hold_next(self) -> threading.Event:
        gate = threading.Event()
        with self._lock:
            self._gate = gate
        return gate

    def roll(self, n: int) -> tuple[int, ...]:
        with self._lock:
            gate, self._gate = self._gate, None
        if gate is not None:
            self.waiting.set()
            if not gate.wait(STUCK):
                raise RuntimeError("the held roll was never let go")
        with self._lock:
            return self._dice.roll(n)


class HeldStore:
    """A store whose next append, once held, waits until the test lets it go."""

    def __init__(self, store: SqliteStore) -> None:
        self._store = store
        self._gate: threading.Event | None = None
        self.waiting = threading.Event()

    def hold_next(self) -> threading.Event:
        self._gate = threading.Event()
        return self._gate

    def append(self, *args: Any, wait: bool = True, **kwargs: Any) -> int:
        if self._gate is not None and not wait:
            raise Busy("held")  # as another writer would make it: tried again, waiting
        gate, self._gate = self._gate, None
        if gate is not None:
            self.waiting.set()
            if not gate.wait(STUCK):
                raise RuntimeError("the held append was never let go")
        version: int = self._store.append(*args, wait=wait, **kwargs)
        return version

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


@pytest.mark.parametrize("held", ["its dice", "its commit"])
def test_a_game_held_up_keeps_no_other_game_waiting(store: SqliteStore, held: str) -> None:
    """Game A's computer's throw is stopped inside the server (while its dice fall, or
    while it is committed, the store busy); game B is played meanwhile, and A goes on when
    let go."""
    dice = HeldDice()
    holder: HeldDice | HeldStore = dice
    if held == "its commit":
        holder = HeldStore(store)
        app = create_app(holder, dice=SeededDice(4))  # type: ignore[arg-type]
    else:
        app = create_app(store, dice=dice)

    async def main() -> None:
        async with client(app) as c:
            a = await new(c, "yams", "Ali", computer=True)
            b = await new(c, "10000", "Ece")
            a = (await act(c, a, type="throw")).json()
            a = (await act(c, a, type="fill", box=next(iter(a["options"])))).json()
            assert a["seat"] == 1  # the computer's turn
            release = holder.hold_next()
            a_throw = asyncio.create_task(act(c, a, type="computer"))
            assert await asyncio.to_thread(holder.waiting.wait, STUCK), "A never got there"
            # A is held inside the server. B plays a turn, and A can be looked at.
            b = (await act(c, b, type="throw")).json()
            for _ in range(3):
                if b["phase"] != "set-aside":
                    break
                best = max(b["selections"], key=lambda m: b["selections"][m].get("points", 0))
                chosen = [p for p in range(6) if int(best) >> p & 1]
                b = (await act(c, b, type="throw", set_aside=chosen)).json()
            assert b["version"] >= 2
            assert (await c.get(f"/api/games/{a['id']}")).json()["version"] == a["version"]
            assert not a_throw.done()
            release.set()
            reply = await a_throw
            assert reply.status_code == 200, reply.text
            assert reply.json()["version"] == a["version"] + 1
            assert len(reply.json()["dice"]) == 5

    asyncio.run(main())


class CountingStore(SqliteStore):
    """A store that counts the games it reads back, whole or from a version on."""

    loads = 0
    reads_since = 0

    def load(self, game_id: str) -> Any:
        self.loads += 1
        return super().load(game_id)

    def since(self, record: Any, game_id: str) -> Any:
        self.reads_since += 1
        return super().since(record, game_id)


def test_a_process_keeps_the_games_played_lately_and_reads_the_others_again(db: Path) -> None:
    store = CountingStore(db)
    games = Games(store, SeededDice(1), lambda: "2025-01-01T00:00:00.000+00:00", kept=2)
    seats = (Seat("Ali"),)

    async def main() -> None:
        first, second, third = [
            await games.create(Record.new("yams", seats), "host") for _ in range(3)
        ]
        await games.record(third)
        assert store.loads == 0  # the latest two are kept
        played = await games.act(first, Intent(version=0, type="throw"), "host")
        assert store.loads == 1  # the first was dropped: read again, then kept
        assert (await games.record(first)).version == played.version == 1
        assert store.loads == 1
        await games.record(second)  # dropped when the first came back
        assert store.loads == 2
        # No lock outlives its use: a game nobody acts on holds none.
        assert not games._locks

    asyncio.run(main())
    store.close()


def test_peeking_at_a_game_keeps_it_out_of_memory(db: Path) -> None:
    store = CountingStore(db)
    games = Games(store, SeededDice(1), lambda: "2025-01-01T00:00:00.000+00:00", kept=1)
    seats = (Seat("Ali"),)

    async def main() -> None:
        first = await games.create(Record.new("yams", seats), "host")
        second = await games.create(Record.new("yams", seats), "host")  # the first is dropped
        assert (await games.peek(first)).version == 0
        assert (await games.peek(second)).version == 0  # cached: not read
        assert store.loads == 1
        await games.record(second)  # still kept: the peek at the first pushed nothing out
        assert store.loads == 1

    asyncio.run(main())
    store.close()


def test_a_game_another_process_moved_on_is_caught_up_not_read_again(db: Path) -> None:
    """Two processes over one store (as over PostgreSQL): the one that did not move the game
    applies the actions the store told it of, or, told only the version, reads the actions
    that followed what it holds; never the whole game again."""
    now = lambda: "2025-01-01T00:00:00.000+00:00"  # noqa: E731
    mover = Games(SqliteStore(db), SeededDice(1), now)
    store = CountingStore(db)
    follower = Games(store, SeededDice(2), now)

    async def main() -> None:
        game = await mover.create(Record.new("yams", (Seat("Ali"),)), "host")
        assert (await follower.record(game)).version == 0
        assert store.loads == 1
        played = await mover.act(game, Intent(version=0, type="throw"), "host")
        told = json.dumps([action_to_json(a) for a in played.log])
        follower.changed(game, played.version, told)  # the store's word, actions and all
        assert await follower.record(game) == played
        played = await mover.act(game, Intent(version=1, type="throw", keep=[0]), "host")
        follower.changed(game, played.version)  # the version alone
        assert await follower.record(game) == played
        assert (store.loads, store.reads_since) == (1, 1)

    asyncio.run(main())
    store.close()
    mover.store.close()
