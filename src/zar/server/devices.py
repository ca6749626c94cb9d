"""Which device asks: each device's credential, and what a device may see of a game.

A device's credential is 256 random bits the browser keeps in an HttpOnly, SameSite=Strict
cookie (scripts cannot read it, other sites cannot send it); the store keeps only its key,
its SHA-256. docs/security.md is the threat model.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from fastapi import Request, Response
from starlette.concurrency import run_in_threadpool

from zar.server.asking import here
from zar.server.games import Games
from zar.server.views import Table

__all__ = ["COOKIE", "DEVICE_DAYS", "Credential", "Devices", "Reach", "key_of", "later", "reacher"]

COOKIE = "zar_device"
DEVICE_DAYS = 400  # a credential unused this long is expired (browsers keep a cookie as long)


def key_of(secret: str) -> str:
    """What the store keeps of a secret: its SHA-256, never the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


def later(now: str, **delta: float) -> str:
    """The time ``delta`` after ``now`` (ISO 8601, to the millisecond)."""
    return (datetime.fromisoformat(now) + timedelta(**delta)).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Credential:
    """A new device's credential (256 random bits) and its key, the store's to know before the
    device is given it."""

    secret: str
    key: str

    @classmethod
    def new(cls) -> Credential:
        secret = secrets.token_urlsafe(32)
        return cls(secret, key_of(secret))


class Devices:
    """The devices' credentials: which device asks (a cookie whose key the store knows, used
    within :data:`DEVICE_DAYS`), and a new device's. A key found good is taken as good
    again the same day without asking the store."""

    KNOWN = 20_000

    def __init__(self, games: Games) -> None:
        self.games = games
        self._known: OrderedDict[str, str] = OrderedDict()  # key: the day it was found good

    async def caller(self, request: Request) -> str | None:
        """The asking device's key, or None: no credential, a forged or an expired one."""
        secret = request.cookies.get(COOKIE, "")
        if not 20 <= len(secret) <= 100:
            return None
        key = key_of(secret)
        now = self.games.clock()
        if self._known.get(key) == now[:10]:
            self._known.move_to_end(key)
            return key
        since = later(now, days=-DEVICE_DAYS)
        if not await run_in_threadpool(self.games.store.device_seen, key, now, since):
            self._known.pop(key, None)
            return None
        self._known[key] = now[:10]
        while len(self._known) > self.KNOWN:
            self._known.popitem(last=False)
        return key

    async def device(self, request: Request, response: Response) -> str:
        """The asking device's key; a device without a credential gets one (in ``response``'s
        cookie), as does one whose credential is forged or expired."""
        key = await self.caller(request)
        if key is not None:
            return key
        credential = Credential.new()
        await run_in_threadpool(self.games.store.add_device, credential.key, self.games.clock())
        self.give(credential, request, response)
        return credential.key

    def give(self, credential: Credential, request: Request, response: Response) -> None:
        """Hand a device ``credential``, once the store knows it (in ``response``'s cookie)."""
        self._known[credential.key] = self.games.clock()[:10]
        response.set_cookie(
            COOKIE,
            credential.secret,
            max_age=DEVICE_DAYS * 24 * 3600,
            path="/",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )


Reach = Callable[[str, Request], Awaitable[Table]]


def reacher(games: Games, devices: Devices) -> Reach:
    """How a route finds who asks and what they may see of a game (else Forbidden)."""

    async def reach(game_id: str, request: Request) -> Table:
        device = await devices.caller(request)
        seating = await games.reach(game_id, device, here=here(request))
        return Table(seating, device, games.presence(game_id))

    return reach
