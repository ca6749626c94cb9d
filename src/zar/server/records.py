"""The games this process keeps in memory: each one's record and seating, read from the
store once and caught up with what other processes appended since.

Other processes may move a game on in a shared store, or seat it anew: the store tells
(:meth:`Records.heard`), and a game read on a version behind the latest heard of is caught
up first (their actions alone read and applied).
"""

from __future__ import annotations

import contextlib
import json
from collections import OrderedDict
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool

from zar.record import Record
from zar.seating import Seating
from zar.store import Store
from zar.table import IllegalAction

__all__ = ["GAMES_KEPT", "Records"]

# The games a process keeps replayed in memory (about 30 KiB each): those played lately.
GAMES_KEPT = 2_000


class Records:
    """The games played lately, the least recent first, up to ``kept`` of them: a game let
    go is told to ``evicted``, and read again when next asked for."""

    def __init__(
        self,
        store: Store,
        *,
        kept: int = GAMES_KEPT,
        evicted: Callable[[str], None] = lambda game_id: None,
    ) -> None:
        self.store = store
        self.kept = kept
        self.evicted = evicted
        self._records: OrderedDict[str, Record] = OrderedDict()
        self._seatings: dict[str, Seating | None] = {}  # of the games kept
        self._latest: dict[str, int] = {}  # the latest version heard of, per game kept

    def keep(self, game_id: str, record: Record) -> None:
        """``record`` is the game now (the latest played)."""
        self._records[game_id] = record
        self._records.move_to_end(game_id)
        while len(self._records) > self.kept:
            oldest, _ = self._records.popitem(last=False)
            self._latest.pop(oldest, None)
            self._seatings.pop(oldest, None)
            self.evicted(oldest)

    def seated(self, game_id: str, seating: Seating) -> None:
        """``seating`` is the game's seating now."""
        self._seatings[game_id] = seating

    async def record(self, game_id: str) -> Record:
        """The game as it is now: as kept, caught up with what other processes appended
        since, or else read and replayed (UnknownGame: there is none)."""
        record = self._records.get(game_id)
        if record is not None and record.version < self._latest.get(game_id, -1):
            record = await self.catch_up(game_id, record)
        if record is not None:
            self._records.move_to_end(game_id)
            return record
        record = await run_in_threadpool(self.store.load, game_id)
        cached = self._records.get(game_id)
        if cached is not None and cached.version >= record.version:
            return cached  # acted on while it was read
        if record.version >= self._latest.get(game_id, 0):
            self.keep(game_id, record)  # else it was overtaken: not kept
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

    async def catch_up(self, game_id: str, record: Record) -> Record:
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
        """The game as kept, else as stored, without keeping it: for reading many finished
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

    def holds_seat(self, game_id: str, device: str) -> bool:
        """Whether the game shows ``device`` as a seat's holder (or its seating is not in
        memory: perhaps)."""
        seating = self._seatings.get(game_id)
        return seating is None or device in seating.holders

    def forget(self, game_id: str) -> None:
        """Read the game and its seating again when next asked for."""
        self._records.pop(game_id, None)
        self._seatings.pop(game_id, None)

    def reseated(self, game_id: str) -> None:
        """The game was seated anew by another process: its seating is read again."""
        self._seatings.pop(game_id, None)

    def clear(self) -> None:
        """Any game may have moved: each is read again."""
        self._records.clear()
        self._seatings.clear()

    def heard(self, game_id: str, version: int, note: str = "") -> bool:
        """The game is at ``version`` now (``note``: the actions appended, as the store told
        them): what is kept of it is caught up, if they follow it, else when next read.
        False if it was heard already."""
        if version <= self._latest.get(game_id, -1):
            return False
        self._latest[game_id] = version
        cached = self._records.get(game_id)
        if note and cached is not None:
            with contextlib.suppress(ValueError, TypeError, KeyError, IllegalAction):
                told = json.loads(note)
                if cached.version + len(told) == version:
                    self._records[game_id] = cached.extended(told)
        return True
