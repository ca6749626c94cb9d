"""What the store keeps no longer, and its pruning, alike in both stores.

Invitations once expired (refused as unknown from then on), devices unseen since their
credential expired (refused as forged from then on) with their rows as watchers, and, if the
operator says so, games abandoned long ago with everything of theirs: each goes in batches,
one transaction a batch, so that pruning holds no writer up for long.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from zar.store.base import Pruned, Retention
from zar.store.rows import WATCHER, Connection

__all__ = [
    "GAMES_BATCH",
    "RETENTION_INDEXES",
    "ROWS_BATCH",
    "prune",
    "prune_batch",
]

ROWS_BATCH = 500  # invitations or devices a transaction prunes at most
GAMES_BATCH = 20  # abandoned games a transaction prunes at most (each with its log)

# Migration 7 of both stores: what the pruning looks for, found by an index.
RETENTION_INDEXES = (
    "CREATE INDEX invitations_by_expiry ON invitations (expires_at)",
    "CREATE INDEX devices_by_seen ON devices (seen_at)",
)


def prune(
    transaction: Callable[[], AbstractContextManager[Connection]], mark: str, retention: Retention
) -> Pruned:
    """Prune what ``retention`` says goes, a batch (:func:`prune_batch`) in each of the
    ``transaction()``s it takes, until none finds anything more."""
    pruned = Pruned()
    while True:
        with transaction() as db:
            batch = prune_batch(db, mark, retention)
        if not batch:
            return pruned
        pruned += batch


def prune_batch(db: Connection, mark: str, retention: Retention) -> Pruned:
    """Prune one batch of each, in the caller's transaction; nothing pruned: all done."""
    games = 0
    if retention.abandoned is not None:
        games = _prune_games(db, mark, retention.abandoned)
    invitations = db.execute(
        f"DELETE FROM invitations WHERE key IN (SELECT key FROM invitations"
        f" WHERE expires_at < {mark} LIMIT {ROWS_BATCH})",
        (retention.expired,),
    ).rowcount
    keys = [key for (key,) in db.execute(
        f"SELECT key FROM devices WHERE seen_at < {mark} LIMIT {ROWS_BATCH}", (retention.unseen,)
    ).fetchall()]  # fmt: skip
    watchers = 0
    if keys:
        marks = ", ".join([mark] * len(keys))
        watchers = db.execute(
            f"DELETE FROM access WHERE seat = {mark} AND device IN ({marks})", (WATCHER, *keys)
        ).rowcount
        db.execute(f"DELETE FROM devices WHERE key IN ({marks})", keys)
    return Pruned(invitations, len(keys), watchers, games)


def _prune_games(db: Connection, mark: str, before: str) -> int:
    """Prune a batch of the games abandoned before ``before``: their invitations, who may
    reach them, their logs, their rows."""
    ids = [game_id for (game_id,) in db.execute(
        f"SELECT id FROM games WHERE abandoned = {mark} AND updated_at < {mark}"
        f" LIMIT {GAMES_BATCH}",
        (True, before),
    ).fetchall()]  # fmt: skip
    if ids:
        marks = ", ".join([mark] * len(ids))
        for table, column in (
            ("invitations", "game_id"),
            ("access", "game_id"),
            ("actions", "game_id"),
            ("games", "id"),
        ):
            db.execute(f"DELETE FROM {table} WHERE {column} IN ({marks})", ids)
    return len(ids)
