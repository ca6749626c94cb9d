"""``zar solve 10000`` and ``zar simulate 10000``, read as outside tests read them.

The solve command builds the three targets; here it is held to 5 000 (built once for the
session), its lines the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from zar.ai.farkle import TurnStrategy, WinStrategy
from zar.cli import farkle_commands, main
from zar.farkle import PRESETS, FarkleRules


def run(argv: list[str]) -> tuple[int, list[str]]:
    lines: list[str] = []
    status = main(argv, read=lambda prompt: "", write=lambda line: lines.extend(line.split("\n")))
    return status, lines


@pytest.fixture
def five_thousand_only(expert: WinStrategy, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(farkle_commands, "TARGETS", (5_000,))
    monkeypatch.setattr(farkle_commands, "DEFAULT_TARGET", 5_000)


@pytest.mark.usefixtures("five_thousand_only")
def test_solve_prints_points_per_turn_and_the_first_players_chance(expert: WinStrategy) -> None:
    status, lines = run(["solve", "10000"])
    assert status == 0
    points = re.fullmatch(r"points per turn (\d+\.\d\d)", lines[-2])
    wins = re.fullmatch(r"first player wins (0\.\d{4})", lines[-1])
    assert points, lines
    assert wins, lines
    assert float(points[1]) == round(TurnStrategy.load().points_per_turn(), 2)
    assert float(wins[1]) == round(expert.first_player_wins(), 4)
    assert re.fullmatch(r"target 5 000: the first to play wins 0\.\d{4} \(loaded .*\)", lines[0])
    # No other line says what outside tests look for.
    assert sum("points per turn" in line for line in lines) == 1
    assert sum("first player wins" in line for line in lines) == 1


@pytest.mark.usefixtures("five_thousand_only")
def test_solve_rebuild_builds_again(expert: WinStrategy) -> None:
    status, lines = run(["solve", "10000", "--rebuild"])
    assert status == 0
    built = r"target 5 000: the first to play wins 0\.\d{4} \(built in .* s\)"
    assert re.fullmatch(built, lines[0])
    assert lines[-1] == f"first player wins {expert.first_player_wins():.4f}"


def test_simulate_prints_the_levels_and_their_head_to_heads(expert: WinStrategy) -> None:
    status, lines = run(["simulate", "10000", "--games", "6", "--seed", "3", "--target", "5000"])
    assert status == 0
    assert lines[0] == (
        "10 000 to 5 000: 6 games a pairing, the first seat alternating, dice seed 3"
    )
    levels = {}
    for line in lines[2:5]:
        found = re.fullmatch(r"(\S+) +(\d+\.\d) +(\d+\.\d\d)", line)
        assert found, line
        levels[found[1]] = float(found[2]), float(found[3])
    assert set(levels) == {"seed", "max-points", "expert"}
    assert all(200 < points < 1_500 and 2 < turns < 30 for points, turns in levels.values())
    pairings = {}
    for line in lines[6:9]:
        found = re.fullmatch(r"(\S+ vs \S+) +(\d+\.\d) % +(\d+\.\d) to (\d+\.\d) %", line)
        assert found, line
        rate, low, high = (float(found[i]) for i in (2, 3, 4))
        assert 0 <= low <= rate <= high <= 100
        pairings[found[1]] = rate
    assert set(pairings) == {"expert vs seed", "expert vs max-points", "max-points vs seed"}
    # The same seed plays the same games.
    assert run(["simulate", "10000", "--games", "6", "--seed", "3", "--target", "5000"])[1] == lines


@pytest.mark.usefixtures("five_thousand_only")
def test_solve_a_preset_prints_the_first_players_chance_to_five_decimals() -> None:
    status, lines = run(["solve", "10000", "--rules", "bank-300"])
    assert status == 0
    strategy = WinStrategy.load(5_000, rules=PRESETS["bank-300"])
    assert lines[-1] == f"first player wins {strategy.first_player_wins():.5f}"
    turn = TurnStrategy.load(PRESETS["bank-300"])
    assert lines[-2] == f"points per turn {turn.points_per_turn():.2f}"


@dataclass
class BySweeps:
    """Stands in for ``WinStrategy.load`` under a penalty (twenty minutes for facebook): it
    reports two sweeps, writes down the target and rules asked for, and is worth ``wins``."""

    wins: float
    asked: list[tuple[int, FarkleRules]] = field(default_factory=list)

    def __call__(self, target: int, **kwargs: Any) -> BySweeps:
        self.asked.append((target, kwargs["rules"]))
        kwargs["sweeps"](1, 0.5)
        kwargs["sweeps"](2, 3e-11)
        return self

    def first_player_wins(self) -> float:
        return self.wins


def test_solve_a_penalty_preset_says_each_sweep_and_solves_10_000_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The solve by sweeps stood in for by its reports."""
    load = BySweeps(0.534871)
    monkeypatch.setattr(WinStrategy, "load", load)
    status, lines = run(["solve", "10000", "--rules", "facebook"])
    assert status == 0
    assert load.asked == [(10_000, PRESETS["facebook"])]
    assert re.fullmatch(r"sweep 1: largest change 5\.0e-01 \(\d+ s\)", lines[0])
    assert re.fullmatch(r"sweep 2: largest change 3\.0e-11 \(\d+ s\)", lines[1])
    assert re.fullmatch(r"target 10 000: the first to play wins 0\.53487 \(.* s\)", lines[2])
    assert lines[-1] == "first player wins 0.53487"
    turn = TurnStrategy.load(PRESETS["facebook"])
    assert lines[-2] == f"points per turn {turn.points_per_turn():.2f}"


