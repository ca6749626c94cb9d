"""The coach: its hints and reviews read the optimal strategies, and say why a box scores.

Every figure is checked against the strategies themselves (``Strategy.best_keep``,
``box_values``, ``TurnStrategy.value``, ``WinStrategy.turn_value``) or the engine
(``farkle_probability``), never against numbers written in. 10 000 to 5 000 only: its
two-player table is built once for the session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from zar import ai, farkle, yams
from zar.ai.coach import Strategies, hint
from zar.ai.farkle import ExpertPlayer, MaxPointsPlayer, TurnStrategy, WinStrategy, reachable
from zar.ai.judging import decision, farkle_options, yams_options
from zar.ai.review import review
from zar.ai.yams import OptimalPlayer, Strategy
from zar.ai.yams_greedy import GreedyPlayer
from zar.dice import SeededDice
from zar.farkle import DICE, FarkleSettings, FarkleState, Phase, farkle_probability
from zar.i18n.sentences import box_notes
from zar.record import Record
from zar.table import IllegalAction, Seat
from zar.yams import Box, Scorecard, YamsSettings, YamsState

Solved = Callable[[str], Strategy]
ALI, ECE = Seat("Ali"), Seat("Ece")
TURN = TurnStrategy.load()
EXACT = 1e-9


@pytest.fixture
def strategies(solved: Solved, expert: WinStrategy) -> Strategies:
    return Strategies(solved("standard"))


# Yams: the hint.


def yams_states(count: int, seed: int) -> list[YamsState]:
    """States after a throw, from games played by the greedy player with seeded dice."""
    dice = SeededDice(seed)
    player = GreedyPlayer()
    state = YamsState.start(YamsSettings((ALI,)))
    found = []
    while len(found) < count:
        if state.is_over:
            state = YamsState.start(YamsSettings((ALI,)))
        if state.dice:
            found.append(state)
        state = state.apply(ai.next_action(state, player, dice))
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_the_hint_leads_with_the_strategys_own_choice(solved: Solved, seed: int) -> None:
    strategy = solved("standard")
    for state in yams_states(40, seed):
        card, dice = state.card, state.dice
        options = yams_options(strategy, state)
        boxes = strategy.box_values(card, dice)
        best_box = strategy.best_box(card, dice)
        assert 1 <= len(options) <= 3
        assert [o["expected"] for o in options] == sorted(
            (o["expected"] for o in options), reverse=True
        )
        box_options = [o for o in options if o["kind"] == "box"]
        assert box_options[0]["box"] == best_box.name
        assert box_options[0]["expected"] == boxes[best_box]
        assert box_options[0]["points"] == state.options[best_box]
        if not state.throws_left:
            assert all(o["kind"] == "box" for o in options)
            assert options[0]["box"] == best_box.name
            continue
        keeps = strategy.keep_values(card, dice, state.throws_left)
        kept = strategy.best_keep(card, dice, state.throws_left)
        keep_options = [o for o in options if o["kind"] == "keep"]
        assert keep_options, "the best keep is always offered while throws are left"
        for option in keep_options:
            faces = tuple(option["faces"])
            assert option["expected"] == keeps[faces]
            assert tuple(sorted(dice[p] for p in option["keep"])) == faces
        if len(kept) == yams.DICE:  # keeping all five is writing now
            assert options[0]["kind"] == "box"
            assert options[0]["expected"] == pytest.approx(keeps[kept], abs=EXACT)
        else:
            assert options[0]["kind"] == "keep"
            assert tuple(options[0]["faces"]) == kept


def test_the_hint_of_a_seat_with_the_coach_off_is_refused(strategies: Strategies) -> None:
    record = Record.new("yams", (ALI, ECE)).append(yams.Throw(0, (), (1, 2, 3, 4, 5)))
    assert record.hints == ()
    with pytest.raises(IllegalAction) as err:
        hint(record, strategies, "en")
    assert err.value.reason == "no-hint"
    computer = Seat("IA", computer=True, level="expert")
    record = Record.new("yams", (computer, ALI)).append(yams.Throw(0, (), (1, 2, 3, 4, 5)))
    with pytest.raises(IllegalAction) as err:
        hint(record, strategies, "en")
    assert err.value.reason == "no-hint"


def test_a_hint_says_what_to_do_in_the_players_language(strategies: Strategies) -> None:
    record = Record.new("yams", (ALI,))
    assert hint(record, strategies, "en") == {
        "seat": 0, "game": "yams", "decision": "throw", "options": [], "text": "Throw the dice"
    }  # fmt: skip
    record = record.append(yams.Throw(0, (), (1, 2, 3, 4, 5)))
    advice = hint(record, strategies, "en")
    assert advice["decision"] == "keep"
    assert advice["options"][0] == {
        "kind": "box", "box": "LARGE_STRAIGHT", "points": 40,
        "expected": strategies.yams().box_values(Scorecard(), (1, 2, 3, 4, 5))[Box.LARGE_STRAIGHT],
    }  # fmt: skip
    assert advice["text"].startswith("Write the dice in Large straight (40 points)")
    assert hint(record, strategies, "tr")["text"].startswith("Zarları Büyük seri kutusuna yazın")


def test_a_hint_of_two_says_when_its_chances_are_on_their_way(
    strategies: Strategies, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Yams game of two whose chances of winning are still being worked out (seconds, in
    the background: a hint does not wait): the hint in expected points says so."""
    from zar.ai import yams_win

    record = Record.new("yams", (ALI, ECE), hints=(0,))
    record = record.append(yams.Throw(0, (), (1, 2, 3, 4, 5)))
    monkeypatch.setattr(yams_win, "laws_at_hand", lambda strategy: False)
    advice = hint(record, strategies, "en")
    assert "win" not in advice["options"][0]
    assert advice["text"].endswith(
        "The chances of winning are on their way: in expected points for now."
    )
    monkeypatch.undo()
    alone = Record.new("yams", (ALI,)).append(yams.Throw(0, (), (1, 2, 3, 4, 5)))
    assert "on their way" not in hint(alone, strategies, "en")["text"]


