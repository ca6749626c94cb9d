"""The Yams computer that plays to win: its chances against the last round worked out by
hand, its whole games, and its duels."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import product

import numpy as np
import pytest

from zar.ai import computer_player, next_action
from zar.ai.judging import yams_options
from zar.ai.yams import Strategy
from zar.ai.yams_win import (
    WinPlayer,
    calibrated,
    calibration,
    duel,
    late_laws,
    logistic_fit,
    shown_chances,
    turn_chances,
)
from zar.cli import main
from zar.dice import SeededDice
from zar.table import Seat
from zar.yams import Box, Rules, Scorecard, Throw, YamsSettings, YamsState
from zar.yams.scorecard import YatzyBox

Solved = Callable[[str], Strategy]
LAST_LINE = re.compile(r"win rate (\d\.\d{4}) ci (-?\d\.\d{4}) (\d\.\d{4}) games (\d+)")


@cache
def penta_chance(throws_left: int, most: int) -> float:
    """The chance of five of a kind with ``throws_left`` throws to come, ``most`` dice of
    one face kept: each throw of the others enumerated, the largest group kept after it.
    Three throws from nothing: 2 783 176 / 60 466 176 = 0.046029 (Verhoeff's figure)."""
    if most == 5:
        return 1.0
    if throws_left == 0:
        return 0.0
    total = 0.0
    rolls = list(product(range(6), repeat=5 - most))
    for roll in rolls:
        counts = Counter(roll)
        best = max([most + counts[0], *(n for face, n in counts.items() if face)])
        total += penta_chance(throws_left - 1, best)
    return total / len(rolls)


def card(filled: dict[Box, int]) -> Scorecard:
    """A card with these boxes written, every other box 0 except those left open."""
    return Scorecard.from_boxes(filled)


def all_but(open_box: Box, **written: int) -> dict[Box, int]:
    boxes = {box: 0 for box in Box if box is not open_box}
    boxes.update({Box[name]: points for name, points in written.items()})
    return boxes


def yatzy_card(open_box: YatzyBox | None, **written: int) -> Scorecard:
    """A Yatzy card with every box but ``open_box`` (None: every box) written: 0 unless
    given."""
    boxes = {box: 0 for box in YatzyBox if box is not open_box}
    boxes.update({YatzyBox[name]: points for name, points in written.items()})
    return Scorecard.from_boxes(boxes, rules=Rules.SCANDINAVIAN)


def test_penta_chance_is_verhoeffs() -> None:
    assert penta_chance(3, 0) == pytest.approx(2_783_176 / 60_466_176, abs=1e-12)


@pytest.mark.parametrize("rules", ["standard", "scandinavian"])
def test_a_last_penta_against_a_finished_card(solved: Solved, rules: str) -> None:
    """Behind by 10 with the five-of-a-kind box left (Penta, Yatzy's Yatzy): only five of a
    kind wins."""
    strategy = solved(rules)
    if rules == "standard":
        mine, last = card(all_but(Box.PENTA, CHANCE=20)), Box.PENTA
        theirs = card(all_but(Box.ONES, CHANCE=30) | {Box.ONES: 0})
    else:
        mine, last = yatzy_card(YatzyBox.YATZY, CHANCE=20), YatzyBox.YATZY
        theirs = yatzy_card(None, CHANCE=30)
    assert theirs.is_complete
    assert theirs.total - mine.total == 10
    chances = turn_chances(strategy, mine, theirs)
    assert chances.start == pytest.approx(penta_chance(3, 0), abs=1e-9)
    # Two throws left after 6 6 6 2 3: keeping the three sixes is worth three-of-a-kind's chance.
    keeps = chances.keeps((6, 6, 6, 2, 3), 2)
    assert keeps[(6, 6, 6)] == pytest.approx(penta_chance(2, 3), abs=1e-9)
    assert max(keeps.values()) == keeps[(6, 6, 6)]
    assert chances.boxes((6, 6, 6, 6, 6), {last: 50}) == {last: 1.0}


def test_a_last_penta_against_a_last_ones_box(solved: Solved) -> None:
    # Ahead by 2, the Penta left; then the opponent's last box, Ones, which the optimal
    # player fills keeping every 1: each die is a 1 after three throws with 1 - (5/6)**3.
    strategy = solved("standard")
    mine = card(all_but(Box.PENTA, CHANCE=22))
    theirs = card(all_but(Box.ONES, CHANCE=20))
    assert mine.total - theirs.total == 2
    one = 1 - (5 / 6) ** 3
    law = {k: _binomial(5, k, one) for k in range(6)}
    beaten = law[0] + law[1] + 0.5 * law[2]  # their last box adds k points
    penta = penta_chance(3, 0)
    expected = penta + (1 - penta) * beaten
    assert turn_chances(strategy, mine, theirs).start == pytest.approx(expected, abs=1e-9)


def _binomial(n: int, k: int, p: float) -> float:
    from math import comb

    return comb(n, k) * p**k * (1 - p) ** (n - k)


@pytest.mark.parametrize("rules", ["standard", "scandinavian"])
def test_the_last_rounds_laws_are_probabilities(solved: Solved, rules: str) -> None:
    strategy = solved(rules)
    index, law, tops = late_laws(strategy)
    assert law.min() >= 0.0
    assert law.sum(axis=1) == pytest.approx(1.0, abs=1e-9)
    value, _, _ = strategy.tables
    rows = index[index >= 0]
    means = law[rows] @ range(law.shape[1])
    assert means == pytest.approx(value[index >= 0], abs=1e-6)
    for row in range(0, len(law), 97):
        assert (law[row, tops[row] :] == 0).all()


@cache
def straight_chance(throws_left: int, have: frozenset[int], faces: frozenset[int]) -> float:
    """The chance of a straight of ``faces`` with ``throws_left`` throws to come, the faces
    ``have`` kept (one die each): each throw of the others enumerated, every new face of
    the straight kept (keeping a die more never helps a straight of given faces)."""
    if have == faces:
        return 1.0
    if throws_left == 0:
        return 0.0
    rolls = list(product(range(1, 7), repeat=5 - len(have)))
    return sum(
        straight_chance(throws_left - 1, have | (faces & set(roll)), faces) for roll in rolls
    ) / len(rolls)


def test_a_last_small_straight_and_a_last_pair_on_yatzys_card(solved: Solved) -> None:
    """Boxes Yams has not: behind by 10, the small straight (1-2-3-4-5, 15 points) wins
    and nothing else does; behind by 11, the pair box wins with a pair of sixes alone (12),
    which keeping every six makes of each die with 1 - (5/6)³."""
    strategy = solved("scandinavian")
    finished = yatzy_card(None, CHANCE=30)
    mine = yatzy_card(YatzyBox.SMALL_STRAIGHT, CHANCE=20)
    small = straight_chance(3, frozenset(), frozenset(range(1, 6)))  # 0.19683
    assert turn_chances(strategy, mine, finished).start == pytest.approx(small, abs=1e-9)
    mine = yatzy_card(YatzyBox.ONE_PAIR, CHANCE=19)
    six = 1 - (5 / 6) ** 3
    two_sixes = 1 - _binomial(5, 0, six) - _binomial(5, 1, six)
    assert turn_chances(strategy, mine, finished).start == pytest.approx(two_sixes, abs=1e-9)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_win_level_plays_whole_games_of_yatzy(solved: Solved, seed: int) -> None:
    solved("scandinavian")
    player = computer_player("yams", "win", "scandinavian")
    assert isinstance(player, WinPlayer)
    expert = computer_player("yams", "expert", "scandinavian")
    seats = (Seat("A", computer=True, level="win"), Seat("B", computer=True, level="expert"))
    state = YamsState.start(YamsSettings(seats, Rules.SCANDINAVIAN))
    dice = SeededDice(seed)
    while not state.is_over:
        state = state.apply(next_action(state, player if state.seat == 0 else expert, dice))
    assert all(final.is_complete for final in state.cards)
    assert state.round == 15
    assert state.winners


@pytest.mark.parametrize("seed", [1, 2])
def test_the_win_level_plays_whole_games(solved: Solved, seed: int) -> None:
    player = computer_player("yams", "win")
    assert isinstance(player, WinPlayer)
    expert = computer_player("yams", "expert")
    seats = (Seat("A", computer=True, level="win"), Seat("B", computer=True, level="expert"))
    state = YamsState.start(YamsSettings(seats))
    dice = SeededDice(seed)
    while not state.is_over:
        state = state.apply(next_action(state, player if state.seat == 0 else expert, dice))
    assert all(final.is_complete for final in state.cards)
    assert state.winners


def test_a_duel_counts_ties_half_and_swaps_seats(solved: Solved) -> None:
    strategy = solved("standard")
    same = duel(strategy, "optimal", "optimal", 200, 5)
    # The same strategy in both seats: the game after a swap has the same dice.
    assert same.win_rate()[0] == pytest.approx(
        (
            (same.finals[:, 0] > same.finals[:, 1]) + 0.5 * (same.finals[:, 0] == same.finals[:, 1])
        ).mean()
    )
    played = duel(strategy, "win", "optimal", 60, 5)
    rate, low, high = played.win_rate()
    assert 0.0 <= low <= rate <= high <= 1.0 + 1e-12
    shown = played.shown
    assert ((shown >= 0) & (shown <= 1)).all()
    with pytest.raises(ValueError, match="no Yams duel strategy"):
        duel(strategy, "win", "easy", 1)


def test_the_duel_command_prints_its_win_rate_last(solved: Solved) -> None:
    strategy = solved("standard")
    lines: list[str] = []
    argv = ["simulate", "yams", "--duel", "win", "optimal", "--games", "40", "--seed", "7"]
    assert main(argv, write=lambda line: lines.extend(line.split("\n"))) == 0
    found = LAST_LINE.fullmatch(lines[-1])
    assert found is not None
    assert found[4] == "40"
    rate, low, high = duel(strategy, "win", "optimal", 40, 7).win_rate()
    assert found.group(1, 2, 3) == (f"{rate:.4f}", f"{low:.4f}", f"{high:.4f}")


def test_the_coach_gives_each_option_its_chance_at_a_table_of_two(solved: Solved) -> None:
    strategy = solved("standard")
    calibration(strategy)  # a hint does not wait for it (nor the laws): worked out here first
    mine = card(all_but(Box.PENTA, CHANCE=22))
    theirs = card(all_but(Box.ONES, CHANCE=20))
    seats = (Seat("A"), Seat("B"))
    state = YamsState(YamsSettings(seats), cards=(mine, theirs)).apply(
        Throw(0, (), (6, 6, 6, 2, 3))
    )
    options = yams_options(strategy, state, chances=True)
    chances = turn_chances(strategy, mine, theirs)
    keeps = chances.keeps((6, 6, 6, 2, 3), 2)
    for option in options:
        if option["kind"] == "keep":
            assert option["win"] == keeps[tuple(option["faces"])]
        else:
            assert option["win"] == chances.boxes(state.dice, state.options)[Box[option["box"]]]
    # Writing 6 6 6 2 3 in the Penta box scores 0: then only their Ones decide.
    one = 1 - (5 / 6) ** 3
    written = next(o for o in options if o["kind"] == "box")
    assert written["win"] == pytest.approx(
        _binomial(5, 0, one) + _binomial(5, 1, one) + 0.5 * _binomial(5, 2, one), abs=1e-9
    )
    alone = YamsState(YamsSettings(seats[:1]), cards=(mine,)).apply(Throw(0, (), (6, 6, 6, 2, 3)))
    assert all("win" not in option for option in yams_options(strategy, alone, chances=True))


def test_a_logistic_fit_finds_the_law_that_drew_the_outcomes() -> None:
    """Outcomes drawn with the chance 1 / (1 + exp(-(1.3·x − 0.4))), ties (1/2) among them:
    the fit finds 1.3 and −0.4 (within four standard errors, about 0.006 and 0.005)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=200_000)
    chance = 1 / (1 + np.exp(-(1.3 * x - 0.4)))
    won = (rng.random(x.size) < chance).astype(np.float64)
    # A tie in place of a win and a loss drawn at the same x counts the same: half each.
    x = np.concatenate([x, [0.0, 0.0]])
    won = np.concatenate([won, [1.0, 0.0]])
    x_tied, won_tied = np.concatenate([x[:-2], [0.0, 0.0]]), np.concatenate([won[:-2], [0.5, 0.5]])
    a, b = logistic_fit(x, won)
    assert a == pytest.approx(1.3, abs=0.025)
    assert b == pytest.approx(-0.4, abs=0.02)
    assert logistic_fit(x_tied, won_tied) == pytest.approx((a, b), abs=1e-9)


def test_the_shown_chance_is_the_models_calibrated_for_its_round(solved: Solved) -> None:
    """The coach's chance is the model's through the round's calibration: increasing (the
    order of the options, so the play, unchanged), a certain outcome still certain, a box
    not allowed still -1, round 1 as round 2, the last round the model's own (exact
    there)."""
    strategy = solved("standard")
    rounds = calibration(strategy)
    assert rounds.shape == (13, 2)
    assert calibration(solved("scandinavian")).shape == (15, 2)  # a row for each round
    assert (rounds[:, 0] > 0).all()
    assert tuple(rounds[0]) == tuple(rounds[1])
    assert tuple(rounds[12]) == (1.0, 0.0)
    expert = computer_player("yams", "expert")
    seats = (Seat("A"), Seat("B"))
    state, dice = YamsState.start(YamsSettings(seats)), SeededDice(11)
    while state.round < 7:
        state = state.apply(next_action(state, expert, dice))
    state = state.apply(next_action(state, expert, dice))  # the first throw of round 7
    assert state.round == 7
    assert state.dice
    raw = turn_chances(strategy, state.card, state.cards[1])
    shown = shown_chances(strategy, state, 1)
    a, b = rounds[6]
    logit = np.log(raw.start / (1 - raw.start))
    assert shown.start == pytest.approx(1 / (1 + np.exp(-(a * logit + b))), abs=1e-12)
    for model, seen in ((raw.write, shown.write), *zip(raw.keep, shown.keep, strict=True)):
        allowed = model >= 0
        assert (seen[~allowed] == model[~allowed]).all()
        assert (np.argsort(model[allowed], kind="stable")
                == np.argsort(seen[allowed], kind="stable")).all()  # fmt: skip
        assert ((seen[allowed] > 0) & (seen[allowed] < 1)).all()
    last = calibrated(strategy, raw.write, 13)
    assert np.allclose(last, raw.write, atol=1e-12, rtol=0)
    certain = np.array([0.0, 1.0, -1.0])
    assert (calibrated(strategy, certain, 7) == certain).all()


def test_the_laws_and_the_calibration_are_readied_together(
    solved: Solved, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint's chances wait for both the laws and the calibration; readied in the
    background, both come, though the calibration alone was read from the cache (its
    laws then not read with it)."""
    import time

    from zar.ai import yams_win

    strategy = solved("standard")
    rounds = calibration(strategy)
    monkeypatch.setattr(yams_win, "_solved", {})
    monkeypatch.setattr(yams_win, "_calibrated", {strategy: rounds})
    monkeypatch.setattr(yams_win, "_started", set())
    assert not yams_win.laws_at_hand(strategy)
    deadline = time.monotonic() + 60
    while not yams_win.laws_at_hand(strategy) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert yams_win.laws_at_hand(strategy)
