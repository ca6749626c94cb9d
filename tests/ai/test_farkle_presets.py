"""The optimal 10 000 players under the house rules' presets (docs/rules.md, "House rules
of 10 000"; docs/strategy-10000.md): checked against plain-Python recomputations from the
engine's throws under each preset's rules, never against figures written in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from farkle_rules_support import last_turn_chances, lost_chance, throws
from zar.ai import cache as table_cache
from zar.ai import farkle
from zar.ai.farkle import ExpertPlayer, MaxPointsPlayer, TurnStrategy, WinStrategy
from zar.ai.farkle_solver import UNIT, bank_for_sure, solve_game
from zar.ai.judging import Strategies, decision, farkle_options
from zar.ai.turns import play_turn
from zar.dice import SeededDice
from zar.farkle import DICE, PRESETS, SEED, FarkleRules, FarkleSettings, FarkleState
from zar.table import Seat


def plain_turn(
    rules: FarkleRules, bank: Callable[[int], float], floor: int, top: int, lost: float
) -> dict[tuple[int, int], float]:
    """value[t, n] of a turn, from ``top`` units down (from ``top`` on it banks): banking t
    is worth ``bank(t)`` from ``floor`` units on, a lost turn ``lost``."""
    most = max(p for n in range(1, DICE + 1) for _, moves in throws(n, rules) for p, _ in moves)
    value: dict[tuple[int, int], float] = {}
    for t in range(top + most, -1, -1):
        banked = bank(t) if t >= max(floor, 1) else -np.inf
        for n in range(1, DICE + 1):
            if t >= top:
                value[t, n] = banked
                continue
            throw = lost_chance(n, rules) * lost + sum(
                chance * max(value[t + p, m] for p, m in moves)
                for chance, moves in throws(n, rules)
            )
            value[t, n] = max(banked, throw)
    return value


# The most points per turn.


@pytest.mark.parametrize(
    ("name", "entering"),
    [("bank-350", False), ("entry-750", True), ("doubling", False), ("facebook", False)],
)
def test_points_per_turn_against_a_plain_recursion(name: str, entering: bool) -> None:
    rules = PRESETS[name]
    floor = rules.bank_floor(0 if entering else UNIT) // UNIT
    value = plain_turn(rules, lambda t: float(t * UNIT), floor, bank_for_sure(rules), 0.0)
    strategy = TurnStrategy.load(rules, entering=entering)
    assert strategy.points_per_turn() == pytest.approx(value[0, DICE], abs=1e-9)
    for t, n in [(1, 5), (5, 1), (6, 3), (9, 6), (14, 2), (30, 4)]:
        assert strategy.value(t * UNIT, n) == pytest.approx(value[t, n], abs=1e-9)
        if t:
            banks = t >= floor and value[t, n] == t * UNIT
            assert strategy.banks(t * UNIT, n) is banks


def test_the_seeds_points_per_turn_are_unchanged() -> None:
    """docs/strategy-10000.md: 606.98 points per turn under the seeds' rules."""
    assert TurnStrategy.load(SEED).points_per_turn() == pytest.approx(606.98, abs=5e-3)
    assert TurnStrategy.load() is TurnStrategy.load(SEED)


def test_a_floor_lowers_the_points_per_turn() -> None:
    seed = TurnStrategy.load().points_per_turn()
    minima = [TurnStrategy.load(PRESETS[f"bank-{m}"]).points_per_turn() for m in (300, 350, 500)]
    # The most points never bank under 300 anyway: a minimum of 300 changes nothing.
    assert seed == minima[0] > minima[1] > minima[2]
    entering = TurnStrategy.load(PRESETS["entry-500"], entering=True).points_per_turn()
    assert entering == minima[2]  # getting on the board with 500 is a turn under bank-500


def test_a_turn_under_the_floor_never_banks() -> None:
    strategy = TurnStrategy.load(PRESETS["bank-500"])
    assert not strategy.banks(450, 1)
    assert strategy.banks(500, 1)  # one die: 2/3 of losing 500


# The chance of winning, a small target's whole table recomputed in plain Python.


def recomputed(rules: FarkleRules, target: int, win: np.ndarray) -> np.ndarray:
    """Each W(a, b) recomputed in plain Python from the others: the whole table's one
    fixed point (a lost turn hands W(b, a) to the other; a bank, W(b, a + t) or past the
    target the other's last turn; from the target on, banking for sure once the other's
    last-turn chance is under farkle(6) * W(b, a): a throw cannot do better)."""
    f6 = lost_chance(DICE, rules)
    again = np.zeros_like(win)
    chances = last_turn_chances(rules, 3 * target + 200)
    for a in range(target):
        for b in range(target):
            floor = rules.bank_floor(a * UNIT) // UNIT
            other = win[b, a]

            def bank(t: int, a: int = a, b: int = b) -> float:
                if a + t < target:
                    return float(1.0 - win[b, a + t])
                return 1.0 - chances[a + t - b]

            top = max(floor, target - a)
            while chances[a + top - b] > f6 * other:
                top += 1
            value = plain_turn(rules, bank, floor, top, 1.0 - other)
            again[a, b] = value[0, DICE]
    return again


