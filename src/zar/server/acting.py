"""Acting on a game: one action at a time on each game, judged once, committed, then told.

The server is the authority: it holds every game, throws the dice and applies each
intention through the engine, only for a device the rights let act
(:func:`zar.server.rights.to_act`, judged on a revision of the seating; the store keeps the
action only while the seating is still at it). Every action is committed before the reply
(on the event loop when the store takes it at once, else in a worker thread); a stale or
repeated action (its ``version`` is not the game's) is refused with
:class:`~zar.store.Conflict`. An action the seating allows may be refused still, to a
client playing faster than a table does (:class:`~zar.server.limits.TooManyActions`) or
undoing in a loop (:class:`~zar.server.limits.TooManyUndos`); only one stored is counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

from starlette.concurrency import run_in_threadpool

from zar import ai
from zar.dice import DiceSource
from zar.history import figures
from zar.record import Record
from zar.refusal import Forbidden
from zar.seating import Seating
from zar.server.accounts import Accounts
from zar.server.intents import Intent, actions_for
from zar.server.limits import ActionLimit, UndoLimit
from zar.server.records import Records
from zar.server.rights import require, to_act, to_take_part
from zar.server.views import summary
from zar.store import AsyncAppender, Busy, Conflict, Store

__all__ = ["Acting"]


def _nothing() -> None:
    """What an action that took nothing from a limit gives back."""


class Acting:
    """New games, their seatings changed, their actions: each under its game's lock, stored,
    then told to ``moved(game_id, version)`` (an action) or ``reseated(game_id)``."""

    def __init__(
        self,
        store: Store,
        records: Records,
        dice: DiceSource,
        clock: Callable[[], str],
        *,
        undos: UndoLimit | None,
        actions: ActionLimit | None = None,
        moved: Callable[[str, int], None],
        reseated: Callable[[str], None],
    ) -> None:
        self.store = store
        self.records = records
        self.dice = dice
        self.clock = clock
        self.undos = undos  # None: undo as often as the rules allow
        self.actions = actions  # None: play as fast as asked
        self.moved = moved
        self.reseated = reseated
        # A lock per game while someone acts on it: [lock, how many hold or wait for it].
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        # Works out each finished game's luck account after its end is stored (None: never).
        self.accounts: Accounts | None = None

    @property
    def locked(self) -> frozenset[str]:
        """The games whose lock someone holds or waits for now."""
        return frozenset(self._locks)

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

    async def create(self, record: Record, host: str) -> str:
        """A new game, every person's seat held by ``host``'s device."""
        game_id = secrets.token_urlsafe(9)
        seating = Seating.hosted(host, record.seats)
        now = self.clock()
        await run_in_threadpool(
            lambda: self.store.create(game_id, record, now, summary(record), seating=seating)
        )
        self.records.keep(game_id, record)
        self.records.seated(game_id, seating)
        return game_id

    async def reseat(
        self,
        game_id: str,
        change: Callable[[Seating], Seating],
        *,
        unclaimed: bool = False,
        keep: Callable[[str, Seating], None] | None = None,
    ) -> Seating:
        """The game's seating changed by ``change`` (which asks the rights, and refuses with
        their answer), kept if nobody changed it meanwhile (by ``keep``, else the store's
        :meth:`~zar.store.Store.reseat`), then told; ``unclaimed``: a game from before
        seats, given its first."""
        async with self.serial(game_id):
            # The seating kept in memory: its watchers, thousands maybe, are not read again.
            # One another process moved on meanwhile is refused by the store, then read
            # afresh and the change judged again on it.
            try:
                after, changed = await self._reseat(
                    game_id, await self.records.seating(game_id), change, unclaimed, keep
                )
            except Conflict:
                self.records.reseated(game_id)
                stored = await run_in_threadpool(self.store.seating, game_id)
                after, changed = await self._reseat(game_id, stored, change, unclaimed, keep)
        if changed:
            self.reseated(game_id)
        return after

    async def _reseat(
        self,
        game_id: str,
        seating: Seating | None,
        change: Callable[[Seating], Seating],
        unclaimed: bool,
        keep: Callable[[str, Seating], None] | None,
    ) -> tuple[Seating, bool]:
        """``seating`` changed by ``change`` and kept (on its revision, by ``keep`` if given),
        and whether it changed; :class:`Conflict` if the stored one is not ``seating`` any
        more."""
        if seating is None and not unclaimed:
            raise Forbidden("not-at-table")
        base = seating or Seating("", (), (), rev=0)
        after = change(base)
        if after == base:
            return base, False
        after = replace(after, rev=base.rev + 1)
        if keep is not None:
            await run_in_threadpool(keep, game_id, after)
        else:
            await run_in_threadpool(lambda: self.store.reseat(game_id, after, before=seating))
        self.records.seated(game_id, after)
        return after, True

    async def act(
        self, game_id: str, intent: Intent, device: str | None, address: str = ""
    ) -> Record:
        """Apply ``device``'s intention (sent from ``address``): refused (IllegalAction,
        Forbidden, Conflict, TooManyActions, TooManyUndos) or stored, then told.

        A store that cannot take it (StoreUnavailable) leaves the kept game as it was.
        """
        await self.records.record(game_id)  # no game, no lock kept for its id (UnknownGame)
        async with self.serial(game_id):
            after = await self._act(game_id, intent, device, address)
            if after is None:
                # Another process seated the game anew meanwhile (its version the same):
                # judged again on the seating as it is now, which may refuse the device.
                after = await self._act(game_id, intent, device, address)
            if after is None:
                raise Conflict((await self.records.record(game_id)).version)
        self.moved(game_id, after.version)
        return after

    async def _act(
        self, game_id: str, intent: Intent, device: str | None, address: str
    ) -> Record | None:
        """:meth:`act`'s one try, under the game's lock: the game after the intention, stored;
        None if the store found the seating changed since it was read (nothing stored)."""
        record = await self.records.record(game_id)
        seating = await self.records.seating(game_id)
        # A stranger's or a watcher's intention is refused before its version is compared:
        # a 409 would tell them that the game moved on, and its version.
        require(to_take_part(seating, device, intent.type))
        if intent.version > record.version:
            # Another process moved the game on since this one read it (unheard yet).
            record = await self.records.catch_up(game_id, record)
        if intent.version != record.version:
            raise Conflict(record.version)
        require(to_act(seating, device, record, intent.type))  # the one judgement of a move
        assert seating is not None
        # Counted before the computer thinks, refused past the limits; given back if the
        # rules refuse it or it is not stored after all.
        give_back = self._count(game_id, intent, device, address)
        try:
            actions, after = await self._judged(record, intent, seating)
            await self._commit(game_id, record, after, actions, seating)
        except Conflict:
            give_back()
            self.records.forget(game_id)  # another process moved it on, or seated it anew
            if (await self.records.record(game_id)).version != record.version:
                raise
            return None
        except BaseException:
            give_back()
            raise
        self.records.keep(game_id, after)
        if after.state.is_over and self.accounts is not None:
            self.accounts.schedule(game_id, after)  # its figures kept again with the account
        return after

    def _count(
        self, game_id: str, intent: Intent, device: str | None, address: str
    ) -> Callable[[], None]:
        """Count the intention in the limits (an undo in the undos' too); raises
        TooManyActions or TooManyUndos, counting nothing, past one. Returns how to give it
        back."""
        undo = (
            self.undos.take(game_id, device, address)
            if self.undos is not None and intent.type == "undo"
            else _nothing
        )
        try:
            action = (
                self.actions.take(game_id, device, address)
                if self.actions is not None
                else _nothing
            )
        except BaseException:
            undo()
            raise

        def give_back() -> None:
            undo()
            action()

        return give_back

    async def _judged(
        self, record: Record, intent: Intent, seating: Seating
    ) -> tuple[list[Any], Record]:
        """The actions ``intent`` stands for and the game after them; IllegalAction."""
        # The computer steps its own seat, or an absent person's it plays meanwhile.
        standin = seating.plays(record.state.seat) if intent.type == "computer" else None
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
        return actions, after

    async def _commit(
        self, game_id: str, record: Record, after: Record, actions: list[Any], seating: Seating
    ) -> None:
        """Store ``actions``, which take the game from ``record`` to ``after``, while its
        seating is still ``seating`` (else Conflict)."""
        appended: dict[str, Any] = {
            "finished": after.state.is_over,
            "summary": summary(after),
            "seating_rev": seating.rev,
            # Worked out once, when the game ends: the statistics read them.
            "figures": figures(after),
        }
        if isinstance(self.store, AsyncAppender):
            # A server a round trip away: awaited on the loop, not from a worker thread.
            await self.store.append_async(
                game_id, record.version, actions, self.clock(), **appended
            )
            return
        commit = functools.partial(
            self.store.append, game_id, record.version, actions, self.clock(), **appended
        )
        try:
            # On the event loop if the store can take it at once (a local file free): a
            # worker thread's handoff, and winning the interpreter's lock back from the loop
            # after each call into SQLite, cost more than the commit itself.
            commit(wait=False)
        except Busy:
            await run_in_threadpool(commit)  # another writer first: waited for here

    async def settled(self) -> None:
        """Wait until the luck account of every game ended here so far is kept."""
        if self.accounts is not None:
            await self.accounts.settle()

    @staticmethod
    def standin_level(record: Record) -> str:
        """The level the computer plays an absent person's seat at: the game's first
        computer seat's, else the game's default (``seed`` in 10 000)."""
        for seat in record.seats:
            if seat.computer and seat.level:
                return seat.level
        return ai.DEFAULT_LEVEL[record.kind]
