"""Firefox and WebKit, each driven by its own standard protocol, behind one small interface
(:class:`Tab`), so that each test is written once and runs in both.

- Firefox speaks WebDriver BiDi itself (``--remote-debugging-port``): a WebSocket, no
  geckodriver. Elements are found by the browser's own accessibility tree
  (``browsingContext.locateNodes`` by role and accessible name), tapped with
  ``input.performActions``; its console comes as ``log.entryAdded`` events.
- WebKit is driven by WebKitWebDriver (classic WebDriver, HTTP) in a browser of one window
  (``webkit_browser.py``), under a virtual display; roles and names are WebKit's own
  (``computedrole``, ``computedlabel``); its console is written to a file.

Both: a tap goes through the browser's own input (not ``el.click()`` in script), the page's
size is its viewport (a phone's 390 x 844), and any console error fails the test.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from websockets.sync.client import ClientConnection, connect

FIREFOX = Path("/usr/bin/firefox-esr")
WEBKIT_DRIVER = Path("/usr/bin/WebKitWebDriver")
SYSTEM_PYTHON = Path("/usr/bin/python3")  # the one with Debian's PyGObject (python3-gi)
WEBKIT_BROWSER = Path(__file__).resolve().parent / "webkit_browser.py"
ENGINES = ("firefox", "webkit")
WAIT = 10.0  # seconds any expectation waits before it fails

# Desktop Firefox on Linux draws classic scrollbars that take 12 px of the width; a phone's
# float over the page. The rest keeps it from reaching the internet.
FIREFOX_PREFS = {
    "ui.useOverlayScrollbars": 1,
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


class DriverError(AssertionError):
    """The browser refused a command (an element gone, a tap outside the window ...)."""


@dataclass(frozen=True)
class Element:
    """An element of the page, as the driver knows it."""

    tab: Tab
    ref: str

    def click(self) -> None:
        """A tap on its centre, once nothing covers it there (a banner passing, a dialog)."""
        until(lambda: self.js(RECEIVES_TAPS), f"nothing over {self.ref} to tap it")
        self.tab.click(self)

    def type(self, text: str) -> None:
        self.tab.type(self, text)

    def js(self, function: str, *args: Any) -> Any:
        """``function(element, ...args)`` in the page; its result, through JSON."""
        return self.tab.js(function, self, *args)

    def rect(self) -> dict[str, float]:
        found: dict[str, float] = self.js(
            "(e) => { const r = e.getBoundingClientRect();"
            " return {x: r.x, y: r.y, w: r.width, h: r.height}; }"
        )
        return found

    def attribute(self, name: str) -> str | None:
        value: str | None = self.js("(e, n) => e.getAttribute(n)", name)
        return value

    def text(self) -> str:
        value: str = self.js("(e) => e.textContent")
        return value

    def visible(self) -> bool:
        return bool(self.js("(e) => e.isConnected && e.checkVisibility()"))

    def enabled(self) -> bool:
        return bool(self.js("(e) => !e.disabled"))


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
    def screenshot(self, path: Path) -> None: ...
    def console(self) -> list[str]: ...
    def errors(self) -> list[str]: ...
    def close(self) -> None: ...


def until(check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """``check()`` once it is truthy (asked again every 50 ms), else a failure saying what was
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
        time.sleep(0.05)


def _call_function(function: str) -> str:
    """The page's side of :meth:`Tab.js`: the result as JSON, a promise awaited."""
    return f"async (...args) => JSON.stringify(await ({function})(...args) ?? null)"


# Firefox, WebDriver BiDi


