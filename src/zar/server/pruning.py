"""The server keeps its store bounded: what it keeps no longer is pruned as it starts, then
every hour (:mod:`zar.store.retention` says what).

- invitations, once expired (refused as unknown from then on);
- devices unseen for :data:`~zar.server.devices.DEVICE_DAYS` (their credential refused
  as expired from then on), and their rows as watchers;
- abandoned games, with their logs, once unchanged for the days the operator keeps them
  (``ZAR_KEEP_ABANDONED_DAYS``; by default every game is kept).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool

from zar.server.devices import DEVICE_DAYS, later
from zar.store import Pruned, Retention, Store, StoreUnavailable

__all__ = ["PRUNE_SECONDS", "prune", "pruning", "retention"]

PRUNE_SECONDS = 3600.0  # how often the server prunes, after once as it starts


def retention(now: str, keep_abandoned_days: float | None) -> Retention:
    """What goes at ``now``: invitations expired, devices unseen since their credential
    expired, abandoned games older than ``keep_abandoned_days`` (None: kept)."""
    abandoned = None if keep_abandoned_days is None else later(now, days=-keep_abandoned_days)
    return Retention(expired=now, unseen=later(now, days=-DEVICE_DAYS), abandoned=abandoned)


async def prune(
    store: Store, clock: Callable[[], str], keep_abandoned_days: float | None
) -> Pruned:
    """Prune once, in a worker thread; a store out of reach is tried again next time."""
    try:
        return await run_in_threadpool(store.prune, retention(clock(), keep_abandoned_days))
    except StoreUnavailable:
        return Pruned()


async def pruning(
    store: Store,
    clock: Callable[[], str],
    keep_abandoned_days: float | None,
    every: float = PRUNE_SECONDS,
    done: Callable[[Pruned], None] = lambda _: None,
) -> None:
    """Prune now, then every ``every`` seconds, until cancelled (a pruning under way is
    finished first: the store is not closed under it); ``done`` is told what each pruned."""
    while True:
        once = asyncio.ensure_future(prune(store, clock, keep_abandoned_days))
        try:
            done(await asyncio.shield(once))
        except asyncio.CancelledError:
            await once
            raise
        await asyncio.sleep(every)
