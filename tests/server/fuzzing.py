"""Fuzzing the HTTP API from its OpenAPI schema (schemathesis), in-process.

Each operation of the schema gets requests that fit it (positive) and requests that do not
(negative); part of the time the path names a real game, and part of the time an action
is one a player could make on the game's current version, so that games move on and the
fuzzer reaches their later states. Every reply is checked:

- no server error, and the status, content type, headers and body are the documented ones;
- a refused request (4xx) changes no game: every game's row and log in the store, and the
  state the API shows of the game it named, are the same after it as before;
- a GET changes nothing, whatever it answers.

The app runs over a temporary SQLite file with seeded dice, a clock that counts and a
rate-limit clock that moves one second a request, so that a run is the same every time.
``tests/server/test_fuzz.py`` runs a short one; ``bench/fuzz.py`` a long one.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
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
]

GameRows = tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class Dials:
    """How a request is aimed, drawn before it is known what game it will meet (Hypothesis
    draws the same things whatever the state): a real game or not, a seeded one, which,
    a playable move or not, which move, which dice kept, which box or selection."""

    real: int
    seeded: int
    game: int
    play: int
    move: int
    keep: list[int]
    choice: int


_ANY = st.integers(0, 1_000)
_MOSTLY = st.integers(0, 3)  # 0 a quarter of the time
DIALS = st.builds(
    Dials,
    real=_MOSTLY,
    seeded=_MOSTLY,
    game=_ANY,
    play=_MOSTLY,
    move=_ANY,
    keep=st.lists(st.integers(0, 4), max_size=4, unique=True),
    choice=_ANY,
)


@dataclass
class Tally:
    """What a run tried and found."""

    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    operations: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        statuses = ", ".join(f"{s}: {n}" for s, n in sorted(self.statuses.items()))
        return f"{self.requests} requests ({statuses}); {len(self.failures)} failures"


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
        # The events of a game never end: one is enough to check.
        self.client = asgi.get_client(self.app, max_stream_events=1)
        self.reader = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        self.tally = Tally()
        for body in SEEDS:
            response = self.client.post("/api/games", json=body)
            assert response.status_code == 201, response.text

    def close(self) -> None:
        self.reader.close()
        self.client.close()
        self.store.close()

    # What the store holds

    def rows(self) -> tuple[GameRows, GameRows]:
        """Every game's row and every action, as the store has them."""
        games = tuple(self.reader.execute("SELECT * FROM games ORDER BY created_at, id"))
        actions = tuple(self.reader.execute("SELECT * FROM actions ORDER BY game_id, seq"))
        return games, actions

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
            self._send(case)

        try:
            fuzz()
        except Unsatisfiable:
            # GET /api/setup takes nothing: there is nothing to send wrong.
            if mode is GenerationMode.POSITIVE:
                raise

    def _aim(self, case: Any, dials: Dials) -> None:
        """Most of the time, name a real game (a seeded one, mostly); most of that, make a
        move a player could."""
        if "game_id" not in case.path_parameters or not dials.real:
            return
        games = self.games()
        if dials.seeded:
            games = games[: len(SEEDS)]
        game_id, version = games[dials.game % len(games)]
        case.path_parameters = {**case.path_parameters, "game_id": game_id}
        if case.method.upper() == "POST" and dials.play:
            intent = self._playable(game_id, dials)
            if intent is not None:
                case.body = {"version": version, **intent}

    def _playable(self, game_id: str, dials: Dials) -> dict[str, Any] | None:
        """A move that fits the game as it is now (the rules may still refuse some); now
        and then, a game the run started itself is abandoned (the seeded ones play on)."""
        game = self.view(game_id)
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

    def _send(self, case: Any) -> None:
        game_id = case.path_parameters.get("game_id")
        known = game_id in {g for g, _ in self.games()}
        before = self.rows()
        shown = self.view(game_id) if known else None
        # A little faster than the limit of new games allows: now and then a 429.
        self.seconds += 1.8
        response = case.call(session=self.client)
        self.tally.requests += 1
        self.tally.statuses[response.status_code] += 1
        self.tally.operations[case.operation.label] += 1
        request = f"{case.method} {case.formatted_path} {case.query or ''} {_body(case)}"
        try:
            case.validate_response(response, checks=CHECKS)
        except (AssertionError, FailureGroup) as failure:
            self.tally.failures.append(f"{request}\n  -> {response.status_code}: {failure}")
        refused = 400 <= response.status_code < 500
        if refused or case.method.upper() == "GET":
            if self.rows() != before:
                self.tally.failures.append(
                    f"{request}\n  -> {response.status_code} changed the store"
                )
            if known and self.view(game_id) != shown:
                self.tally.failures.append(
                    f"{request}\n  -> {response.status_code} changed the game shown"
                )


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
