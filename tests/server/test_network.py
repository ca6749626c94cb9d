"""Opening the app on a phone: ``zar serve`` on the network prints the machine's addresses
(never 0.0.0.0 nor loopback) and the app gives them with a QR code; on loopback, neither.

Nothing here listens or connects: uvicorn's ``run`` is replaced by one that asks the app
through a test client, and the machine's interfaces by fakes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import urllib.parse
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ifaddr
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from zar.cli import main
from zar.server import create_app
from zar.server import run as serving
from zar.server.network import phone_addresses, qr_code
from zar.store import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
PORT = 8123

# A laptop on a home network: loopback, and Wi-Fi with an IPv4, a link-local IPv4 (no DHCP
# answer on a second address) and IPv6 addresses.
ADAPTERS = [
    ifaddr.Adapter(
        "lo", "lo", [ifaddr.IP("127.0.0.1", 8, "lo"), ifaddr.IP(("::1", 0, 0), 128, "lo")]
    ),
    ifaddr.Adapter(
        "wlan0",
        "wlan0",
        [
            ifaddr.IP("192.168.1.20", 24, "wlan0"),
            ifaddr.IP("10.0.0.7", 8, "wlan0"),
            ifaddr.IP("169.254.3.4", 16, "wlan0"),
            ifaddr.IP(("fd00::20", 0, 0), 64, "wlan0"),
            ifaddr.IP(("fe80::1", 0, 3), 64, "wlan0"),
        ],
    ),
]


@dataclass
class Served:
    """What ``zar serve`` handed to uvicorn, and what its app said at /api/network."""

    host: str = ""
    port: int = 0
    network: dict[str, Any] = field(default_factory=dict)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Served:
    seen = Served()

    def run(app: FastAPI, *, host: str, port: int, **_: Any) -> None:
        seen.host, seen.port = host, port
        # Asked by its own name: the server answers no other (DNS rebinding).
        with TestClient(app, base_url=f"http://127.0.0.1:{port}") as client:
            seen.network = client.get("/api/network").json()

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setattr(serving, "_prepare", lambda: None)  # no warm-up thread
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: ADAPTERS)
    for name in ("ZAR_HOST", "ZAR_PORT", "ZAR_DATABASE_URL", "ZAR_GAMES_PER_MINUTE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ZAR_DB", str(tmp_path / "zar.sqlite3"))
    return seen


def serve(*options: str) -> int:
    return main(["serve", "--port", str(PORT), *options])


def printed(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_on_the_network_it_prints_each_address_a_phone_can_open(
    served: Served, capsys: pytest.CaptureFixture[str], host: str
) -> None:
    assert serve("--host", host) == 0
    lines = printed(capsys)
    addresses = [f"http://192.168.1.20:{PORT}/", f"http://10.0.0.7:{PORT}/"]
    assert lines[0] == f"Zar: {addresses[0]}  (games in {os.environ['ZAR_DB']})"
    assert lines[1] == f"Zar: {addresses[1]}"
    assert "phone" in lines[2]
    assert len(lines) == 3
    text = "\n".join(lines)
    assert "0.0.0.0" not in text
    assert "127.0.0.1" not in text
    assert "169.254." not in text  # a link-local address: no phone is on its network
    assert served.host == host
    assert served.port == PORT
    assert served.network["addresses"] == addresses
    assert served.network["qr"] == qr_code(addresses[0])


def test_on_loopback_it_prints_this_machine_only(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    assert serve() == 0
    assert printed(capsys) == [f"Zar: http://127.0.0.1:{PORT}/  (games in {os.environ['ZAR_DB']})"]
    assert served.host == "127.0.0.1"
    assert served.network == {"addresses": [], "qr": None}


def test_zar_host_is_honoured_and_host_wins(
    served: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZAR_HOST", "0.0.0.0")
    assert serve() == 0
    assert served.host == "0.0.0.0"
    assert printed(capsys)[0].startswith(f"Zar: http://192.168.1.20:{PORT}/  (games in ")
    assert serve("--host", "127.0.0.1") == 0
    assert served.host == "127.0.0.1"
    assert printed(capsys)[0].startswith(f"Zar: http://127.0.0.1:{PORT}/  (games in ")
    assert served.network["addresses"] == []


def test_a_given_address_is_the_one_printed(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    assert serve("--host", "192.168.1.20") == 0
    assert printed(capsys)[0].startswith(f"Zar: http://192.168.1.20:{PORT}/  (games in ")
    assert served.network["addresses"] == [f"http://192.168.1.20:{PORT}/"]
    assert phone_addresses("fd00::20", PORT) == [f"http://[fd00::20]:{PORT}/"]
    assert phone_addresses("::1", PORT) == []
    assert phone_addresses("localhost", PORT) == []


def test_a_machine_without_a_network_says_so(
    served: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: ADAPTERS[:1])
    assert serve("--host", "0.0.0.0") == 0
    lines = printed(capsys)
    assert lines[0].startswith(f"Zar: http://127.0.0.1:{PORT}/  (games in ")
    assert "no network address" in lines[1]
    assert served.network == {"addresses": [], "qr": None}


def test_the_app_serving_this_machine_only_gives_no_address(store: SqliteStore) -> None:
    with TestClient(create_app(store)) as client:
        assert client.get("/api/network").json() == {"addresses": [], "qr": None}


def svg(uri: str) -> ET.Element:
    prefix, _, data = uri.partition(",")
    assert prefix.startswith("data:image/svg+xml")
    return ET.fromstring(urllib.parse.unquote(data))


def modules(drawn: ET.Element, scale: int = 4) -> list[list[bool]]:
    """The dark modules of the QR code drawn: segno's one path of horizontal strokes
    (``M x y``, ``m dx dy``, ``h length``), one module high, margin included."""
    size = int(drawn.get("width") or 0) // scale
    grid = [[False] * size for _ in range(size)]
    [path] = [p.get("d") or "" for p in drawn.iter(f"{SVG}path") if p.get("stroke")]
    x = y = 0.0
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            for column in range(int(x), int(x + float(a))):
                grid[int(y)][column] = True
            x += float(a)
    return grid


def test_the_app_gives_the_addresses_and_a_qr_code_of_the_first(store: SqliteStore) -> None:
    addresses = ["http://192.168.1.20:8000/", "http://10.0.0.7:8000/"]
    with TestClient(create_app(store, addresses=addresses)) as client:
        reply = client.get("/api/network").json()
    assert reply["addresses"] == addresses
    drawn = svg(reply["qr"])
    assert drawn.tag == f"{SVG}svg"
    # Black on white, square, big enough to scan off a screen, with a margin of 4 modules.
    grid = modules(drawn)
    size = len(grid)
    assert int(drawn.get("width") or 0) == int(drawn.get("height") or 0) >= 100
    margin = [*grid[:4], *grid[-4:], *(row[:4] + row[-4:] for row in grid)]
    assert not any(any(line) for line in margin)
    # The three finder squares' top edges, in three corners.
    for top, left in ((4, 4), (4, size - 11), (size - 11, 4)):
        assert all(grid[top][left : left + 7]), (top, left)
    # It draws the first address: another address is another picture.
    assert reply["qr"] == qr_code(addresses[0]) != qr_code(addresses[1])


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbar-tools reads QR codes")
def test_the_qr_code_reads_back_as_the_address(store: SqliteStore, tmp_path: Path) -> None:
    with TestClient(create_app(store, addresses=["http://192.168.1.20:8000/"])) as client:
        grid = modules(svg(client.get("/api/network").json()["qr"]))
    # As a plain bitmap (PBM, 4 pixels a module): zbarimg reads no SVG without a renderer.
    pixels = [" ".join("1" if dark else "0" for dark in row for _ in range(4)) for row in grid]
    picture = tmp_path / "qr.pbm"
    side = 4 * len(grid)
    picture.write_text(f"P1\n{side} {side}\n" + "\n".join(p for p in pixels for _ in range(4)))
    read = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(picture)], capture_output=True, text=True, check=True
    )
    assert read.stdout.strip() == "http://192.168.1.20:8000/"


@pytest.mark.skipif(shutil.which("make") is None, reason="make runs make run")
def test_make_run_serves_the_network_only_when_told() -> None:
    def command(*variables: str, **env: str) -> str:
        dry = subprocess.run(
            ["make", "-n", "-C", str(ROOT), "run", *variables],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, **env},
        )
        [line] = [line for line in dry.stdout.splitlines() if re.search(r"zar serve", line)]
        return line

    assert "--host" not in command()
    assert "--host" not in command(HOST="laptop")  # a shell's own $HOST is a machine's name
    assert "--host 0.0.0.0" in command("HOST=0.0.0.0")
