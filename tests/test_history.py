"""The history: statistics, progress and exports from records of seeded games, checked
against counts made here from the engine's own events."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest

from record_support import standing
from zar import ai, farkle, yams
from zar.ai.yams import OptimalPlayer, Strategy
from zar.dice import SeededDice
from zar.history import game_csv, game_export, log_entries, progress, stats, stats_csv, totals
from zar.record import Abandon, Record
from zar.table import Seat

Player = ai.YamsPlayer | ai.FarklePlayer


def seeded_game(
    kind: str, names: tuple[str, ...], player: Player, seed: int, *, undo_every: int = 0
) -> Record:
    """A whole game, every seat played by ``player`` with seeded dice; with ``undo_every``,
    every so many decisions of the first seat are undone and made again."""
    seats = tuple(Seat(name) for name in names)
    record = Record.new(kind, seats, target=5_000)  # type: ignore[arg-type]
    dice = SeededDice(seed)
    decisions = 0
    while not record.state.is_over:
        record = record.append(ai.next_action(record.state, player, dice))  # type: ignore[arg-type]
        if undo_every and record.can_undo and record.undo().seat == 0:
            decisions += 1
            if decisions % undo_every == 0:
                record = record.append(record.undo())
    return record


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


@pytest.fixture(scope="module")
def yams_games(solved: Callable[[str], Strategy]) -> list[Record]:
    """Games of the optimal player: upper bonuses, Pentas and Penta bonuses come up."""
    player = OptimalPlayer(solved("standard"))
    return [
        seeded_game("yams", ("Ali", "Ece"), player, 7),
        seeded_game("yams", ("Ece",), player, 107, undo_every=4),
        seeded_game("yams", ("Can", "Ali", "Ece"), player, 207),
        seeded_game("yams", ("Ali",), player, 307),
    ]


@pytest.fixture(scope="module")
def farkle_games() -> list[Record]:
    player = ai.computer_player("10000", "seed")
    return [
        seeded_game("10000", ("Ali", "Ece"), player, 5, undo_every=3),
        seeded_game("10000", ("Ece",), player, 6),
        seeded_game("10000", ("Can", "Ali", "Ece"), player, 7),
    ]


def test_yams_statistics_agree_with_the_events(yams_games: list[Record]) -> None:
    figures = stats("yams", yams_games)
    expected = counted(yams_games)
    for count in ("upper_bonuses", "pentas", "penta_bonuses"):
        assert sum(e[count] for e in expected.values()) > 0, f"the games hold {count}"
    assert figures["game"] == "yams"
    assert [p["name"] for p in figures["players"]] == ["Ali", "Ece", "Can"]  # most games first
    assert figures["totals"] == {name: e["totals"] for name, e in expected.items()}
    for player in figures["players"]:
        e = expected[player["name"]]
        games = len(e["totals"])
        assert player["games"] == games
        assert player["wins"] == e["wins"]
        assert player["mean_total"] == sum(e["totals"]) / games
        assert player["best_total"] == max(e["totals"])
        assert player["upper_bonus_rate"] == e["upper_bonuses"] / games
        assert player["pentas"] == e["pentas"]
        assert player["penta_bonuses"] == e["penta_bonuses"]
        assert "lost_turns" not in player


def test_10000_statistics_agree_with_the_events(farkle_games: list[Record]) -> None:
    figures = stats("10000", farkle_games)
    expected = counted(farkle_games)
    assert sum(e["lost_turns"] for e in expected.values()) > 0
    assert sum(e["hot_dice"] for e in expected.values()) > 0
    assert figures["totals"] == {name: e["totals"] for name, e in expected.items()}
    for player in figures["players"]:
        e = expected[player["name"]]
        assert player["games"] == len(e["totals"])
        assert player["wins"] == e["wins"]
        assert player["best_total"] == max(e["totals"])
        assert player["lost_turns"] == e["lost_turns"]
        assert player["hot_dice"] == e["hot_dice"]
        assert player["points_per_turn"] == sum(e["totals"]) / e["turns"]
        assert "pentas" not in player


def test_only_finished_games_of_the_game_count(
    yams_games: list[Record], farkle_games: list[Record]
) -> None:
    unfinished = Record.new("yams", (Seat("Zeynep"),)).append(yams.Throw(0, (), (1, 2, 3, 4, 5)))
    figures = stats("yams", [*farkle_games, unfinished, *yams_games])
    assert figures == stats("yams", yams_games)
    assert stats("10000", []) == {"game": "10000", "players": [], "totals": {}}


def rows_after_turns(record: Record) -> list[list[int]]:
    """The totals each time the table's last seat ends its round or turn, and at the end."""
    last = len(record.seats) - 1
    state = record.start
    rows = []
    for move in standing(record):
        state = state.apply(move)  # type: ignore[arg-type]
        for event in state.events:
            ended = isinstance(event, yams.Filled | farkle.Banked | farkle.TurnLost)
            if ended and event.seat == last:  # type: ignore[union-attr]
                rows.append(totals(state))
    if not rows or rows[-1] != totals(state):
        rows.append(totals(state))
    return rows


def test_progress_has_a_row_a_round(yams_games: list[Record], farkle_games: list[Record]) -> None:
    for record in yams_games:
        found = progress(record)
        assert found["players"] == [seat.name for seat in record.seats]
        assert len(found["turns"]) == yams.ROUNDS
        assert found["turns"] == rows_after_turns(record)
        assert found["turns"][-1] == totals(record.state)
    for record in farkle_games:
        assert progress(record)["turns"] == rows_after_turns(record)


