"""How often a device and a client address may invite: token buckets, as for undos.

An invitation is two rows of the store (a seat's link and its short code, a watch link)
that live a day; a host asks for one when a guest arrives, a few a game. A script asking
in a loop would fill the store, so each device and each address has a bucket: past it the
invitation is refused with 429 ``too-many-invitations`` and ``Retry-After``, nothing
written. Only an invitation the host may make counts, and one the store did not keep is
given back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from zar.refusal import TooMany
from zar.server.limits import Buckets, Rate

__all__ = ["INVITATION_RATES", "InvitationLimit", "TooManyInvitations"]

# A host invites when a guest arrives (a new link for a phone that lost it, a few seats):
# ten at once, then one a minute, from a device; an address's household or classroom,
# thirty at once, then three a minute. A loop gets 4 320 invitations a day from an address
# at most, each pruned once it expired (docs/security.md, "What the store keeps").
INVITATION_RATES: Mapping[str, Rate] = {
    "device": Rate(10, 1 / 60),
    "address": Rate(30, 1 / 20),
}


class TooManyInvitations(TooMany):
    """The device or its client address has invited as much as it may for now: it may
    again in ``seconds``."""

    def __init__(self, seconds: int) -> None:
        super().__init__("too-many-invitations", seconds)


class InvitationLimit(Buckets):
    """The invitations each device and client address may make: token buckets at the
    :data:`INVITATION_RATES` (:class:`TooManyInvitations` past one).

    >>> now = [0.0]
    >>> invites = InvitationLimit(lambda: now[0], {"device": Rate(2, 0.5)})
    >>> give_back = invites.invite("d", "a")
    >>> give_back()
    >>> _ = invites.invite("d", "a"), invites.invite("d", "a")
    >>> try:
    ...     invites.invite("d", "a")
    ... except TooManyInvitations as refused:
    ...     refused.reason, refused.seconds
    ('too-many-invitations', 2)
    >>> _ = invites.invite("another device", "a")
    >>> now[0] = 2.0
    >>> _ = invites.invite("d", "a")
    """

    RATES = INVITATION_RATES
    Refused = TooManyInvitations

    def invite(self, device: str, address: str) -> Callable[[], None]:
        """Count an invitation of ``device`` from ``address``; raises
        :class:`TooManyInvitations` if one of their buckets is empty, counting nothing.
        Returns what gives it back."""
        return self.take("", device, address)
