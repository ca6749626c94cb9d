"""The web app: a JSON API over the engine, live updates, and the page.

The server is the authority: it holds every game, throws the dice (the operating system's
randomness unless a test injects others) and applies the page's intentions through the
engine. Every action is committed to the store before the reply; a stale or repeated
action (its ``version`` is not the game's) is refused with 409 and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Match, Route

from zar import ai
from zar.dice import DiceSource, SystemDice
from zar.i18n import DEFAULT_LANGUAGE, LANGUAGES, MESSAGES, Language, box_name, explain, text
from zar.record import GAMES, GameKind, Record
from zar.server.analysis import analysis_routes
from zar.server.intents import Intent, actions_for
from zar.server.limits import (
    GAMES_PER_MINUTE,
    MAX_BODY_BYTES,
    SECURITY_HEADERS,
    BodyLimit,
    GameStarts,
    SecurityHeaders,
    StartLimit,
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
from zar.server.shell import Shell, add_shell
from zar.server.views import summary, view
from zar.store import Conflict, Store, StoreUnavailable, UnknownGame
from zar.table import MAX_PEOPLE, IllegalAction, Seat, check_seats
from zar.yams import Box

__all__ = ["create_app"]

STATIC = Path(str(resources.files("zar.server") / "static"))

# The games a process keeps replayed in memory (about 30 KiB each): those played lately.
GAMES_KEPT = 2_000


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


class Games:
    """The games this process serves: the store, a cache of records, one lock per game.

    Other processes may move a game on in a shared store: the store tells (``watch``), and
    an intention made on a version ahead of the cached one reads the game again first.
    """

    def __init__(
        self,
        store: Store,
        dice: DiceSource,
        clock: Callable[[], str],
        *,
        kept: int = GAMES_KEPT,
    ) -> None:
        self.store = store
        self.dice = dice
        self.clock = clock
        self.kept = kept
        # The games played lately, the least recent first; the others are read again.
        self._records: OrderedDict[str, Record] = OrderedDict()
        # A lock per game while someone acts on it: [lock, how many hold or wait for it].
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self._listeners: dict[str, set[asyncio.Queue[int]]] = {}
        self._latest: dict[str, int] = {}  # the latest version heard of, per game kept

    @contextlib.asynccontextmanager
    async def serial(self, game_id: str) -> AsyncIterator[None]:
        """Hold the game's lock: one action at a time on a game, none waiting on another
        game's. The lock lives while someone holds it or waits for it, no longer."""
        lock, users = self._locks.setdefault(game_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[game_id]

    def _keep(self, game_id: str, record: Record) -> None:
        self._records[game_id] = record
        self._records.move_to_end(game_id)
        while len(self._records) > self.kept:
            oldest, _ = self._records.popitem(last=False)
            self._latest.pop(oldest, None)

    async def record(self, game_id: str) -> Record:
        record = self._records.get(game_id)
        if record is not None:
            self._records.move_to_end(game_id)
            return record
        record = await run_in_threadpool(self.store.load, game_id)
        cached = self._records.get(game_id)
        if cached is not None and cached.version >= record.version:
            return cached  # acted on while it was read
        if record.version >= self._latest.get(game_id, 0):
            self._keep(game_id, record)  # else it was overtaken: not kept
        return record

    async def peek(self, game_id: str) -> Record:
        """The game as cached, else as stored, without keeping it: for reading many finished
        games at once (the statistics) without pushing the games in play out of memory."""
        record = self._records.get(game_id)
        if record is not None:
            return record
        return await run_in_threadpool(self.store.load, game_id)

    async def create(self, record: Record) -> str:
        game_id = secrets.token_urlsafe(9)
        await run_in_threadpool(self.store.create, game_id, record, self.clock(), summary(record))
        self._keep(game_id, record)
        return game_id

    async def act(self, game_id: str, intent: Intent) -> Record:
        """Apply an intention: refused (IllegalAction, Conflict) or stored, then announced.

        A store that cannot take it (StoreUnavailable) leaves the cached game as it was.
        """
        await self.record(game_id)  # no game, no lock kept for its id (UnknownGame)
        async with self.serial(game_id):
            record = await self.record(game_id)
            if intent.version > record.version:
                # Another process moved the game on since this one read it: read it again.
                self._records.pop(game_id, None)
                record = await self.record(game_id)
            if intent.version != record.version:
                raise Conflict(record.version)
            # The rules, the computer's thinking and the dice in a worker thread: a slow step
            # (an expert's tables built on first use) holds up this game only.
            actions = await run_in_threadpool(actions_for, record, intent, self.dice)
            after = record
            for action in actions:
                after = after.append(action)
            try:
                await run_in_threadpool(
                    self.store.append,
                    game_id,
                    record.version,
                    actions,
                    self.clock(),
                    finished=after.state.is_over,
                    summary=summary(after),
                )
            except Conflict:
                self._records.pop(game_id, None)  # another process moved it on: read it again
                raise
            self._keep(game_id, after)
        self.changed(game_id, after.version)
        return after

    def changed(self, game_id: str | None, version: int) -> None:
        """The game is at ``version`` now, moved on here or by another process (``None``:
        any game may have moved): an older cached record goes, and its followers wake.

        Every wake-up comes through here, once per version: this process's own appends,
        and the store's word of every process's appends (this one's included).
        """
        if game_id is None:
            self._records.clear()
            for queues in self._listeners.values():
                for queue in queues:
                    queue.put_nowait(0)
            return
        cached = self._records.get(game_id)
        if cached is not None and cached.version < version:
            del self._records[game_id]
        if version <= self._latest.get(game_id, -1):
            return  # heard already
        self._latest[game_id] = version
        for queue in self._listeners.get(game_id, ()):
            queue.put_nowait(version)

    async def watch(self) -> Callable[[], None]:
        """Hear the appends of other processes sharing the store; returns how to stop."""
        loop = asyncio.get_running_loop()

        def heard(game_id: str | None, version: int) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: stopping anyway
                loop.call_soon_threadsafe(self.changed, game_id, version)

        return await run_in_threadpool(self.store.watch, heard)

    async def follow(self, game_id: str) -> AsyncIterator[int]:
        """The game's versions as they come, for a second screen following live."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._listeners.setdefault(game_id, set()).add(queue)
        try:
            while True:
                try:
                    yield await asyncio.wait_for(queue.get(), timeout=15)
                except TimeoutError:
                    yield -1  # a keep-alive
        finally:
            self._listeners[game_id].discard(queue)


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
    monotonic: Callable[[], float] = time.monotonic,
    close_store: bool = False,
    ready: Callable[[Record], None] | None = None,
    addresses: Sequence[str] = (),
) -> FastAPI:
    """The app over ``store``; ``dice`` defaults to the operating system's randomness.

    A request body over ``max_body`` bytes is refused (413), and so is a client address's
    new game past ``games_per_minute`` in a minute (429; None: no limit), by the clock
    ``monotonic``. While it serves, it hears other processes' changes to a shared store;
    it closes the store when it stops if ``close_store`` says so. ``ready(record)`` is
    told of each new game (to ready the strategies it will ask for). ``addresses`` are the
    URLs a phone on the same network can open (none when serving this machine only).
    """
    games = Games(store, dice or SystemDice(), clock)

    @asynccontextmanager
    async def serving(app: FastAPI) -> AsyncIterator[None]:
        stop = await games.watch()
        try:
            yield
        finally:
            await run_in_threadpool(stop)
            if close_store:
                await run_in_threadpool(store.close)

    app = FastAPI(
        title="Zar",
        version="1",
        docs_url="/api/docs",
        openapi_url="/api/openapi.json",
        lifespan=serving,
    )
    app.state.games = games

    def too_large(request: Request) -> Response:
        message = text(_lang(request), "body-too-large", limit=max_body // 1024)
        return _refusal(413, message, "body-too-large")

    def too_many_games(request: Request, seconds: int) -> Response:
        message = text(_lang(request), "too-many-games", seconds=seconds)
        refusal = _refusal(429, message, "too-many-games")
        refusal.headers["retry-after"] = str(seconds)
        return refusal

    # The last added runs first: the headers go on every reply, refusals included.
    if games_per_minute is not None:
        starts = GameStarts(games_per_minute, monotonic)
        app.add_middleware(StartLimit, starts=starts, refuse=too_many_games)
    app.add_middleware(BodyLimit, max_bytes=max_body, refuse=too_large)
    # Text over 500 bytes is sent gzipped to a browser that takes it; never the event
    # stream (GZipMiddleware leaves text/event-stream alone), which must arrive as it comes.
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(SecurityHeaders)

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
    async def new_game(body: NewGame, request: Request) -> dict[str, Any]:
        """Start a game: its players in seat order, the computer last ("Humains + 1 IA")."""
        lang = _lang(request)
        people = [Seat(name) for name in body.players]
        seats = list(people)
        if body.computer:
            level = body.level or ai.DEFAULT_LEVEL[body.game]
            if level not in ai.LEVELS[body.game]:
                raise IllegalAction(f"no level {level!r}", reason="bad-level", level=level)
            seats.append(Seat(text(lang, "computer"), computer=True, level=level))
        hints = None
        if body.hints is not None:
            for name in body.hints:
                if name not in body.players:
                    raise IllegalAction("not a player", reason="hints-not-players", name=name)
            hints = [body.players.index(name) for name in body.hints]
        record = Record.new(
            body.game,
            check_seats(seats, max_computers=1),
            target=body.target,
            autofill=body.autofill,
            hints=hints,
        )
        game_id = await games.create(record)
        if ready is not None:
            ready(record)
        return view(game_id, record, lang)

    @app.get(
        "/api/games",
        response_model=None,
        responses={200: {"model": list[Listed]}, **refusals(422, 503)},
    )
    async def list_games(
        finished: bool | None = None,
        limit: int = Query(50, ge=1, le=200),
        offset: int = Query(0, ge=0, le=1_000_000, description="how many games to skip first"),
    ) -> list[dict[str, Any]]:
        """Games, the latest first, page by page: unfinished ones to continue, finished ones
        for the history; never an abandoned one."""
        rows = await run_in_threadpool(
            games.store.games, finished=finished, limit=limit, offset=offset
        )
        return [
            {
                "id": g.id,
                "game": g.kind,
                "created_at": g.created_at,
                "updated_at": g.updated_at,
                "version": g.version,
                "finished": g.finished,
                **g.summary,
            }
            for g in rows
        ]

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
        record = await games.record(game_id)
        if at is None:
            return view(game_id, record, _lang(request))
        return view(game_id, record.upto(at), _lang(request), replay=True)

    @app.post(
        "/api/games/{game_id}/actions",
        response_model=None,
        responses={200: {"model": GameView}, **refusals(409, 413, *GAME_REFUSALS)},
    )
    async def act(game_id: str, intent: Intent, request: Request) -> dict[str, Any]:
        """Apply an intention of the player whose turn it is (or step the computer's turn)."""
        record = await games.act(game_id, intent)
        return view(game_id, record, _lang(request))

    @app.get(
        "/api/games/{game_id}/events",
        response_class=EventStream,
        responses={200: EVENTS, **stream_refusals(*GAME_REFUSALS)},
    )
    async def events(game_id: str, request: Request) -> StreamingResponse:
        """Server-sent events: the game's state each time it changes."""
        lang = _lang(request)
        await games.record(game_id)  # 404 for an unknown game

        async def stream() -> AsyncIterator[str]:
            record = await games.record(game_id)
            yield f"data: {json.dumps(view(game_id, record, lang))}\n\n"
            async for version in games.follow(game_id):
                if await request.is_disconnected():
                    break
                if version < 0:
                    yield ": keep-alive\n\n"
                    continue
                record = await games.record(game_id)
                yield f"data: {json.dumps(view(game_id, record, lang))}\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

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

    app.include_router(analysis_routes(_lang))

    if STATIC.is_dir():
        add_shell(app, Shell.read(STATIC))

    return app
