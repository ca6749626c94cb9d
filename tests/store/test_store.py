"""Both stores keep the same promises: a game is its log, appended all or nothing, on the
version it was made for; a stale or repeated version is refused and changes nothing."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from typing import Any

import psycopg
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
    yams_round_of_three,
)
from zar.record import Abandon, Record
from zar.server.views import summary
from zar.store import AsyncAppender, Busy, Conflict, SqliteStore, Store, UnknownGame


def test_a_game_comes_back_as_it_was_kept(store: Store) -> None:
    record = one_person_yams()
    create(store, "g1", record)
    assert store.load("g1") == record
    for _ in range(3):
        record = append(store, "g1", record, yams_round(record))
    assert store.load("g1") == record
    assert store.load("g1").state == record.state
    farkle = two_person_10000()
    create(store, "g2", farkle)
    farkle = append(store, "g2", farkle, farkle_turn(farkle))
    assert store.load("g2") == farkle
    assert store.load("g2").state.totals == (100, 0)


@pytest.mark.parametrize("expected", [0, 1, 3, 4])
def test_an_append_on_another_version_is_refused_and_changes_nothing(
    store: Store, expected: int
) -> None:
    record = one_person_yams()
    create(store, "g", record)
    record = append(store, "g", record, yams_round(record))
    with pytest.raises(Conflict) as refused:
        store.append("g", expected, yams_round(record), NOW, finished=False, summary={})
    assert refused.value.version == 2
    assert store.load("g") == record
    assert store.games()[0].version == 2


def test_an_append_that_may_not_wait_is_made_at_once_or_not_at_all(backend: Backend) -> None:
    """``wait=False`` (the server's event loop): SQLite commits at once while nobody else
    writes, and refuses with Busy, writing nothing, while another thread or another
    process does; a PostgreSQL server is a round trip away: always Busy, nothing written."""
    store = backend.open()
    record = one_person_yams()
    create(store, "g", record)
    actions = yams_round(record)
    after = record
    for action in actions:
        after = after.append(action)

    def commit() -> int:
        return store.append("g", 0, actions, NOW, finished=False, summary={}, wait=False)

    try:
        if not isinstance(store, SqliteStore):
            with pytest.raises(Busy):
                commit()
            assert store.load("g") == record
            return
        other = sqlite3.connect(store.path, isolation_level=None)  # another process's
        try:
            other.execute("BEGIN IMMEDIATE")  # its write transaction open
            started = time.monotonic()
            with pytest.raises(Busy):
                commit()
            assert time.monotonic() - started < 5  # not the store's 30 s busy timeout
            other.execute("ROLLBACK")
        finally:
            other.close()
        with store._file.reading(), pytest.raises(Busy):  # another thread reading
            commit()
        assert store.load("g") == record
        assert commit() == after.version  # free again: at once
        assert store.load("g") == after
    finally:
        store.close()


def test_the_same_append_twice_is_stored_once(store: Store) -> None:
    record = one_person_yams()
    create(store, "g", record)
    actions = yams_round(record)
    after = append(store, "g", record, actions)
    with pytest.raises(Conflict):
        append(store, "g", record, actions)
    assert store.load("g") == after


def test_an_append_is_all_or_nothing(backend: Backend) -> None:
    """The database refuses the second of three actions: none of them is kept."""
    store = backend.open()
    try:
        record = one_person_yams()
        create(store, "g", record)
        record = append(store, "g", record, yams_round(record))
        backend.refuse_action(4)
        three = yams_round_of_three(record)
        with pytest.raises(backend.refusal):
            append(store, "g", record, three)
        assert store.load("g") == record
        assert backend.sql("SELECT count(*) FROM actions") == [(2,)]
        assert backend.sql("SELECT version FROM games") == [(2,)]
        backend.sql("DROP TRIGGER refuse" + ("" if backend.kind == "sqlite" else " ON actions"))
        assert append(store, "g", record, three).version == 5  # and the store goes on
    finally:
        store.close()


def test_each_action_keeps_the_time_it_was_stored(store: Store) -> None:
    record = one_person_yams()
    create(store, "g", record)
    assert store.times("g") == []
    first, later = "2025-01-01T12:00:01.000+00:00", "2025-01-01T12:05:00.000+00:00"
    record = append(store, "g", record, yams_round(record), now=first)
    append(store, "g", record, yams_round(record), now=later)
    assert store.times("g") == [first, first, later, later]


def test_an_unknown_game_is_said_so(store: Store) -> None:
    with pytest.raises(UnknownGame):
        store.load("nope")
    with pytest.raises(UnknownGame):
        store.times("nope")
    record = one_person_yams()
    with pytest.raises(UnknownGame):
        append(store, "nope", record, yams_round(record))
    assert store.games() == []


def test_games_are_listed_latest_first_and_filtered(store: Store) -> None:
    yams_game = one_person_yams()
    create(store, "a", yams_game, now="2025-01-01T10:00:00.000+00:00")
    create(store, "b", two_person_10000(), now="2025-01-01T11:00:00.000+00:00")
    create(store, "c", one_person_yams("Ece"), now="2025-01-01T12:00:00.000+00:00")
    finished = yams_game
    for _ in range(13):
        finished = append(
            store, "a", finished, yams_round(finished), now="2025-01-01T13:00:00.000+00:00"
        )
    assert finished.state.is_over
    assert [g.id for g in store.games()] == ["a", "c", "b"]
    assert [g.id for g in store.games(finished=True)] == ["a"]
    assert [g.id for g in store.games(finished=False)] == ["c", "b"]
    assert [g.id for g in store.games(kind="yams")] == ["a", "c"]
    assert [g.id for g in store.games(kind="10000")] == ["b"]
    assert [g.id for g in store.games(kind="yams", finished=False)] == ["c"]
    assert [g.id for g in store.games(limit=2)] == ["a", "c"]
    a = store.games(limit=1)[0]
    assert (a.kind, a.version, a.finished) == ("yams", 26, True)
    assert (a.created_at, a.updated_at) == ("2025-01-01T10:00:00.000+00:00", a.updated_at)
    assert a.updated_at == "2025-01-01T13:00:00.000+00:00"
    assert a.summary == summary(finished)


def at(hour: int) -> str:
    return f"2025-01-01T{hour:02}:00:00.000+00:00"


def test_an_abandoned_game_is_kept_but_never_listed(backend: Backend) -> None:
    store = backend.open()
    try:
        left = one_person_yams()
        create(store, "left", left, now=at(10))
        left = append(store, "left", left, yams_round(left), now=at(11))
        create(store, "kept", two_person_10000(), now=at(12))
        abandoned = append(store, "left", left, [Abandon()], now=at(13))
        assert store.load("left") == abandoned
        assert store.load("left").abandoned
        assert store.times("left") == [at(11), at(11), at(13)]
        for finished in (None, False, True):
            for kind in (None, "yams", "10000"):
                listed = store.games(finished=finished, kind=kind)
                assert "left" not in [g.id for g in listed], (finished, kind)
        assert [g.id for g in store.games()] == ["kept"]
        rows = backend.sql("SELECT id, abandoned, version FROM games ORDER BY id")
        assert [(i, bool(a), v) for i, a, v in rows] == [("kept", False, 0), ("left", True, 3)]
        with pytest.raises(Conflict):  # on a stale version, as any append
            store.append("left", 2, [Abandon()], NOW, finished=False, summary={})
        assert store.load("left") == abandoned
    finally:
        store.close()


def test_games_are_listed_page_by_page(store: Store) -> None:
    """``offset`` counts the listed games only: an abandoned one takes no place."""
    records = {f"g{i}": one_person_yams() for i in range(5)}
    for hour, (game_id, record) in enumerate(records.items()):
        create(store, game_id, record, now=at(10 + hour))

    def pages(*, finished: bool | None = None, kind: str | None = None) -> list[list[str]]:
        return [
            [g.id for g in store.games(finished=finished, kind=kind, limit=2, offset=offset)]
            for offset in (0, 2, 4, 6)
        ]

    assert pages() == [["g4", "g3"], ["g2", "g1"], ["g0"], []]
    append(store, "g2", records["g2"], [Abandon()], now=at(9))
    assert pages(finished=False) == [["g4", "g3"], ["g1", "g0"], [], []]
    assert pages(kind="yams") == pages()


def test_of_several_threads_appending_on_one_version_exactly_one_wins(store: Store) -> None:
    record = one_person_yams()
    create(store, "g", record)
    record = append(store, "g", record, yams_round(record))
    attempts = [yams_round(record, faces) for faces in ((1, 1, 2, 3, 4), (2, 2, 3, 4, 5))] * 4
    won: list[int] = []
    refused: list[Conflict] = []
    start = threading.Barrier(len(attempts))

    def attempt(i: int) -> None:
        start.wait()
        try:
            append(store, "g", record, attempts[i])
            won.append(i)
        except Conflict as conflict:
            refused.append(conflict)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(len(attempts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(won) == 1
    assert [conflict.version for conflict in refused] == [4] * (len(attempts) - 1)
    kept = store.load("g")
    assert kept.version == 4
    assert list(kept.log[2:]) == attempts[won[0]]


def test_two_stores_on_one_database_see_each_other_and_never_both_win(backend: Backend) -> None:
    """Two stores, as two processes would have (each its own connections)."""
    first, second = backend.open(), backend.open()
    try:
        record = one_person_yams()
        create(first, "g", record)
        assert second.load("g") == record
        record = append(second, "g", record, yams_round(record))
        assert first.load("g") == record
        stale = record
        record = append(first, "g", record, yams_round(record))
        with pytest.raises(Conflict) as refused:
            append(second, "g", stale, yams_round(stale, (6, 6, 5, 5, 4)))
        assert refused.value.version == 4
        assert second.load("g") == record
        assert [g.id for g in second.games()] == ["g"]
    finally:
        first.close()
        second.close()


def test_a_record_behind_the_store_is_caught_up_with_the_actions_after_it(
    backend: Backend,
) -> None:
    """What another process appended, read alone: the same record as a whole replay, undo
    and abandon included; a record the store is not ahead of comes back as it was."""
    first, second = backend.open(), backend.open()
    try:
        record = two_person_10000()
        create(first, "g", record)
        seen = second.load("g")
        record = append(first, "g", record, farkle_turn(record))
        record = append(first, "g", record, [record.undo()])
        assert second.since(seen, "g") == first.load("g") == record
        assert second.since(record, "g") == record
        record = append(first, "g", record, [Abandon()])
        caught = second.since(seen, "g")
        assert caught == record
        assert caught.state == record.state
        assert caught.abandoned
    finally:
        first.close()
        second.close()


def test_another_process_s_appends_are_heard(backend: Backend) -> None:
    """PostgreSQL tells every watching store of each append, when it commits; SQLite's
    store is one process's and has nothing to tell."""
    watcher, writer = backend.open(), backend.open()
    heard: list[tuple[str | None, int]] = []
    arrived = threading.Event()

    def changed(game_id: str | None, version: int, note: str) -> None:
        heard.append((game_id, version))
        arrived.set()

    stop = watcher.watch(changed)
    try:
        record = one_person_yams()
        create(writer, "g", record)
        record = append(writer, "g", record, yams_round(record))
        with pytest.raises(Conflict):
            append(writer, "g", one_person_yams(), yams_round(one_person_yams()))
        if backend.kind == "postgres":
            assert arrived.wait(timeout=10)
            assert heard == [("g", 2)]  # once, and never for the refused append
        else:
            assert not arrived.wait(timeout=0.2)
    finally:
        stop()
        watcher.close()
        writer.close()


def test_a_watcher_whose_connection_drops_listens_again(postgres_url: str) -> None:
    """PostgreSQL only: after the listening connection is cut, the watcher connects again,
    says that anything may have changed meanwhile, and hears the appends that follow."""
    backend = Backend("postgres", postgres_url)
    watcher, writer = backend.open(), backend.open()
    heard: list[tuple[str | None, int]] = []
    stop = watcher.watch(lambda game_id, version, note: heard.append((game_id, version)))
    try:
        record = one_person_yams()
        create(writer, "g", record)
        backend.sql("NOTIFY zar_games, 'not a version'")  # another program's: ignored
        # Cut, and refuse new connections for a while: its first tries to connect fail.
        name = postgres_url.rsplit("/", 1)[1]
        with psycopg.connect(postgres_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as pg:
            pg.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            cut = pg.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND query LIKE 'LISTEN%%'",
                (name,),
            ).fetchall()
            assert cut == [(True,)]
            time.sleep(1.5)
            assert heard == []
            pg.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        deadline = time.monotonic() + 10
        while (None, 0) not in heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [(None, 0)]
        append(writer, "g", record, yams_round(record))
        while len(heard) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [(None, 0), ("g", 2)]
    finally:
        stop()
        watcher.close()
        writer.close()


def cut_connections(backend: Backend, postgres_url: str) -> None:
    """Every connection to the database cut by the server (as a restart would), but the
    one asking."""
    name = postgres_url.rsplit("/", 1)[1]
    cut = backend.sql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = %s AND pid <> pg_backend_pid()",
        (name,),
    )
    assert cut
    assert all(ok for (ok,) in cut)


