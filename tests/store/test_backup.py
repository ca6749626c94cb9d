"""What a backup needs of both stores: every game's id page by page, a whole game read in
one transaction, and a whole game written back in one, with its times, seating and devices;
a game already there is never written over."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from store_support import (
    NOW,
    Backend,
    append,
    create,
    farkle_turn,
    one_person_yams,
    two_person_10000,
    yams_round,
)
from zar.record import Abandon, Record
from zar.seating import Seating
from zar.server.views import summary
from zar.store import Store, UnknownGame, rows
from zar.store.base import Device, StoredGame

LATER = "2026-12-02T10:00:00.000+00:00"


def played(store: Store, game_id: str) -> Record:
    """A seated two-person 10 000 game, its turns stored at two moments, a seat claimed."""
    record = two_person_10000()
    seating = Seating.hosted("h", record.seats)
    store.create(game_id, record, NOW, summary(record), seating=seating)
    store.add_device("h", NOW)
    store.add_device("g", LATER)
    store.reseat(game_id, seating.claimed(1, "g"))
    record = append(store, game_id, record, farkle_turn(record))
    return append(store, game_id, record, farkle_turn(record), now=LATER)


def test_every_game_id_page_by_page_abandoned_ones_too(store: Store) -> None:
    ids = sorted(f"g{i:02}" for i in range(7))
    for game_id in reversed(ids):
        create(store, game_id, one_person_yams())
    append(store, "g03", one_person_yams(), [Abandon()])
    assert store.game_ids() == ids
    assert store.game_ids(limit=3) == ids[:3]
    assert store.game_ids(after=ids[2], limit=3) == ids[3:6]
    assert store.game_ids(after=ids[-1]) == []


def test_a_whole_game_as_kept(store: Store) -> None:
    record = played(store, "g")
    game = store.stored("g")
    assert game == StoredGame(
        "g",
        record,
        NOW,
        (NOW,) * 3 + (LATER,) * 3,
        Seating("h", ("h", "g"), (None, None)),
        (Device("g", LATER, LATER), Device("h", NOW, NOW)),
    )
    assert game.seating is not None
    assert game.seating.rev == 1
    with pytest.raises(UnknownGame):
        store.stored("nothing")


def test_a_whole_game_comes_back_as_it_was(store: Store) -> None:
    played(store, "g")
    game = store.stored("g")
    copy = replace(game, id="copy")
    assert store.restore(copy, summary(game.record))
    assert store.stored("copy") == copy
    assert store.stored("copy").seating.rev == 1  # type: ignore[union-attr]
    assert store.load("copy") == game.record
    assert store.times("copy") == store.times("g")
    listed = {g.id: g for g in store.games()}
    assert replace(listed["copy"], id="g") == listed["g"]
    mine = {g.id: g for g in store.games(device="g")}
    assert replace(mine["copy"], id="g") == mine["g"]


def test_a_game_already_there_is_never_written_over(store: Store, backend: Backend) -> None:
    played(store, "g")
    before = backend.sql("SELECT * FROM actions ORDER BY game_id, seq")
    other = one_person_yams()
    other = other.append(yams_round(other)[0])
    assert not store.restore(StoredGame("g", other, LATER, (LATER,)), summary(other))
    assert backend.sql("SELECT * FROM actions ORDER BY game_id, seq") == before
    assert store.load("g").kind == "10000"


def test_a_device_already_known_keeps_its_times(store: Store) -> None:
    store.add_device("h", LATER)
    record = one_person_yams()
    game = StoredGame(
        "g", record, NOW, (), Seating.hosted("h", record.seats), (Device("h", NOW, NOW),)
    )
    assert store.restore(game, summary(record))
    assert store.device_seen("h", LATER, LATER)
    assert store.stored("g").devices == (Device("h", LATER, LATER),)


def test_a_game_whose_times_are_not_its_log_s_is_not_written(store: Store) -> None:
    record = one_person_yams()
    record = record.append(yams_round(record)[0])
    with pytest.raises(ValueError, match="1 actions and 0 times"):
        store.restore(StoredGame("g", record, NOW, ()), summary(record))
    with pytest.raises(UnknownGame):
        store.load("g")


def test_a_whole_game_is_read_at_one_moment(
    store: Store, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's append and reseating, made between the reads of the log and of
    the seating, are in neither: the game as it stood when its reading began."""
    record = played(store, "g")
    other = backend.open()
    seating_of = rows.read_seating

    def meanwhile(*args: Any) -> Seating | None:
        moved = append(other, "g", record, farkle_turn(record), now=LATER)
        other.reseat("g", Seating("h", ("h", "h"), (None, None), rev=2))
        assert other.load("g") == moved
        return seating_of(*args)

    monkeypatch.setattr(rows, "read_seating", meanwhile)
    try:
        game = store.stored("g")
    finally:
        other.close()
    assert game.record == record
    assert game.seating == Seating("h", ("h", "g"), (None, None))
    monkeypatch.undo()
    assert store.stored("g").record.version == record.version + 3
