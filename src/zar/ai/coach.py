"""The coach: what the perfect player would do now and why.

The options and their values are the judging's (:mod:`zar.ai.judging`, which the review
after a game reads too); the sentence is said in the player's language
(:func:`zar.i18n.sentences.advice`). :class:`~zar.ai.judging.Strategies`, the strategies
the coach reads, is handed on from here for the app that holds them.
"""

from __future__ import annotations

from typing import Any, assert_never

from zar.ai.judging import Option, Strategies, decision, farkle_options, in_duel, yams_options
from zar.farkle import FarkleState
from zar.i18n import Language, text
from zar.i18n.sentences import advice
from zar.record import Record
from zar.table import IllegalAction
from zar.yams import YamsState

__all__ = ["Strategies", "hint"]


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
    said = []
    match state:
        case YamsState():
            if chosen in ("keep", "box"):
                strategy = strategies.yams(state.settings.rules)
                options = yams_options(strategy, state, chances=True)
                if in_duel(state) and "win" not in options[0]:  # seconds: said, not waited
                    said.append(text(lang, "advice-chances-pending"))
        case FarkleState():
            options = farkle_options(state, strategies.turn(state), strategies.win(state))
        case _:
            assert_never(state)
    return {
        "seat": seat,
        "game": record.kind,
        "decision": chosen,
        "options": options,
        "text": " ".join([advice(state, options, lang), *said]),
    }
