"""Serving the app: ``zar serve`` (and ``make run``) on 127.0.0.1, games in a SQLite file,
or in PostgreSQL when ``ZAR_DATABASE_URL`` says so (docs/deploy.md); on the network, for
phones, when ``--host`` or ``ZAR_HOST`` says ``0.0.0.0``.

``app`` is the same app for ``uvicorn --factory zar.server.run:app``, one per worker.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterable, Mapping
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import uvicorn
from fastapi import FastAPI
from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from zar import yams
from zar.ai import computer_player
from zar.ai.ahead import YAMS_STRATEGY, ahead
from zar.ai.players import yams_strategy_after
from zar.ai.warm import Step
from zar.farkle import PRESETS, FarkleRules
from zar.record import Record, farkle_rules, yams_rules
from zar.server import penalty_tables
from zar.server.accounts import account_process
from zar.server.app import create_app
from zar.server.connections import ConnectionLimits, Proxies, guarded_protocol
from zar.server.inviting import INVITATION_RATES
from zar.server.limits import ACTION_RATES, GAMES_PER_MINUTE, Rate, SecurityHeaders
from zar.server.network import WILDCARDS, phone_addresses, url
from zar.server.penalty_tables import PENALTY_PRESETS
from zar.server.processes import own_process
from zar.server.rights import WATCHERS_PER_GAME
from zar.store import SqliteStore, Store, UnusableStore, open_store
from zar.table import Seat

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "app",
    "build_penalty_tables",
    "connection_limits",
    "make_ready",
    "own_process",
    "proxies",
    "serve",
    "warming",
    "where_to_open",
]

DEFAULT_HOST = "127.0.0.1"  # this machine only, unless asked
DEFAULT_PORT = 8000
DEFAULT_TARGET = 10_000  # 10 000's, the target whose penalty tables are built first
# The targets' penalty tables in the order built as the server starts: the dialog's default
# first (about 17 min of processor each), then 5 000 (3 min), then 15 000 (about an hour).
START_TARGETS = (DEFAULT_TARGET, 5_000, 15_000)


def _open(db: Path | None) -> Store:
    """The store ``--db`` names, else ``$ZAR_DATABASE_URL``'s, else ``$ZAR_DB``'s file; one
    that cannot be opened is one line on standard error and exit status 1."""
    try:
        return SqliteStore(db) if db is not None else open_store()
    except UnusableStore as error:
        raise SystemExit(f"zar: {error}") from None


def _games_per_minute() -> int | None:
    """``$ZAR_GAMES_PER_MINUTE``: the new games a client address may start in a minute (``off``:
    no limit), for many tables behind one address; else the app's own limit."""
    value = os.environ.get("ZAR_GAMES_PER_MINUTE", "").strip().lower()
    if not value:
        return GAMES_PER_MINUTE
    if value == "off":
        return None
    if not value.isdigit() or int(value) < 1:
        raise SystemExit(f"zar: ZAR_GAMES_PER_MINUTE is a whole number of games, or off: {value}")
    return int(value)


def _budget(name: str, rates: Mapping[str, Rate]) -> Mapping[str, Rate] | None:
    """``$name`` (``ZAR_ACTION_BUDGET``, ``ZAR_INVITATION_BUDGET``): ``off`` lifts that budget
    of each device and address (a load test's many tables from one address); else
    ``rates``, the app's own."""
    value = os.environ.get(name, "").strip().lower()
    if value in ("", "on"):
        return rates
    if value == "off":
        return None
    raise SystemExit(f"zar: {name} is on or off: {value}")


