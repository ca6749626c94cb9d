"""Solved strategies kept on disk, so that a table is built once and then loaded at once.

A cache file holds numpy arrays and a header: the key it was built for (the rules, the
solver's version, any parameter) and a SHA-256 of every array. A file written for another
key, cut short, or altered in any byte is not trusted: :func:`load` returns None and the
caller builds the table again. Files are written atomically (a temporary file in the same
folder, then a rename), so a crash mid-write leaves the old file or none. A table that
takes long to build is built under :func:`building`, so that several processes on one cache
folder (a server's workers) build it once.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt

__all__ = ["building", "cache_dir", "cache_path", "load", "store"]

FORMAT = 1


def cache_dir() -> Path:
    """``$ZAR_CACHE_DIR`` when set, else the user's cache folder (``$XDG_CACHE_HOME/zar``)."""
    explicit = os.environ.get("ZAR_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "zar"


def _digest(key: Mapping[str, object]) -> str:
    text = json.dumps({"format": FORMAT, **key}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_path(name: str, key: Mapping[str, object]) -> Path:
    """Where the table ``name`` built for ``key`` lives."""
    return cache_dir() / f"{name}-{_digest(key)}.npz"


def _checksum(array: npt.NDArray[np.generic]) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def store(
    name: str, key: Mapping[str, object], arrays: Mapping[str, npt.NDArray[np.generic]]
) -> Path:
    """Write ``arrays`` for ``key`` atomically; returns the file's path."""
    path = cache_path(name, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    header = {
        "format": FORMAT,
        "key": {**key},
        "checksums": {k: _checksum(v) for k, v in arrays.items()},
    }
    fd, tmp = tempfile.mkstemp(prefix=f".{name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            entries = {"__header__": np.frombuffer(json.dumps(header).encode(), np.uint8)}
            np.savez(out, **entries, **arrays)  # type: ignore[arg-type]
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load(name: str, key: Mapping[str, object]) -> dict[str, npt.NDArray[np.generic]] | None:
    """The arrays stored for ``key``, or None when there is no file or it cannot be trusted."""
    path = cache_path(name, key)
    try:
        # The file opened here, not by np.load: numpy leaves its own open when the zip
        # cannot be read (a truncated file).
        with path.open("rb") as file, np.load(file, allow_pickle=False) as data:
            header = json.loads(bytes(data["__header__"]).decode())
            if header.get("format") != FORMAT or header.get("key") != json.loads(
                json.dumps({**key})
            ):
                return None
            checksums = header["checksums"]
            arrays = {k: data[k] for k in checksums}
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, EOFError):
        return None
    if set(arrays) != set(checksums):
        return None
    if any(_checksum(v) != checksums[k] for k, v in arrays.items()):
        return None
    return arrays


@contextmanager
def building(name: str, key: Mapping[str, object]) -> Iterator[None]:
    """Held by one process at a time on this cache folder for the table ``name`` of
    ``key``: another that would build it waits, then finds it stored. The lock (an
    ``flock`` on a file beside the table's) goes with the process that held it, however it
    ended."""
    path = cache_path(name, key).with_suffix(".lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as file:
        fcntl.flock(file, fcntl.LOCK_EX)
        yield
