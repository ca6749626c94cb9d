"""Playing a whole game in the terminal: the dice, the card or the scoreboard, the choices.

Input and output are injected (``Console``), so that tests play whole games from a script.
A wrong entry is explained and asked again; the game never sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from string import ascii_lowercase

from zar import ai, farkle, yams
from zar.dice import DiceSource
from zar.farkle import FarkleState, Phase
from zar.i18n import Language, box_name, explain, number, percent, text
from zar.table import IllegalAction, Seat
from zar.yams import YamsState

__all__ = ["Console", "LeftUnfinished", "play_farkle", "play_yams"]

LETTERS = ascii_lowercase[:15]  # a..m, one per box in the card's order (a..o: Yatzy's 15)


class LeftUnfinished(Exception):
    """The input ended before the game did."""


@dataclass
class Console:
    """Where the game reads entries and writes lines; ``input`` and ``print`` by default."""

    read: Callable[[str], str] = input
    write: Callable[[str], None] = print
    lang: Language = "tr"
    echo: bool = field(default=False)  # repeat entries, for transcripts of scripted games

    def ask(self, prompt: str) -> str:
        try:
            entry = self.read(f"{prompt}: ")
        except EOFError:
            raise LeftUnfinished from None
        if self.echo:
            self.write(f"{prompt}: {entry}")
        return entry.strip()

    def t(self, key: str, **params: object) -> str:
        return text(self.lang, key, **params)


def _dice_line(dice: Sequence[int]) -> str:
    numbers = "  ".join(f"[{i}]" for i in range(1, len(dice) + 1))
    faces = "  ".join(f" {d} " for d in dice)
    return f"{numbers}\n{faces}"


def _positions(entry: str, count: int) -> tuple[int, ...] | None:
    """Die numbers typed as digits ("125"), as 0-based positions; None if not such an entry."""
    digits = entry.replace(" ", "").replace(",", "")
    if not digits.isdigit() or any(not 1 <= int(d) <= count for d in digits):
        return None
    if len(set(digits)) != len(digits):
        return None
    return tuple(int(d) - 1 for d in digits)


def _names(seats: Sequence[Seat], ids: Sequence[int], lang: Language) -> str:
    names = [seats[i].name for i in ids]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {text(lang, 'and')} " + names[-1]


def _final(
    console: Console, seats: Sequence[Seat], totals: Sequence[int], won: Sequence[int]
) -> None:
    console.write(f"\n== {console.t('game-over')} ==")
    key = "winner" if len(won) == 1 else "winners"
    console.write(console.t(key, names=_names(seats, won, console.lang)))
    ranking = sorted(range(len(seats)), key=lambda i: -totals[i])
    for place, i in enumerate(ranking, start=1):
        console.write(f"{place}. {seats[i].name:<24} {number(totals[i], console.lang):>7}")


# Yams


def yams_card_table(state: YamsState, lang: Language) -> str:
    """All players' cards, with what the throw would score in each allowed open box."""
    seats = state.settings.seats
    width = max(8, *(len(s.name) + 1 for s in seats))
    labels = ("upper-total", "upper-bonus", "penta-bonus", "total")
    boxes = state.settings.rules.boxes
    label = max(
        len(n) for n in (*(box_name(b, lang) for b in boxes), *(text(lang, k) for k in labels))
    )
    lines = [" " * (label + 3) + "".join(f"{s.name:>{width}}" for s in seats)]
    options = state.options

    def row(key: str, name: str, cells: list[str]) -> None:
        lines.append(f"{key:<2} {name:<{label}}" + "".join(f"{c:>{width}}" for c in cells))

    for box in boxes:
        cells = []
        for i, card in enumerate(state.cards):
            if card[box] is not None:
                cells.append(str(card[box]))
            elif i == state.seat and options:
                cells.append(f"({options[box]})" if box in options else "-")
            else:
                cells.append("·")
        row(LETTERS[box.slot] if box in options else "", box_name(box, lang), cells)
        if box.face == 6:
            row("", text(lang, "upper-total"), [f"{c.upper_total}/63" for c in state.cards])
            row("", text(lang, "upper-bonus"), [str(c.upper_bonus) for c in state.cards])
    if state.settings.rules.penta_counts:  # not on Yatzy's card, which has no such bonus
        row("", text(lang, "penta-bonus"), [str(c.penta_bonus) for c in state.cards])
    row("", text(lang, "total"), [str(c.total) for c in state.cards])
    return "\n".join(lines)


