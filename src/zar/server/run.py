"""Serving the app: ``zar serve`` (and ``make run``) on 127.0.0.1, games in a SQLite file."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import uvicorn

from zar.ai import computer_player
from zar.server.app import create_app
from zar.store import SqliteStore, default_db_path

__all__ = ["DEFAULT_PORT", "serve"]

DEFAULT_PORT = 8000


def serve(host: str = "127.0.0.1", port: int | None = None, db: Path | None = None) -> None:
    """Serve until stopped; ``ZAR_PORT`` and ``ZAR_DB`` give the port and the database file."""
    port = port or int(os.environ.get("ZAR_PORT") or DEFAULT_PORT)
    path = db or default_db_path()
    store = SqliteStore(path)
    print(f"Zar: http://{host}:{port}/  (games in {path})", flush=True)
    # The optimal Yams player is read from its cache (or built, the first time on a
    # machine) in the background, before the first game asks it for a move.
    threading.Thread(target=computer_player, args=("yams", "expert"), daemon=True).start()
    try:
        uvicorn.run(create_app(store), host=host, port=port, log_level="warning")
    finally:
        store.close()
