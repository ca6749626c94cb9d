# Zar: two commands do everything on a fresh machine.
#   make run    installs what it needs into .venv and serves the app at http://127.0.0.1:8000
#               (make run HOST=0.0.0.0: on the network too, for phones; it prints their addresses)
#   make test   installs what the tests need and runs them all (lint, types, tests, browser
#               tests in Chromium, then in Firefox and WebKit)
# Also: make play GAME=yams|10000 (the terminal game), make bench (the benchmarks).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
GAME ?= yams
ARGS ?=

CHROMIUM ?= /usr/bin/chromium
# Firefox and WebKit (WebKitWebDriver, and GTK and WebKit for Python: the tests' own small
# browser), with a virtual display for WebKit; their Python clients (marionette_driver,
# Selenium) come with the test extra.
ENGINE_PACKAGES := firefox-esr webkit2gtk-driver python3-gi gir1.2-webkit2-4.1 gir1.2-gtk-3.0 xvfb xauth

# Where `make run` listens: this machine only unless HOST is given on the command line
# (a shell's own $HOST, the machine's name, is not a request to serve the network).
HOST_OPTION := $(if $(filter command line,$(origin HOST)),--host $(HOST))

.PHONY: run play test lint typecheck pytest postgresql zbar browser engine-packages engines clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# The tables and compiled code the games ask for, built into the user's caches before the
# first game (minutes, once on a machine; `zar serve` builds what is missing in a process of
# its own otherwise): again when the solvers change.
$(VENV)/.run-warmed: $(VENV)/.run-installed $(wildcard src/zar/ai/*.py)
	$(BIN)/zar warm
	touch $@

run: $(VENV)/.run-installed $(VENV)/.run-warmed
	$(BIN)/zar serve $(HOST_OPTION) $(ARGS)

play: $(VENV)/.run-installed
	$(BIN)/zar play $(GAME) $(ARGS)

lint: $(VENV)/.test-installed
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(VENV)/.test-installed
	$(BIN)/mypy

# The store tests run against a real PostgreSQL too (a throwaway server, tests/conftest.py):
# from Debian when missing, and required, so that they fail rather than skip.
pytest: $(VENV)/.test-installed postgresql zbar
	ZAR_REQUIRE_POSTGRES=1 $(BIN)/python -m pytest

# Debian's PostgreSQL server: initdb and pg_ctl under /usr/lib/postgresql/<version>/bin.
postgresql:
	@command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		(apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql)

# zbarimg from Debian: a test reads the QR code `make run HOST=0.0.0.0` prints, as a phone would.
zbar:
	@command -v zbarimg >/dev/null || \
		(apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y zbar-tools)

# Chromium from Debian: Playwright's own download needs the internet.
$(CHROMIUM):
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

# axe-core from the npm registry (package-lock.json), for the browser tests' accessibility checks.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# The browser tests, in their own pytest process (sync Playwright keeps an event loop).
browser: $(VENV)/.test-installed $(CHROMIUM) node_modules/.installed
	$(BIN)/python -m pytest tests/browser

# Firefox ESR and WebKitGTK from Debian, when one is missing.
engine-packages:
	@dpkg -s $(ENGINE_PACKAGES) >/dev/null 2>&1 || \
		(apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(ENGINE_PACKAGES))

# The page in Firefox (marionette_driver, Marionette) and WebKit (Selenium, WebKitWebDriver),
# under a virtual display.
engines: $(VENV)/.test-installed engine-packages
	xvfb-run -a -s "-screen 0 1280x1024x24" $(BIN)/python -m pytest -p no:playwright tests/engines

test: lint typecheck pytest browser engines

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Benchmarks print figures (docs/performance.md); tests never time anything.
.PHONY: bench
bench: $(VENV)/.test-installed
	$(BIN)/python -m pip install --quiet -r bench/requirements.txt
	for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done