def _announce_fill(console: Console, state: YamsState, lang: Language) -> None:
    for event in state.events:
        if isinstance(event, yams.Filled):
            name = state.settings.seats[event.seat].name
            console.write(
                console.t("writes", name=name, box=box_name(event.box, lang), points=event.points)
            )
            if event.penta_bonus:
                console.write(console.t("penta-bonus-won"))
            if event.upper_bonus:
                console.write(console.t("upper-bonus-won"))


def _ask_yams(console: Console, state: YamsState) -> yams.YamsAction:
    """Ask the person whose round it is what to do with this throw, until the entry is legal."""
    last = state.throws_left == 0
    help_text = console.t("yams-prompt-last" if last else "yams-prompt")
    while True:
        entry = console.ask(help_text).lower()
        boxes = state.settings.rules.boxes
        if len(entry) == 1 and entry in LETTERS[: len(boxes)]:
            box = boxes[LETTERS.index(entry)]
            try:
                state.card.fill(box, state.dice)
            except IllegalAction as refusal:
                console.write(explain(refusal, console.lang))
                continue
            return yams.Fill(state.seat, box)
        if not last:
            keep = () if entry == "0" else _positions(entry, yams.DICE)
            if keep is not None:
                return yams.Throw(state.seat, keep, ())  # faces come from the dice source
        console.write(console.t("not-understood", entry=entry, help=help_text))


def play_yams(
    state: YamsState,
    computers: Mapping[int, ai.YamsPlayer],
    dice: DiceSource,
    console: Console,
) -> YamsState:
    """Play ``state`` to its end: people answer at the console, ``computers`` play their seats."""
    lang = console.lang
    seats = state.settings.seats
    while not state.is_over:
        seat = state.seat
        name = seats[seat].name
        console.write(
            f"\n── {console.t('round-of', round=state.round, rounds=state.rounds)} · {name} ──"
        )
        if seat in computers:
            for action, after in ai.play_turn(state, computers[seat], dice):
                if isinstance(action, yams.Throw):
                    if action.keep:
                        kept = " ".join(str(f) for f in sorted(after.dice[p] for p in action.keep))
                        console.write(console.t("keeps", name=name, dice=kept))
                    shown = " ".join(map(str, after.dice))
                    console.write(console.t("throws", name=name, dice=shown))
                else:
                    _announce_fill(console, after, lang)
                state = after
            continue
        state = state.apply(yams.Throw(seat, (), dice.roll(yams.DICE)))
        while state.seat == seat and not state.is_over and state.throws:
            console.write(yams_card_table(state, lang))
            console.write(console.t("throw-n-of-3", n=state.throws))
            console.write(_dice_line(state.dice))
            if state.must_sacrifice:
                console.write(console.t("must-sacrifice"))
            action = _ask_yams(console, state)
            if isinstance(action, yams.Throw):
                action = yams.Throw(seat, action.keep, dice.roll(yams.DICE - len(action.keep)))
            state = state.apply(action)
        _announce_fill(console, state, lang)
    console.write(yams_card_table(state, lang))
    _final(console, seats, [c.total for c in state.cards], state.winners)
    return state


# 10 000


def farkle_scoreboard(state: FarkleState, lang: Language) -> str:
    seats = state.settings.seats
    width = max(len(s.name) for s in seats)
    target = number(state.settings.target, lang)
    colon = " :" if lang == "fr" else ":"  # French sets a space before its colon
    lines = [f"{text(lang, 'target')}{colon} {target}"]
    if state.last_round_by is not None and not state.is_over:
        lines[0] += f"  {text(lang, 'last-round')}"  # stays in view until the game ends
    for i, seat in enumerate(seats):
        marker = "▶" if i == state.seat and not state.is_over else " "
        lines.append(f"{marker} {seat.name:<{width}}  {number(state.totals[i], lang):>7}")
    return "\n".join(lines)