@pytest.mark.parametrize(("target", "words"), [("5000", "5 000"), ("15000", "15 000")])
def test_solve_a_penalty_preset_to_another_target(
    monkeypatch: pytest.MonkeyPatch, target: str, words: str
) -> None:
    """--target: that target's table alone, the lines the same."""
    load = BySweeps(0.541236)
    monkeypatch.setattr(WinStrategy, "load", load)
    status, lines = run(["solve", "10000", "--rules", "three-lost-500", "--target", target])
    assert status == 0
    assert load.asked == [(int(target), PRESETS["three-lost-500"])]
    assert re.fullmatch(rf"target {words}: the first to play wins 0\.54124 \(.* s\)", lines[2])
    assert lines[-1] == "first player wins 0.54124"


def test_solve_one_target_alone(expert: WinStrategy) -> None:
    """Under rules without a penalty --target solves that target alone, its chance last."""
    status, lines = run(["solve", "10000", "--target", "5000"])
    assert status == 0
    assert len(lines) == 3
    assert re.fullmatch(r"target 5 000: the first to play wins 0\.\d{4} \(loaded .*\)", lines[0])
    assert lines[-1] == f"first player wins {expert.first_player_wins():.4f}"


@pytest.mark.parametrize("target", ["7000", "ten"])
def test_solve_another_target_is_refused(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(["solve", "10000", "--rules", "facebook", "--target", target])
    assert exit_.value.code == 2
    assert "--target" in capsys.readouterr().err


def test_solve_yams_has_no_target(capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run(["solve", "yams", "--target", "5000"])
    assert status == 2
    assert "Yams has none" in capsys.readouterr().err


def test_solve_an_unknown_preset_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(["solve", "10000", "--rules", "vegas"])
    assert exit_.value.code == 2
    assert "facebook" in capsys.readouterr().err


def test_simulate_a_preset_names_it_and_plays_by_it() -> None:
    argv = ["simulate", "10000", "--games", "2", "--seed", "3", "--target", "5000"]
    status, lines = run([*argv, "--rules", "three-pairs-500"])
    assert status == 0
    assert lines[0].endswith("dice seed 3, house rules three-pairs-500")
    assert run([*argv, "--rules", "three-pairs-500"])[1] == lines


@pytest.mark.parametrize("command", ["solve", "simulate"])
def test_house_rules_are_refused_for_yams(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Solving and simulating Yams name its rules by --variant."""
    status, _ = run([command, "yams", "--rules", "bank-300"])
    assert status == 2
    assert "--variant" in capsys.readouterr().err


def test_play_refuses_rules_a_game_has_not(capsys: pytest.CaptureFixture[str]) -> None:
    """zar play takes each game's house rules by name, and names them when refusing."""
    status, _ = run(["play", "yams", "--rules", "bank-300"])
    assert status == 2
    assert "standard, official, free-joker, scandinavian" in capsys.readouterr().err
    status, _ = run(["play", "10000", "--rules", "scandinavian"])
    assert status == 2
    assert "seed, entry-500" in capsys.readouterr().err


def test_play_offers_the_expert_to_a_target_whose_table_is_at_hand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a penalty preset, the expert to a target whose table is not in the cache (tens
    of minutes to build) is refused, naming the levels there are."""
    monkeypatch.setattr(
        WinStrategy, "cached", classmethod(lambda cls, target, rules=None: target == 10_000)
    )
    argv = ["play", "10000", "--ai", "--level", "expert", "--rules", "facebook"]
    status, _ = run([*argv, "--target", "5000"])
    assert status == 2
    assert "--level: 10000 has the levels seed, max-points" in capsys.readouterr().err
