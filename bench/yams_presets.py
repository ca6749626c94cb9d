"""The optimal Yams solver under each house rules: build time, peak memory, the cache
file's size and the expected score, each build against our rules' (the anchor).

Each preset is built in a process of its own (its peak memory is that process's), from an
empty table cache (``ZAR_CACHE_DIR``, a fresh temporary folder); numba's compiled code is
loaded or compiled first, on a problem of no size, not in the build time.

    .venv/bin/python bench/yams_presets.py [--presets standard,scandinavian]
"""

from __future__ import annotations

import argparse
import time

from builds import built_apart, chosen, machine

ANCHOR = "standard"


def one(name: str) -> None:
    """In the child: build one preset and print its figures on one line."""
    from zar.ai import cache, yams_solver
    from zar.ai.yams import CACHE_NAME, Strategy
    from zar.ai.yams_tables import tables
    from zar.yams import Rules

    rules = Rules(name)
    yams_solver.compile_kernels(tables(rules))
    start = time.perf_counter()
    strategy = Strategy.load(rules)
    seconds = time.perf_counter() - start
    size = cache.cache_path(CACHE_NAME, Strategy.key(rules)).stat().st_size
    print(f"{strategy.expected_score()!r} {seconds!r} {size!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", help="comma-separated names (default: every house rules)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one)
        return
    from zar.yams import HOUSE_RULES, Rules

    names = chosen(args.presets, [r.value for r in HOUSE_RULES], [r.value for r in Rules], ANCHOR)
    print(machine())
    print(
        f"{'rules':<14}{'build s':>9}{'× ours':>8}{'peak MiB':>10}{'cache MB':>10}{'expected':>11}"
    )
    anchor = None
    for name in names:
        out, peak = built_apart(__file__, ["--one", name])
        expected, seconds, size = (float(x) for x in out.split()[-3:])
        anchor = anchor or seconds
        print(
            f"{name:<14}{seconds:>9.2f}{seconds / anchor:>8.2f}{peak:>10.0f}"
            f"{size / 1e6:>10.1f}{expected:>11.4f}"
        )


if __name__ == "__main__":
    main()
