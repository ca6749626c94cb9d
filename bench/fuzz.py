"""The HTTP API fuzzed from its OpenAPI schema, a long run: the requests tried and what failed.

The same fuzzer as ``tests/server/test_fuzz.py`` (``tests/server/fuzzing.py``: no server
error, every reply as documented, no refused request changing any game), with more
requests per operation, and the computer's expert tables built when a game asks for them
(the short run leaves the slowest ones out). Exits with 1 when anything failed.

    .venv/bin/python bench/fuzz.py [--examples 300]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from server.fuzzing import fuzzer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--examples", type=int, default=300, help="requests per operation and mode (300)"
    )
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, fuzzer(Path(folder), quick=False) as run:
        tally = run.run(args.examples)
        versions = sorted((v for _, v in run.games()), reverse=True)
    seconds = time.perf_counter() - start
    print(f"requests tried: {tally.requests} in {seconds:.1f} s")
    print("by status: " + ", ".join(f"{s}: {n}" for s, n in sorted(tally.statuses.items())))
    for operation, count in sorted(tally.operations.items()):
        print(f"  {count:6d}  {operation}")
    print(f"games: {len(versions)}, the longest logs: {versions[:6]}")
    print(f"failures: {len(tally.failures)}")
    for failure in tally.failures:
        print(f"\n{failure}")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
