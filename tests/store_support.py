"""What the store tests share: the two databases behind one interface, and games to keep."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import psycopg

from zar import farkle, yams
from zar.history import figures
from zar.record import Action, Record
from zar.server.views import summary
from zar.store import Store, open_store
from zar.table import Seat

NOW = "2025-01-01T12:00:00.000+00:00"


@dataclass(frozen=True)
class Backend:
    """A database for a test: ``open()`` a store on it (as many as wanted, as processes
    would), or ``sql()`` straight into it, behind the store's back."""

    kind: Literal["sqlite", "postgres"]
    url: str
    path: Path | None = None  # SQLite's file

    def open(self) -> Store:
        return open_store(self.url)

    def sql(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one statement in its own committed transaction; the rows it returns."""
        if self.kind == "sqlite":
            assert self.path is not None
            db = sqlite3.connect(self.path, isolation_level=None)
            try:
                rows = db.execute(statement.replace("%s", "?"), params).fetchall()
            finally:
                db.close()
            return rows
        with psycopg.connect(self.url, autocommit=True) as pg:
            cursor = pg.execute(statement, params)
            return cursor.fetchall() if cursor.description else []

    def refuse_action(self, seq: int) -> None:
        """Make the database itself refuse to store an action numbered ``seq``."""
        if self.kind == "sqlite":
            self.sql(
                f"CREATE TRIGGER refuse BEFORE INSERT ON actions WHEN NEW.seq = {seq}"
                " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
            )
            return
        self.sql(
            "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN"
            " RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql"
        )
        self.sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON actions FOR EACH ROW"
            f" WHEN (NEW.seq = {seq}) EXECUTE FUNCTION refuse()"
        )

    @property
    def refusal(self) -> type[Exception]:
        """What the driver raises for a statement the database refuses."""
        return sqlite3.IntegrityError if self.kind == "sqlite" else psycopg.Error


def pages(path: Path) -> int:
    """How many pages a SQLite file has."""
    db = sqlite3.connect(path)
    try:
        count: int = db.execute("PRAGMA page_count").fetchone()[0]
        return count
    finally:
        db.close()


def one_person_yams(name: str = "Ali") -> Record:
    return Record.new("yams", (Seat(name),))


def two_person_10000() -> Record:
    return Record.new("10000", (Seat("Ece"), Seat("Can")), target=5_000)


def yams_round(record: Record, faces: tuple[int, ...] = (1, 2, 3, 4, 6)) -> list[Action]:
    """A one-person Yams round: throw ``faces``, write them in the first open box."""
    card = record.state.cards[0]
    box = next(box for box in yams.Box if card[box] is None)
    return [yams.Throw(0, (), faces), yams.Fill(0, box)]


def yams_round_of_three(record: Record) -> list[Action]:
    """A one-person Yams round of three actions: throw, keep two and throw again, write."""
    card = record.state.cards[0]
    box = next(box for box in yams.Box if card[box] is None)
    return [yams.Throw(0, (), (1, 2, 3, 4, 6)), yams.Throw(0, (0, 1), (5, 5, 5)), yams.Fill(0, box)]


def farkle_turn(record: Record) -> list[Action]:
    """A 10 000 turn: throw, set a 1 aside, bank it."""
    seat = record.state.seat
    return [farkle.Throw(seat, (1, 2, 3, 4, 6, 6)), farkle.SetAside(seat, (0,)), farkle.Bank(seat)]


def create(store: Store, game_id: str, record: Record, now: str = NOW) -> None:
    store.create(game_id, record, now, summary(record))


def append(
    store: Store, game_id: str, record: Record, actions: list[Action], now: str = NOW
) -> Record:
    """Append ``actions`` on ``record``'s version as the server does (the game's figures
    with the append that ends it); the record after them."""
    after = record
    for action in actions:
        after = after.append(action)
    version = store.append(
        game_id,
        record.version,
        actions,
        now,
        finished=after.state.is_over,
        summary=summary(after),
        figures=figures(after),
    )
    assert version == after.version
    return after
