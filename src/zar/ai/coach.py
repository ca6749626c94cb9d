"""The coach: what the perfect player would do now and why (the review after a game, which
reads the same values, is :mod:`zar.ai.review`).

Everything is read from the optimal strategies: Yams from :class:`~zar.ai.yams.Strategy`
(expected final scores, solitaire), 10 000 from :class:`~zar.ai.farkle.TurnStrategy`
(the points a turn ends with) and, against one opponent, :class:`~zar.ai.farkle.WinStrategy`
(the chance of winning). Options are plain JSON values, best first; the sentences come in
the player's language (:mod:`zar.i18n`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, assert_never

from zar import farkle, yams
from zar.dice import outcomes
from zar.farkle import FarkleState, Phase
from zar.i18n import Language, box_name, number, percent, text
from zar.record import Record, State
from zar.table import IllegalAction
from zar.yams import Box, YamsState
from zar.yams.scorecard import PENTA_POINTS, UPPER_BONUS_AT

if TYPE_CHECKING:  # numpy and numba load with the strategies, not with the notes of a view
    from zar.ai.farkle import TurnStrategy, WinStrategy
    from zar.ai.yams import Strategy

__all__ = [
    "Decision",
    "Strategies",
    "box_notes",
    "decision",
    "farkle_options",
    "hint",
    "throw_value",
    "yams_options",
]

Decision = Literal["keep", "box", "set_aside", "bank_or_throw", "throw"]
Option = dict[str, Any]

TOP = 3  # options a hint lists


class Strategies:
    """The strategies the coach reads, each loaded on first use (then shared)."""

    def __init__(self, yams_strategy: Strategy | None = None) -> None:
        self._yams = yams_strategy

    def yams(self) -> Strategy:
        if self._yams is None:
            from zar.ai import computer_player
            from zar.ai.yams import OptimalPlayer

            player = computer_player("yams", "expert")  # the process's one table
            assert isinstance(player, OptimalPlayer)
            self._yams = player.strategy
        return self._yams

    def turn(self) -> TurnStrategy:
        from zar.ai.farkle import TurnStrategy

        return TurnStrategy.load()

    def win(self, state: FarkleState, *, leader: bool = False) -> WinStrategy | None:
        """The two-player strategy of the game's target, when exactly two play; with
        ``leader`` at any table of two or more too, read against the leading opponent (the
        best other total), as the expert plays there (:class:`~zar.ai.farkle.ExpertPlayer`)."""
        seats = len(state.totals)
        if seats < 2 or (seats > 2 and not leader):
            return None
        from zar.ai.farkle import WinStrategy

        return WinStrategy.load(state.settings.target)  # built once, whoever asks first


def decision(state: State) -> Decision | None:
    """What the seat to play decides now; "throw" when it only has to throw, None at the end."""
    if state.is_over:
        return None
    match state:
        case YamsState():
            if state.throws == 0:
                return "throw"
            return "keep" if state.throws_left else "box"
        case FarkleState():
            if state.phase is Phase.SET_ASIDE:
                return "set_aside"
            return "bank_or_throw" if state.turn_points else "throw"
        case _:
            assert_never(state)


def _decimal(x: float, lang: Language, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals, a comma in Turkish and French."""
    written = f"{x:,.{digits}f}"
    if lang == "en":
        return written
    return written.replace(",", " ").replace(".", ",")


def _faces(dice: tuple[int, ...]) -> str:
    return " ".join(str(face) for face in dice)


# Yams.


def _keep(dice: tuple[int, ...], kept: tuple[int, ...], expected: float) -> Option:
    from zar.ai.yams import _positions  # loaded with the strategy that valued the keep

    return {
        "kind": "keep",
        "keep": list(_positions(dice, kept)),
        "faces": list(kept),
        "expected": expected,
    }


def _box(box: Box, points: int, expected: float) -> Option:
    return {"kind": "box", "box": box.name, "points": points, "expected": expected}


