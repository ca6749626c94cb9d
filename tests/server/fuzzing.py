"""Fuzzing the HTTP API from its OpenAPI schema (schemathesis), in-process.

Each operation of the schema gets requests that fit it (positive) and requests that do not
(negative); part of the time the path names a real game, and part of the time an action
is one a player could make on the game's current version, so that games move on and the
fuzzer reaches their later states; part of the time an invitation's request names a real
invitation (its link's secret, its short code as typed, its watchers' link) and a real
seat of its game, so that seats are claimed and games watched. Each request is sent from
one of several devices: the host of the seeded games, a guest holding a seat of some of
them, a watcher of some, a device with no credential, one with a forged credential.
Every reply is checked:

- no server error, and the status, content type, headers and body are the documented ones;
- a refused request (4xx) changes nothing: every game's row and log, who may reach it, the
  invitations and the devices' credentials in the store, and the state the API shows of
  the game it named, are the same after it as before;
- a GET changes nothing, whatever it answers (but following a game's events makes the
  device present, which the game's view shows).

The app runs over a temporary SQLite file with seeded dice, a clock that counts and a
rate-limit clock that moves one second a request, so that a run is the same every time.
``tests/server/test_fuzz.py`` runs a short one; ``bench/fuzz.py`` a long one.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
import string
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import CheckFunction
from schemathesis.core.failures import FailureGroup
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from zar.dice import SeededDice
from zar.server import create_app
from zar.server.devices import COOKIE
from zar.store import SqliteStore
from zar.yams import Box

# positive_data_acceptance is left out: a request may fit the schema and still be refused
# by the rules (a box already filled, not your turn), which is a 422 by design.
CHECKS: list[CheckFunction] = [
    schemathesis.checks.not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]

# The games every run starts with: both games, alone, together, with the computer.
SEEDS: list[dict[str, Any]] = [
    {"game": "yams", "players": ["Ali"]},
    {"game": "yams", "players": ["Ali", "Ece"], "computer": True, "level": "easy"},
    {"game": "yams", "players": ["Ayşe"], "computer": True, "autofill": None},
    {"game": "10000", "players": ["Ali"], "target": 5000},
    {"game": "10000", "players": ["Ali", "Ece"], "computer": True, "level": "seed"},
    {"game": "10000", "players": ["Mehmet"], "computer": True, "level": "max-points"},
    # House rules: Scandinavian Yatzy's card, its optimal computer.
    {"game": "yams", "players": ["Zeynep"], "computer": True, "rules": "scandinavian"},
]

# Who asks: the device holding the seat on turn in the game named (the host's or the
# guest's; first, so Hypothesis draws it most often and the games move on), the host of
# every seeded game, a guest that took a seat of some, a watcher of some, a device with no
# credential, a device with a forged one.
DEVICES = ("holder", "host", "guest", "watcher", "none", "forged")
GUESTED = (1, 4)  # the seeded games whose seat 1 the guest takes
WATCHED = (0, 2, 5)  # the seeded games the watcher follows

Rows = tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class Way:
    """A real invitation: its link's secret, its short code, its watchers' link's secret, and
    how many seats its game has."""

    join: str
    code: str
    watch: str
    seats: int

    @classmethod
    def of(cls, invite: dict[str, Any], seats: int) -> Way:
        """The invitation a host was given: each link carries its secret after ``=``."""
        join, watch = (str(invite[link]).split("=", 1)[1] for link in ("join", "watch"))
        return cls(join, str(invite["code"]), watch, seats)


@dataclass(frozen=True)
class Dials:
    """How a request is aimed, drawn before it is known what game it will meet (Hypothesis
    draws the same things whatever the state): a real game or not, a seeded one, which,
    a playable move or not, which move, which dice kept, which box or selection (or seat);
    which device asks, and the credential a forged one sends."""

    real: int
    seeded: int
    game: int
    play: int
    move: int
    keep: list[int]
    choice: int
    device: int
    forged: str


_ANY = st.integers(0, 1_000)
# 0 now and then: Hypothesis draws small numbers most often, so the count runs down.
_MOSTLY = st.integers(0, 3).map(lambda n: 3 - n)
DIALS = st.builds(
    Dials,
    real=_MOSTLY,
    seeded=_MOSTLY,
    game=_ANY,
    play=_MOSTLY,
    move=_ANY,
    keep=st.lists(st.integers(0, 4), max_size=4, unique=True),
    choice=_ANY,
    device=st.integers(0, len(DEVICES) - 1),
    # Short ones too: a credential too short to be one is not even looked up.
    forged=st.text(string.ascii_letters + string.digits + "-_", max_size=64),
)


@dataclass
class Tally:
    """What a run tried and found."""

    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    operations: Counter[str] = field(default_factory=Counter)
    answers: Counter[tuple[str, str, int]] = field(default_factory=Counter)  # device, op, status
    failures: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        statuses = ", ".join(f"{s}: {n}" for s, n in sorted(self.statuses.items()))
        return f"{self.requests} requests ({statuses}); {len(self.failures)} failures"


# The longest a luck account may take to be kept (an expert's game of 10 000 for three: a
# few seconds on a busy machine).
SETTLE_S = 120.0


class Fuzzer:
    """The app over a fresh SQLite file in ``folder``, its schema, and the games seeded."""

    def __init__(self, folder: Path, *, quick: bool = True) -> None:
        self.quick = quick
        self.path = folder / "fuzz.sqlite3"
        self.store = SqliteStore(self.path)
        start = datetime(2025, 1, 1, tzinfo=UTC)
        ticks = itertools.count()
        self.seconds = 0.0
        self.app = create_app(
            self.store,
            dice=SeededDice(2025),
            clock=lambda: (start + timedelta(milliseconds=next(ticks))).isoformat(),
            monotonic=lambda: self.seconds,
        )
        self.schema = schemathesis.openapi.from_asgi("/api/openapi.json", self.app)
        # Each device is a session, its cookie jar its credential. The events of a game
        # never end: one is enough to check.
        self.devices = {
            name: asgi.get_client(self.app, max_stream_events=1)
            for name in ("host", "guest", "watcher", "none", "forged")
        }
        self.client = self.devices["host"]
        self.reader = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        self.tally = Tally()
        self.ways: list[Way] = []  # the invitations made, by the seeding and by the run
        for body in SEEDS:
            response = self.client.post("/api/games", json=body)
            assert response.status_code == 201, response.text
        for game_id, _ in self.games():
            response = self.client.post(f"/api/games/{game_id}/invitations")
            assert response.status_code == 201, response.text
            self.ways.append(Way.of(response.json(), self.seats(game_id)))
        for i in GUESTED:
            asked = {"invitation": self.ways[i].join, "seat": 1}
            response = self.devices["guest"].post("/api/invitations/claim", json=asked)
            assert response.json()["you"] == {"role": "player", "seats": [1]}, response.text
        for i in WATCHED:
            asked = {"invitation": self.ways[i].watch}
            response = self.devices["watcher"].post("/api/invitations/watch", json=asked)
            assert response.json()["you"]["role"] == "watcher", response.text

    def close(self) -> None:
        self.reader.close()
        for session in self.devices.values():
            session.close()
        self.store.close()

    # What the store holds

    def rows(self) -> dict[str, Rows]:
        """Every game's row and every action, who may reach each game, every invitation and
        every device's credential, as the store has them."""
        return {
            table: tuple(self.reader.execute(f"SELECT * FROM {table} ORDER BY {order}"))
            for table, order in (
                ("games", "created_at, id"),
                ("actions", "game_id, seq"),
                ("access", "game_id, device, seat"),
                ("invitations", "key"),
                ("devices", "key"),
            )
        }

    def settings(self, game_id: str) -> Any:
        """The game's settings as stored: its kind, its seats (the computer's included)."""
        (row,) = self.reader.execute("SELECT settings FROM games WHERE id = ?", (game_id,))
        return json.loads(row[0])

    def seats(self, game_id: str) -> int:
        return len(self.settings(game_id)["seats"])

    def games(self) -> list[tuple[str, int]]:
        """The games' ids and versions, oldest first."""
        rows = self.reader.execute("SELECT id, version FROM games ORDER BY created_at, id")
        return [(str(i), int(v)) for i, v in rows]

    def view(self, game_id: str) -> Any:
        return self.client.get(f"/api/games/{game_id}?lang=en").json()

    # The run

    def run(self, examples: int) -> Tally:
        """``examples`` requests per operation and mode (positive, negative); the actions
        get three times as many that fit, to play the games on."""
        for result in self.schema.get_all_operations():
            operation = result.ok()
            for mode in GenerationMode:
                plays = mode is GenerationMode.POSITIVE and operation.path.endswith("/actions")
                self._fuzz(operation, mode, 3 * examples if plays else examples)
        return self.tally

    def _fuzz(self, operation: Any, mode: GenerationMode, examples: int) -> None:
        @settings(
            max_examples=examples,
            derandomize=True,
            database=None,
            deadline=None,
            # No shrinking: the app's state moves on between examples; a failure is
            # recorded with its request instead.
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=mode), dials=DIALS)
        def fuzz(case: Any, dials: Dials) -> None:
            self._aim(case, dials)
            self._send(case, dials)

        try:
            fuzz()
        except Unsatisfiable:
            # GET /api/setup takes nothing: there is nothing to send wrong.
            if mode is GenerationMode.POSITIVE:
                raise

    def _aim(self, case: Any, dials: Dials) -> None:
        """Most of the time, name a real game (a seeded one, mostly); most of that, make a
        move a player could, or name a real seat. An invitation's request, most of the time,
        names a real invitation and a real seat of its game."""
        if not dials.real:
            return
        if case.path.startswith("/api/invitations/"):
            self._invitation(case, dials)
            return
        if "game_id" not in case.path_parameters:
            return
        games = self.games()
        if dials.seeded:
            games = games[: len(SEEDS)]
        moving = case.method.upper() == "POST" and case.path.endswith("/actions")
        if moving and dials.play and DEVICES[dials.device] == "holder" and dials.choice % 2:
            # Half the time, a game whose seat on turn is the guest's, when there is one:
            # the guest plays its seat on every run, not only when the dice allow.
            games = [g for g in games if self._holder(g[0]) == "guest"] or games
        game_id, version = games[dials.game % len(games)]
        # A game's export reads each throw's luck from the coach's tables too.
        slow = case.path.endswith(("/hint", "/export"))
        if self.quick and slow and not self._quick_coach(game_id):
            return
        case.path_parameters = {**case.path_parameters, "game_id": game_id}
        if "seat" in case.path_parameters and dials.play:
            seat = dials.choice % self.seats(game_id)
            case.path_parameters = {**case.path_parameters, "seat": seat}
        elif case.method.upper() == "POST" and dials.play:
            intent = self._playable(game_id, dials)
            if intent is not None:
                case.body = {"version": version, **intent}

    def _quick_coach(self, game_id: str) -> bool:
        """Whether the coach (or the luck of a game's export) is quick to ask on the game: on
        10 000 alone. Its tables for Yams and for 10 000 against someone take 8 to 25 s each
        to build, past a request's 10 s on a busy machine: the short run leaves them to the
        long one."""
        settings = self.settings(game_id)
        return bool(settings["kind"] == "10000" and len(settings["seats"]) == 1)

    def _invitation(self, case: Any, dials: Dials) -> None:
        """A real invitation in the body (a body of the wrong shape is left wrong): its link's
        secret, its code as typed or its watchers' link, and one of its game's seats."""
        if not isinstance(case.body, dict):
            return
        way = self.ways[dials.game % len(self.ways)]
        typed = f" {way.code[:3].lower()}-{way.code[3:]}" if dials.seeded % 2 else way.code
        invitation = (way.join, typed, way.watch)[dials.move % 3]
        case.body = {**case.body, "invitation": invitation, "seat": dials.choice % way.seats}

    def _playable(self, game_id: str, dials: Dials) -> dict[str, Any] | None:
        """A move that fits the game as it is now (the rules may still refuse some); now
        and then, a game the run started itself is abandoned (the seeded ones play on)."""
        game = self.view(game_id)
        if "over" not in game:
            return None  # a game the host has no place at (another device started it)
        if game["over"]:
            return {"type": ("throw", "computer", "abandon")[dials.move % 3]}
        seeded = {g for g, _ in self.games()[: len(SEEDS)]}
        if game_id not in seeded and dials.move % 4 == 0:
            return {"type": "abandon"}
        seat = game["players"][game["seat"]]
        if seat["computer"]:
            # The two-player expert's tables for 10 000 and 15 000 take 8 to 25 s to
            # build: the short run leaves them to the long one.
            if self.quick and seat["level"] == "expert" and game.get("target", 0) > 5000:
                return None
            return {"type": "computer"}
        if game["game"] == "yams":
            moves: list[dict[str, Any]] = [{"type": "throw"}]
            if game["throws"]:
                boxes = list(game["options"]) or [b.name for b in Box]
                moves += [
                    {"type": "throw", "keep": dials.keep},
                    {"type": "fill", "box": boxes[dials.choice % len(boxes)]},
                    {"type": "autofill"},
                ]
            return moves[dials.move % len(moves)]
        if game["phase"] != "set-aside":
            return {"type": "throw"}
        scoring = [int(m) for m, s in game["selections"].items() if "points" in s]
        mask = scoring[dials.choice % len(scoring)] if scoring else 1
        chosen = [p for p in range(6) if mask >> p & 1]
        return {"type": ("throw", "bank", "set_aside")[dials.move % 3], "set_aside": chosen}

    def _device(self, dials: Dials, game_id: str | None) -> tuple[str, Any]:
        """The device that asks, and its session; one with no credential or a forged one
        keeps none from a reply."""
        name = DEVICES[dials.device]
        if name == "holder":
            name = self._holder(game_id)
        session = self.devices[name]
        if name in ("none", "forged"):
            session.cookies.clear()
        if name == "forged":
            session.cookies.set(COOKIE, dials.forged)
        return name, session

    def _holder(self, game_id: str | None) -> str:
        """Who holds the seat on turn in the game: the guest, or else the host."""
        if game_id is None:
            return "host"
        game = self.view(game_id)
        if "seat" not in game or game["seats"][game["seat"]]["holder"] != "guest":
            return "host"
        guest = self.devices["guest"].get(f"/api/games/{game_id}").json()
        return "guest" if game["seat"] in guest.get("you", {}).get("seats", ()) else "host"

    def _settle(self) -> None:
        """Wait until the luck accounts of the games ended so far are kept: they are written
        after the reply that ended the game, in the loop that serves every request, and one
        written during a later request is not that request's doing. One not kept within
        :data:`SETTLE_S` fails the run rather than hold it for ever."""
        accounts = self.app.state.games.accounts
        deadline = time.monotonic() + SETTLE_S
        while accounts is not None and accounts.working:
            assert time.monotonic() < deadline, f"{accounts.working} luck accounts never kept"
            time.sleep(0.005)

    def _send(self, case: Any, dials: Dials) -> None:
        game_id = case.path_parameters.get("game_id")
        known = game_id in {g for g, _ in self.games()}
        self._settle()
        before = self.rows()
        shown = self.view(game_id) if known else None
        device, session = self._device(dials, game_id if known else None)
        # Faster than the limits of new games and joins allow (a malformed request taken
        # back): now and then a 429.
        self.seconds += 1.5
        response = case.call(session=session)
        self.tally.requests += 1
        self.tally.statuses[response.status_code] += 1
        self.tally.operations[case.operation.label] += 1
        self.tally.answers[device, case.operation.label, response.status_code] += 1
        request = f"{device}: {case.method} {case.formatted_path} {case.query or ''} {_body(case)}"
        if response.status_code == 201 and case.path.endswith("/invitations"):
            self.ways.append(Way.of(response.json(), self.seats(str(game_id))))
        try:
            case.validate_response(response, checks=CHECKS)
        except (AssertionError, FailureGroup) as failure:
            self.tally.failures.append(f"{request}\n  -> {response.status_code}: {failure}")
        refused = 400 <= response.status_code < 500
        if refused or case.method.upper() == "GET":
            after = self.rows()
            changed = [table for table, rows in before.items() if after[table] != rows]
            if changed:
                self.tally.failures.append(
                    f"{request}\n  -> {response.status_code} {_reason(response)}"
                    f" changed the store: {', '.join(changed)}"
                )
            # Following a game's events is what makes a device here: that much it changes.
            seen = _unfollowed if case.path.endswith("/events") else _same
            if known and seen(self.view(game_id)) != seen(shown):
                self.tally.failures.append(
                    f"{request}\n  -> {response.status_code} changed the game shown"
                )


def _same(game: Any) -> Any:
    return game


def _unfollowed(game: Any) -> Any:
    """A view without who follows the game now, or since when they are away."""
    if not isinstance(game, dict) or "seats" not in game:
        return game
    seats = [
        {k: v for k, v in seat.items() if k not in ("here", "away_since")} for seat in game["seats"]
    ]
    return {**game, "seats": seats}


def _reason(response: Any) -> str:
    try:
        return str(response.json().get("reason", ""))
    except (ValueError, AttributeError):
        return ""


def _body(case: Any) -> str:
    try:
        return json.dumps(case.body, ensure_ascii=False)[:300]
    except (TypeError, ValueError):
        return repr(case.body)[:300]


@contextmanager
def fuzzer(folder: Path, *, quick: bool = True) -> Iterator[Fuzzer]:
    """A :class:`Fuzzer` over ``folder``, closed after."""
    run = Fuzzer(folder, quick=quick)
    try:
        yield run
    finally:
        run.close()
