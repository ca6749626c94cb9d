"""What the tests of records share: the moves of a log that stand, worked out from the log
alone (not by the record's own code); the moves the engine applies, counted."""

from __future__ import annotations

from typing import Any

import pytest

from zar import farkle, yams
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


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every move the engine applies, in both games, from now on: ``[count]``."""
    applied = [0]
    for state in (yams.YamsState, farkle.FarkleState):

        def apply(self: Any, action: Any, *, _apply: Any = state.apply) -> Any:
            applied[0] += 1
            return _apply(self, action)

        monkeypatch.setattr(state, "apply", apply)
    return applied
