"""Hearing the other processes sharing a PostgreSQL database: ``LISTEN`` on
:data:`CHANNEL`, in a thread of its own, with a connection of its own.

What a process announces there (:class:`~zar.store.postgres.PostgresStore` sends it with
each append, a seating changed, a device come or gone) reaches every process listening when
its transaction commits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import psycopg

__all__ = ["CHANNEL", "listen", "watch"]

CHANNEL = "zar_games"

Changed = Callable[[str | None, int, str], None]


def listen(url: str) -> psycopg.Connection[Any]:
    """A connection of its own to the database at ``url``, listening on :data:`CHANNEL`."""
    db = psycopg.connect(url, autocommit=True, connect_timeout=10)
    try:
        db.execute(f"LISTEN {CHANNEL}")
    except psycopg.Error:
        db.close()
        raise
    return db


def _heard(payload: str, changed: Changed) -> None:
    """``id:version:actions`` or ``id:version`` (an append), ``id:seating``, ``id:note``
    (announced), told to ``changed``; another program's words are ignored."""
    game_id, _, what = payload.partition(":")
    if not game_id or not what:
        return
    version, _, actions = what.partition(":")
    if version.isdigit():
        changed(game_id, int(version), actions)
    elif what == "seating" or what.startswith("presence "):
        changed(game_id, -1, what)


def watch(url: str, changed: Changed) -> Callable[[], None]:
    """Tell ``changed`` what is announced on :data:`CHANNEL`, until the function returned is
    called. Listening has begun when this returns (else ``psycopg.Error``). If the connection
    drops, the thread connects again and says ``changed(None, 0, "")``: what was announced
    meanwhile is lost."""
    stop = threading.Event()
    first = listen(url)

    def run() -> None:
        db: psycopg.Connection[Any] | None = first
        while not stop.is_set():
            try:
                if db is None:
                    db = listen(url)
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
