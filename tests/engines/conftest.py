"""The page in Firefox and WebKit (the engine of every iPhone): each test here runs once in
each, through :mod:`engines.drivers` (WebDriver BiDi for Firefox, WebKitWebDriver for
WebKit), against the real app in this process over a fresh SQLite file, with the dice the
tests can script, as in the Chromium suite (tests/browser).

They run as their own pytest invocation under a virtual display, without Playwright's
plugin (``make engines``). An engine that is missing fails the tests, it never skips them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _pytest.runner import runtestprotocol

from browser.conftest import serving
from browser.scripted_dice import ScriptedDice
from engines.drivers import CRASHES, ENGINES, Tab, tabs
from engines.person import PHONE, Person
from zar.ai.yams import Strategy
from zar.server import create_app
from zar.store import SqliteStore

OUTPUT = Path(__file__).resolve().parent.parent / "output"
# Run by the system's Python (its PyGObject), not imported here.
collect_ignore = ["webkit_browser.py"]


@pytest.fixture(scope="session")
def output() -> Path:
    """tests/output/ (git-ignored): the screenshots, to look at, and the browsers' logs."""
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT


@pytest.fixture(scope="session")
def dice() -> ScriptedDice:
    return ScriptedDice()


@pytest.fixture(autouse=True)
def _unscripted(dice: ScriptedDice) -> Iterator[None]:
    dice.clear()
    yield
    dice.clear()


@pytest.fixture(scope="session")
def base_url(
    tmp_path_factory: pytest.TempPathFactory,
    dice: ScriptedDice,
    solved: Callable[[str], Strategy],
) -> Iterator[str]:
    """The app on a free port of 127.0.0.1, its optimal Yams player readied first."""
    solved("standard")
    store = SqliteStore(tmp_path_factory.mktemp("zar") / "zar.sqlite3")
    with serving(create_app(store, dice=dice, games_per_minute=None)) as url:
        yield url
    store.close()


@pytest.fixture(scope="session", params=ENGINES)
def engine(request: pytest.FixtureRequest, output: Path) -> Iterator[Callable[[], Tab]]:
    """Firefox or WebKit, started once for all the tests of that engine: a way to open a
    tab (a phone of its own: cookies and storage apart) in it."""
    yield from tabs(request.param, output)


@pytest.fixture
def new_tab(engine: Callable[[], Tab]) -> Iterator[Callable[[], Tab]]:
    """Open tabs, each at a phone's 390 x 844; at the end, none may have logged an error
    (an uncaught exception, a refusal by the content security policy, ...)."""
    opened: list[Tab] = []

    def open_tab() -> Tab:
        tab = engine()
        tab.resize(*PHONE)
        opened.append(tab)
        return tab

    yield open_tab
    errors = [(tab.engine, e) for tab in opened for e in tab.errors() if not refused(e)]
    for tab in opened:
        tab.close()
    assert errors == []


def refused(message: str) -> bool:
    """A refused request (a 409, a 422) is part of the tests: the engine logs it, it is not
    the page's error."""
    return "Failed to load resource: the server responded with a status of 4" in message


@pytest.fixture
def tab(new_tab: Callable[[], Tab]) -> Tab:
    return new_tab()


@pytest.fixture
def person(tab: Tab, base_url: str) -> Person:
    return Person(tab, base_url)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """A WebKit test whose page's process crashed (the virtual display's software GL does,
    now and then) runs once more, and the run says so; any other failure stands."""
    if "[webkit" not in item.nodeid:
        return None
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    crashed = len(CRASHES)
    reports = runtestprotocol(item, nextitem=nextitem, log=False)
    if any(report.failed for report in reports) and len(CRASHES) > crashed:
        reporter = item.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                f"{item.nodeid}: WebKit's page process crashed ({CRASHES[-1]}): once more"
            )
        item._initrequest()  # type: ignore[attr-defined]
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
    for report in reports:
        item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True
