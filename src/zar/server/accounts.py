"""Each finished game's luck account, worked out off the request path and kept with its
figures for the statistics.

An account (:func:`zar.ai.luck.account`) judges every decision of the game, a few tenths of
a second: too slow for the request that ends the game. That request keeps the game's
figures without it; then a task works it out and keeps the figures again with it, if the
game is still at the version judged (an undo after the end moves it on: the figures are
worked out again when it ends again).

Where it is worked out: ``zar serve`` gives :class:`Accounts` a process of its own
(:func:`account_process`, at a lower priority): a few tenths of a second of Python in a
thread of the server would hold the interpreter's lock against the event loop and every
request meanwhile (the p99 of 200 tables went from 38 ms to 300-460 ms that way). Without
one (an app in a test), a worker thread does it.

Games kept before accounts were, or whose task a restart cut short, get theirs from a slow
pass (:meth:`Accounts.run`): it reads the latest finished games of each kind the
statistics read, and works out one account at a time, only after the server has handled
no request for :data:`IDLE` seconds and never more than one game per :data:`PACE` seconds;
so do the games whose figures the statistics worked out again when reading them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from zar.ai.coach import Strategies
from zar.ai.luck import account
from zar.history import accounted, figures
from zar.record import Record
from zar.store import Store

__all__ = [
    "IDLE",
    "PACE",
    "SWEPT",
    "Accounts",
    "Activity",
    "account_process",
    "deaf_to_ctrl_c",
    "worked_out",
]

IDLE = 1.0  # seconds without an action before the pass works out an old game's account
PACE = 0.5  # seconds at least between two games of the pass: two games a second at most
SWEPT = 1_000  # the pass reads the latest finished games of each kind, this many at most

log = logging.getLogger(__name__)

STOPPING = (signal.SIGINT, signal.SIGTERM)  # what stops the server

_strategies: Strategies | None = None  # the accounts' process's own, read once


def worked_out(game: Mapping[str, Any]) -> dict[str, Any] | None:
    """A finished game's figures with its luck account, from the game as JSON
    (:meth:`Record.to_json`): what the accounts' process does."""
    return _accounted(Record.from_json(game), _own_strategies())


def _own_strategies() -> Strategies:
    global _strategies
    if _strategies is None:
        _strategies = Strategies()
    return _strategies


def _accounted(record: Record, strategies: Strategies) -> dict[str, Any] | None:
    """``record``'s figures with its luck account, by ``strategies``."""
    return figures(record, account(record, strategies))


def account_process() -> ProcessPoolExecutor:
    """One process that works the accounts out, at a lower priority than the server's:
    started afresh (spawn: the server's threads are not forked), its strategies read from
    the cache as the server's are; it goes when the server goes (:func:`_serve_accounts`).
    It is started now, its strategies read, not at the first game's end: its start falls
    before play, not in the middle of it."""
    with deaf_to_ctrl_c(*STOPPING):
        process = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_serve_accounts,
            initargs=(os.getpid(),),
        )
        process.submit(_ready)  # starts the process
    return process


@contextlib.contextmanager
def deaf_to_ctrl_c(*signals: signal.Signals) -> Iterator[None]:
    """A process started meanwhile ignores ``signals`` from its first instant (Python leaves
    an ignored signal ignored): a terminal's Ctrl-C reaches every process of its group, and
    one still importing would print a ``KeyboardInterrupt`` traceback; the server, which
    hears it, ends the process itself (and the process goes when it goes)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals are set in the main thread only
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _ready() -> None:
    """The accounts' process readied: its strategies read (what it sends back is nothing)."""
    _own_strategies()


def _serve_accounts(server: int) -> None:
    """The accounts' process, as it starts: a lower priority; its output, which it inherited
    from the server, let go (what goes wrong comes back with the future and the server logs
    it), so that whoever reads the server's output sees it end with the server; and gone
    within a second of the server, even one killed (SIGKILL) that could not stop it."""
    os.nice(10)
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(nowhere, 1)
    os.dup2(nowhere, 2)
    os.close(nowhere)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="zar-server-watch", daemon=True).start()


