"""Text sent gzipped to a client that takes it, the security headers on every reply all the
same; the live events never compressed, so that each arrives as it happens."""

from __future__ import annotations

import gzip
import json
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.serving import Server, running
from zar.server import create_app
from zar.server.limits import MAX_BODY_BYTES, SECURITY_HEADERS
from zar.server.shell import tree_version
from zar.store import SqliteStore

STATIC = Path(__file__).resolve().parents[2] / "src" / "zar" / "server" / "static"
GZIP = {"accept-encoding": "gzip"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with TestClient(create_app(store, games_per_minute=2)) as c:
        yield c
    store.close()


def texts() -> dict[str, str]:
    """A reply of each kind of text the app sends, each well over 500 bytes."""
    version = tree_version(STATIC)
    return {
        "the page": "/",
        "a module": f"/static/{version}/js/game.js",
        "the style": f"/static/{version}/app.css",
        "an icon": f"/static/{version}/icons/icon.svg",
        "a rules page": "/static/rules/en.html",
        "the manifest": "/manifest.webmanifest",
        "the service worker": "/sw.js",
        "the words": "/api/i18n/en",
        "the schema": "/api/openapi.json",
    }


@pytest.mark.parametrize("what", texts())
def test_text_is_gzipped_for_a_client_that_takes_it(client: TestClient, what: str) -> None:
    path = texts()[what]
    plain = client.get(path, headers={"accept-encoding": "identity"})
    assert plain.status_code == 200
    assert "content-encoding" not in plain.headers
    assert len(plain.content) >= 500

    # The raw bytes as sent, not as httpx decodes them.
    with client.stream("GET", path, headers=GZIP) as packed:
        raw = b"".join(packed.iter_raw())
    assert packed.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in packed.headers["vary"].lower()
    assert int(packed.headers["content-length"]) == len(raw) < len(plain.content)
    assert gzip.decompress(raw) == plain.content
    for name, value in SECURITY_HEADERS.items():
        assert packed.headers[name] == value, name


def test_pictures_and_short_replies_go_as_they_are(client: TestClient) -> None:
    version = tree_version(STATIC)
    png = client.get(f"/static/{version}/icons/icon-512.png", headers=GZIP)
    assert png.status_code == 200
    assert "content-encoding" not in png.headers  # compressed already
    network = client.get("/api/network", headers=GZIP)
    assert len(network.content) < 500
    assert "content-encoding" not in network.headers


def test_refusals_asked_with_gzip_carry_the_security_headers(client: TestClient) -> None:
    """Short, so sent as they are, but through the gzip layer all the same."""
    new = {"game": "yams", "players": ["Ali"]}
    assert client.post("/api/games", json=new).status_code == 201
    refusals = {
        404: client.get("/static/000000000000/app.css", headers=GZIP),
        405: client.delete("/api/games", headers=GZIP),
        413: client.post("/api/games", content=b"x" * (MAX_BODY_BYTES + 1), headers=GZIP),
        422: client.post("/api/games", json={"game": "chess"}, headers=GZIP),  # not counted
        201: client.post("/api/games", json=new, headers=GZIP),  # the 2nd start
        429: client.post("/api/games", json=new, headers=GZIP),
    }
    for status, reply in refusals.items():
        assert reply.status_code == status
        if status == 201:
            continue
        for name, value in SECURITY_HEADERS.items():
            assert reply.headers[name] == value, (status, name)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(tmp_path / "zar.sqlite3") as started:
        yield started


def test_the_live_events_are_never_compressed_and_still_stream(server: Server) -> None:
    """A real server: each state arrives as it happens, gzip asked for or not."""
    game = server.call("POST", "/api/games", {"game": "yams", "players": ["Ali"]})
    request = urllib.request.Request(
        f"{server.url}/api/games/{game['id']}/events", headers={"accept-encoding": "gzip"}
    )
    seen: list[dict[str, Any]] = []
    arrived = threading.Condition()
    with server.open(request, timeout=20) as events:
        assert events.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in events.headers

        def follow() -> None:
            for raw in events:
                line = raw.decode().strip()  # text as it came: no gzip in the way
                if line.startswith("data: "):
                    with arrived:
                        seen.append(json.loads(line[6:]))
                        arrived.notify_all()
                    if len(seen) == 2:
                        return

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        with arrived:
            assert arrived.wait_for(lambda: len(seen) == 1, timeout=10)
        assert len(json.dumps(seen[0])) > 500  # it would have been compressed
        thrown = server.call(
            "POST", f"/api/games/{game['id']}/actions", {"version": 0, "type": "throw"}
        )
        with arrived:
            assert arrived.wait_for(lambda: len(seen) == 2, timeout=10)
        follower.join(timeout=10)
    assert seen[1] == thrown
