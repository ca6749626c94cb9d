"""The optimal Yams solver: its build against yatzy-solver's, and what play from its table costs.

Builds the full table from scratch (numba's compile timed apart, from an empty numba
cache), then has yatzy-solver (PyPI, Rust, the fastest open-source solver we know) build
its `american` variant, which is our `free-joker`: the same game, both 254.5896. Then the
figures of play: loading the table from the cache in a fresh process, one decision
(keep or box, with the values of every option), and `zar simulate yams` of 100 000 games.

    .venv/bin/python -m pip install -r bench/requirements.txt
    .venv/bin/python bench/yams_solver.py [--repeat 3] [--games 100000]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# numpy only: numba loads with zar.ai.yams_solver, once main() has chosen its cache.
from zar.ai.yams import Strategy
from zar.yams import Rules, Scorecard

GOAL_RATIO = 1.0
GOAL_MB = 500
GOAL_LOAD_S = 0.2
GOAL_DECISION_MS = 1.0
GOAL_SIMULATE_S = 60.0

YATZY = """
import re, sys, time
from pathlib import Path
import yatzy_solver as ys
times = []
for _ in range(int(sys.argv[1])):
    start = time.perf_counter()
    solver = ys.Solver.build(ys.Variant("american"))
    times.append(time.perf_counter() - start)