class Firefox:
    """Firefox ESR in headless mode, its WebDriver BiDi endpoint on a free port; one user
    context (its own cookies and storage) per tab."""

    def __init__(self, log: Path) -> None:
        if not FIREFOX.exists():
            raise AssertionError(
                f"{FIREFOX} is missing: apt-get install -y firefox-esr (make engines does it)"
            )
        self.profile = Path(tempfile.mkdtemp(prefix="zar-firefox-"))
        (self.profile / "user.js").write_text(
            "".join(
                f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in FIREFOX_PREFS.items()
            )
        )
        self.log = log.open("w")
        self.process = subprocess.Popen(
            [str(FIREFOX), "--headless", "--no-remote", "--profile", str(self.profile),
             "--remote-debugging-port=0"],
            stdout=self.log, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "MOZ_HEADLESS": "1"},
        )  # fmt: skip
        assert self.process.stderr is not None
        address = None
        for line in self.process.stderr:
            self.log.write(line)
            found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
            if found:
                address = found.group(1)
                break
        if address is None:
            raise AssertionError(f"Firefox did not start (its output: {log})")
        threading.Thread(target=self._copy_stderr, daemon=True).start()
        self.stack = contextlib.ExitStack()
        self.socket: ClientConnection = self.stack.enter_context(
            connect(address + "/session", max_size=None, proxy=None)
        )
        self.next_id = 0
        self.replies: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self.lock = threading.Condition()
        self.gone: Exception | None = None
        threading.Thread(target=self._read, daemon=True).start()
        self.command(
            "session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": False}}}
        )
        self.command("session.subscribe", {"events": ["log.entryAdded"]})

    def _copy_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log.write(line)

    def _read(self) -> None:
        try:
            for message in self.socket:
                data = json.loads(message)
                with self.lock:
                    if "id" in data:
                        self.replies[data["id"]] = data
                    else:
                        self.events.append(data)
                    self.lock.notify_all()
        except Exception as error:  # the browser gone: the commands waiting say so
            with self.lock:
                self.gone = error
                self.lock.notify_all()

    def command(self, method: str, params: dict[str, Any], timeout: float = 60) -> Any:
        with self.lock:
            self.next_id += 1
            number = self.next_id
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        with self.lock:
            if not self.lock.wait_for(
                lambda: number in self.replies or self.gone is not None, timeout=timeout
            ):
                raise AssertionError(f"Firefox did not answer {method} in {timeout} s")
            if number not in self.replies:
                raise AssertionError(f"Firefox is gone: {self.gone!r}")
            reply = self.replies.pop(number)
        if reply.get("type") == "error":
            raise DriverError(f"{method}: {reply.get('error')}: {reply.get('message')}")
        return reply["result"]

    def tab(self) -> FirefoxTab:
        return FirefoxTab(self)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.command("session.end", {}, timeout=10)
        self.stack.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        if self.process.stderr:
            self.process.stderr.close()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


# Before any of the page's own scripts: a refusal by the content security policy is a
# console error, as it is in Chromium's and WebKit's console.
FIREFOX_PRELOAD = """() => { addEventListener("securitypolicyviolation", (e) =>
  console.error(`Content-Security-Policy: ${e.violatedDirective} refused ${e.blockedURI}`)); }"""


