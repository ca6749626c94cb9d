"""``zar backup`` and ``zar restore`` at scale: games a second, and memory that does not grow.

Fills a fresh SQLite file with N finished Yams games (one to three people, random legal
play on seeded dice, each action with its time), then runs the real commands as a person
would, each in a process of its own: ``zar backup`` of the file, ``zar restore`` into an
empty SQLite file and, with ``--postgres URL`` (an empty database), into PostgreSQL; and
prints for each its time, its games a second and its process's peak memory. Run with two
sizes to see that the memory stays the same while the time grows with the games.

    .venv/bin/python bench/backup.py [--games 2000] [--postgres postgresql://...]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from zar import yams
from zar.record import Record
from zar.server.views import summary
from zar.store import SqliteStore, StoredGame, open_store
from zar.table import Seat

START = datetime(2026, 1, 1, tzinfo=UTC)


def finished_game(rng: random.Random, number: int) -> StoredGame:
    """A finished Yams game of one to three people, each throw followed by a random box."""
    seats = tuple(Seat(name) for name in ("Ali", "Ece", "Can")[: rng.randint(1, 3)])
    record = Record.new("yams", seats)
    moment = START + timedelta(minutes=number)
    times = []
    while not record.state.is_over:
        state = record.state
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        record = record.append(yams.Throw(state.seat, (), dice))
        box = rng.choice(sorted(record.state.cards[state.seat].options(dice), key=str))
        record = record.append(yams.Fill(state.seat, box))
        for _ in range(2):
            moment += timedelta(seconds=rng.randint(2, 20))
            times.append(moment.isoformat(timespec="milliseconds"))
    created = (START + timedelta(minutes=number)).isoformat(timespec="milliseconds")
    return StoredGame(f"game{number:07}", record, created, tuple(times))


def zar(*argv: str, env: dict[str, str]) -> tuple[float, float, str]:
    """Run ``zar``: its wall time in seconds, its peak memory in MiB, its last line."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "zar", *argv],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdout is not None
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"zar {' '.join(argv)}: exit status {status >> 8}")
    return elapsed, usage.ru_maxrss / 1024, out.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", help="an empty PostgreSQL database to restore into too")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "source.sqlite3"
        store = SqliteStore(source)
        rng = random.Random(args.seed)
        actions = 0
        for number in range(args.games):
            game = finished_game(rng, number)
            actions += game.record.version
            store.restore(game, summary(game.record))
        store.close()
        print(f"{args.games} finished Yams games, {actions} actions")

        env = {k: v for k, v in os.environ.items() if k not in ("ZAR_DATABASE_URL", "ZAR_DB")}
        backup = Path(folder) / "games.zar.gz"
        elapsed, peak, line = zar("backup", str(backup), "--db", str(source), env=env)
        size = backup.stat().st_size / 2**20
        print(f"backup: {elapsed:.1f} s, {args.games / elapsed:.0f} games/s,"
              f" peak memory {peak:.0f} MiB, file {size:.1f} MiB ({line})")  # fmt: skip
        targets = [("SQLite", f"sqlite:///{Path(folder) / 'target.sqlite3'}")]
        if args.postgres:
            empty = open_store(args.postgres)
            try:
                if empty.game_ids(limit=1):
                    raise SystemExit("--postgres: the database holds games: give an empty one")
            finally:
                empty.close()
            targets.append(("PostgreSQL", args.postgres))
        for name, url in targets:
            elapsed, peak, line = zar("restore", str(backup), env={**env, "ZAR_DATABASE_URL": url})
            print(f"restore into {name}: {elapsed:.1f} s, {args.games / elapsed:.0f} games/s,"
                  f" peak memory {peak:.0f} MiB ({line})")  # fmt: skip


if __name__ == "__main__":
    main()
