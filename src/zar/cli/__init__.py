"""The ``zar`` command: ``zar play yams`` and ``zar play 10000`` in the terminal, ``zar serve``,
``zar backup`` and ``zar restore``, ``zar solve``, ``zar warm`` and ``zar simulate``.

A refused option or name is one line on standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from zar import __version__, ai
from zar.cli.terminal import Console, LeftUnfinished, play_farkle, play_yams
from zar.dice import DiceSource, SeededDice, SystemDice
from zar.farkle import PRESETS, TARGETS, FarkleSettings, FarkleState
from zar.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language, explain, text
from zar.record import HOUSE_RULES, farkle_rules, yams_rules
from zar.table import IllegalAction, Seat, check_table
from zar.yams import Rules, YamsSettings, YamsState

__all__ = ["main"]

GAMES = ("yams", "10000")
VARIANTS = tuple(rules.value for rules in Rules)


class CommandError(Exception):
    """A refused command line, said in the player's language."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="zar", description="Yams and 10 000, the dice games.")
    parser.add_argument("--version", action="version", version=f"zar {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    play = commands.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", choices=GAMES, help="yams or 10000")
    play.add_argument(
        "-p",
        "--player",
        action="append",
        dest="players",
        metavar="NAME",
        help="a person at the table (repeat for each, up to 6)",
    )
    play.add_argument(
        "--ai",
        action="store_true",
        help='add one computer ("Humains + 1 IA"); several play on the web page',
    )
    play.add_argument("--level", help="the computer's level (see docs/computer-players.md)")
    play.add_argument("--target", type=int, choices=TARGETS, default=10_000, help="10 000's target")
    play.add_argument(
        "--rules",
        help="the house rules by name (docs/rules.md, 'House rules'); by default the seeds'",
    )
    play.add_argument("--seed", type=int, help="seed the dice, to replay the same game")
    play.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE)
    play.set_defaults(run=_play)

    serve = commands.add_parser("serve", help="serve the web app (Yams and 10 000 in the browser)")
    serve.add_argument(
        "--host",
        help="default: $ZAR_HOST or 127.0.0.1 (this machine only); 0.0.0.0: the network too",
    )
    serve.add_argument("--port", type=int, help="default: $ZAR_PORT or 8000")
    serve.add_argument(
        "--db", type=Path, help="the SQLite file; default: $ZAR_DB or the data folder"
    )
    serve.add_argument(
        "--proxies",
        help="the front servers whose X-Forwarded-For is believed, comma-separated addresses "
        "or networks; default: $ZAR_PROXIES or none",
    )
    serve.set_defaults(run=_serve)

    for name, what in (
        ("backup", "write every game of the store to FILE (gzip'd JSON lines)"),
        ("restore", "read the games of a backup FILE into the store (those already there skipped)"),
    ):
        command = commands.add_parser(name, help=what)
        command.add_argument("file", type=Path, metavar="FILE")
        command.add_argument(
            "--db",
            type=Path,
            help="the SQLite file; default: as zar serve, $ZAR_DATABASE_URL or $ZAR_DB",
        )
        command.set_defaults(run=_backup)

    solve = commands.add_parser(
        "solve", help="build the optimal strategy (or load it from the cache) and print its value"
    )
    solve.add_argument("game", nargs="?", choices=GAMES, default="yams")
    solve.add_argument(
        "--variant",
        choices=VARIANTS,
        default="standard",
        help="Yams: our rules, or a published variant to check the solver against",
    )
    solve.add_argument(
        "--rules",
        choices=PRESETS,
        help="10 000's house rules (docs/rules.md); adds the first player's chance to five"
        " decimals",
    )
    solve.add_argument(
        "--target",
        type=int,
        choices=TARGETS,
        help="10 000's target alone (default: the three; under a penalty for three lost"
        " turns, 10 000)",
    )
    solve.add_argument("--rebuild", action="store_true", help="ignore the cache")
    solve.set_defaults(run=_solve)

    warm = commands.add_parser(
        "warm",
        help="ready the tables and compiled code the games ask for, in the caches (built "
        "once on a machine, minutes; then read in seconds): make run does it first",
    )
    warm.set_defaults(run=_warm)

    simulate = commands.add_parser("simulate", help="play many games between computer players")
    simulate.add_argument("game", choices=GAMES)
    simulate.add_argument(
        "--strategy", default="optimal", help="Yams: the level that plays (optimal, expert, easy)"
    )
    simulate.add_argument(
        "--duel",
        nargs=2,
        metavar=("A", "B"),
        help="Yams: two seats, strategy A against B (optimal, win), both seat orders in turn",
    )
    simulate.add_argument("--variant", choices=VARIANTS, default="standard", help="Yams' rules")
    simulate.add_argument("--games", type=_positive, default=1_000, metavar="N")
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument(
        "--target", type=int, choices=TARGETS, default=10_000, help="10 000's target"
    )
    simulate.add_argument(
        "--rules", choices=PRESETS, help="10 000's house rules (docs/rules.md), by preset"
    )
    simulate.set_defaults(run=_simulate)
    return parser


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return number


