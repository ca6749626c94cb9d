"""Who follows each game live, and how they are told: the fan-out of a change to a game's
followers in one line for every game, the stamps that say which change a game is at, and
the sweep that tells the quiet ones to say they hold.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable

__all__ = ["KEEP_ALIVE_S", "WOKEN_AT_ONCE", "Follower", "Followers"]

KEEP_ALIVE_S = 15.0  # a stream says it holds this often, when nothing else happens
WOKEN_AT_ONCE = 8  # the followers woken in one turn of the event loop, of all games


class Follower:
    """One screen following a game (:meth:`Followers.join`): told, from the line of
    every game's followers, that the game changed (:meth:`wake`) or that nothing did a while
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


class Followers:
    """The followers of every game this process serves, each told of its game's changes."""

    def __init__(self) -> None:
        self._followers: dict[str, set[Follower]] = {}
        self._line = _Line()
        # The sweeps for keep-alives, one a loop while anyone follows a game on it.
        self._sweeps: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
        # Per game followed: the count of changes to every game here at its last change.
        self._stamps: dict[str, int] = {}
        self._changes = 0

    @property
    def sweeps(self) -> int:
        """How many sweeps for keep-alives run now: one an event loop whose followers
        follow a game here."""
        return len(self._sweeps)

    def games(self) -> list[str]:
        """The games followed here."""
        return list(self._followers)

    def wake(self, game_id: str) -> None:
        """The game's followers look again: a move, its seating, who is here."""
        followers = self._followers.get(game_id)
        if not followers:
            return
        self._stamp(game_id)
        self._line.tell([follower.wake for follower in followers])

    def _stamp(self, game_id: str) -> None:
        self._changes += 1
        self._stamps[game_id] = self._changes

    def stamp(self, game_id: str) -> int:
        """Which change the game is at, while followed here (0: it is not): what it showed
        at one stamp holds until the next. A stamp is never given twice."""
        return self._stamps.get(game_id, 0)

    def join(self, game_id: str, follower: Follower) -> None:
        """From now on ``follower`` is told of the game's changes and, when nothing changed a
        while, to say it holds (until :meth:`leave`). Two calls, not a context manager: a
        stream lives hours, and a generator held for each of thousands is memory kept."""
        if game_id not in self._followers:
            # Followed from now on: stamped, so that its followers to come share what it shows.
            self._stamp(game_id)
        self._followers.setdefault(game_id, set()).add(follower)
        self._sweep_soon()

    def leave(self, game_id: str, follower: Follower) -> None:
        """``follower`` is told nothing more of the game."""
        followers = self._followers[game_id]
        followers.discard(follower)
        if not followers:
            del self._followers[game_id]
            self._stamps.pop(game_id, None)

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
                    for followers in list(self._followers.values())
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