def test_a_connection_the_server_dropped_is_replaced_not_handed_out(postgres_url: str) -> None:
    """PostgreSQL only: the pool's connections are cut (a restart of the server, say); once
    idle past CHECK_IDLE_S, each is checked before it is handed out, and replaced."""
    from zar.store.postgres_connections import CHECK_IDLE_S

    backend = Backend("postgres", postgres_url)
    store = backend.open()
    try:
        record = one_person_yams()
        create(store, "g", record)
        cut_connections(backend, postgres_url)
        time.sleep(CHECK_IDLE_S + 0.2)
        record = append(store, "g", record, yams_round(record))
        assert store.load("g") == record
    finally:
        store.close()


def test_an_append_awaited_on_the_loop_is_the_append(postgres_url: str) -> None:
    """PostgreSQL only (the store the server awaits on its event loop): the same rows as
    the append, the same refusals, and connections cut meanwhile replaced, not handed out;
    the loop's connections closed with it."""
    from zar.store.postgres import PostgresStore
    from zar.store.postgres_connections import CHECK_IDLE_S

    backend = Backend("postgres", postgres_url)
    store = backend.open()
    assert isinstance(store, PostgresStore)
    assert isinstance(store, AsyncAppender)
    record = one_person_yams()
    create(store, "g", record)

    async def play() -> Record:
        actions = yams_round(record)
        after = record
        for action in actions:
            after = after.append(action)
        fields: dict[str, Any] = {"finished": False, "summary": summary(after)}
        version = await store.append_async("g", record.version, actions, NOW, **fields)
        assert version == after.version
        with pytest.raises(Conflict) as conflict:
            await store.append_async("g", record.version, actions, NOW, **fields)
        assert conflict.value.version == after.version
        with pytest.raises(UnknownGame):
            await store.append_async("nobody", 0, actions, NOW, **fields)
        cut_connections(backend, postgres_url)
        await asyncio.sleep(CHECK_IDLE_S + 0.2)
        more = yams_round(after, (2, 2, 3, 5, 6))
        done = after
        for action in more:
            done = done.append(action)
        await store.append_async(
            "g", after.version, more, NOW, finished=False, summary=summary(done)
        )
        await store.close_async()
        return done

    try:
        done = asyncio.run(play())
        assert store.load("g") == done
    finally:
        store.close()