# Yams: why a box scores what it does.


def test_the_notes_speak_of_the_joker_and_the_penta_bonus() -> None:
    card = Scorecard.from_boxes({Box.PENTA: 50, Box.FOURS: 16})
    state = replace(YamsState.start(YamsSettings((ALI,))), cards=(card,), dice=(4,) * 5, throws=1)
    notes = box_notes(state, "en")
    assert set(notes) == {box.name for box in yams.LOWER if card[box] is None}
    assert notes["FULL_HOUSE"] == "The Joker: this Penta counts as Full house: 25; +100 Penta bonus"
    assert notes["LARGE_STRAIGHT"].startswith("The Joker: this Penta counts as Large straight: 40")
    assert notes["CHANCE"] == "The sum of the dice: 20; +100 Penta bonus"


def test_the_notes_of_a_forced_joker_and_of_a_joker_with_no_lower_box() -> None:
    start = YamsState.start(YamsSettings((ALI,)))
    card = Scorecard.from_boxes({Box.PENTA: 50})
    forced = box_notes(replace(start, cards=(card,), dice=(3,) * 5, throws=1), "en")
    assert forced == {
        "THREES": "5 × 3: 15 points; the Joker: a Penta goes in its own upper box (Threes) first; "
        "upper section at 15/63: 48 to go for the bonus; +100 Penta bonus"
    }
    lower_full = dict.fromkeys(yams.LOWER, 0) | {Box.CHANCE: 12, Box.PENTA: 50, Box.THREES: 9}
    card = Scorecard.from_boxes(lower_full)
    zero = box_notes(replace(start, cards=(card,), dice=(3,) * 5, throws=1), "fr")
    assert set(zero) == {box.name for box in yams.UPPER if box is not Box.THREES}
    assert zero["ONES"].startswith("Joker : plus de case libre en bas, le Penta vaut 0 ici")


def test_the_notes_count_faces_and_the_upper_bonus() -> None:
    card = Scorecard.from_boxes({Box.ONES: 3, Box.TWOS: 6, Box.THREES: 9, Box.FOURS: 12,
                                 Box.FIVES: 15})  # fmt: skip
    state = replace(
        YamsState.start(YamsSettings((ALI,))), cards=(card,), dice=(6, 6, 6, 2, 3), throws=1
    )
    notes = box_notes(state, "en")
    assert notes["SIXES"] == "3 × 6: 18 points; the upper section reaches 63: +35 bonus"
    assert notes["FULL_HOUSE"] == "No three of a kind with a pair: 0"
    assert notes["FOUR_OF_A_KIND"] == "No 4 equal dice: 0"
    assert notes["THREE_OF_A_KIND"] == "The sum of the dice: 23"
    assert notes["SMALL_STRAIGHT"] == "No 4 faces in a row: 0"
    assert notes["PENTA"] == "Not five equal dice: 0"
    assert box_notes(replace(state, dice=(5, 5, 5, 5, 5)), "en")["FULL_HOUSE"] == (
        "A Penta is not a full house: 0"
    )


