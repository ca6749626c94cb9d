"""The history: statistics, progress and exports from records of seeded games, checked
against counts made here from the engine's own events."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from history_support import counted, random_game, replayed_stats, without_luck
from record_support import standing
from support import WHOLE_GAMES
from zar import ai, farkle, yams
from zar.ai.yams import OptimalPlayer, Strategy
from zar.dice import SeededDice
from zar.history import (
    FIGURES_VERSION,
    accounted,
    current,
    figures,
    game_csv,
    game_export,
    log_entries,
    progress,
    stats,
    stats_csv,
    totals,
)
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


def replayed(game: str, records: list[Record]) -> dict[str, Any]:
    """The statistics of ``records``, each game's figures worked out from its log."""
    return stats(game, [figures(record) for record in records], "tr")  # type: ignore[arg-type]


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
    figures = replayed("yams", yams_games)
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
    figures = replayed("10000", farkle_games)
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
    figures = replayed("yams", [*farkle_games, unfinished, *yams_games])
    assert figures == replayed("yams", yams_games)
    assert without_luck(stats("10000", [], "tr")) == {
        "game": "10000",
        "rules": "seed",
        "players": [],
        "totals": {},
    }


@settings(WHOLE_GAMES)
@given(data=st.data(), kind=st.sampled_from(["yams", "10000"]))
def test_a_games_figures_at_its_end_are_what_a_replay_counts(
    data: st.DataObject, kind: str
) -> None:
    """A whole game of random play, undos included: the figures worked out once at its end
    are each seat's, as counted here from the engine's events."""
    record = random_game(data, kind)
    found = figures(record)
    assert found is not None
    assert current(found)
    assert (found["version"], found["game"]) == (FIGURES_VERSION, kind)
    assert found == json.loads(json.dumps(found))  # as a store keeps it
    expected = counted([record])
    assert [seat["name"] for seat in found["seats"]] == [seat.name for seat in record.seats]
    for seat in found["seats"]:
        e = expected[seat["name"]]
        assert [seat["total"]] == e["totals"]
        assert seat["win"] == bool(e["wins"])
        if kind == "yams":
            assert seat["upper_bonus"] == bool(e["upper_bonuses"])
            assert (seat["pentas"], seat["penta_bonuses"]) == (e["pentas"], e["penta_bonuses"])
        else:
            assert (seat["turns"], seat["lost_turns"]) == (e["turns"], e["lost_turns"])
            assert seat["hot_dice"] == e["hot_dice"]
    assert without_luck(stats(kind, [found], "tr")) == replayed_stats(kind, [record])  # type: ignore[arg-type]


@settings(WHOLE_GAMES, max_examples=10)
@given(data=st.data())
def test_the_statistics_of_kept_figures_are_those_of_replaying_every_game(
    data: st.DataObject,
) -> None:
    """Games of both kinds, finished, in play or abandoned, the same names across them: the
    statistics summed from the figures are those the server worked out by replaying each."""
    records = []
    for _ in range(data.draw(st.integers(1, 5), label="games")):
        record = random_game(data, data.draw(st.sampled_from(["yams", "10000"]), label="kind"))
        cut = data.draw(st.sampled_from(["whole", "in play", "abandoned"]), label="end")
        if cut != "whole":
            record = record.upto(data.draw(st.integers(0, record.version - 1), label="at"))
            if cut == "abandoned":
                record = record.append(Abandon())
        records.append(record)
    kept = [figures(record) for record in records]
    for game in ("yams", "10000"):
        assert without_luck(stats(game, kept, "tr")) == replayed_stats(game, records)  # type: ignore[arg-type]


def test_figures_of_an_older_version_are_not_current(farkle_games: list[Record]) -> None:
    found = figures(farkle_games[0])
    assert current(found)
    assert not current({**found, "version": FIGURES_VERSION - 1})  # type: ignore[dict-item]
    assert not current(None)


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
        found = progress(record, "tr")
        assert found["players"] == [seat.name for seat in record.seats]
        assert len(found["turns"]) == yams.ROUNDS
        assert found["turns"] == rows_after_turns(record)
        assert found["turns"][-1] == totals(record.state)
    for record in farkle_games:
        assert progress(record, "tr")["turns"] == rows_after_turns(record)


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
    assert progress(record, "tr") == {"players": ["Ali", "Ece"], "turns": []}
    assert figures(record) is None
    assert replayed("10000", [record])["players"] == []


def test_the_statistics_export_to_csv(yams_games: list[Record]) -> None:
    figures = replayed("yams", yams_games)
    rows = list(csv.DictReader(io.StringIO(stats_csv(figures))))
    assert [row["name"] for row in rows] == [p["name"] for p in figures["players"]]
    for row, player in zip(rows, figures["players"], strict=True):
        assert set(row) == set(player)
        for key, value in player.items():
            if isinstance(value, bool):  # whether the row is the computer's
                assert row[key] == ("true" if value else "false")
            else:
                assert row[key] == ("" if value is None else str(value))  # no account: no mean


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


