"""The history of games: a game's log and totals turn by turn, statistics per player, exports.

Everything is read from records by replaying them through the engine. The statistics sum
each finished game's :func:`figures`, worked out by replaying it once when it ends and
kept with it (a store keeps them beside the log; they are worked out again from the log
whenever they are missing or of an older version).

>>> from zar.table import Seat
>>> record = Record.new("10000", (Seat("Ali"),), target=5_000)
>>> for action in (farkle.Throw(0, (1, 2, 3, 4, 6, 6)), farkle.SetAside(0, (0,)), farkle.Bank(0)):
...     record = record.append(action)
>>> progress(record, "en")
{'players': ['Ali'], 'turns': [[100]]}
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, assert_never

from zar import farkle, yams
from zar.i18n import Language
from zar.names import computer_name, seat_names
from zar.record import HOUSE_RULES, GameKind, Record, State, action_to_json
from zar.yams.scorecard import PENTA_BONUS

__all__ = [
    "FIGURES_VERSION",
    "accounted",
    "current",
    "figures",
    "game_csv",
    "game_export",
    "log_entries",
    "progress",
    "stats",
    "stats_csv",
    "totals",
]


def totals(state: State) -> list[int]:
    """Each seat's total now."""
    match state:
        case yams.YamsState():
            return [card.total for card in state.cards]
        case farkle.FarkleState():
            return list(state.totals)
        case _:
            assert_never(state)


def log_entries(record: Record, times: Sequence[str | None] | None = None) -> list[dict[str, Any]]:
    """Every entry of the log, undos and an abandon included, each marked when an undo
    cancelled it.

    ``version`` is the entry's place in the log, from 1; ``at`` its time, when known. An
    abandon names no seat.
    """
    undone = record.undone
    return [
        {
            "version": i + 1,
            **action_to_json(entry),
            "undone": i + 1 in undone,
            "at": times[i] if times is not None and i < len(times) else None,
        }
        for i, entry in enumerate(record.log)
    ]


def progress(record: Record, lang: Language) -> dict[str, Any]:
    """Each seat's total after each round (Yams) or each turn of the table (10 000), and at
    the end of the game when it ends within a turn of the table; the seats named as a table
    in ``lang`` shows them (:func:`zar.names.seat_names`)."""
    # Kept with the record's replay: none of the log's moves applied again.
    rows = [list(row) for row in record.rounds]
    state = record.state
    if state.is_over and (not rows or rows[-1] != totals(state)):
        rows.append(totals(state))
    return {"players": seat_names(record.seats, lang), "turns": rows}


# How a game's figures are worked out: one kept with an older number is worked out again.
# 2: each seat's luck account (zar.ai.luck.account), added once it is worked out.
# 3: whether each seat is the computer's, the statistics' key for it (its name is the one
# its game was started in: IA, Computer).
FIGURES_VERSION = 3

# What a seat keeps of its luck account (zar.ai.luck.account).
ACCOUNT_FIELDS = ("unit", "luck", "cost", "decisions")


