"""A table built in a process of its own from an empty table cache: what it printed and its
peak memory (the benches of the solvers under each preset of house rules)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence


def built_apart(script: str, args: Sequence[str]) -> tuple[str, float]:
    """Run ``script args`` in a child process whose ``ZAR_CACHE_DIR`` is a fresh temporary
    folder; its standard output and its peak resident memory in MiB. A failed child ends
    the bench with its status."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "ZAR_CACHE_DIR": cache}
        child = subprocess.Popen(
            [sys.executable, script, *args], env=env, stdout=subprocess.PIPE, text=True
        )
        assert child.stdout is not None
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"{' '.join(args)}: the build failed (status {status >> 8})")
    return out, usage.ru_maxrss / 1024
