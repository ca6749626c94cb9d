"""What the server refuses before any rule is asked, and the headers every reply carries.

A request body past :data:`MAX_BODY_BYTES` is refused with 413, whether it says its length
or streams without one; a client address starting more than ``games_per_minute`` games in
a minute is refused with 429 and told when to come back. Both are plain ASGI middleware,
so that their refusals, like every other reply, pass through :class:`SecurityHeaders`.

An undo the rules allow is counted too (:class:`UndoLimit`), per game, per device and per
client address: a client that sets aside and undoes in a loop grows the game's log for
nothing, and is slowed to a person's pace long before it costs anyone else. Every action
is counted the same way, per device and per address (:class:`ActionLimit`): playing is
never needed faster than a table of people and computers plays, and a script growing a log
without end is held to that pace.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zar.refusal import Refusal, TooMany

__all__ = [
    "ACTION_RATES",
    "GAMES_PER_MINUTE",
    "MAX_BODY_BYTES",
    "SECURITY_HEADERS",
    "UNDO_RATES",
    "ActionLimit",
    "BodyLimit",
    "Buckets",
    "GameStarts",
    "Rate",
    "SameOrigin",
    "SecurityHeaders",
    "StartLimit",
    "TooManyActions",
    "TooManyUndos",
    "UndoLimit",
]

# An intention is under 200 bytes, a new game with six long names under 1 KiB.
MAX_BODY_BYTES = 16 * 1024
# A table starts a game every few minutes; a script starts hundreds.
GAMES_PER_MINUTE = 30
MALFORMED = frozenset({413, 422})  # refusals of what was not a request at all: not counted


@dataclass(frozen=True)
class Rate:
    """A token bucket's: ``burst`` at once, then ``per_second`` as the bucket fills again."""

    burst: int
    per_second: float


# An undo takes back a slip: a person undoes once in a turn, twice at most in 10 000 (the
# bank, then the dice set aside), and never twenty times in a row. A game's bucket holds
# 20 undos and fills again at one a second; a device's twice that, as a host may play a few
# tables at once; an address's six times (a household's or a classroom's tables behind one
# router). A loop of set aside and undo then gets about one undo a second (two entries of
# the log), each costing the same as the first.
UNDO_RATES: Mapping[str, Rate] = {
    "game": Rate(20, 1.0),
    "device": Rate(40, 2.0),
    "address": Rate(120, 6.0),
}

# Every action, the computer's steps included (the page asks for each): a person plays a
# few a second at most, and a table plays one seat at a time, so that even a table of seven
# with six computers on the fast pace (a step every 150 ms) asks for under 7 a second. A
# device's bucket holds 120 actions and fills again at 10 a second (a host may play two or
# three tables at once); an address's 600 at 40 a second (a household's or a classroom's
# tables behind one router). A script then grows logs at 40 entries a second an address.
ACTION_RATES: Mapping[str, Rate] = {
    "device": Rate(120, 10.0),
    "address": Rate(600, 40.0),
}

SECURITY_HEADERS: Mapping[str, str] = {
    # The page is its own files only: no inline script, no other site, never in a frame.
    # Only directives every engine knows: the manifest falls under default-src (WebKit
    # logs an error for manifest-src on every load).
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}

Say = Callable[[Request, Refusal], Response]  # a refusal written in the asker's words


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every reply: the page, static files, the API, refusals."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _TooLarge(Exception):
    """The body went past the limit while it was read."""


class BodyLimit:
    """Refuses a request body over ``max_bytes``: a 413 ``body-too-large``, said by ``say``.

    A declared ``Content-Length`` over the limit is refused before a byte is read; a body
    without one is read up to the limit, then refused. The body is read whole before the
    app sees it: a handler never works on half a request.
    """

    def __init__(self, app: ASGIApp, *, max_bytes: int, say: Say) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.say = say

    def _refuse(self, scope: Scope) -> Response:
        too_large = Refusal("body-too-large", status=413, details={"limit": self.max_bytes // 1024})
        return self.say(Request(scope), too_large)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope)(scope, receive, send)
            return
        try:
            messages = await self._read(receive)
        except _TooLarge:
            await self._refuse(scope)(scope, receive, send)
            return

        async def replay() -> Message:
            return messages.popleft() if messages else await receive()

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive) -> deque[Message]:
        """The body's messages, up to the one that ends it (or a disconnect)."""
        messages: deque[Message] = deque()
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                raise _TooLarge
            if not message.get("more_body", False):
                return messages