class Accounts:
    """The luck accounts being worked out, one task per game, over ``store``: in the
    ``process`` given (:func:`account_process`), else in a worker thread with ``strategies``."""

    def __init__(
        self,
        store: Store,
        strategies: Strategies,
        load: Callable[[str], Record],
        *,
        monotonic: Callable[[], float] = time.monotonic,
        process: Executor | None = None,
    ) -> None:
        self.store = store
        self.strategies = strategies
        self.process = process
        self.load = load  # a finished game's record, read from the store
        self.monotonic = monotonic
        self.active = monotonic()  # when the server last began a request
        # By game and version: a game undone after its end and ended again is judged anew.
        self._pending: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._later: dict[str, None] = {}  # the games left to the slow pass, in order
        self._wake: asyncio.Event | None = None  # made in the loop that runs the pass

    def busy(self) -> None:
        """Note that the server begins a request now: the pass waits for it to be idle."""
        self.active = self.monotonic()

    def schedule(self, game_id: str, record: Record) -> None:
        """Work out the account of the finished ``record`` in a worker thread, and keep it."""
        key = (game_id, record.version)
        if key in self._pending or not record.state.is_over:
            return
        task = asyncio.get_running_loop().create_task(self._keep(game_id, record))
        self._pending[key] = task
        task.add_done_callback(lambda _: self._pending.pop(key, None))

    async def _keep(self, game_id: str, record: Record) -> None:
        try:
            await self.keep(game_id, record)
        except Exception:  # the pass tries again; the statistics leave it out meanwhile
            log.exception("the luck account of game %s was not kept", game_id)

    async def keep(self, game_id: str, record: Record) -> None:
        """Work out ``record``'s account and keep its figures with it (if still at its version)."""
        if self.process is None:
            part = await run_in_threadpool(self.worked_out_here, record)
        else:
            loop = asyncio.get_running_loop()
            part = await loop.run_in_executor(self.process, worked_out, record.to_json())
        if part is not None:
            await run_in_threadpool(self.store.keep_figures, game_id, record.version, part)

    def worked_out_here(self, record: Record) -> dict[str, Any] | None:
        """:func:`worked_out` in this process, with its strategies."""
        return _accounted(record, self.strategies)

    def close(self) -> None:
        """Stop the accounts' process, if any (the games it had not finished go to the pass)."""
        if self.process is None:
            return
        # The pool's thread ends once its worker has: it is let end before the interpreter
        # does, whose exit hook (3.11) writes to a pipe that thread closes, unguarded, and
        # prints "Bad file descriptor" when it loses the race. A worker still at an account
        # (or building its tables) a second on is not waited for.
        thread = getattr(self.process, "_executor_manager_thread", None)
        workers = list((getattr(self.process, "_processes", None) or {}).values())
        self.process.shutdown(wait=False, cancel_futures=True)
        if thread is None:
            return
        thread.join(timeout=1)
        if thread.is_alive():
            for worker in workers:
                worker.kill()
            thread.join(timeout=5)

    @property
    def working(self) -> int:
        """How many accounts are being worked out now: scheduled, and not yet kept."""
        return len(self._pending)

    async def settle(self) -> None:
        """Wait until every account scheduled in this loop is kept (for tests, and when the
        server stops): an app served by one loop after another (a test's) leaves the others'
        to them."""
        loop = asyncio.get_running_loop()
        while here := [t for t in self._pending.values() if t.get_loop() is loop]:
            await asyncio.gather(*here, return_exceptions=True)

    def missing(self) -> list[str]:
        """The finished games the statistics read whose account is not kept, latest first."""
        return [
            game_id
            for kind in ("yams", "10000")
            for game_id, kept in self.store.finished_figures(kind, limit=SWEPT)
            if not accounted(kept)
        ]

    def later(self, game_id: str) -> None:
        """Leave the game's account to the slow pass (its figures were worked out again when
        read: a restore, or an older Zar's, perhaps many at once)."""
        self._later[game_id] = None
        if self._wake is not None:
            self._wake.set()

    async def run(self) -> None:
        """The slow pass while the server runs: over the games kept without their account,
        then over those left to it (:meth:`later`) as they come."""
        self._wake = wake = asyncio.Event()
        await self.sweep()
        while True:
            if not self._later:
                await wake.wait()
            wake.clear()
            games, self._later = list(self._later), {}
            await self._work_out(games, IDLE, PACE)

    async def sweep(self, *, idle: float = IDLE, pace: float = PACE) -> int:
        """One slow pass over the games kept without their account: how many it kept."""
        try:
            missing = await run_in_threadpool(self.missing)
        except Exception:  # a store out of reach: the next start tries again
            log.exception("the games without their luck account were not read")
            return 0
        return await self._work_out(missing, idle, pace)

    async def _work_out(self, games: list[str], idle: float, pace: float) -> int:
        """Each of ``games``' account, one at a time, once the server is idle."""
        kept = 0
        for game_id in games:
            while (wait := self.active + idle - self.monotonic()) > 0:
                await asyncio.sleep(wait)
            if not any(pending == game_id for pending, _ in self._pending):
                try:
                    record = await run_in_threadpool(self.load, game_id)
                    await self.keep(game_id, record)
                    kept += 1
                except Exception:
                    log.exception("the luck account of game %s was not kept", game_id)
            await asyncio.sleep(pace)
        return kept


class Activity:
    """ASGI middleware: each request notes that the server is busy (:meth:`Accounts.busy`),
    so that the slow pass waits for it to be idle. It wraps nothing else: a stream flows
    through untouched."""

    def __init__(self, app: ASGIApp, accounts: Accounts) -> None:
        self.app = app
        self.accounts = accounts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.accounts.busy()
        await self.app(scope, receive, send)