def _yams_values(
    strategy: Strategy, state: YamsState
) -> tuple[dict[tuple[int, ...], float], dict[Box, float]]:
    """The expected final score of each keep (all five dice excepted: that is writing now)
    and of each box, for the throw on the table."""
    boxes = strategy.box_values(state.card, state.dice)
    keeps: dict[tuple[int, ...], float] = {}
    if state.throws_left:
        keeps = strategy.keep_values(state.card, state.dice, state.throws_left)
        del keeps[tuple(sorted(state.dice))]
    return keeps, boxes


def yams_options(strategy: Strategy, state: YamsState, *, chances: bool = False) -> list[Option]:
    """The best options after a throw, best first: the best keep (while throws are left),
    the best box, then the best of the rest; each with the expected final score, and with
    ``chances`` at a table of two its chance of winning (``win``; once the laws of the
    last rounds are at hand, :func:`zar.ai.yams_win.laws_at_hand`)."""
    if not state.dice or state.is_over:
        return []
    keeps, boxes = _yams_values(strategy, state)
    options = state.options
    # Ties as the optimal player breaks them: more dice kept, higher faces; the first box.
    by_keep = sorted(keeps, key=lambda k: (keeps[k], len(k), k), reverse=True)
    by_box = sorted(boxes, key=lambda b: (boxes[b], -b.value), reverse=True)
    ranked = [
        *(_box(b, options[b], boxes[b]) for b in by_box),
        *(_keep(state.dice, k, keeps[k]) for k in by_keep),
    ]
    chosen = [ranked[0]] + ([_keep(state.dice, by_keep[0], keeps[by_keep[0]])] if keeps else [])
    for option in sorted(ranked, key=lambda o: -o["expected"]):
        if len(chosen) >= TOP:
            break
        if option not in chosen:
            chosen.append(option)
    # Stable: at equal values a box comes before a keep, as writing keeps all five dice.
    chosen = sorted(chosen, key=lambda o: -o["expected"])
    if chances and len(state.cards) == 2:
        from zar.ai.yams_win import laws_at_hand  # numba, with the strategy

        if laws_at_hand(strategy):  # else ready for a later hint: a request does not wait
            _add_chances(strategy, state, chosen)
    return chosen


def _add_chances(strategy: Strategy, state: YamsState, options: list[Option]) -> None:
    """Each option's chance of winning against the other card (:mod:`zar.ai.yams_win`)."""
    chances = _option_chances(strategy, state)
    for option in options:
        option["win"] = chances[_option_key(option)]


def _option_chances(strategy: Strategy, state: YamsState) -> dict[str | tuple[int, ...], float]:
    """Every option after the throw (a box by its name, a keep by its faces) with its chance
    of winning against the other card, as the coach shows it
    (:func:`zar.ai.yams_win.shown_chances`)."""
    from zar.ai.yams_win import shown_chances  # numba, with the strategy

    turn = shown_chances(strategy, state, 1 - state.seat)
    boxes = turn.boxes(state.dice, state.options)
    chances: dict[str | tuple[int, ...], float] = {box.name: w for box, w in boxes.items()}
    if state.throws_left:
        chances.update(turn.keeps(state.dice, state.throws_left).items())
    return chances


def _option_key(option: Option) -> str | tuple[int, ...]:
    """A Yams option's box name, or the faces it keeps."""
    return str(option["box"]) if option["kind"] == "box" else tuple(option["faces"])


def _yams_text(options: list[Option], lang: Language) -> str:
    said = _yams_advice(options, lang)
    if options[0].get("win") is None:
        return said
    return f"{said}; {text(lang, 'coach-win', chance=percent(options[0]['win'], lang))}"


