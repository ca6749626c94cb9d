"""The service worker's ways, run in Node against a fake browser (service_worker.mjs): the
page from its cache at once, the files of its version cache-first, the words network-first,
the games always the network's; offline, a fetch it cannot answer fails as without it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from zar.server import create_app
from zar.server.shell import tree_version
from zar.store import SqliteStore

HARNESS = Path(__file__).with_name("service_worker.mjs")
STATIC = Path(__file__).resolve().parents[2] / "src" / "zar" / "server" / "static"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js runs the service worker")

Steps = dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def steps(tmp_path_factory: pytest.TempPathFactory) -> Steps:
    folder = tmp_path_factory.mktemp("worker")
    store = SqliteStore(folder / "zar.sqlite3")
    with TestClient(create_app(store)) as client:
        (folder / "sw.js").write_text(client.get("/sw.js").text, encoding="utf-8")
    store.close()
    assert NODE is not None
    ran = subprocess.run(
        [NODE, str(HARNESS), str(folder / "sw.js")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = [json.loads(line) for line in ran.stdout.splitlines()]
    return {line.pop("step"): line for line in lines}


def test_with_nothing_cached_a_page_comes_from_the_network(steps: Steps) -> None:
    offline = steps["offline before install"]
    assert offline["answered"]
    assert offline["rejected"]  # as it would without a worker: the page's own offline screen
    assert offline["asked"] == ["/?game=abc"]


def test_installing_keeps_the_shell_and_activating_drops_other_versions(steps: Steps) -> None:
    version = tree_version(STATIC)
    kept = steps["install"]["kept"]
    assert {"/", "/manifest.webmanifest", f"/static/{version}/js/main.js"} <= set(kept)
    assert f"/static/{version}/app.css" in kept
    activated = steps["activate"]
    assert sorted(activated["caches"]) == [f"zar-shell-{version}", "zar-words"]
    assert activated["claimed"]


def test_the_page_opens_from_the_cache_and_is_refreshed_behind(steps: Steps) -> None:
    opened = steps["navigation"]
    assert opened["body"].startswith("page 1 ")  # the one cached at install, at once
    assert opened["kept"].startswith("page 2 ")  # the network's, for next time
    assert opened["asked"] == ["/"]
    offline = steps["navigation offline"]
    assert offline["status"] == 200
    assert offline["body"].startswith("page 2 ")
    # A page naming another version's files is left to that version's worker.
    other = steps["navigation to a page of another version"]
    assert other["body"].startswith("page 2 ")
    assert other["kept"].startswith("page 2 ")


def test_pages_other_than_the_app_are_left_to_the_network(steps: Steps) -> None:
    assert not steps["rules page"]["answered"]


def test_the_files_of_the_version_come_from_the_cache(steps: Steps) -> None:
    version = tree_version(STATIC)
    offline = steps["versioned file offline"]
    assert offline["status"] == 200
    assert offline["body"] == f"/static/{version}/js/main.js"
    assert offline["asked"] == []
    assert steps["manifest offline"]["status"] == 200
    missing = steps["versioned file not kept, offline"]
    assert missing["answered"]
    assert missing["rejected"]


def test_the_words_are_the_networks_and_else_the_last_heard(steps: Steps) -> None:
    online = steps["words"]
    assert online["body"] == "/api/i18n/fr?lang=fr"
    assert online["asked"] == ["/api/i18n/fr?lang=fr"]
    assert online["kept"] == "/api/i18n/fr?lang=fr"
    offline = steps["words offline"]
    assert offline["status"] == 200
    assert offline["body"] == "/api/i18n/fr?lang=fr"
    never = steps["words never heard, offline"]
    assert never["rejected"]


@pytest.mark.parametrize(
    "request_",
    [
        "GET /api/games?finished=false",
        "GET /api/games/abc",
        "GET /api/games/abc/events?lang=tr",
        "POST /api/games/abc/actions",
        "GET /api/network",
        "GET http://elsewhere.test/x.js",
    ],
)
def test_the_games_and_the_live_events_are_never_cached(steps: Steps, request_: str) -> None:
    step = steps[request_]
    assert not step["answered"]  # the browser asks the network itself, as without a worker
    assert not step["kept"]
