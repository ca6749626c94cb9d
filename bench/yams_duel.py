"""The Yams computer that plays to win, against the score-optimal one, two seats.

Head to head (`zar simulate yams --duel win optimal`: both seat orders in turn, the dice
of game g the same for any number of threads): the win rate and its 95 % interval; the
chance of winning the computer gave itself before each of its rounds against what then
happened, by tenths of that chance (the model's, and calibrated as the coach shows it: the
calibration is fitted on games from another seed); the build of its tables (the exact
laws of the last rounds' scores, then the calibration) in a fresh process, time and peak
memory; one decision. Under our rules, or another card's (``--variant``: Hasbro's, the
free Joker's, Scandinavian Yatzy's fifteen boxes).

    .venv/bin/python bench/yams_duel.py [--games 100000] [--seed 1] [--variant scandinavian]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from zar.ai import computer_player, next_action
from zar.ai.yams import Strategy
from zar.ai.yams_win import CALIBRATION_GAMES, CALIBRATION_SEED, WinPlayer, calibrated, duel
from zar.dice import SeededDice
from zar.table import Seat
from zar.yams import HOUSE_RULES, Rules, YamsSettings, YamsState

GOAL_BUILD_S = 60.0
GOAL_MB = 1024
GOAL_GAP = 0.02
GOAL_DECISION_MS = 20.0

BUILD = """
import re, sys, time
from pathlib import Path
from zar.ai.yams import Strategy
from zar.ai import yams_win
from zar.ai.yams_duel import late_laws
strategy = Strategy.load(sys.argv[1])
value, _, tables = strategy.tables
start = time.perf_counter()
yams_win._solved[strategy] = late_laws(value, tables)  # solved, not read from the cache
laws = time.perf_counter() - start
yams_win.fit_calibration(strategy)
seconds = time.perf_counter() - start
hwm = re.search(r"VmHWM:\\s+(\\d+) kB", Path("/proc/self/status").read_text())
print(laws, seconds, int(hwm[1]) / 1024)
"""


def build(rules: Rules) -> None:
    # Twice: the first run may compile the kernels into numba's cache.
    for attempt in ("first run (may compile)", "second run"):
        out = subprocess.run(
            [sys.executable, "-c", BUILD, rules.value], capture_output=True, text=True, check=True
        ).stdout.split()
        laws, seconds, mb = float(out[0]), float(out[1]), float(out[2])
        print(
            f"build, {attempt}: {seconds:.1f} s, the laws {laws:.1f} s and the calibration's "
            f"{CALIBRATION_GAMES} duels {seconds - laws:.1f} s (goal < {GOAL_BUILD_S:.0f} s; "
            f"Holderied's tables: 5-20 h), peak {mb:.0f} MB (goal < {GOAL_MB} MB; "
            "Holderied: 1.6 GB)"
        )


def head_to_head(strategy: Strategy, games: int, seed: int) -> None:
    start = time.perf_counter()
    played = duel(strategy, "win", "optimal", games, seed)
    seconds = time.perf_counter() - start
    rate, low, high = played.win_rate()
    mean_win, mean_optimal = played.finals.mean(axis=0)
    verdict = "above" if low > 0.5 else "NOT above"
    print(f"duel win against optimal, {games} games, {seconds:.1f} s")
    print(f"  mean score: win {mean_win:.2f}, optimal {mean_optimal:.2f}")
    print(f"  win rate {rate:.4f} ci {low:.4f} {high:.4f}: {verdict} 50 %")
    model = played.shown
    rounds = model.shape[1]
    shown = np.stack([calibrated(strategy, model[:, r], r + 1) for r in range(rounds)], axis=1)
    print("  the model's chance (before its calibration):")
    calibration(model, played.outcomes(), "the model")
    print("  the chance the coach shows (the model's, calibrated for the round):")
    calibration(shown, played.outcomes(), "shown")


def calibration(shown: np.ndarray, won: np.ndarray, what: str) -> None:
    """The chance before each round against the games' outcomes, by tenth: every round but
    the first (its chance is the same for every game), then the last three rounds alone
    (where both cards' laws are exact)."""
    rounds = shown.shape[1]
    for first, title in ((1, f"rounds 2-{rounds}"), (rounds - 3, f"rounds {rounds - 2}-{rounds}")):
        chances = shown[:, first:].ravel()
        results = np.repeat(won, rounds - first)
        tenth = np.minimum((chances * 10).astype(int), 9)
        print(f"  {title}: shown chance  decisions  mean shown  observed  gap")
        largest = 0.0
        for d in range(10):
            chosen = tenth == d
            if not chosen.any():
                continue
            mean, seen = chances[chosen].mean(), results[chosen].mean()
            n = int(chosen.sum())
            # The gap's own noise: two standard errors of the observed rate.
            noise = 2 * (seen * (1 - seen) / n) ** 0.5
            largest = max(largest, abs(mean - seen))
            print(
                f"  {d / 10:.1f}-{(d + 1) / 10:.1f}  {n:>10}  {mean:10.4f}  {seen:8.4f}  "
                f"{mean - seen:+.4f} (± {noise:.4f})"
            )
        print(
            f"  {what}, {title}: largest gap {100 * largest:.2f} points "
            f"(goal < {100 * GOAL_GAP:.0f})"
        )


def decision(strategy: Strategy, repeat: int) -> None:
    player = WinPlayer(strategy)
    seats = (Seat("A", computer=True, level="win"), Seat("B", computer=True, level="expert"))
    state = YamsState.start(YamsSettings(seats, strategy.rules))
    dice = SeededDice(4)
    expert = computer_player("yams", "expert", strategy.rules.value)
    rounds = len(strategy.rules.boxes)
    for round_ in (7, rounds - 1):
        while state.round < round_ or state.seat != 0 or state.throws != 0:
            state = state.apply(next_action(state, expert, dice))
        thrown = state.apply(next_action(state, expert, dice))
        player.keep(thrown)  # the tables loaded, the kernels compiled
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            player.keep(thrown)
            times.append(time.perf_counter() - start)
        ms = 1000 * statistics.median(times)
        print(
            f"one decision (a keep, round {state.round}): {ms:.2f} ms median, "
            f"{1000 * max(times):.2f} ms slowest (goal < {GOAL_DECISION_MS:.0f} ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument(
        "--variant", choices=[rules.value for rules in HOUSE_RULES], default="standard"
    )
    args = parser.parse_args()
    if args.seed == CALIBRATION_SEED:
        parser.error(f"seed {CALIBRATION_SEED} is the calibration's own: measure on another")
    strategy = Strategy.load(args.variant)
    build(strategy.rules)
    decision(strategy, args.repeat)
    head_to_head(strategy, args.games, args.seed)


if __name__ == "__main__":
    main()
