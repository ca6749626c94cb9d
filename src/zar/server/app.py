"""The web app: a JSON API over the engine, live updates, and the page.

The server is the authority: it holds every game, throws the dice (the operating system's
randomness unless a test injects others) and applies the page's intentions through the
engine. Every action is committed to the store before the reply; a stale or repeated
action (its ``version`` is not the game's) is refused with 409 and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import Match, Route

from zar import ai
from zar.ai.coach import Strategies
from zar.dice import DiceSource, SystemDice
from zar.i18n import DEFAULT_LANGUAGE, LANGUAGES, MESSAGES, Language, box_name, explain, text
from zar.names import distinct_looks, new_name
from zar.record import GAMES, GameKind, Record
from zar.seating import Forbidden
from zar.server.accounts import Accounts, Activity
from zar.server.analysis import analysis_routes
from zar.server.games import Games
from zar.server.intents import Intent
from zar.server.limits import (
    GAMES_PER_MINUTE,
    MAX_BODY_BYTES,
    SECURITY_HEADERS,
    UNDO_RATES,
    BodyLimit,
    GameStarts,
    Rate,
    SameOrigin,
    SecurityHeaders,
    StartLimit,
    TooManyUndos,
    UndoLimit,
)
from zar.server.network import qr_code
from zar.server.replies import (
    EVENTS,
    GAME_REFUSALS,
    NAME_SCHEMA,
    GameView,
    Listed,
    Network,
    Setup,
    Words,
    refusals,
    stream_refusals,
)
from zar.server.seats import Devices, here, reacher, seat_routes
from zar.server.shell import Shell, add_shell
from zar.server.streams import RETRY_AFTER_S, LiveStreams, Streams, TooManyStreams, address
from zar.server.views import Table, listed, view
from zar.store import AsyncAppender, Conflict, Store, StoreUnavailable, UnknownGame
from zar.table import MAX_PEOPLE, IllegalAction, Seat, check_seats
from zar.yams import Box

__all__ = ["create_app"]

STATIC = Path(str(resources.files("zar.server") / "static"))


class NewGame(BaseModel):
    """The new-game dialog: the game, the people, the computer, the target, the auto-fill."""

    # Strict: "yes" is not true, "5000" is not a target; the page sends the JSON types.
    model_config = ConfigDict(extra="forbid", strict=True)

    game: GameKind
    # A name's rules are zar.table.check_name's, refused with their own words: the schema
    # tells them, the model leaves them to it.
    players: list[Annotated[str, WithJsonSchema(NAME_SCHEMA)]] = Field(
        min_length=1,
        max_length=6,
        description="the people in seat order: 1 to 24 characters each, no control characters",
    )
    computer: bool = False
    level: str | None = Field(default=None, max_length=20, description="the computer's level")
    target: Literal[5_000, 10_000, 15_000] = 10_000
    autofill: Literal[3, 10, 30] | None = 3
    hints: list[Annotated[str, Field(max_length=24)]] | None = Field(
        default=None,
        max_length=6,
        description="the people who may ask the coach; by default the person playing alone "
        "(or alone against the computer), nobody when two or more people play",
    )


def _lang(request: Request) -> Language:
    """``?lang=`` first, then the browser's languages, then Turkish."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


def _refusal(status: int, message: str, reason: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": message, "reason": reason, **extra}, status_code=status)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class EventStream(StreamingResponse):
    media_type = "text/event-stream"


def _methods(app: FastAPI, request: Request) -> list[str]:
    """Every method the routes at the request's path take (Starlette's 405 names only the
    first route's)."""
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, Route) and route.matches(request.scope)[0] is not Match.NONE:
            methods |= route.methods or set()
    return sorted(methods)


