"""``zar solve 10000`` and ``zar simulate 10000``: the optimal 10 000 players, built and
put to play.

``solve`` ends with the two lines outside tests read (docs/contract.md): ``points per turn X``
and ``first player wins P`` (the default target, 10 000, or ``--target``'s alone); with
``--rules NAME``, under that preset of house rules, P to five decimals (under a penalty for
three lost turns in a row, one target alone, 10 000 unless ``--target`` says another,
solved by sweeps, each said as it ends).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from zar.ai.farkle import ExpertPlayer, MaxPointsPlayer, TurnStrategy, WinStrategy
from zar.ai.farkle_seed import ThresholdPlayer
from zar.ai.players import FarklePlayer
from zar.ai.turns import play_turn
from zar.cli.progress import BuildBar
from zar.cli.terminal import Console
from zar.dice import DiceSource, SeededDice
from zar.farkle import PRESETS, SEED, TARGETS, FarkleRules, FarkleSettings, FarkleState
from zar.table import Seat

__all__ = ["Tally", "head_to_head", "play_game", "simulate", "solve"]

DEFAULT_TARGET = 10_000
LEVELS: dict[str, FarklePlayer] = {
    "seed": ThresholdPlayer(),
    "max-points": MaxPointsPlayer(),
    "expert": ExpertPlayer(),
}
PAIRINGS = (("expert", "seed"), ("expert", "max-points"), ("max-points", "seed"))


def _points(value: int) -> str:
    """10000 as the game writes it: 10 000."""
    return f"{value:,}".replace(",", " ")


def _load(target: int, rebuild: bool = False, rules: FarkleRules = SEED) -> tuple[WinStrategy, str]:
    """The strategy, and how it came: built now (a bar meanwhile) or read from the cache."""
    start = time.perf_counter()
    with BuildBar(f"solving 10 000 to {_points(target)}") as bar:
        strategy = WinStrategy.load(target, rules=rules, rebuild=rebuild, progress=bar)
    how = "built" if bar.started else "loaded from the cache"
    return strategy, f"{how} in {time.perf_counter() - start:.2f} s"


def solve(args: argparse.Namespace, console: Console) -> int:
    """Build (or load) the strategies of the three targets, or ``--target``'s alone, under
    the house rules and print what they are worth (under a penalty for three lost turns in
    a row: one target, 10 000 unless ``--target`` says another)."""
    name: str | None = getattr(args, "rules", None)
    chosen: int | None = getattr(args, "target", None)
    rules = SEED if name is None else PRESETS[name]
    turn = TurnStrategy.load(rules)
    if rules.three_lost:
        return _solve_penalty(chosen or DEFAULT_TARGET, rules, args.rebuild, turn, console)
    default = 0.0
    for target in TARGETS if chosen is None else (chosen,):
        strategy, how = _load(target, args.rebuild, rules)
        wins = strategy.first_player_wins()
        console.write(f"target {_points(target)}: the first to play wins {wins:.4f} ({how})")
        if target == (chosen or DEFAULT_TARGET):
            default = wins
    console.write(f"points per turn {turn.points_per_turn():.2f}")
    # The contract's line has four decimals; a preset asked for by name has five.
    console.write(f"first player wins {default:.{4 if name is None else 5}f}")
    return 0


def _solve_penalty(
    target: int, rules: FarkleRules, rebuild: bool, turn: TurnStrategy, console: Console
) -> int:
    """One target alone under a penalty for three lost turns in a row: a solve by sweeps
    (twenty minutes on two cores for ``facebook`` to 10 000), each sweep said as it ends."""
    start = time.perf_counter()
    sweeps: list[int] = []

    def sweep(done: int, change: float) -> None:
        sweeps.append(done)
        console.write(
            f"sweep {done}: largest change {change:.1e} ({time.perf_counter() - start:.0f} s)"
        )

    strategy = WinStrategy.load(target, rules=rules, rebuild=rebuild, sweeps=sweep)
    wins = strategy.first_player_wins()
    how = f"built in {len(sweeps)} sweeps" if sweeps else "loaded from the cache"
    console.write(
        f"target {_points(target)}: the first to play wins {wins:.5f}"
        f" ({how} in {time.perf_counter() - start:.2f} s)"
    )
    console.write(f"points per turn {turn.points_per_turn():.2f}")
    console.write(f"first player wins {wins:.5f}")
    return 0


@dataclass
class Tally:
    """What one level did over the games it played."""

    turns: int = 0
    points: int = 0
    # Its own turns until its bank reached the target, in the games where it did.
    to_target: list[int] = field(default_factory=list)
    # 1 a win, 1/2 a shared one, 0 a loss, one per game, for each opponent level.
    results: dict[str, list[float]] = field(default_factory=dict)


def play_game(
    players: Sequence[FarklePlayer], target: int, dice: DiceSource, rules: FarkleRules = SEED
) -> tuple[FarkleState, list[int], list[int | None]]:
    """Play a whole game between ``players`` (in seat order) under ``rules``: the final
    state, each seat's turns, and the turn at which each seat's bank reached the target
    (None if it did not)."""
    seats = tuple(Seat(f"IA {i + 1}", computer=True) for i in range(len(players)))
    state = FarkleState.start(FarkleSettings(seats, target=target, rules=rules))
    turns = [0] * len(players)
    reached: list[int | None] = [None] * len(players)
    while not state.is_over:
        seat = state.seat
        state = play_turn(state, players[seat], dice)[-1][1]
        turns[seat] += 1
        if reached[seat] is None and state.totals[seat] >= target:
            reached[seat] = turns[seat]
    return state, turns, reached


def _interval(results: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95 % interval (normal approximation), clipped to [0, 1]."""
    n = len(results)
    mean = sum(results) / n
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * spread / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def head_to_head(games: int, seed: int, target: int, rules: FarkleRules = SEED) -> dict[str, Tally]:
    """Each pairing of levels plays ``games`` games under ``rules``, the first seat
    alternating; game k of each pairing throws ``SeededDice(f"{seed}-{k}")``."""
    tallies = {level: Tally() for level in LEVELS}
    for first, second in PAIRINGS:
        for k in range(games):
            names = (first, second) if k % 2 == 0 else (second, first)
            state, turns, reached = play_game(
                [LEVELS[n] for n in names], target, SeededDice(f"{seed}-{k}"), rules
            )
            for seat, name in enumerate(names):
                tally = tallies[name]
                tally.turns += turns[seat]
                tally.points += state.totals[seat]
                if (when := reached[seat]) is not None:
                    tally.to_target.append(when)
                share = 1 / len(state.winners) if seat in state.winners else 0.0
                tally.results.setdefault(names[1 - seat], []).append(share)
    return tallies


