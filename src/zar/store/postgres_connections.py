"""The connections :class:`~zar.store.postgres.PostgresStore` holds besides its pool of
requests: each event loop's own pool (appends awaited there), the connection that listens
to the other processes' changes, the check that a connection idle a while still stands,
and a URL or an error in words a person may read.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from zar.store.base import StoreUnavailable

__all__ = ["CHANNEL", "CHECK_IDLE_S", "Freshness", "LoopPools", "first_line", "listen", "readable"]

CHANNEL = "zar_games"
# A connection given back longer ago than this is checked before it is handed out again.
CHECK_IDLE_S = 1.0

Changed = Callable[[str | None, int, str], None]


class Freshness:
    """When each connection of a pool was given back: one idle longer than
    :data:`CHECK_IDLE_S` is checked (a round trip) before it is handed out again."""

    def __init__(self) -> None:
        self._back: WeakKeyDictionary[Any, float] = WeakKeyDictionary()

    def returned(self, db: psycopg.Connection[Any]) -> None:
        self._back[db] = time.monotonic()

    def _stale(self, db: Any) -> bool:
        return time.monotonic() - self._back.get(db, -math.inf) > CHECK_IDLE_S

    def check(self, db: psycopg.Connection[Any]) -> None:
        if self._stale(db):
            ConnectionPool.check_connection(db)

    async def returned_async(self, db: psycopg.AsyncConnection[Any]) -> None:
        self._back[db] = time.monotonic()

    async def check_async(self, db: psycopg.AsyncConnection[Any]) -> None:
        if self._stale(db):
            await AsyncConnectionPool.check_connection(db)


class LoopPools:
    """The event loops' own pools, one a loop, for appends awaited on it: each opened on
    first use, its connections opened as they are asked for, as many at most as
    ``max_size``."""

    def __init__(self, url: str, *, max_size: int, timeout: float) -> None:
        self._url, self._max_size, self._timeout = url, max_size, timeout
        self._pools: dict[asyncio.AbstractEventLoop, AsyncConnectionPool[Any]] = {}

    async def running(self) -> AsyncConnectionPool[Any]:
        """The running loop's pool, open."""
        loop = asyncio.get_running_loop()
        pool = self._pools.get(loop)
        if pool is None:
            fresh = Freshness()
            pool = self._pools[loop] = AsyncConnectionPool(
                self._url,
                min_size=0,
                max_size=self._max_size,
                timeout=self._timeout,
                kwargs={"autocommit": True},
                check=fresh.check_async,
                reset=fresh.returned_async,
                open=False,
                name="zar-async",
            )
        if pool.closed:
            await pool.open()
        return pool

    async def close_running(self) -> None:
        """Close the running loop's pool, if it has one."""
        pool = self._pools.pop(asyncio.get_running_loop(), None)
        if pool is not None:
            await pool.close()


def listen(url: str, name: str, changed: Changed) -> Callable[[], None]:
    """Listen on ``zar_games`` in a thread of its own, with a connection of its own; the
    function returned stops it.

    Listening has begun when this returns. If the connection drops, the thread connects
    again and says ``changed(None, 0, "")``: what was announced meanwhile is lost.
    """
    stop = threading.Event()
    try:
        first = _listening(url)
    except psycopg.Error as error:
        raise StoreUnavailable(f"{name}: {first_line(error)}", writing=False) from error

    def run() -> None:
        db: psycopg.Connection[Any] | None = first
        while not stop.is_set():
            try:
                if db is None:
                    db = _listening(url)
                    changed(None, 0, "")
                for note in db.notifies(timeout=0.5):
                    _heard(note.payload, changed)
            except psycopg.Error:
                if db is not None:
                    db.close()
                db = None
                stop.wait(1)
        if db is not None:
            db.close()

    thread = threading.Thread(target=run, name="zar-listen", daemon=True)
    thread.start()

    def close() -> None:
        stop.set()
        thread.join()

    return close


def _heard(payload: str, changed: Changed) -> None:
    """``id:version:actions`` or ``id:version`` (an append), ``id:seating``, ``id:note``
    (announced); another program's words are ignored."""
    game_id, _, what = payload.partition(":")
    if not game_id or not what:
        return
    version, _, actions = what.partition(":")
    if version.isdigit():
        changed(game_id, int(version), actions)
    elif what == "seating" or what.startswith("presence "):
        changed(game_id, -1, what)


def _listening(url: str) -> psycopg.Connection[Any]:
    db = psycopg.connect(url, autocommit=True, connect_timeout=10)
    try:
        db.execute(f"LISTEN {CHANNEL}")
    except psycopg.Error:
        db.close()
        raise
    return db


def readable(url: str) -> str:
    """The URL for people to read, without its password:
    ``postgresql://user@host:port/database``."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.Error:
        return "postgresql://?"
    user = f"{parts['user']}@" if parts.get("user") else ""
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{parts.get('host', '')}{port}/{parts.get('dbname', '')}"


def first_line(error: Exception) -> str:
    """An error's first line, or its kind's name if it says nothing."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