def figures(
    record: Record, accounts: Sequence[Mapping[str, Any]] | None = None
) -> dict[str, Any] | None:
    """A finished game's part in the statistics, worked out once when it ends and kept with
    it: for each seat its name, whether it is the computer's, its total and whether it won;
    for Yams whether it earned the upper bonus, the Pentas it wrote and its Penta bonuses;
    for 10 000 its turns, the turns it lost and its hot dice. None for a game not over (an
    abandoned one is never over).

    With ``accounts`` (:func:`zar.ai.luck.account`, one a seat), each seat also keeps its
    ``unit``, ``luck``, ``cost`` and ``decisions``: too slow to work out while the game's
    last action is answered, the account is worked out after and the figures kept again.

    ``version`` is :data:`FIGURES_VERSION`: figures added later come with a new one, and
    older figures are worked out again.
    """
    state = record.state
    if not state.is_over:
        return None
    seats: list[dict[str, Any]] = [
        {"name": seat.name, "computer": seat.computer, "total": total, "win": i in state.winners}
        for i, (seat, total) in enumerate(zip(record.seats, totals(state), strict=True))
    ]
    match state:
        case yams.YamsState():
            for seat, card in zip(seats, state.cards, strict=True):
                seat |= {"upper_bonus": card.upper_bonus > 0, "pentas": 0,
                         "penta_bonuses": card.penta_bonus // PENTA_BONUS}  # fmt: skip
            for step in record.steps():
                if isinstance(step.move, yams.Fill) and isinstance(step.before, yams.YamsState):
                    seats[step.move.seat]["pentas"] += yams.is_penta(step.before.dice)
        case farkle.FarkleState():
            for seat, turns in zip(seats, state.turns, strict=True):
                seat |= {"turns": turns, "lost_turns": 0, "hot_dice": 0}
            for step in record.steps():
                for event in step.after.events:
                    if isinstance(event, farkle.TurnLost):
                        seats[event.seat]["lost_turns"] += 1
                    elif isinstance(event, farkle.HotDice):
                        seats[event.seat]["hot_dice"] += 1
        case _:
            assert_never(state)
    if accounts is not None:
        for seat, own in zip(seats, accounts, strict=True):
            seat |= {name: own[name] for name in ACCOUNT_FIELDS}
    found = {"version": FIGURES_VERSION, "game": record.kind, "seats": seats}
    # The house rules, named only when not the seeds' (as the record names them): figures
    # kept before house rules are the seeds' games' and stay current.
    return found if record.rules is None else {**found, "rules": record.rules}


def current(kept: Mapping[str, Any] | None) -> bool:
    """Whether figures kept with a game are of this version of Zar (else worked out again)."""
    return kept is not None and kept.get("version") == FIGURES_VERSION


def accounted(kept: Mapping[str, Any] | None) -> bool:
    """Whether figures kept with a game are current and hold its luck account."""
    return current(kept) and all("luck" in seat for seat in kept["seats"])  # type: ignore[index]


# The unit of each game's luck means: the strategy's value a two-seat 10 000 game counts in.
LUCK_UNITS: dict[GameKind, str] = {"yams": "points", "10000": "win"}


@dataclass
class _Player:
    """What one player did over the games: sums and counts, turned into means at the end."""

    totals: list[int] = field(default_factory=list)
    wins: int = 0
    upper_bonuses: int = 0
    pentas: int = 0
    penta_bonuses: int = 0
    lost_turns: int = 0
    hot_dice: int = 0
    turns: int = 0
    # Over the games with a luck account: each one's luck, cost and cost per decision.
    luck: list[float] = field(default_factory=list)
    cost: list[float] = field(default_factory=list)
    per_decision: list[float] = field(default_factory=list)


def stats(
    game: GameKind,
    games: Iterable[Mapping[str, Any] | None],
    lang: Language,
    rules: str | None = None,
) -> dict[str, Any]:
    """Each player's figures over the finished games of ``game`` played by the house rules
    ``rules`` (None: the seeds'; totals under other rules do not compare), from each game's
    :func:`figures` (given oldest first; None for a game not finished): games, wins (a
    shared win counts), mean and best total; for Yams the rate of the upper bonus, the
    Pentas written and the Penta bonuses; for 10 000 the turns lost, the hot dice and the
    mean points per turn.

    A person is a name as typed; the computer is one player, whatever each game named it
    (a Turkish game's ``IA``, an English one's ``Computer``), known by its seats' kind: a
    person called ``IA`` stays a person. Its row (``computer`` true) is named as a screen
    in ``lang`` names it beside the people listed (:func:`zar.names.computer_name`), and so
    are its ``totals`` and ``cost_per_decision``.

    The luck means (``mean_luck``, ``mean_cost``: per game, in ``unit``; None without any)
    cover only the games whose account is kept (``accounted`` of them in all,
    ``luck_games`` a player's); ``cost_per_decision`` gives, per name, each such game's
    cost per decision, oldest first. The unit is Yams points, and for 10 000 the chance of
    winning: a 10 000 game alone or of more than two seats, whose account is in points,
    stays out of the luck means."""
    players: dict[str | None, _Player] = {}  # the computer's under None
    stored: dict[str, None] = {}  # the names the computer's games gave it, oldest first
    covered = 0
    unit = LUCK_UNITS[game]
    for kept in games:
        if kept is None or kept["game"] != game or kept.get("rules") != rules:
            continue
        has_account = all(seat.get("unit") == unit for seat in kept["seats"])
        covered += has_account
        for seat in kept["seats"]:
            machine = seat.get("computer", False)
            if machine:
                stored.setdefault(seat["name"])
            player = players.setdefault(None if machine else seat["name"], _Player())
            player.totals.append(seat["total"])
            player.wins += seat["win"]
            player.upper_bonuses += seat.get("upper_bonus", False)
            player.pentas += seat.get("pentas", 0)
            player.penta_bonuses += seat.get("penta_bonuses", 0)
            player.lost_turns += seat.get("lost_turns", 0)
            player.hot_dice += seat.get("hot_dice", 0)
            player.turns += seat.get("turns", 0)
            if has_account:
                player.luck.append(seat["luck"])
                player.cost.append(seat["cost"])
                if seat["decisions"]:
                    player.per_decision.append(seat["cost"] / seat["decisions"])
    people = [name for name in players if name is not None]
    machine = computer_name(lang, people, list(stored))
    named = {machine if key is None else key: player for key, player in players.items()}
    rows = []
    for name, player in sorted(named.items(), key=lambda p: (-len(p[1].totals), p[0])):
        games_played = len(player.totals)
        row: dict[str, Any] = {
            "name": name,
            "computer": player is players.get(None),
            "games": games_played,
            "wins": player.wins,
            "mean_total": sum(player.totals) / games_played,
            "best_total": max(player.totals),
        }
        if game == "yams":
            row["upper_bonus_rate"] = player.upper_bonuses / games_played
            row["pentas"] = player.pentas
            row["penta_bonuses"] = player.penta_bonuses
        else:
            row["lost_turns"] = player.lost_turns
            row["hot_dice"] = player.hot_dice
            row["points_per_turn"] = sum(player.totals) / player.turns if player.turns else 0.0
        row["luck_games"] = len(player.luck)
        row["mean_luck"] = math.fsum(player.luck) / len(player.luck) if player.luck else None
        row["mean_cost"] = math.fsum(player.cost) / len(player.cost) if player.cost else None
        rows.append(row)
    return {
        "game": game,
        "rules": HOUSE_RULES[game][0] if rules is None else rules,
        "players": rows,
        "totals": {name: list(player.totals) for name, player in named.items()},
        "accounted": covered,
        "unit": unit,
        "cost_per_decision": {name: list(p.per_decision) for name, p in named.items()},
    }


Figures = Mapping[int, Mapping[str, float]]
"""By version, a move's ``luck`` (a throw's) and ``cost`` (a decision's), as
:func:`zar.ai.luck.figures` gives them."""


def _entries(
    record: Record, times: Sequence[str | None] | None, figures: Figures | None
) -> list[dict[str, Any]]:
    entries = log_entries(record, times)
    if figures is None:
        return entries
    return [{**e, "luck": None, "cost": None, **figures.get(e["version"], {})} for e in entries]


def game_export(
    game_id: str,
    record: Record,
    times: Sequence[str | None] | None = None,
    figures: Figures | None = None,
) -> dict[str, Any]:
    """A game as a file keeps it: its settings, its log with the undone marks and the times
    when known (with ``figures``, each throw's luck and each decision's cost), its totals,
    and whether it was abandoned."""
    state = record.state
    return {
        "id": game_id,
        **record.settings_json(),
        "game": record.kind,
        "players": [seat.name for seat in record.seats],
        "finished": state.is_over,
        "abandoned": record.abandoned,
        "entries": _entries(record, times, figures),
        "totals": totals(state),
        "winners": list(state.winners),
    }


# What a spreadsheet takes for a formula (OWASP, CSV injection): a cell that starts with
# "=", "+", "-", "@", a tab or a carriage return. So a quote goes before a tab or a
# carriage return that starts a cell, and before a formula behind blanks or quotes at a
# cell's start or after a separator a spreadsheet may split on (a comma, a semicolon in
# Turkish and French settings, a tab).
_FORMULA = re.compile(r"^(?=[\t\r])|(?:^|(?<=[;,\t]))(?=[\s\"]*[=+\-@])")
# What a spreadsheet or an editor takes for the end of a line, inside a cell.
_LINE_BREAKS = {ord(c): f"\\u{ord(c):04x}" for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}


def _cell(value: object) -> object:
    """A value in a CSV cell: numbers as they are; lists as faces or positions separated by
    spaces; text (a name) never read as a formula, whatever the separator the spreadsheet
    splits on (a quote before a leading ``=``, ``+``, ``-``, ``@``, tab or carriage return,
    and before one that follows a comma, a semicolon or a tab) nor split across lines (its
    line breaks written ``\\uXXXX``)."""
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _FORMULA.sub("'", value).translate(_LINE_BREAKS)
    return value


def _csv(header: Sequence[str], rows: Iterable[dict[str, Any]]) -> str:
    """The header, then a line a row: text quoted (a separator inside it splits nothing for
    a spreadsheet that reads quotes), numbers bare."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(header)
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    for row in rows:
        writer.writerow([_cell(row.get(column)) for column in header])
    return out.getvalue()


LOG_COLUMNS = ("version", "seat", "player", "type", "keep", "dice", "box", "positions",
               "undone", "at", "luck", "cost", "total")  # fmt: skip


def game_csv(
    game_id: str,
    record: Record,
    times: Sequence[str | None] | None = None,
    figures: Figures | None = None,
) -> str:
    """The log as CSV, one row an entry (an abandon's with no seat nor player; with
    ``figures``, a throw's ``luck`` and a decision's ``cost``), then one row a seat with its
    final ``total``."""
    names = [seat.name for seat in record.seats]
    entries = [
        {**e, "player": names[e["seat"]] if "seat" in e else None}
        for e in _entries(record, times, figures)
    ]
    final = [
        {"seat": seat, "player": names[seat], "type": "total", "total": total}
        for seat, total in enumerate(totals(record.state))
    ]
    return _csv(LOG_COLUMNS, [*entries, *final])


def stats_csv(figures: dict[str, Any]) -> str:
    """The statistics as CSV, one row a player."""
    extra = (
        ("upper_bonus_rate", "pentas", "penta_bonuses")
        if figures["game"] == "yams"
        else ("lost_turns", "hot_dice", "points_per_turn")
    )
    header = ("name", "computer", "games", "wins", "mean_total", "best_total", *extra,
              "luck_games", "mean_luck", "mean_cost")  # fmt: skip
    return _csv(header, figures["players"])
