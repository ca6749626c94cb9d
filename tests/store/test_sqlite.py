"""The SQLite file: a damaged one is refused, naming it; a full disk or a read-only file
refuses a write as StoreUnavailable, keeping everything already stored and nothing of the
refused write."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from store_support import append, create, one_person_yams, pages, yams_round, yams_round_of_three
from zar.record import Record
from zar.store import (
    SqliteStore,
    StoreUnavailable,
    UnusableStore,
    default_db_path,
    open_store,
    sqlite_path,
)


def kept(path: Path, rounds: int = 3) -> Record:
    """A file holding one game of ``rounds`` rounds, closed; the game's record."""
    store = SqliteStore(path)
    record = one_person_yams()
    create(store, "g", record)
    for _ in range(rounds):
        record = append(store, "g", record, yams_round(record))
    store.close()
    return record


def test_a_damaged_file_is_refused_naming_it(tmp_path: Path) -> None:
    kept(tmp_path / "zar.sqlite3")
    damaged = tmp_path / "copy.sqlite3"
    shutil.copy(tmp_path / "zar.sqlite3", damaged)
    page_size = 4096
    assert pages(damaged) >= 3
    with damaged.open("r+b") as file:  # the header of pages 2 and 3, and what follows
        for page in (1, 2):
            file.seek(page * page_size)
            file.write(b"\xa5" * 200)
    with pytest.raises(UnusableStore) as refused:
        SqliteStore(damaged)
    message = str(refused.value)
    assert str(damaged) in message
    assert "damaged" in message
    assert SqliteStore(tmp_path / "zar.sqlite3").load("g").version == 6  # the original is fine


def test_a_file_that_is_no_database_is_refused_naming_it(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database, " * 512)
    with pytest.raises(UnusableStore) as refused:
        SqliteStore(notes)
    assert str(notes) in str(refused.value)
    assert notes.read_text() == "not a database, " * 512  # and it was not written to


def test_a_full_disk_refuses_the_write_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "zar.sqlite3"
    record = kept(path)
    store = SqliteStore(path, max_pages=pages(path))  # not one page more: SQLITE_FULL
    stored = [("g", record)]
    try:
        with pytest.raises(StoreUnavailable) as refused:  # noqa: PT012 -- fills the disk
            for n in range(500):
                game = one_person_yams(f"Oyuncu {n}")
                create(store, f"g{n}", game)
                stored.append((f"g{n}", game))
                game = append(store, f"g{n}", game, yams_round_of_three(game))
                stored[-1] = (f"g{n}", game)
        assert refused.value.writing
        assert "full" in str(refused.value)
        failed = [g for g in store.games(limit=200) if g.id not in dict(stored)]
        assert failed == []
    finally:
        store.close()
    roomy = SqliteStore(path)  # room again: every earlier action, nothing of the failed one
    try:
        for game_id, game in stored:
            assert roomy.load(game_id) == game
        assert len(roomy.games(limit=200)) == len(stored)
        game_id, game = stored[-1]
        append(roomy, game_id, game, yams_round(game))
    finally:
        roomy.close()


def test_a_read_only_file_refuses_the_write_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "zar.sqlite3"
    record = kept(path)
    store = SqliteStore(f"file:{path}?mode=ro")
    try:
        assert store.load("g") == record
        with pytest.raises(StoreUnavailable) as refused:
            append(store, "g", record, yams_round(record))
        assert "readonly" in str(refused.value)
        with pytest.raises(StoreUnavailable):
            create(store, "other", one_person_yams())
        assert store.load("g") == record
        assert [g.id for g in store.games()] == ["g"]
    finally:
        store.close()
    writable = SqliteStore(path)
    try:
        assert writable.load("g") == record
        append(writable, "g", record, yams_round(record))
    finally:
        writable.close()


def test_database_urls_choose_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZAR_DB", str(tmp_path / "default.sqlite3"))
    monkeypatch.delenv("ZAR_DATABASE_URL", raising=False)
    assert sqlite_path("sqlite://") == default_db_path() == tmp_path / "default.sqlite3"
    assert sqlite_path(f"sqlite:///{tmp_path}/a.sqlite3") == tmp_path / "a.sqlite3"
    assert sqlite_path("sqlite:///relative.sqlite3") == Path("relative.sqlite3")
    for url in (None, "", "sqlite://", f"sqlite:///{tmp_path}/b.sqlite3"):
        if url is None:
            store = open_store()
        else:
            monkeypatch.setenv("ZAR_DATABASE_URL", url)
            store = open_store()
        assert isinstance(store, SqliteStore)
        store.close()
    assert (tmp_path / "default.sqlite3").exists()
    assert (tmp_path / "b.sqlite3").exists()
    with pytest.raises(UnusableStore, match="mysql"):
        open_store("mysql://localhost/zar")
    with pytest.raises(UnusableStore, match="sqlite:///relative"):
        open_store("sqlite://relative.sqlite3")
