"""Who sits where: a game's seats and the devices that hold them (who may do what with
them is :mod:`zar.server.rights`'s to say).

The device that starts a game is its host and holds every person's seat; an invitation
lets another device make a seat its own, after which only that device acts for it. A
device may hold several seats (two people sharing a phone). The host may hand an absent
person's seat to the computer until they come back, take a seat back to its own device,
and end the game; watchers see everything and act for nobody. A seating remembers for
good that another device had a place at the table (:attr:`Seating.shared`: a game it may
have seen end stays ended) and which devices had a seat taken back from them
(:attr:`Seating.former`: the invitation they spent lets them in no more).

Devices are named here by a key (the hash of their credential, never the credential).
A :class:`Seating` is a value: every change returns a new one with the next revision, and
the store keeps it only if nobody changed it meanwhile (as it keeps an action only on the
version it was made for).

>>> seats = Seating.hosted("h", (Seat("Ali"), Seat("Ece")))
>>> seats = seats.claimed(1, "g")
>>> seats.holds("g", 1), seats.holds("h", 1), seats.role("g"), seats.rev
(True, False, 'player', 1)
>>> back = seats.taken_back(1)  # the host takes Ece's seat back: remembered
>>> back.devices == {"h"}, back.shared, sorted(back.former)
(True, True, ['g'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from zar.refusal import Forbidden
from zar.table import Seat

__all__ = ["Role", "Seating"]

Role = Literal["host", "player", "watcher"]


@dataclass(frozen=True)
class Seating:
    """The host, the device holding each seat (None: the computer's seat), the computer's
    level standing in for a seat meanwhile (None: its holder plays), the watchers; and for
    each seat stood in for, the version of the game's log when the computer began (None:
    not known, a seating kept before it was kept). ``shared``: another device than the
    host has had a place at the table, whether it still has one or not; ``former``: the
    devices the host took a seat back from (until one takes a seat again)."""

    host: str
    holders: tuple[str | None, ...]
    standins: tuple[str | None, ...]
    watchers: frozenset[str] = frozenset()
    rev: int = field(default=0, compare=False)
    since: tuple[int | None, ...] = ()
    shared: bool = False
    former: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if len(self.since) != len(self.holders):  # not given: not known for any seat
            object.__setattr__(self, "since", (None,) * len(self.holders))
        # Another device has a place: for good (asked without gathering the watchers, who
        # may be thousands).
        if not self.shared and (
            self.watchers or any(h not in (None, self.host) for h in self.holders)
        ):
            object.__setattr__(self, "shared", True)

    @classmethod
    def hosted(cls, host: str, seats: Sequence[Seat]) -> Seating:
        """A new game's seating: the host holds every person's seat."""
        return cls(host, tuple(None if s.computer else host for s in seats), (None,) * len(seats))

    def role(self, device: str | None) -> Role | None:
        """What ``device`` is at this table: its host, a player, a watcher, or nothing."""
        if device is None:
            return None
        if device == self.host:
            return "host"
        if device in self.holders:
            return "player"
        if device in self.watchers:
            return "watcher"
        return None

    def holds(self, device: str | None, seat: int) -> bool:
        """Whether ``device`` acts for ``seat`` (and the computer does not, meanwhile)."""
        return device is not None and self.holders[seat] == device and self.standins[seat] is None

    def seats_of(self, device: str | None) -> tuple[int, ...]:
        return tuple(i for i, holder in enumerate(self.holders) if device and holder == device)

    @property
    def devices(self) -> frozenset[str]:
        """Every device with a place at the table: the host, the players, the watchers."""
        return frozenset({self.host, *(h for h in self.holders if h), *self.watchers})

    def plays(self, seat: int) -> str | None:
        """The computer's level standing in for ``seat``, if it plays it meanwhile."""
        return self.standins[seat]

    def standing_since(self, seat: int) -> int | None:
        """The version of the log when the computer began to play ``seat`` meanwhile."""
        return self.since[seat] if self.standins[seat] else None

    def _since(self, seat: int, version: int | None) -> tuple[int | None, ...]:
        return tuple(version if i == seat else v for i, v in enumerate(self.since))

    def _next(self, **changes: Any) -> Seating:
        return replace(self, **changes, rev=self.rev + 1)

    def claimed(self, seat: int, device: str) -> Seating:
        """``device`` makes ``seat`` its own (whether it may: :mod:`zar.server.rights`)."""
        self._check(seat)
        holders = tuple(device if i == seat else h for i, h in enumerate(self.holders))
        return self._next(
            holders=holders, watchers=self.watchers - {device}, former=self.former - {device}
        )

    def handed_to_computer(self, seat: int, level: str, version: int | None = None) -> Seating:
        """The computer plays ``seat`` at ``level`` until its holder comes back, from the
        game's ``version`` on (its log's length then)."""
        self._check(seat)
        standins = tuple(level if i == seat else s for i, s in enumerate(self.standins))
        since = self.since if self.standins[seat] else self._since(seat, version)
        return self._next(standins=standins, since=since)

    def resumed(self, seat: int) -> Seating:
        """The seat's holder plays it again."""
        self._check(seat)
        standins = tuple(None if i == seat else s for i, s in enumerate(self.standins))
        return self._next(standins=standins, since=self._since(seat, None))

    def taken_back(self, seat: int) -> Seating:
        """The host's device holds ``seat`` again (an unclaimed seat, or one left behind); the
        device that held it is one of the :attr:`former` ones."""
        self._check(seat)
        holders = tuple(self.host if i == seat else h for i, h in enumerate(self.holders))
        standins = tuple(None if i == seat else s for i, s in enumerate(self.standins))
        left = self.holders[seat]
        former = self.former if left in (None, self.host) else self.former | {left}
        return self._next(
            holders=holders, standins=standins, since=self._since(seat, None), former=former
        )

    def watched_by(self, device: str) -> Seating:
        """``device`` follows the game and acts for nobody (unless it already has a place)."""
        if self.role(device) is not None:
            return self
        return self._next(watchers=self.watchers | {device})

    def _check(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.holders):
            raise Forbidden("no-such-seat", seat=seat)
        if self.holders[seat] is None:
            raise Forbidden("computer-seat", seat=seat)

    def to_json(self, *, watchers: bool = True) -> dict[str, Any]:
        """The seating as JSON; without the ``watchers`` if told (the store keeps them apart)."""
        data: dict[str, Any] = {
            "host": self.host,
            "holders": list(self.holders),
            "standins": list(self.standins),
        }
        if watchers:
            data["watchers"] = sorted(self.watchers)
        if any(v is not None for v in self.since):
            data["since"] = list(self.since)
        if self.shared:
            data["shared"] = True
        if self.former:
            data["former"] = sorted(self.former)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], rev: int) -> Seating:
        holders = tuple(data["holders"])
        standins = tuple(data.get("standins") or (None,) * len(holders))
        since = tuple(data.get("since") or (None,) * len(holders))
        if len(standins) != len(holders) or len(since) != len(holders):
            raise ValueError("a seating names every seat once")
        watchers = frozenset(data.get("watchers", ()))
        shared, former = bool(data.get("shared")), frozenset(data.get("former", ()))
        return cls(str(data["host"]), holders, standins, watchers, rev, since, shared, former)
