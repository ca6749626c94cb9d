"""The 10 000 solver under a penalty for three lost turns in a row (the presets
``facebook``, ``three-lost-500`` and ``three-lost-1000``): build time, sweeps, peak memory
and the first player's chance, for a bound on the banked totals (Busche's -2 500 by
default).

Each preset is solved in a process of its own (its peak memory and processor time are that
process's); numba's compiled code is loaded or compiled first, not in the build time. No
table cache is read or written.

    .venv/bin/python bench/farkle_penalty.py [--target 10000] [--presets facebook]
        [--low -2500]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

PENALTY_PRESETS = ("facebook", "three-lost-500", "three-lost-1000")


def one(name: str, target: int, low: int) -> None:
    """In the child: solve one preset, a line per sweep, then its figures on one line."""
    from zar.ai import farkle_solver
    from zar.ai.farkle_penalty import solve_penalty_game
    from zar.farkle import PRESETS

    rules = PRESETS[name]
    farkle_solver.compile_kernels()
    solve_penalty_game(2, rules, low=-1)  # compiles the sweeps' kernels
    start = time.perf_counter()

    def sweep(done: int, change: float) -> None:
        print(f"  sweep {done}: largest change {change:.1e} ({time.perf_counter() - start:.0f} s)")
        sys.stdout.flush()

    game = solve_penalty_game(target // 50, rules, low=low // 50, progress=sweep)
    wins = float(game.win[-game.low, -game.low, 0, 0])
    print(f"{wins!r} {len(game.changes)} {time.perf_counter() - start!r}")


def measure(name: str, target: int, low: int) -> tuple[float, int, float, float, float]:
    """(first player wins, sweeps, build seconds, processor seconds, peak MiB) of a child."""
    child = subprocess.Popen(
        [sys.executable, __file__, "--one", name, "--target", str(target), "--low", str(low)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    last = ""
    for line in child.stdout:
        if line.startswith("  "):
            print(line.rstrip(), flush=True)
        else:
            last = line
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"{name}: the solve failed (status {status >> 8})")
    wins, sweeps, seconds = last.split()
    cpu = usage.ru_utime + usage.ru_stime
    return float(wins), int(sweeps), float(seconds), cpu, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=10_000)
    parser.add_argument("--low", type=int, default=-2_500, help="the bound on a total")
    parser.add_argument("--presets", default=",".join(PENALTY_PRESETS), help="comma-separated")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one, args.target, args.low)
        return
    names = args.presets.split(",")
    unknown = [n for n in names if n not in PENALTY_PRESETS]
    if unknown:
        raise SystemExit(f"not a penalty preset: {', '.join(unknown)}")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"target {args.target}, totals from {args.low}; {os.cpu_count()} cores;", end=" ")
    print(f"load average at start: {load}")
    for name in names:
        wins, sweeps, seconds, cpu, peak = measure(name, args.target, args.low)
        print(
            f"{name}: first player wins {wins:.7f}; {sweeps} sweeps, built in {seconds:.0f} s"
            f" ({cpu:.0f} s of processor), peak {peak:.0f} MiB",
            flush=True,
        )


if __name__ == "__main__":
    main()
