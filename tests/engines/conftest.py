"""The page in Firefox and WebKit (the engine of every iPhone): each test here runs once in
each, through :mod:`engines.drivers` (marionette_driver for Firefox, Selenium's WebKitGTK
driver and WebKitWebDriver for WebKit), against the real app in this process over a fresh
SQLite file, with the dice the tests can script, as in the Chromium suite (tests/browser).

They run as their own pytest invocation under a virtual display, without Playwright's
plugin (``make engines``). An engine that is missing fails the tests, it never skips them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _pytest.runner import runtestprotocol

import browser.conftest as chromium
from engines.drivers import CRASHES, ENGINES, Tab, tabs
from engines.person import PHONE, Person

# The app served as for the Chromium suite, with its scripted dice, each test starting unscripted.
dice = chromium.dice
_unscripted = chromium._unscripted
base_url = chromium.base_url

OUTPUT = Path(__file__).resolve().parent.parent / "output"
# Run by the system's Python (its PyGObject), not imported here.
collect_ignore = ["webkit_browser.py"]


def pytest_configure(config: pytest.Config) -> None:
    """marionette_driver leaves the sockets it tries Firefox's port with to the collector."""
    for line in (
        "ignore:Exception ignored in. <socket.socket:pytest.PytestUnraisableExceptionWarning",
        "ignore:unclosed <socket.socket:ResourceWarning",
    ):
        config.addinivalue_line("filterwarnings", line)


@pytest.fixture(scope="session")
def output() -> Path:
    """tests/output/ (git-ignored): the screenshots, to look at, and the browsers' logs."""
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT


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
