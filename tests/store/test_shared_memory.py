"""A WAL index (``-shm``) that cannot be written, on a full disk: opening the store is one
line and exit status 1, never a SIGBUS.

SQLite maps the ``-shm`` into memory. When another connection holds it, SQLite takes the
file as it is; a file with holes (its blocks freed, as a sparse copy leaves it) on a disk
since filled is then written through the mapping into a hole the disk cannot fill, and
the kernel kills the process with SIGBUS. The disk here is a small tmpfs, filled: it needs
the right to mount one (root)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from zar.store import SqliteStore

DMS = 128  # the byte of the -shm each connection holds a shared lock on, while it uses it


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on its own 256 KiB filesystem, unmounted at the end."""
    folder = tmp_path / f"disk-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("mounting a small filesystem needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> None:
    try:
        with (folder / "filler").open("wb") as filler:
            while True:
                filler.write(b"\0" * 4096)
                filler.flush()
    except OSError:
        pass  # full


@pytest.fixture
def held_index_with_holes(full_disk: Path) -> Iterator[Path]:
    """A store whose ``-shm`` is all holes, held by another connection, on a full disk."""
    db = full_disk / "zar.sqlite3"
    SqliteStore(db).close()
    shm = full_disk / "zar.sqlite3-shm"
    with shm.open("wb") as index:
        index.truncate(32 * 1024)  # what a sparse copy leaves: the size, no blocks
    fill(full_disk)
    fd = os.open(shm, os.O_RDWR)
    try:
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, DMS)
        yield db
    finally:
        os.close(fd)


def test_opening_the_store_is_refused_in_one_line(held_index_with_holes: Path) -> None:
    opening = f"from zar.store import SqliteStore; SqliteStore({str(held_index_with_holes)!r})"
    opened = subprocess.run(
        [sys.executable, "-c", opening], capture_output=True, text=True, check=False
    )
    assert opened.returncode == 1  # an exception, not a signal (-7: SIGBUS)
    assert "zar.sqlite3-shm: No space left on device" in opened.stderr


def test_zar_serve_stops_with_one_line(held_index_with_holes: Path) -> None:
    env = {**os.environ, "ZAR_DB": str(held_index_with_holes), "ZAR_PORT": "0"}
    env.pop("ZAR_DATABASE_URL", None)
    served = subprocess.run(
        [sys.executable, "-m", "zar", "serve"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert served.returncode == 1
    assert served.stdout == ""
    assert served.stderr.splitlines() == [
        f"zar: {held_index_with_holes} cannot be opened: "
        f"{held_index_with_holes}-shm: No space left on device"
    ]
