"""A game's live stream (server-sent events), served lean.

A stream lives as long as a device follows a game, hours perhaps, and by the thousand:
what it holds meanwhile is what counts. The app's route (``GET /api/games/{id}/events``)
documents the stream and refuses in words what it must refuse; a stream it would give is
served by :class:`LiveStreams` instead, in front of the app's middleware and routing, whose
frames would otherwise live as long as each stream. A stream then holds a coroutine, a
task that hears the client go, its place among the game's followers and what it last sent;
each change is written to it as the game's followers are told of it, its task left asleep.

What a game shows is the same for every device in the same place at its table (every
watcher, say): it is made once a change, for all of them, not once for each.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from typing import Any, NamedTuple

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zar.i18n import Language
from zar.record import Record
from zar.refusal import Forbidden, Refusal, TooMany
from zar.seating import Seating
from zar.server.asking import address, here
from zar.server.devices import Reach
from zar.server.followers import Follower
from zar.server.games import Games
from zar.server.rights import require, to_read
from zar.server.views import Table, game_view, table_view

__all__ = [
    "KEEP_ALIVE",
    "PLACE",
    "STALLED_S",
    "STREAM_LIFE_S",
    "STREAM_PATH",
    "EventStream",
    "LiveStreams",
    "Streams",
    "TooManyStreams",
]

KEEP_ALIVE = b"event: alive\ndata: 1\n\n"  # the page hears that the link holds
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
]
STREAM_PATH = re.compile(r"/api/games/([^/]+)/events")  # a game's stream, its id
# The ASGI extension by which ``zar serve`` gives a stream let in a place of the streams'
# own (zar.server.stream_budget): ``{"take": take}``, ``take(address)`` raising
# TooManyStreams when there is none. Another server has none: its streams are its own.
PLACE = "zar.stream_place"

# How many streams a client may hold open. A phone follows a game in a tab or two, and a
# stream coming back may overlap the one it replaces: a few per game. A device may follow
# many games (a host of several tables): a few dozen in all. Credentials are free to make
# (a new game gives one), so an address is bounded too: a household's phones behind one
# router, not a script's thousands. Past these, 429 in words, nothing else changes.
STREAMS_PER_GAME = 4  # per device, on one game
STREAMS_PER_DEVICE = 32  # per device, on every game
STREAMS_PER_ADDRESS = 256  # per client address
RETRY_AFTER_S = 15

# A stream the client has stopped reading fills the socket's buffers, then a write waits:
# one not taken within STALLED_S (two keep-alives) ends the stream, and frees its place
# under the caps. A stream gone quiet on a quiet game fills nothing: it lives STREAM_LIFE_S
# at most (less up to LIFE_SPREAD of it, drawn), then ends, and a browser comes back by
# itself (EventSource) to the state now. A client gone without a word is found by the
# keep-alives: unanswered, the system gives the connection up (in about 15 minutes).
STALLED_S = 30.0
STREAM_LIFE_S = 3600.0
LIFE_SPREAD = 0.1


class TooManyStreams(TooMany):
    """A client already holds as many streams as it may (``limit``, of ``what``)."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(
            "too-many-streams", RETRY_AFTER_S, words=f"too-many-streams-{what}", limit=limit
        )
        self.what = what
        self.limit = limit


class _Ticket:
    """One stream counted against its device's and its address's caps, until released."""

    __slots__ = ("_counts", "_keys")

    def __init__(self, counts: Counter[object], keys: tuple[object, ...]) -> None:
        self._counts = counts
        self._keys: tuple[object, ...] = keys
        for key in keys:
            counts[key] += 1

    def release(self) -> None:
        for key in self._keys:
            self._counts[key] -= 1
            if not self._counts[key]:
                del self._counts[key]
        self._keys = ()


class Shown(NamedTuple):
    """What a game shows a device: at which version, and its view as an event."""

    version: int
    event: bytes

    @property
    def body(self) -> bytes:
        """The view alone, as JSON."""
        return self.event[self.event.index(b"data: ") + 6 : -2]


Shared = tuple[bytes, bool, bool]  # what a game shows everyone, as JSON; can_hint, can_undo


