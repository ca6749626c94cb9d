"""A seat claimed with an invitation, as both stores write it: in the caller's transaction,
the invitation spent, the seating kept at its revision and the claiming device known, all
or none (in the driver's placeholder style, ``?`` or ``%s``)."""

from __future__ import annotations

from zar.seating import Seating
from zar.store.base import Conflict, UnknownGame
from zar.store.rows import Connection, spend_invitation, write_seating

__all__ = ["claim_seat"]


def claim_seat(
    db: Connection,
    mark: str,
    game_id: str,
    seating: Seating,
    invitation: str,
    device: str,
    now: str | None,
) -> bool:
    """Spend ``invitation`` (its key) for ``device``, keep ``seating`` (one revision on from
    the stored one) and, with ``now``, add ``device`` as new: false, writing nothing, if
    another device spent the invitation first; :class:`Conflict` (the caller's transaction
    rolled back) if the seating moved on, :class:`UnknownGame`."""
    if not spend_invitation(db, mark, invitation, device):
        return False
    if not write_seating(db, mark, game_id, seating):
        row = db.execute(f"SELECT version FROM games WHERE id = {mark}", (game_id,)).fetchone()
        raise UnknownGame(game_id) if row is None else Conflict(row[0])
    if now is not None:
        db.execute(
            f"INSERT INTO devices (key, created_at, seen_at) VALUES ({mark}, {mark}, {mark})",
            (device, now, now),
        )
    return True
