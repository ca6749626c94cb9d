"""The places ``zar serve`` gives live streams, apart from the connections that serve requests.

A stream holds its connection for as long as a game is followed, an hour perhaps: counted
among the connections that serve requests, streams from a few addresses filled them, and
every other client, the host's own move included, was refused. So a connection whose
request becomes a stream leaves that count (and its address's) for a budget of its own,
:class:`StreamBudget`. When every place is taken, a newcomer's stream takes the place of
the oldest stream of the address that holds the most, if that address holds at least two
more than the newcomer's; else the newcomer is refused (429 ``too-many-streams``): its
address holds its share already. The places settle evenly over the addresses that want
them, and an address with none always finds one while another holds two or more.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

from zar.server.streams import TooManyStreams

__all__ = ["StreamBudget"]

Held = TypeVar("Held", bound=Hashable)


class StreamBudget(Generic[Held]):
    """``total`` places for streams, counted per address, each address's oldest first.

    >>> budget: StreamBudget[str] = StreamBudget(2)
    >>> budget.take("a1", "a"), budget.take("a2", "a"), budget.take("b1", "b")
    (None, None, 'a1')
    >>> budget.take("b2", "b")
    Traceback (most recent call last):
    zar.server.streams.TooManyStreams: too-many-streams
    """

    def __init__(self, total: int) -> None:
        self.total = total
        self._of: dict[str, dict[Held, None]] = {}  # each address's streams, the oldest first
        self._address: dict[Held, str] = {}
        # The addresses holding each number of streams, and the most any holds: the one to
        # give a place up is found at once, whatever the number of addresses.
        self._holding: dict[int, dict[str, None]] = {}
        self._most = 0

    def __len__(self) -> int:
        return len(self._address)

    def held(self, address: str) -> int:
        """How many streams ``address`` holds."""
        return len(self._of.get(address, ()))

    def refuses(self, address: str) -> bool:
        """Whether a new stream of ``address`` finds no place: every place is taken, and no
        address holds two more than ``address``."""
        return len(self._address) >= self.total and self._most < self.held(address) + 2

    def take(self, stream: Held, address: str) -> Held | None:
        """A place for ``stream`` of ``address``: the stream whose place it took (its
        connection to close), or None; :class:`TooManyStreams` (``server``) when every
        place is taken and no address holds two more than ``address``. A refusal changes
        nothing."""
        given_up = None
        if len(self._address) >= self.total:
            if self.refuses(address):
                raise TooManyStreams("server", self.total)
            most = next(iter(self._holding[self._most]))
            given_up = next(iter(self._of[most]))
            self.release(given_up)
        self._count(address, 1)
        self._of.setdefault(address, {})[stream] = None
        self._address[stream] = address
        return given_up

    def release(self, stream: Held) -> None:
        """``stream``'s place given back (nothing if it holds none, or no longer)."""
        address = self._address.pop(stream, None)
        if address is None:
            return
        self._count(address, -1)
        streams = self._of[address]
        del streams[stream]
        if not streams:
            del self._of[address]

    def _count(self, address: str, change: int) -> None:
        """``address`` moved from the addresses holding its streams now to those holding
        ``change`` more (before its own streams change)."""
        was = self.held(address)
        now = was + change
        if was:
            holding = self._holding[was]
            del holding[address]
            if not holding:
                del self._holding[was]
        if now:
            self._holding.setdefault(now, {})[address] = None
        if now > self._most:
            self._most = now
        elif was == self._most and was not in self._holding:
            self._most = now  # it held the most, alone: the most is one less
