"""The web app: a JSON API over the engine, live updates, and the page, assembled.

:func:`create_app` makes the parts (the games and their devices, the streams, the luck
accounts), puts the guards in front (the limits, the same-origin rule, the security
headers), has every refusal said by one handler (:mod:`zar.server.refusals`) and gathers the
routes, each set a module of its own: play, seats and invitations, the coach and the
history, the page's setup, the page itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

from zar.ai.coach import Strategies
from zar.dice import DiceSource, SystemDice
from zar.record import Record
from zar.server import refusals
from zar.server.accounts import Accounts, Activity
from zar.server.analysis import analysis_routes, statistics_routes
from zar.server.asking import language
from zar.server.caching import PrivateReplies
from zar.server.devices import Devices, reacher
from zar.server.games import Games
from zar.server.inviting import INVITATION_RATES, InvitationLimit
from zar.server.limits import (
    ACTION_RATES,
    GAMES_PER_MINUTE,
    MAX_BODY_BYTES,
    UNDO_RATES,
    ActionLimit,
    BodyLimit,
    GameStarts,
    Rate,
    SameOrigin,
    SecurityHeaders,
    StartLimit,
    UndoLimit,
)
from zar.server.play_routes import play_routes
from zar.server.pruning import PRUNE_SECONDS, pruning
from zar.server.reads import READ_RATES, ReadBudget, Reads
from zar.server.rights import WATCHERS_PER_GAME
from zar.server.seats import invitation_routes, joining_routes, seat_routes
from zar.server.setup_routes import setup_routes
from zar.server.shell import Shell, add_shell
from zar.server.streams import LiveStreams, Streams
from zar.store import AsyncAppender, Store

__all__ = ["create_app"]

STATIC = Path(str(resources.files("zar.server") / "static"))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def create_app(
    store: Store,
    *,
    dice: DiceSource | None = None,
    clock: Callable[[], str] = _now,
    max_body: int = MAX_BODY_BYTES,
    games_per_minute: int | None = GAMES_PER_MINUTE,
    undo_rates: Mapping[str, Rate] | None = UNDO_RATES,
    read_rates: Mapping[str, Rate] | None = READ_RATES,
    action_rates: Mapping[str, Rate] | None = ACTION_RATES,
    monotonic: Callable[[], float] = time.monotonic,
    close_store: bool = False,
    ready: Callable[[Record], None] | None = None,
    addresses: Sequence[str] = (),
    hosts: Sequence[str] | None = None,
    account_process: Executor | None = None,
    watchers_per_game: int = WATCHERS_PER_GAME,
    invitation_rates: Mapping[str, Rate] | None = INVITATION_RATES,
    keep_abandoned_days: float | None = None,
    prune_every: float = PRUNE_SECONDS,
) -> FastAPI:
    """The app over ``store``; ``dice`` defaults to the operating system's randomness.

    A request body over ``max_body`` bytes is refused (413), and so is a client address's
    new game past ``games_per_minute`` in a minute (429; None: no limit), and an undo past
    the ``undo_rates`` of its game, device or address (429; None: no limit), an action past
    the ``action_rates`` of its device or address (429; None: no limit), and a heavy read
    (a review, an export, a hint...) past the ``read_rates`` of its device or address (429;
    None: no limit), by the clock ``monotonic``. While it serves, it hears other processes'
    changes to a shared store; it closes the store when it stops if ``close_store`` says
    so. ``ready(record)`` is told of each new game (to ready the strategies it will ask
    for). ``addresses`` are the URLs a phone on the same network can open (none when
    serving this machine only); ``hosts`` the names a request's ``Host`` may give (None:
    any, as a test's client asks).
    ``account_process`` works out the finished games' luck accounts (else a worker thread);
    the app shuts it down when it stops.

    A game is watched by ``watchers_per_game`` devices at most; a device or an address
    invites past the ``invitation_rates`` refused (429; None: no limit). The store is
    pruned as the app starts and every ``prune_every`` seconds (:mod:`zar.server.pruning`),
    abandoned games after ``keep_abandoned_days`` (None: kept).
    """
    undos = None if undo_rates is None else UndoLimit(monotonic, undo_rates)
    reads = None if read_rates is None else ReadBudget(monotonic, read_rates)
    actions = None if action_rates is None else ActionLimit(monotonic, action_rates)
    invitations = None if invitation_rates is None else InvitationLimit(monotonic, invitation_rates)
    coach = Strategies()  # the coach's, the review's and the luck accounts' strategies
    accounts = Accounts(store, coach, store.load, process=account_process)
    games = Games(
        store, dice or SystemDice(), clock, undos=undos, actions=actions, accounts=accounts
    )
    devices = Devices(games)
    reach = reacher(games, devices)
    streams = Streams(games, reach, language)

    @asynccontextmanager
    async def serving(app: FastAPI) -> AsyncIterator[None]:
        stop = await games.watch()
        # The games kept without their luck account get it, slowly, while the server idles.
        sweeping = asyncio.create_task(accounts.run())
        # What the store keeps no longer goes, now and every hour.
        pruned = asyncio.create_task(
            pruning(store, clock, keep_abandoned_days, prune_every, done=app.state.pruned.append)
        )
        try:
            yield
        finally:
            for task in (sweeping, pruned):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
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
    # The parts, for a test or an operator to look at: the routes are given what they use.
    app.state.games = games
    app.state.streams = streams
    app.state.pruned = []  # what each pruning of this app's store pruned, in order

    _guard(app, games_per_minute, monotonic, max_body, streams, hosts, accounts)
    routers = (
        play_routes(games, devices, reach, streams, ready),
        invitation_routes(games, devices, addresses, invitations=invitations),
        joining_routes(games, devices, language, watchers_per_game=watchers_per_game),
        seat_routes(games, devices, language),
        analysis_routes(games, reach, coach, Reads(), reads),
        statistics_routes(games, devices, reads),
        setup_routes(addresses),
    )
    refusals.install(app, routers)
    for router in routers:
        app.include_router(router)
    if STATIC.is_dir():
        add_shell(app, Shell.read(STATIC))

    return app


def _guard(
    app: FastAPI,
    games_per_minute: int | None,
    monotonic: Callable[[], float],
    max_body: int,
    streams: Streams,
    hosts: Sequence[str] | None,
    accounts: Accounts,
) -> None:
    """Put the guards in front of the app's routes: what is refused before any rule is
    asked, the stream served in front of the rest, the headers on every reply."""
    # The last added runs first: the headers go on every reply, refusals included.
    if games_per_minute is not None:
        # New games, and joins and claims (each its own count): a script starts hundreds.
        app.add_middleware(
            StartLimit,
            starts=GameStarts(games_per_minute, monotonic),
            reason="too-many-games",
            say=refusals.say,
            paths=lambda path: path == "/api/games",
        )
        app.add_middleware(
            StartLimit,
            starts=GameStarts(games_per_minute, monotonic),
            reason="too-many-joins",
            say=refusals.say,
            paths=lambda path: path.startswith("/api/invitations/"),
        )
    app.add_middleware(SameOrigin, say=refusals.say)
    app.add_middleware(BodyLimit, max_bytes=max_body, say=refusals.say)
    app.add_middleware(PrivateReplies)  # a device's games: kept by no cache
    # Text over 500 bytes is sent gzipped to a browser that takes it; never the event
    # stream (GZipMiddleware leaves text/event-stream alone), which must arrive as it comes.
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(LiveStreams, streams=streams)  # a stream given: none of the above
    if hosts is not None:
        # Another name for this server (DNS rebinding) reaches nothing: 400.
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts), www_redirect=False)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Activity, accounts=accounts)  # the slow pass waits for a quiet server
