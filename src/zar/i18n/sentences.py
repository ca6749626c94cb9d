"""The coach's sentences, made of its words (:mod:`zar.i18n.coach`): the hint's advice, the
review's verdict, and why a Yams box scores what it does.

They read the options as the judging gives them (plain JSON values, best first: see
:mod:`zar.ai.judging`) and the engine's states; nothing here judges a decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal, assert_never

from zar import yams
from zar.farkle import FarkleState
from zar.i18n import (
    Language,
    box_name,
    box_names,
    capitalized,
    decimal,
    number,
    percent,
    text,
)
from zar.yams import Box, YamsState, YatzyBox
from zar.yams.scorecard import PENTA_POINTS, UPPER_BONUS_AT

__all__ = ["advice", "box_notes", "figure", "verdict"]

Option = Mapping[str, Any]


def _faces(dice: Sequence[int]) -> str:
    return " ".join(str(face) for face in dice)


# The hint.


def advice(state: YamsState | FarkleState, options: Sequence[Option], lang: Language) -> str:
    """The coach's advice in a sentence, from the options of the seat to play, best first
    (none: a Yams seat that has only to throw)."""
    match state:
        case YamsState():
            return _yams_text(options, lang) if options else text(lang, "advice-throw")
        case FarkleState():
            return _farkle_text(state, options, lang)
        case _:
            assert_never(state)


def _yams_text(options: Sequence[Option], lang: Language) -> str:
    said = _yams_advice(options, lang)
    if options[0].get("win") is None:
        return said
    return f"{said}; {text(lang, 'coach-win', chance=percent(options[0]['win'], lang))}"


def _yams_advice(options: Sequence[Option], lang: Language) -> str:
    best = options[0]
    expected = decimal(best["expected"], lang)
    if best["kind"] == "box":
        name = box_names(lang)[best["box"]]  # a box of either card, by its name
        return text(lang, "advice-box", box=name, points=best["points"], expected=expected)
    if not best["faces"]:
        return text(lang, "advice-throw-all", expected=expected)
    return text(lang, "advice-keep", dice=_faces(best["faces"]), expected=expected)


def _farkle_text(state: FarkleState, options: Sequence[Option], lang: Language) -> str:
    best = options[0]
    two = best["win"] is not None
    n = state.dice_in_play
    risk = percent(next((o["risk"] for o in options if o["kind"] == "throw"), 0.0), lang)
    win = percent(best["win"], lang) if two else ""
    expected = decimal(best["expected"], lang, 0)
    match best["kind"]:
        case "set_aside":
            dice = _faces(sorted(state.tray[p] or 0 for p in best["positions"]))
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
                        other=decimal(other["expected"], lang, 0), risk=risk)  # fmt: skip
        case _:
            key = "advice-throw-turn-win" if two else "advice-throw-turn"
            return text(lang, key, dice=n, expected=expected, win=win, risk=risk)


# The review's verdict.


def verdict(
    level: str, unit: Literal["win", "points"], total: float, decisions: int, lang: Language
) -> str:
    """A person's verdict: ``level`` is ``none`` (no decision), ``perfect`` (none cost
    anything) or a grade (:data:`zar.ai.review.GRADES`), said with the total cost of the
    ``decisions`` and its mean, in ``unit``."""
    if level in ("none", "perfect"):
        return text(lang, f"verdict-{level}")
    mean = total / decisions
    figures = {"total": figure(total, unit, lang), "mean": figure(mean, unit, lang)}
    return text(lang, f"verdict-{unit}", level=text(lang, f"verdict-{level}"),
                decisions=decisions, **figures)  # fmt: skip


def figure(cost: float, unit: str, lang: Language) -> str:
    """A cost with one decimal, as every figure of the review: of the points, or of the
    percent; a cost that one decimal would write as nothing is ``< 0,1``.

    >>> figure(12.34, "points", "tr"), figure(0.0004, "win", "tr"), figure(0.02, "points", "en")
    ('12,3', '< %0,1', '< 0.1')
    """
    least = 0.001 if unit == "win" else 0.1
    if 0 < cost < least / 2:
        cost, below = least, "< "
    else:
        below = ""
    return below + (percent(cost, lang) if unit == "win" else decimal(cost, lang))


# Why a box scores what it does.


def _box_reason(box: Box, points: int, dice: tuple[int, ...], joker: bool, lang: Language) -> str:
    """The main part of a box's note: the faces it counts, or why it scores nothing."""
    c = Counter(dice)
    most = max(c.values())
    if box.face is not None:
        if not c[box.face]:
            return text(lang, "note-upper-none", face=box.face)
        key = "note-upper-one" if points == 1 else "note-upper"
        return text(lang, key, count=c[box.face], face=box.face, points=points)
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


