"""The table both games are played at: its seats, the error every refused action raises, replay.

A game is its settings and the log of its actions; its state is the replay of that log.

>>> winners((120, 250, 250))
(1, 2)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar

__all__ = [
    "MAX_NAME_LENGTH",
    "MAX_PEOPLE",
    "MAX_SEATS",
    "IllegalAction",
    "Seat",
    "check_name",
    "check_seats",
    "check_table",
    "replay",
    "winners",
]

# A new game's table: six people and the computer, seven seats in all, any of them a
# computer's (each at its own level).
MAX_PEOPLE = 6
MAX_SEATS = 7
MAX_NAME_LENGTH = 24


class IllegalAction(ValueError):
    """An action the rules refuse; the state it was tried on is unchanged.

    ``reason`` is a stable key that front ends translate; ``details`` holds the values the
    message speaks of (a box, the dice that cannot score).
    """

    def __init__(self, message: str, *, reason: str, **details: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.details: Mapping[str, object] = details


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: a person, or the computer playing at ``level``."""

    name: str
    computer: bool = False
    level: str | None = None

    def __post_init__(self) -> None:
        check_name(self.name)
        if self.level is not None and not self.computer:
            raise ValueError(f"{self.name!r} is a person: only a computer seat has a level")


def check_name(name: object) -> str:
    """Return ``name`` if it may name a player: 1 to 24 characters, no control characters."""
    if not isinstance(name, str):
        raise IllegalAction("a player's name is text", reason="name-not-text")
    if not name.strip():
        raise IllegalAction("a player needs a name", reason="name-empty")
    if len(name) > MAX_NAME_LENGTH:
        raise IllegalAction(
            f"a name has at most {MAX_NAME_LENGTH} characters", reason="name-too-long"
        )
    if name != name.strip():
        raise IllegalAction("a name does not start or end with a space", reason="name-spaces")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise IllegalAction("a name holds no control characters", reason="name-control")
    return name


def check_seats(seats: Iterable[Seat], *, max_computers: int | None = None) -> tuple[Seat, ...]:
    """Check the seats of a game: 1 to 6 people (or computers alone), distinct names.

    The engine accepts any number of computer seats, so that simulations can pit them
    against each other; a new game's table is :func:`check_table`'s to judge.
    """
    result = tuple(seats)
    people = sum(not seat.computer for seat in result)
    computers = len(result) - people
    if not result:
        raise IllegalAction("a game needs at least one player", reason="no-players")
    if people > MAX_PEOPLE:
        raise IllegalAction(
            f"at most {MAX_PEOPLE} people play at one table", reason="too-many-people"
        )
    if max_computers is not None and computers > max_computers:
        raise IllegalAction(
            f"at most {max_computers} computer player(s) at this table",
            reason="too-many-computers",
            limit=max_computers,
        )
    seen: dict[str, Seat] = {}
    for seat in result:
        key = seat.name.casefold()
        other = seen.setdefault(key, seat)
        if other is seat:
            continue
        if seat.computer or other.computer:
            # A person may be called anything but the computer's name at the table.
            name = (seat if seat.computer else other).name
            raise IllegalAction(
                f"{name!r} is the computer's name", reason="computer-name", name=name
            )
        raise IllegalAction(
            f"two players are called {seat.name!r}", reason="name-taken", name=seat.name
        )
    return result


def check_table(seats: Iterable[Seat], *, max_computers: int | None = None) -> tuple[Seat, ...]:
    """Check the seats of a new game (:func:`check_seats`): besides, at most
    :data:`MAX_SEATS` in all (``too-many-seats``). A table of computers alone is a game to
    watch; the terminal's ``zar play`` seats one computer at most (``max_computers=1``).

    >>> len(check_table([Seat("Ali"), *(Seat(f"IA {n}", computer=True) for n in range(6))]))
    7
    """
    result = check_seats(seats, max_computers=max_computers)
    if len(result) > MAX_SEATS:
        raise IllegalAction(
            f"at most {MAX_SEATS} players sit at one table",
            reason="too-many-seats",
            limit=MAX_SEATS,
        )
    return result


def winners(totals: Sequence[int]) -> tuple[int, ...]:
    """The seats with the highest total: equal totals share the win."""
    best = max(totals)
    return tuple(i for i, total in enumerate(totals) if total == best)


A_contra = TypeVar("A_contra", contravariant=True)


class _State(Protocol[A_contra]):
    def apply(self, action: A_contra, /) -> Self: ...


S = TypeVar("S", bound=_State[Any])


def replay(start: S, log: Iterable[Any]) -> S:
    """The state reached by applying every action of ``log`` to ``start``, in order."""
    state = start
    for action in log:
        state = state.apply(action)
    return state
