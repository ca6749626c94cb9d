"""A table built in a process of its own from an empty table cache: what it printed and its
peak memory (the benches of the solvers under each preset of house rules)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Collection, Sequence


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


def chosen(
    asked: str | None, every: Sequence[str], known: Collection[str], anchor: str
) -> list[str]:
    """The names ``--presets`` asked for (comma-separated; None: ``every``), the anchor
    first when it was not asked for; a name not ``known`` ends the bench, saying them."""
    names = asked.split(",") if asked else list(every)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown names {', '.join(unknown)}: {', '.join(known)}")
    return names if anchor in names else [anchor, *names]


def machine() -> str:
    """The cores and the load average as the bench starts."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{os.cpu_count()} cores; load average at start: {load}"