class GameStarts:
    """The games each client address started in the last minute.

    ``monotonic`` is the clock (seconds): tests pass one they move by hand.

    >>> now = [0.0]
    >>> starts = GameStarts(2, lambda: now[0])
    >>> starts.admit("a"), starts.admit("a"), starts.admit("a"), starts.admit("b")
    (None, None, 60.0, None)
    >>> now[0] = 60.0
    >>> starts.admit("a")
    """

    WINDOW = 60.0

    def __init__(self, per_minute: int, monotonic: Callable[[], float]) -> None:
        if per_minute < 1:
            raise ValueError(f"at least one game a minute, not {per_minute}")
        self.per_minute = per_minute
        self.monotonic = monotonic
        self._starts: dict[str, deque[float]] = {}

    def admit(self, client: str) -> float | None:
        """Count a new game for ``client`` and return None, or the seconds until it may."""
        now = self.monotonic()
        if len(self._starts) > 4096:
            self._forget(now)
        starts = self._starts.setdefault(client, deque())
        while starts and starts[0] <= now - self.WINDOW:
            starts.popleft()
        if len(starts) >= self.per_minute:
            return starts[0] + self.WINDOW - now
        starts.append(now)
        return None

    def refund(self, client: str) -> None:
        """Take back ``client``'s latest count: what it asked for was not taken (malformed)."""
        starts = self._starts.get(client)
        if starts:
            starts.pop()

    def _forget(self, now: float) -> None:
        """Drop the addresses with no game in the last minute."""
        for client in [c for c, s in self._starts.items() if not s or s[-1] <= now - self.WINDOW]:
            del self._starts[client]


class StartLimit:
    """Refuses a ``POST`` to the ``paths`` (by default ``/api/games``) past the client's count
    a minute: a 429 for ``reason`` with ``Retry-After``, said by ``say``.

    What counts is what was taken: a request is counted when it comes (so that many at once
    cannot all slip in), and the count is taken back if it was malformed (413, 422). A join
    with a wrong code is not malformed: a guess counts."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        starts: GameStarts,
        reason: str,
        say: Say,
        paths: Callable[[str], bool] = lambda path: path == "/api/games",
    ) -> None:
        self.app = app
        self.starts = starts
        self.reason = reason
        self.say = say
        self.paths = paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and self.paths(_path(scope)):
            client = scope.get("client")
            address = str(client[0]) if client else ""
            wait = self.starts.admit(address)
            if wait is not None:
                response = self.say(Request(scope), TooMany(self.reason, max(1, math.ceil(wait))))
                await response(scope, receive, send)
                return

            async def send_counted(message: Message) -> None:
                if message["type"] == "http.response.start" and message["status"] in MALFORMED:
                    self.starts.refund(address)
                await send(message)

            await self.app(scope, receive, send_counted)
            return
        await self.app(scope, receive, send)


class SameOrigin:
    """Refuses a request that would change something (not GET, HEAD or OPTIONS) sent by a
    page of another site: its ``Origin`` is not this server's, or the browser says it is
    cross-site (``Sec-Fetch-Site``). Non-browser clients send neither, and carry no one
    else's credential. A 403 ``cross-origin``, said by ``say``."""

    SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, app: ASGIApp, *, say: Say) -> None:
        self.app = app
        self.say = say

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in self.SAFE and _elsewhere(scope):
            await self.say(Request(scope), Refusal("cross-origin", status=403))(
                scope, receive, send
            )
            return
        await self.app(scope, receive, send)


def _elsewhere(scope: Scope) -> bool:
    """Whether a browser sent the request from a page of another origin."""
    headers = Headers(scope=scope)
    if headers.get("sec-fetch-site") == "cross-site":
        return True
    origin = headers.get("origin")
    if origin is None:
        return False
    host = headers.get("host", "")
    scheme = scope.get("scheme", "http")
    return origin.lower() != f"{scheme}://{host}".lower()


def _path(scope: Mapping[str, Any]) -> str:
    path: str = scope["path"]
    return path.rstrip("/") or "/"


class TooManyUndos(TooMany):
    """The game, the device or the client address has undone as much as it may for now:
    it may again in ``seconds``."""

    def __init__(self, seconds: int) -> None:
        super().__init__("too-many-undos", seconds)


class TooManyActions(TooMany):
    """The device or the client address has played as fast as it may for now: it may again
    in ``seconds``."""

    def __init__(self, seconds: int) -> None:
        super().__init__("too-many-actions", seconds)


