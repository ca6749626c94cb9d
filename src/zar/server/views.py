"""What the page is sent: a game's state as JSON, everything it shows already computed.

The page never scores dice itself: each 10 000 throw comes with the points of every
selection the player may tap, and the reason a die cannot be taken, from the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any, NamedTuple

from zar import farkle, yams
from zar.ai.judging import decision
from zar.farkle import FarkleState, Phase
from zar.i18n import Language, explain, text
from zar.i18n.sentences import box_notes
from zar.names import seat_names, shown_names
from zar.record import HOUSE_RULES, Record
from zar.seating import Seating
from zar.server.presence import Presence
from zar.server.rights import to_act, to_hint
from zar.table import IllegalAction
from zar.yams import YamsState

__all__ = ["Table", "game_view", "listed", "summary", "table_view", "view"]


def _events(record: Record, lang: Language) -> tuple[list[dict[str, Any]], list[str]]:
    """The events of the last action, and the seeds' messages they call for."""
    events: list[dict[str, Any]] = []
    messages: list[str] = []
    for event in record.state.events:
        match event:
            case farkle.TurnLost():
                events.append({"type": "turn_lost", "seat": event.seat, "dice": list(event.dice),
                               "points": event.points,
                               "after_hot_dice": event.after_hot_dice})  # fmt: skip
                if event.after_hot_dice:  # the six came back hot and were thrown at once
                    messages.append(text(lang, "hot-dice"))
                messages.append(text(lang, "turn-lost"))
            case farkle.HotDice():
                events.append({"type": "hot_dice", "seat": event.seat})
                messages.append(text(lang, "hot-dice"))
            case farkle.Banked():
                events.append({"type": "banked", "seat": event.seat, "points": event.points})
            case farkle.LastRound():
                events.append({"type": "last_round", "seat": event.seat})
                messages.append(text(lang, "last-round"))
            case farkle.ThreeLost():
                events.append({"type": "three_lost", "seat": event.seat, "points": event.points})
                name = seat_names(record.seats, lang)[event.seat]
                messages.append(text(lang, "three-lost", name=name, points=event.points))
            case yams.Filled():
                events.append({"type": "filled", "seat": event.seat, "box": event.box.name,
                               "points": event.points, "penta_bonus": event.penta_bonus,
                               "upper_bonus": event.upper_bonus})  # fmt: skip
            case farkle.GameOver() | yams.GameOver():
                events.append({"type": "game_over", "winners": list(event.winners)})
    return events, messages


def _card(card: yams.Scorecard) -> dict[str, Any]:
    return {
        "boxes": {box.name: card[box] for box in card.rules.boxes},
        "upper_total": card.upper_total,
        "upper_bonus": card.upper_bonus,
        "penta_bonus": card.penta_bonus,
        "total": card.total,
    }


def _kept(state: YamsState, record: Record) -> list[int]:
    """The positions the round's last throw kept (so that a screen marks the computer's
    kept dice, or another screen's, as a person's own)."""
    move = record.last_move
    return list(move.keep) if state.throws and isinstance(move, yams.Throw) else []


def _yams(state: YamsState, record: Record, lang: Language) -> dict[str, Any]:
    return {
        "round": state.round,
        "rounds": state.rounds,
        "throws": state.throws,
        "throws_left": state.throws_left,
        "kept": _kept(state, record),
        "dice": list(state.dice),
        "options": {box.name: points for box, points in state.options.items()},
        "notes": box_notes(state, lang),
        "must_sacrifice": state.must_sacrifice,
        "sacrifice_message": text(lang, "must-sacrifice") if state.must_sacrifice else None,
        "cards": [_card(card) for card in state.cards],
        "upper_bonus": state.settings.rules.upper_bonus,
        "penta_bonus_counts": state.settings.rules.penta_counts,
        "totals": [card.total for card in state.cards],
        "autofill": record.autofill,
    }


def _selections(state: FarkleState, lang: Language) -> tuple[dict[str, Any], dict[str, str]]:
    """Every subset of the throw's dice (by tray positions, as a bit mask): its points or
    why it is refused; and for each die that no selection can take, why."""
    in_play = [p for p in range(farkle.DICE) if not state.aside[p]]
    table: dict[str, Any] = {}
    takeable: set[int] = set()
    for size in range(1, len(in_play) + 1):
        for chosen in combinations(in_play, size):
            mask = sum(1 << p for p in chosen)
            try:
                points = farkle.score([state.tray[p] or 0 for p in chosen], state.settings.rules)
            except IllegalAction as refusal:
                table[str(mask)] = {"refused": explain(refusal, lang)}
            else:
                table[str(mask)] = {"points": points}
                takeable.update(chosen)
    refusals = {str(p): table[str(1 << p)]["refused"] for p in in_play if p not in takeable}
    return table, refusals


def _farkle(state: FarkleState, lang: Language) -> dict[str, Any]:
    selections, refusals = _selections(state, lang) if state.phase is Phase.SET_ASIDE else ({}, {})
    rules = state.settings.rules
    risk = (
        float(farkle.farkle_probability(state.dice_in_play, rules)) if not state.is_over else None
    )
    return {
        "target": state.settings.target,
        "totals": list(state.totals),
        "phase": state.phase.value,
        "turn_points": state.turn_points,
        "tray": [
            {"face": face, "aside": aside}
            for face, aside in zip(state.tray, state.aside, strict=True)
        ],
        "groups": [{"dice": list(faces), "points": points} for faces, points in state.groups],
        "dice_in_play": state.dice_in_play,
        "hot_dice": state.hot_dice,
        "risk": risk,
        "can_bank": state.can_bank,
        # The house rules: the fewest points a bank takes now, what the turn still needs for
        # it, each seat's lost turns in a row (of three, under a penalty), the last round.
        "bank_floor": state.bank_floor,
        "bank_needs": state.bank_needs,
        "lost_in_row": list(state.lost_in_row),
        "three_lost": rules.three_lost,
        "last_round": rules.last_round,
        "last_round_by": state.last_round_by,
        "selections": selections,
        "refusals": refusals,
        "turns": list(state.turns),
    }