class FirefoxTab:
    engine = "firefox"

    def __init__(self, browser: Firefox) -> None:
        self.browser = browser
        self.user = browser.command("browser.createUserContext", {})["userContext"]
        self.context = browser.command(
            "browsingContext.create", {"type": "tab", "userContext": self.user}
        )["context"]
        browser.command("browsingContext.activate", {"context": self.context})
        browser.command(
            "script.addPreloadScript",
            {"functionDeclaration": FIREFOX_PRELOAD, "userContexts": [self.user]},
        )
        self.seen = len(browser.events)

    def goto(self, url: str) -> None:
        self.browser.command(
            "browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"}
        )

    def reload(self) -> None:
        self.browser.command(
            "browsingContext.reload", {"context": self.context, "wait": "complete"}
        )

    def resize(self, width: int, height: int) -> None:
        self.browser.command(
            "browsingContext.setViewport",
            {"context": self.context, "viewport": {"width": width, "height": height}},
        )

    def js(self, function: str, *args: Any) -> Any:
        # Plain values cross as JSON text, parsed in the page: one way for every value.
        wrapper = (
            "(...args) => (" + _call_function(function) + ")(...args.map((a) =>"
            " typeof a === 'string' && a.startsWith('\\u0000') ? JSON.parse(a.slice(1)) : a))"
        )
        arguments = [
            {"sharedId": a.ref} if isinstance(a, Element)
            else {"type": "string", "value": "\u0000" + json.dumps(a)}
            for a in args
        ]  # fmt: skip
        result = self.browser.command(
            "script.callFunction",
            {"functionDeclaration": wrapper, "target": {"context": self.context},
             "arguments": arguments, "awaitPromise": True, "serializationOptions": {}},
        )  # fmt: skip
        if result["type"] == "exception":
            raise DriverError(result["exceptionDetails"]["text"])
        return json.loads(result["result"]["value"])

    def locate(self, role: str, name: str | None, within: Element | None = None) -> list[Element]:
        """The elements Firefox's accessibility tree holds of ``role`` (and ``name``) under
        ``within``."""
        value: dict[str, str] = {"role": role}
        if name is not None:
            value["name"] = name
        params: dict[str, Any] = {
            "context": self.context,
            "locator": {"type": "accessibility", "value": value},
        }
        if within is not None:
            params["startNodes"] = [{"sharedId": within.ref}]
        deadline = time.monotonic() + WAIT
        while True:
            try:
                nodes = self.browser.command("browsingContext.locateNodes", params)["nodes"]
                return [Element(self, node["sharedId"]) for node in nodes]
            except DriverError as error:
                # A page just loaded may have no accessibility tree yet: it comes.
                if "getState" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def find_all(self, role: str, name: str | None, within: Element | None = None) -> list[Element]:
        role = ROLE_NAMES.get(role, role)
        # The whole tree is slow to search (a fifth of a second or more): the elements that
        # show the name are each asked about in their parent's small tree first.
        if name is not None:
            for element in self._candidates(within, role, name):
                try:
                    if element in self.locate(role, name, self._parent(element)):
                        return [element]
                except DriverError:
                    continue  # a parent without a place in the tree: the whole tree says
        return self.locate(role, name, within)

    def _candidates(self, within: Element | None, role: str, name: str) -> list[Element]:
        result = self.browser.command(
            "script.callFunction",
            {"functionDeclaration": CANDIDATES, "target": {"context": self.context},
             "arguments": [{"sharedId": within.ref} if within else {"type": "null"},
                           {"type": "string", "value": role}, {"type": "string", "value": name}],
             "awaitPromise": False},
        )  # fmt: skip
        if result["type"] == "exception":
            raise DriverError(result["exceptionDetails"]["text"])
        return [Element(self, node["sharedId"]) for node in result["result"]["value"]]

    def _parent(self, element: Element) -> Element | None:
        result = self.browser.command(
            "script.callFunction",
            {"functionDeclaration": "(e) => e.parentElement", "target": {"context": self.context},
             "arguments": [{"sharedId": element.ref}], "awaitPromise": False},
        )  # fmt: skip
        parent = result["result"]
        return Element(self, parent["sharedId"]) if parent.get("sharedId") else None

    def name_of(self, element: Element, role: str) -> str:
        """Firefox's accessible name of ``element`` (of ``role``): the name its accessibility
        tree finds it by, among the names its own text and labels could give."""
        candidates: list[str] = element.js(NAME_CANDIDATES)
        for candidate in candidates:
            if element in self.locate(role, candidate, self._parent(element)):
                return candidate
        raise DriverError(f"no accessible name among {candidates}")

    def click(self, element: Element) -> None:
        origin = {"type": "element", "element": {"sharedId": element.ref}}
        self.browser.command(
            "input.performActions",
            {"context": self.context, "actions": [{
                "type": "pointer", "id": "finger", "parameters": {"pointerType": "mouse"},
                "actions": [
                    {"type": "pointerMove", "x": 0, "y": 0, "origin": origin},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerUp", "button": 0},
                ]}]},
        )  # fmt: skip

    def type(self, element: Element, text: str) -> None:
        element.js("(e) => { e.focus(); e.select?.(); }")
        keys = [{"type": kind, "value": "\ue003"} for kind in ("keyDown", "keyUp")]  # backspace
        for char in text:
            keys += [{"type": "keyDown", "value": char}, {"type": "keyUp", "value": char}]
        self.browser.command(
            "input.performActions",
            {"context": self.context, "actions": [{"type": "key", "id": "keys", "actions": keys}]},
        )

    def screenshot(self, path: Path) -> None:
        data = self.browser.command(
            "browsingContext.captureScreenshot", {"context": self.context, "origin": "viewport"}
        )["data"]
        path.write_bytes(base64.b64decode(data))

    def _entries(self) -> list[dict[str, Any]]:
        with self.browser.lock:
            events = self.browser.events[self.seen :]
        return [
            event["params"]
            for event in events
            if event["method"] == "log.entryAdded"
            and event["params"].get("source", {}).get("context") == self.context
        ]

    def console(self) -> list[str]:
        """What the page wrote to its console since this tab opened, and its uncaught errors."""
        return [f"{e.get('level')}: {e.get('text')}" for e in self._entries()]

    def errors(self) -> list[str]:
        """The console's errors and the uncaught exceptions in this tab since it opened."""
        return [e.get("text") or "" for e in self._entries() if e.get("level") == "error"]

    def close(self) -> None:
        self.browser.command("browsingContext.close", {"context": self.context})
        self.browser.command("browser.removeUserContext", {"userContext": self.user})