@pytest.mark.parametrize(
    ("rules", "target"),
    [
        (PRESETS["entry-500"], 14),
        (FarkleRules(entry=750, bank_minimum=350), 18),
        (FarkleRules(bank_minimum=300, last_round=False), 16),
    ],
    ids=["entry-500", "entry-750-bank-350", "bank-300-no-last-round"],
)
def test_a_small_targets_win_table_recomputed_whole(rules: FarkleRules, target: int) -> None:
    game = solve_game(target, rules=rules)
    assert np.abs(recomputed(rules, target, game.win) - game.win).max() < 1e-9


@pytest.mark.parametrize("name", ["entry-1000", "bank-500", "doubling"])
def test_raising_the_cap_changes_nothing(name: str) -> None:
    """The cap from which a pair banks for sure is proven under a floor too."""
    rules = PRESETS[name]
    higher = solve_game(30, rules=rules, margin=10)
    assert np.abs(higher.win - solve_game(30, rules=rules).win).max() < 1e-12


def test_the_entry_and_the_instant_win_change_the_table() -> None:
    seed = solve_game(14).win
    entry = solve_game(14, rules=PRESETS["entry-500"]).win
    instant = solve_game(14, rules=FarkleRules(last_round=False)).win
    # Getting on the board costs the player at 0; the other's wait for it helps a player on it.
    assert entry[0, 5] < seed[0, 5]
    assert entry[5, 0] > seed[5, 0]
    # Without a last round the first to the target wins for sure: more for the leader.
    assert instant[12, 0] > seed[12, 0]


# The strategies of a target of the game, and the players.


@pytest.fixture(scope="module")
def bank_300(session_cache: Path) -> WinStrategy:
    """bank-300, target 5 000, built once for the module."""
    return WinStrategy.load(5_000, rules=PRESETS["bank-300"])


def test_a_preset_is_cached_under_its_own_key(bank_300: WinStrategy) -> None:
    key = WinStrategy.cache_key(5_000, PRESETS["bank-300"])
    assert key["rules"] == {"name": "bank-300", **PRESETS["bank-300"].as_dict()}
    assert WinStrategy.cache_key(5_000) == WinStrategy.cache_key(5_000, SEED)
    assert "rules" not in WinStrategy.cache_key(5_000)
    assert table_cache.load(farkle.CACHE_NAME, key) is not None
    assert WinStrategy.load(5_000, rules=PRESETS["bank-300"]) is bank_300


def test_a_preset_read_back_from_the_cache_is_the_same(
    bank_300: WinStrategy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(farkle, "_loaded", {})
    again = WinStrategy.load(5_000, rules=PRESETS["bank-300"])
    assert again is not bank_300
    assert np.array_equal(again._win, bank_300._win)
    assert np.array_equal(again._short, bank_300._short)


def test_the_last_turn_under_a_minimum(bank_300: WinStrategy) -> None:
    """50 behind with a 300 minimum: passing is not enough, the turn must reach 300."""
    chances = last_turn_chances(PRESETS["bank-300"], 120)
    for d in range(1, 120):
        assert bank_300.last_turn_chance(d * UNIT) == pytest.approx(chances[d], abs=1e-12)
    assert not bank_300.banks(4_900, 5_000, 200, 3)  # passes, yet under 300
    assert bank_300.banks(4_900, 5_000, 300, 3)


@pytest.mark.parametrize("name", ["bank-300", "facebook", "entry-500"])
@pytest.mark.parametrize("level", [MaxPointsPlayer(), ExpertPlayer()], ids=["max", "expert"])
def test_players_play_whole_games_of_a_preset(
    bank_300: WinStrategy, name: str, level: MaxPointsPlayer | ExpertPlayer
) -> None:
    seats = (Seat("IA 1", computer=True), Seat("IA 2", computer=True))
    state = FarkleState.start(FarkleSettings(seats, target=5_000, rules=PRESETS[name]))
    dice = SeededDice(f"{name}-game")
    players = [level, MaxPointsPlayer()]
    while not state.is_over:
        state = play_turn(state, players[state.seat], dice)[-1][1]
    assert max(state.totals) >= 5_000


def test_the_players_never_bank_under_the_floor() -> None:
    seats = (Seat("IA 1", computer=True), Seat("IA 2", computer=True))
    start = FarkleState.start(FarkleSettings(seats, target=5_000, rules=PRESETS["entry-1000"]))
    held = replace(start, turn_points=950, aside=(True,) * 5 + (False,), tray=(1,) * 6, throws=1)
    assert not MaxPointsPlayer().banks(held)
    assert MaxPointsPlayer().banks(replace(held, turn_points=1_000))


def test_the_coach_reads_the_games_rules() -> None:
    strategies = Strategies()
    seats = (Seat("Ali"), Seat("Bea"))
    start = FarkleState.start(FarkleSettings(seats, target=5_000, rules=PRESETS["bank-500"]))
    held = replace(start, turn_points=450, aside=(True,) * 5 + (False,), tray=(1,) * 6, throws=1)
    assert decision(held) == "throw"  # 50 short of the minimum: no bank to offer
    options = farkle_options(held, strategies.turn(held), strategies.win(held))
    assert [option["kind"] for option in options] == ["throw"]
    assert strategies.turn(held) is TurnStrategy.load(PRESETS["bank-500"], entering=True)
    facebook = replace(held, settings=replace(held.settings, rules=PRESETS["facebook"]))
    # Its table not in the cache (tens of minutes to build): the coach speaks in points.
    assert strategies.win(facebook) is None