def test_the_notes_are_written_as_each_language_writes() -> None:
    """A Turkish note begins with its own capital (İki, not Iki); one point is a point; a
    French note's parts are joined by a semicolon with its space before."""
    yatzy = YamsState.start(YamsSettings((ALI,), yams.Rules.SCANDINAVIAN))
    pairs = replace(yatzy, dice=(2, 2, 5, 5, 6), throws=1)
    assert box_notes(pairs, "tr")["TWO_PAIRS"] == "İki ayrı çift: 14"
    ones = replace(YamsState.start(YamsSettings((ALI,))), dice=(1, 2, 3, 3, 6), throws=1)
    assert box_notes(ones, "en")["ONES"].startswith("1 × 1: 1 point; ")
    assert box_notes(ones, "fr")["ONES"].startswith("1 × 1 : 1 point\u202f; ")


# 10 000: the hint.


def table(*totals: int, seat: int = 0) -> FarkleState:
    seats = tuple(Seat(f"P{i}") for i in range(len(totals)))
    return replace(FarkleState.start(FarkleSettings(seats, 5_000)), totals=totals, seat=seat)


def holding(state: FarkleState, turn_points: int, dice_left: int) -> FarkleState:
    """``state`` after a set-aside: ``turn_points`` in the turn, ``dice_left`` to throw."""
    aside = (True,) * (DICE - dice_left) + (False,) * dice_left
    tray = (1,) * (DICE - dice_left) + (2,) * dice_left
    return replace(state, turn_points=turn_points, aside=aside, tray=tray, throws=1)


HELD = [(t, n) for t in range(50, 3_050, 150) for n in range(1, DICE + 1) if reachable(t, n)]


def test_banking_or_throwing_in_points_is_the_turns_value() -> None:
    for t, n in HELD:
        state = holding(table(0), t, n)
        assert decision(state) == "bank_or_throw"
        options = farkle_options(state, TURN)
        kinds = {o["kind"]: o for o in options}
        bank, throw = kinds["bank"], kinds["throw"]
        assert bank["expected"] == t
        assert max(bank["expected"], throw["expected"]) == pytest.approx(
            TURN.value(t, n), abs=EXACT
        )
        assert options[0]["kind"] == ("bank" if TURN.banks(t, n) else "throw")
        assert throw["risk"] == float(farkle_probability(n))
        assert (bank["win"], throw["win"]) == (None, None)


@pytest.mark.parametrize(
    ("own", "other"), [(0, 0), (1_500, 3_000), (4_500, 4_800), (3_000, 5_200), (4_950, 5_000)]
)
def test_banking_or_throwing_against_one_opponent_is_the_chance_of_winning(
    expert: WinStrategy, own: int, other: int
) -> None:
    for t, n in HELD:
        state = holding(table(own, other), t, n)
        options = farkle_options(state, TURN, expert)
        kinds = {o["kind"]: o for o in options}
        bank, throw = kinds["bank"], kinds["throw"]
        best = expert.turn_value(own, other, t, n)
        assert max(bank["win"], throw["win"]) == pytest.approx(best, abs=EXACT)
        assert options[0]["win"] == pytest.approx(best, abs=EXACT)
        if expert.banks(own, other, t, n):
            assert bank["win"] == pytest.approx(best, abs=EXACT)
        assert max(bank["expected"], throw["expected"]) == pytest.approx(TURN.value(t, n))


def test_a_turns_first_throw(expert: WinStrategy) -> None:
    (alone,) = farkle_options(table(0), TURN)
    assert alone["kind"] == "throw"
    assert alone["expected"] == pytest.approx(TURN.points_per_turn(), abs=EXACT)
    assert alone["risk"] == float(farkle_probability(6))
    (two,) = farkle_options(table(1_000, 2_000), TURN, expert)
    assert two["win"] == pytest.approx(expert.turn_value(1_000, 2_000, 0, 6), abs=EXACT)