def _number(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if number <= 0:
        raise SystemExit(f"zar: {name} is a positive number: {value}")
    return number


def _keep_abandoned_days() -> float | None:
    """``$ZAR_KEEP_ABANDONED_DAYS``: the days an abandoned game is kept after its last change
    before it is pruned; unset or ``keep``, every game is kept."""
    value = os.environ.get("ZAR_KEEP_ABANDONED_DAYS", "").strip().lower()
    if value in ("", "keep"):
        return None
    try:
        days = float(value)
    except ValueError:
        days = -1.0
    if not 0 <= days < 1e6:
        raise SystemExit(f"zar: ZAR_KEEP_ABANDONED_DAYS is a number of days, or keep: {value}")
    return days


def _watchers_per_game() -> int:
    """``$ZAR_WATCHERS_PER_GAME``: the devices that may watch one game, else the app's."""
    value = os.environ.get("ZAR_WATCHERS_PER_GAME", "").strip()
    if not value:
        return WATCHERS_PER_GAME
    if not value.isdigit():
        raise SystemExit(f"zar: ZAR_WATCHERS_PER_GAME is a whole number of devices: {value}")
    return int(value)


def _kept() -> dict[str, Any]:
    """What the environment says of the store's bounds and the invitations' budget, as
    :func:`create_app` takes it."""
    return {
        "watchers_per_game": _watchers_per_game(),
        "keep_abandoned_days": _keep_abandoned_days(),
        "invitation_rates": _budget("ZAR_INVITATION_BUDGET", INVITATION_RATES),
    }


def _per_client(default: int | None) -> int | None:
    value = os.environ.get("ZAR_CONNECTIONS_PER_CLIENT", "").strip().lower()
    if value == "off":
        return None
    return int(_number("ZAR_CONNECTIONS_PER_CLIENT", 0)) if value else default


def connection_limits() -> ConnectionLimits:
    """The limits on connections, the defaults but for those the environment sets:
    ``ZAR_HEADER_SECONDS``, ``ZAR_BODY_SECONDS``, ``ZAR_IDLE_SECONDS``, and
    ``ZAR_CONNECTIONS_PER_CLIENT`` (``off``: no cap), ``ZAR_CONNECTIONS`` and ``ZAR_STREAMS``
    (whole numbers)."""
    default = ConnectionLimits()
    return ConnectionLimits(
        header_seconds=_number("ZAR_HEADER_SECONDS", default.header_seconds),
        body_seconds=_number("ZAR_BODY_SECONDS", default.body_seconds),
        idle_seconds=_number("ZAR_IDLE_SECONDS", default.idle_seconds),
        per_client=_per_client(default.per_client),
        total=int(_number("ZAR_CONNECTIONS", default.total)),
        streams=int(_number("ZAR_STREAMS", default.streams)),
    )


def proxies(named: str | None = None) -> Proxies:
    """The front servers whose forwarded headers (``X-Forwarded-For``, ``-Proto``) are
    believed: ``named`` (``--proxies``), else ``$ZAR_PROXIES``; addresses or networks,
    comma-separated. None by default: a header any client can write is no address."""
    value = named if named is not None else os.environ.get("ZAR_PROXIES", "")
    try:
        return Proxies([name for name in value.split(",") if name.strip()])
    except ValueError as error:
        raise SystemExit(f"zar: ZAR_PROXIES names addresses or networks: {error}") from None


def warm_up() -> None:
    """Ready the process for play: the optimal Yams player read from its cache (or built,
    the first time on a machine) and one decision of it made, so that its compiled code is
    loaded before a game asks; then what is alive now (the libraries, the tables, for
    good) frozen out of the garbage collector's full passes, which would otherwise walk
    it all every few seconds under load and hold every request up meanwhile."""
    player = computer_player("yams", "expert")
    alone = yams.YamsSettings((Seat("IA", computer=True, level="expert"),))
    thrown = yams.YamsState.start(alone).apply(yams.Throw(0, (), (1, 2, 3, 5, 5)))
    player.keep(thrown)
    player.box(thrown)
    gc.collect()
    gc.freeze()


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)


