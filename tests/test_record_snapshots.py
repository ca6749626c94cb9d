"""The snapshots a record keeps of its replay: the game at any version is the same as a
replay of its log from the start, and costs a snapshot's span of moves at most."""

from __future__ import annotations

import random

import pytest

from record_support import counting
from zar import farkle
from zar.record import SNAPSHOT_EVERY, Action, Record
from zar.table import Seat

ENTRIES = 5 * SNAPSHOT_EVERY + 37


def wandering(entries: int, seed: int) -> Record:
    """A 10 000 game of two whose log holds ``entries`` entries: selections that score at
    random, banks now and then, undos often (across snapshots too)."""
    chance = random.Random(seed)
    record = Record.new("10000", (Seat("Ali"), Seat("Ece")), target=15_000)
    while record.version < entries:
        state = record.state
        assert isinstance(state, farkle.FarkleState)
        action: Action
        if record.can_undo and chance.random() < 0.3:
            action = record.undo()
        elif state.phase is farkle.Phase.SET_ASIDE:
            faces = chance.choice(sorted(farkle.selections(state.throw)))
            free = [p for p in range(farkle.DICE) if not state.aside[p]]
            chosen: list[int] = []
            for face in faces:
                chosen.append(next(p for p in free if state.tray[p] == face and p not in chosen))
            action = farkle.SetAside(state.seat, tuple(chosen))
        elif state.can_bank and chance.random() < 0.2:
            action = farkle.Bank(state.seat)
        else:
            dice = tuple(chance.randint(1, 6) for _ in range(state.dice_in_play))
            action = farkle.Throw(state.seat, dice)
        record = record.append(action)
    assert not record.state.is_over
    assert len(record.rounds) > 10
    return record


def rounds(record: Record) -> list[tuple[int, ...]]:
    """The totals after each turn of the table, worked out from the moves that stand."""
    rows: list[tuple[int, ...]] = []
    for step in record.steps():
        assert isinstance(step.after, farkle.FarkleState)
        if min(step.after.turns) > len(rows):
            rows.append(step.after.totals)
    return rows


def from_start(record: Record, version: int) -> Record:
    """The record of the log's first ``version`` entries, replayed from the start."""
    return Record(record.kind, record.seats, record.target, log=record.log[:version])


@pytest.mark.parametrize("seed", range(3))
def test_the_game_at_any_version_is_the_replay_of_its_log(seed: int) -> None:
    record = wandering(ENTRIES, seed)
    read = Record.from_json(record.to_json())
    edges = {k * SNAPSHOT_EVERY + d for k in range(6) for d in (-1, 0, 1)}
    for version in sorted(set(range(0, record.version + 1, 5)) | edges):
        if not 0 <= version <= record.version:
            continue
        replayed = from_start(record, version)
        for source in (record, read):
            then = source.upto(version)
            assert then.state == replayed.state
            assert then.state.events == replayed.state.events
            assert (then.can_undo, then.last_move) == (replayed.can_undo, replayed.last_move)
            assert then.rounds == replayed.rounds == rounds(replayed)
            if version < record.version:
                # Played on from there, an undo included: the same as the log's next entry.
                following = then.append(record.log[version])
                assert following.state == from_start(record, version + 1).state


def test_the_game_at_an_old_version_replays_a_snapshots_span_at_most(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    grown = wandering(ENTRIES, 7)
    read = Record.from_json(grown.to_json())
    applied = counting(monkeypatch)
    for record in (grown, read):
        for version in (0, 1, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, 3 * SNAPSHOT_EVERY + 50,
                        ENTRIES - 1, ENTRIES):  # fmt: skip
            applied[0] = 0
            record.upto(version).state  # noqa: B018 -- replayed when asked
            assert applied[0] < SNAPSHOT_EVERY, (version, applied[0])
