"""The store stays bounded, from the attacker's side, in both stores: a seat's move writes as
many rows with thousands of watchers as with none, and the pruning removes exactly what the
retention says (invitations expired, devices unseen, abandoned games if the operator
says so) and nothing else."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from store_support import Backend, one_person_yams
from zar.record import Abandon
from zar.seating import Seating
from zar.store import Invitation, Pruned, Retention, Store
from zar.store.retention import ROWS_BATCH
from zar.table import Seat

NOW = "2026-12-01T12:00:00.000+00:00"
TABLES = ("games", "actions", "access", "invitations", "devices")


def count_writes(backend: Backend) -> None:
    """Count every row the store writes to ``access`` and ``games`` in ``written``."""
    backend.sql("CREATE TABLE written (n INTEGER NOT NULL)")
    backend.sql("INSERT INTO written (n) VALUES (0)")
    for table in ("access", "games"):
        for event in ("INSERT", "UPDATE", "DELETE"):
            name = f"count_{table}_{event.lower()}"
            if backend.kind == "sqlite":
                backend.sql(
                    f"CREATE TRIGGER {name} AFTER {event} ON {table}"
                    " BEGIN UPDATE written SET n = n + 1; END"
                )
            else:
                backend.sql(
                    f"CREATE TRIGGER {name} AFTER {event} ON {table} FOR EACH ROW"
                    " EXECUTE FUNCTION count_write()"
                )


def written(backend: Backend) -> int:
    return int(backend.sql("SELECT n FROM written")[0][0])


def seated(store: Store, game_id: str, watchers: int) -> Seating:
    """A game of two seats, the host's, then ``watchers`` devices watching it (in one
    reseating: the attacker's thousands, written as fast as the store takes them)."""
    seating = Seating.hosted("host", (Seat("Ali"), Seat("Ece")))
    store.create(game_id, one_person_yams(), NOW, {}, seating=seating)
    if watchers:
        watched = Seating(
            "host",
            seating.holders,
            seating.standins,
            frozenset(f"w{i:05}" for i in range(watchers)),
            rev=1,
        )
        store.reseat(game_id, watched, before=seating)
        seating = watched
    return seating


@pytest.mark.parametrize("watchers", [0, 5_000])
def test_a_seats_move_writes_as_many_rows_whatever_the_watchers(
    backend: Backend, watchers: int
) -> None:
    """A hand-over, a claim and a watcher more write a few rows each: the seating's row and
    the rows of who may reach the game that changed, with 5 000 watchers as with none (it
    was every row of ``access``: 5 000 deleted and written again at each move)."""
    if backend.kind == "postgres":
        backend.sql(
            "CREATE FUNCTION count_write() RETURNS trigger AS $$ BEGIN"
            " UPDATE written SET n = n + 1; RETURN NULL; END $$ LANGUAGE plpgsql"
        )
    store = backend.open()
    try:
        seating = seated(store, "g", watchers)
        count_writes(backend)
        moves = []
        for change in (
            lambda s: s.handed_to_computer(1, "expert", 0),
            lambda s: s.resumed(1),
            lambda s: s.claimed(1, "guest"),
            lambda s: s.watched_by("one more"),
        ):
            before = written(backend)
            after = change(seating)
            store.reseat("g", after, before=seating)
            seating = after
            moves.append(written(backend) - before)
        # The seating's row; then the guest's seat row in, the host's out; the watcher's in.
        assert moves == [1, 1, 3, 2]
        # Read back whole: the watchers are the rows of access, not in the seating's JSON.
        stored = store.seating("g")
        assert stored == seating
        assert stored is not None
        assert len(stored.watchers) == watchers + 1
        (text,) = backend.sql("SELECT seating FROM games WHERE id = 'g'")[0]
        assert "w00000" not in text
        assert len(text) < 500
    finally:
        store.close()


def test_a_move_not_given_the_seating_before_reads_it(backend: Backend) -> None:
    """Without the seating it was made from, the store reads it: the same rows result."""
    store = backend.open()
    try:
        seating = seated(store, "g", 3)
        store.reseat("g", seating.claimed(1, "w00001"))
        rows = backend.sql("SELECT device, seat FROM access ORDER BY device, seat")
        assert rows == [("host", -1), ("host", 0), ("w00000", -2), ("w00001", 1), ("w00002", -2)]
    finally:
        store.close()


def tables(backend: Backend) -> dict[str, set[tuple[Any, ...]]]:
    return {table: set(backend.sql(f"SELECT * FROM {table}")) for table in TABLES}


