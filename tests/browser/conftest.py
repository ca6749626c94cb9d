"""Browser tests: Debian's Chromium, driven by Playwright, against the real app.

The app runs in this process (uvicorn in a thread) over a fresh SQLite file, with dice the
tests can script: ``dice.script(1, 1, 1, 5, 5, 5)`` makes the next throws show those
faces; unscripted throws come from the operating system's randomness, as in play.

These tests run as their own pytest invocation (``make browser``): sync Playwright leaves
an event loop running, which breaks asyncio tests run after it in the same process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Page

from dice_support import ScriptedDice
from server.serving import free_port
from zar import yams
from zar.ai import computer_player
from zar.ai.yams import Strategy
from zar.dice import SystemDice
from zar.server import create_app
from zar.store import SqliteStore
from zar.table import Seat

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium keeps trying to reach the internet.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OUTPUT = Path(__file__).resolve().parent.parent / "output"


@pytest.fixture(scope="session")
def dice() -> ScriptedDice:
    return ScriptedDice(SystemDice())


@pytest.fixture(autouse=True)
def _unscripted(dice: ScriptedDice) -> Iterator[None]:
    """Each test starts with random dice, and leaves no scripted face behind."""
    dice.clear()
    yield
    dice.clear()


@pytest.fixture(scope="session")
def base_url(
    tmp_path_factory: pytest.TempPathFactory,
    dice: ScriptedDice,
    solved: Callable[[str], Strategy],
) -> Iterator[str]:
    """The app on a free port of 127.0.0.1, for ``page.goto("/")``.

    The optimal Yams player is readied first, as ``zar serve`` does when it starts: built
    into the session's cache and its compiled code loaded, so that no page waits seconds on
    the computer's first step (more on a busy machine)."""
    solved("standard")
    warm = yams.YamsState.start(yams.YamsSettings((Seat("IA", computer=True, level="expert"),)))
    computer_player("yams", "expert").keep(warm.apply(yams.Throw(0, (), (1, 2, 3, 5, 5))))
    store = SqliteStore(tmp_path_factory.mktemp("zar") / "zar.sqlite3")
    # Every test's person is at 127.0.0.1: the whole suite starts more than 30 games a
    # minute from that one address when it runs fast, and the limit meant for one address
    # refused them (429). It is tested on its own (tests/server/test_limits.py). So are the
    # heavy reads' budgets (tests/server/test_reads.py): the whole suite's hints, reviews
    # and statistics come from that one address too; and the budget of actions, which the
    # computer's steps at ?pace=instant spend in a game (tests/server/test_action_budget.py).
    with serving(
        create_app(store, dice=dice, games_per_minute=None, read_rates=None, action_rates=None)
    ) as url:
        yield url
    store.close()


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free port of 127.0.0.1, until the end of
    the block; its address."""
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the app did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (make browser does it)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_FLAGS}


@pytest.fixture(autouse=True)
def _no_script_errors(page: Page) -> Iterator[None]:
    """No uncaught exception, no refusal by the content security policy, in any test.

    Refused requests (a 409, a 422) are part of the tests: Chromium logs them as "Failed to
    load resource", which is not counted.
    """
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and not message.text.startswith("Failed to load resource")
            else None
        ),
    )
    yield
    assert errors == []


@pytest.fixture(scope="session")
def output() -> Path:
    """tests/output/ (git-ignored): the screenshots, to look at."""
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT
