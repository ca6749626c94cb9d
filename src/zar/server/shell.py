"""The page's shell: the static files under a versioned name, the page and its service worker.

The static tree's version is a hash of every file in it, so a browser may keep the files
under ``/static/<version>/`` for a year: a changed file is a new version, hence new names.
The page (``/``), the manifest and the service worker (``/sw.js``) keep their names and are
checked on every visit; they name the files of the version being served.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.staticfiles import PathLike
from starlette.types import Scope

from zar.i18n import LANGUAGES

__all__ = ["FOR_A_YEAR", "NO_CACHE", "Shell", "add_shell", "tree_version"]

FOR_A_YEAR = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"  # kept, but asked again each time

# The service worker's placeholders, filled in as it is served.
_VERSION = '"__ZAR_VERSION__"'
_FILES = '["__ZAR_SHELL_FILES__"]'
_WORDS = '["__ZAR_WORDS__"]'

# The page's references to static files: its style, modules and icons.
_REFERENCE = re.compile(r'(?:href|src)="/static/([^"]+)"')


def tree_version(folder: Path) -> str:
    """12 hex digits of SHA-256 over every file's path (relative to ``folder``) and bytes:
    a file edited, added, removed or renamed gives another version."""
    digest = hashlib.sha256()
    files = sorted((p.relative_to(folder).as_posix(), p) for p in folder.rglob("*") if p.is_file())
    for name, path in files:
        data = path.read_bytes()
        # Each length said first, so that no two trees hash the same bytes.
        digest.update(b"%d:%s%d:" % (len(name.encode()), name.encode(), len(data)))
        digest.update(data)
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class Shell:
    """The static tree at one version, and the page, manifest and worker that name it."""

    folder: Path
    version: str
    files: tuple[str, ...] = field(repr=False)  # what the worker keeps for offline play
    page: bytes = field(repr=False)
    manifest: bytes = field(repr=False)
    worker: bytes = field(repr=False)

    @classmethod
    def read(cls, folder: Path) -> Shell:
        """The tree under ``folder`` as it is now: read once, when the app is made."""
        version = tree_version(folder)
        prefix = f"/static/{version}/"
        index = (folder / "index.html").read_text(encoding="utf-8")
        # What the page needs to start offline: its own references, every module (some load
        # only when a screen first opens), the icons.
        found = [*(folder / "js").glob("*.js"), *(folder / "icons").glob("*")]
        needed = {*_REFERENCE.findall(index)}
        needed |= {p.relative_to(folder).as_posix() for p in found if p.is_file()}
        files = ("/", "/manifest.webmanifest", *(prefix + name for name in sorted(needed)))
        worker = (folder / "sw.js").read_text(encoding="utf-8")
        for placeholder in (_VERSION, _FILES, _WORDS):
            if worker.count(placeholder) != 1:
                raise ValueError(f"sw.js should hold {placeholder} once")
        worker = worker.replace(_VERSION, json.dumps(version))
        worker = worker.replace(_FILES, json.dumps(files, indent=2))
        # The page's words in every language, kept at once: the app speaks offline.
        worker = worker.replace(_WORDS, json.dumps([f"/api/i18n/{lang}" for lang in LANGUAGES]))
        manifest = (folder / "manifest.webmanifest").read_text(encoding="utf-8")
        return cls(
            folder=folder,
            version=version,
            files=files,
            page=index.replace("/static/", prefix).encode(),
            manifest=manifest.replace("/static/", prefix).encode(),
            worker=worker.encode(),
        )


class _Kept(StaticFiles):
    """Static files whose replies say how long a browser may keep them."""

    def __init__(self, *, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory)
        self.cache_control = cache_control

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = self.cache_control
        return response


def add_shell(app: FastAPI, shell: Shell) -> None:
    """Serve ``shell``: ``/static/<version>/`` for a year, ``/static/`` itself (the rules
    pages, linked by plain names), the page, the manifest and ``/sw.js`` checked each time.

    Another version under ``/static/`` is a 404: its files are not these.
    """
    folder = shell.folder
    app.mount(
        f"/static/{shell.version}",
        _Kept(directory=folder, cache_control=FOR_A_YEAR),
        name="versioned",
    )
    app.mount("/static", _Kept(directory=folder, cache_control=NO_CACHE), name="static")
    headers = {"cache-control": NO_CACHE}

    @app.get("/", include_in_schema=False)
    async def page() -> Response:
        return Response(shell.page, media_type="text/html", headers=headers)

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> Response:
        return Response(shell.manifest, media_type="application/manifest+json", headers=headers)

    @app.get("/sw.js", include_in_schema=False)
    async def worker() -> Response:
        return Response(shell.worker, media_type="text/javascript", headers=headers)