def test_the_log_marks_what_was_undone(yams_games: list[Record]) -> None:
    record = yams_games[1]
    entries = log_entries(record, ["2024-05-01T10:00:00.000+00:00"] * record.version)
    assert [e["version"] for e in entries] == list(range(1, record.version + 1))
    undos = [e for e in entries if e["type"] == "undo"]
    assert undos
    undone = [e["version"] for e in entries if e["undone"]]
    assert len(undone) == len(undos)
    assert set(undone) == record.undone
    for entry in entries:
        assert entry["at"] == "2024-05-01T10:00:00.000+00:00"
        if entry["undone"]:
            assert entry["type"] in ("fill", "set_aside", "bank")
    assert all(e["at"] is None for e in log_entries(record))


def test_a_game_exports_to_json_and_csv(farkle_games: list[Record]) -> None:
    record = farkle_games[0]
    data = json.loads(json.dumps(game_export("g1", record)))
    assert data["id"] == "g1"
    assert data["game"] == "10000"
    assert data["players"] == ["Ali", "Ece"]
    assert data["entries"] == log_entries(record)
    assert data["totals"] == list(record.state.totals)
    assert data["winners"] == list(record.state.winners)
    assert Record.from_json({**data, "log": data["entries"]}) == record
    rows = list(csv.DictReader(io.StringIO(game_csv("g1", record))))
    assert len(rows) == record.version + 2
    for row, entry in zip(rows, log_entries(record), strict=False):
        assert row["version"] == str(entry["version"])
        assert row["type"] == entry["type"]
        assert row["player"] == ("Ali", "Ece")[entry["seat"]]
        assert row["undone"] == ("true" if entry["undone"] else "false")
        if entry["type"] == "throw":
            assert row["dice"] == " ".join(str(face) for face in entry["dice"])
    assert [(r["type"], r["player"], r["total"]) for r in rows[-2:]] == [
        ("total", "Ali", str(record.state.totals[0])),
        ("total", "Ece", str(record.state.totals[1])),
    ]


def test_an_abandoned_game_exports_its_abandon_and_counts_nowhere() -> None:
    record = Record.new("10000", (Seat("Ali"), Seat("Ece")), target=5_000)
    for action in (farkle.Throw(0, (1, 2, 3, 4, 6, 6)), farkle.SetAside(0, (0,)), farkle.Bank(0)):
        record = record.append(action)
    record = record.append(Abandon())
    entries = log_entries(record, ["t1", "t2", "t3", "t4"])
    assert entries[-1] == {"version": 4, "type": "abandon", "undone": False, "at": "t4"}
    data = json.loads(json.dumps(game_export("g", record)))
    assert (data["finished"], data["abandoned"], data["totals"]) == (False, True, [100, 0])
    assert Record.from_json({**data, "log": data["entries"]}) == record
    rows = list(csv.DictReader(io.StringIO(game_csv("g", record))))
    assert [(r["version"], r["type"], r["seat"], r["player"]) for r in rows[3:5]] == [
        ("4", "abandon", "", ""),
        ("", "total", "0", "Ali"),
    ]
    assert progress(record) == {"players": ["Ali", "Ece"], "turns": []}
    assert stats("10000", [record])["players"] == []


def test_the_statistics_export_to_csv(yams_games: list[Record]) -> None:
    figures = stats("yams", yams_games)
    rows = list(csv.DictReader(io.StringIO(stats_csv(figures))))
    assert [row["name"] for row in rows] == [p["name"] for p in figures["players"]]
    for row, player in zip(rows, figures["players"], strict=True):
        assert set(row) == set(player)
        for key, value in player.items():
            assert row[key] == str(value)


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("//x")', "=cmd|' /C calc'!A0", "@SUM(1+1)", "+1+1", "-2+3"]
)
def test_a_name_never_reaches_a_spreadsheet_as_a_formula(name: str) -> None:
    """OWASP's CSV injection: a cell that starts with =, +, -, @, a tab or a carriage return
    is a formula to a spreadsheet; the export puts a quote before it, in the game's log and
    in the statistics. Numbers stay numbers (a total of -150 is not text)."""
    record = Record.new("10000", (Seat(name), Seat("Ece")), target=5_000)
    for action in (farkle.Throw(0, (1, 2, 3, 4, 6, 6)), farkle.SetAside(0, (0,)), farkle.Bank(0)):
        record = record.append(action)
    rows = list(csv.DictReader(io.StringIO(game_csv("g", record))))
    assert {row["player"] for row in rows if row["seat"] == "0"} == {"'" + name}
    starts = ("=", "+", "-", "@", "\t", "\r")
    assert all(not cell.startswith(starts) for row in rows for cell in row.values())
    figures = {"game": "10000", "players": [
        {"name": name, "games": 1, "wins": 0, "mean_total": -150, "best_total": 0,
         "lost_turns": 0, "hot_dice": 0, "points_per_turn": 0.0},
    ]}  # fmt: skip
    (row,) = csv.DictReader(io.StringIO(stats_csv(figures)))
    assert (row["name"], row["mean_total"]) == ("'" + name, "-150")


def test_a_line_separator_in_a_name_never_splits_a_row() -> None:
    record = Record.new("yams", (Seat("Ali\u2028Veli"), Seat("Ece\u2029Can")))
    text = game_csv("g", record)
    assert len(text.splitlines()) == 1 + 2  # the header and each seat's total
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["player"] for row in rows] == ["Ali\\u2028Veli", "Ece\\u2029Can"]