def simulate(args: argparse.Namespace, console: Console) -> int:
    """Play the levels against each other and print their figures and win rates."""
    target: int = args.target
    name: str | None = getattr(args, "rules", None)
    rules = SEED if name is None else PRESETS[name]
    # Under a penalty the expert plays for the win where the table is in the cache (zar
    # solve 10000 --rules NAME --target T builds it: tens of minutes), else for points.
    if not rules.three_lost:
        _load(target, rules=rules)
    tallies = head_to_head(args.games, args.seed, target, rules)
    under = "" if name is None else f", house rules {name}"
    console.write(
        f"10 000 to {_points(target)}: {args.games} games a pairing, the first seat"
        f" alternating, dice seed {args.seed}{under}"
    )
    console.write(f"{'level':<12}{'points per turn':>17}{'turns to the target':>21}")
    for level, tally in tallies.items():
        turns = sum(tally.to_target) / len(tally.to_target) if tally.to_target else math.nan
        console.write(f"{level:<12}{tally.points / tally.turns:>17.1f}{turns:>21.2f}")
    console.write(f"{'head to head':<24}{'wins (ties 1/2)':>16}{'95 % interval':>20}")
    for first, second in PAIRINGS:
        mean, low, high = _interval(tallies[first].results[second])
        pairing = f"{first} vs {second}"
        console.write(
            f"{pairing:<24}{100 * mean:>14.1f} %{f'{100 * low:.1f} to {100 * high:.1f} %':>20}"
        )
    return 0
