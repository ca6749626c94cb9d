"""Who may do what: every right at a table, decided here and nowhere else.

Each right is asked of the seating (who hosts, who holds each seat, who watches, what the
computer plays meanwhile), the game and what is asked, and answers yes (None) or the
:class:`~zar.refusal.Forbidden` that says why not; the routes, the streams and the views ask
and never decide themselves (:func:`require` raises the answer). A device is named by its
key (the hash of its credential); None is a device without a credential.

- **read** (the game, its stream, log, review, progress, export): anyone with a place at
  the table; a game stored before seats had holders, only once **adopted** by the first
  device that opens it from this machine.
- **act** (an intention on the seat on turn; an undo on the seat of the decision it takes
  back): that seat's holder, not while the computer plays it meanwhile; the computer's
  turn may be stepped by anyone at the table but a watcher; **abandon** is the host's. An
  undo never reopens a finished game that another device may have seen end: one that
  another device has ever had a place at (``shared``), whoever sits there now.
- **hint**: the holder of the seat on turn (the rules say whether the coach is on there).
- **invite**, **move a seat** to the computer or back to the host: the host; a seat's
  holder takes it back from the computer.
- **open** an invitation, **claim** a seat with it, **watch** with it: an invitation known
  and not expired, of a game neither finished nor abandoned; a seat invitation is spent by
  the first device that takes a seat with it, and gives nothing more to anyone, but more
  seats to that device while it keeps a place the host gave (none once the host took a
  seat back from it); a seat is claimed only while the host's device still holds it; a
  game is watched by :data:`WATCHERS_PER_GAME` devices at most.

>>> from zar.table import Seat
>>> seating = Seating.hosted("h", (Seat("Ali"), Seat("Ece")))
>>> to_invite(seating, "h") is None, to_invite(seating, "g").reason
(True, 'not-at-table')
"""

from __future__ import annotations

import contextlib
from typing import Literal

from zar.record import Record
from zar.refusal import Forbidden
from zar.seating import Seating
from zar.store import Invitation
from zar.table import IllegalAction

__all__ = [
    "WATCHERS_PER_GAME",
    "Answer",
    "require",
    "seats_offered",
    "to_act",
    "to_adopt",
    "to_claim",
    "to_hint",
    "to_invite",
    "to_join_watchers",
    "to_move",
    "to_open",
    "to_read",
    "to_take_part",
    "to_use",
    "to_watch",
]

Answer = Forbidden | None  # None: yes
Move = Literal["computer", "host", "holder"]


def require(answer: Answer) -> None:
    """Raise the refusal a right answered, if it did."""
    if answer is not None:
        raise answer


def to_read(seating: Seating | None, device: str | None) -> Answer:
    """Whether ``device`` may see the game: it has a place at its table."""
    if seating is None or seating.role(device) is None:
        return Forbidden("not-at-table")
    return None


def to_adopt(device: str | None, *, here: bool) -> Answer:
    """Whether ``device`` becomes the host of a game stored before seats had holders: the
    first device that opens it from this machine does."""
    return None if device is not None and here else Forbidden("not-at-table")


def _seat_of(record: Record, intent: str) -> int:
    """The seat an intention is judged on: the seat on turn; an undo's, the seat of the
    decision it takes back (the seat on turn if there is none: the rules refuse it then)."""
    if intent == "undo":
        with contextlib.suppress(IllegalAction):
            return record.undo().seat
    return record.state.seat


def to_take_part(seating: Seating | None, device: str | None, intent: str) -> Answer:
    """Whether ``device`` may make any intention of type ``intent`` on the game, whatever
    its state: a place at the table other than a watcher's (and the host's, to abandon).
    Judged before the version an intention names, so that a stranger or a watcher learns
    nothing of the game's (not even that it moved on); :func:`to_act` judges it again."""
    role = None if seating is None else seating.role(device)
    if seating is None or role is None:
        return Forbidden("not-at-table")
    if role == "watcher":
        return Forbidden("watching")
    if intent == "abandon" and role != "host":
        return Forbidden("host-only")
    return None


def to_act(seating: Seating | None, device: str | None, record: Record, intent: str) -> Answer:
    """Whether ``device`` may make an intention of type ``intent`` on the game as it is."""
    refused = to_take_part(seating, device, intent)
    if refused is not None or seating is None:
        return refused
    if intent in ("abandon", "computer"):
        # An abandon is the host's (judged above); whether it is the computer's turn is the
        # rules' to say.
        return None
    seat = _seat_of(record, intent)
    holder = seating.holders[seat]
    if holder is None:
        return None  # the computer's own seat: the rules refuse a person's move there
    if holder == device and seating.plays(seat) is not None:
        return Forbidden("standing-in", seat=seat)  # resumed first
    if not seating.holds(device, seat):
        return Forbidden("not-your-seat", seat=seat)
    if intent == "undo" and record.state.is_over and seating.shared:
        return Forbidden("seen-over")
    return None


