"""The games this process serves, assembled from their parts, each with a concern of its own:

- :class:`~zar.server.records.Records`: each game's record and seating kept in memory,
  caught up with what other processes appended;
- :class:`~zar.server.acting.Acting`: one action at a time on a game, judged, committed;
  new games and seatings changed;
- :class:`~zar.server.followers.Followers`: who follows each game live, told of its
  changes in one line for all, and the keep-alives' sweep;
- :class:`~zar.server.presence.Presences`: which devices are here, on this process or
  another.

:class:`Games` wires them (a change heard is caught up, then its followers told; a device
come or gone wakes the game's followers if the game shows it) and hears the other processes
sharing the store. What a device may do is :mod:`zar.server.rights`'s to say.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Mapping

from starlette.concurrency import run_in_threadpool

from zar.dice import DiceSource
from zar.record import Record
from zar.seating import Seating
from zar.server.accounts import Accounts
from zar.server.acting import Acting
from zar.server.followers import Follower, Followers
from zar.server.intents import Intent
from zar.server.limits import ActionLimit, UndoLimit
from zar.server.presence import Presence, Presences
from zar.server.records import GAMES_KEPT, Records
from zar.server.rights import require, to_adopt, to_read
from zar.store import Store

__all__ = ["Games"]


class Games:
    """The games this process serves: the store, and the parts that keep, act on, and
    follow its games."""

    def __init__(
        self,
        store: Store,
        dice: DiceSource,
        clock: Callable[[], str],
        *,
        kept: int = GAMES_KEPT,
        monotonic: Callable[[], float] = time.monotonic,
        undos: UndoLimit | None = None,
        actions: ActionLimit | None = None,
        accounts: Accounts | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.followers = Followers()
        self.presences = Presences(store, clock, monotonic, self._presence_changed)
        self.records = Records(store, kept=kept, evicted=self.presences.forget)
        self.acting = Acting(
            store,
            self.records,
            dice,
            clock,
            undos=undos,
            actions=actions,
            moved=self.changed,
            reseated=self.followers.wake,
        )
        self.acting.accounts = accounts

    @property
    def dice(self) -> DiceSource:
        return self.acting.dice

    @property
    def accounts(self) -> Accounts | None:
        """Works out each finished game's luck account after its end is stored."""
        return self.acting.accounts

    # What is kept of each game.

    async def record(self, game_id: str) -> Record:
        """The game as it is now (:meth:`Records.record`)."""
        return await self.records.record(game_id)

    async def seating(self, game_id: str) -> Seating | None:
        """Who holds the game's seats (None: a game stored before seats had holders)."""
        return await self.records.seating(game_id)

    async def peek(self, game_id: str) -> Record:
        """The game, without keeping it (:meth:`Records.peek`)."""
        return await self.records.peek(game_id)

    def at_hand(self, game_id: str) -> tuple[Record, Seating] | None:
        """The game and its seating if both are in memory (:meth:`Records.at_hand`)."""
        return self.records.at_hand(game_id)

    async def adopted(self, game_id: str, device: str | None, *, here: bool) -> Seating:
        """The game's seating. A game stored before seats had holders goes to the first
        device that opens it from this machine (``here``): it becomes its host, holding every
        person's seat (else :class:`Forbidden`)."""
        record = await self.record(game_id)  # UnknownGame first
        seating = await self.seating(game_id)
        if seating is None:
            require(to_adopt(device, here=here))
            assert device is not None
            seating = await self.reseat(
                game_id, lambda _: Seating.hosted(device, record.seats), unclaimed=True
            )
        return seating

    async def reach(self, game_id: str, device: str | None, *, here: bool) -> Seating:
        """The seating of a game ``device`` may read (else :class:`Forbidden`), adopted if
        it is from before seats (:meth:`adopted`)."""
        seating = await self.adopted(game_id, device, here=here)
        require(to_read(seating, device))
        return seating

    # Acting.

    async def create(self, record: Record, host: str) -> str:
        """A new game, every person's seat held by ``host``'s device."""
        return await self.acting.create(record, host)

    async def reseat(
        self,
        game_id: str,
        change: Callable[[Seating], Seating],
        *,
        unclaimed: bool = False,
        keep: Callable[[str, Seating], None] | None = None,
    ) -> Seating:
        """The game's seating changed by ``change`` (:meth:`Acting.reseat`)."""
        return await self.acting.reseat(game_id, change, unclaimed=unclaimed, keep=keep)

    async def act(
        self, game_id: str, intent: Intent, device: str | None, address: str = ""
    ) -> Record:
        """Apply ``device``'s intention (:meth:`Acting.act`)."""
        return await self.acting.act(game_id, intent, device, address)

    async def settled(self) -> None:
        """Wait until the luck account of every game ended here so far is kept."""
        await self.acting.settled()

    def standin_level(self, record: Record) -> str:
        """The level the computer plays an absent person's seat at."""
        return self.acting.standin_level(record)

    # Changes, heard and told.

    def changed(self, game_id: str | None, version: int, note: str = "") -> None:
        """The game is at ``version`` now, moved on here or by another process (``None``:
        any game may have moved; ``note``: the actions appended, as the store told them), or
        its seating or a device's presence changed (``version`` -1, and the ``note``): what
        is kept of it is caught up or goes, and its followers wake.

        Every wake-up of a move comes through here, once per version: this process's own
        appends, and the store's word of every process's appends (this one's included).
        """
        if game_id is None:
            self.records.clear()
            for game in self.followers.games():
                self.followers.wake(game)
            return
        if version < 0:
            if note.startswith("presence "):
                self.presences.heard(game_id, note)
                return
            if note == "seating":
                self.records.reseated(game_id)
            self.followers.wake(game_id)
            return
        if self.records.heard(game_id, version, note):
            self.followers.wake(game_id)

    def stamp(self, game_id: str) -> int:
        """Which change the game is at, while followed here (:meth:`Followers.stamp`)."""
        return self.followers.stamp(game_id)

    def _presence_changed(self, game_id: str, device: str) -> None:
        """A device came or went: its game's followers look again if the game shows it,
        that is if it holds a seat (a watcher's coming is nobody's news: thousands of them
        coming would wake every other thousands of times)."""
        if self.records.holds_seat(game_id, device):
            self.followers.wake(game_id)

    async def watch(self) -> Callable[[], None]:
        """Hear the other processes sharing the store; say which devices follow games here,
        while serving. Returns how to stop."""
        loop = asyncio.get_running_loop()

        def heard(game_id: str | None, version: int, note: str) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: stopping anyway
                loop.call_soon_threadsafe(self.changed, game_id, version, note)

        stop_watching = await run_in_threadpool(self.store.watch, heard)
        beating = asyncio.create_task(self.presences.heartbeat())

        def stop() -> None:
            beating.cancel()
            stop_watching()

        return stop

    # Following.

    def presence(self, game_id: str) -> Mapping[str, Presence]:
        """Each device that followed the game since this process started: here, or since
        when it is away (:meth:`Presences.of`)."""
        return self.presences.of(game_id)

    @contextlib.asynccontextmanager
    async def following(
        self, game_id: str, follower: Follower, device: str | None = None
    ) -> AsyncIterator[None]:
        """While inside, ``follower`` is told of the game's changes and, when nothing
        changed a while, to say it holds; ``device`` is here."""
        self.followers.join(game_id, follower)
        try:
            try:
                await self.presences.arrive(game_id, device)
                yield
            finally:  # gone from the followers first: its going wakes the others only
                self.followers.leave(game_id, follower)
        finally:
            await self.presences.leave(game_id, device)
