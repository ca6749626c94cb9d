"""A game as a record: its kind, settings and log, written as plain JSON values and read back.

The store keeps records; the server rebuilds states from them by replaying the log through
the engine. Reading checks every value, so a damaged record is refused, never half read.

>>> from zar.table import Seat
>>> record = Record.new("10000", (Seat("Ali"),), target=5_000)
>>> record = record.append(farkle.Throw(0, (1, 2, 3, 4, 6, 6)))
>>> Record.from_json(record.to_json()) == record
True
>>> record.state.turn_points, record.version
(0, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, get_args

from zar import farkle, yams
from zar.table import IllegalAction, Seat, replay

__all__ = ["GAMES", "Action", "GameKind", "Record", "State"]

GameKind = Literal["yams", "10000"]
GAMES: tuple[GameKind, ...] = get_args(GameKind)

Action = yams.YamsAction | farkle.FarkleAction
State = yams.YamsState | farkle.FarkleState


def action_to_json(action: Action) -> dict[str, Any]:
    match action:
        case yams.Throw():
            return {"type": "throw", "seat": action.seat, "keep": list(action.keep),
                    "dice": list(action.dice)}  # fmt: skip
        case yams.Fill():
            return {"type": "fill", "seat": action.seat, "box": action.box.name}
        case farkle.Throw():
            return {"type": "throw", "seat": action.seat, "dice": list(action.dice)}
        case farkle.SetAside():
            return {"type": "set_aside", "seat": action.seat, "positions": list(action.positions)}
        case farkle.Bank():
            return {"type": "bank", "seat": action.seat}


def _ints(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or any(type(v) is not int for v in value):
        raise ValueError(f"{what} is a list of whole numbers")
    return tuple(value)


def action_from_json(kind: GameKind, data: Mapping[str, Any]) -> Action:
    seat = data.get("seat")
    if type(seat) is not int:
        raise ValueError("an action names its seat")
    match kind, data.get("type"):
        case "yams", "throw":
            return yams.Throw(
                seat, _ints(data.get("keep"), "keep"), _ints(data.get("dice"), "dice")
            )
        case "yams", "fill":
            box = data.get("box")
            if not isinstance(box, str) or box not in yams.Box.__members__:
                raise ValueError(f"there is no box {box!r}")
            return yams.Fill(seat, yams.Box[box])
        case "10000", "throw":
            return farkle.Throw(seat, _ints(data.get("dice"), "dice"))
        case "10000", "set_aside":
            return farkle.SetAside(seat, _ints(data.get("positions"), "positions"))
        case "10000", "bank":
            return farkle.Bank(seat)
    raise ValueError(f"{kind} has no action {data.get('type')!r}")


@dataclass(frozen=True)
class Record:
    """A game: what it is, who plays, and every action with the dice that fell."""

    kind: GameKind
    seats: tuple[Seat, ...]
    target: int | None = None  # 10 000 only
    autofill: int | None = None  # Yams: seconds before the computer writes a third throw
    log: tuple[Action, ...] = ()
    # The replay of the log, kept: a record is read far more often than written.
    _state: State | None = field(default=None, compare=False, repr=False)

    @classmethod
    def new(
        cls,
        kind: GameKind,
        seats: Sequence[Seat],
        *,
        target: int | None = None,
        autofill: int | None = None,
    ) -> Record:
        """A record with no action yet; refuses bad settings as the engine does."""
        if autofill is not None and (type(autofill) is not int or not 1 <= autofill <= 600):
            raise ValueError("the auto-fill delay is 1 to 600 seconds, or off")
        record = cls(
            kind,
            tuple(seats),
            target if kind == "10000" else None,
            autofill if kind == "yams" else None,
        )
        record.start  # noqa: B018 -- checks the settings now, not at the first action
        return record

    @cached_property
    def start(self) -> State:
        if self.kind == "yams":
            if self.target is not None:
                raise ValueError("Yams has no target")
            return yams.YamsState.start(yams.YamsSettings(self.seats))
        target = 10_000 if self.target is None else self.target
        return farkle.FarkleState.start(farkle.FarkleSettings(self.seats, target=target))

    @property
    def version(self) -> int:
        """How many actions the log holds: every action makes a new version."""
        return len(self.log)

    @property
    def state(self) -> State:
        if self._state is None:
            object.__setattr__(self, "_state", replay(self.start, self.log))
        assert self._state is not None
        return self._state

    def append(self, action: Action) -> Record:
        """The record with ``action`` added; raises IllegalAction, changing nothing, if refused."""
        state = self.state.apply(action)  # type: ignore[arg-type]
        log = (*self.log, action)
        return Record(self.kind, self.seats, self.target, self.autofill, log, _state=state)

    def settings_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seats": [
                {"name": s.name, "computer": s.computer, "level": s.level} for s in self.seats
            ],
            "target": self.target,
            "autofill": self.autofill,
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.settings_json(), "log": [action_to_json(a) for a in self.log]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        """Read a record back, replaying its log: a record the rules refuse is a ValueError."""
        kind = data.get("kind")
        if kind not in GAMES:
            raise ValueError(f"there is no game {kind!r}")
        seats_data = data.get("seats")
        if not isinstance(seats_data, list):
            raise ValueError("a game lists its seats")
        seats = []
        for seat in seats_data:
            if not isinstance(seat, Mapping):
                raise ValueError("a seat is an object")
            seats.append(
                Seat(seat.get("name"), bool(seat.get("computer")), seat.get("level"))  # type: ignore[arg-type]
            )
        target = data.get("target")
        record = cls.new(kind, seats, target=target, autofill=data.get("autofill"))
        log = data.get("log", [])
        if not isinstance(log, list):
            raise ValueError("a game's log is a list")
        state = record.start
        actions: list[Action] = []
        for entry in log:
            if not isinstance(entry, Mapping):
                raise ValueError("an action is an object")
            action = action_from_json(kind, entry)
            try:
                state = state.apply(action)  # type: ignore[arg-type]
            except IllegalAction as refusal:
                raise ValueError(f"action {len(actions) + 1} of the log: {refusal}") from None
            actions.append(action)
        log = tuple(actions)
        return cls(kind, record.seats, record.target, record.autofill, log, _state=state)
