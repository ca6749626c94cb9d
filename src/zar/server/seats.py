"""Seats that belong to devices: each device's credential, invitations to take a seat or to
watch, and what the host may do with the seats (``zar.seating`` says who may act for whom).

A device's credential is 256 random bits the browser keeps in an HttpOnly, SameSite=Strict
cookie (scripts cannot read it, other sites cannot send it); the store keeps only its key,
its SHA-256. An invitation's secret travels in the link's fragment (``/#join=…``), which a
browser never sends to a server: the page trades it for a seat in a request's body, then
shows the game's own address. A short code stands for a seat invitation when a camera is
not at hand; it is 6 characters (about 30 bits), lives a day, and the joins are
rate-limited like new games. docs/security.md is the threat model.
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from zar import farkle, yams
from zar.i18n import Language
from zar.names import seat_names
from zar.record import Record
from zar.seating import Forbidden, Seating
from zar.server.games import Games
from zar.server.network import is_loopback, qr_code
from zar.server.replies import GAME_REFUSALS, GameView, Invite, Opened, refusals
from zar.server.views import Table, view
from zar.store import Invitation

__all__ = ["COOKIE", "Devices", "key_of", "seat_routes", "short_code", "typed_code"]

COOKIE = "zar_device"
DEVICE_DAYS = 400  # a credential unused this long is expired (browsers keep a cookie as long)
NEW_DEVICE = "new"  # who a device without a credential yet is, when its claim is judged (no key)
INVITATION_HOURS = 24
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud, typed right
CODE_LENGTH = 6


def key_of(secret: str) -> str:
    """What the store keeps of a secret: its SHA-256, never the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


def short_code() -> str:
    """Six characters a person reads and types: ``K7M2QX``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def typed_code(text: str) -> str | None:
    """A short code as typed (spaces, dashes, small letters), or None if it cannot be one.

    >>> typed_code(" k7m-2qx "), typed_code("K7M2Q0")
    ('K7M2QX', None)
    """
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def _later(now: str, **delta: float) -> str:
    return (datetime.fromisoformat(now) + timedelta(**delta)).isoformat(timespec="milliseconds")


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
        since = _later(now, days=-DEVICE_DAYS)
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
        secret = secrets.token_urlsafe(32)
        key = key_of(secret)
        now = self.games.clock()
        await run_in_threadpool(self.games.store.add_device, key, now)
        self._known[key] = now[:10]
        response.set_cookie(
            COOKIE,
            secret,
            max_age=DEVICE_DAYS * 24 * 3600,
            path="/",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
        return key


def here(request: Request) -> bool:
    """Whether the request comes from this machine (loopback): the first device to open a
    game stored before seats had holders becomes its host, from here only."""
    client = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(client).is_loopback
    except ValueError:
        return client in ("testclient", "localhost")


class Asked(BaseModel):
    """An invitation, by its link's secret or its short code; the seat to take."""

    model_config = ConfigDict(extra="forbid", strict=True)

    invitation: str = Field(min_length=1, max_length=100)
    seat: int | None = Field(default=None, ge=0, le=6)


class Move(BaseModel):
    """Where a seat goes: to the computer meanwhile, back to the host's device, back to its
    holder's own play."""

    model_config = ConfigDict(extra="forbid", strict=True)

    to: Literal["computer", "host", "holder"]