class Streams:
    """The event streams of the games this process serves."""

    def __init__(self, games: Games, reach: Reach, lang: Callable[[Request], Language]) -> None:
        self.games = games
        self.reach = reach
        self.lang = lang
        self.stalled_s = STALLED_S
        self.life_s = STREAM_LIFE_S
        # Per game followed: at which of its changes (Games.stamp), what it shows everyone in
        # each language, what it shows each place.
        self._shown: dict[str, tuple[int, dict[str, Shared], dict[tuple[object, ...], Shown]]] = {}
        self._followers: dict[str, int] = {}
        self._held: Counter[object] = Counter()  # streams open per (device, game), device, address

    def admit(self, game_id: str, device: str | None, address: str) -> _Ticket:
        """Count a new stream of ``device`` (from ``address``) on the game, or refuse it
        (:class:`TooManyStreams`) if its device or its address holds as many as it may."""
        caps = (
            (("game", device, game_id), STREAMS_PER_GAME),
            (("device", device), STREAMS_PER_DEVICE),
            (("address", address), STREAMS_PER_ADDRESS),
        )
        for key, limit in caps:
            if self._held[key] >= limit:
                raise TooManyStreams(str(key[0]), limit)
        return _Ticket(self._held, tuple(key for key, _ in caps))

    async def shown(self, game_id: str, device: str | None, lang: Language, local: bool) -> Shown:
        """What the game shows ``device`` now: made once a change for every device in its
        place while the game is followed here (the reply to a move included)."""
        stamp = self.games.stamp(game_id)  # before reading: what is read is at least as new
        seating = await self.games.reach(game_id, device, here=local)
        record = await self.games.record(game_id)
        return self._show(game_id, stamp, record, seating, device, lang)

    def shown_now(self, game_id: str, device: str | None, lang: Language) -> Shown | None:
        """:meth:`shown`, if it can be told without waiting (the game and its seating in
        memory), else None."""
        at_hand = self.games.at_hand(game_id)
        if at_hand is None:
            return None
        record, seating = at_hand
        require(to_read(seating, device))
        return self._show(game_id, self.games.stamp(game_id), record, seating, device, lang)

    def _show(self, game_id: str, stamp: int, record: Record, seating: Seating,
              device: str | None, lang: Language) -> Shown:  # fmt: skip
        """What the game at ``record`` and ``seating`` shows ``device``, read at ``stamp``:
        the first of the game's followers to look at a stamp makes it for the others."""
        kept = self._shown.get(game_id)
        if stamp and game_id in self._followers and (kept is None or kept[0] < stamp):
            kept = (stamp, {}, {})
            self._shown[game_id] = kept
        if kept is None or kept[0] != stamp:
            kept = (stamp, {}, {})  # not followed, or read before a change shown already
        place = (lang, seating.role(device), seating.seats_of(device))
        shown = kept[2].get(place)
        if shown is None:
            shared = kept[1].get(lang)
            if shared is None:
                # Kept as JSON, without its closing brace and what is the device's to say.
                everyone = game_view(game_id, record, lang)
                flags = everyone.pop("can_hint"), everyone.pop("can_undo")
                shared = kept[1][lang] = (json.dumps(everyone).encode()[:-1], *flags)
            start, can_hint, can_undo = shared
            table = Table(seating, device, self.games.presence(game_id))
            part = table_view(record, table, can_hint=can_hint, can_undo=can_undo)
            body = start + b", " + json.dumps(part).encode()[1:]
            shown = kept[2][place] = Shown(
                record.version, b"id: %d\ndata: %s\n\n" % (record.version, body)
            )
        return shown

    async def open(self, game_id: str, scope: Scope) -> LetIn:
        """The request's stream of the game, let in: else the refusal it gets (the game
        unknown, no place at its table, past the caps, the store out of reach)."""
        request = Request(scope)
        # What the stream needs of the request, and no more: not its table (who is here,
        # thousands perhaps), nor the request (its headers, parsed).
        device = (await self.reach(game_id, request)).device
        client = address(request)
        ticket = self.admit(game_id, device, client)
        place = scope.get("extensions", {}).get(PLACE)
        if place is not None:
            try:
                place["take"](client)
            except TooManyStreams:
                ticket.release()
                raise
        return LetIn(game_id, device, self.lang(request), here(request), ticket)

    async def serve(self, opened: LetIn, receive: Receive, send: Send) -> None:
        """Serve a stream let in (:meth:`open`): the game's state now, then each change.

        The stream ends when the client goes, when it has lived its life (its browser comes
        back by itself), when its device has no place at the table any more, or when a
        write waits on the client longer than :attr:`stalled_s` (a client that stopped
        reading): then the connection is left to the server to close.
        """
        game_id, device, lang, local, ticket = opened
        life = self.life_s * random.uniform(1 - LIFE_SPREAD, 1)  # not all coming back at once
        gone = asyncio.ensure_future(_gone(receive, life))
        push = _Push(self, game_id, device, lang, local, send)
        gone.add_done_callback(push.end)
        try:
            with self._followed(game_id):
                async with asyncio.timeout(self.stalled_s):
                    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
                async with self.games.following(game_id, push, device):
                    await push.run(self.stalled_s)
                if not (gone.done() and gone.result()):  # lived its life, or left the table
                    async with asyncio.timeout(self.stalled_s):
                        await send({"type": "http.response.body", "body": b"", "more_body": False})
        except TimeoutError:
            pass  # stalled: what it held is let go
        finally:
            push.close()
            gone.cancel()
            ticket.release()

    @contextlib.contextmanager
    def _followed(self, game_id: str) -> Iterator[None]:
        """A stream of the game counted while inside: what the game shows is kept while
        any is, then let go."""
        self._followers[game_id] = self._followers.get(game_id, 0) + 1
        try:
            yield
        finally:
            self._followers[game_id] -= 1
            if not self._followers[game_id]:
                del self._followers[game_id]
                self._shown.pop(game_id, None)


