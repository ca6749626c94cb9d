"""The public surface of ``zar.ai``: players, levels, and what importing it loads."""

from __future__ import annotations

import doctest
import subprocess
import sys
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