def seat_routes(
    games: Games,
    devices: Devices,
    language: Callable[[Request], Language],
    addresses: Sequence[str] = (),
) -> APIRouter:
    """The routes of invitations, watchers and seats; links name ``addresses[0]`` when the
    server serves the network (a phone can open it), else the address asked."""
    router = APIRouter()

    def base(request: Request) -> str:
        return addresses[0] if addresses else str(request.base_url)

    async def table_view(game_id: str, request: Request, device: str) -> dict[str, Any]:
        record = await games.record(game_id)
        seating = await games.seating(game_id)
        assert seating is not None
        table = Table(seating, device, games.presence(game_id))
        return view(game_id, record, language(request), table=table)

    async def found(request: Request, asked: Asked) -> Invitation:
        """The invitation asked for, not expired; refused alike when there is none."""
        code = typed_code(asked.invitation)
        store = games.store
        if code is not None:
            invitation = await run_in_threadpool(lambda: store.invitation(code=code))
        else:
            invitation = await run_in_threadpool(
                lambda: store.invitation(key=key_of(asked.invitation))
            )
        if invitation is None or invitation.expires_at < games.clock():
            raise Forbidden("invitation-unknown")
        return invitation

    @router.post(
        "/api/games/{game_id}/invitations",
        status_code=201,
        response_model=None,
        responses={201: {"model": Invite}, **refusals(403, *GAME_REFUSALS)},
    )
    async def invite(game_id: str, request: Request) -> dict[str, Any]:
        """The host asks for a way in for another device: a link (its secret after ``#``),
        the same as a QR code, a short code to type, and a link for watchers."""
        device = await devices.caller(request)
        seating = await games.reach(game_id, device, here=here(request))
        if seating.role(device) != "host":
            raise Forbidden("host-only")
        now = games.clock()
        expires = _later(now, hours=INVITATION_HOURS)
        join, watch = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        store = games.store

        def free_code() -> str:
            """A short code no invitation has (one already taken is very rare)."""
            code = short_code()
            while store.invitation(code=code) is not None:
                code = short_code()
            return code

        code = await run_in_threadpool(free_code)
        await run_in_threadpool(
            store.add_invitation, Invitation(key_of(join), code, game_id, "seat", now, expires)
        )
        await run_in_threadpool(
            store.add_invitation, Invitation(key_of(watch), None, game_id, "watch", now, expires)
        )
        link = f"{base(request)}#join={join}"
        return {
            "join": link,
            "code": code,
            "watch": f"{base(request)}#watch={watch}",
            "qr": qr_code(link),
            "expires_at": expires,
            # Served on 127.0.0.1 (plain `make run`): no other phone reaches these links.
            "here_only": not addresses and is_loopback(request.url.hostname or ""),
        }

    @router.post(
        "/api/invitations/open",
        response_model=None,
        responses={200: {"model": Opened}, **refusals(403, 413, 422, 429, 503)},
    )
    async def open_invitation(asked: Asked, request: Request, response: Response) -> dict[str, Any]:
        """What an invitation offers this device: the game, the seats the host's device still
        holds (each to take), or to watch."""
        invitation = await found(request, asked)
        caller = await devices.caller(request)
        if invitation.kind == "seat" and invitation.spent_by not in (None, caller):
            raise Forbidden("invitation-spent")  # refused before a credential is given
        device = await devices.device(request, response)
        record = await games.record(invitation.game_id)
        seating = await games.seating(invitation.game_id)
        if seating is None:
            raise Forbidden("not-at-table")
        offered = [
            {"seat": i, "name": record.seats[i].name}
            for i, holder in enumerate(seating.holders)
            if invitation.kind == "seat" and holder == seating.host and holder != device
        ]
        return {
            "game": invitation.game_id,
            "kind": invitation.kind,
            "players": seat_names(record.seats, language(request)),
            "seats": offered,
            "yours": list(seating.seats_of(device)),
        }

    @router.post(
        "/api/invitations/claim",
        response_model=None,
        responses={200: {"model": GameView}, **refusals(403, 409, 413, 422, 429, 503)},
    )
    async def claim(asked: Asked, request: Request, response: Response) -> dict[str, Any]:
        """Take a seat the host's device still holds: from now on only this device acts for
        it. The invitation is spent by the first device that takes a seat with it (that
        device may take more); a seat taken twice is given once."""
        invitation = await found(request, asked)
        if invitation.kind != "seat" or asked.seat is None:
            raise Forbidden("invitation-unknown")
        seat, caller = asked.seat, await devices.caller(request)
        if invitation.spent_by not in (None, caller):
            raise Forbidden("invitation-spent")
        # A seat that cannot be taken is refused before the invitation is spent or a
        # credential given: a refusal leaves the store as it was.
        seating = await games.seating(invitation.game_id)
        if seating is None:
            raise Forbidden("not-at-table")
        seating.claimed(seat, caller or NEW_DEVICE)
        device = await devices.device(request, response)
        if not await run_in_threadpool(games.store.spend, invitation.key, device):
            raise Forbidden("invitation-spent")
        await games.reseat(invitation.game_id, lambda s: s.claimed(seat, device))
        return await table_view(invitation.game_id, request, device)

    @router.post(
        "/api/invitations/watch",
        response_model=None,
        responses={200: {"model": GameView}, **refusals(403, 413, 422, 429, 503)},
    )
    async def watch(asked: Asked, request: Request, response: Response) -> dict[str, Any]:
        """Follow the game from this device, acting for nobody (a watch link, or `İzle` on an
        invitation's screen, which does not spend it)."""
        invitation = await found(request, asked)
        device = await devices.device(request, response)
        await games.reseat(invitation.game_id, lambda s: s.watched_by(device))
        return await table_view(invitation.game_id, request, device)

    @router.post(
        "/api/games/{game_id}/seats/{seat}",
        response_model=None,
        responses={200: {"model": GameView}, **refusals(403, 409, *GAME_REFUSALS)},
    )
    async def move_seat(game_id: str, seat: int, move: Move, request: Request) -> dict[str, Any]:
        """The host hands a seat to the computer (an absent person's, until they come back)
        or takes it back to its own device; a seat's holder takes it back from the computer."""
        device = await devices.caller(request)
        seating = await games.reach(game_id, device, here=here(request))
        record = await games.record(game_id)
        level = games.standin_level(record)

        def moved(current: Seating) -> Seating:
            if move.to == "holder":
                if not 0 <= seat < len(current.holders) or current.holders[seat] != device:
                    raise Forbidden("not-your-seat", seat=seat)
                return current.resumed(seat)
            if current.role(device) != "host":
                raise Forbidden("host-only")
            if move.to == "computer":
                return current.handed_to_computer(seat, level, record.version)
            return current.taken_back(seat)

        moved(seating)  # refused before anything is written
        assert device is not None
        since = seating.standing_since(seat) if move.to == "holder" else None
        await games.reseat(game_id, moved)
        shown = await table_view(game_id, request, device)
        if since is not None:
            shown["stood_in"] = stood_in(await games.record(game_id), seat, since)
        return shown

    return router