def to_hint(seating: Seating | None, device: str | None, record: Record) -> Answer:
    """Whether ``device`` may ask the coach of the seat on turn: its holder (a computer's
    seat is the rules' to refuse)."""
    refused = to_read(seating, device)
    if refused is not None or seating is None:
        return refused
    seat = record.state.seat
    if seating.holders[seat] is not None and not seating.holds(device, seat):
        return Forbidden("not-your-seat", seat=seat)
    return None


def to_invite(seating: Seating | None, device: str | None) -> Answer:
    """Whether ``device`` may invite another device: the host."""
    refused = to_read(seating, device)
    if refused is not None or seating is None:
        return refused
    return None if seating.role(device) == "host" else Forbidden("host-only")


def to_move(seating: Seating | None, device: str | None, seat: int, to: Move) -> Answer:
    """Whether ``device`` may move ``seat``: to the computer meanwhile or back to the host's
    device (the host), back to its holder's own play (that holder)."""
    refused = to_read(seating, device)
    if refused is not None or seating is None:
        return refused
    if to == "holder":
        if not 0 <= seat < len(seating.holders) or seating.holders[seat] != device:
            return Forbidden("not-your-seat", seat=seat)
        return None
    return None if seating.role(device) == "host" else Forbidden("host-only")


def to_use(invitation: Invitation | None, record: Record | None, now: str) -> Answer:
    """Whether an invitation lets anyone in: known and not expired (refused alike), of a
    game (its ``record``) neither finished nor abandoned."""
    if invitation is None or record is None or invitation.expires_at < now:
        return Forbidden("invitation-unknown")
    if record.abandoned or record.state.is_over:
        return Forbidden("invitation-ended")
    return None


# A table's watchers, at most: a living room's, a classroom's, a club's screen and the
# phones around it; the fan-out of a move to them is measured at this many
# (docs/performance.md). A script's fresh devices past it are refused, nothing stored.
WATCHERS_PER_GAME = 5_000


def to_join_watchers(
    seating: Seating | None, device: str | None, cap: int = WATCHERS_PER_GAME
) -> Answer:
    """Whether ``device`` may be one more watcher of the game: while its watchers are fewer
    than ``cap`` (a device that already has a place at the table keeps it, and adds nobody;
    a game without seats is not this right's to refuse)."""
    if seating is not None and seating.role(device) is None and len(seating.watchers) >= cap:
        return Forbidden("too-many-watchers", limit=cap)
    return None


def _spent(invitation: Invitation, seating: Seating, device: str | None) -> bool:
    """Whether a seat invitation is spent for ``device``: by another device, or by it before
    the host took a seat back from it."""
    spender = invitation.spent_by
    return spender is not None and (spender != device or spender in seating.former)


def to_open(
    invitation: Invitation | None,
    seating: Seating | None,
    device: str | None,
    record: Record | None,
    now: str,
) -> Answer:
    """Whether ``device`` may see what an invitation offers: a seat invitation not spent for
    it (:func:`_spent`), of a game with seats."""
    refused = to_use(invitation, record, now)
    if refused is not None or invitation is None:
        return refused
    if seating is None:
        return Forbidden("not-at-table")
    if invitation.kind == "seat" and _spent(invitation, seating, device):
        return Forbidden("invitation-spent")
    return None


def to_watch(
    invitation: Invitation | None, seating: Seating | None, record: Record | None, now: str
) -> Answer:
    """Whether a device may follow the game with an invitation: a watch invitation, or a
    seat invitation nobody spent, of a game with seats."""
    refused = to_use(invitation, record, now)
    if refused is not None or invitation is None:
        return refused
    if seating is None:
        return Forbidden("not-at-table")
    if invitation.kind == "seat" and invitation.spent_by is not None:
        return Forbidden("invitation-spent")
    return None


def to_claim(
    invitation: Invitation | None,
    seating: Seating | None,
    device: str | None,
    seat: int | None,
    record: Record | None,
    now: str,
) -> Answer:
    """Whether ``device`` may make ``seat`` its own with the invitation: a seat invitation
    not spent for it, of a seat the host's device still holds (``device`` None: a device
    that has no credential yet)."""
    refused = to_open(invitation, seating, device, record, now)
    if refused is not None or invitation is None or seating is None:
        return refused
    if invitation.kind != "seat" or seat is None:
        return Forbidden("invitation-unknown")
    if type(seat) is not int or not 0 <= seat < len(seating.holders):
        return Forbidden("no-such-seat", seat=seat)
    if seating.holders[seat] is None:
        return Forbidden("computer-seat", seat=seat)
    if seating.holders[seat] != seating.host or device == seating.host:
        return Forbidden("seat-taken", seat=seat)
    return None


def seats_offered(seating: Seating, invitation: Invitation, device: str) -> list[int]:
    """The seats an invitation offers ``device``: a seat invitation's, those the host's
    device still holds (not the device's own)."""
    if invitation.kind != "seat":
        return []
    return [
        i for i, holder in enumerate(seating.holders) if holder == seating.host and holder != device
    ]
