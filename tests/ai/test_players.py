"""The public surface of ``zar.ai``: players, levels, and what importing it loads."""

from __future__ import annotations

import doctest
import subprocess
import sys
import threading
import time
from types import ModuleType

import pytest

import zar.ai
from zar.ai import (
    DEFAULT_LEVEL,
    LEVELS,
    FarklePlayer,
    YamsPlayer,
    computer_player,
    farkle_seed,
    players,
    turns,
    yams_greedy,
)
from zar.ai.farkle import ExpertPlayer, MaxPointsPlayer
from zar.ai.farkle_seed import ThresholdPlayer
from zar.ai.yams import OptimalPlayer
from zar.ai.yams_greedy import GreedyPlayer


def test_exported_names() -> None:
    assert set(zar.ai.__all__) == {
        "DEFAULT_LEVEL",
        "LEVELS",
        "FarklePlayer",
        "YamsPlayer",
        "computer_player",
        "levels",
        "next_action",
        "play_turn",
    }
    assert all(hasattr(zar.ai, name) for name in zar.ai.__all__)


def test_importing_zar_ai_loads_no_numpy() -> None:
    code = "import sys, zar.ai; print(sorted({'numpy', 'sqlite3'} & set(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_levels() -> None:
    assert LEVELS == {
        "yams": ("easy", "expert", "win"),
        "10000": ("seed", "max-points", "expert"),
    }
    # Issue 3: the Yams opponent and auto-fill play expert; 10 000's IA is the seed's bot.
    assert DEFAULT_LEVEL == {"yams": "expert", "10000": "seed"}
    for game, level in DEFAULT_LEVEL.items():
        assert level in LEVELS[game]


def test_computer_players() -> None:
    assert isinstance(computer_player("yams"), OptimalPlayer)
    assert computer_player("yams", "easy") == GreedyPlayer()
    assert computer_player("10000") == computer_player("10000", "seed") == ThresholdPlayer()
    assert isinstance(computer_player("10000", "max-points"), MaxPointsPlayer)
    assert isinstance(computer_player("10000", "expert"), ExpertPlayer)


@pytest.mark.parametrize(("game", "levels"), LEVELS.items())
def test_every_level_plays_its_game(game: str, levels: tuple[str, ...]) -> None:
    protocol = {"yams": YamsPlayer, "10000": FarklePlayer}[game]
    other = {"yams": FarklePlayer, "10000": YamsPlayer}[game]
    for level in levels:
        player = computer_player(game, level)
        assert isinstance(player, protocol)
        assert not isinstance(player, other)


@pytest.mark.parametrize(
    ("game", "level", "message"),
    [
        ("chess", None, "there is no game 'chess': choose 'yams' or '10000'"),
        ("farkle", "seed", "there is no game 'farkle'"),
        ("yams", "seed", "yams has no level 'seed': choose 'easy', 'expert' or 'win'"),
        ("10000", "genius", "10000 has no level 'genius': choose 'seed', 'max-points' or 'expert'"),
    ],
)
def test_unknown_game_or_level(game: str, level: str | None, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        computer_player(game, level)


@pytest.mark.parametrize("module", [zar.ai, players, turns, farkle_seed, yams_greedy])
def test_doctests(module: ModuleType) -> None:
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failed == 0


def test_a_value_is_loaded_once_whichever_threads_ask() -> None:
    """The process's one Yams strategy is held so: many threads asking at once wait for one
    load; one loading it after another process built it holds the others until it has."""
    loads: list[object] = []
    release = threading.Event()

    def load() -> object:
        release.wait(timeout=30)
        loads.append(object())
        return loads[-1]

    held = players.Loaded(load)
    got: list[object] = []
    askers = [threading.Thread(target=lambda: got.append(held.get())) for _ in range(8)]
    for asker in askers:
        asker.start()
    release.set()
    for asker in askers:
        asker.join(timeout=30)
    assert len(loads) == 1
    assert got == loads * 8

    built = threading.Event()
    seen: list[bool] = []

    def load_once_built() -> bool:
        seen.append(built.is_set())
        return built.is_set()

    later = players.Loaded(load_once_built)
    after = threading.Thread(target=later.after, args=(lambda: built.wait(timeout=30),))
    after.start()
    while not later._lock.locked():  # the load after the build holds the value's lock
        time.sleep(0.01)
    asked: list[bool] = []
    asking = threading.Thread(target=lambda: asked.append(later.get()))
    asking.start()
    asking.join(timeout=0.2)
    assert asking.is_alive()  # waiting for the load after the build
    built.set()
    after.join(timeout=30)
    asking.join(timeout=30)
    assert seen == [True]  # loaded once, after the build, though asked for before
    assert asked == [True]


def test_a_game_under_a_penalty_plays_on_at_its_level_without_the_table() -> None:
    """The expert is offered for a new game under a penalty for three lost turns only once
    its table is in the cache; a game already started at that level plays on (for points)."""
    from zar.ai.farkle import ExpertPlayer as Expert
    from zar.ai.farkle import WinStrategy
    from zar.ai.players import levels
    from zar.farkle import PRESETS

    cached = WinStrategy.cached(10_000, PRESETS["facebook"])  # not in a session's cache
    assert levels("10000", "facebook") == (LEVELS["10000"] if cached else ("seed", "max-points"))
    assert isinstance(computer_player("10000", "expert", "facebook"), Expert)
    with pytest.raises(ValueError, match="scandinavian"):
        computer_player("yams", "easy", "scandinavian")