class Table(NamedTuple):
    """Who sits where, as one device sees it: the seating, the device, who is here."""

    seating: Seating
    device: str | None
    presence: Mapping[str, Presence]


def _seats(record: Record, table: Table) -> list[dict[str, Any]]:
    """Each seat as this device sees it: played here (``you``), on the host's device
    (``host``), on a guest's own (``guest``), or the computer's; the computer playing it for
    an absent person meanwhile (``standin``); whether its device is here, or since when away."""
    seating, device = table.seating, table.device
    seats: list[dict[str, Any]] = []
    for i, seat in enumerate(record.seats):
        holder = seating.holders[i] if i < len(seating.holders) else None
        if seat.computer or holder is None:
            seats.append({"holder": "computer", "standin": None, "here": True, "away_since": None})
            continue
        who = "you" if holder == device else "host" if holder == seating.host else "guest"
        presence = table.presence.get(holder)
        here = holder == device or (presence is not None and presence.here)
        seats.append({
            "holder": who,
            "standin": seating.standins[i],
            "here": here,
            "away_since": None if here or presence is None else presence.away_since,
        })  # fmt: skip
    return seats


def view(
    game_id: str,
    record: Record,
    lang: Language,
    *,
    replay: bool = False,
    table: Table | None = None,
) -> dict[str, Any]:
    """The whole state of a game as the page shows it, in ``lang``; ``replay``: as it stood
    at its version, shown read-only (no hint, no undo); ``table``: who sits where, as the
    device asking sees it (what it may do; each seat's holder and presence)."""
    shown = game_view(game_id, record, lang, replay=replay)
    if table is not None:
        can_hint, can_undo = shown["can_hint"], shown["can_undo"]
        shown.update(table_view(record, table, can_hint=can_hint, can_undo=can_undo))
    return shown


def game_view(
    game_id: str, record: Record, lang: Language, *, replay: bool = False
) -> dict[str, Any]:
    """What the game shows every device, in ``lang``: :func:`view` without a table. The
    same for every device following the game, it may be made once for all of them."""
    state = record.state
    events, messages = _events(record, lang)
    person = not record.seats[state.seat].computer
    can_hint = (
        not replay
        and not record.abandoned
        and person
        and state.seat in record.hints
        and decision(state) in ("keep", "box", "set_aside", "bank_or_throw")
    )
    result: dict[str, Any] = {
        "id": game_id,
        "game": record.kind,
        "version": record.version,
        "lang": lang,
        "over": state.is_over,
        "abandoned": record.abandoned,
        "seat": state.seat,
        "rules": record.rules or HOUSE_RULES[record.kind][0],
        # The computer by its name in ``lang`` ("IA", "Computer"), whatever a game stored.
        "players": [
            {"name": name, "computer": s.computer, "level": s.level}
            for s, name in zip(record.seats, seat_names(record.seats, lang), strict=True)
        ],
        "winners": list(state.winners),
        "events": events,
        "messages": messages,
        "hints": list(record.hints),
        "can_hint": can_hint,
        "can_undo": not replay and record.can_undo,
        "replay": replay,
        "at": record.version if replay else None,
    }
    match state:
        case YamsState():
            result.update(_yams(state, record, lang))
        case FarkleState():
            result.update(_farkle(state, lang))
    return result


def table_view(record: Record, table: Table, *, can_hint: bool, can_undo: bool) -> dict[str, Any]:
    """What the game shows one device of its table beside :func:`game_view`: what it may do
    (the coach and undo if the game offers them, ``can_hint`` and ``can_undo``, and the
    device holds the seat), whose seats are its, who is here."""
    seating, device = table.seating, table.device
    return {
        # The coach and undo are the seat's holder's: shown only on its device.
        "can_hint": can_hint and to_hint(seating, device, record) is None,
        "can_undo": can_undo and to_act(seating, device, record, "undo") is None,
        "you": {"role": seating.role(device), "seats": list(seating.seats_of(device))},
        "seats": _seats(record, table),
        "seating_rev": seating.rev,
    }


def summary(record: Record) -> dict[str, Any]:
    """What the list of games keeps of a game: who plays (the names as stored, and which
    seat is the computer's), the totals, whose turn, the winners; and whether the game was
    abandoned (then it is no longer listed). :func:`listed` shows it in a language."""
    state = record.state
    totals = (
        [card.total for card in state.cards] if isinstance(state, YamsState) else list(state.totals)
    )
    return {
        "players": [s.name for s in record.seats],
        "computer": [s.computer for s in record.seats],
        "totals": totals,
        "seat": state.seat,
        "winners": list(state.winners),
        "round": state.round if isinstance(state, YamsState) else None,
        "rounds": state.rounds if isinstance(state, YamsState) else None,
        "target": record.target,
        "rules": record.rules,
        "abandoned": record.abandoned,
    }


def listed(kept: Mapping[str, Any], lang: Language) -> dict[str, Any]:
    """A game's :func:`summary` as the list of games shows it in ``lang``: the computer by
    its name in ``lang`` (``IA``, ``Computer``), whatever the game stored."""
    names = kept.get("players", [])
    computer = kept.get("computer") or [False] * len(names)
    return {**kept, "players": shown_names(names, computer, lang), "computer": computer}
