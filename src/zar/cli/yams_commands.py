"""``zar solve`` and ``zar simulate yams``: the optimal Yams strategy, built and put to play.

The last line of each is what outside tests read (docs/contract.md): ``expected score X``
for ``solve``, ``mean M stdev S games N`` for ``simulate``, ``win rate W ci LO HI games N``
for ``simulate --duel A B``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence

from zar.ai import computer_player, next_action
from zar.ai.yams import Strategy
from zar.ai.yams_win import duel
from zar.cli.progress import BuildBar
from zar.cli.terminal import Console
from zar.dice import SeededDice
from zar.table import Seat
from zar.yams import Box, Rules, Scorecard, YamsSettings, YamsState

__all__ = ["simulate", "solve"]

OPTIMAL = ("optimal", "expert")
STRATEGIES = (*OPTIMAL, "easy")


def _load(variant: str, rebuild: bool = False) -> tuple[Strategy, str]:
    """The strategy, and how it came: built now (a bar meanwhile) or read from the cache."""
    start = time.perf_counter()
    with BuildBar("solving Yams") as bar:
        strategy = Strategy.load(variant, rebuild=rebuild, progress=bar)
    how = "built" if bar.started else "loaded from the cache"
    return strategy, f"{how} in {time.perf_counter() - start:.2f} s"


def solve(args: argparse.Namespace, console: Console) -> int:
    """Build (or load) the optimal strategy and print its expected score and deviation."""
    strategy, how = _load(args.variant, args.rebuild)
    console.write(f"yams, {args.variant} rules: the optimal solitaire strategy, {how}")
    console.write(f"stdev {strategy.stdev():.4f}")
    console.write(f"expected score {strategy.expected_score():.4f}")
    return 0


def _easy_scores(rules: Rules, games: int, seed: int) -> list[int]:
    """Solitaire games of the easy player, through the engine, the dice seeded once."""
    player = computer_player("yams", "easy")
    dice = SeededDice(seed)
    settings = YamsSettings((Seat("IA", computer=True),))
    start = YamsState(settings, cards=(Scorecard(rules=rules),))
    scores = []
    for _ in range(games):
        state = start
        while not state.is_over:
            state = state.apply(next_action(state, player, dice))
        scores.append(state.cards[0].total)
    return scores


def _summary(scores: Sequence[int]) -> str:
    mean = sum(scores) / len(scores)
    stdev = math.sqrt(sum((s - mean) ** 2 for s in scores) / len(scores))
    return f"mean {mean:.2f} stdev {stdev:.2f} games {len(scores)}"


def _duel(args: argparse.Namespace, console: Console) -> int:
    """Two-seat games of ``args.duel``'s A against B, both seat orders in turn: A's win rate."""
    a, b = args.duel
    start = time.perf_counter()
    strategy, how = _load(args.variant)
    console.write(f"the optimal strategy, {how}")
    played = duel(strategy, a, b, args.games, args.seed)
    seconds = time.perf_counter() - start
    mean_a, mean_b = played.finals.mean(axis=0)
    console.write(f"yams, {args.variant} rules, {a} against {b}: {seconds:.1f} s")
    console.write(f"mean {a} {mean_a:.2f}, {b} {mean_b:.2f}")
    rate, low, high = played.win_rate()
    console.write(f"win rate {rate:.4f} ci {low:.4f} {high:.4f} games {args.games}")
    return 0


def simulate(args: argparse.Namespace, console: Console) -> int:
    """Play ``args.games`` solitaire games at ``args.strategy`` and print the scores' summary;
    with ``args.duel``, two-seat games of one strategy against another."""
    rules = Rules(args.variant)
    yams_card = rules.box_type is Box
    if getattr(args, "duel", None):
        return _duel(args, console)
    if args.strategy not in STRATEGIES:
        raise ValueError(
            f"there is no Yams strategy {args.strategy!r}: choose {', '.join(STRATEGIES)}"
        )
    if args.strategy not in OPTIMAL and not yams_card:
        raise ValueError(f"under {args.variant}, only the optimal strategy plays")
    start = time.perf_counter()
    if args.strategy in OPTIMAL:
        strategy, how = _load(args.variant)
        console.write(
            f"the optimal strategy, {how}: expected score {strategy.expected_score():.4f}"
        )
        scores: Sequence[int] = strategy.play(args.games, args.seed).tolist()
    else:
        scores = _easy_scores(rules, args.games, args.seed)
    seconds = time.perf_counter() - start
    console.write(f"yams, {args.variant} rules, {args.strategy}: {seconds:.1f} s")
    console.write(_summary(scores))
    return 0
