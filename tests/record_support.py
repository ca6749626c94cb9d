"""What the tests of records share: the moves of a log that stand, worked out from the log
alone (not by the record's own code)."""

from __future__ import annotations

from zar.record import Move, Record, Undo


def standing(record: Record) -> list[Move]:
    """The moves of the log that no undo cancelled."""
    moves: list[Move] = []
    for entry in record.log:
        if isinstance(entry, Undo):
            moves.pop()
        else:
            moves.append(entry)
    return moves
