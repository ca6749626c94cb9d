"""When the store cannot write (a full disk, a read-only file) the server says so (503, in the
player's language) and the game stays as it was; a database that cannot be opened stops
``zar serve`` with one line, never a traceback."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.serving import free_port
from store_support import pages
from zar.dice import SeededDice
from zar.i18n import text
from zar.server import create_app
from zar.store import GameSummary, SqliteStore, StoreUnavailable

SIX = ["Ali", "Ece", "Can", "Ayşe", "Deniz", "Mert"]


def next_intent(game: dict[str, Any]) -> dict[str, Any]:
    """Throw once, then write the first box offered."""
    if game["throws"] == 0:
        return {"version": game["version"], "type": "throw"}
    return {"version": game["version"], "type": "fill", "box": sorted(game["options"])[0]}


HOST: dict[str, str] = {}  # the credential of the device that started the game, once it has


@pytest.fixture
def started(tmp_path: Path) -> tuple[Path, str]:
    """A file holding a six-person Yams, just started; its id. The clients of ``client_on``
    are the device that started it."""
    path = tmp_path / "zar.sqlite3"
    store = SqliteStore(path)
    with TestClient(create_app(store)) as client:
        game = client.post("/api/games", json={"game": "yams", "players": SIX}).json()
        HOST.clear()
        HOST.update(client.cookies)
    store.close()
    return path, game["id"]


@pytest.fixture
def client_on() -> Iterator[Callable[[SqliteStore], TestClient]]:
    """``client_on(store)``: a test client of the app over ``store`` (the device that
    started the game, if one was), both closed after."""
    with ExitStack() as opened:

        def open_client(store: SqliteStore) -> TestClient:
            opened.callback(store.close)
            app = create_app(store, dice=SeededDice(7))
            return opened.enter_context(TestClient(app, cookies=dict(HOST)))

        yield open_client


def test_a_full_disk_is_a_503_and_the_game_stays_as_it_was(
    started: tuple[Path, str], client_on: Callable[[SqliteStore], TestClient]
) -> None:
    path, game_id = started
    client = client_on(SqliteStore(path, max_pages=pages(path)))  # not one page more
    shown = client.get(f"/api/games/{game_id}?lang=en").json()
    for _ in range(13 * 6 * 2):  # a page fills long before the game ends
        response = client.post(f"/api/games/{game_id}/actions?lang=en", json=next_intent(shown))
        if response.status_code != 200:
            break
        shown = response.json()
    assert response.status_code == 503
    assert response.json() == {"detail": text("en", "not-saved"), "reason": "not-saved"}
    assert response.json()["detail"].startswith("The game could not be saved")
    again = client.post(
        f"/api/games/{game_id}/actions", json=next_intent(shown), headers={"accept-language": "fr"}
    )
    assert again.status_code == 503
    assert again.json()["detail"] == text("fr", "not-saved")
    assert client.get(f"/api/games/{game_id}?lang=en").json() == shown  # the cache as it was

    roomy = client_on(SqliteStore(path))  # room again: every earlier action, not the failed one
    assert roomy.get(f"/api/games/{game_id}?lang=en").json() == shown
    moved = roomy.post(f"/api/games/{game_id}/actions", json=next_intent(shown))
    assert moved.status_code == 200
    assert moved.json()["version"] == shown["version"] + 1


def test_a_read_only_file_is_a_503_and_the_games_stay_as_they_were(
    started: tuple[Path, str], client_on: Callable[[SqliteStore], TestClient]
) -> None:
    path, game_id = started
    client = client_on(SqliteStore(f"file:{path}?mode=ro"))
    shown = client.get(f"/api/games/{game_id}").json()
    response = client.post(f"/api/games/{game_id}/actions?lang=tr", json=next_intent(shown))
    assert response.status_code == 503
    assert response.json() == {"detail": text("tr", "not-saved"), "reason": "not-saved"}
    assert client.get(f"/api/games/{game_id}").json() == shown
    created = client.post("/api/games", json={"game": "10000", "players": ["Ali"]})
    assert created.status_code == 503
    assert [g["id"] for g in client.get("/api/games").json()] == [game_id]


class Unreachable(SqliteStore):
    """A store whose database cannot be read, as when the server is out of reach."""

    def games(
        self,
        *,
        finished: bool | None = None,
        kind: str | None = None,
        limit: int = 50,
        offset: int = 0,
        device: str | None = None,
    ) -> list[GameSummary]:
        raise StoreUnavailable("the server is out of reach", writing=False)

    def device_seen(self, key: str, now: str, since: str) -> bool:
        raise StoreUnavailable("the server is out of reach", writing=False)


def test_a_store_out_of_reach_is_a_503(
    tmp_path: Path, client_on: Callable[[SqliteStore], TestClient]
) -> None:
    client = client_on(Unreachable(tmp_path / "zar.sqlite3"))
    client.cookies.set("zar_device", "a-device-that-asks-for-its-games-0123456789")
    response = client.get("/api/games?lang=fr")
    assert response.status_code == 503
    assert response.json() == {"detail": text("fr", "not-read"), "reason": "not-read"}


def damaged(tmp_path: Path, started: tuple[Path, str]) -> dict[str, str]:
    copy = tmp_path / "damaged.sqlite3"
    shutil.copy(started[0], copy)
    with copy.open("r+b") as file:
        file.seek(4096)
        file.write(b"\xa5" * 300)
    return {"ZAR_DB": str(copy)}


def newer(tmp_path: Path, started: tuple[Path, str]) -> dict[str, str]:
    db = sqlite3.connect(started[0])
    db.execute("PRAGMA user_version=99")
    db.close()
    return {"ZAR_DB": str(started[0])}


def out_of_reach(tmp_path: Path, started: tuple[Path, str]) -> dict[str, str]:
    return {"ZAR_DATABASE_URL": f"postgresql://zar@127.0.0.1:{free_port()}/zar"}


@pytest.mark.parametrize(
    ("spoil", "said"),
    [(damaged, "damaged"), (newer, "newer Zar"), (out_of_reach, "cannot be opened")],
    ids=["damaged", "newer", "out-of-reach"],
)
def test_zar_serve_refuses_a_database_it_cannot_use_in_one_line(
    tmp_path: Path, started: tuple[Path, str], spoil: Any, said: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("ZAR_DB", "ZAR_DATABASE_URL")}
    env.update(ZAR_PORT=str(free_port()), **spoil(tmp_path, started))
    done = subprocess.run(
        [sys.executable, "-m", "zar", "serve"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("zar: ")
    assert said in lines[0]
    where = env.get("ZAR_DB") or "127.0.0.1"
    assert where in lines[0]
