"""The routes of invitations, watchers and seats: a way in for another device, a seat made
one's own, a game followed without acting, a seat handed to the computer or taken back
(who may do each: :mod:`zar.server.rights`).

An invitation's secret travels in the link's fragment (``/#join=…``), which a browser never
sends to a server: the page trades it for a seat in a request's body, then shows the game's
own address. A short code stands for a seat invitation when a camera is not at hand; it is
6 characters (about 30 bits), lives a day, and the joins are rate-limited like new games.
docs/security.md is the threat model.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from zar import farkle, yams
from zar.i18n import Language
from zar.names import seat_names
from zar.record import Record
from zar.refusal import Forbidden
from zar.seating import Seating
from zar.server.asking import address, here
from zar.server.devices import Credential, Devices, key_of, later
from zar.server.games import Games
from zar.server.inviting import InvitationLimit
from zar.server.network import is_loopback, qr_code
from zar.server.replies import GAME_REFUSALS, GameView, Invite, Opened, refusals
from zar.server.rights import (
    WATCHERS_PER_GAME,
    require,
    seats_offered,
    to_claim,
    to_invite,
    to_join_watchers,
    to_move,
    to_open,
    to_watch,
)
from zar.server.views import Table, view
from zar.store import Invitation, Store

__all__ = [
    "invitation_routes",
    "joining_routes",
    "seat_routes",
    "short_code",
    "stood_in",
    "typed_code",
]

INVITATION_HOURS = 24
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud, typed right
CODE_LENGTH = 6


def _nothing() -> None:
    """What an invitation that took nothing from a limit gives back."""


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


async def _seated_view(games: Games, game_id: str, lang: Language, device: str) -> dict[str, Any]:
    """The game as ``device`` sees it at its table, once its seating changed."""
    record = await games.record(game_id)
    seating = await games.seating(game_id)
    assert seating is not None
    return view(game_id, record, lang, table=Table(seating, device, games.presence(game_id)))


async def _found(store: Store, asked: Asked) -> Invitation | None:
    """The invitation asked for, by its short code or its link's secret."""
    code = typed_code(asked.invitation)
    if code is not None:
        return await run_in_threadpool(lambda: store.invitation(code=code))
    return await run_in_threadpool(lambda: store.invitation(key=key_of(asked.invitation)))


async def _game_of(
    games: Games, invitation: Invitation | None
) -> tuple[Seating | None, Record | None]:
    """The seating and the record of an invitation's game (none without an invitation)."""
    if invitation is None:
        return None, None
    return await games.seating(invitation.game_id), await games.record(invitation.game_id)


async def _invited(store: Store, game_id: str, now: str) -> tuple[str, str, str, str]:
    """A new invitation to a seat of the game and one to watch it, from ``now`` on: the
    seat's secret, its short code, the watchers' secret, when both expire."""
    expires = later(now, hours=INVITATION_HOURS)
    join, watch = secrets.token_urlsafe(24), secrets.token_urlsafe(24)

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
    return join, code, watch, expires


def invitation_routes(
    games: Games,
    devices: Devices,
    addresses: Sequence[str] = (),
    *,
    invitations: InvitationLimit | None = None,
) -> APIRouter:
    """The host's route of invitations; links name ``addresses[0]`` when the server serves
    the network (a phone can open it), else the address asked. ``invitations`` counts the
    invitations each device and address makes (None: no limit)."""
    router = APIRouter()

    def base(request: Request) -> str:
        return addresses[0] if addresses else str(request.base_url)

    @router.post(
        "/api/games/{game_id}/invitations",
        status_code=201,
        response_model=None,
        responses={201: {"model": Invite}, **refusals(403, 429, *GAME_REFUSALS)},
    )
    async def invite(game_id: str, request: Request) -> dict[str, Any]:
        """The host asks for a way in for another device: a link (its secret after ``#``),
        the same as a QR code, a short code to type, and a link for watchers."""
        device = await devices.caller(request)
        require(to_invite(await games.reach(game_id, device, here=here(request)), device))
        assert device is not None
        give_back = invitations.invite(device, address(request)) if invitations else _nothing
        try:
            join, code, watch, expires = await _invited(games.store, game_id, games.clock())
        except BaseException:
            give_back()  # not kept: not counted
            raise
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

    return router