class Buckets:
    """What each game, device and client address may do in a row, and how fast again: token
    buckets at the :attr:`RATES` (by what they count: ``game``, ``device``, ``address``), by
    the clock ``monotonic`` (seconds). One mechanism for every budget: :class:`UndoLimit`,
    :class:`ActionLimit`, the heavy reads' (:class:`zar.server.reads.ReadBudget`).

    A request takes one token from each of its buckets, or none (:attr:`Refused` says when
    all will have one); the function :meth:`take` returns gives them back, for a request
    that was not kept after all.
    """

    # Past this many buckets, the full ones (the same as none) are let go.
    KEPT = 4096
    RATES: Mapping[str, Rate]
    Refused: Callable[[int], TooMany]

    def __init__(
        self, monotonic: Callable[[], float], rates: Mapping[str, Rate] | None = None
    ) -> None:
        rates = self.RATES if rates is None else rates
        for rate in rates.values():
            if rate.burst < 1 or rate.per_second <= 0:
                raise ValueError(f"a bucket holds at least one token and fills again, not {rate}")
        self.monotonic = monotonic
        self.rates = rates
        # Per (what, key): the tokens the bucket held, and when.
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}

    def take(
        self, game_id: str, device: str | None, address: str, cost: int = 1
    ) -> Callable[[], None]:
        """Count a request of ``device`` (from ``address``) on the game, worth ``cost``
        tokens (as many as a bucket holds at most); raises :attr:`Refused` if one of their
        buckets holds fewer, counting nothing."""
        now = self.monotonic()
        if len(self._buckets) > self.KEPT:
            self._forget(now)
        keys = [
            (what, key)
            for what, key in (("game", game_id), ("device", device), ("address", address))
            if what in self.rates and key is not None
        ]
        costs = {key: min(cost, self.rates[key[0]].burst) for key in keys}
        held = {key: self._held(key, now) for key in keys}
        short = [
            (costs[key] - tokens) / self.rates[key[0]].per_second for key, tokens in held.items()
        ]
        wait = max(short, default=0.0)
        if wait > 0:
            raise self.Refused(max(1, math.ceil(wait)))
        for key, tokens in held.items():
            self._buckets[key] = (tokens - costs[key], now)

        def give_back() -> None:
            later = self.monotonic()
            for key in keys:
                self._buckets[key] = (self._held(key, later) + costs[key], later)

        return give_back

    def _held(self, key: tuple[str, str], now: float) -> float:
        """The tokens in the bucket ``key`` now: as many as it holds when full, if unknown."""
        rate = self.rates[key[0]]
        tokens, then = self._buckets.get(key, (rate.burst, now))
        return min(float(rate.burst), tokens + (now - then) * rate.per_second)

    def _forget(self, now: float) -> None:
        for key in [k for k in self._buckets if self._held(k, now) >= self.rates[k[0]].burst]:
            del self._buckets[key]


class UndoLimit(Buckets):
    """The undos each game, device and client address may make: token buckets at the
    :data:`UNDO_RATES` (:class:`TooManyUndos` past one).

    >>> now = [0.0]
    >>> undos = UndoLimit(lambda: now[0], {"game": Rate(2, 0.5)})
    >>> give_back = undos.take("g", "d", "a")
    >>> give_back()
    >>> _ = undos.take("g", "d", "a"), undos.take("g", "d", "a")
    >>> try:
    ...     undos.take("g", "d", "a")
    ... except TooManyUndos as refused:
    ...     refused.reason, refused.seconds
    ('too-many-undos', 2)
    >>> _ = undos.take("another game", "d", "a")
    >>> now[0] = 2.0
    >>> _ = undos.take("g", "d", "a")
    """

    RATES = UNDO_RATES
    Refused = TooManyUndos


class ActionLimit(Buckets):
    """The actions each device and client address may make, undos and the computer's steps
    included: token buckets at the :data:`ACTION_RATES` (:class:`TooManyActions` past one).

    >>> now = [0.0]
    >>> actions = ActionLimit(lambda: now[0], {"device": Rate(1, 0.25)})
    >>> _ = actions.take("g", "d", "a")
    >>> try:
    ...     actions.take("another game", "d", "another address")
    ... except TooManyActions as refused:
    ...     refused.reason, refused.seconds
    ('too-many-actions', 4)
    """

    RATES = ACTION_RATES
    Refused = TooManyActions
