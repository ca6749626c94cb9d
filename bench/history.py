"""The history and the statistics with many finished games stored, on SQLite and PostgreSQL.

Fills a fresh store with ``--games`` finished games, quickly: a dozen real games are played
by the computer with seeded dice (Yams and 10 000, one to three seats), and their logs
copied under new ids and new names, straight into the tables, as the server would have
left them (the settings, the summary, the seating and who may reach the game, and the
figures a game keeps for the statistics from its end, with its luck account:
``zar.history.figures``). One
device, ``home``, hosts every game (a tablet on a family's table: its lists and its
statistics read the most); another, ``visitor``, hosts 20 of them.

Then ``zar serve`` over the store, and over HTTP, one request at a time, with a device's
credential: ``GET /api/stats`` (Yams and 10 000 in turn), the statistics' CSV export, the
history's first page (``GET /api/games?finished=true&limit=100``, as the page asks), the
visitor's statistics, and a finished game's first read (``GET /api/games/{id}`` of games
the server has not read yet). Prints p50 and p95 of each, per store, and the server's CPU
time a request (its own process: the work, whatever else the machine runs); then the anchors,
and as its last line ``statistics p95 X ms at N finished games``, X the worse of the
stores'.

    .venv/bin/python bench/history.py [--games 100000] [--requests 200] [--sqlite-only]
    .venv/bin/python bench/history.py --url postgresql://USER@HOST/DB
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
from load import cpu_seconds
from serving import COOKIE, serve

from zar import ai
from zar.ai.coach import Strategies
from zar.ai.luck import account
from zar.dice import SeededDice
from zar.history import figures
from zar.record import Record, action_to_json
from zar.seating import Seating
from zar.server.devices import key_of
from zar.server.views import summary
from zar.store import open_store
from zar.store.rows import access_rows, seating_text
from zar.table import Seat

ANCHOR_GAMES = 100_000
ANCHOR_P95_MS = 50.0
READ_P95_MS = 10.0  # a finished game's first read
NAMES = ("Ali", "Ece", "Can", "Deniz", "Zeynep", "Mert", "Elif")
VISITOR_GAMES = 20
START = datetime(2025, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Template:
    """A real finished game, to copy: its record, summary and figures, its log as stored."""

    record: Record
    summary: dict[str, Any]
    figures: dict[str, Any]
    log: tuple[str, ...]


def templates() -> list[Template]:
    """A dozen whole games of the computer, seeded: Yams (the easy level, one and two seats)
    and 10 000 (the seed level, to 5 000, one to three seats)."""
    made = []
    strategies = Strategies()
    tables = [("yams", 1, None), ("yams", 2, None), ("10000", 1, 5_000), ("10000", 2, 5_000),
              ("10000", 3, 5_000), ("yams", 3, None)]  # fmt: skip
    for seed, (kind, seats, target) in enumerate(tables * 2):
        player = ai.computer_player(kind, "easy" if kind == "yams" else "seed")
        record = Record.new(kind, tuple(Seat(n) for n in NAMES[:seats]), target=target)  # type: ignore[arg-type]
        dice = SeededDice(seed)
        while not record.state.is_over:
            record = record.append(ai.next_action(record.state, player, dice))  # type: ignore[arg-type]
        kept = figures(record, account(record, strategies))  # as the server keeps them
        assert kept is not None
        log = tuple(json.dumps(action_to_json(action)) for action in record.log)
        made.append(Template(record, summary(record), kept, log))
    return made


@dataclass(frozen=True)
class Rows:
    """The rows of one copied game."""

    game: tuple[Any, ...]
    access: list[tuple[str, str, int]]
    actions: list[tuple[str, int, str, str]]


GAME_COLUMNS = (
    "id, kind, settings, created_at, updated_at, version, finished, summary, seating,"
    " seating_rev, turn, abandoned, figures"
)


def copies(made: Sequence[Template], n: int, home: str, visitor: str) -> Iterator[Rows]:
    """``n`` games copied from ``made`` in turn under new ids, the names shifted round the
    list, a minute apart; the first :data:`VISITOR_GAMES` hosted by ``visitor``."""
    for i in range(n):
        template = made[i % len(made)]
        names = [
            NAMES[(i // len(made) + s) % len(NAMES)] for s in range(len(template.record.seats))
        ]
        seats = tuple(Seat(name) for name in names)
        settings = {**template.record.settings_json(), "seats": [
            {"name": name, "computer": False, "level": None} for name in names]}  # fmt: skip
        game_id = f"g{i:07d}"
        at = (START + timedelta(minutes=i)).isoformat(timespec="milliseconds")
        seating = Seating.hosted(visitor if i < VISITOR_GAMES else home, seats)
        parts = zip(template.figures["seats"], names, strict=True)
        kept = {**template.figures, "seats": [{**seat, "name": name} for seat, name in parts]}
        yield Rows(
            (game_id, template.record.kind, json.dumps(settings), at, at, template.record.version,
             True, json.dumps({**template.summary, "players": names}), seating_text(seating),
             0, -1, False, json.dumps(kept)),
            access_rows(game_id, seating),
            [(game_id, seq, action, at) for seq, action in enumerate(template.log, start=1)],
        )  # fmt: skip


def fill_sqlite(path: Path, rows: Callable[[], Iterator[Rows]], devices: Sequence[str]) -> None:
    open_store(f"sqlite:///{path}").close()  # the tables, as the store makes them
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    now = datetime.now(UTC).isoformat(timespec="milliseconds")  # seen lately: not expired
    db.executemany("INSERT INTO devices VALUES (?, ?, ?)", [(d, now, now) for d in devices])
    marks = ", ".join("?" * len(GAME_COLUMNS.split(",")))
    for game in rows():
        db.execute(f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({marks})", game.game)
        db.executemany("INSERT INTO access (game_id, device, seat) VALUES (?, ?, ?)", game.access)
        db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)", game.actions)
    db.execute("COMMIT")
    db.close()


def fill_postgres(url: str, rows: Callable[[], Iterator[Rows]], devices: Sequence[str]) -> None:
    """The games through ``COPY``, a table at a time (one copy at a time on a connection)."""
    open_store(url).close()
    now = datetime.now(UTC).isoformat(timespec="milliseconds")  # seen lately: not expired
    with psycopg.connect(url) as db, db.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO devices VALUES (%s, %s, %s)", [(d, now, now) for d in devices]
        )
        with cursor.copy(f"COPY games ({GAME_COLUMNS}) FROM STDIN") as copy:
            for game in rows():
                copy.write_row(game.game)
        with cursor.copy("COPY access (game_id, device, seat) FROM STDIN") as copy:
            for game in rows():
                for row in game.access:
                    copy.write_row(row)
        with cursor.copy("COPY actions FROM STDIN") as copy:
            for game in rows():
                for row in game.actions:
                    copy.write_row(row)
        db.commit()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("VACUUM ANALYZE")  # as autovacuum would have, long before 100 000 games


def timed(client: http.client.HTTPConnection, path: str, cookie: str) -> float:
    """One GET's round trip, in milliseconds; any status but 200 stops the bench."""
    began = time.perf_counter()
    client.request("GET", path, headers={"cookie": cookie})
    response = client.getresponse()
    body = response.read()
    took = (time.perf_counter() - began) * 1000
    if response.status != 200:
        raise SystemExit(f"history: GET {path} answered {response.status}: {body[:200]!r}")
    return took


