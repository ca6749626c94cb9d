"""The server killed many times over: how many kills it survived with nothing lost.

The long run of ``tests/server/test_faults.py``: a real ``zar serve`` over a fresh SQLite
file, played by the scripted client (four games at once, both games, people and the
computer) and killed with SIGKILL a random delay after a burst of intentions, often
before their replies were read; after each kill, every acknowledged action is checked in
the log, the request in flight wholly there or not at all, every game replayed twice and
played on. Stops at the first failure, printing the seed to run it again.

    .venv/bin/python bench/faults.py [--kills 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from server.test_faults import Tally, survive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="of the delays and the choices")
    args = parser.parse_args()

    last = Tally()
    started = time.perf_counter()

    def report(tally: Tally) -> None:
        nonlocal last
        last = tally
        if tally.kills % 20 == 0:
            print(f"  {tally.kills} kills, {tally.intents} intentions acknowledged", flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        try:
            tally = survive(Path(tmp) / "faults.sqlite3", args.kills, args.seed, report)
        except BaseException:
            print(f"FAILED after {last.kills} kills survived (seed {args.seed})")
            raise
    wall = time.perf_counter() - started
    print(f"kills survived {tally.kills} of {args.kills} (seed {args.seed}, {wall:.0f} s)")
    print(
        f"acknowledged: {tally.intents} intentions, {tally.actions} actions; "
        f"{tally.refused} stale intentions refused with 409"
    )
    print(
        f"in flight at a kill (sent, reply never read): {tally.in_flight}; "
        f"of those found whole in the log: {tally.applied} ({tally.applied_pairs} of two "
        f"actions), absent: "
        f"{tally.in_flight - tally.applied} (one half there would have stopped the run)"
    )
    print(
        f"seats: {tally.claims} claims and {tally.taken_back} takings back acknowledged; "
        f"{tally.seating_in_flight} in flight at a kill, {tally.seating_applied} of them found "
        f"stored; {tally.guest_intents} intentions acknowledged to the guest's device, "
        f"{tally.guest_after_restart} of them the first after a restart"
    )
    print(f"games started {tally.games}, played to the end {tally.finished}")
    median, slowest = statistics.median(tally.restart_s), max(tally.restart_s)
    print(f"restart (process start to first reply): median {median:.2f} s, slowest {slowest:.2f} s")


if __name__ == "__main__":
    main()