class _Push(Follower):
    """A live stream's follower: each change of its game written to the client as the line
    of wakes tells it, when the game is in memory and the client takes the write at once.
    What it cannot do at once (the game to read, a client slow to take a write, its end) it
    hands to its stream's task (:meth:`run`), and writes nothing else meanwhile.

    Between two moves a stream holds nothing new: no future, timer or generator is made
    anew for each move and kept until the next, for the collector to walk by the thousand
    (a stream's next move awaited through nested generators was eight such objects a
    stream, young collections of 5-40 ms and full ones of 300 ms during the fan-outs to
    5 000 streams, docs/performance.md)."""

    __slots__ = (
        "_device", "_game_id", "_lang", "_local", "_send", "_streams",
        "behind", "busy", "due", "ended", "sent", "writing",
    )  # fmt: skip

    def __init__(self, streams: Streams, game_id: str, device: str | None, lang: Language,
                 local: bool, send: Send) -> None:  # fmt: skip
        super().__init__()
        self._streams, self._game_id, self._device = streams, game_id, device
        self._lang, self._local, self._send = lang, local, send
        self.sent: Shown | None = None  # the state last sent
        self.ended = False  # its client went, it lived its life, or it left the table
        self.busy = True  # its task is at work: nothing is written but by it
        self.behind = True  # a change not sent yet (from the start: the state now)
        self.writing: _Rest | None = None  # a write the client has not taken yet
        self.due: asyncio.Future[None] | None = None  # what its task waits on

    def wake(self) -> None:
        self.stirred = True
        if self.busy:
            self.behind = True
            return
        try:
            shown = self._streams.shown_now(self._game_id, self._device, self._lang)
        except Forbidden:
            self.end()
            return
        if shown is None:
            self.behind = True
            self._call()
        elif shown != self.sent:
            self.sent = shown
            self._write(shown.event)

    def keep_alive(self) -> None:
        if not self.busy:
            self._write(KEEP_ALIVE)

    def end(self, _: object = None) -> None:
        self.ended = True
        self._call()

    def _write(self, chunk: bytes) -> None:
        """Write ``chunk`` now, or leave the rest of its writing to the task."""
        self.writing = send_now(
            self._send, {"type": "http.response.body", "body": chunk, "more_body": True}
        )
        if self.writing is not None:
            self._call()

    def _call(self) -> None:
        """Its task takes over."""
        self.busy = True
        if self.due is not None and not self.due.done():
            self.due.set_result(None)

    async def run(self, stalled_s: float) -> None:
        """The stream's task: what could not be done at once, until the stream ends; a
        write the client has not taken within ``stalled_s`` raises TimeoutError."""
        while not self.ended:
            if self.writing is not None:
                async with asyncio.timeout(stalled_s):
                    await self.writing
                self.writing = None
            elif self.behind:
                self.behind = False
                try:
                    fresh = await self._streams.shown(
                        self._game_id, self._device, self._lang, self._local
                    )
                except Forbidden:
                    return  # no longer at the table
                if fresh != self.sent:
                    self.sent = fresh
                    self._write(fresh.event)
            else:
                self.busy = False  # from now on the line's wakes write
                self.due = self.loop.create_future()
                await self.due
                self.due = None

    def close(self) -> None:
        """A write left half done is let go."""
        if self.writing is not None:
            self.writing.close()
            self.writing = None