def _announce_farkle(console: Console, state: FarkleState) -> None:
    seats = state.settings.seats
    for event in state.events:
        match event:
            case farkle.TurnLost():
                console.write(" ".join(map(str, event.dice)) + "  " + console.t("turn-lost"))
            case farkle.HotDice():
                console.write(console.t("hot-dice"))
            case farkle.Banked():
                points = number(event.points, console.lang)
                console.write(console.t("banks", name=seats[event.seat].name, points=points))
            case farkle.ThreeLost():
                points = number(event.points, console.lang)
                console.write(console.t("three-lost", name=seats[event.seat].name, points=points))
            case farkle.LastRound():
                console.write(console.t("last-round"))
            case farkle.GameOver():
                pass


def _two_lost(console: Console, state: FarkleState) -> None:
    """Under a penalty for three lost turns in a row, as a turn begins after two lost: the
    next one costs (as the page says it)."""
    penalty = state.settings.rules.three_lost
    if penalty and state.lost_in_row[state.seat] == 2:
        console.write(console.t("two-lost", points=number(penalty, console.lang)))


def _in_play(state: FarkleState) -> list[int]:
    """Tray positions of the dice of the throw, in order: the console numbers them 1, 2, ..."""
    return [p for p in range(farkle.DICE) if not state.aside[p]]


def _ask_set_aside(console: Console, state: FarkleState) -> farkle.SetAside:
    positions = _in_play(state)
    prompt = console.t("farkle-prompt-aside")
    while True:
        entry = console.ask(prompt)
        chosen = _positions(entry, len(positions))
        if chosen is None:
            console.write(console.t("not-understood", entry=entry, help=prompt))
            continue
        action = farkle.SetAside(state.seat, tuple(positions[i] for i in chosen))
        try:
            state.apply(action)
        except IllegalAction as refusal:
            console.write(explain(refusal, console.lang))
            continue
        return action


def _ask_bank(console: Console, state: FarkleState) -> bool:
    lang = console.lang
    risk = console.t(
        "risk", risk=percent(float(farkle.farkle_probability(state.dice_in_play)), lang)
    )
    prompt = console.t(
        "farkle-prompt-next",
        dice=state.dice_in_play,
        risk=risk,
        points=number(state.turn_points, lang),
    )
    while True:
        entry = console.ask(prompt).lower()
        if entry in (console.t("key-throw"), console.t("throw").lower()):
            return False
        if entry in (console.t("key-bank"), console.t("bank").lower()):
            return True
        console.write(console.t("not-understood", entry=entry, help=prompt))


def play_farkle(
    state: FarkleState,
    computers: Mapping[int, ai.FarklePlayer],
    dice: DiceSource,
    console: Console,
) -> FarkleState:
    """Play ``state`` to its end: people answer at the console, ``computers`` play their seats."""
    lang = console.lang
    seats = state.settings.seats
    while not state.is_over:
        seat = state.seat
        name = seats[seat].name
        console.write("\n" + farkle_scoreboard(state, lang))
        console.write(f"── {console.t('turn-of', name=name)} ──")
        if seat in computers:
            _two_lost(console, state)
            for action, after in ai.play_turn(state, computers[seat], dice):
                state = after
                match action:
                    case farkle.Throw():
                        shown = " ".join(map(str, action.dice))
                        console.write(console.t("throws", name=name, dice=shown))
                    case farkle.SetAside():
                        faces, gained = state.groups[-1]
                        shown = " ".join(map(str, faces))
                        points = number(gained, lang)
                        console.write(console.t("sets-aside", name=name, dice=shown, points=points))
                    case farkle.Bank():
                        pass
                _announce_farkle(console, state)
            continue
        while state.seat == seat and not state.is_over:
            if state.phase is Phase.THROW and not state.turn_points:  # a turn begins
                _two_lost(console, state)
            if state.phase is Phase.THROW and state.turn_points and not state.can_bank:
                points = number(state.bank_needs, lang)
                console.write(console.t("bank-needs", points=points))  # the rules' minimum
            if state.can_bank and _ask_bank(console, state):
                state = state.apply(farkle.Bank(seat))
            elif state.phase is Phase.THROW:
                state = state.apply(farkle.Throw(seat, dice.roll(state.dice_in_play)))
                if state.seat == seat:
                    if state.turn_points:
                        points = number(state.turn_points, lang)
                        console.write(console.t("turn-points", points=points))
                    console.write(_dice_line(state.throw))
            else:
                state = state.apply(_ask_set_aside(console, state))
            _announce_farkle(console, state)
    console.write("\n" + farkle_scoreboard(state, lang))
    _final(console, seats, state.totals, state.winners)
    return state
