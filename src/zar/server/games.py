"""The games this process serves: the store, a cache of records and seatings, one lock per
game, who is following each game live and from which device.

The server is the authority: it holds every game, throws the dice and applies each
intention through the engine, only for a device its seating lets act (the right to act is
judged on a revision of the seating, and the store keeps the action only while the seating
is still at it). Every action is committed before the reply (on the event loop when the
store takes it at once, else in a worker thread); a stale or repeated action
(its ``version`` is not the game's) is refused with :class:`~zar.store.Conflict`. An undo
the rules allow may be refused still, with :class:`~zar.server.limits.TooManyUndos`, to a
client undoing in a loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import secrets
import time
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from starlette.concurrency import run_in_threadpool

from zar import ai
from zar.dice import DiceSource
from zar.history import figures
from zar.record import Record
from zar.seating import Forbidden, Seating
from zar.server.accounts import Accounts
from zar.server.intents import Intent, actions_for
from zar.server.limits import UndoLimit
from zar.server.views import Presence, summary
from zar.store import AsyncAppender, Busy, Conflict, Store
from zar.table import IllegalAction

__all__ = ["GAMES_KEPT", "Follower", "Games"]

# The games a process keeps replayed in memory (about 30 KiB each): those played lately.
GAMES_KEPT = 2_000
KEEP_ALIVE_S = 15.0  # a stream says it holds this often, when nothing else happens
WOKEN_AT_ONCE = 8  # the followers woken in one turn of the event loop, of all games
# A device following on another process is here while that process says so, this often.
PRESENCE_EVERY = 20.0
PRESENCE_LASTS = 3 * PRESENCE_EVERY


def _nothing() -> None:
    """What an action that took nothing from a limit gives back."""


class Follower:
    """One screen following a game (:meth:`Games.following`): told, from the line of every
    game's followers, that the game changed (:meth:`wake`) or that nothing did a while
    (:meth:`keep_alive`). Neither may wait: a follower that has more to do than it can do
    at once hands it to a task of its own. One that raises is reported to the event loop's
    exception handler, and the line goes on."""

    __slots__ = ("loop", "stirred")

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()  # whose sweep tells it to say it holds
        self.stirred = True  # woken since the last sweep for keep-alives

    def wake(self) -> None:
        """The game changed: a move, its seating, who is here."""
        raise NotImplementedError

    def keep_alive(self) -> None:
        """Nothing woke it for half to one :data:`KEEP_ALIVE_S`: time to say it holds."""
        raise NotImplementedError


class _Listener(Follower):
    """:meth:`Games.follow`'s follower: a future its screen awaits, resolved when the game
    changes, when it is due a keep-alive (``quiet``), or when it ends."""

    __slots__ = ("ended", "future", "quiet", "woken")

    def __init__(self) -> None:
        super().__init__()
        self.future: asyncio.Future[None] | None = None  # what the screen awaits
        self.woken = False  # changed since the screen last looked
        self.ended = False
        self.quiet = False  # due a keep-alive

    def wake(self) -> None:
        self.woken = self.stirred = True
        self._resolve()

    def keep_alive(self) -> None:
        self.quiet = True
        self._resolve()

    def _resolve(self) -> None:
        if self.future is not None and not self.future.done():
            self.future.set_result(None)

    def end(self, _: object = None) -> None:
        self.ended = True
        self.wake()


class _Line:
    """What the followers are told, of every game, in one line: :data:`WOKEN_AT_ONCE` of
    them now, as many at the next turn of the event loop, and so on. A turn of the loop then
    serves every other request between a few followers' writes, however many games fan out
    at once, and however many followers a sweep finds quiet: one line for all, not one for
    each game (ten games' fan-outs at once were ten times the writes in a turn: other
    requests' p95 during the rounds of bench/streams.py was 45-56 ms, and 12-21 ms with one
    line), nor all of them at once (5 000 keep-alives in one turn held the loop 0.1-0.3 s)."""

    def __init__(self) -> None:
        self._line: deque[Callable[[], None]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None  # where the next turn is due

    def tell(self, calls: Iterable[Callable[[], None]]) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # nothing due on this loop (a loop gone left its line)
            self._line.clear()
            self._line.extend(calls)
            self._loop = loop
            self._turn()
        else:
            self._line.extend(calls)

    def _turn(self) -> None:
        for _ in range(min(WOKEN_AT_ONCE, len(self._line))):
            call = self._line.popleft()
            try:
                call()
            except Exception as error:  # one follower's fault: reported, the line goes on
                if self._loop is not None:
                    self._loop.call_exception_handler(
                        {"message": f"a follower failed: {call!r}", "exception": error}
                    )
        if self._line and self._loop is not None:
            self._loop.call_soon(self._turn)
        else:
            self._loop = None


_HERE = Presence(True)


class _Presences(Mapping[str, Presence]):
    """:meth:`Games.presence`: who followed a game, each device looked up when asked."""

    __slots__ = ("_game_id", "_games", "_now")

    def __init__(self, games: Games, game_id: str, now: float) -> None:
        self._games, self._game_id, self._now = games, game_id, now

    def __getitem__(self, device: str) -> Presence:
        games, game_id = self._games, self._game_id
        streams = games._streams.get(game_id)
        if streams is not None and streams[device] > 0:
            return _HERE
        if games._remote.get(game_id, {}).get(device, self._now) > self._now:
            return _HERE
        since = games._left.get(game_id, {}).get(device)
        if since is None:
            raise KeyError(device)
        return Presence(False, since)

    def __iter__(self) -> Iterator[str]:
        games, game_id = self._games, self._game_id
        seen = dict.fromkeys([*games._streams.get(game_id, {}), *games._remote.get(game_id, {})])
        seen.update(dict.fromkeys(games._left.get(game_id, {})))
        return (device for device in seen if device in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Games:
    """The games this process serves: the store, a cache of records, one lock per game.

    Other processes may move a game on in a shared store, or seat it anew: the store tells
    (``watch``), and an intention made on a version ahead of the cached one reads the game
    again first.
    """

    def __init__(
        self,
        store: Store,
        dice: DiceSource,
        clock: Callable[[], str],
        *,
        kept: int = GAMES_KEPT,
        monotonic: Callable[[], float] = time.monotonic,
        undos: UndoLimit | None = None,
    ) -> None:
        self.store = store
        self.dice = dice
        self.clock = clock
        self.kept = kept
        self.monotonic = monotonic
        self.undos = undos  # None: undo as often as the rules allow
        # The games played lately, the least recent first; the others are read again.
        self._records: OrderedDict[str, Record] = OrderedDict()
        self._seatings: dict[str, Seating | None] = {}  # of the games kept
        # A lock per game while someone acts on it: [lock, how many hold or wait for it].
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self._listeners: dict[str, set[Follower]] = {}
        self._line = _Line()
        # The sweeps for keep-alives, one a loop while anyone follows a game on it.
        self._sweeps: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
        # Per game followed: the count of changes to every game here at its last change.
        self._stamps: dict[str, int] = {}
        self._changes = 0
        self._latest: dict[str, int] = {}  # the latest version heard of, per game kept
        # Who follows each game: the streams of this process per device, the devices other
        # processes said are here (until when), when each left.
        self._streams: dict[str, Counter[str]] = {}
        self._remote: dict[str, dict[str, float]] = {}
        self._left: dict[str, dict[str, str]] = {}
        # Works out each finished game's luck account after its end is stored (None: never).
        self.accounts: Accounts | None = None

    @contextlib.asynccontextmanager
    async def serial(self, game_id: str) -> AsyncIterator[None]:
        """Hold the game's lock: one action at a time on a game, none waiting on another
        game's. The lock lives while someone holds it or waits for it, no longer."""
        lock, users = self._locks.setdefault(game_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[game_id]

    def _keep(self, game_id: str, record: Record) -> None:
        self._records[game_id] = record
        self._records.move_to_end(game_id)
        while len(self._records) > self.kept:
            oldest, _ = self._records.popitem(last=False)
            self._latest.pop(oldest, None)
            self._seatings.pop(oldest, None)
            self._left.pop(oldest, None)
            self._remote.pop(oldest, None)

    async def record(self, game_id: str) -> Record:
        """The game as it is now: as cached, caught up with what other processes appended
        since (their actions alone read and applied), or else read and replayed."""
        record = self._records.get(game_id)
        if record is not None and record.version < self._latest.get(game_id, -1):
            record = await self._catch_up(game_id, record)
        if record is not None:
            self._records.move_to_end(game_id)
            return record
        record = await run_in_threadpool(self.store.load, game_id)
        cached = self._records.get(game_id)
        if cached is not None and cached.version >= record.version:
            return cached  # acted on while it was read
        if record.version >= self._latest.get(game_id, 0):
            self._keep(game_id, record)  # else it was overtaken: not kept
        return record

    def at_hand(self, game_id: str) -> tuple[Record, Seating] | None:
        """The game as it is now and its seating, if both are in memory: without waiting
        (None: :meth:`record` and :meth:`seating` read what is not)."""
        record = self._records.get(game_id)
        seating = self._seatings.get(game_id)
        if record is None or seating is None or record.version < self._latest.get(game_id, -1):
            return None
        self._records.move_to_end(game_id)
        return record, seating

    async def _catch_up(self, game_id: str, record: Record) -> Record:
        """``record`` with what other processes appended since: kept, unless this process
        went further meanwhile."""
        caught = await run_in_threadpool(self.store.since, record, game_id)
        cached = self._records.get(game_id)
        if cached is not None and cached.version >= caught.version:
            return cached
        if game_id in self._records:
            self._records[game_id] = caught
        return caught

    async def peek(self, game_id: str) -> Record:
        """The game as cached, else as stored, without keeping it: for reading many finished
        games at once (the statistics) without pushing the games in play out of memory."""
        record = self._records.get(game_id)
        if record is not None:
            return record
        return await run_in_threadpool(self.store.load, game_id)

    async def seating(self, game_id: str) -> Seating | None:
        """Who holds the game's seats (None: a game stored before seats had holders)."""
        if game_id in self._seatings:
            return self._seatings[game_id]
        seating = await run_in_threadpool(self.store.seating, game_id)
        if game_id in self._records:
            self._seatings[game_id] = seating
        return seating

    async def create(self, record: Record, host: str) -> str:
        """A new game, every person's seat held by ``host``'s device."""
        game_id = secrets.token_urlsafe(9)
        seating = Seating.hosted(host, record.seats)
        now = self.clock()
        await run_in_threadpool(
            lambda: self.store.create(game_id, record, now, summary(record), seating=seating)
        )
        self._keep(game_id, record)
        self._seatings[game_id] = seating
        return game_id

    async def reach(self, game_id: str, device: str | None, *, here: bool) -> Seating:
        """The seating of a game ``device`` has a place at (else :class:`Forbidden`).

        A game stored before seats had holders goes to the first device that opens it from
        this machine (``here``): it becomes its host, holding every person's seat.
        """
        await self.record(game_id)  # UnknownGame first
        seating = await self.seating(game_id)
        if seating is None:
            if device is None or not here:
                raise Forbidden("not-at-table")
            record = await self.record(game_id)
            seating = await self.reseat(
                game_id, lambda _: Seating.hosted(device, record.seats), unclaimed=True
            )
        if seating.role(device) is None:
            raise Forbidden("not-at-table")
        return seating

    async def reseat(
        self,
        game_id: str,
        change: Callable[[Seating], Seating],
        *,
        unclaimed: bool = False,
    ) -> Seating:
        """The game's seating changed by ``change`` (which refuses with :class:`Forbidden`),
        kept if nobody changed it meanwhile, then announced; ``unclaimed``: a game from
        before seats, given its first."""
        async with self.serial(game_id):
            seating = await run_in_threadpool(self.store.seating, game_id)
            if seating is None and not unclaimed:
                raise Forbidden("not-at-table")
            base = seating or Seating("", (), (), rev=0)
            after = change(base)
            if after == base:
                return base
            after = replace(after, rev=base.rev + 1)
            await run_in_threadpool(self.store.reseat, game_id, after)
            self._seatings[game_id] = after
        self._wake(game_id)
        return after

    async def act(
        self, game_id: str, intent: Intent, device: str | None, address: str = ""
    ) -> Record:
        """Apply ``device``'s intention (sent from ``address``): refused (IllegalAction,
        Forbidden, Conflict, TooManyUndos) or stored, then announced.

        A store that cannot take it (StoreUnavailable) leaves the cached game as it was.
        """
        await self.record(game_id)  # no game, no lock kept for its id (UnknownGame)
        async with self.serial(game_id):
            after = await self._act(game_id, intent, device, address)
            if after is None:
                # Another process seated the game anew meanwhile (its version the same):
                # judged again on the seating as it is now, which may refuse the device.
                after = await self._act(game_id, intent, device, address)
            if after is None:
                raise Conflict((await self.record(game_id)).version)
        self.changed(game_id, after.version)
        return after

    async def _act(
        self, game_id: str, intent: Intent, device: str | None, address: str
    ) -> Record | None:
        """:meth:`act`'s one try, under the game's lock: the game after the intention, stored;
        None if the store found the seating changed since it was read (nothing stored)."""
        record = await self.record(game_id)
        if intent.version > record.version:
            # Another process moved the game on since this one read it (unheard yet).
            record = await self._catch_up(game_id, record)
        if intent.version != record.version:
            raise Conflict(record.version)
        seating = await self.seating(game_id)
        if seating is None:
            raise Forbidden("not-at-table")
        state = record.state
        seat = state.seat
        if intent.type == "undo":
            with contextlib.suppress(IllegalAction):  # nothing to undo: the rules say so
                seat = record.undo().seat
        seating.check(device, intent.type, seat, over=state.is_over)
        # The computer steps its own seat, or an absent person's it plays meanwhile.
        standin = seating.plays(state.seat) if intent.type == "computer" else None
        if intent.type == "computer":
            # The computer's thinking in a worker thread: a slow step (an expert's tables
            # built on first use) holds up this game only.
            actions = await run_in_threadpool(actions_for, record, intent, self.dice, standin)
        else:
            # A person's intention is the rules and the dice alone: on the event loop, as it
            # costs less than a worker thread's handoff (the dice answer at once).
            actions = actions_for(record, intent, self.dice, standin)
        after = record
        for action in actions:
            after = after.append(action)
        # An undo the rules and the seating allow is counted, and refused past the limit;
        # given back if it is not kept after all.
        give_back = (
            self.undos.take(game_id, device, address)
            if self.undos is not None and intent.type == "undo"
            else _nothing
        )
        appended: dict[str, Any] = {
            "finished": after.state.is_over,
            "summary": summary(after),
            "seating_rev": seating.rev,
            # Worked out once, when the game ends: the statistics read them.
            "figures": figures(after),
        }
        try:
            if isinstance(self.store, AsyncAppender):
                # A server a round trip away: awaited on the loop, not from a worker thread.
                await self.store.append_async(
                    game_id, record.version, actions, self.clock(), **appended
                )
            else:
                commit = functools.partial(
                    self.store.append, game_id, record.version, actions, self.clock(), **appended
                )
                try:
                    # On the event loop if the store can take it at once (a local file
                    # free): a worker thread's handoff, and winning the interpreter's lock
                    # back from the loop after each call into SQLite, cost more than the
                    # commit itself.
                    commit(wait=False)
                except Busy:
                    await run_in_threadpool(commit)  # another writer first: waited for here
        except Conflict:
            give_back()
            self._forget(game_id)  # another process moved it on, or seated it anew
            if (await self.record(game_id)).version != record.version:
                raise
            return None
        except BaseException:
            give_back()
            raise
        self._keep(game_id, after)
        if after.state.is_over and self.accounts is not None:
            self.accounts.schedule(game_id, after)  # its figures kept again with the account
        return after

    async def settled(self) -> None:
        """Wait until the luck account of every game ended here so far is kept."""
        if self.accounts is not None:
            await self.accounts.settle()

    def standin_level(self, record: Record) -> str:
        """The level the computer plays an absent person's seat at: the game's computer's,
        else the game's default (``seed`` in 10 000)."""
        for seat in record.seats:
            if seat.computer and seat.level:
                return seat.level
        return ai.DEFAULT_LEVEL[record.kind]

    def _forget(self, game_id: str) -> None:
        self._records.pop(game_id, None)
        self._seatings.pop(game_id, None)

    def changed(self, game_id: str | None, version: int, note: str = "") -> None:
        """The game is at ``version`` now, moved on here or by another process (``None``:
        any game may have moved; ``note``: the actions appended, as the store told them), or
        its seating or a device's presence changed (``version`` -1, and the ``note``): what
        is cached of it is caught up or goes, and its followers wake.

        Every wake-up of a move comes through here, once per version: this process's own
        appends, and the store's word of every process's appends (this one's included).
        """
        if game_id is None:
            self._records.clear()
            self._seatings.clear()
            for game in list(self._listeners):
                self._wake(game)
            return
        if version < 0:
            if note == "seating":
                self._seatings.pop(game_id, None)
            elif note.startswith("presence "):
                self._presence_changed(game_id, self._heard_presence(game_id, note))
                return
            self._wake(game_id)
            return
        if version <= self._latest.get(game_id, -1):
            return  # heard already
        self._latest[game_id] = version
        # What is cached of a game another process moved on: caught up with the actions
        # told, if they follow it; else when next read, from the store.
        cached = self._records.get(game_id)
        if note and cached is not None:
            with contextlib.suppress(ValueError, TypeError, KeyError, IllegalAction):
                told = json.loads(note)
                if cached.version + len(told) == version:
                    self._records[game_id] = cached.extended(told)
        self._wake(game_id)

    def _wake(self, game_id: str) -> None:
        """The game's followers look again: a move, its seating, who is here."""
        listeners = self._listeners.get(game_id)
        if not listeners:
            return
        self._stamp(game_id)
        self._line.tell([listener.wake for listener in listeners])

    def _stamp(self, game_id: str) -> None:
        self._changes += 1
        self._stamps[game_id] = self._changes

    def stamp(self, game_id: str) -> int:
        """Which change the game is at, while followed here (0: it is not): what it showed
        at one stamp holds until the next. A stamp is never given twice."""
        return self._stamps.get(game_id, 0)

    async def watch(self) -> Callable[[], None]:
        """Hear the other processes sharing the store; say which devices follow games here,
        while serving. Returns how to stop."""
        loop = asyncio.get_running_loop()

        def heard(game_id: str | None, version: int, note: str) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: stopping anyway
                loop.call_soon_threadsafe(self.changed, game_id, version, note)

        stop_watching = await run_in_threadpool(self.store.watch, heard)
        beating = asyncio.create_task(self._heartbeat())

        def stop() -> None:
            beating.cancel()
            stop_watching()

        return stop

    # Presence: a device is here while one of its event streams is open, on any process.

    def presence(self, game_id: str) -> Mapping[str, Presence]:
        """Each device that followed the game since this process started: here, or since
        when it is away. Asked device by device (a view asks for the seats' holders alone,
        of a game that may have thousands of watchers)."""
        return _Presences(self, game_id, self.monotonic())

    async def _arrive(self, game_id: str, device: str | None) -> None:
        if device is None:
            return
        streams = self._streams.setdefault(game_id, Counter())
        streams[device] += 1
        if streams[device] == 1:
            self._presence_changed(game_id, device)
            await self._announce(game_id, f"presence {device} 1")

    async def _leave(self, game_id: str, device: str | None) -> None:
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
        self._presence_changed(game_id, device)
        await self._announce(game_id, f"presence {device} 0")

    def _presence_changed(self, game_id: str, device: str) -> None:
        """The device came or went: its game's followers look again if the game shows it,
        that is if it holds a seat (a watcher's coming is nobody's news: thousands of them
        coming would wake every other thousands of times)."""
        seating = self._seatings.get(game_id)
        if seating is None or device in seating.holders:
            self._wake(game_id)

    def _heard_presence(self, game_id: str, note: str) -> str:
        """Another process's word of a device come or gone; the device."""
        _, device, here = [*note.split(" "), "", ""][:3]
        remote = self._remote.setdefault(game_id, {})
        if here == "1":
            remote[device] = self.monotonic() + PRESENCE_LASTS
            self._left.get(game_id, {}).pop(device, None)
        else:
            remote.pop(device, None)
            if not self._streams.get(game_id, Counter()).get(device):
                self._left.setdefault(game_id, {})[device] = self.clock()
        return device

    async def _announce(self, game_id: str, note: str) -> None:
        await self._announce_all([(game_id, note)])

    async def _announce_all(self, notes: list[tuple[str, str]]) -> None:
        """Tell the other processes each ``(game_id, note)``, in one worker thread's turn."""

        def announce() -> None:
            for game_id, note in notes:
                self.store.announce(game_id, note)

        with contextlib.suppress(Exception):  # presence is a courtesy: never fail a stream
            await run_in_threadpool(announce)

    async def _heartbeat(self) -> None:
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

    def _sweep_soon(self) -> None:
        """Keep the sweep for keep-alives going while anyone follows a game here: every
        half :data:`KEEP_ALIVE_S`, each follower nothing woke since the last sweep is told to
        say it holds (so after 7.5 to 15 s of quiet), in the line of wakes. One timer for
        every follower, not one each: 5 000 streams waiting on a timer each were 5 000
        timers, their handles and contexts made anew at every move, which the collector
        then walked (20-40 ms a round, docs/performance.md)."""
        loop = asyncio.get_running_loop()
        if loop not in self._sweeps:
            self._sweeps[loop] = loop.create_task(self._sweep(loop))

    async def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        """:meth:`_sweep_soon`'s sweeps on ``loop``, for its followers, while it has any."""
        try:
            while True:
                await asyncio.sleep(KEEP_ALIVE_S / 2)
                mine = [
                    follower
                    for followers in list(self._listeners.values())
                    for follower in followers
                    if follower.loop is loop
                ]
                if not mine:
                    return
                quiet = [follower.keep_alive for follower in mine if not follower.stirred]
                for follower in mine:
                    follower.stirred = False
                self._line.tell(quiet)
        finally:
            self._sweeps.pop(loop, None)

    @contextlib.asynccontextmanager
    async def following(
        self, game_id: str, follower: Follower, device: str | None = None
    ) -> AsyncIterator[None]:
        """While inside, ``follower`` is told of the game's changes and, when nothing
        changed a while, to say it holds; ``device`` is here."""
        if game_id not in self._listeners:
            # Followed from now on: stamped, so that its followers to come share what it shows.
            self._stamp(game_id)
        self._listeners.setdefault(game_id, set()).add(follower)
        try:
            await self._arrive(game_id, device)
            self._sweep_soon()
            yield
        finally:
            followers = self._listeners[game_id]
            followers.discard(follower)
            if not followers:
                del self._listeners[game_id]
                self._stamps.pop(game_id, None)
            await self._leave(game_id, device)

    async def follow(
        self,
        game_id: str,
        device: str | None = None,
        *,
        gone: asyncio.Future[Any] | None = None,
    ) -> AsyncIterator[bool]:
        """For a screen following live, one change at a time: true each time the game
        changed (look again), false after half to one :data:`KEEP_ALIVE_S` without a change
        (a keep-alive); it ends when ``gone`` is done (the screen went). While it follows,
        ``device`` is here. (A live stream is told of each change instead, as it happens:
        :meth:`following`.)"""
        listener = _Listener()
        if gone is not None:
            gone.add_done_callback(listener.end)
        async with self.following(game_id, listener, device):
            while not listener.ended:
                listener.future = asyncio.get_running_loop().create_future()
                if listener.woken:
                    listener.woken = False
                    yield True
                    continue
                if listener.quiet:
                    listener.quiet = False
                    yield False
                    continue
                await listener.future
