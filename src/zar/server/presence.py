"""Who is here: a device is here while one of its event streams of the game is open, on
this process or on another sharing the store (which says so every little while), and else
away since it left.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool

from zar.store import Store

__all__ = ["PRESENCE_EVERY", "PRESENCE_LASTS", "Presence", "Presences"]

# A device following on another process is here while that process says so, this often.
PRESENCE_EVERY = 20.0
PRESENCE_LASTS = 3 * PRESENCE_EVERY


@dataclass(frozen=True)
class Presence:
    """Whether a device follows the game now, else since when it is away (None: not seen
    since this process started)."""

    here: bool
    away_since: str | None = None


_HERE = Presence(True)


class Presences:
    """Who follows each game, from which device: the streams of this process per device, the
    devices other processes said are here (until when), when each left. ``shown(game_id,
    device)`` is told when a device came or went."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], str],
        monotonic: Callable[[], float],
        shown: Callable[[str, str], None],
    ) -> None:
        self.store = store
        self.clock = clock
        self.monotonic = monotonic
        self.shown = shown
        self._streams: dict[str, Counter[str]] = {}
        self._remote: dict[str, dict[str, float]] = {}
        self._left: dict[str, dict[str, str]] = {}

    def of(self, game_id: str) -> Mapping[str, Presence]:
        """Each device that followed the game since this process started: here, or since
        when it is away. Asked device by device (a view asks for the seats' holders alone,
        of a game that may have thousands of watchers)."""
        return _OfGame(self, game_id, self.monotonic())

    def presence(self, game_id: str, device: str, now: float) -> Presence | None:
        """Whether ``device`` is here at ``now`` (:attr:`monotonic`), or since when it is
        away; None if it never followed the game since this process started."""
        streams = self._streams.get(game_id)
        if streams is not None and streams[device] > 0:
            return _HERE
        if self._remote.get(game_id, {}).get(device, now) > now:
            return _HERE
        since = self._left.get(game_id, {}).get(device)
        return None if since is None else Presence(False, since)

    def devices(self, game_id: str) -> Iterator[str]:
        """The devices that followed the game since this process started."""
        seen = dict.fromkeys([*self._streams.get(game_id, {}), *self._remote.get(game_id, {})])
        seen.update(dict.fromkeys(self._left.get(game_id, {})))
        return iter(seen)

    def forget(self, game_id: str) -> None:
        """The game is no longer kept here: who came and went is let go."""
        self._left.pop(game_id, None)
        self._remote.pop(game_id, None)

    async def arrive(self, game_id: str, device: str | None) -> None:
        if device is None:
            return
        streams = self._streams.setdefault(game_id, Counter())
        streams[device] += 1
        if streams[device] == 1:
            self.shown(game_id, device)
            await self._announce_all([(game_id, f"presence {device} 1")])

    async def leave(self, game_id: str, device: str | None) -> None:
        if device is None:
            return
        streams = self._streams.get(game_id, Counter())
        streams[device] -= 1
        if streams[device] > 0:
            return
        del streams[device]
        if not streams:
            self._streams.pop(game_id, None)
        self._left.setdefault(game_id, {})[device] = self.clock()
        self.shown(game_id, device)
        await self._announce_all([(game_id, f"presence {device} 0")])

    def heard(self, game_id: str, note: str) -> None:
        """Another process's word of a device come or gone (``presence DEVICE 1`` or ``0``)."""
        _, device, here = [*note.split(" "), "", ""][:3]
        remote = self._remote.setdefault(game_id, {})
        if here == "1":
            remote[device] = self.monotonic() + PRESENCE_LASTS
            self._left.get(game_id, {}).pop(device, None)
        else:
            remote.pop(device, None)
            if not self._streams.get(game_id, Counter()).get(device):
                self._left.setdefault(game_id, {})[device] = self.clock()
        self.shown(game_id, device)

    async def _announce_all(self, notes: list[tuple[str, str]]) -> None:
        """Tell the other processes each ``(game_id, note)``, in one worker thread's turn."""

        def announce() -> None:
            for game_id, note in notes:
                self.store.announce(game_id, note)

        with contextlib.suppress(Exception):  # presence is a courtesy: never fail a stream
            await run_in_threadpool(announce)

    async def heartbeat(self) -> None:
        """Say again, every little while, which devices follow games here: a process that
        stops without a word is forgotten by the others a little later. All in one worker
        thread's turn: thousands of watchers here are not thousands of handoffs to a thread,
        each taking the event loop's time from the other requests."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            notes = [
                (game_id, f"presence {device} 1")
                for game_id, streams in list(self._streams.items())
                for device in streams
            ]
            await self._announce_all(notes)


class _OfGame(Mapping[str, Presence]):
    """:meth:`Presences.of`: who followed a game, each device looked up when asked."""

    __slots__ = ("_game_id", "_now", "_presences")

    def __init__(self, presences: Presences, game_id: str, now: float) -> None:
        self._presences, self._game_id, self._now = presences, game_id, now

    def __getitem__(self, device: str) -> Presence:
        found = self._presences.presence(self._game_id, device, self._now)
        if found is None:
            raise KeyError(device)
        return found

    def __iter__(self) -> Iterator[str]:
        return (device for device in self._presences.devices(self._game_id) if device in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)