def stood_in(record: Record, seat: int, since: int) -> dict[str, Any]:
    """What the computer did for ``seat`` from the log's version ``since`` to now, read from
    the game's states then and now: Yams, the boxes it wrote (in the card's order) with
    their points; 10 000, its turns and the points they banked."""
    then, now = record.upto(since).state, record.state
    if isinstance(now, yams.YamsState) and isinstance(then, yams.YamsState):
        before, after = then.cards[seat], now.cards[seat]
        boxes = [
            {"box": box.name, "points": after[box]}
            for box in yams.Box
            if before[box] is None and after[box] is not None
        ]
        return {"seat": seat, "rounds": len(boxes), "boxes": boxes}
    assert isinstance(now, farkle.FarkleState)
    assert isinstance(then, farkle.FarkleState)
    return {
        "seat": seat,
        "turns": now.turns[seat] - then.turns[seat],
        "points": now.totals[seat] - then.totals[seat],
    }


Reach = Callable[[str, Request], Awaitable[Table]]


def reacher(games: Games, devices: Devices) -> Reach:
    """How a route finds who asks and what they may see of a game (else Forbidden)."""

    async def reach(game_id: str, request: Request) -> Table:
        device = await devices.caller(request)
        seating = await games.reach(game_id, device, here=here(request))
        return Table(seating, device, games.presence(game_id))

    return reach