def _yams_advice(options: list[Option], lang: Language) -> str:
    best = options[0]
    expected = _decimal(best["expected"], lang)
    if best["kind"] == "box":
        name = box_name(Box[best["box"]], lang)
        return text(lang, "advice-box", box=name, points=best["points"], expected=expected)
    if not best["faces"]:
        return text(lang, "advice-throw-all", expected=expected)
    return text(lang, "advice-keep", dice=_faces(tuple(best["faces"])), expected=expected)


# 10 000.


@cache
def _throws(n: int) -> tuple[tuple[float, tuple[tuple[int, int], ...]], ...]:
    """Each distinct set of moves a scoring throw of ``n`` dice allows, with its chance:
    (points set aside, dice left to throw after, six after hot dice)."""
    chance: dict[tuple[tuple[int, int], ...], float] = {}
    for faces, p in outcomes(n):
        options = farkle.selections(faces).items()
        moves = tuple(sorted({(points, n - len(k) or farkle.DICE) for k, points in options}))
        if moves:
            chance[moves] = chance.get(moves, 0.0) + float(p)
    return tuple((p, moves) for moves, p in chance.items())


def throw_value(n: int, lost: float, value: Callable[[int, int], float]) -> float:
    """The value of throwing ``n`` dice: ``lost`` when the throw scores nothing, else the
    best ``value(points set aside, dice left)`` of its set-asides, weighed by chance."""
    seen: dict[tuple[int, int], float] = {}

    def worth(move: tuple[int, int]) -> float:
        if move not in seen:
            seen[move] = value(*move)
        return seen[move]

    total = float(farkle.farkle_probability(n)) * lost
    for p, moves in _throws(n):
        total += p * max(worth(move) for move in moves)
    return total


@dataclass(frozen=True, slots=True)
class _Turn:
    """The values of the choices of a 10 000 turn: in points, and in chance of winning when
    ``win`` is given (against the leading opponent at a table of three or more)."""

    state: FarkleState
    turn: TurnStrategy
    win: WinStrategy | None

    @property
    def scores(self) -> tuple[int, int]:
        """The seat's banked total, and the best of the others' (the other's, when two play)."""
        seat, totals = self.state.seat, self.state.totals
        return totals[seat], max(total for s, total in enumerate(totals) if s != seat)

    def bank(self) -> tuple[float, float | None]:
        t = self.state.turn_points
        if self.win is None:
            return float(t), None
        own, other = self.scores
        if other >= self.state.settings.target:  # the last turn: pass the leader or lose
            return float(t), 1.0 if own + t > other else 0.5 if own + t == other else 0.0
        return float(t), 1.0 - self.win.win_chance(other, own + t)

    def throw(self) -> tuple[float, float | None]:
        t, n = self.state.turn_points, self.state.dice_in_play
        expected = throw_value(n, 0.0, lambda p, m: self.turn.value(t + p, m))
        if self.win is None:
            return expected, None
        own, other = self.scores
        win = self.win
        lost = 0.0 if other >= self.state.settings.target else 1.0 - win.win_chance(other, own)
        return expected, throw_value(n, lost, lambda p, m: win.turn_value(own, other, t + p, m))

    def selections(
        self,
    ) -> dict[tuple[int, ...], tuple[int, float, float | None]]:
        """Each legal set-aside of the throw: its points, expected points, chance of winning."""
        t, faces = self.state.turn_points, self.state.throw
        points = farkle.selections(faces)
        expected = self.turn.selection_values(t, faces)
        win = None
        if self.win is not None:
            win = self.win.selection_values(*self.scores, t, faces)
        return {k: (points[k], expected[k], None if win is None else win[k]) for k in points}


def _tray_positions(state: FarkleState, chosen: tuple[int, ...]) -> list[int]:
    """The lowest tray positions in play showing the chosen faces."""
    free = [p for p in range(farkle.DICE) if not state.aside[p] and state.tray[p] is not None]
    positions: list[int] = []
    for face in chosen:
        positions.append(next(p for p in free if state.tray[p] == face and p not in positions))
    return sorted(positions)


