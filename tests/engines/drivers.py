"""Firefox and WebKit behind one small interface (:class:`Tab`), so that each test is
written once and runs in both, each driven by the client made for it:

- Firefox by ``marionette_driver``, Mozilla's client of Firefox's own Marionette protocol:
  it starts Firefox ESR headless (mozrunner, a fresh profile with the prefs below; no
  geckodriver). Each tab is a container tab of its own (its cookies and storage: one
  phone) and is sized in Firefox's chrome, as WebDriver BiDi's user contexts and viewports
  are. The page's console and uncaught errors go to Firefox's output
  (``devtools.console.stdout.content``), which mozrunner writes to a log; the refusals of
  the content security policy, which go only to the web console, are written there too by
  a listener on Firefox's console service.
- WebKit by Selenium's WebKitGTK driver: WebKitWebDriver (one per tab: it drives one
  session at a time) starts a browser of one window (``webkit_browser.py``) under a virtual
  display; what the page writes to its console goes to the driver's log.

Both find an element among the visible ones a script picks out by the engine's own role
and accessible name (WebDriver's computed role and label), tap it with WebDriver's element
click (the browser's own input, not ``el.click()`` in script) once nothing covers it, and
any console error fails the test.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from selenium.common.exceptions import WebDriverException
from selenium.webdriver import WebKitGTK
from selenium.webdriver.remote.webelement import WebElement as WebKitElement
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

with warnings.catch_warnings():  # mozinfo, on importing, asks distro what it deprecates
    warnings.simplefilter("ignore", DeprecationWarning)
    from marionette_driver.errors import MarionetteException
    from marionette_driver.marionette import Marionette
    from marionette_driver.marionette import WebElement as FirefoxElement

FIREFOX = Path("/usr/bin/firefox-esr")
WEBKIT_DRIVER = Path("/usr/bin/WebKitWebDriver")
SYSTEM_PYTHON = Path("/usr/bin/python3")  # the one with Debian's PyGObject (python3-gi)
# Run by SYSTEM_PYTHON (its first line): the browser WebKitWebDriver starts.
WEBKIT_BROWSER = Path(__file__).resolve().parent / "webkit_browser.py"
ENGINES = ("firefox", "webkit")
WAIT = 10.0  # seconds any expectation waits before it fails
POLL = 0.02  # seconds between two looks

# Desktop Firefox on Linux draws classic scrollbars that take 12 px of the width; a phone's
# float over the page. The page's console to Firefox's output, Firefox's own not. The rest
# keeps it from reaching the internet.
FIREFOX_PREFS = {
    "ui.useOverlayScrollbars": 1,
    "devtools.console.stdout.content": True,
    "devtools.console.stdout.chrome": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.normandy.enabled": False,
    "app.update.disabledForTesting": True,
    "network.connectivity-service.enabled": False,
    "network.captive-portal-service.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "extensions.update.enabled": False,
    "services.settings.server": "http://127.0.0.1:9/",
    "messaging-system.rsexperimentloader.enabled": False,
}

# The roles both engines name otherwise than ARIA 1.2 (and Playwright): ARIA 1.3's names.
ROLE_NAMES = {"img": "image"}

# A command the browser refused (an element gone, a tap on something covered ...).
DriverError: tuple[type[Exception], ...] = (WebDriverException, MarionetteException)


@dataclass(frozen=True)
class Element:
    """An element of the page: the library's own (``handle``), in its tab."""

    tab: Tab
    handle: Any

    def click(self) -> None:
        """A tap on its centre, once nothing covers it there (a banner passing, a dialog)."""
        until(lambda: self.js(RECEIVES_TAPS), f"nothing over {self.handle.id} to tap it")
        self.tab.click(self)

    def type(self, text: str) -> None:
        self.tab.type(self, text)

    def js(self, function: str, *args: Any) -> Any:
        """``function(element, ...args)`` in the page; its result."""
        return self.tab.js(function, self, *args)

    def rect(self) -> dict[str, float]:
        return self.tab.rect(self)

    def attribute(self, name: str) -> str | None:
        return self.tab.attribute(self, name)

    def text(self) -> str:
        value: str = self.js("(e) => e.textContent")
        return value

    def visible(self) -> bool:
        return bool(self.js("(e) => e.isConnected && e.checkVisibility()"))

    def enabled(self) -> bool:
        return self.tab.enabled(self)