def send_now(send: Send, message: Message) -> _Rest | None:
    """Send ``message``, at once if the server takes it without waiting (its client reads):
    None; else the rest of the sending, to await. (An ASGI server's ``send`` waits only when
    its client is slow to read: a fan-out then writes to thousands of streams in a few
    calls each, no task woken for each.)"""
    sending = send(message).__await__()
    try:
        waiting = sending.send(None)
    except StopIteration:
        return None
    return _Rest(sending, waiting)


class _Rest:
    """The rest of a send begun, which waits on ``waiting``: awaited as the send itself
    would have been (what the awaiting task sends it, throws or closes goes on to it), or
    closed without being awaited."""

    __slots__ = ("_sending", "_waiting")

    def __init__(self, sending: Generator[Any, Any, Any], waiting: Any) -> None:
        self._sending, self._waiting = sending, waiting

    def __await__(self) -> Generator[Any, Any, None]:
        sending, waiting = self._sending, self._waiting
        while True:
            try:
                answer = yield waiting
            except GeneratorExit:
                sending.close()
                raise
            except BaseException as error:
                try:
                    waiting = sending.throw(error)
                except StopIteration:
                    return
            else:
                try:
                    waiting = sending.send(answer)
                except StopIteration:
                    return

    def close(self) -> None:
        self._sending.close()


class LetIn(NamedTuple):
    """A stream let in: its game, device, language, whether it comes from this machine, its
    place under the caps."""

    game_id: str
    device: str | None
    lang: Language
    local: bool
    ticket: _Ticket


class LiveStreams:
    """ASGI middleware: a game's event stream served by :class:`Streams` in front of the
    app's middleware and routing; every other request, and a stream refused (which the
    app's route then says in words), by the app."""

    def __init__(self, app: ASGIApp, *, streams: Streams) -> None:
        self.app = app
        self.streams = streams

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            found = STREAM_PATH.fullmatch(scope["path"])
            if found:
                try:
                    opened = await self.streams.open(found[1], scope)
                except Refusal:
                    pass
                else:
                    await self.streams.serve(opened, receive, send)
                    return
        await self.app(scope, receive, send)


class EventStream(Response):
    """The route's reply: the stream, served as :class:`LiveStreams` serves it (the route
    answers only when the app is asked without it in front, or to say a refusal)."""

    media_type = "text/event-stream"

    def __init__(self, streams: Streams, game_id: str) -> None:
        super().__init__()
        self.streams, self.game_id = streams, game_id

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.streams.serve(await self.streams.open(self.game_id, scope), receive, send)


async def _gone(receive: Receive, life: float) -> bool:
    """True when the client has gone (a stream's request has no more body to read); false
    once the stream has lived ``life`` seconds."""
    try:
        async with asyncio.timeout(life):
            while (await receive())["type"] != "http.disconnect":
                pass
    except TimeoutError:
        return False
    return True