# The names an element could have: what its labels and text say, in the order the
# accessible-name computation prefers them.
NAME_CANDIDATES = """(e) => {
  const words = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const seen = [];
  const by = e.getAttribute("aria-labelledby");
  const text = (id) => document.getElementById(id)?.textContent;
  if (by) seen.push(words(by.split(/\\s+/).map(text).join(" ")));
  seen.push(words(e.getAttribute("aria-label")));
  for (const label of e.labels || []) seen.push(words(label.textContent));
  const visible = [...e.childNodes].map((n) => n.nodeType === 3 ? n.textContent
    : n.nodeType === 1 && !n.matches('[aria-hidden="true"], .sr-only *') ? n.textContent : "")
    .join(" ");
  seen.push(words(visible), words(e.textContent));
  seen.push(words(e.getAttribute("title")), words(e.getAttribute("alt")));
  return [...new Set(seen.filter(Boolean))];
}"""


# WebKit, classic WebDriver


class WebKit:
    """WebKit's tabs: each its own WebKitWebDriver (it drives one session at a time) on a
    free port, and its own browser."""

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
        from server.serving import free_port

        self.opened += 1
        return WebKitTab(WebKitDriver(self.logs / f"webkit-{self.opened}.log", free_port()))

    def close(self) -> None:
        pass  # each tab ends its driver


class WebKitDriver:
    """WebKitWebDriver on ``port``, its output (and the page's console) in ``log``."""

    def __init__(self, log: Path, port: int) -> None:
        self.log_path = log
        self.log = log.open("wb", buffering=0)
        self.address = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [str(WEBKIT_DRIVER), f"--port={port}"], stdout=self.log, stderr=subprocess.STDOUT
        )
        until(self._ready, "WebKitWebDriver listening", timeout=20)

    def _ready(self) -> bool:
        try:
            self.request("GET", "/status")
            return True
        except OSError:
            return False

    def request(self, method: str, path: str, body: Any = None, timeout: float = 60) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.address + path, data=data, method=method,
            headers={"content-type": "application/json; charset=utf-8"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=timeout) as reply:
                return json.loads(reply.read())["value"]
        except urllib.error.HTTPError as error:
            value = json.loads(error.read() or b"{}").get("value", {})
            raise DriverError(f"{path}: {value.get('error')}: {value.get('message')}") from None

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


W3C_ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
# What webkit_browser.py says when the page's process has ended (crashed), and the logs of
# the tabs where it did, for the test to run once more (conftest.py).
PAGE_PROCESS_ENDED = "zar-webkit: the page's process ended:"
CRASHES: list[str] = []

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


