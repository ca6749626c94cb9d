"""The heavy reads: a game's review, export, log, progress and hint, each worked out once per
version of the game and kept; and how many a client may ask for.

A review or an export replays the whole game through the strategies: tens of milliseconds
for a Yams game, a second for one of a few thousand entries. Worked out on every ask, a
client asking in a loop takes the processor from everyone else. So each reply is kept,
as the bytes sent, by (game, version, what, language) in a bounded LRU (:class:`Reads`):
the same ask again is a lookup, concurrent asks for the same thing share one working
out, and a working out runs in a worker thread, :data:`WORKING_AT_ONCE` at a time, never
on the event loop. What is kept says nothing of who asked: a route asks the rights
(:mod:`zar.server.rights`) before it reads what is kept.

Each heavy read, kept or not, is counted per device and per client address
(:class:`ReadBudget`, token buckets at :data:`READ_RATES`): a person reads a review or
an export a few times a game, a script in a loop is slowed to a person's pace with
429 ``too-many-reads`` and ``Retry-After``.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool

from zar.refusal import TooMany
from zar.server.limits import Buckets, Rate

__all__ = [
    "ENTRIES_A_TOKEN",
    "KEPT_BYTES",
    "READ_RATES",
    "WORKING_AT_ONCE",
    "Kept",
    "ReadBudget",
    "Reads",
    "TooManyReads",
]

# A person opens a finished game's review or history a few times, saves its export once or
# twice, and the coach asks a hint at each of their decisions when open: a device may make
# 60 heavy reads at once, then one a second; an address (a household's or a classroom's
# devices behind one router; credentials are free) four times as many.
READ_RATES: Mapping[str, Rate] = {
    "device": Rate(60, 1.0),
    "address": Rate(240, 4.0),
}
# A read of a log's thousand entries is worth a read of a whole ordinary game (a Yams game
# for six is some 300 entries): a person's reads cost a token each.
ENTRIES_A_TOKEN = 1000
KEPT_BYTES = 64 * 1024 * 1024  # the replies kept, in all: a long game's export is about 1 MB
WORKING_AT_ONCE = 2  # workings out at once: each holds the interpreter while it runs


@dataclass(frozen=True)
class Kept:
    """A reply as it is sent: its body and its media type."""

    body: bytes
    media: str


Key = tuple[str, int, str, str]  # the game, its version, what is read, the language


class TooManyReads(TooMany):
    """The device or the client address has made as many heavy reads as it may for now:
    it may again in ``seconds``."""

    def __init__(self, seconds: int) -> None:
        super().__init__("too-many-reads", seconds)


class ReadBudget(Buckets):
    """The heavy reads each device and client address may make: token buckets at the
    :data:`READ_RATES` (:class:`TooManyReads` past one).

    >>> now = [0.0]
    >>> budget = ReadBudget(lambda: now[0], {"device": Rate(2, 0.5)})
    >>> budget.read("d", "a"), budget.read("d", "a"), budget.read(None, "a")
    (None, None, None)
    >>> try:
    ...     budget.read("d", "a")
    ... except TooManyReads as refused:
    ...     refused.reason, refused.seconds
    ('too-many-reads', 2)
    >>> now[0] = 2.0
    >>> budget.read("d", "a")
    """

    RATES = READ_RATES
    Refused = TooManyReads

    def read(self, device: str | None, address: str, entries: int = 0) -> None:
        """Count a heavy read of ``device`` (None: no credential) from ``address``, of a game
        whose log holds ``entries``: a token, and one more for each :data:`ENTRIES_A_TOKEN`
        (what a read costs grows with the log it reads, so a loop over a long log is slowed
        as much as the work it asks for); raises :class:`TooManyReads`, counting nothing,
        if one of their buckets holds fewer. A read worked out is never given back: what it
        cost was spent."""
        self.take("", device, address, 1 + entries // ENTRIES_A_TOKEN)


class Reads:
    """The heavy reads' replies, kept by :data:`Key` up to ``max_bytes`` in all, the least
    recently read let go first.

    >>> async def twice() -> tuple[bytes, bytes, int]:
    ...     reads, calls = Reads(), []
    ...     def work() -> Kept:
    ...         calls.append(1)
    ...         return Kept(b"{}", "application/json")
    ...     first = await reads.kept(("g", 3, "review", "en"), work)
    ...     again = await reads.kept(("g", 3, "review", "en"), work)
    ...     return first.body, again.body, len(calls)
    >>> asyncio.run(twice())
    (b'{}', b'{}', 1)
    """

    def __init__(self, max_bytes: int = KEPT_BYTES, at_once: int = WORKING_AT_ONCE) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Key, Kept] = OrderedDict()
        self._size = 0
        self._working: dict[Key, asyncio.Future[Kept]] = {}
        self._at_once = at_once
        self._turns: asyncio.Semaphore | None = None  # made on the serving loop

    def __len__(self) -> int:
        return len(self._kept)

    async def kept(self, key: Key, work: Callable[[], Kept]) -> Kept:
        """The reply kept for ``key``; else ``work()``'s, worked out in a worker thread
        (once for all who ask meanwhile) and kept. A refusal ``work`` raises is raised to
        each asker and kept by nobody."""
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            return found
        working = self._working.get(key)
        if working is None:
            working = asyncio.ensure_future(self._work_out(key, work))
            self._working[key] = working
            working.add_done_callback(lambda done: self._done(key, done))
        # An asker gone does not stop the working out: the others, and the next, want it.
        return await asyncio.shield(working)

    def _done(self, key: Key, done: asyncio.Future[Kept]) -> None:
        """The working out of ``key`` over: the next ask reads what is kept, or works it
        out anew after a refusal (taken here, should every asker have gone)."""
        self._working.pop(key, None)
        if not done.cancelled():
            done.exception()

    async def _work_out(self, key: Key, work: Callable[[], Kept]) -> Kept:
        if self._turns is None:
            self._turns = asyncio.Semaphore(self._at_once)
        async with self._turns:
            done = await run_in_threadpool(work)
        self._keep(key, done)
        return done

    def _keep(self, key: Key, done: Kept) -> None:
        size = len(done.body)
        if size > self.max_bytes:
            return
        old = self._kept.pop(key, None)
        self._size -= 0 if old is None else len(old.body)
        self._kept[key] = done
        self._size += size
        while self._size > self.max_bytes:
            _, gone = self._kept.popitem(last=False)
            self._size -= len(gone.body)