value = solver.state_value("upper 0 | filled -")
hwm = re.search(r"VmHWM:\\s+(\\d+) kB", Path("/proc/self/status").read_text())
print(ys.__version__, value, int(hwm[1]) / 1024, *times)
"""

REBUILD = """
import re, sys, time
from pathlib import Path
from zar.cli import main
start = time.perf_counter()
main(["solve", "--rebuild"], write=lambda line: None)
hwm = re.search(r"VmHWM:\\s+(\\d+) kB", Path("/proc/self/status").read_text())
print(time.perf_counter() - start, int(hwm[1]) / 1024)
"""

LOAD = """
import time
start = time.perf_counter()
from zar.ai.yams import Strategy
from zar.yams import Scorecard
imported = time.perf_counter()
strategy = Strategy.load("standard")
loaded = time.perf_counter()
strategy.keep_values(Scorecard(), (1, 2, 3, 4, 6), 2)
print(imported - start, loaded - imported, time.perf_counter() - loaded)
"""


def peak_mb() -> float:
    """This process's peak resident memory (VmHWM: ru_maxrss would count a parent's too)."""
    found = re.search(r"VmHWM:\s+(\d+) kB", Path("/proc/self/status").read_text())
    return int(found[1]) / 1024 if found else float("nan")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="builds of each solver")
    parser.add_argument("--games", type=int, default=100_000, help="games for zar simulate")
    args = parser.parse_args()
    # An empty numba cache, so that the compile is measured, not a read of the last one;
    # an empty table cache, the user's left alone. Child processes inherit both.
    with tempfile.TemporaryDirectory() as numba_cache, tempfile.TemporaryDirectory() as tables:
        os.environ["NUMBA_CACHE_DIR"] = numba_cache
        os.environ["ZAR_CACHE_DIR"] = tables
        bench(args)


def bench(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    import numba

    numba_import = time.perf_counter() - start
    threads = numba.get_num_threads()
    print(f"machine: {os.cpu_count()} cores; numba {numba.__version__}, {threads} threads")
    print(f"load average at start: {load_average()}")

    start = time.perf_counter()
    from zar.ai import yams_solver
    from zar.ai.yams_tables import tables

    imported = time.perf_counter() - start
    start = time.perf_counter()
    yams_solver.compile_kernels(tables(Rules.STANDARD))
    compiled = time.perf_counter() - start
    print(
        f"import numba {numba_import:.2f} s, the solver {imported:.2f} s; "
        f"numba compile (empty cache) {compiled:.2f} s, not in the builds"
    )

    ours: dict[Rules, list[float]] = {}
    values: dict[Rules, float] = {}
    for rules in (Rules.FREE_JOKER, Rules.STANDARD, Rules.NO_BONUS):
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            strategy = Strategy.build(rules)
            times.append(time.perf_counter() - start)
        ours[rules], values[rules] = times, strategy.expected_score()
        shown = " ".join(f"{t:.2f}" for t in times)
        print(
            f"zar build {rules.value:<10} {min(times):.2f} s best of [{shown}] s"
            f"  expected score {values[rules]:.4f}"
        )
    mb = peak_mb()
    print(
        f"zar peak memory (this process, compile and builds): {mb:.0f} MB"
        f"  [{verdict(mb < GOAL_MB)}]"
    )

    theirs = subprocess.run(
        [sys.executable, "-c", YATZY, str(args.repeat)], capture_output=True, text=True
    )
    if theirs.returncode != 0:
        print("yatzy-solver: not installed (pip install -r bench/requirements.txt)")
    else:
        version, value, their_mb, *their_times = theirs.stdout.split()
        times = [float(t) for t in their_times]
        shown = " ".join(f"{t:.2f}" for t in times)
        print(
            f"yatzy-solver {version} build american {min(times):.2f} s best of [{shown}] s"
            f"  expected score {float(value):.4f}  peak memory {float(their_mb):.0f} MB"
        )
        ratio = min(ours[Rules.FREE_JOKER]) / min(times)
        print(
            f"ratio zar free-joker / yatzy-solver american: {ratio:.2f}"
            f"  (goal <= {GOAL_RATIO})  [{verdict(ratio <= GOAL_RATIO)}]"
        )

    # What a person sees: `zar solve --rebuild` in a process of its own, kernels compiled.
    done = subprocess.run(
        [sys.executable, "-c", REBUILD], capture_output=True, text=True, check=True
    )
    wall, solve_mb = (float(x) for x in done.stdout.split())
    print(
        f"zar solve --rebuild, fresh process: {wall:.2f} s (numba's import and kernels "
        f"included), peak memory {solve_mb:.0f} MB  [{verdict(solve_mb < GOAL_MB)}]"
    )

    # Play: the table as a player meets it, from the cache.
    strategy = Strategy.load("standard")
    fresh = subprocess.run(
        [sys.executable, "-c", LOAD], capture_output=True, text=True, check=True
    ).stdout.split()
    load_s = float(fresh[1])
    print(
        f"load from the cache, fresh process: import {float(fresh[0]):.3f} s, "
        f"Strategy.load {load_s:.3f} s  [{verdict(load_s < GOAL_LOAD_S)}]; "
        f"its first decision {float(fresh[2]):.2f} s (numba loads, once)"
    )
    decisions(strategy)

    command = [sys.executable, "-m", "zar", "simulate", "yams", "--strategy", "optimal"]
    command += ["--games", str(args.games), "--seed", "1"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    last = done.stdout.splitlines()[-1]
    print(
        f"zar simulate yams --strategy optimal --games {args.games}: {wall:.1f} s wall, "
        f"{last}  [{verdict(wall < GOAL_SIMULATE_S)}]"
    )
    print(f"load average at end: {load_average()}")


def decisions(strategy: Strategy) -> None:
    """Time one decision with the values of every option, on cards met in random play."""
    rng = random.Random(5)
    situations = []
    for _ in range(300):
        card = Scorecard()
        for _ in range(rng.randrange(13)):
            dice = tuple(rng.randint(1, 6) for _ in range(5))
            card = card.fill(rng.choice(sorted(card.options(dice), key=str)), dice)
        situations.append((card, tuple(rng.randint(1, 6) for _ in range(5))))
    strategy.keep_values(*situations[0], 2)  # numba's kernel loads here, once
    keeps, boxes = [], []
    for card, dice in situations:
        start = time.perf_counter()
        strategy.keep_values(card, dice, 2)
        keeps.append(time.perf_counter() - start)
        start = time.perf_counter()
        strategy.box_values(card, dice)
        boxes.append(time.perf_counter() - start)
    worst = max(max(keeps), max(boxes)) * 1000
    print(
        f"decision with every option's value: keep {statistics.median(keeps) * 1e6:.0f} us, "
        f"box {statistics.median(boxes) * 1e6:.0f} us (medians of {len(situations)}), "
        f"slowest {worst:.2f} ms  [{verdict(worst < GOAL_DECISION_MS)}]"
    )


if __name__ == "__main__":
    main()
