"""``zar backup`` then ``zar restore``: the same games in an empty SQLite file and an empty
PostgreSQL database (the same logs, times, settings, abandon, seats, and the same views for
the same devices); restoring twice changes nothing; a damaged game is refused in words and
the others restored; the backup holds one game at a time."""

from __future__ import annotations

import gzip
import io
import json
import sqlite3
import weakref
import zlib
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dice_support import ScriptedDice
from history_support import without_luck
from server.api_support import act, new
from store_support import append, create, one_person_yams, yams_round
from zar.cli import main
from zar.cli.backup import PAGE, restore, write_backup
from zar.server import create_app
from zar.server.devices import COOKIE
from zar.store import SqliteStore, Store, StoredGame, open_store

NOW = "2026-12-01T12:00:00.000+00:00"


def clock() -> str:
    return NOW


def app_on(store: Store) -> FastAPI:
    return create_app(store, dice=ScriptedDice(), clock=clock, games_per_minute=None)


@pytest.fixture
def source(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A SQLite file of games played as people play them, and each device's credential: a
    Yams game of two phones (a seat claimed, a move undone), a 10 000 game abandoned, a
    Yams game finished, and one from before seats had holders."""
    path = tmp_path / "source.sqlite3"
    store = SqliteStore(path)
    app = app_on(store)
    with TestClient(app) as host, TestClient(app) as guest:
        game = new(host, "yams", "Ali", "Ece")
        invitation = host.post(f"/api/games/{game['id']}/invitations").json()
        token = invitation["join"].split("=", 1)[1]
        guest.post("/api/invitations/claim", json={"invitation": token, "seat": 1})
        game = act(host, game, type="throw")
        game = act(host, game, type="fill", box="CHANCE")
        game = act(host, game, type="undo")
        game = act(host, game, type="fill", box="SIXES")
        game = act(guest, game, type="throw")
        farkle = new(host, "10000", "Ali", target=5_000)
        farkle = act(host, farkle, type="throw")
        act(host, farkle, type="abandon")
        finished = new(host, "yams", "Ali")
        for _ in range(13):
            finished = act(host, finished, type="throw")
            finished = act(host, finished, type="fill", box=next(iter(finished["options"])))
        assert finished["over"]
        devices = {"host": host.cookies[COOKIE], "guest": guest.cookies[COOKIE]}
    old = one_person_yams()
    create(store, "old", old, now="2025-01-01T12:00:00.000+00:00")
    append(store, "old", old, yams_round(old), now="2025-01-02T12:00:00.000+00:00")
    store.close()
    return path, devices


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """An empty store of each kind, configured as ``zar serve`` would find it."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'target.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_url")
    monkeypatch.setenv("ZAR_DATABASE_URL", url)
    return url


