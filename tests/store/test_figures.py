"""Each finished game keeps its part in the statistics beside its log, in both stores: the
statistics read those, the latest games first, never an abandoned one, and never more rows
than they show."""

from __future__ import annotations

from dataclasses import replace

import pytest

from store_support import (
    NOW,
    append,
    create,
    farkle_turn,
    one_person_yams,
    two_person_10000,
    yams_round,
)
from zar.history import figures
from zar.record import Abandon, Record
from zar.seating import Seating
from zar.server.views import summary
from zar.store import Store, rows
from zar.store.base import StoredGame

LATER = "2025-01-02T12:00:00.000+00:00"


def finished_yams(store: Store, game_id: str, name: str = "Ali", now: str = NOW) -> Record:
    record = one_person_yams(name)
    create(store, game_id, record, now)
    while not record.state.is_over:
        record = append(store, game_id, record, yams_round(record), now)
    return record


def test_a_finished_game_keeps_its_figures_for_the_statistics(store: Store) -> None:
    ali = finished_yams(store, "ali")
    ece = finished_yams(store, "ece", "Ece", LATER)
    duel = two_person_10000()
    create(store, "duel", duel)
    while not duel.state.is_over:
        duel = append(store, "duel", duel, farkle_turn(duel))
    playing = one_person_yams("Can")
    create(store, "playing", playing)
    playing = append(store, "playing", playing, yams_round(playing))
    left = one_person_yams("Deniz")
    create(store, "left", left)
    append(store, "left", append(store, "left", left, yams_round(left)), [Abandon()])

    assert store.finished_figures("yams", limit=10) == [
        ("ece", figures(ece)),
        ("ali", figures(ali)),
    ]
    assert store.finished_figures("yams", limit=1) == [("ece", figures(ece))]
    assert store.finished_figures("10000", limit=10) == [("duel", figures(duel))]


def test_an_undo_after_the_last_box_takes_the_figures_back(store: Store) -> None:
    record = finished_yams(store, "g")
    undone = append(store, "g", record, [record.undo()])
    assert not undone.state.is_over
    assert store.finished_figures("yams", limit=10) == []
    again = append(store, "g", undone, [yams_round(undone)[1]])
    assert store.finished_figures("yams", limit=10) == [("g", figures(again))]


def test_figures_worked_out_again_are_kept_only_on_their_version(store: Store) -> None:
    """A game ended by an append that brought no figures (another program's) has none until
    they are worked out from its log and kept, on the version they were worked out for."""
    record = one_person_yams()
    create(store, "g", record)
    for _ in range(12):
        record = append(store, "g", record, yams_round(record))
    last = yams_round(record)
    after = record.append(last[0]).append(last[1])
    store.append("g", record.version, last, NOW, finished=True, summary=summary(after))
    assert store.finished_figures("yams", limit=10) == [("g", None)]
    found = figures(store.load("g"))
    assert found is not None
    store.keep_figures("g", after.version - 1, found)
    assert store.finished_figures("yams", limit=10) == [("g", None)]
    store.keep_figures("g", after.version, found)
    assert store.finished_figures("yams", limit=10) == [("g", found)]


def test_a_devices_figures_are_of_the_games_it_may_reach(store: Store) -> None:
    for game_id, host in (("mine", "h"), ("theirs", "o")):
        record = one_person_yams()
        store.create(
            game_id, record, NOW, summary(record), seating=Seating.hosted(host, record.seats)
        )
        while not record.state.is_over:
            record = append(store, game_id, record, yams_round(record))
    assert [g for g, _ in store.finished_figures("yams", limit=10, device="h")] == ["mine"]
    assert store.finished_figures("yams", limit=10, device="nobody") == []
    assert [g for g, _ in store.finished_figures("yams", limit=10)] == [
        "mine",
        "theirs",
    ]  # ties: by id


def test_a_finished_game_is_on_nobodys_turn_in_its_hosts_history(store: Store) -> None:
    """Once over, a game's turn is -1, as the host's row in who may reach it says: never
    taken for the host's turn."""
    record = one_person_yams()
    store.create("g", record, NOW, summary(record), seating=Seating.hosted("h", record.seats))
    while not record.state.is_over:
        record = append(store, "g", record, yams_round(record))
    for finished in (True, None):
        listed = [(g.id, g.my_turn, g.hosts) for g in store.games(finished=finished, device="h")]
        assert listed == [("g", False, True)]


def test_a_device_with_few_games_or_many_is_answered_alike(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its games read from who may reach them first (few), or in the lists' order (many):
    the same lists, the same figures."""
    for i, host in enumerate(("h", "o", "h", "h")):
        record = one_person_yams()
        game_id = f"g{i}"
        seating = Seating.hosted(host, record.seats)
        store.create(game_id, record, NOW, summary(record), seating=seating)
        for _ in range(13 if i != 2 else 1):
            record = append(store, game_id, record, yams_round(record), f"2025-01-0{i + 1}")

    def answers() -> tuple[object, ...]:
        return (
            store.finished_figures("yams", limit=10, device="h"),
            store.finished_figures("yams", limit=1, device="h"),
            [g.id for g in store.games(device="h")],
            [g.id for g in store.games(finished=True, device="h", limit=1, offset=1)],
            [g.id for g in store.games(finished=False, device="h")],
        )

    few = answers()
    assert [g for g, _ in few[0]] == ["g3", "g0"]
    monkeypatch.setattr(rows, "FEW_ROWS", 0)
    assert answers() == few


def test_a_finished_game_restored_from_a_backup_keeps_its_figures(store: Store) -> None:
    record = finished_yams(store, "ali")
    game = store.stored("ali")
    playing = one_person_yams("Can")
    playing = playing.append(yams_round(playing)[0])
    assert store.restore(replace(game, id="copy"), summary(record))
    assert store.restore(StoredGame("playing", playing, NOW, (NOW,)), summary(playing))
    assert store.finished_figures("yams", limit=10) == [
        ("ali", figures(record)),
        ("copy", figures(record)),
    ]