def _ranked_selections(values: _Turn) -> list[tuple[tuple[int, ...], Option]]:
    """Every set-aside, best first, ties broken as the optimal players do: more points, then
    more dice left."""
    state = values.state
    rows = values.selections()
    n = state.dice_in_play

    def key(k: tuple[int, ...]) -> tuple[float, int, int, tuple[int, ...]]:
        points, expected, win = rows[k]
        return (expected if win is None else win, points, n - len(k) or farkle.DICE, k)

    return [
        (
            k,
            {
                "kind": "set_aside",
                "positions": _tray_positions(state, k),
                "points": rows[k][0],
                "expected": rows[k][1],
                "win": rows[k][2],
            },
        )
        for k in sorted(rows, key=key, reverse=True)
    ]


def _bank_or_throw(values: _Turn) -> list[Option]:
    """Banking and throwing again, the better first (banking when they are equal)."""
    bank_expected, bank_win = values.bank()
    throw_expected, throw_win = values.throw()
    risk = float(farkle.farkle_probability(values.state.dice_in_play))
    bank = {"kind": "bank", "expected": bank_expected, "win": bank_win}
    throw = {"kind": "throw", "expected": throw_expected, "win": throw_win, "risk": risk}
    if bank_win is not None and throw_win is not None:
        better = throw_win > bank_win
    else:
        better = throw_expected > bank_expected
    return [throw, bank] if better else [bank, throw]


def farkle_options(
    state: FarkleState, turn: TurnStrategy, win: WinStrategy | None = None
) -> list[Option]:
    """The options of the seat to play, best first: the top set-asides after a scoring
    throw; banking and throwing again after a set-aside; at a turn's start, the throw."""
    values = _Turn(state, turn, win)
    match decision(state):
        case "set_aside":
            return [option for _, option in _ranked_selections(values)[:TOP]]
        case "bank_or_throw":
            return _bank_or_throw(values)
        case "throw":
            expected, chance = values.throw()
            risk = float(farkle.farkle_probability(state.dice_in_play))
            return [{"kind": "throw", "expected": expected, "win": chance, "risk": risk}]
    return []


def _farkle_text(state: FarkleState, options: list[Option], lang: Language) -> str:
    best = options[0]
    two = best["win"] is not None
    n = state.dice_in_play
    risk = percent(next((o["risk"] for o in options if o["kind"] == "throw"), 0.0), lang)
    win = percent(best["win"], lang) if two else ""
    expected = _decimal(best["expected"], lang, 0)
    match best["kind"]:
        case "set_aside":
            dice = _faces(tuple(sorted(state.tray[p] or 0 for p in best["positions"])))
            key = "advice-set-aside-win" if two else "advice-set-aside"
            return text(lang, key, dice=dice, points=number(best["points"], lang),
                        expected=expected, win=win)  # fmt: skip
        case "bank" | "throw" if len(options) == 2:
            other = options[1]
            key = f"advice-{'bank' if best['kind'] == 'bank' else 'throw-again'}"
            if two:
                return text(lang, f"{key}-win", dice=n, win=win,
                            other=percent(other["win"], lang), risk=risk)  # fmt: skip
            return text(lang, key, dice=n, expected=expected,
                        other=_decimal(other["expected"], lang, 0), risk=risk)  # fmt: skip
        case _:
            key = "advice-throw-turn-win" if two else "advice-throw-turn"
            return text(lang, key, dice=n, expected=expected, win=win, risk=risk)


# The hint.


