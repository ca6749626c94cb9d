"""The 10 000 solver under each preset of house rules: build time, peak memory, points per
turn, the first player's chance, and each against the seeds' rules.

Each preset whose chance of winning is solved is built in a process of its own (its peak
memory is that process's), from an empty table cache (``ZAR_CACHE_DIR``, a fresh
temporary folder); numba's compiled code is loaded or compiled first, not in the build
time. The presets with a penalty for three lost turns in a row get their points per turn
only here: their chance of winning (tens of minutes each) is bench/farkle_penalty.py's.

    .venv/bin/python bench/farkle_presets.py [--target 10000] [--presets seed,bank-300]
"""

from __future__ import annotations

import argparse
import time

from builds import built_apart, chosen, machine

ANCHOR = "seed"


def one(name: str, target: int) -> None:
    """In the child: build one preset and print its figures on one line."""
    from zar.ai import farkle_solver
    from zar.ai.farkle import TurnStrategy, WinStrategy
    from zar.farkle import PRESETS

    rules = PRESETS[name]
    farkle_solver.compile_kernels()
    turn = TurnStrategy.load(rules).points_per_turn()
    if rules.three_lost:
        print(f"{turn!r} nan nan")
        return
    start = time.perf_counter()
    wins = WinStrategy.load(target, rules=rules).first_player_wins()
    print(f"{turn!r} {wins!r} {time.perf_counter() - start!r}")


def measure(name: str, target: int) -> tuple[float, float, float, float]:
    """(points per turn, first player wins, build seconds, peak MiB) of a child's build."""
    out, peak = built_apart(__file__, ["--one", name, "--target", str(target)])
    turn, wins, seconds = (float(x) for x in out.split()[-3:])
    return turn, wins, seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=10_000)
    parser.add_argument("--presets", help="comma-separated names (default: every preset)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one, args.target)
        return
    from zar.farkle import PRESETS

    names = chosen(args.presets, list(PRESETS), PRESETS, ANCHOR)
    print(f"target {args.target}; {machine()}")
    header = (
        f"{'preset':<16}{'build s':>9}{'peak MiB':>10}{'points/turn':>13}{'ratio':>8}"
        f"{'first wins':>12}{'ratio':>8}"
    )
    print(header)
    anchor: tuple[float, float] | None = None
    for name in names:
        turn, wins, seconds, peak = measure(name, args.target)
        if anchor is None:
            anchor = (turn, wins)
        solved = wins == wins  # NaN: a penalty preset (bench/farkle_penalty.py)
        print(
            f"{name:<16}{f'{seconds:.1f}' if solved else '-':>9}{peak:>10.0f}{turn:>13.2f}"
            f"{turn / anchor[0]:>8.4f}"
            f"{f'{wins:.5f}' if solved else '-':>12}"
            f"{f'{wins / anchor[1]:.4f}' if solved else '-':>8}"
        )


if __name__ == "__main__":
    main()
