"""How often a device and a client address may invite: token buckets, as for undos.

An invitation is two rows of the store (a seat's link and its short code, a watch link)
that live a day; a host asks for one when a guest arrives, a few a game. A script asking
in a loop would fill the store, so each device and each address has a bucket: past it the
invitation is refused with 429 ``too-many-invitations`` and ``Retry-After``, nothing
written. Only an invitation the host may make counts, and one the store did not keep is
given back.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from zar.refusal import TooMany
from zar.server.limits import Rate

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


class InvitationLimit:
    """The invitations each device and client address may make: token buckets at
    ``rates``, by the clock ``monotonic`` (seconds).

    >>> now = [0.0]
    >>> invites = InvitationLimit(lambda: now[0], {"device": Rate(2, 0.5)})
    >>> give_back = invites.take("d", "a")
    >>> give_back()
    >>> _ = invites.take("d", "a"), invites.take("d", "a")
    >>> try:
    ...     invites.take("d", "a")
    ... except TooManyInvitations as refused:
    ...     refused.reason, refused.seconds
    ('too-many-invitations', 2)
    >>> _ = invites.take("another device", "a")
    >>> now[0] = 2.0
    >>> _ = invites.take("d", "a")
    """

    KEPT = 4096  # past this many buckets, the full ones (the same as none) are let go

    def __init__(
        self, monotonic: Callable[[], float], rates: Mapping[str, Rate] = INVITATION_RATES
    ) -> None:
        for rate in rates.values():
            if rate.burst < 1 or rate.per_second <= 0:
                raise ValueError(f"a bucket holds at least one invitation and fills, not {rate}")
        self.monotonic = monotonic
        self.rates = rates
        # Per (what, key): the tokens the bucket held, and when.
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}

    def take(self, device: str, address: str) -> Callable[[], None]:
        """Count an invitation of ``device`` from ``address``; raises
        :class:`TooManyInvitations` if one of their buckets is empty, counting nothing.
        Returns what gives it back."""
        now = self.monotonic()
        if len(self._buckets) > self.KEPT:
            self._forget(now)
        keys = [k for k in (("device", device), ("address", address)) if k[0] in self.rates]
        held = {key: self._held(key, now) for key in keys}
        wait = max(((1 - t) / self.rates[k[0]].per_second for k, t in held.items()), default=0.0)
        if wait > 0:
            raise TooManyInvitations(max(1, math.ceil(wait)))
        for key, tokens in held.items():
            self._buckets[key] = (tokens - 1, now)

        def give_back() -> None:
            later = self.monotonic()
            for key in keys:
                self._buckets[key] = (self._held(key, later) + 1, later)

        return give_back

    def _held(self, key: tuple[str, str], now: float) -> float:
        """The tokens in the bucket ``key`` now: as many as it holds when full, if unknown."""
        rate = self.rates[key[0]]
        tokens, then = self._buckets.get(key, (rate.burst, now))
        return min(float(rate.burst), tokens + (now - then) * rate.per_second)

    def _forget(self, now: float) -> None:
        for key in [k for k in self._buckets if self._held(k, now) >= self.rates[k[0]].burst]:
            del self._buckets[key]
