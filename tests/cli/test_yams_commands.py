"""``zar solve`` and ``zar simulate yams``: the last lines outside tests read (docs/contract.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from zar.ai.yams import Strategy
from zar.cli import main

Solved = Callable[[str], Strategy]
EXPECTED = re.compile(r"expected score (\d+\.\d{4})")
SUMMARY = re.compile(r"mean (\d+\.\d{2}) stdev (\d+\.\d{2}) games (\d+)")
LAST_LINE = re.compile(r"win rate (\d\.\d{4}) ci (-?\d\.\d{4}) (\d\.\d{4}) games (\d+)")


def run(*argv: str) -> list[str]:
    lines: list[str] = []
    assert main(list(argv), write=lambda line: lines.extend(line.split("\n"))) == 0
    return lines


@pytest.mark.parametrize("variant", ["standard", "official", "free-joker", "no-bonus"])
def test_solve_prints_the_expected_score_last(solved: Solved, variant: str) -> None:
    strategy = solved(variant)
    lines = run("solve", "--variant", variant)
    found = EXPECTED.fullmatch(lines[-1])
    assert found is not None
    assert found[1] == f"{strategy.expected_score():.4f}"
    assert f"stdev {strategy.stdev():.4f}" in lines
    assert "loaded from the cache" in lines[0]


def test_solve_defaults_to_yams_under_our_rules(solved: Solved) -> None:
    assert run("solve")[-1] == f"expected score {solved('standard').expected_score():.4f}"


def test_solve_free_joker_gives_the_published_value(solved: Solved) -> None:
    # T. Verhoeff, Optimal Solitaire Yahtzee Player: 254.5896 (docs/contract.md).
    solved("free-joker")
    assert run("solve", "--variant", "free-joker")[-1] == "expected score 254.5896"


def test_solve_official_gives_the_published_value(solved: Solved) -> None:
    # C.-P. He, the yahtzee-engine crate, Hasbro's official rules: 254.5877 (docs/contract.md).
    solved("official")
    assert run("solve", "--variant", "official")[-1] == "expected score 254.5877"


def test_solve_scandinavian_gives_the_published_value(solved: Solved) -> None:
    # yatzy-solver (PyPI), its variant yatzy-scandinavian: 248.4399894 (docs/contract.md).
    solved("scandinavian")
    assert run("solve", "--variant", "scandinavian")[-1] == "expected score 248.4400"


def test_simulate_scandinavian_plays_the_optimal_strategy(solved: Solved) -> None:
    solved("scandinavian")
    lines = run("simulate", "yams", "--variant", "scandinavian", "--games", "20")
    assert "expected score 248.4400" in lines[0]
    assert SUMMARY.fullmatch(lines[-1])


def test_solve_rebuild_builds_again(
    solved: Solved, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    strategy = solved("no-bonus")
    monkeypatch.setenv("ZAR_CACHE_DIR", str(tmp_path))

    def build(variant: str, progress: Callable[[int, int], None]) -> Strategy:
        progress(1, 1)
        return strategy

    monkeypatch.setattr(Strategy, "build", build)
    lines = run("solve", "--variant", "no-bonus", "--rebuild")
    assert "built in" in lines[0]
    assert lines[-1] == f"expected score {strategy.expected_score():.4f}"


def test_simulate_prints_mean_stdev_and_games_last(solved: Solved) -> None:
    strategy = solved("standard")
    lines = run("simulate", "yams", "--strategy", "optimal", "--games", "400", "--seed", "3")
    found = SUMMARY.fullmatch(lines[-1])
    assert found is not None
    assert found[3] == "400"
    scores = strategy.play(400, 3)
    assert found[1] == f"{scores.mean():.2f}"
    assert found[2] == f"{scores.std():.2f}"


def test_expert_is_optimal(solved: Solved) -> None:
    solved("standard")
    expert = run("simulate", "yams", "--strategy", "expert", "--games", "50", "--seed", "9")
    optimal = run("simulate", "yams", "--strategy", "optimal", "--games", "50", "--seed", "9")
    assert expert[-1] == optimal[-1]


def test_simulate_the_easy_player_through_the_engine() -> None:
    lines = run("simulate", "yams", "--strategy", "easy", "--games", "3", "--seed", "1")
    found = SUMMARY.fullmatch(lines[-1])
    assert found is not None
    assert found[3] == "3"


def test_a_duel_on_yatzys_card(solved: Solved) -> None:
    solved("scandinavian")
    argv = ("--variant", "scandinavian", "--duel", "win", "optimal", "--games", "20")
    found = LAST_LINE.fullmatch(run("simulate", "yams", *argv)[-1])
    assert found is not None
    assert found[4] == "20"


def test_simulate_a_variant(solved: Solved) -> None:
    solved("free-joker")
    lines = run("simulate", "yams", "--variant", "free-joker", "--games", "20")
    assert SUMMARY.fullmatch(lines[-1])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "yams", "--strategy", "perfect"], "no Yams strategy 'perfect'"),
        (["simulate", "yams", "--seed", "-1", "--games", "2"], "seed"),
        (
            ["simulate", "yams", "--variant", "scandinavian", "--strategy", "easy"],
            "only the optimal strategy",
        ),
        (
            ["simulate", "yams", "--variant", "scandinavian", "--duel", "win", "easy"],
            "no Yams duel strategy 'easy'",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    solved: Solved, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    solved("standard")
    assert main(argv, write=lambda line: None) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_the_command_writes_its_lines_to_stdout_and_its_bar_to_stderr(
    solved: Solved, tmp_path: Path
) -> None:
    """Built from nothing in a fresh process: the bar goes to stderr, the figures to stdout."""
    strategy = solved("no-bonus")
    # rich draws its bar only on a terminal, or where these say there is one.
    env = {
        **os.environ,
        "ZAR_CACHE_DIR": str(tmp_path),
        "TTY_INTERACTIVE": "1",
        "TTY_COMPATIBLE": "1",
    }
    command = [sys.executable, "-m", "zar", "solve", "--variant", "no-bonus"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == f"expected score {strategy.expected_score():.4f}"
    assert "built in" in lines[0]
    assert "solving Yams" in done.stderr
    assert "expected score" not in done.stderr