def test_the_luck_means_count_only_the_games_accounted_in_the_games_unit() -> None:
    """A 10 000 game without its account yet, or alone (its account in points, not in
    chance of winning), counts in the games and totals but not in the luck means."""

    def seat(name: str, total: int, **account: Any) -> dict[str, Any]:
        return {"name": name, "total": total, "win": False, "turns": 1, **account}

    def game(*seats: dict[str, Any]) -> dict[str, Any]:
        return {"version": FIGURES_VERSION, "game": "10000", "seats": list(seats)}

    two = {"unit": "win", "decisions": 4}
    found = stats("10000", [
        game(seat("Ali", 10, luck=0.25, cost=0.1, **two),
             seat("Ece", 5, luck=-0.25, cost=0.3, **two)),
        game(seat("Ali", 20), seat("Ece", 30)),  # its account not kept yet
        game(seat("Ali", 40, luck=120.0, cost=8.0, unit="points", decisions=9)),  # alone
        game(seat("Ali", 30, luck=-0.75, cost=0.5, **two),
             seat("Ece", 0, luck=0.75, cost=0.0, **two)),
    ], "tr")  # fmt: skip
    assert (found["accounted"], found["unit"]) == (2, "win")
    ali, ece = found["players"]
    assert (ali["name"], ali["games"], ali["luck_games"]) == ("Ali", 4, 2)
    assert ali["mean_luck"] == pytest.approx((0.25 - 0.75) / 2)
    assert ali["mean_cost"] == pytest.approx((0.1 + 0.5) / 2)
    assert found["cost_per_decision"]["Ali"] == pytest.approx([0.1 / 4, 0.5 / 4])
    assert (ece["games"], ece["luck_games"]) == (3, 2)
    assert found["cost_per_decision"]["Ece"] == pytest.approx([0.3 / 4, 0.0])
    assert accounted(game(seat("Ali", 1, luck=0.0, cost=0.0, **two)))
    assert not accounted(game(seat("Ali", 1)))


FORMULAS = ("=", "+", "-", "@")


def number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("separator", [";", ",", "\t"])
@pytest.mark.parametrize(
    "name", ["x;=HYPERLINK(A1)", "x,=HYPERLINK(A1)", 'x; "+1+1', "x;@SUM(1)", "x;-2+3"]
)
def test_no_separator_a_spreadsheet_splits_on_starts_a_cell_with_a_formula(
    separator: str, name: str
) -> None:
    """A spreadsheet set to split on semicolons (usual in Turkish and French settings) or
    tabs reads a quote only at a cell's start: the name's own separator starts a cell there.
    Whatever the separator it splits on, no cell of the log or of the statistics starts
    with a formula, blanks and quotes aside."""
    record = Record.new("10000", (Seat(name), Seat("Ece")), target=5_000)
    for action in (farkle.Throw(0, (1, 2, 3, 4, 6, 6)), farkle.SetAside(0, (0,)), farkle.Bank(0)):
        record = record.append(action)
    figures = {"game": "10000", "players": [
        {"name": name, "games": 1, "wins": 0, "mean_total": -150, "best_total": 0,
         "lost_turns": 0, "hot_dice": 0, "points_per_turn": 0.0},
    ]}  # fmt: skip
    for text in (game_csv("g", record), stats_csv(figures)):
        cells = [c for row in csv.reader(io.StringIO(text), delimiter=separator) for c in row]
        formulas = [c for c in cells if c.lstrip(' "\t\r').startswith(FORMULAS) and not number(c)]
        assert formulas == [], text
    # Read as it is written (commas, quotes), the name is whole, a quote before the formula.
    rows = list(csv.DictReader(io.StringIO(game_csv("g", record))))
    assert rows[0]["player"].replace("'", "") == name.replace("'", "")


def test_the_statistics_count_one_set_of_rules_at_a_time() -> None:
    """Totals under different house rules do not compare: each set of rules has its own
    statistics, the seeds' by default; figures kept before house rules are the seeds'."""
    from zar.yams import Fill, Throw

    games = []
    for rules in (None, "scandinavian", None):
        record = Record.new("yams", (Seat("Ali"),), rules=rules)
        for _ in range(record.state.rounds):  # type: ignore[union-attr]
            record = record.append(Throw(0, (), (1, 1, 1, 2, 2)))
            record = record.append(Fill(0, next(iter(record.state.options))))  # type: ignore[union-attr]
        kept = figures(record)
        assert kept is not None
        assert kept.get("rules") == rules
        games.append(kept)
    ours = stats("yams", games, "tr")
    yatzy = stats("yams", games, "tr", "scandinavian")
    assert (ours["rules"], yatzy["rules"]) == ("standard", "scandinavian")
    assert [row["games"] for row in ours["players"]] == [2]
    assert [row["games"] for row in yatzy["players"]] == [1]
    assert yatzy["totals"]["Ali"] == [games[1]["seats"][0]["total"]]