# Scrolled into view as a person would: to the nearest edge, else, when something stays over
# it there (the dialog's buttons kept at its bottom), to the middle of what scrolls.
RECEIVES_TAPS = """(e) => {
  const receives = () => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null
      && (e === hit || e.contains(hit) || e.labels?.[0]?.contains(hit) === true);
  };
  e.scrollIntoView({block: 'nearest', inline: 'nearest'});
  if (receives()) return true;
  e.scrollIntoView({block: 'center', inline: 'nearest'});
  return receives(); }"""

# The elements that may have a role (an explicit one, or their tag's), visible; with a name,
# those whose text or labels hold it: the engine then says each one's role and name.
CANDIDATES = """(within, role, name) => {
  const tags = {button: 'button, input[type=button], input[type=submit], summary',
    link: 'a[href]', textbox: 'input:not([type]), input[type=text], textarea',
    checkbox: 'input[type=checkbox]',
    radio: 'input[type=radio]', heading: 'h1, h2, h3, h4, h5, h6', dialog: 'dialog',
    group: 'fieldset', radiogroup: '', image: 'img, svg',
    region: 'section[aria-label], section[aria-labelledby]',
    status: 'output', alert: '', listitem: 'li', row: 'tr', cell: 'td', combobox: 'select',
    columnheader: 'th', table: 'table', list: 'ul, ol', banner: 'header'};
  const selector = [`[role~="${role}"]`, tags[role]].filter(Boolean).join(', ');
  const all = [...(within || document).querySelectorAll(selector)].filter((e) => e.checkVisibility()
    && !e.closest('[aria-hidden="true"], [inert]'));
  const text = (id) => document.getElementById(id)?.textContent;
  const says = (e) => [e.getAttribute('aria-label'), e.textContent, e.getAttribute('alt'),
    ...[...(e.labels || [])].map((l) => l.textContent),
    ...(e.getAttribute('aria-labelledby') || '').split(' ').map(text)]
    .some((s) => s && s.replace(/\\s+/g, ' ').includes(name));
  return name === null ? all : all.filter(says);
}"""


class Tab(Protocol):
    """One browser tab (its own cookies and storage: one phone)."""

    engine: str

    def goto(self, url: str) -> None: ...
    def reload(self) -> None: ...
    def resize(self, width: int, height: int) -> None: ...
    def js(self, function: str, *args: Any) -> Any: ...
    def find_all(
        self, role: str, name: str | None, within: Element | None = None
    ) -> list[Element]: ...
    def name_of(self, element: Element, role: str) -> str: ...
    def click(self, element: Element) -> None: ...
    def type(self, element: Element, text: str) -> None: ...
    def rect(self, element: Element) -> dict[str, float]: ...
    def attribute(self, element: Element, name: str) -> str | None: ...
    def enabled(self, element: Element) -> bool: ...
    def screenshot(self, path: Path) -> None: ...
    def console(self) -> list[str]: ...
    def errors(self) -> list[str]: ...
    def close(self) -> None: ...


