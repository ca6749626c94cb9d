"""The static files under the tree's version, kept a year; the page, the manifest and the
service worker under their own names, asked again each visit, naming that version."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from httpx2 import Response

from zar.server import create_app
from zar.server.shell import FOR_A_YEAR, NO_CACHE, Shell, tree_version
from zar.store import SqliteStore

STATIC = Path(__file__).resolve().parents[2] / "src" / "zar" / "server" / "static"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with TestClient(create_app(store)) as c:
        yield c
    store.close()


@pytest.fixture
def version() -> str:
    return tree_version(STATIC)


def checked_each_visit(client: TestClient, path: str, media_type: str) -> Response:
    """``path``'s reply: there, of ``media_type``, and no browser keeps it without asking."""
    reply = client.get(path)
    assert reply.status_code == 200, path
    assert reply.headers["content-type"].startswith(media_type), path
    assert reply.headers["cache-control"] == NO_CACHE, path
    return reply


def references(page: str) -> list[str]:
    return re.findall(r'(?:href|src)="([^"]+)"', page)


def shell_files(worker: str) -> list[str]:
    """The files the service worker keeps, as it was served."""
    found = re.search(r"const SHELL_FILES = (\[.*?\]);", worker, re.DOTALL)
    assert found, worker[:400]
    files: list[str] = json.loads(found[1])
    return files


def test_any_change_to_any_file_changes_the_version(tmp_path: Path) -> None:
    tree = tmp_path / "static"
    shutil.copytree(STATIC, tree)
    first = tree_version(tree)
    assert re.fullmatch(r"[0-9a-f]{12}", first)
    assert tree_version(tree) == first  # the same files, the same version

    module = tree / "js" / "dice.js"
    source = module.read_bytes()
    module.write_bytes(source + b"\n")
    edited = tree_version(tree)
    module.write_bytes(source)
    assert tree_version(tree) == first
    (tree / "icons" / "new.svg").write_bytes(b"")  # an empty file, added
    added = tree_version(tree)
    (tree / "icons" / "new.svg").unlink()
    module.rename(tree / "js" / "dice2.js")
    renamed = tree_version(tree)
    assert len({first, edited, added, renamed}) == 4
    # and the shell of that tree names its version
    assert Shell.read(tree).version == renamed


def test_the_page_names_the_files_of_its_version_and_each_is_kept_a_year(
    client: TestClient, version: str
) -> None:
    page = checked_each_visit(client, "/", "text/html")
    static = [ref for ref in references(page.text) if ref.startswith("/static/")]
    assert len(static) >= 10  # the style, the icons, the modules
    assert "/static/" not in page.text.replace(f"/static/{version}/", "")
    for ref in static:
        assert ref.startswith(f"/static/{version}/"), ref
        reply = client.get(ref)
        assert reply.status_code == 200, ref
        assert reply.headers["cache-control"] == FOR_A_YEAR, ref
        assert reply.content == (STATIC / ref.removeprefix(f"/static/{version}/")).read_bytes()
    # The modules import each other by relative names: under the version too.
    main = (STATIC / "js" / "main.js").read_text(encoding="utf-8")
    assert re.search(r'from "\./[a-z]+\.js"', main)
    assert not re.search(r'from "/', main)


def test_the_manifest_names_icons_of_the_version(client: TestClient, version: str) -> None:
    manifest = checked_each_visit(client, "/manifest.webmanifest", "application/manifest+json")
    icons = [icon["src"] for icon in manifest.json()["icons"]]
    assert icons
    for src in icons:
        assert src.startswith(f"/static/{version}/icons/")
        assert client.get(src).headers["cache-control"] == FOR_A_YEAR


def test_another_version_is_not_found(client: TestClient, version: str) -> None:
    other = "0" * 12 if version != "0" * 12 else "1" * 12
    for path in (f"/static/{other}/app.css", f"/static/{other}/js/main.js"):
        missing = client.get(path)
        assert missing.status_code == 404, path
        assert missing.json()["reason"] == "not-found"
    assert client.get(f"/static/{version}/js/nope.js").status_code == 404


def test_plain_static_names_still_serve_checked_each_time(client: TestClient) -> None:
    """The rules pages and their style are linked by plain names."""
    checked_each_visit(client, "/static/rules/en.html", "text/html")
    checked_each_visit(client, "/static/rules/rules.css", "text/css")
    checked_each_visit(client, "/static/icons/icon.svg", "image/svg+xml")


def test_the_service_worker_keeps_files_that_exist_of_its_version(
    client: TestClient, version: str
) -> None:
    worker = checked_each_visit(client, "/sw.js", "text/javascript")
    assert f'const VERSION = "{version}";' in worker.text
    assert "__ZAR_" not in worker.text  # every placeholder filled in
    files = shell_files(worker.text)
    assert len(files) == len(set(files))
    for path in files:
        assert path in ("/", "/manifest.webmanifest") or path.startswith(f"/static/{version}/")
        assert client.get(path).status_code == 200, path
    # what the page needs to start: its own references, every module, every icon
    page = client.get("/").text
    needed = {ref for ref in references(page) if ref.startswith("/")}
    needed |= {f"/static/{version}/js/{p.name}" for p in (STATIC / "js").glob("*.js")}
    needed |= {f"/static/{version}/icons/{p.name}" for p in (STATIC / "icons").iterdir()}
    assert needed | {"/"} <= set(files)


def test_a_service_worker_without_its_placeholders_is_refused(tmp_path: Path) -> None:
    tree = tmp_path / "static"
    shutil.copytree(STATIC, tree)
    worker = tree / "sw.js"
    worker.write_text(worker.read_text(encoding="utf-8").replace('"__ZAR_VERSION__"', '"1"'))
    with pytest.raises(ValueError, match="__ZAR_VERSION__"):
        Shell.read(tree)
