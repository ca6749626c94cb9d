"""Which device asks: each device's credential, and what a device may see of a game.

A device's credential is 256 random bits the browser keeps in an HttpOnly, SameSite=Strict
cookie (scripts cannot read it, other sites cannot send it); the store keeps only its key,
its SHA-256. Over HTTPS the cookie is ``__Host-zar_device`` (Secure, ``Path=/``, no
``Domain``: no other site, not even a sibling domain, can set it). A credential planted in
a browser by someone else is not adopted: a device that hosts a game, opens an invitation
(the step before it takes a seat) or watches with a credential that holds no place yet is
given a fresh one, and a request carrying two different credentials of one name is taken
as carrying none. docs/security.md is the threat model.
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

__all__ = [
    "COOKIE",
    "DEVICE_DAYS",
    "SECURE_COOKIE",
    "Credential",
    "Devices",
    "Reach",
    "key_of",
    "later",
    "presented",
    "reacher",
]

COOKIE = "zar_device"
SECURE_COOKIE = "__Host-zar_device"  # over HTTPS: Secure, Path=/, no Domain
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


def presented(request: Request) -> tuple[str, str] | None:
    """The credential a request carries, with its cookie's name: the ``__Host-`` one if
    any, else the plain one; None without one, or when a name comes with two different
    values (a cookie planted beside the device's own, for another path or a parent domain:
    which is whose cannot be told).

    >>> from starlette.requests import Request
    >>> def asking(*cookies: str) -> Request:
    ...     headers = [(b"cookie", c.encode()) for c in cookies]
    ...     return Request({"type": "http", "headers": headers})
    >>> presented(asking("zar_device=a; other=b"))
    ('zar_device', 'a')
    >>> presented(asking("zar_device=a; zar_device=b")) is None
    True
    >>> presented(asking("zar_device=a; __Host-zar_device=c", "zar_device=b"))
    ('__Host-zar_device', 'c')
    """
    found: dict[str, set[str]] = {COOKIE: set(), SECURE_COOKIE: set()}
    for header in request.headers.getlist("cookie"):
        for pair in header.split(";"):
            name, _, value = pair.strip().partition("=")
            if name in found:
                found[name].add(value.strip().strip('"'))
    for name in (SECURE_COOKIE, COOKIE):
        if found[name]:
            return (name, found[name].pop()) if len(found[name]) == 1 else None
    return None


class Devices:
    """The devices' credentials: which device asks (a cookie whose key the store knows, used
    within :data:`DEVICE_DAYS`), and a new device's. A key found good is taken as good
    again the same day without asking the store."""

    KNOWN = 20_000

    def __init__(self, games: Games) -> None:
        self.games = games
        self._known: OrderedDict[str, str] = OrderedDict()  # key: the day it was found good

    async def caller(self, request: Request) -> str | None:
        """The asking device's key, or None: no credential, a forged, an expired or an
        ambiguous one (:func:`presented`)."""
        _, secret = presented(request) or ("", "")
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

    async def trusted(self, request: Request, response: Response) -> str:
        """The key of a device about to take a place (host a game, open an invitation to
        take a seat, watch): its own if its credential already holds a place at a table;
        else a fresh credential's (in ``response``'s cookie), never one that holds nothing
        yet, which may have been planted in the browser by whoever wants to follow it to
        the table."""
        key = await self.caller(request)
        if key is None or not await run_in_threadpool(self._placed, key):
            return await self._fresh(request, response)
        self._upgrade(request, response)
        return key

    def _placed(self, key: str) -> bool:
        """Whether the device ``key`` holds a place at a table (hosts, plays or watches)."""
        return bool(self.games.store.games(limit=1, device=key))

    async def _fresh(self, request: Request, response: Response) -> str:
        """A new device: its credential kept by the store, then given in ``response``."""
        credential = Credential.new()
        await run_in_threadpool(self.games.store.add_device, credential.key, self.games.clock())
        self.give(credential, request, response)
        return credential.key

    def give(self, credential: Credential, request: Request, response: Response) -> None:
        """Hand a device ``credential``, once the store knows it (in ``response``'s cookie)."""
        self._known[credential.key] = self.games.clock()[:10]
        _give(request, response, credential.secret)

    def _upgrade(self, request: Request, response: Response) -> None:
        """Over HTTPS, a device known by its plain cookie (given before the ``__Host-`` one
        was) gets the same credential in the ``__Host-`` cookie, and the plain one is
        dropped."""
        found = presented(request)
        if request.url.scheme == "https" and found is not None and found[0] == COOKIE:
            _give(request, response, found[1])


def _give(request: Request, response: Response, secret: str) -> None:
    """``secret`` in ``response``'s cookie: ``__Host-`` and Secure over HTTPS (the plain
    one dropped), plain over HTTP (a phone on a home network)."""
    https = request.url.scheme == "https"
    response.set_cookie(
        SECURE_COOKIE if https else COOKIE,
        secret,
        max_age=DEVICE_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="strict",
        secure=https,
    )
    if https:
        response.delete_cookie(COOKIE, path="/", secure=True, httponly=True, samesite="strict")


Reach = Callable[[str, Request], Awaitable[Table]]


def reacher(games: Games, devices: Devices) -> Reach:
    """How a route finds who asks and what they may see of a game (else Forbidden)."""

    async def reach(game_id: str, request: Request) -> Table:
        device = await devices.caller(request)
        seating = await games.reach(game_id, device, here=here(request))
        return Table(seating, device, games.presence(game_id))

    return reach