def _yatzy_reason(box: YatzyBox, points: int, dice: tuple[int, ...], lang: Language) -> str:
    """The main part of a Scandinavian Yatzy box's note (its lower boxes; the upper ones
    are ours)."""
    most = max(Counter(dice).values())
    match box:
        case YatzyBox.ONE_PAIR:
            return text(lang, "note-pair" if points else "note-no-pair", points=points)
        case YatzyBox.TWO_PAIRS:
            return text(lang, "note-two-pairs" if points else "note-no-two-pairs", points=points)
        case YatzyBox.THREE_OF_A_KIND | YatzyBox.FOUR_OF_A_KIND:
            need = 3 if box is YatzyBox.THREE_OF_A_KIND else 4
            if points:
                return text(lang, "note-kind-dice", n=need, points=points)
            return text(lang, "note-no-kind", n=need)
        case YatzyBox.SMALL_STRAIGHT | YatzyBox.LARGE_STRAIGHT:
            faces = "1-2-3-4-5" if box is YatzyBox.SMALL_STRAIGHT else "2-3-4-5-6"
            return text(lang, "note-faces" if points else "note-no-faces", faces=faces,
                        points=points)  # fmt: skip
        case YatzyBox.FULL_HOUSE:
            if points:
                return text(lang, "note-full-sum", points=points)
            return text(lang, "note-penta-not-full" if most == 5 else "note-no-full")
        case YatzyBox.CHANCE:
            return text(lang, "note-sum", points=points)
        case YatzyBox.YATZY:
            return text(lang, "note-penta" if points else "note-no-penta")
    raise AssertionError(box)  # the upper boxes are ours


def _joker(card: yams.Scorecard, dice: tuple[int, ...]) -> tuple[bool, bool]:
    """Whether the Joker plays this throw (docs/rules.md), and whether it forces the throw
    into its upper box. Ours: a Penta after a Penta box of 50 goes in its upper box if
    open, else in any open lower box as a joker, else scores 0 in an upper box; Hasbro's
    (official) the same after a Penta box of 0 too; the free Joker goes in any open box, a
    joker in a lower box once its upper box is filled."""
    rules = card.rules
    if not yams.is_penta(dice) or card.penta is None or not rules.penta_counts:
        return False, False
    face_box = Box.upper(dice[0])
    if rules is yams.Rules.FREE_JOKER:
        return card[face_box] is not None, False
    if card.penta != PENTA_POINTS and rules is not yams.Rules.OFFICIAL:
        return False, False
    return True, card[face_box] is None


# Between the parts of a box's note: French sets a narrow no-break space before its semicolon.
_SEMICOLON: Mapping[Language, str] = {"tr": "; ", "fr": "\u202f; ", "en": "; "}


def box_notes(state: YamsState, lang: Language) -> dict[str, str]:
    """For each box the dice may be written in now, why it scores what it does: the faces
    counted, the Joker, the +100 Penta bonus, how far the upper bonus is."""
    options = state.options
    if not options:
        return {}
    card, dice = state.card, state.dice
    joker, forced = _joker(card, dice)
    free = card.rules is yams.Rules.FREE_JOKER
    notes = {}
    for box, points in options.items():
        if joker and not forced and not free and box.face is not None:
            parts = [text(lang, "note-joker-zero")]
        elif isinstance(box, YatzyBox) and box.face is None:
            parts = [_yatzy_reason(box, points, dice, lang)]
        else:
            parts = [_box_reason(Box(box.slot), points, dice, joker and not forced, lang)]
        if forced:
            parts.append(text(lang, "note-joker-forced", box=box_name(Box.upper(dice[0]), lang)))
        if box.face is not None and card.upper_total < UPPER_BONUS_AT:
            upper = card.upper_total + points
            if upper >= UPPER_BONUS_AT:
                parts.append(text(lang, "note-upper-bonus", bonus=card.rules.upper_bonus))
            else:
                parts.append(text(lang, "note-upper-to-go", total=upper,
                                  left=UPPER_BONUS_AT - upper))  # fmt: skip
        if card.earns_penta_bonus(dice):
            parts.append(text(lang, "note-penta-bonus"))
        notes[box.name] = capitalized(_SEMICOLON[lang].join(parts), lang)
    return notes