def p(values: list[float], q: float) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[q - 1]
        if len(values) > 1
        else values[0]
    )


def measure(
    url: str, pid: int, args: argparse.Namespace, secrets_of: dict[str, str]
) -> dict[str, tuple[list[float], float]]:
    """The round trips of each kind of request, a request at a time, and the server's CPU
    time a request (the work itself, whatever else the machine does)."""
    parts = urlsplit(url)
    client = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=120)
    home, visitor = (f"{COOKIE}={secrets_of[d]}" for d in ("home", "visitor"))
    for kind in ("yams", "10000"):  # the first reads warm the database's caches
        client.request("GET", f"/api/stats?game={kind}", headers={"cookie": home})
        games = sum(p["games"] for p in json.loads(client.getresponse().read())["players"])
        if not games:
            raise SystemExit(f"history: the statistics of {kind} count no game")
    n = args.requests
    # Games not read since the server started: each read from the store and replayed.
    step = max(1, (args.games - VISITOR_GAMES) // n)
    unread = [f"g{i:07d}" for i in range(VISITOR_GAMES, args.games, step)][:n]
    asked = {
        "statistics": ([f"/api/stats?game={('yams', '10000')[i % 2]}" for i in range(n)], home),
        "statistics CSV": (["/api/stats/export?game=yams&format=csv"] * (n // 4), home),
        "history's first page": (["/api/games?finished=true&limit=100"] * n, home),
        "visitor's statistics": (["/api/stats?game=yams"] * (n // 4), visitor),
        "a finished game's first read": ([f"/api/games/{i}" for i in unread], home),
    }
    found = {}
    for what, (paths, cookie) in asked.items():
        cpu = cpu_seconds(pid)
        times = [timed(client, path, cookie) for path in paths]
        found[what] = (times, (cpu_seconds(pid) - cpu) * 1000 / len(paths))
    client.close()
    return found


def run_store(
    name: str, args: argparse.Namespace, fill: Any, env: dict[str, str]
) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        secrets_of = {d: secrets.token_urlsafe(32) for d in ("home", "visitor")}
        devices = [key_of(secrets_of[d]) for d in ("home", "visitor")]
        began = time.monotonic()
        made = templates()

        def rows() -> Iterator[Rows]:
            return copies(made, args.games, devices[0], devices[1])

        fill(folder, rows, devices)
        print(
            f"{name}: {args.games} finished games stored in {time.monotonic() - began:.0f} s",
            flush=True,
        )
        process, url = serve(
            folder, {"ZAR_GAMES_PER_MINUTE": "off", "ZAR_ACTION_BUDGET": "off", **env}
        )
        try:
            found = measure(url, process.pid, args, secrets_of)
        finally:
            process.terminate()
            process.wait(10)
    for what, (values, cpu) in found.items():
        print(f"{name}: {what}: p50 {p(values, 50):.1f} ms, p95 {p(values, 95):.1f} ms,"
              f" server CPU {cpu:.1f} ms a request ({len(values)} requests)")  # fmt: skip
    return {what: values for what, (values, _) in found.items()}


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str | None]:
    """A PostgreSQL server of the run's own (``tests/throwaway_postgres.py``); its URL, or
    None when there is no PostgreSQL to start."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from throwaway_postgres import ThrowawayPostgres, find_bin

    bin_dir = find_bin()
    if bin_dir is None:
        yield None
        return
    server = ThrowawayPostgres(bin_dir)
    server.start()
    try:
        yield server.new_database()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=ANCHOR_GAMES, help="finished games stored")
    parser.add_argument("--requests", type=int, default=200, help="of each kind, per store")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", help="an empty PostgreSQL database (else a throwaway one)")
    where.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    if args.games <= VISITOR_GAMES:
        parser.error(f"--games is more than {VISITOR_GAMES}")

    results: dict[str, dict[str, list[float]]] = {}
    results["SQLite"] = run_store(
        "SQLite",
        args,
        lambda folder, rows, devices: fill_sqlite(folder / "zar.sqlite3", rows, devices),
        {},
    )
    if not args.sqlite_only:
        with contextlib.ExitStack() as stack:
            url = args.url or stack.enter_context(throwaway_postgres())
            if url is None:
                print(
                    "PostgreSQL: not measured (no initdb on PATH or in /usr/lib/postgresql/*/bin)"
                )
            else:
                results["PostgreSQL"] = run_store(
                    "PostgreSQL", args, lambda _, rows, devices: fill_postgres(url, rows, devices),
                    {"ZAR_DATABASE_URL": url},
                )  # fmt: skip

    worst = max(p(found["statistics"], 95) for found in results.values())
    read = max(p(found["a finished game's first read"], 95) for found in results.values())
    verdict = "PASS" if worst < ANCHOR_P95_MS and args.games >= ANCHOR_GAMES else "FAIL"
    if args.games < ANCHOR_GAMES:
        verdict = f"not this run ({args.games} games)"
    print(f"anchor: statistics p95 under {ANCHOR_P95_MS:.0f} ms at {ANCHOR_GAMES} finished games"
          f" on {' and '.join(results)}  ->  {verdict}")  # fmt: skip
    print(
        f"anchor: a finished game's first read p95 under {READ_P95_MS:.0f} ms  ->  "
        + ("PASS" if read < READ_P95_MS else f"FAIL ({read:.1f} ms)")
    )
    print(f"statistics p95 {worst:.1f} ms at {args.games} finished games")


if __name__ == "__main__":
    main()