class WebKitTab:
    engine = "webkit"

    def __init__(self, driver: WebKitDriver) -> None:
        self.driver = driver
        capabilities = {
            "webkitgtk:browserOptions": {
                "binary": str(SYSTEM_PYTHON),
                "args": [str(WEBKIT_BROWSER)],
            },
        }
        session = driver.request(
            "POST", "/session", {"capabilities": {"alwaysMatch": capabilities}}
        )
        self.session = f"/session/{session['sessionId']}"
        self.request("POST", "/timeouts", {"script": 60_000})
        self.resize(390, 844)

    def request(self, method: str, path: str, body: Any = None) -> Any:
        return self.driver.request(method, self.session + path, body)

    def goto(self, url: str) -> None:
        self.request("POST", "/url", {"url": url})

    def reload(self) -> None:
        self.request("POST", "/refresh", {})

    def resize(self, width: int, height: int) -> None:
        # The window holds only the page (no toolbar, no frame under a bare X server).
        self.request("POST", "/window/rect", {"width": width, "height": height})
        until(
            lambda: self.js("() => [innerWidth, innerHeight]") == [width, height],
            f"a page of {width} x {height}",
        )

    def _argument(self, value: Any) -> Any:
        return {W3C_ELEMENT: value.ref} if isinstance(value, Element) else value

    def _value(self, value: Any) -> Any:
        if isinstance(value, dict) and W3C_ELEMENT in value:
            return Element(self, value[W3C_ELEMENT])
        if isinstance(value, list):
            return [self._value(v) for v in value]
        return value

    def js(self, function: str, *args: Any) -> Any:
        script = (
            f"const done = arguments[arguments.length - 1];"
            f" ({_call_function(function)})(...[...arguments].slice(0, -1)).then(done,"
            f" (e) => done({{__error: String(e)}}));"
        )
        result = self.request(
            "POST", "/execute/async", {"script": script, "args": [self._argument(a) for a in args]}
        )
        if isinstance(result, dict) and "__error" in result:
            raise DriverError(result["__error"])
        return json.loads(result)

    def find_all(self, role: str, name: str | None, within: Element | None = None) -> list[Element]:
        role = ROLE_NAMES.get(role, role)
        if name is not None:  # those that show the name first; then any
            found = self._matching(self._candidates(within, role, name), role, name)
            if found:
                return found[:1]
        return self._matching(self._candidates(within, role, None), role, name)

    def _candidates(self, within: Element | None, role: str, name: str | None) -> list[Element]:
        script = f"return ({CANDIDATES})(...arguments);"
        args = [self._argument(within) if within else None, role, name]
        found: list[Element] = self._value(
            self.request("POST", "/execute/sync", {"script": script, "args": args})
        )
        return found

    def _matching(self, candidates: list[Element], role: str, name: str | None) -> list[Element]:
        found = []
        for element in candidates:
            try:
                if self.request("GET", f"/element/{element.ref}/computedrole") != role:
                    continue
                if name is None or self.name_of(element, role) == name:
                    found.append(element)
            except DriverError:
                continue  # gone meanwhile
        return found

    def name_of(self, element: Element, role: str) -> str:
        label: str = self.request("GET", f"/element/{element.ref}/computedlabel")
        return label

    def click(self, element: Element) -> None:
        self.request("POST", f"/element/{element.ref}/click", {})

    def type(self, element: Element, text: str) -> None:
        self.request("POST", f"/element/{element.ref}/clear", {})
        self.request("POST", f"/element/{element.ref}/value", {"text": text})

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.request("GET", "/screenshot")))

    def _lines(self) -> list[str]:
        return self.driver.log_path.read_bytes().decode(errors="replace").splitlines()

    def console(self) -> list[str]:
        """What the page wrote to its console, one line each: ``CONSOLE JS ERROR …``."""
        return [line for line in self._lines() if line.startswith("CONSOLE ")]

    def errors(self) -> list[str]:
        """The console's errors (and uncaught exceptions, refusals by the content security
        policy) since this tab opened."""
        return [line for line in self.console() if re.match(r"CONSOLE \S+ ERROR", line)]

    def close(self) -> None:
        if any(PAGE_PROCESS_ENDED in line for line in self._lines()):
            CRASHES.append(str(self.driver.log_path))
        with contextlib.suppress(DriverError):  # its window gone already
            self.request("DELETE", "")
        self.driver.close()


def tabs(engine: str, logs: Path) -> Iterator[Callable[[], Tab]]:
    """A browser of ``engine`` for the block, and a way to open a tab in it."""
    browser: Firefox | WebKit
    browser = Firefox(logs / "firefox.log") if engine == "firefox" else WebKit(logs)
    try:
        yield browser.tab
    finally:
        browser.close()