def joining_routes(
    games: Games,
    devices: Devices,
    language: Callable[[Request], Language],
    *,
    watchers_per_game: int = WATCHERS_PER_GAME,
) -> APIRouter:
    """The routes of a device let in by an invitation: what it offers, a seat taken with it,
    the game watched with it (by ``watchers_per_game`` devices at most)."""
    router = APIRouter()

    @router.post(
        "/api/invitations/open",
        response_model=None,
        responses={200: {"model": Opened}, **refusals(403, 413, 422, 429, 503)},
    )
    async def open_invitation(asked: Asked, request: Request, response: Response) -> dict[str, Any]:
        """What an invitation offers this device: the game, the seats the host's device still
        holds (each to take), or to watch."""
        invitation = await _found(games.store, asked)
        seating, record = await _game_of(games, invitation)
        # Refused before a credential is given.
        caller = await devices.caller(request)
        require(to_open(invitation, seating, caller, record, games.clock()))
        assert invitation is not None
        assert seating is not None
        assert record is not None
        device = await devices.trusted(request, response)
        return {
            "game": invitation.game_id,
            "kind": invitation.kind,
            "players": seat_names(record.seats, language(request)),
            "seats": [
                {"seat": i, "name": record.seats[i].name}
                for i in seats_offered(seating, invitation, device)
            ],
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
        device may take more); a seat taken twice is given once. One transaction: the
        invitation spent, the seat taken and a new device's credential kept, or none of
        them; the credential is given only then."""
        invitation, seat = await _found(games.store, asked), asked.seat
        seating, record = await _game_of(games, invitation)
        caller = await devices.caller(request)
        require(to_claim(invitation, seating, caller, seat, record, games.clock()))
        assert invitation is not None
        assert seat is not None
        credential = Credential.new() if caller is None else None
        device = credential.key if credential is not None else caller
        assert device is not None

        def claimed(current: Seating) -> Seating:
            require(to_claim(invitation, current, device, seat, record, games.clock()))
            return current.claimed(seat, device)

        def kept(game_id: str, after: Seating) -> None:
            since = games.clock() if credential is not None else None
            if not games.store.claim(game_id, after, invitation.key, device, since):
                raise Forbidden("invitation-spent")

        # Another process seated the game meanwhile: judged again on its seating (reseat).
        await games.reseat(invitation.game_id, claimed, keep=kept)
        if credential is not None:
            devices.give(credential, request, response)
        return await _seated_view(games, invitation.game_id, language(request), device)

    @router.post(
        "/api/invitations/watch",
        response_model=None,
        responses={200: {"model": GameView}, **refusals(403, 413, 422, 429, 503)},
    )
    async def watch(asked: Asked, request: Request, response: Response) -> dict[str, Any]:
        """Follow the game from this device, acting for nobody (a watch link, or `İzle` on an
        invitation's screen, which does not spend it)."""
        invitation = await _found(games.store, asked)
        seating, record = await _game_of(games, invitation)
        require(to_watch(invitation, seating, record, games.clock()))
        assert invitation is not None
        # Refused before a credential is given: past the cap, nothing is stored.
        cap = watchers_per_game
        require(to_join_watchers(seating, await devices.caller(request), cap))
        device = await devices.trusted(request, response)

        def watched(current: Seating) -> Seating:
            require(to_join_watchers(current, device, cap))
            return current.watched_by(device)

        await games.reseat(invitation.game_id, watched)
        return await _seated_view(games, invitation.game_id, language(request), device)

    return router


def seat_routes(
    games: Games, devices: Devices, language: Callable[[Request], Language]
) -> APIRouter:
    """The route of a seat handed to the computer, or taken back."""
    router = APIRouter()

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
            require(to_move(current, device, seat, move.to))
            if move.to == "holder":
                return current.resumed(seat)
            if move.to == "computer":
                return current.handed_to_computer(seat, level, record.version)
            return current.taken_back(seat)

        moved(seating)  # refused before anything is written
        assert device is not None
        since = seating.standing_since(seat) if move.to == "holder" else None
        await games.reseat(game_id, moved)
        shown = await _seated_view(games, game_id, language(request), device)
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
            for box in before.rules.boxes
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
