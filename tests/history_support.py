"""What the tests of the history share: figures counted here from a replay of each game's
log, the statistics as they were worked out before each game kept its figures (every game
replayed at every request), and whole games of random play with undos."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from play_support import farkle_move, yams_move
from record_support import standing
from zar import farkle, yams
from zar.history import totals
from zar.record import HOUSE_RULES, Record
from zar.table import Seat
from zar.yams.scorecard import PENTA_BONUS

__all__ = ["counted", "random_game", "replayed_stats", "without_luck"]


def counted(records: list[Record]) -> dict[str, dict[str, Any]]:
    """Each name's figures, from the events of a replay made here."""
    found: dict[str, dict[str, Any]] = defaultdict(lambda: defaultdict(int))
    for record in records:
        names = [seat.name for seat in record.seats]
        state = record.start
        banked: dict[int, int] = defaultdict(int)
        for move in standing(record):
            before, state = state, state.apply(move)  # type: ignore[arg-type]
            for event in state.events:
                match event:
                    case yams.Filled():
                        who = found[names[event.seat]]
                        who["upper_bonuses"] += event.upper_bonus
                        who["penta_bonuses"] += event.penta_bonus // 100
                        assert isinstance(before, yams.YamsState)
                        who["pentas"] += len(set(before.dice)) == 1
                    case farkle.Banked():
                        banked[event.seat] += event.points
                        found[names[event.seat]]["turns"] += 1
                    case farkle.TurnLost():
                        found[names[event.seat]]["lost_turns"] += 1
                        found[names[event.seat]]["turns"] += 1
                    case farkle.HotDice():
                        found[names[event.seat]]["hot_dice"] += 1
                    case yams.GameOver() | farkle.GameOver():
                        for seat in event.winners:
                            found[names[seat]]["wins"] += 1
        for seat, name in enumerate(names):
            total = state.cards[seat].total if isinstance(state, yams.YamsState) else banked[seat]
            found[name].setdefault("totals", []).append(total)
    return found


@dataclass
class _Player:
    """What one name did over the games: sums and counts, turned into means at the end."""

    totals: list[int] = field(default_factory=list)
    wins: int = 0
    upper_bonuses: int = 0
    pentas: int = 0
    penta_bonuses: int = 0
    lost_turns: int = 0
    hot_dice: int = 0
    turns: int = 0
    computer: bool = False


def _count(record: Record, players: dict[str, _Player]) -> None:
    state = record.state
    seats = [
        players.setdefault(seat.name, _Player(computer=seat.computer)) for seat in record.seats
    ]
    for seat, (player, total) in enumerate(zip(seats, totals(state), strict=True)):
        player.totals.append(total)
        player.wins += seat in state.winners
        match state:
            case yams.YamsState():
                card = state.cards[seat]
                player.upper_bonuses += card.upper_bonus > 0
                player.penta_bonuses += card.penta_bonus // PENTA_BONUS
            case farkle.FarkleState():
                player.turns += state.turns[seat]
    for step in record.steps():
        player = seats[step.move.seat]
        if isinstance(step.move, yams.Fill) and isinstance(step.before, yams.YamsState):
            player.pentas += yams.is_penta(step.before.dice)
        for event in step.after.events:
            if isinstance(event, farkle.TurnLost):
                player.lost_turns += 1
            elif isinstance(event, farkle.HotDice):
                player.hot_dice += 1


def replayed_stats(game: str, records: Iterable[Record]) -> dict[str, Any]:
    """The statistics as the server worked them out before each game kept its figures (the
    same code, kept here), every record replayed: each name's figures over the finished
    games of ``game`` among ``records`` (given oldest first). The computer's seats are
    counted under their name: ``records`` name it in one language."""
    players: dict[str, _Player] = {}
    for record in records:
        if record.kind == game and record.state.is_over:
            _count(record, players)
    rows = []
    for name, player in sorted(players.items(), key=lambda p: (-len(p[1].totals), p[0])):
        games = len(player.totals)
        row: dict[str, Any] = {
            "name": name,
            "computer": player.computer,
            "games": games,
            "wins": player.wins,
            "mean_total": sum(player.totals) / games,
            "best_total": max(player.totals),
        }
        if game == "yams":
            row["upper_bonus_rate"] = player.upper_bonuses / games
            row["pentas"] = player.pentas
            row["penta_bonuses"] = player.penta_bonuses
        else:
            row["lost_turns"] = player.lost_turns
            row["hot_dice"] = player.hot_dice
            row["points_per_turn"] = sum(player.totals) / player.turns if player.turns else 0.0
        rows.append(row)
    return {
        "game": game,
        "rules": HOUSE_RULES[game][0],  # the seeds' games: ``records`` play no house rules
        "players": rows,
        "totals": {name: list(player.totals) for name, player in players.items()},
    }


LUCK_KEYS = ("accounted", "unit", "cost_per_decision")
LUCK_ROW_KEYS = ("luck_games", "mean_luck", "mean_cost")


def without_luck(found: dict[str, Any]) -> dict[str, Any]:
    """The statistics without their luck figures (which :func:`replayed_stats` leaves out)."""
    rest = {k: v for k, v in found.items() if k not in LUCK_KEYS}
    rest["players"] = [
        {k: v for k, v in row.items() if k not in LUCK_ROW_KEYS} for row in found["players"]
    ]
    return rest


def random_game(data: st.DataObject, kind: str) -> Record:
    """A whole game of random legal play, one to three people (names may repeat across
    games, never at one table), with random undos of their decisions; 10 000 to 5 000
    points, so that it ends in a few hundred actions."""
    people = data.draw(st.integers(1, 3), label="people")
    names = data.draw(st.permutations(["Ali", "Ece", "Can"]), label="names")[:people]
    record = Record.new(kind, tuple(Seat(n) for n in names), target=5_000)  # type: ignore[arg-type]
    while not record.state.is_over:
        if record.can_undo and data.draw(st.integers(0, 9), label="undo if 9") == 9:
            record = record.append(record.undo())
            continue
        state = record.state
        if isinstance(state, yams.YamsState):
            record = record.append(yams_move(data, state))
        else:
            assert isinstance(state, farkle.FarkleState)
            record = record.append(farkle_move(data, state))
    return record