def test_the_set_asides_are_ranked_by_the_strategies(expert: WinStrategy) -> None:
    faces = (1, 1, 5, 5, 3, 4)
    state = table(1_200, 2_500).apply(farkle.Throw(0, faces))
    assert decision(state) == "set_aside"
    points = TURN.selection_values(0, faces)
    chances = expert.selection_values(1_200, 2_500, 0, faces)
    options = farkle_options(state, TURN, expert)
    assert len(options) == 3
    assert options[0]["win"] == max(chances.values())
    for option in options:
        chosen = tuple(sorted(faces[p] for p in option["positions"]))
        assert option["points"] == farkle.score(chosen)
        assert option["expected"] == points[chosen]
        assert option["win"] == chances[chosen]
    alone = farkle_options(replace(state, totals=(1_200,)), TURN)
    assert alone[0]["expected"] == max(points.values())
    assert all(option["win"] is None for option in alone)


# The review.


def finished(record: Record, player: ai.YamsPlayer | ai.FarklePlayer, seed: int) -> Record:
    """The game played on to its end by ``player``, with seeded dice."""
    dice = SeededDice(seed)
    while not record.state.is_over:
        record = record.append(ai.next_action(record.state, player, dice))  # type: ignore[arg-type]
    return record


def yams_game(
    seats: tuple[Seat, ...], strategy: Strategy, seed: int, *first: yams.YamsAction
) -> Record:
    """A game of Yams that begins with ``first``, every other move the optimal player's."""
    record = Record.new("yams", seats)
    for action in first:
        record = record.append(action)
    return finished(record, OptimalPlayer(strategy), seed)


def throws_by(record: Record, seat: int) -> int:
    return sum(isinstance(step.move, yams.Throw) and step.move.seat == seat
               for step in record.steps())  # fmt: skip


def test_the_optimal_player_loses_nothing(strategies: Strategies) -> None:
    record = yams_game((ALI, ECE), strategies.yams(), 7)
    result = review(record, strategies, "en")
    assert [p["name"] for p in result["players"]] == ["Ali", "Ece"]
    for seat, player in enumerate(result["players"]):
        assert player["unit"] == "points"
        # Each throw is followed by one decision: keep and throw again, or write.
        assert player["decisions"] == throws_by(record, seat)
        assert player["total_cost"] == pytest.approx(0, abs=EXACT)
        assert player["worst"] == []
        assert player["verdict"] == "Perfect play: every decision was the best one"


def test_a_box_written_where_it_is_worth_less_costs_the_difference(
    strategies: Strategies,
) -> None:
    strategy = strategies.yams()
    straight = (1, 2, 3, 4, 5)
    record = yams_game((ALI,), strategy, 11, yams.Throw(0, (), straight), yams.Fill(0, Box.CHANCE))
    (ali,) = review(record, strategies, "en")["players"]
    best = max(strategy.keep_values(Scorecard(), straight, 2).values())
    chosen = strategy.box_values(Scorecard(), straight)[Box.CHANCE]
    cost = best - chosen
    assert cost > 10
    assert ali["total_cost"] == pytest.approx(cost, abs=EXACT)
    assert ali["mean_cost"] == ali["total_cost"] / ali["decisions"]
    (worst,) = ali["worst"]
    assert worst["cost"] == pytest.approx(cost, abs=EXACT)
    assert (worst["version"], worst["round"]) == (2, 1)
    assert worst["chosen"] == {"kind": "box", "box": "CHANCE", "points": 15, "expected": chosen}
    assert worst["best"]["box"] == strategy.best_box(Scorecard(), straight).name
    # The board has what the dice would score in each open box, as the card shows it.
    options = {box.name: points for box, points in Scorecard().options(straight).items()}
    assert options["LARGE_STRAIGHT"] > 0
    assert worst["board"] == {
        "dice": list(straight), "throws_left": 2, "card": dict.fromkeys(Box.__members__),
        "options": options,
    }  # fmt: skip
    mean = cost / ali["decisions"]
    figures = f"{cost:.1f} points lost over {ali['decisions']} decisions ({mean:.1f} a decision)"
    assert ali["verdict"].endswith(figures)


