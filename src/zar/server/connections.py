"""The connections ``zar serve`` takes, and how long it waits on each: what makes a server on
a home network safe without a front server.

uvicorn's HTTP protocol (httptools), with what it lacks: a request's headers are capped
(:attr:`ConnectionLimits.header_bytes`, :attr:`~ConnectionLimits.headers`: 431), must
arrive within :attr:`~ConnectionLimits.header_seconds` of their first byte and the body
within :attr:`~ConnectionLimits.body_seconds` of the headers (408), a connection that says
nothing is closed after :attr:`~ConnectionLimits.idle_seconds`, as uvicorn closes an idle
keep-alive one; an address holds at most :attr:`~ConnectionLimits.per_client` connections
(429) and the server :attr:`~ConnectionLimits.total`. Past the total, the connection that
has waited longest for a request (idle, or its headers still coming) is closed to make
room: a flood of half-sent requests from many addresses churns its own connections, not
the newcomers'; only when every connection is serving a request is a newcomer refused
(503). Each of these replies, and uvicorn's own 400 for what is not HTTP, carries
:data:`~zar.server.limits.SECURITY_HEADERS`.

A game's live stream, once the app lets it in, leaves these counts for a budget of its own
(:attr:`~ConnectionLimits.streams` places, :mod:`zar.server.stream_budget`): streams never
take the places of the requests, their address's or the server's.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import resource
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from zar.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language, text
from zar.server.limits import MAX_BODY_BYTES, SECURITY_HEADERS
from zar.server.stream_budget import StreamBudget
from zar.server.streams import PLACE, STREAM_PATH, TooManyStreams

__all__ = ["ConnectionLimits", "Proxies", "guarded_protocol", "reply"]


def _open_files() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 65536


@dataclass(frozen=True)
class ConnectionLimits:
    """What one connection may send and hold, and how many may be open.

    >>> ConnectionLimits(total=1000).header_bytes
    16384
    """

    # A browser's request to this app has under 2 KiB of headers; the body's own limit.
    header_bytes: int = MAX_BODY_BYTES
    headers: int = 100
    header_seconds: float = 10.0
    body_seconds: float = 10.0
    idle_seconds: float = 5.0
    # A household's or a café's requests (their live streams apart: zar.server.stream_budget).
    per_client: int | None = 256  # None: no cap (many devices behind one address)
    # The connections serving requests (or waiting for one): half the files the process may
    # open, 4096 at most; the live streams, a quarter: the rest for the store and the page.
    total: int = min(4096, _open_files() // 2)
    streams: int = min(4096, _open_files() // 4)


class _Refused(Exception):
    """The request is refused before the app sees it: ``status``, ``reason``, its words
    (the reason's unless said) and the reply's own ``headers``."""

    def __init__(self, status: int, reason: str, *, words: str | None = None,
                 headers: Mapping[str, str] | None = None, **params: object) -> None:  # fmt: skip
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.words = words or reason
        self.headers = dict(headers or {})
        self.params = params


_TOO_SLOW = _Refused(408, "request-too-slow")  # never raised: the same for every connection


_PHRASES = {
    400: b"Bad Request",
    408: b"Request Timeout",
    429: b"Too Many Requests",
    431: b"Request Header Fields Too Large",
    503: b"Service Unavailable",
}


def reply(status: int, reason: str, lang: Language, *, words: str | None = None,
          headers: Mapping[str, str] | None = None, **params: object) -> bytes:  # fmt: skip
    """A whole refusal as the server writes it itself, before it closes the connection: the
    API's JSON (``detail`` in the words ``words``, the reason's unless said, and ``reason``),
    the security headers and ``headers``.

    >>> reply(431, "headers-too-large", "en", limit=16).split(b"\\r\\n")[0]
    b'HTTP/1.1 431 Request Header Fields Too Large'
    """
    said = {"detail": text(lang, words or reason, **params), "reason": reason}
    body = json.dumps(said, ensure_ascii=False).encode()
    head = [f"HTTP/1.1 {status} ".encode() + _PHRASES[status]]
    head += [f"{name}: {value}".encode() for name, value in SECURITY_HEADERS.items()]
    head += [f"{name}: {value}".encode() for name, value in (headers or {}).items()]
    head += [
        b"content-type: application/json",
        f"content-length: {len(body)}".encode(),
        b"connection: close",
    ]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol under :class:`ConnectionLimits`; made by
    :func:`guarded_protocol`, which gives each server its own counts."""

    # Slots: 8 more attributes in uvicorn's instance dict would turn it from one that
    # shares its keys with every connection (296 bytes) into one of its own (1 584).
    __slots__ = (
        "_address",
        "_deadline",
        "_header_bytes",
        "_header_count",
        "_in_body",
        "_in_headers",
        "_late_refusal",
        "_until",
    )

    limits: ClassVar[ConnectionLimits]
    clients: ClassVar[Counter[str]]  # the connections each address holds
    # The connections waiting for a request's headers, the longest-waiting first.
    waiting: ClassVar[dict[GuardedProtocol, None]]
    proxies: ClassVar[Proxies]  # not capped per client: they carry many clients' requests
    places: ClassVar[StreamBudget[GuardedProtocol]]  # the live streams' places
    streaming: ClassVar[set[GuardedProtocol]]  # the connections that are streams, until closed

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timeout_keep_alive = self.limits.idle_seconds  # type: ignore[assignment]
        # One timer a connection, moved on lazily: it fires at the first deadline set, and
        # if the deadline moved meanwhile (a step came in time), waits again for that one.
        self._deadline: asyncio.TimerHandle | None = None
        self._until: float | None = None  # the loop's time the next step is due by
        self._late_refusal: _Refused | None = None  # said then (None: closed)
        self._header_bytes = 0
        self._header_count = 0
        self._in_headers = False
        self._in_body = False
        self._address: str | None = None  # counted in ``clients``

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        cap = self.limits.per_client
        if cap is not None and self.clients[address] >= cap and not self.proxies.named(address):
            self._refuse(_Refused(429, "too-many-client-connections", limit=cap))
            return
        if len(self.connections) - len(self.streaming) > self.limits.total:
            if not self.waiting:  # each connection is serving a request
                self._refuse(_Refused(503, "too-many-connections"))
                return
            longest = next(iter(self.waiting))
            del self.waiting[longest]
            longest._make_room()
        self._address = address
        self.clients[address] += 1
        self.waiting[self] = None
        self._wait(self.limits.idle_seconds, None)

    def connection_lost(self, exc: Exception | None) -> None:
        self._wait(None, None)
        if self._deadline is not None:
            self._deadline.cancel()  # nothing is due: the connection let go of at once
            self._deadline = None
        self.waiting.pop(self, None)
        self._uncount()
        self.places.release(self)
        self.streaming.discard(self)
        super().connection_lost(exc)

    def _uncount(self) -> None:
        """No longer one of its address's connections."""
        if self._address is not None:
            self.clients[self._address] -= 1
            if not self.clients[self._address]:
                del self.clients[self._address]
            self._address = None

    def data_received(self, data: bytes) -> None:
        if not self._in_body:
            self._header_bytes += len(data)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserCallbackError as error:
            if isinstance(error.__context__, _Refused):
                self._refuse(error.__context__)
                return
            raise
        except httptools.HttpParserError:
            self.logger.warning("Invalid HTTP request received.")
            self._refuse(_Refused(400, "not-http"))
            return
        except httptools.HttpParserUpgrade:
            self._unsupported_upgrade_warning()  # served as a plain request: no websockets here
            return
        # The headers' end not yet in sight past the cap: refused without reading more.
        if self._in_headers and self._header_bytes > self.limits.header_bytes:
            self._refuse(self._too_large())

    def shutdown(self) -> None:
        """The server stops (Ctrl-C, SIGTERM): uvicorn lets a request being served finish,
        and waits for it; a game's event stream never finishes by itself, so its connection
        is closed now: the stream ends as if its client had gone (its page says at once that
        it is reconnecting), and the server exits."""
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and _streams(cycle.scope):
            self._wait(None, None)
            self.transport.close()
            return
        super().shutdown()

    def send_400_response(self, msg: str) -> None:
        self._refuse(_Refused(400, "not-http"))

    # Parser callbacks: where a request is in its reading.
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._unset_keepalive_if_required()
        self._in_headers = True
        self._header_count = 0
        self._wait(self.limits.header_seconds, _TOO_SLOW)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.limits.headers:
            raise self._too_large()
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.limits.header_bytes:
            raise self._too_large()
        if len(self.places) >= self.places.total and self._finds_no_place():
            refused = TooManyStreams("server", self.places.total)
            raise _Refused(refused.status, refused.reason, words=refused.words,
                           headers=refused.headers, **refused.details)  # fmt: skip
        self._in_headers = False
        self._in_body = True
        self.waiting.pop(self, None)
        self._wait(self.limits.body_seconds, _TOO_SLOW)
        super().on_headers_complete()
        if _streams(self.scope) and self.cycle is not None:
            take = functools.partial(self._stream, self.cycle)
            self.scope.setdefault("extensions", {})[PLACE] = {"take": take}

    def _finds_no_place(self) -> bool:
        """Whether the request is a stream its address would find no place for, however
        the app let it in: refused before the app reads anything (a refusal costs a write;
        a client behind a named proxy is the app's to tell)."""
        address = self.client[0] if self.client else ""
        if self.parser.get_method() != b"GET" or self.proxies.named(address):
            return False
        path = self.url.partition(b"?")[0].decode("latin-1")
        return STREAM_PATH.fullmatch(path) is not None and self.places.refuses(address)

    def _stream(self, cycle: RequestResponseCycle, address: str) -> None:
        """The request of ``cycle`` is a stream the app lets in (from ``address``, as it
        counts them): the connection takes a place in the streams' budget, and leaves the
        connections serving requests and its address's; when the stream ends, it is closed.
        A stream whose place it took is closed now.
        :class:`~zar.server.streams.TooManyStreams` if it finds no place; then nothing
        changes."""
        given_up = self.places.take(self, address)
        self.streaming.add(self)
        self._uncount()
        cycle.keep_alive = False
        if given_up is not None:
            given_up._wait(None, None)
            given_up.transport.abort()  # its client may not read: nothing left to write

    def on_message_complete(self) -> None:
        self._in_body = False
        self._header_bytes = 0
        self._wait(None, None)
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:
            self.waiting[self] = None  # kept alive: waiting for the next request, the newest

    def _make_room(self) -> None:
        """Closed for a newcomer: said in words if a request had begun."""
        if self._in_headers:
            self._refuse(_Refused(503, "too-many-connections"))
        else:
            self._wait(None, None)
            self.transport.close()

    def _too_large(self) -> _Refused:
        return _Refused(431, "headers-too-large", limit=self.limits.header_bytes // 1024)

    def _wait(self, seconds: float | None, refusal: _Refused | None) -> None:
        """Refuse with ``refusal`` (None: close) unless the next step comes in ``seconds``
        (None: no deadline). Each step of a request sets a deadline: the timer is made
        again only when the new one is earlier than the timer's (a timer cancelled stays
        in the loop's queue until its time, so one made per step would cost every open
        connection three)."""
        self._late_refusal = refusal
        if seconds is None:
            self._until = None  # the timer, if any, finds nothing due
            return
        self._until = until = self.loop.time() + seconds
        if self._deadline is not None and self._deadline.when() <= until:
            return
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_at(until, self._late)

    def _late(self) -> None:
        self._deadline = None
        if self._until is None:
            return
        if self.loop.time() < self._until:  # a step came in time: the next deadline
            self._deadline = self.loop.call_at(self._until, self._late)
            return
        self._until = None
        refusal = self._late_refusal
        if refusal is None or (self.cycle is not None and self.cycle.response_started):
            self.transport.close()
        else:
            self._refuse(refusal)

    def _refuse(self, refusal: _Refused) -> None:
        """Write the refusal, in the words of the language the headers read so far ask for,
        and close the connection."""
        self._wait(None, None)
        self._in_headers = self._in_body = False
        if not self.transport.is_closing():
            self.transport.write(
                reply(
                    refusal.status,
                    refusal.reason,
                    self._lang(),
                    words=refusal.words,
                    headers=refusal.headers,
                    **refusal.params,
                )
            )
            self.transport.close()

    def _lang(self) -> Language:
        for name, value in self.headers or ():
            if name == b"accept-language":
                for part in value.decode("latin-1").split(","):
                    code = part.split(";")[0].strip()[:2].lower()
                    if code in LANGUAGES:
                        return code
        return DEFAULT_LANGUAGE


def _streams(scope: Any) -> bool:
    """Whether the request is for a game's event stream."""
    return scope.get("method") == "GET" and STREAM_PATH.fullmatch(scope.get("path", "")) is not None


class Proxies:
    """The front servers whose ``X-Forwarded-For`` is believed: addresses or networks.

    >>> proxies = Proxies(["10.0.0.0/8", "::1"])
    >>> proxies.named("10.1.2.3"), proxies.named("::1"), proxies.named("127.0.0.1")
    (True, True, False)
    """

    def __init__(self, named: Collection[str]) -> None:
        self.networks = [ipaddress.ip_network(name.strip(), strict=False) for name in named]

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __repr__(self) -> str:
        return f"Proxies({[str(n) for n in self.networks]!r})"

    def named(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def __str__(self) -> str:
        return ",".join(str(network) for network in self.networks)


def guarded_protocol(limits: ConnectionLimits, proxies: Proxies) -> type[asyncio.Protocol]:
    """The HTTP protocol class for ``uvicorn.Config(http=...)``, with its own counts."""
    namespace = {
        "limits": limits,
        "clients": Counter(),
        "waiting": {},
        "proxies": proxies,
        "places": StreamBudget(limits.streams),
        "streaming": set(),
    }
    return type("GuardedProtocol", (GuardedProtocol,), namespace)
