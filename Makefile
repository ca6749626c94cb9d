# Zar: two commands do everything on a fresh machine.
#   make run    installs what it needs into .venv and starts the game
#   make test   installs what the tests need and runs them all (lint, types, tests)

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
GAME ?= yams
ARGS ?=

.PHONY: run test lint typecheck pytest clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.run-installed
	$(BIN)/zar play $(GAME) $(ARGS)

lint: $(VENV)/.test-installed
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(VENV)/.test-installed
	$(BIN)/mypy

pytest: $(VENV)/.test-installed
	$(BIN)/python -m pytest

test: lint typecheck pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