def _prepare_expert(rules: Rules = Rules.STANDARD) -> None:
    """Build the optimal Yams strategy of ``rules`` with a progress bar if this machine has
    none yet."""
    from zar.ai.yams import Strategy
    from zar.cli.progress import BuildBar

    with BuildBar("IA") as bar:
        Strategy.load(rules, progress=bar)


def _serve(args: argparse.Namespace, console: Console) -> int:
    from zar.server.run import serve

    serve(args.host, args.port, args.db, args.proxies)
    return 0


def _backup(args: argparse.Namespace, console: Console) -> int:
    from zar.cli.backup import run
    from zar.cli.progress import BuildBar

    with BuildBar(args.command) as bar:
        return run(args.command, args.file, args.db, bar)


def _house_rules(args: argparse.Namespace) -> None:
    if args.game == "yams" and args.rules is not None:
        raise CommandError("--rules: 10 000's house rules; Yams' rules are --variant")


def _solve(args: argparse.Namespace, console: Console) -> int:
    _house_rules(args)
    if args.game == "yams" and args.target is not None:
        raise CommandError("--target: 10 000's target; Yams has none")
    # numpy and numba load only for the commands that solve.
    if args.game == "yams":
        from zar.cli import yams_commands

        return yams_commands.solve(args, console)
    from zar.cli import farkle_commands

    return farkle_commands.solve(args, console)


def _warm(args: argparse.Namespace, console: Console) -> int:
    import time

    from zar.ai.warm import warm

    began = time.monotonic()
    warm(lambda step: print(f"zar: {step.what}", flush=True))
    print(f"zar: ready ({time.monotonic() - began:.0f} s)", flush=True)
    return 0


def _simulate(args: argparse.Namespace, console: Console) -> int:
    _house_rules(args)
    if args.game == "yams":
        from zar.cli import yams_commands

        return yams_commands.simulate(args, console)
    from zar.cli import farkle_commands

    return farkle_commands.simulate(args, console)


def _seats(names: Sequence[str], computer: bool, level: str, lang: Language) -> tuple[Seat, ...]:
    try:
        people = [Seat(name) for name in names] or [Seat(text(lang, "player-n", n=1))]
        computers = [Seat(text(lang, "computer"), computer=True, level=level)] if computer else []
        return check_table(people + computers, max_computers=1)
    except IllegalAction as refusal:
        raise CommandError(explain(refusal, lang)) from None


def _play(args: argparse.Namespace, console: Console) -> int:
    lang: Language = args.lang
    if args.rules is not None and args.rules not in HOUSE_RULES[args.game]:
        raise CommandError(
            f"--rules: {args.game} has the rules {', '.join(HOUSE_RULES[args.game])}"
        )
    rules: str | None = args.rules
    level: str = args.level or ai.DEFAULT_LEVEL[args.game]
    offered = ai.levels(args.game, rules, args.target)
    if level not in offered:
        raise CommandError(f"--level: {args.game} has the levels {', '.join(offered)}")
    seats = _seats(args.players or (), args.ai, level, lang)
    computers = [i for i, seat in enumerate(seats) if seat.computer]
    dice: DiceSource = SystemDice() if args.seed is None else SeededDice(args.seed)
    named = rules or HOUSE_RULES[args.game][0]  # the game's rules said first, as the page does
    console.write(text(lang, "rules-of", name=text(lang, f"rules-{args.game}-{named}")))
    try:
        if args.game == "yams":
            if computers and level == "expert":
                _prepare_expert(yams_rules(rules))
            yams_players = {i: ai.computer_player("yams", level, rules) for i in computers}
            yams_start = YamsState.start(YamsSettings(seats, yams_rules(rules)))
            play_yams(yams_start, yams_players, dice, console)
        else:
            farkle_players = {i: ai.computer_player("10000", level, rules) for i in computers}
            settings = FarkleSettings(seats, target=args.target, rules=farkle_rules(rules))
            start = FarkleState.start(settings)
            play_farkle(start, farkle_players, dice, console)
    except LeftUnfinished:
        console.write("\n" + text(lang, "left-unfinished"))
        return 1
    return 0


def main(
    argv: Sequence[str] | None = None,
    *,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Run the ``zar`` command; returns its exit status. Tests inject ``read`` and ``write``."""
    args = _parser().parse_args(argv)
    console = Console(read=read, write=write, lang=getattr(args, "lang", DEFAULT_LANGUAGE))
    try:
        status: int = args.run(args, console)
    except (CommandError, ValueError) as error:
        # A refused option, name or state: one line, never a traceback.
        print(f"zar: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
