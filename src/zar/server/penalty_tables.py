"""The 10 000 tables of two under a penalty for three lost turns in a row, built in the
background: each takes minutes (5 000) to an hour (15 000) and up to about 210 MiB to
solve, so no request ever waits for one (none is counted in :data:`zar.ai.ahead.ahead`).
Until a table is in the cache, its games' computer, coach and review play and judge in
points (:meth:`zar.ai.farkle.WinStrategy.at_hand`); once it is, new games read it.

They are built one at a time, in the order wanted, each in a process of its own at the
lowest priority (:func:`zar.server.processes.own_process`), which goes with the server.
Servers on one cache (the workers of one) build each table once: the build of a second
waits for the first's, then reads it (:meth:`zar.ai.farkle.WinStrategy.load`).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Iterable

from zar.farkle import PRESETS, FarkleRules
from zar.server.processes import LOWEST, Ending, own_process

__all__ = ["PENALTY_PRESETS", "Builds", "builds", "preparing"]

# facebook first: Facebook Farkle, the best known, and the one Busche's figure checks.
PENALTY_PRESETS = ("facebook", "three-lost-500", "three-lost-1000")

Table = tuple[int, FarkleRules]  # a target, the house rules


def _kept(table: Table) -> bool:
    """Whether the cache holds the table already (its file: nothing is read)."""
    from zar.ai import cache
    from zar.ai.farkle import CACHE_NAME, WinStrategy  # numpy: only for such a table

    return cache.cache_path(CACHE_NAME, WinStrategy.cache_key(*table)).exists()


def _build(table: Table) -> int:
    """The table built in a process of its own, waited for here; its exit code (below 0:
    killed by a signal)."""
    if _kept(table):  # another server may have stored it meanwhile
        return 0
    try:
        process = own_process(_solved, *table, niceness=LOWEST)
    except Ending:  # the server is exiting: as if killed, none more begun
        return -1
    process.join()
    return process.exitcode or 0


def _solved(target: int, rules: FarkleRules) -> None:
    """The table of ``target`` under ``rules`` solved and stored in the cache, as a game
    would read it (read instead, when another process stored it meanwhile, or waited for
    while another builds it)."""
    from zar.ai.farkle import WinStrategy

    WinStrategy.load(target, rules=rules)


class Builds:
    """The tables this server builds in the background: those wanted, not yet begun, in
    order, and the one being built; a table wanted again meanwhile is not wanted twice."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: list[Table] = []
        self._wanted: set[Table] = set()  # waiting or being built
        self._builder: threading.Thread | None = None
        self._stopped = False

    def want(self, tables: Iterable[Table], *, first: bool = False) -> tuple[Table, ...]:
        """Build each of ``tables`` under a penalty that is not in the cache, after those
        wanted before (``first``: before those still waiting, a game asking for them);
        returns those newly wanted. It returns at once: the builds go on in a thread of
        their own."""
        asked = [table for table in dict.fromkeys(tables) if table[1].three_lost]
        missing = [table for table in asked if not _kept(table)]
        with self._lock:
            fresh = (table for table in missing if table not in self._wanted)
            new = () if self._stopped else tuple(fresh)
            if first:  # those waiting already move up too; the one being built goes on
                moved = [table for table in missing if table in self._waiting]
                rest = [table for table in self._waiting if table not in moved]
                self._waiting[:] = [*new, *moved, *rest]
            else:
                self._waiting.extend(new)
            self._wanted.update(new)
            if self._waiting and self._builder is None:
                self._builder = threading.Thread(
                    target=self._build_in_turn, name="zar-penalty-tables", daemon=True
                )
                self._builder.start()
            return new

    def wanted(self, table: Table) -> bool:
        """Whether ``table`` is waiting to be built, or being built."""
        with self._lock:
            return table in self._wanted

    def _build_in_turn(self) -> None:
        try:
            while (table := self._next()) is not None:
                try:
                    ended = _build(table)
                finally:
                    with self._lock:
                        self._wanted.discard(table)
                if ended < 0:  # killed (the server ending, or an operator): none more begun
                    self.stop()
        finally:
            with self._lock:  # a failure to start a process leaves the next want its own
                if self._builder is threading.current_thread():
                    self._builder = None

    def _next(self) -> Table | None:
        with self._lock:
            if not self._waiting:
                self._builder = None
                return None
            return self._waiting.pop(0)

    def stop(self) -> None:
        """Begin no table more (the server is ending): the one being built ends with it."""
        with self._lock:
            self._stopped = True
            self._wanted.difference_update(self._waiting)
            self._waiting.clear()


builds = Builds()  # this server process's


def preparing(target: int = 10_000) -> list[str]:
    """The house rules of 10 000 whose table of ``target`` this server is building (or is
    to build): their expert level to that target is offered once it is in the cache."""
    return [name for name in PENALTY_PRESETS if builds.wanted((target, PRESETS[name]))]


@atexit.register
def _ending() -> None:
    # Before multiprocessing's own handler (registered earlier, run later) ends the process
    # being built: the builder, then woken, begins no other while the server exits.
    builds.stop()