def test_a_keep_costs_its_value_against_the_best(strategies: Strategies) -> None:
    strategy = strategies.yams()
    first = (6, 6, 6, 2, 3)
    record = yams_game(
        (ALI,), strategy, 5, yams.Throw(0, (), first), yams.Throw(0, (3, 4), (1, 1, 1))
    )
    (ali,) = review(record, strategies, "en")["players"]
    keeps = strategy.keep_values(Scorecard(), first, 2)
    cost = max(keeps.values()) - keeps[(2, 3)]
    assert ali["total_cost"] == pytest.approx(cost, abs=EXACT)
    (worst,) = ali["worst"]
    assert worst["chosen"] == {"kind": "keep", "keep": [3, 4], "faces": [2, 3],
                               "expected": keeps[(2, 3)]}  # fmt: skip
    assert worst["best"]["faces"] == list(strategy.best_keep(Scorecard(), first, 2))


def test_undone_moves_are_not_decisions(strategies: Strategies) -> None:
    record = Record.new("yams", (ALI,))
    for action in (yams.Throw(0, (), (1, 2, 3, 4, 5)), yams.Fill(0, Box.CHANCE)):
        record = record.append(action)
    record = record.append(record.undo())
    again = yams_game((ALI,), strategies.yams(), 3, *record.log, yams.Fill(0, Box.LARGE_STRAIGHT))
    (ali,) = review(again, strategies, "en")["players"]
    assert ali["total_cost"] == pytest.approx(0, abs=EXACT)
    assert ali["decisions"] == throws_by(again, 0)


def test_an_unfinished_game_has_no_review(strategies: Strategies) -> None:
    with pytest.raises(IllegalAction) as err:
        review(Record.new("yams", (ALI,)), strategies, "en")
    assert err.value.reason == "not-finished"


def farkle_game(
    seats: tuple[Seat, ...], player: ai.FarklePlayer, seed: int, *first: farkle.FarkleAction
) -> Record:
    record = Record.new("10000", seats, target=5_000)
    for action in first:
        record = record.append(action)
    return finished(record, player, seed)


def farkle_decisions(record: Record, seat: int) -> int:
    """Set-asides, and banks or throws after a set-aside, counted from the log."""
    count = 0
    for step in record.steps():
        before = step.before
        assert isinstance(before, FarkleState)
        if step.move.seat != seat:
            continue
        # A throw is a decision only after a set-aside: then it is not banking.
        thrown_on = isinstance(step.move, farkle.Throw) and before.turn_points > 0
        count += isinstance(step.move, farkle.SetAside | farkle.Bank) or thrown_on
    return count


def test_the_expert_loses_no_chance_of_winning(strategies: Strategies) -> None:
    record = farkle_game((ALI, ECE), ExpertPlayer(), 4)
    for seat, player in enumerate(review(record, strategies, "en")["players"]):
        assert player["unit"] == "win"
        assert player["decisions"] == farkle_decisions(record, seat)
        assert player["total_cost"] == pytest.approx(0, abs=EXACT)


def test_banking_too_soon_costs_the_points_a_throw_would_bring(strategies: Strategies) -> None:
    first = (farkle.Throw(0, (1, 2, 3, 4, 6, 6)), farkle.SetAside(0, (0,)), farkle.Bank(0))
    record = farkle_game((ALI,), MaxPointsPlayer(), 9, *first)
    (ali,) = review(record, strategies, "en")["players"]
    assert ali["unit"] == "points"
    cost = TURN.value(100, 5) - 100
    assert ali["total_cost"] == pytest.approx(cost, abs=EXACT)
    assert ali["decisions"] == farkle_decisions(record, 0)
    (worst,) = ali["worst"]
    assert worst["version"] == 3
    assert worst["chosen"] == {"kind": "bank", "expected": 100.0, "win": None}
    assert worst["best"]["kind"] == "throw"
    assert worst["board"]["turn_points"] == 100
    assert worst["board"]["tray"][0] == {"face": 1, "aside": True}


def test_the_computers_seat_is_not_reviewed(strategies: Strategies) -> None:
    computer = Seat("IA", computer=True, level="max-points")
    record = farkle_game((ALI, computer), MaxPointsPlayer(), 2)
    players = review(record, strategies, "fr")["players"]
    assert [p["name"] for p in players] == ["Ali"]
    assert players[0]["unit"] == "win"
    assert players[0]["verdict"]
    assert record.state.phase is Phase.OVER