def zar(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``zar``: its status, standard output, and its words on standard error (off a
    terminal the progress bar leaves only a blank line there)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err.strip()


def everything(store: Store) -> list[StoredGame]:
    return [store.stored(game_id) for game_id in store.game_ids()]


def views(store: Store, devices: dict[str, str]) -> dict[str, Any]:
    """What each device is shown: its list of games, each game, its log, totals and export,
    the statistics (but their luck means, which cover the games accounted so far)."""
    shown: dict[str, Any] = {}
    with TestClient(app_on(store)) as client:
        for who, secret in devices.items():
            client.cookies.set(COOKIE, secret)
            listed = client.get("/api/games").json()
            shown[who] = listed
            # The luck means left out: a restored game's account is worked out again, later.
            shown[who, "stats"] = without_luck(client.get("/api/stats?game=yams").json())
            for game in listed:
                for path in ("", "/log", "/progress", "/export"):
                    response = client.get(f"/api/games/{game['id']}{path}")
                    assert response.status_code == 200, response.text
                    shown[who, game["id"], path] = response.text
    return shown


def test_backup_then_restore_gives_the_same_games(
    source: tuple[Path, dict[str, str]],
    target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, devices = source
    backup = tmp_path / "games.zar.gz"
    status, out, err = zar("backup", str(backup), "--db", str(path), capsys=capsys)
    assert (status, out, err) == (0, f"backed up 4 games to {backup}\n", "")
    assert backup.stat().st_mode & 0o077 == 0  # the owner's alone, as the database is
    status, out, err = zar("restore", str(backup), capsys=capsys)
    assert (status, out.splitlines()[-1], err) == (
        0,
        "restored 4 games, skipped 0 already there, refused 0",
        "",
    )
    before, after = SqliteStore(path), open_store(target)
    try:
        games = everything(before)
        assert len(games) == 4
        assert everything(after) == games
        assert [g.seating and g.seating.rev for g in everything(after)] == [
            g.seating and g.seating.rev for g in games
        ]
        assert any(g.record.abandoned for g in games)
        assert any(g.record.undone for g in games)
        assert after.games(limit=10) == before.games(limit=10)
        assert views(after, devices) == views(before, devices)
    finally:
        before.close()
        after.close()


def test_restoring_twice_changes_nothing(
    source: tuple[Path, dict[str, str]],
    target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, devices = source
    backup = tmp_path / "games.zar.gz"
    zar("backup", str(backup), "--db", str(path), capsys=capsys)
    zar("restore", str(backup), capsys=capsys)
    store = open_store(target)
    try:
        once = everything(store), store.games(limit=10), views(store, devices)
        status, out, _ = zar("restore", str(backup), capsys=capsys)
        assert (status, out.splitlines()[-1]) == (
            0,
            "restored 0 games, skipped 4 already there, refused 0",
        )
        assert (everything(store), store.games(limit=10), views(store, devices)) == once
    finally:
        store.close()


def lines(backup: Path) -> list[dict[str, Any]]:
    with gzip.open(backup, "rt") as text:
        return [json.loads(line) for line in text]


def rewrite(backup: Path, lines: list[dict[str, Any]]) -> None:
    with gzip.open(backup, "wt") as text:
        text.writelines(json.dumps(line) + "\n" for line in lines)


def test_a_damaged_game_is_refused_in_words_and_the_others_restored(
    source: tuple[Path, dict[str, str]],
    target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, _ = source
    backup = tmp_path / "games.zar.gz"
    zar("backup", str(backup), "--db", str(path), capsys=capsys)
    header, *games = lines(backup)
    damaged = next(g for g in games if g["id"] == "old")
    damaged["entries"][0]["dice"] = [1, 2, 3, 4, 7]  # no die shows 7
    claims = next(g for g in games if len(g["entries"]) == 13 * 2)  # the finished game
    claims["abandoned"] = True  # what its log does not say
    marks = next(g for g in games if any(e["undone"] for e in g["entries"]))
    for entry in marks["entries"]:
        entry["undone"] = False  # the undo's mark rubbed out
    rewrite(backup, [header, *games])
    status, out, err = zar("restore", str(backup), capsys=capsys)
    assert (status, out.splitlines()[-1]) == (
        1,
        "restored 1 games, skipped 0 already there, refused 3",
    )
    refusals = err.splitlines()
    assert len(refusals) == 3
    assert f"game {marks['id']} (line " in err
    assert "the undone marks of its log are not what its replay gives" in err
    assert "game old (line " in err
    assert "it does not replay: action 1 of the log: " in err
    assert "7" in next(line for line in refusals if "game old" in line)
    assert f"game {claims['id']} (line " in err
    assert "the file says abandoned True, its log gives False" in err
    store = open_store(target)
    try:
        assert sorted(store.game_ids()) == sorted(
            g["id"] for g in games if g["id"] not in ("old", claims["id"], marks["id"])
        )
    finally:
        store.close()


def test_a_game_there_with_another_log_is_left_as_it_is_and_refused(
    source: tuple[Path, dict[str, str]],
    target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, _ = source
    backup = tmp_path / "games.zar.gz"
    zar("backup", str(backup), "--db", str(path), capsys=capsys)
    store = open_store(target)
    try:
        create(store, "old", one_person_yams("Ece"))
        status, out, err = zar("restore", str(backup), capsys=capsys)
        assert (status, out.splitlines()[-1]) == (
            1,
            "restored 3 games, skipped 0 already there, refused 1",
        )
        assert "game old (line " in err
        assert "already in the store with another log (0 actions there, 2 in the file)" in err
        assert store.load("old") == one_person_yams("Ece")
    finally:
        store.close()


def test_a_file_that_is_no_backup_or_cut_short(
    source: tuple[Path, dict[str, str]],
    target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, _ = source
    other = tmp_path / "notes.txt"
    other.write_text("not games\n")
    status, out, err = zar("restore", str(other), capsys=capsys)
    assert (status, out) == (2, "")
    assert err == "zar: the file is not a backup of Zar's games (zar backup writes them)"
    backup = tmp_path / "games.zar.gz"
    zar("backup", str(backup), "--db", str(path), capsys=capsys)
    lines = gzip.decompress(backup.read_bytes()).splitlines(keepends=True)
    # The header and two games whole, then the rest cut off, as a copy cut short.
    packer = zlib.compressobj(wbits=31)  # gzip's framing
    whole = packer.compress(b"".join(lines[:3])) + packer.flush(zlib.Z_FULL_FLUSH)
    rest = packer.compress(b"".join(lines[3:])) + packer.flush()
    cut = tmp_path / "cut.zar.gz"
    cut.write_bytes(whole + rest[:8])
    status, out, err = zar("restore", str(cut), capsys=capsys)
    assert status == 1
    assert "the file is damaged or cut short after line" in err
    assert out.splitlines()[-1].startswith("restored 2 games, skipped 0 already there, refused 1")


class Watched:
    """A store that notes, at each read or write of a whole game, how many games the caller
    still holds (the games handed out, and those handed in, still alive)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games: weakref.WeakSet[StoredGame] = weakref.WeakSet()
        self.held: list[int] = []
        self.pages: list[int] = []

    def game_ids(self, *, after: str = "", limit: int = 1000) -> list[str]:
        self.pages.append(limit)
        return self.store.game_ids(after=after, limit=limit)

    def stored(self, game_id: str) -> StoredGame:
        self.held.append(len(self.games))
        game = self.store.stored(game_id)
        self.games.add(game)
        return game

    def restore(self, game: StoredGame, summary: Any) -> bool:
        self.games.add(game)
        self.held.append(len(self.games))
        return self.store.restore(game, summary)


def test_backup_and_restore_hold_one_game_at_a_time(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "many.sqlite3")
    for i in range(2 * PAGE + 3):
        create(store, f"g{i:04}", one_person_yams())
    watched = Watched(store)
    out = io.BytesIO()
    written = write_backup(watched, out)  # type: ignore[arg-type]
    assert written.games == 2 * PAGE + 3
    assert watched.held == [0] * written.games  # each game let go once written
    assert set(watched.pages) == {PAGE}
    empty = Watched(SqliteStore(tmp_path / "empty.sqlite3"))
    done = restore(empty, io.BytesIO(out.getvalue()))  # type: ignore[arg-type]
    assert done.restored == written.games
    assert empty.held == [1] * written.games  # only the game being written
    store.close()
    empty.store.close()


def test_a_game_whose_rows_are_not_a_game_s_is_left_out_in_words(
    source: tuple[Path, dict[str, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = source
    store = SqliteStore(path)
    create(store, "broken", one_person_yams())
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        "INSERT INTO actions (game_id, seq, action, at) VALUES ('broken', 1, ?, ?)",
        ('{"type": "undo", "seat": 0}', NOW),  # an undo of nothing, behind the store's back
    )
    db.close()
    backup = tmp_path / "games.zar.gz"
    status, out, err = zar("backup", str(backup), "--db", str(path), capsys=capsys)
    assert (status, out) == (1, f"backed up 4 games to {backup}, left out 1\n")
    assert err.startswith("zar: game broken is left out: its rows cannot be read as a game")
    assert "undoes nothing" in err
    assert "broken" not in {line["id"] for line in lines(backup)[1:]}


def test_a_backup_of_a_sqlite_file_that_is_not_there_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo.sqlite3"
    monkeypatch.delenv("ZAR_DATABASE_URL", raising=False)
    monkeypatch.setenv("ZAR_DB", str(missing))
    for argv in (["backup", str(tmp_path / "out.gz")], ["backup", "--db", str(missing), "x"]):
        with pytest.raises(SystemExit, match=f"zar: {missing}: no such SQLite file"):
            main(argv)
    assert not missing.exists()
    assert not (tmp_path / "out.gz").exists()
