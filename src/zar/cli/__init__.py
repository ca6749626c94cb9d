"""The ``zar`` command: ``zar play yams`` and ``zar play 10000`` in the terminal.

A refused option or name is one line on standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from zar import __version__, ai
from zar.cli.terminal import Console, LeftUnfinished, play_farkle, play_yams
from zar.dice import DiceSource, SeededDice, SystemDice
from zar.farkle import TARGETS, FarkleSettings, FarkleState
from zar.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language, explain, text
from zar.table import IllegalAction, Seat, check_seats
from zar.yams import YamsSettings, YamsState

__all__ = ["main"]

GAMES = ("yams", "10000")


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
    play.add_argument("--ai", action="store_true", help='add the computer ("Humains + 1 IA")')
    play.add_argument("--level", help="the computer's level (see docs/computer-players.md)")
    play.add_argument("--target", type=int, choices=TARGETS, default=10_000, help="10 000's target")
    play.add_argument("--seed", type=int, help="seed the dice, to replay the same game")
    play.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE)
    play.set_defaults(run=_play)
    return parser


def _seats(names: Sequence[str], computer: bool, level: str, lang: Language) -> tuple[Seat, ...]:
    try:
        people = [Seat(name) for name in names] or [Seat(text(lang, "player-n", n=1))]
        computers = [Seat(text(lang, "computer"), computer=True, level=level)] if computer else []
        return check_seats(people + computers, max_computers=1)
    except IllegalAction as refusal:
        raise CommandError(explain(refusal, lang)) from None


def _play(args: argparse.Namespace, console: Console) -> int:
    lang: Language = args.lang
    level: str = args.level or ai.DEFAULT_LEVEL[args.game]
    if level not in ai.LEVELS[args.game]:
        raise CommandError(f"--level: {args.game} has the levels {', '.join(ai.LEVELS[args.game])}")
    seats = _seats(args.players or (), args.ai, level, lang)
    computers = [i for i, seat in enumerate(seats) if seat.computer]
    dice: DiceSource = SystemDice() if args.seed is None else SeededDice(args.seed)
    try:
        if args.game == "yams":
            yams_players = {i: ai.computer_player("yams", level) for i in computers}
            play_yams(YamsState.start(YamsSettings(seats)), yams_players, dice, console)
        else:
            farkle_players = {i: ai.computer_player("10000", level) for i in computers}
            start = FarkleState.start(FarkleSettings(seats, target=args.target))
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
    except CommandError as error:
        print(f"zar: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
