"""The routes of play: a new game, the device's games, a game as it is (or was), an
intention, the game's live stream.

The server is the authority: it holds every game, throws the dice and applies the page's
intentions through the engine (:mod:`zar.server.acting`). Every action is committed to the
store before the reply; a stale or repeated action (its ``version`` is not the game's) is
refused with 409 and changes nothing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema
from starlette.concurrency import run_in_threadpool

from zar import ai
from zar.i18n import Language
from zar.names import computer_names, distinct_looks, new_name
from zar.record import HOUSE_RULES, GameKind, Record, house_rules
from zar.server.asking import address, here, language
from zar.server.devices import Devices, Reach
from zar.server.games import Games
from zar.server.intents import Intent
from zar.server.replies import (
    EVENTS,
    GAME_REFUSALS,
    NAME_SCHEMA,
    GameView,
    Listed,
    refusals,
    stream_refusals,
)
from zar.server.streams import EventStream, Streams
from zar.server.views import Table, listed, view
from zar.table import MAX_PEOPLE, MAX_SEATS, IllegalAction, Seat, check_table

__all__ = ["NewGame", "play_routes"]

RULES_SCHEMA: dict[str, Any] = {
    "type": "string",
    "enum": sorted({name for names in HOUSE_RULES.values() for name in names}),
}


class NewGame(BaseModel):
    """The new-game dialog: the game, the people, the computers, the target, the auto-fill."""

    # Strict: "yes" is not true, "5000" is not a target; the page sends the JSON types.
    model_config = ConfigDict(extra="forbid", strict=True)

    game: GameKind
    # A name's rules are zar.table.check_name's, refused with their own words: the schema
    # tells them, the model leaves them to it.
    players: list[Annotated[str, WithJsonSchema(NAME_SCHEMA)]] = Field(
        max_length=MAX_PEOPLE,
        description="the people in seat order: 1 to 24 characters each, no control characters; "
        "none for a table of computers alone",
    )
    computer: bool = Field(default=False, description="one computer after the people")
    level: str | None = Field(default=None, max_length=20, description="the computer's level")
    computers: list[Annotated[str | None, Field(max_length=20)]] | None = Field(
        default=None,
        max_length=MAX_SEATS,
        description="the computers after the people, in seat order, each by its level (null: "
        "the game's default); instead of computer and level",
    )
    target: Literal[5_000, 10_000, 15_000] = 10_000
    # Refused in words by the record (``bad-rules``); the schema lists the names.
    rules: Annotated[str, WithJsonSchema(RULES_SCHEMA)] | None = Field(
        default=None, description="the house rules by name (/api/setup: rules); null: the seeds'"
    )
    autofill: Literal[3, 10, 30] | None = 3
    hints: list[Annotated[str, Field(max_length=24)]] | None = Field(
        default=None,
        max_length=6,
        description="the people who may ask the coach; by default the person playing alone "
        "(or alone against the computer), nobody when two or more people play",
    )


def new_record(body: NewGame, lang: Language) -> Record:
    """The game the dialog asks for (its names and level refused in words by the rules)."""
    rules = house_rules(body.game, body.rules)
    names = [new_name(name) for name in body.players]
    seats = [Seat(name) for name in names] + computer_seats(body, lang, rules)
    hints = None
    if body.hints is not None:
        asked = [unicodedata.normalize("NFC", name) for name in body.hints]
        for name in asked:
            if name not in names:
                raise IllegalAction("not a player", reason="hints-not-players", name=name)
        hints = [names.index(name) for name in asked]
    return Record.new(
        body.game,
        distinct_looks(check_table(seats)),
        target=body.target,
        autofill=body.autofill,
        hints=hints,
        rules=rules,
    )


def computer_seats(body: NewGame, lang: Language, rules: str | None) -> list[Seat]:
    """The computers the dialog seats after the people, in order, named ``IA``, ``IA 2``…:
    one a level of ``computers`` (None: the game's default), or the ``computer`` at
    ``level`` (the seed's "Humains + 1 IA"); both ways at once are refused, and so is a
    level the house rules ``rules`` (their name; None: the seeds') do not offer."""
    if body.computers is None:
        levels = [body.level] if body.computer else []
    elif body.model_fields_set & {"computer", "level"}:
        raise IllegalAction("computers, or computer and level", reason="computers-twice")
    else:
        levels = body.computers
    chosen = [level or ai.DEFAULT_LEVEL[body.game] for level in levels]
    for level in chosen:
        if level not in ai.LEVELS[body.game]:
            raise IllegalAction(f"no level {level!r}", reason="bad-level", level=level)
        if level not in ai.levels(body.game, rules, body.target):
            raise IllegalAction(
                f"no level {level!r} under the rules {rules}",
                reason="bad-level-rules",
                level=level,
                game=body.game,
                rules=rules,
            )
    names = computer_names(lang, len(chosen))
    return [
        Seat(name, computer=True, level=level) for name, level in zip(names, chosen, strict=True)
    ]


def play_routes(
    games: Games,
    devices: Devices,
    reach: Reach,
    streams: Streams,
    ready: Callable[[Record], None] | None = None,
) -> APIRouter:
    """The routes of play over ``games``; ``ready(record)`` is told of each new game (to
    ready the strategies it will ask for)."""
    router = APIRouter()

    @router.post(
        "/api/games",
        status_code=201,
        response_model=None,
        responses={201: {"model": GameView}, **refusals(413, 422, 429, 503)},
    )
    async def new_game(body: NewGame, request: Request, response: Response) -> dict[str, Any]:
        """Start a game: its people in seat order, the computers after them ("Humains + 1 IA",
        or several, each at its level). The device that starts it is its host and holds
        every person's seat."""
        lang = language(request)
        record = new_record(body, lang)
        host = await devices.trusted(request, response)
        game_id = await games.create(record, host)
        if ready is not None:
            ready(record)
        seating = await games.seating(game_id)
        assert seating is not None
        return view(game_id, record, lang, table=Table(seating, host, games.presence(game_id)))

    @router.get(
        "/api/games",
        response_model=None,
        responses={200: {"model": list[Listed]}, **refusals(422, 503)},
    )
    async def list_games(
        request: Request,
        finished: bool | None = None,
        limit: int = Query(50, ge=1, le=200),
        offset: int = Query(0, ge=0, le=1_000_000, description="how many games to skip first"),
    ) -> Response:
        """This device's games (those it hosts, plays a seat of, or watches), those where it
        is its turn first, then the latest, page by page: unfinished ones to continue,
        finished ones for the history; never an abandoned one."""
        device = await devices.caller(request)
        if device is None:
            return JSONResponse([])
        rows = await run_in_threadpool(
            lambda: games.store.games(finished=finished, limit=limit, offset=offset, device=device)
        )
        lang = language(request)  # the computer named in it, whatever each game stored
        # JSON as it is (FastAPI's encoder, walking every value, cost more than the query).
        return JSONResponse(
            [
                {
                    "id": g.id,
                    "game": g.kind,
                    "created_at": g.created_at,
                    "updated_at": g.updated_at,
                    "version": g.version,
                    "finished": g.finished,
                    **listed(g.summary, lang),
                    "my_turn": g.my_turn,
                    "host": g.hosts,
                }
                for g in rows
            ]
        )

    @router.get(
        "/api/games/{game_id}",
        response_model=None,
        responses={200: {"model": GameView}, **refusals(*GAME_REFUSALS)},
    )
    async def get_game(
        game_id: str,
        request: Request,
        at: int | None = Query(None, ge=0, description="the version to show, for a replay"),
    ) -> dict[str, Any]:
        table = await reach(game_id, request)
        record = await games.record(game_id)
        if at is None:
            return view(game_id, record, language(request), table=table)
        return view(game_id, record.upto(at), language(request), replay=True)

    @router.post(
        "/api/games/{game_id}/actions",
        response_model=None,
        responses={200: {"model": GameView}, **refusals(409, 413, 429, *GAME_REFUSALS)},
    )
    async def act(game_id: str, intent: Intent, request: Request) -> Response:
        """Apply an intention of the player whose turn it is (or step the computer's turn),
        made on a device that holds the seat (403 otherwise, the game unchanged). Actions
        past a table's pace from the device or from its address, and undos past a person's
        on the game too, are refused (429, the game unchanged)."""
        device = await devices.caller(request)
        await games.adopted(game_id, device, here=here(request))  # a game from before seats
        await games.act(game_id, intent, device, address(request))
        # The view the device's own streams are sent too: made once for both.
        shown = await streams.shown(game_id, device, language(request), here(request))
        return Response(shown.body, media_type="application/json")

    @router.get(
        "/api/games/{game_id}/events",
        response_class=EventStream,
        status_code=200,  # said, as the stream's reply is made of the streams, not a status
        responses={200: EVENTS, **stream_refusals(429, *GAME_REFUSALS)},
    )
    async def events(game_id: str) -> Response:
        """Server-sent events: the game's state now, then each time it changes (a move, a
        seat taken or handed over, a device come or gone), each with its version as the
        event's id. A stream that comes back (``Last-Event-ID``) gets the state now, whatever
        it missed meanwhile; while a device's stream is open, it is here."""
        return EventStream(streams, game_id)

    return router