def stop_quietly() -> None:
    """SIGTERM stops ``zar serve`` as Ctrl-C does: uvicorn hears either, ends what it
    serves (every game's stream too, :meth:`GuardedProtocol.shutdown`), then sends the
    signal again to the handler it found; for SIGTERM this one, so that the store is closed
    and the server exits with 0, rather than being killed by the signal's default."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _stopped)


def warming() -> bool:
    """Whether ``zar serve`` makes the tables ready ahead in a process of its own
    (``$ZAR_WARM``, ``off``: no, each is read, or built, when a game first asks)."""
    value = os.environ.get("ZAR_WARM", "").strip().lower()
    if value not in ("", "on", "off"):
        raise SystemExit(f"zar: ZAR_WARM is on or off: {value}")
    return value != "off"


def _prepare() -> None:
    """Ready the tables as the server starts: every step ``zar warm`` makes
    (:data:`zar.ai.warm.STEPS`: on a fresh machine built, their code compiled; else read
    in seconds) made in a process of its own, which costs the requests meanwhile nothing
    (a build in a thread here held the interpreter's lock for seconds at a time: the
    game's screen came 16 s after the start); meanwhile a game that asks for one waits
    for it. Then the tables under a penalty for three lost turns in a row, tens of minutes
    each, built one after another in the background (:func:`build_penalty_tables`: no game
    waits for them), and the optimal Yams player read here, before a game asks. With
    ``$ZAR_WARM`` off, nothing is made ready ahead: the Yams player is read if the cache
    holds it, else built by the first game that asks, as every other table."""
    from zar.ai import warm

    if warming():
        make_ready(warm.STEPS)
        build_penalty_tables()
    elif not warm.yams_strategy_kept():
        return

    def ready() -> None:
        yams_strategy_after(lambda: ahead.wait(YAMS_STRATEGY))
        warm_up()

    threading.Thread(target=ready, name="zar-warm-up", daemon=True).start()


def make_ready(steps: Iterable[Step]) -> BaseProcess | None:
    """The ``steps`` not being made already made ready in a process of their own
    (:func:`own_process`), each counted in :data:`zar.ai.ahead.ahead` until that process
    says it is done, or ends; None when there is none to make."""
    from zar.ai import warm

    steps = tuple(steps)
    expected = ahead.expect(step.what for step in steps)
    if not expected:
        return None
    told, tell = multiprocessing.get_context("spawn").Pipe(duplex=False)
    try:
        process = own_process(warm.ahead_of, tuple(s for s in steps if s.what in expected), tell)
    except BaseException:
        for what in expected:
            ahead.done(what)
        raise
    finally:
        tell.close()  # the child's copy tells; at its end, the reader hears EOF
    left = set(expected)  # this process's until it is done

    def hear() -> None:
        try:
            while left:
                what = told.recv()
                left.discard(what)
                ahead.done(what)
        except (EOFError, OSError):
            pass
        finally:
            told.close()
            for what in left:  # ended without them: a game builds them
                ahead.done(what)

    threading.Thread(target=hear, name="zar-tables-told", daemon=True).start()
    return process


def table_asked_for(record: Record) -> tuple[int, FarkleRules] | None:
    """The two-player 10 000 table (its target, the house rules) a new game will ask for:
    when its computer plays for the win, or its coach gives the chances of winning against
    one opponent; else None."""
    if record.kind != "10000" or record.target is None:
        return None
    expert = any(seat.level == "expert" for seat in record.seats)
    coached = len(record.seats) == 2 and bool(record.hints)
    return (record.target, farkle_rules(record.rules)) if expert or coached else None


def table_to_ready(record: Record) -> int | None:
    """The target of the table a new game will ask for (:func:`table_asked_for`) when it is
    to be readied for it; under a penalty for three lost turns in a row only once it is in
    the cache (tens of minutes to build: :func:`build_penalty_tables` builds it in the
    background, the game's computer and coach playing for points meanwhile); else None."""
    asked = table_asked_for(record)
    if asked is None:
        return None
    target, house = asked
    if house.three_lost:
        from zar.ai.farkle import WinStrategy  # numpy: only for such a game

        if not WinStrategy.at_hand(target, house):
            return None
    return target


def build_penalty_tables(record: Record | None = None) -> None:
    """The tables under a penalty for three lost turns in a row wanted, not in the cache,
    built in the background (:mod:`zar.server.penalty_tables`: one at a time, in a process
    of its own at the lowest priority, no request waiting): as the server starts (no
    ``record``) those of every target (:data:`START_TARGETS`), ``facebook`` first; for a
    new game, the one its coach asks for, ahead of those waiting. With ``$ZAR_WARM`` off,
    none."""
    if not warming():
        return
    if record is None:
        wanted = [(t, PRESETS[name]) for t in START_TARGETS for name in PENALTY_PRESETS]
        penalty_tables.builds.want(wanted)
        return
    asked = table_asked_for(record)
    if asked is not None:
        penalty_tables.builds.want([asked], first=True)


def chances_to_ready(record: Record) -> bool:
    """Whether a new Yams game will ask for the chances of winning against one opponent:
    two seats, and its coach on or its computer playing to win (the review reads them
    too, at its end)."""
    to_win = any(seat.level == "win" for seat in record.seats)
    return record.kind == "yams" and len(record.seats) == 2 and (bool(record.hints) or to_win)


def ready_strategies(record: Record) -> None:
    """Read (or, the first time on a machine, build: 8 to 25 s) the table a new game will
    ask for in the background, while the people play their first turn, rather than when
    the computer or the coach first asks; for a Yams game of two, the laws of the last
    rounds and the chance's calibration (17 s the first time); for a Yams game under other
    house rules than ours, their optimal strategy (4 to 10 s the first time); for a 10 000
    table under a penalty for three lost turns in a row not in the cache, its build begun
    (:func:`build_penalty_tables`: tens of minutes, the game playing for points)."""
    if record.kind == "yams" and record.rules is not None:
        from zar.ai import warm

        rules = yams_rules(record.rules)
        if warming() and not warm.yams_strategy_kept(rules):
            make_ready([warm.yams_strategy_of(rules)])
        threading.Thread(
            target=computer_player, args=("yams", "expert", record.rules), daemon=True
        ).start()
    build_penalty_tables(record)
    target = table_to_ready(record)
    if target is not None:
        from zar.ai import cache
        from zar.ai.farkle import CACHE_NAME, WinStrategy  # numpy: only for such a game
        from zar.ai.warm import table_of_two

        house = farkle_rules(record.rules)
        # Not in the cache (another target than the default's, or other house rules than
        # the seeds', which zar warm and the start make ready): built in a process of its
        # own, the game's requests waiting.
        kept = cache.cache_path(CACHE_NAME, WinStrategy.cache_key(target, house)).exists()
        if warming() and not kept:
            make_ready([table_of_two(target, house)])
        threading.Thread(
            target=WinStrategy.load, args=(target,), kwargs={"rules": house}, daemon=True
        ).start()
    if chances_to_ready(record):
        from zar.ai.coach import Strategies
        from zar.ai.yams_win import laws_at_hand

        # In a thread: the strategy may still be loading (its lock is no wait for a request).
        card = yams_rules(record.rules)
        threading.Thread(
            target=lambda: laws_at_hand(Strategies().yams(card)), name="zar-laws", daemon=True
        ).start()


def where_to_open(host: str, port: int, games_in: str, addresses: list[str]) -> list[str]:
    """What ``zar serve`` prints first: the address to open, where the games are kept, and
    for a server on the network each address a phone can open.

    >>> where_to_open("127.0.0.1", 8000, "zar.sqlite3", [])
    ['Zar: http://127.0.0.1:8000/  (games in zar.sqlite3)']
    """
    if not addresses:
        here = url("127.0.0.1" if host in WILDCARDS else host, port)
        lines = [f"Zar: {here}  (games in {games_in})"]
        if host in WILDCARDS:
            lines.append("Zar: this machine has no network address: open it here only")
        return lines
    first, *others = addresses
    return [
        f"Zar: {first}  (games in {games_in})",
        *(f"Zar: {address}" for address in others),
        "Zar: open it on a phone on the same network, or scan the QR code on the home screen",
    ]


LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")  # as a Host header names them


def _named_hosts() -> list[str]:
    """``$ZAR_HOSTS``: the names the server is reached by besides its own addresses
    (comma-separated; ``*.example.org`` for its subdomains), for a front server's name."""
    return [name.strip() for name in os.environ.get("ZAR_HOSTS", "").split(",") if name.strip()]


def allowed_hosts(host: str, addresses: list[str]) -> list[str]:
    """The names a request's ``Host`` may give: this machine's, the address it listens on,
    the addresses a phone opens, and ``$ZAR_HOSTS``. Any other is refused (400): a page of
    another site that renamed itself to this server's address (DNS rebinding) reaches
    nothing.

    >>> allowed_hosts("0.0.0.0", ["http://192.168.1.20:8000/"])
    ['127.0.0.1', 'localhost', '[::1]', '192.168.1.20']
    """
    names = [*LOCAL_NAMES]
    if host not in WILDCARDS:
        names.append(host)
    names += [urlsplit(address).hostname or "" for address in addresses]
    names += _named_hosts()
    # An IPv6 address is named in brackets in a Host header.
    named = (f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names if n)
    return list(dict.fromkeys(name.lower() for name in named))


def serving(app: ASGIApp, trusted: Proxies) -> ASGIApp:
    """What uvicorn serves: the client's address read from the forwarded headers of the
    ``trusted`` proxies alone, and the security headers on every reply, even Starlette's
    500, written outside the app's own middleware."""
    served = SecurityHeaders(app)
    if not trusted:
        return served
    proxied = ProxyHeadersMiddleware(served, trusted_hosts=str(trusted))  # type: ignore[arg-type]
    return proxied  # type: ignore[return-value]


def serve(
    host: str | None = None,
    port: int | None = None,
    db: Path | None = None,
    proxies_named: str | None = None,
) -> None:
    """Serve until stopped; ``ZAR_HOST`` and ``ZAR_PORT`` give where to listen (127.0.0.1:
    this machine only), ``ZAR_DATABASE_URL`` or ``ZAR_DB`` the database,
    ``ZAR_GAMES_PER_MINUTE`` the limit on new games, ``ZAR_ACTION_BUDGET`` and
    ``ZAR_INVITATION_BUDGET`` the budgets of actions and invitations,
    ``ZAR_WATCHERS_PER_GAME`` and ``ZAR_KEEP_ABANDONED_DAYS`` the store's bounds,
    ``ZAR_PROXIES`` (or ``proxies_named``) the front servers believed,
    :func:`connection_limits` what a connection may hold."""
    host = host or os.environ.get("ZAR_HOST", "").strip() or DEFAULT_HOST
    port = port or int(os.environ.get("ZAR_PORT") or DEFAULT_PORT)
    games_per_minute = _games_per_minute()
    kept = _kept()
    action_rates = _budget("ZAR_ACTION_BUDGET", ACTION_RATES)
    trusted = proxies(proxies_named)
    limits = connection_limits()
    store = _open(db)
    addresses = phone_addresses(host, port)
    for line in where_to_open(host, port, store.name, addresses):
        print(line, flush=True)
    _prepare()
    stop_quietly()
    try:
        served = create_app(
            store,
            games_per_minute=games_per_minute,
            action_rates=action_rates,
            ready=ready_strategies,
            addresses=addresses,
            hosts=allowed_hosts(host, addresses),
            account_process=account_process(),
            **kept,
        )
        uvicorn.run(
            serving(served, trusted),
            host=host,
            port=port,
            log_level="warning",
            http=guarded_protocol(limits, trusted),
            ws="none",  # no websockets: an upgrade is a plain request
            proxy_headers=False,  # serving() reads them, from the named proxies only
            timeout_keep_alive=max(1, round(limits.idle_seconds)),
        )
    finally:
        store.close()


def app() -> FastAPI:
    """The app over the store of ``$ZAR_DATABASE_URL`` (or ``$ZAR_DB``), which it closes when
    it stops: ``uvicorn --factory zar.server.run:app --workers 4``."""
    games_per_minute = _games_per_minute()
    kept = _kept()
    action_rates = _budget("ZAR_ACTION_BUDGET", ACTION_RATES)
    _prepare()
    # Behind a front server the names are its own: $ZAR_HOSTS, else whatever it forwards.
    return create_app(
        _open(None),
        games_per_minute=games_per_minute,
        action_rates=action_rates,
        close_store=True,
        ready=ready_strategies,
        hosts=_named_hosts() or None,
        account_process=account_process(),
        **kept,
    )


def __getattr__(name: str) -> Any:
    """``zar.server.run:protocol``, for ``uvicorn --http``: the HTTP protocol of ``zar serve``,
    its limits and proxies from the environment (:func:`connection_limits`, :func:`proxies`),
    made when uvicorn asks for it, in each worker."""
    if name == "protocol":
        return guarded_protocol(connection_limits(), proxies())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