def until(check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """``check()`` once it is truthy (asked again every 20 ms), else a failure saying what was
    awaited; an element gone or a command refused meanwhile is asked again."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while True:
        try:
            value = check()
            if value:
                return value
        except DriverError as error:
            last = error
        if time.monotonic() > deadline:
            raise AssertionError(
                f"still not {what} after {timeout} s" + (f" ({last})" if last else "")
            )
        time.sleep(POLL)


class _Tab:
    """What both engines do alike, on the library's WebDriver commands."""

    engine: str
    # The lines of the browser's output since this tab opened; which of them are the page's
    # console and which its errors.
    log: Path
    start: int
    CONSOLE: re.Pattern[str]
    ERROR: re.Pattern[str]
    # The properties of the library's element that ask the engine for its computed role and
    # its accessible name.
    ROLE: str
    NAME: str

    def _front(self) -> None:
        """This tab the one the commands go to."""

    def _execute(self, script: str, args: list[Any]) -> Any:
        raise NotImplementedError

    def _role(self, element: Element) -> str:
        role: str = getattr(element.handle, self.ROLE)
        return role

    def name_of(self, element: Element, role: str) -> str:
        """The engine's accessible name of ``element`` (of ``role``)."""
        label: str = getattr(element.handle, self.NAME)
        return label

    def js(self, function: str, *args: Any) -> Any:
        """``function(...args)`` in the page (a promise awaited); its result, the elements in
        it this tab's."""
        self._front()
        handles = [a.handle if isinstance(a, Element) else a for a in args]
        return self._elements(self._execute(f"return ({function})(...arguments);", handles))

    def _elements(self, value: Any) -> Any:
        if isinstance(value, FirefoxElement | WebKitElement):
            return Element(self, value)  # type: ignore[arg-type]
        if isinstance(value, list):
            return [self._elements(v) for v in value]
        return value

    def find_all(self, role: str, name: str | None, within: Element | None = None) -> list[Element]:
        role = ROLE_NAMES.get(role, role)
        if name is not None:  # those that show the name first; then any
            found = self._matching(self.js(CANDIDATES, within, role, name), role, name)
            if found:
                return found[:1]
        return self._matching(self.js(CANDIDATES, within, role, None), role, name)

    def _matching(self, candidates: list[Element], role: str, name: str | None) -> list[Element]:
        found = []
        for element in candidates:
            try:
                if self._role(element) != role:
                    continue
                if name is None or self.name_of(element, role) == name:
                    found.append(element)
            except DriverError:
                continue  # gone meanwhile
        return found

    def click(self, element: Element) -> None:
        self._front()
        element.handle.click()

    def type(self, element: Element, text: str) -> None:
        self._front()
        element.handle.clear()
        element.handle.send_keys(text)

    def rect(self, element: Element) -> dict[str, float]:
        """Where it is in the viewport (not WebDriver's rect: WebKitWebDriver refuses it for
        a disabled button, a die set aside)."""
        found: dict[str, float] = self.js(
            "(e) => { const r = e.getBoundingClientRect();"
            " return {x: r.x, y: r.y, w: r.width, h: r.height}; }",
            element,
        )
        return found

    def enabled(self, element: Element) -> bool:
        self._front()
        return bool(element.handle.is_enabled())

    def _wait_size(self, width: int, height: int) -> None:
        until(
            lambda: self.js("() => [innerWidth, innerHeight]") == [width, height],
            f"a page of {width} x {height}",
        )

    def _lines(self) -> list[str]:
        return self.log.read_bytes()[self.start :].decode(errors="replace").splitlines()

    def console(self) -> list[str]:
        """What the page wrote to its console since this tab opened, one line each (and its
        uncaught errors, and the refusals of its content security policy)."""
        return [line for line in self._lines() if self.CONSOLE.search(line)]

    def errors(self) -> list[str]:
        """The console's errors (and the uncaught exceptions, the refusals of the content
        security policy) since this tab opened."""
        return [line for line in self.console() if self.ERROR.search(line)]


# Firefox, marionette_driver

# In Firefox's chrome: a new container tab (its own cookies and storage), in front.
NEW_TAB = """
const { ContextualIdentityService } = ChromeUtils.importESModule(
  "resource://gre/modules/ContextualIdentityService.sys.mjs");
const { userContextId } = ContextualIdentityService.create("zar");
const gBrowser = Services.wm.getMostRecentBrowserWindow().gBrowser;
gBrowser.selectedTab = gBrowser.addTab("about:blank", {userContextId,
  triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal()});
return userContextId;
"""
# The container gone, and what its pages stored.
END_CONTAINER = """
const { ContextualIdentityService } = ChromeUtils.importESModule(
  "resource://gre/modules/ContextualIdentityService.sys.mjs");
ContextualIdentityService.remove(arguments[0]);
"""
# The page of the tab in front exactly width x height (what BiDi's setViewport does).
SET_VIEWPORT = """
const [width, height] = arguments;
const browser = Services.wm.getMostRecentBrowserWindow().gBrowser.selectedBrowser;
browser.style.setProperty("width", width + "px");
browser.style.setProperty("height", height + "px");
browser.ownerDocument.synchronouslyUpdateRemoteBrowserDimensions(true);
"""
# The web console's errors that do not go to Firefox's output by themselves (the refusals of
# the content security policy), written there; the scripts' own errors already are.
CONSOLE_LISTENER = """
Services.console.registerListener({observe(message) {
  if (message instanceof Ci.nsIScriptError && !message.isFromChromeContext
      && message.category !== "content javascript"
      && !(message.flags & (Ci.nsIScriptError.warningFlag | Ci.nsIScriptError.infoFlag)))
    dump(`Web console error: ${message.category}: ${message.errorMessage}\\n`);
}});
"""


class Firefox:
    """Firefox ESR, headless, started by marionette_driver; its first tab kept open (the
    session ends with its last), each tab of the tests a container tab of its own."""

    def __init__(self, log: Path) -> None:
        if not FIREFOX.exists():
            raise AssertionError(
                f"{FIREFOX} is missing: apt-get install -y firefox-esr (make engines does it)"
            )
        self.log = log
        self.marionette = Marionette(
            bin=str(FIREFOX), headless=True, port=0, prefs=FIREFOX_PREFS, gecko_log=str(log)
        )
        self.marionette.start_session()
        # Larger than any page a test asks for: each tab's page is sized inside it.
        self.marionette.set_window_rect(width=1600, height=1100)
        self.home: str = self.marionette.current_window_handle
        self.front = self.home
        with self.marionette.using_context("chrome"):
            self.marionette.execute_script(CONSOLE_LISTENER, new_sandbox=False)

    def show(self, handle: str) -> None:
        if self.front != handle:
            self.marionette.switch_to_window(handle)
            self.front = handle

    def tab(self) -> FirefoxTab:
        return FirefoxTab(self)

    def close(self) -> None:
        self.marionette.cleanup()


class FirefoxTab(_Tab):
    engine = "firefox"
    # Firefox's output: the page's console (``console.error: …``), its scripts' errors
    # (``JavaScript error: http://…``); not Firefox's own (``resource://…``, and its
    # experiments' loader, which finds no server offline).
    PAGE = r"(?!resource:|chrome:|moz-|RSLoader:)"
    CONSOLE = re.compile(
        rf"^(console\.\w+: {PAGE}|JavaScript (error|warning): {PAGE}|Web console error: )"
    )
    ERROR = re.compile(rf"^(console\.error: {PAGE}|JavaScript error: {PAGE}|Web console error: )")
    ROLE = "computed_role"
    NAME = "computed_label"

    def __init__(self, browser: Firefox) -> None:
        self.browser = browser
        self.marionette = browser.marionette
        self.log = browser.log
        self.start = self.log.stat().st_size
        before = set(self.marionette.window_handles)
        with self.marionette.using_context("chrome"):
            self.container: int = self.marionette.execute_script(NEW_TAB)
        (self.handle,) = set(self.marionette.window_handles) - before
        browser.front = ""
        self._front()

    def _front(self) -> None:
        self.browser.show(self.handle)

    def _execute(self, script: str, args: list[Any]) -> Any:
        return self.marionette.execute_script(script, script_args=args, sandbox=None)

    def attribute(self, element: Element, name: str) -> str | None:
        self._front()
        value: str | None = element.handle.get_attribute(name)
        return value

    def goto(self, url: str) -> None:
        self._front()
        self.marionette.navigate(url)

    def reload(self) -> None:
        # The same address again: Marionette's refresh bypasses the cache and so the
        # service worker, which a person's reload goes through.
        self._front()
        self.marionette.navigate(self.marionette.get_url())

    def resize(self, width: int, height: int) -> None:
        self._front()
        with self.marionette.using_context("chrome"):
            self.marionette.execute_script(SET_VIEWPORT, script_args=(width, height))
        self._wait_size(width, height)

    def screenshot(self, path: Path) -> None:
        self._front()
        path.write_bytes(self.marionette.screenshot(format="binary", full=False))

    def close(self) -> None:
        self._front()
        self.marionette.close()
        self.browser.front = ""
        self.browser.show(self.browser.home)
        with self.marionette.using_context("chrome"):
            self.marionette.execute_script(END_CONTAINER, script_args=(self.container,))


# WebKit, Selenium

# What webkit_browser.py says when the page's process has ended (crashed), and the logs of
# the tabs where it did, for the test to run once more (conftest.py).
PAGE_PROCESS_ENDED = "zar-webkit: the page's process ended:"
CRASHES: list[str] = []


class WebKit:
    """WebKit's tabs: each its own WebKitWebDriver (it drives one session at a time) and its
    own browser."""

    def __init__(self, logs: Path) -> None:
        for path in (WEBKIT_DRIVER, SYSTEM_PYTHON):
            if not path.exists():
                raise AssertionError(
                    f"{path} is missing: apt-get install -y webkit2gtk-driver python3-gi"
                    " gir1.2-webkit2-4.1 gir1.2-gtk-3.0 (make engines does it)"
                )
        if not os.environ.get("DISPLAY"):
            raise AssertionError(
                "WebKit needs a display: run under xvfb-run (make engines does it)"
            )
        self.logs = logs
        self.opened = 0

    def tab(self) -> WebKitTab:
        self.opened += 1
        return WebKitTab(self.logs / f"webkit-{self.opened}.log")

    def close(self) -> None:
        pass  # each tab ends its driver


class WebKitTab(_Tab):
    engine = "webkit"
    # WebKit's console lines: ``CONSOLE LOG …``, ``CONSOLE JS ERROR …``, ``CONSOLE SECURITY
    # ERROR …``, after the script's place when it has one.
    CONSOLE = re.compile(r"\bCONSOLE [A-Z]")
    ERROR = re.compile(r"\bCONSOLE ([A-Z]+ )?ERROR\b")
    ROLE = "aria_role"
    NAME = "accessible_name"

    def __init__(self, log: Path) -> None:
        self.log = log
        self.start = 0
        options = Options()
        options.binary_location = str(WEBKIT_BROWSER)
        options.set_capability("browserName", "zar-webkit")  # the name it gives itself
        service = Service(executable_path=str(WEBKIT_DRIVER), log_output=str(log))
        with warnings.catch_warnings():  # Selenium 4.51's own WebKitGTK, on its RemoteConnection
            warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
            self.driver = WebKitGTK(options=options, service=service)
        self.driver.set_script_timeout(60)

    def _execute(self, script: str, args: list[Any]) -> Any:
        return self.driver.execute_script(script, *args)

    def attribute(self, element: Element, name: str) -> str | None:
        value: str | None = element.handle.get_dom_attribute(name)
        return value

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def resize(self, width: int, height: int) -> None:
        # The window holds only the page (no toolbar, no frame under a bare X server).
        self.driver.set_window_size(width, height)
        self._wait_size(width, height)

    def screenshot(self, path: Path) -> None:
        self.driver.get_screenshot_as_file(str(path))

    def close(self) -> None:
        if any(PAGE_PROCESS_ENDED in line for line in self._lines()):
            CRASHES.append(str(self.log))
        with contextlib.suppress(WebDriverException):  # its window gone already
            self.driver.quit()


def tabs(engine: str, logs: Path) -> Iterator[Callable[[], Tab]]:
    """A browser of ``engine`` for the block, and a way to open a tab in it."""
    browser: Firefox | WebKit
    browser = Firefox(logs / "firefox.log") if engine == "firefox" else WebKit(logs)
    try:
        yield browser.tab
    finally:
        browser.close()