def invitation(key: str, game_id: str, expires_at: str) -> Invitation:
    return Invitation(key, None, game_id, "watch", "2026-11-01T00:00:00.000+00:00", expires_at)


def test_the_pruning_removes_exactly_what_the_retention_says(backend: Backend) -> None:
    """Around each bound, one that goes and one that stays: an invitation expired and one
    not yet; a device unseen since before the bound (its watcher's row goes with it, its
    host's rows stay with the game) and one seen after; a game abandoned before the bound
    (with its log, its rows of access and its invitations) and one after, and an unfinished
    game as old, kept. Without a bound for abandoned games, every game is kept."""
    expired, unseen, abandoned = (
        "2026-12-01T00:00:00.000+00:00",
        "2025-10-27T00:00:00.000+00:00",
        "2026-11-01T00:00:00.000+00:00",
    )
    just_before, just_after = "2025-10-26T23:59:59.999+00:00", "2025-10-27T00:00:00.001+00:00"
    store = backend.open()
    try:
        store.add_device("gone", just_before)
        store.add_device("kept", just_after)
        store.add_device("old host", just_before)
        for game_id in ("watched", "old-abandoned", "new-abandoned", "old-open"):
            host = "old host" if game_id == "watched" else "kept"
            seating = Seating.hosted(host, (Seat("Ali"),))
            store.create(game_id, one_person_yams(), "2026-10-01T00:00:00.000+00:00", {},
                         seating=seating)  # fmt: skip
            watched = frozenset({"gone", "kept"})
            store.reseat(game_id, replace(seating, watchers=watched, rev=1))
        for game_id, at in (("old-abandoned", "2026-10-31T23:59:59.999+00:00"),
                            ("new-abandoned", "2026-11-01T00:00:00.001+00:00")):  # fmt: skip
            store.append(game_id, 0, [Abandon()], at, finished=False, summary={})
        backend.sql("UPDATE games SET updated_at = %s WHERE id = %s", (just_before, "old-open"))
        store.add_invitation(invitation("expired", "watched", "2026-11-30T23:59:59.999+00:00"))
        store.add_invitation(invitation("valid", "watched", "2026-12-01T00:00:00.001+00:00"))
        store.add_invitation(invitation("of the game", "old-abandoned", "2026-12-02T00:00:00.000Z"))
        before = tables(backend)

        kept = store.prune(Retention(expired, unseen))
        assert kept == Pruned(invitations=1, devices=2, watchers=4, games=0)
        after = tables(backend)
        gone = {table: before[table] - after[table] for table in TABLES}
        assert all(after[table] <= before[table] for table in TABLES)
        assert {k for k, *_ in gone["invitations"]} == {"expired"}
        assert {k for k, *_ in gone["devices"]} == {"gone", "old host"}
        assert gone["access"] == {
            (g, "gone", -2) for g in ("watched", "old-abandoned", "new-abandoned", "old-open")
        }
        assert gone["games"] == gone["actions"] == set()
        assert store.seating("watched") == Seating.hosted("old host", (Seat("Ali"),)).watched_by(
            "kept"
        )

        pruned = store.prune(Retention(expired, unseen, abandoned))
        assert pruned == Pruned(games=1)
        later = tables(backend)
        gone = {table: after[table] - later[table] for table in TABLES}
        assert {g for g, *_ in gone["games"]} == {"old-abandoned"}
        assert {g for g, *_ in gone["actions"]} == {"old-abandoned"}
        assert {g for g, *_ in gone["access"]} == {"old-abandoned"}
        assert {k for k, *_ in gone["invitations"]} == {"of the game"}
        assert gone["devices"] == set()
        assert all(later[table] <= after[table] for table in TABLES)
        assert store.prune(Retention(expired, unseen, abandoned)) == Pruned()
    finally:
        store.close()


def test_the_pruning_goes_in_batches(backend: Backend) -> None:
    """More than a transaction's batch of devices unseen: every one goes, batch by batch."""
    store = backend.open()
    try:
        for i in range(ROWS_BATCH + 7):
            store.add_device(f"d{i}", "2020-01-01T00:00:00.000+00:00")
        store.add_device("seen", NOW)
        pruned = store.prune(Retention(NOW, "2025-01-01T00:00:00.000+00:00"))
        assert pruned.devices == ROWS_BATCH + 7
        assert backend.sql("SELECT key FROM devices") == [("seen",)]
    finally:
        store.close()
