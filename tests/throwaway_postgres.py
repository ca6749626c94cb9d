"""A PostgreSQL server of the test session's own: initdb into a fresh folder, started on a
free port of 127.0.0.1, stopped and removed at the end.

As root (CI), the server runs as the ``postgres`` user, in a folder under ``/tmp`` that it
can enter. Durability is off (``fsync``): the tests need a real server, not a safe one.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

from server.serving import free_port

__all__ = ["ThrowawayPostgres", "find_bin"]


def find_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on PATH, else Debian's newest version."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent

    def version(initdb: str) -> int:
        name = Path(initdb).parent.parent.name
        return int(name) if name.isdigit() else 0

    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    return Path(versions[-1]).parent if versions else None


class ThrowawayPostgres:
    """``start()``, then ``url(database)`` for each new database, ``stop()`` at the end."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="zar-pg-", dir="/tmp"))
        self.data = self.folder / "data"
        self._as_postgres = os.geteuid() == 0
        self._databases = 0

    def _run(self, *command: str) -> None:
        argv = [str(self.bin_dir / command[0]), *command[1:]]
        if self._as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        if self._as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder}"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        log = self.folder / "server.log"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(log), "-w", "start")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        self._databases += 1
        name = f"zar_test_{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