def hint(record: Record, strategies: Strategies, lang: Language) -> dict[str, Any]:
    """The coach's advice to the seat to play; IllegalAction ``no-hint`` when that seat has
    the coach off (a computer's seat always has), ``game-abandoned`` after an abandon."""
    if record.abandoned:
        raise IllegalAction("the game was abandoned", reason="game-abandoned")
    state = record.state
    seat = state.seat
    if state.is_over or seat not in record.hints or record.seats[seat].computer:
        raise IllegalAction("the coach is off for this seat", reason="no-hint")
    chosen = decision(state)
    options: list[Option] = []
    match state:
        case YamsState():
            if chosen in ("keep", "box"):
                options = yams_options(strategies.yams(), state, chances=True)
                sentence = _yams_text(options, lang)
            else:
                sentence = text(lang, "advice-throw")
        case FarkleState():
            options = farkle_options(state, strategies.turn(), strategies.win(state))
            sentence = _farkle_text(state, options, lang)
        case _:
            assert_never(state)
    return {
        "seat": seat,
        "game": record.kind,
        "decision": chosen,
        "options": options,
        "text": sentence,
    }


# Why a box scores what it does.


def _box_reason(box: Box, points: int, dice: tuple[int, ...], joker: bool, lang: Language) -> str:
    """The main part of a box's note: the faces it counts, or why it scores nothing."""
    c = Counter(dice)
    most = max(c.values())
    if box.face is not None:
        if not c[box.face]:
            return text(lang, "note-upper-none", face=box.face)
        return text(lang, "note-upper", count=c[box.face], face=box.face, points=points)
    if joker and box in (Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT):
        return text(lang, "note-joker", box=box_name(box, lang), points=points)
    match box:
        case Box.THREE_OF_A_KIND | Box.FOUR_OF_A_KIND:
            need = 3 if box is Box.THREE_OF_A_KIND else 4
            if most >= need:
                return text(lang, "note-sum", points=points)
            return text(lang, "note-no-kind", n=need)
        case Box.CHANCE:
            return text(lang, "note-sum", points=points)
        case Box.FULL_HOUSE:
            if points:
                return text(lang, "note-full")
            return text(lang, "note-penta-not-full" if most == 5 else "note-no-full")
        case Box.SMALL_STRAIGHT | Box.LARGE_STRAIGHT:
            run = 4 if box is Box.SMALL_STRAIGHT else 5
            return text(lang, "note-run" if points else "note-no-run", n=run, points=points)
        case Box.PENTA:
            return text(lang, "note-penta" if points else "note-no-penta")
    raise AssertionError(box)  # the upper boxes returned above


def box_notes(state: YamsState, lang: Language) -> dict[str, str]:
    """For each box the dice may be written in now, why it scores what it does: the faces
    counted, the Joker, the +100 Penta bonus, how far the upper bonus is."""
    options = state.options
    if not options:
        return {}
    card, dice = state.card, state.dice
    penta = yams.is_penta(dice)
    # The Joker (docs/rules.md): a Penta after a Penta box of 50 goes in its upper box if open,
    # else in any open lower box as a joker, else scores 0 in an upper box.
    joker = penta and card.penta == PENTA_POINTS and card.rules is yams.Rules.STANDARD
    face_box = Box.upper(dice[0])
    forced = joker and card[face_box] is None
    notes = {}
    for box, points in options.items():
        if joker and not forced and box.face is not None:
            parts = [text(lang, "note-joker-zero")]
        else:
            parts = [_box_reason(box, points, dice, joker and not forced, lang)]
        if forced:
            parts.append(text(lang, "note-joker-forced", box=box_name(face_box, lang)))
        if box.face is not None and card.upper_total < UPPER_BONUS_AT:
            upper = card.upper_total + points
            if upper >= UPPER_BONUS_AT:
                parts.append(text(lang, "note-upper-bonus"))
            else:
                parts.append(text(lang, "note-upper-to-go", total=upper,
                                  left=UPPER_BONUS_AT - upper))  # fmt: skip
        if card.earns_penta_bonus(dice):
            parts.append(text(lang, "note-penta-bonus"))
        sentence = "; ".join(parts)
        notes[box.name] = sentence[:1].upper() + sentence[1:]
    return notes
