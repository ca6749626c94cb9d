"""How good the expert's two-player strategy is at a table of three or four.

The expert plays its two-player strategy against the leading opponent. Here one player of
a level sits with two or three seed bots, its seat rotating game by game, and its share
of the wins (a shared win split) is compared with the fair share, 1/3 or 1/4, and with
what the other levels get in the same seat. Game k throws ``SeededDice(f"{seed}-{k}")``.

    .venv/bin/python bench/farkle_multiplayer.py [--games 4000] [--seed 0] [--target 10000]
"""

from __future__ import annotations

import argparse
import math
import os
import time

from zar.ai.farkle import ExpertPlayer, MaxPointsPlayer, WinStrategy
from zar.ai.farkle_seed import ThresholdPlayer
from zar.ai.players import FarklePlayer
from zar.cli.farkle_commands import play_game
from zar.dice import SeededDice

LEVELS: dict[str, FarklePlayer] = {
    "expert": ExpertPlayer(),
    "max-points": MaxPointsPlayer(),
    "seed": ThresholdPlayer(),
}


def share(level: FarklePlayer, others: int, games: int, seed: int, target: int) -> list[float]:
    """The level's result in each game (1, 1/k for a win shared by k, 0) against seed bots."""
    results = []
    for k in range(games):
        seat = k % (others + 1)
        players: list[FarklePlayer] = [ThresholdPlayer()] * (others + 1)
        players[seat] = level
        state, _, _ = play_game(players, target, SeededDice(f"{seed}-{k}"))
        results.append(1 / len(state.winners) if seat in state.winners else 0.0)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=10_000)
    args = parser.parse_args()
    WinStrategy.load(args.target)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"target {args.target}, {args.games} games a line, the level's seat rotating")
    # The solver's own figure, played out: two experts, the first seat's share.
    strategy = WinStrategy.load(args.target)
    first = []
    for k in range(args.games):
        state, _, _ = play_game([ExpertPlayer()] * 2, args.target, SeededDice(f"{args.seed}-{k}"))
        first.append(1 / len(state.winners) if 0 in state.winners else 0.0)
    mean = sum(first) / len(first)
    half = 1.96 * math.sqrt(mean * (1 - mean) / len(first))
    solver = 100 * strategy.first_player_wins()
    print(
        f"expert vs expert: the first seat wins {100 * mean:.1f} % ({100 * (mean - half):.1f}"
        f" to {100 * (mean + half):.1f}); the solver says {solver:.2f} %"
    )
    for others in (1, 2, 3):
        fair = 1 / (others + 1)
        for name, level in LEVELS.items():
            start = time.perf_counter()
            results = share(level, others, args.games, args.seed, args.target)
            mean = sum(results) / len(results)
            spread = math.sqrt(sum((r - mean) ** 2 for r in results) / (len(results) - 1))
            half = 1.96 * spread / math.sqrt(len(results))
            took = time.perf_counter() - start
            print(
                f"{name:<10} + {others} seed: wins {100 * mean:5.1f} % "
                f"({100 * (mean - half):.1f} to {100 * (mean + half):.1f}), fair share "
                f"{100 * fair:.1f} %, ratio {mean / fair:.2f}  ({took:.0f} s)"
            )


if __name__ == "__main__":
    main()
