"""The engine is pure: no I/O, no clock, no numpy, no web framework (docs/architecture.md)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import zar

SRC = Path(zar.__file__).parent
ENGINE = ("zar.dice", "zar.table", "zar.farkle", "zar.yams")
# What the layers above the engine may use, never the engine itself.
FORBIDDEN = {"numpy", "sqlite3", "fastapi", "starlette", "uvicorn", "httpx", "asyncio", "socket"}

PROBE = """
import json, sys
import zar.dice, zar.table, zar.farkle, zar.yams
loaded = set(sys.modules)
from zar.table import Seat
from zar.farkle import FarkleSettings, FarkleState, SetAside, Throw as FThrow, Bank
from zar.yams import Box, Fill, Scorecard, Throw as YThrow, YamsSettings, YamsState
state = FarkleState.start(FarkleSettings((Seat("Ali"),), target=5_000))
for action in [FThrow(0, (1,) * 6), SetAside(0, range(6)), FThrow(0, (1,) * 6),
               SetAside(0, range(6)), Bank(0)]:
    state = state.apply(action)
assert state.is_over
state = YamsState.start(YamsSettings((Seat("Ali"),)))
for box in Box:
    state = state.apply(YThrow(0, (), (2, 2, 2, 5, 5))).apply(Fill(0, box))
assert state.is_over
zar.farkle.farkle_probability(6), zar.farkle.selections((1, 1, 5, 2, 3, 3))
Scorecard().options((4, 4, 4, 4, 4)), zar.dice.outcomes(5)
print(json.dumps({"at_import": sorted(loaded), "at_call": sorted(set(sys.modules) - loaded)}))
"""


@pytest.fixture(scope="module")
def modules() -> dict[str, list[str]]:
    """The modules a fresh interpreter holds after importing the engine, and after using it."""
    run = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    result: dict[str, list[str]] = json.loads(run.stdout)
    return result


def test_importing_the_engine_loads_no_numpy_database_or_web_framework(
    modules: dict[str, list[str]],
) -> None:
    """docs/architecture.md: importing zar.yams loads no numpy, sqlite3 or web framework."""
    top = {name.partition(".")[0] for name in modules["at_import"]}
    assert top & FORBIDDEN == set()


def test_the_engine_imports_nothing_from_the_layers_above_it(
    modules: dict[str, list[str]],
) -> None:
    """docs/architecture.md: layers point one way; the engine imports nothing above it."""
    ours = {name for name in modules["at_import"] if name == "zar" or name.startswith("zar.")}
    above = {name for name in ours if name != "zar" and not name.startswith(ENGINE)}
    assert above == set()
    assert set(ENGINE) <= ours


def test_playing_loads_no_module_at_call(modules: dict[str, list[str]]) -> None:
    """docs/contract.md: no I/O and no wall-clock work; whole games import nothing more."""
    assert modules["at_call"] == []


def engine_sources() -> list[Path]:
    files = [*sorted((SRC / "farkle").rglob("*.py")), *sorted((SRC / "yams").rglob("*.py"))]
    return [*files, SRC / "table.py"]


@pytest.mark.parametrize(
    "path", engine_sources(), ids=lambda path: str(path.relative_to(SRC.parent))
)
def test_engine_sources_read_no_clock_file_or_randomness(path: Path) -> None:
    """The rules never roll (only zar/dice.py defines the injected sources), read no clock, open
    no file and print nothing."""
    text = path.read_text(encoding="utf-8")
    for word in ("import time", "from time", "datetime", "open(", "random", "print("):
        assert word not in text, f"{path.name} holds {word!r}"


def test_the_engine_sources_are_found() -> None:
    """The scan above reads the engine's files (a moved file would make it pass vacuously)."""
    names = {path.name for path in engine_sources()}
    assert {"scoring.py", "game.py", "scorecard.py", "table.py", "__init__.py"} <= names