def create_app(
    store: Store,
    *,
    dice: DiceSource | None = None,
    clock: Callable[[], str] = _now,
    max_body: int = MAX_BODY_BYTES,
    games_per_minute: int | None = GAMES_PER_MINUTE,
    undo_rates: Mapping[str, Rate] | None = UNDO_RATES,
    monotonic: Callable[[], float] = time.monotonic,
    close_store: bool = False,
    ready: Callable[[Record], None] | None = None,
    addresses: Sequence[str] = (),
    hosts: Sequence[str] | None = None,
    account_process: Executor | None = None,
) -> FastAPI:
    """The app over ``store``; ``dice`` defaults to the operating system's randomness.

    A request body over ``max_body`` bytes is refused (413), and so is a client address's
    new game past ``games_per_minute`` in a minute (429; None: no limit), and an undo past
    the ``undo_rates`` of its game, device or address (429; None: no limit), by the clock
    ``monotonic``. While it serves, it hears other processes' changes to a shared store;
    it closes the store when it stops if ``close_store`` says so. ``ready(record)`` is
    told of each new game (to ready the strategies it will ask for). ``addresses`` are the
    URLs a phone on the same network can open (none when serving this machine only);
    ``hosts`` the names a request's ``Host`` may give (None: any, as a test's client asks).
    ``account_process`` works out the finished games' luck accounts (else a worker thread);
    the app shuts it down when it stops.
    """
    undos = None if undo_rates is None else UndoLimit(monotonic, undo_rates)
    games = Games(store, dice or SystemDice(), clock, undos=undos)
    coach = Strategies()  # the coach's, the review's and the luck accounts' strategies
    accounts = Accounts(store, coach, store.load, process=account_process)
    games.accounts = accounts
    devices = Devices(games)
    reach = reacher(games, devices)
    streams = Streams(games, reach, _lang)

    @asynccontextmanager
    async def serving(app: FastAPI) -> AsyncIterator[None]:
        stop = await games.watch()
        # The games kept without their luck account get it, slowly, while the server idles.
        sweeping = asyncio.create_task(accounts.run())
        try:
            yield
        finally:
            sweeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeping
            await games.settled()
            accounts.close()
            await run_in_threadpool(stop)
            if isinstance(store, AsyncAppender):
                await store.close_async()  # this loop's connections
            if close_store:
                await run_in_threadpool(store.close)

    app = FastAPI(
        title="Zar",
        version="1",
        # No viewer page: FastAPI's load their scripts from a CDN, which the CSP refuses.
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=serving,
    )
    app.state.games = games
    app.state.reach = reach
    app.state.devices = devices
    app.state.streams = streams

    def too_large(request: Request) -> Response:
        message = text(_lang(request), "body-too-large", limit=max_body // 1024)
        return _refusal(413, message, "body-too-large")

    def too_many(reason: str) -> Callable[[Request, int], Response]:
        def refuse(request: Request, seconds: int) -> Response:
            refusal = _refusal(429, text(_lang(request), reason, seconds=seconds), reason)
            refusal.headers["retry-after"] = str(seconds)
            return refusal

        return refuse

    def elsewhere(request: Request) -> Response:
        return _refusal(403, text(_lang(request), "cross-origin"), "cross-origin")

    # The last added runs first: the headers go on every reply, refusals included.
    if games_per_minute is not None:
        # New games, and joins and claims (each its own count): a script starts hundreds.
        app.add_middleware(
            StartLimit,
            starts=GameStarts(games_per_minute, monotonic),
            refuse=too_many("too-many-games"),
            paths=lambda path: path == "/api/games",
        )
        app.add_middleware(
            StartLimit,
            starts=GameStarts(games_per_minute, monotonic),
            refuse=too_many("too-many-joins"),
            paths=lambda path: path.startswith("/api/invitations/"),
        )
    app.add_middleware(SameOrigin, refuse=elsewhere)
    app.add_middleware(BodyLimit, max_bytes=max_body, refuse=too_large)
    # Text over 500 bytes is sent gzipped to a browser that takes it; never the event
    # stream (GZipMiddleware leaves text/event-stream alone), which must arrive as it comes.
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(LiveStreams, streams=streams)  # a stream given: none of the above
    if hosts is not None:
        # Another name for this server (DNS rebinding) reaches nothing: 400.
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts), www_redirect=False)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Activity, accounts=accounts)  # the slow pass waits for a quiet server

    @app.exception_handler(HTTPException)
    async def refused(request: Request, error: HTTPException) -> Response:
        """No such page or method (404, 405), a body that is not text (422): said like every
        other refusal."""
        lang = _lang(request)
        status = error.status_code
        headers = dict(error.headers or {})
        match status:
            case 404:
                reason, message = "not-found", text(lang, "not-found")
            case 405:
                reason, message = "method-not-allowed", text(lang, "method-not-allowed")
                headers["allow"] = ", ".join(_methods(app, request))
            case _:
                status, reason = 422, "bad-request"
                message = text(lang, "bad-request", where="body")
        response = _refusal(status, message, reason)
        response.headers.update(headers)
        return response

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        lang = _lang(request)
        where = "; ".join(
            ".".join(str(p) for p in e.get("loc", ())[1:]) or "body" for e in error.errors()
        )
        return _refusal(422, text(lang, "bad-request", where=where), "bad-request")

    @app.exception_handler(IllegalAction)
    async def illegal(request: Request, error: IllegalAction) -> JSONResponse:
        return _refusal(422, explain(error, _lang(request)), error.reason)

    @app.exception_handler(UnknownGame)
    async def unknown(request: Request, error: UnknownGame) -> JSONResponse:
        return _refusal(404, text(_lang(request), "unknown-game"), "unknown-game")

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, error: Forbidden) -> JSONResponse:
        """What this device's credential does not grant: said, and nothing changed."""
        return _refusal(403, text(_lang(request), f"forbidden-{error.reason}"), error.reason)

    @app.exception_handler(TooManyStreams)
    async def too_many_streams(request: Request, error: TooManyStreams) -> JSONResponse:
        message = text(_lang(request), f"too-many-streams-{error.what}", limit=error.limit)
        refusal = _refusal(429, message, "too-many-streams")
        refusal.headers["retry-after"] = str(RETRY_AFTER_S)
        return refusal

    @app.exception_handler(TooManyUndos)
    async def too_many_undos(request: Request, error: TooManyUndos) -> Response:
        """A client undoing in a loop: slowed, the game unchanged."""
        return too_many("too-many-undos")(request, error.seconds)

    @app.exception_handler(Conflict)
    async def conflict(request: Request, error: Conflict) -> JSONResponse:
        message = text(_lang(request), "stale-version")
        return _refusal(409, message, "stale-version", version=error.version)

    @app.exception_handler(StoreUnavailable)
    async def unavailable(request: Request, error: StoreUnavailable) -> JSONResponse:
        """The disk is full, read-only, or the database out of reach: nothing was changed."""
        reason = "not-saved" if error.writing else "not-read"
        return _refusal(503, text(_lang(request), reason), reason)

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        """A fault of the server's own (a bug): said in words, with the security headers,
        which the middleware cannot add here. The game was not changed: an action counts
        only once stored, and the cached record is replaced only after that."""
        response = _refusal(500, text(_lang(request), "server-error"), "server-error")
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.post(
        "/api/games",
        status_code=201,
        response_model=None,
        responses={201: {"model": GameView}, **refusals(413, 422, 429, 503)},
    )
    async def new_game(body: NewGame, request: Request, response: Response) -> dict[str, Any]:
        """Start a game: its players in seat order, the computer last ("Humains + 1 IA"). The
        device that starts it is its host and holds every person's seat."""
        lang = _lang(request)
        names = [new_name(name) for name in body.players]
        people = [Seat(name) for name in names]
        seats = list(people)
        if body.computer:
            level = body.level or ai.DEFAULT_LEVEL[body.game]
            if level not in ai.LEVELS[body.game]:
                raise IllegalAction(f"no level {level!r}", reason="bad-level", level=level)
            seats.append(Seat(text(lang, "computer"), computer=True, level=level))
        hints = None
        if body.hints is not None:
            asked = [unicodedata.normalize("NFC", name) for name in body.hints]
            for name in asked:
                if name not in names:
                    raise IllegalAction("not a player", reason="hints-not-players", name=name)
            hints = [names.index(name) for name in asked]
        record = Record.new(
            body.game,
            distinct_looks(check_seats(seats, max_computers=1)),
            target=body.target,
            autofill=body.autofill,
            hints=hints,
        )
        host = await devices.device(request, response)
        game_id = await games.create(record, host)
        if ready is not None:
            ready(record)
        seating = await games.seating(game_id)
        assert seating is not None
        return view(game_id, record, lang, table=Table(seating, host, games.presence(game_id)))

    @app.get(
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
        lang = _lang(request)  # the computer named in it, whatever each game stored
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

    @app.get(
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
            return view(game_id, record, _lang(request), table=table)
        return view(game_id, record.upto(at), _lang(request), replay=True)

    @app.post(
        "/api/games/{game_id}/actions",
        response_model=None,
        responses={200: {"model": GameView}, **refusals(409, 413, 429, *GAME_REFUSALS)},
    )
    async def act(game_id: str, intent: Intent, request: Request) -> Response:
        """Apply an intention of the player whose turn it is (or step the computer's turn),
        made on a device that holds the seat (403 otherwise, the game unchanged). Undos past
        a person's pace, on the game, from the device or from its address, are refused
        (429, the game unchanged)."""
        table = await reach(game_id, request)  # 403 before anything: not at the table
        await games.act(game_id, intent, table.device, address(request))
        # The view the device's own streams are sent too: made once for both.
        shown = await streams.shown(game_id, table.device, _lang(request), here(request))
        return Response(shown.body, media_type="application/json")

    @app.get(
        "/api/games/{game_id}/events",
        response_class=EventStream,
        responses={200: EVENTS, **stream_refusals(429, *GAME_REFUSALS)},
    )
    async def events(game_id: str, request: Request) -> StreamingResponse:
        """Server-sent events: the game's state now, then each time it changes (a move, a
        seat taken or handed over, a device come or gone), each with its version as the
        event's id. A stream that comes back (``Last-Event-ID``) gets the state now, whatever
        it missed meanwhile; while a device's stream is open, it is here."""
        table = await reach(game_id, request)  # 404, 403 before the stream starts
        ticket = streams.admit(game_id, table.device, address(request))  # 429 past the caps
        # Served in front of the app (LiveStreams) when it is given: here when it is asked
        # of the app alone (a test's client).
        chunks = streams.events(game_id, table.device, _lang(request), local=here(request))
        return StreamingResponse(
            chunks,
            media_type="text/event-stream",
            headers={"cache-control": "no-store"},
            background=BackgroundTask(ticket.release),
        )

    @app.get("/api/setup", response_model=None, responses={200: {"model": Setup}})
    async def setup() -> dict[str, Any]:
        """The new-game dialog's choices: games, computer levels, targets, auto-fill delays."""
        return {
            "games": list(GAMES),
            "levels": {game: list(levels) for game, levels in ai.LEVELS.items()},
            "default_level": ai.DEFAULT_LEVEL,
            "targets": [5_000, 10_000, 15_000],
            "default_target": 10_000,
            "autofill": [3, 10, 30, None],
            "default_autofill": 3,
            "max_people": MAX_PEOPLE,
            "languages": list(LANGUAGES),
        }

    @app.get(
        "/api/i18n/{lang}",
        response_model=None,
        responses={200: {"model": Words}, **refusals(422)},
    )
    async def words(lang: Language) -> dict[str, Any]:
        """The page's words in ``lang``."""
        return {
            "lang": lang,
            "messages": {key: values[lang] for key, values in MESSAGES.items()},
            "boxes": {box.name: box_name(box, lang) for box in Box},
        }

    # Drawn once: the addresses do not change while the app serves.
    phone = {"addresses": list(addresses), "qr": qr_code(addresses[0]) if addresses else None}

    @app.get("/api/network", response_model=None, responses={200: {"model": Network}})
    async def network() -> dict[str, Any]:
        """Where a phone on the same network opens the app, and a QR code of the first."""
        return phone

    app.include_router(analysis_routes(_lang, coach))
    app.include_router(seat_routes(games, devices, _lang, addresses))

    if STATIC.is_dir():
        add_shell(app, Shell.read(STATIC))

    return app
