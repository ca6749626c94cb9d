"""How a decision is judged: the options of a state, best first, with their values in the
game's unit, and what the option chosen cost against the best. The coach's hint
(:mod:`zar.ai.coach`), the review (:mod:`zar.ai.review`) and the account of luck and skill
(:mod:`zar.ai.luck`) all read the values here.

Everything is read from the optimal strategies: Yams from :class:`~zar.ai.yams.Strategy`
(expected final scores, solitaire), 10 000 from :class:`~zar.ai.farkle.TurnStrategy`
(the points a turn ends with) and, against one opponent, :class:`~zar.ai.farkle.WinStrategy`
(the chance of winning). Options are plain JSON values, best first.

What a decision is judged by (its ``model``): in Yams, and in 10 000 alone, the expected
points (of the final score; of the turn); in 10 000 for two, the exact chance of winning
(:class:`~zar.ai.farkle.WinStrategy`); at a 10 000 table of three or more, the same exact
two-player chance read against the leading opponent (the best other total, as the expert
plays there): no measure in points, which calls banking a turn that wins the game a loss.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, assert_never

from zar import farkle, yams
from zar.dice import outcomes
from zar.farkle import FarkleState, Phase
from zar.record import Record, State, Step
from zar.yams import AnyBox, Rules, YamsState

if TYPE_CHECKING:  # numpy and numba load with the strategies, not with a view's decision
    from zar.ai.farkle import TurnStrategy, WinStrategy
    from zar.ai.yams import Strategy

__all__ = [
    "EPSILON",
    "TOP",
    "Decision",
    "InChances",
    "Judged",
    "Model",
    "Option",
    "Strategies",
    "decision",
    "farkle_model",
    "farkle_options",
    "in_chances",
    "in_duel",
    "judged",
    "judged_in",
    "model_of",
    "option_chances",
    "option_key",
    "throw_value",
    "unit_of",
    "yams_options",
]

Model = Literal["points", "duel", "leader"]

Decision = Literal["keep", "box", "set_aside", "bank_or_throw", "throw"]
Option = dict[str, Any]

TOP = 3  # options a hint lists
EPSILON = 1e-9  # a cost below this is no cost: the values are sums of floats


class Strategies:
    """The strategies the coach reads, each loaded on first use (then shared)."""

    def __init__(self, yams_strategy: Strategy | None = None) -> None:
        self._yams: dict[Rules, Strategy] = {}
        if yams_strategy is not None:
            self._yams[yams_strategy.rules] = yams_strategy

    def yams(self, rules: Rules = Rules.STANDARD) -> Strategy:
        """The optimal Yams strategy of ``rules`` (a game's card's: ``state.settings.rules``)."""
        if rules not in self._yams:
            from zar.ai import computer_player
            from zar.ai.yams import OptimalPlayer

            player = computer_player("yams", "expert", rules.value)  # the process's one table
            assert isinstance(player, OptimalPlayer)
            self._yams[rules] = player.strategy
        return self._yams[rules]

    def turn(self, state: FarkleState | None = None) -> TurnStrategy:
        """The most points per turn under the game's house rules (the entry while the
        player to move has nothing banked)."""
        from zar.ai.farkle import TurnStrategy

        return TurnStrategy.load() if state is None else TurnStrategy.of(state)

    def win(self, state: FarkleState, *, leader: bool = False) -> WinStrategy | None:
        """The two-player strategy of the game's target, when exactly two play; with
        ``leader`` at any table of two or more too, read against the leading opponent (the
        best other total), as the expert plays there (:class:`~zar.ai.farkle.ExpertPlayer`)."""
        seats = len(state.totals)
        rules = state.settings.rules
        if seats < 2 or (seats > 2 and not leader):
            return None
        from zar.ai.farkle import WinStrategy

        target = state.settings.target
        if not WinStrategy.at_hand(target, rules):  # meanwhile the coach speaks in points
            return None
        return WinStrategy.load(target, rules=rules)  # built once


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
            return "bank_or_throw" if state.can_bank else "throw"  # short of the rules' floor
        case _:
            assert_never(state)


# Yams.


def _keep(dice: tuple[int, ...], kept: tuple[int, ...], expected: float) -> Option:
    from zar.ai.yams import kept_positions  # loaded with the strategy that valued the keep

    return {
        "kind": "keep",
        "keep": list(kept_positions(dice, kept)),
        "faces": list(kept),
        "expected": expected,
    }


def _box(box: AnyBox, points: int, expected: float) -> Option:
    return {"kind": "box", "box": box.name, "points": points, "expected": expected}


def _yams_values(
    strategy: Strategy, state: YamsState
) -> tuple[dict[tuple[int, ...], float], dict[AnyBox, float]]:
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
    last rounds of the game's rules are at hand, :func:`zar.ai.yams_win.laws_at_hand`)."""
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
    if chances and in_duel(state):
        from zar.ai.yams_win import laws_at_hand  # numba, with the strategy

        if laws_at_hand(strategy):  # else ready for a later hint: a request does not wait
            _add_chances(strategy, state, chosen)
    return chosen


def in_duel(state: YamsState) -> bool:
    """Whether a Yams game's decisions are read in chance of winning too: a game of two."""
    return len(state.cards) == 2


def _add_chances(strategy: Strategy, state: YamsState, options: list[Option]) -> None:
    """Each option's chance of winning against the other card (:mod:`zar.ai.yams_win`)."""
    chances = option_chances(strategy, state)
    for option in options:
        option["win"] = chances[option_key(option)]


def option_chances(strategy: Strategy, state: YamsState) -> dict[str | tuple[int, ...], float]:
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


def option_key(option: Option) -> str | tuple[int, ...]:
    """A Yams option's box name, or the faces it keeps."""
    return str(option["box"]) if option["kind"] == "box" else tuple(option["faces"])


# 10 000.


@cache
def _throws(
    n: int, rules: farkle.FarkleRules
) -> tuple[tuple[float, tuple[tuple[int, int], ...]], ...]:
    """Each distinct set of moves a scoring throw of ``n`` dice allows, with its chance:
    (points set aside, dice left to throw after, six after hot dice)."""
    chance: dict[tuple[tuple[int, int], ...], float] = {}
    for faces, p in outcomes(n):
        options = farkle.selections(faces, rules).items()
        moves = tuple(sorted({(points, n - len(k) or farkle.DICE) for k, points in options}))
        if moves:
            chance[moves] = chance.get(moves, 0.0) + float(p)
    return tuple((p, moves) for moves, p in chance.items())


def throw_value(
    n: int,
    lost: float,
    value: Callable[[int, int], float],
    rules: farkle.FarkleRules = farkle.SEED,
) -> float:
    """The value of throwing ``n`` dice: ``lost`` when the throw scores nothing, else the
    best ``value(points set aside, dice left)`` of its set-asides under ``rules``, weighed
    by chance."""
    seen: dict[tuple[int, int], float] = {}

    def worth(move: tuple[int, int]) -> float:
        if move not in seen:
            seen[move] = value(*move)
        return seen[move]

    total = float(farkle.farkle_probability(n, rules)) * lost
    for p, moves in _throws(n, rules):
        total += p * max(worth(move) for move in moves)
    return total


@dataclass(frozen=True, slots=True)
class _Turn:
    """The values of the choices of a 10 000 turn: in points, and in chance of winning when
    ``win`` is given (against the leading opponent at a table of three or more)."""

    state: FarkleState
    turn: TurnStrategy
    win: WinStrategy | None

    def bank(self) -> tuple[float, float | None]:
        t = self.state.turn_points
        if self.win is None:
            return float(t), None
        own, other, lost = self.win.seats(self.state)
        if other >= self.state.settings.target:  # the last turn: pass the leader or lose
            return float(t), 1.0 if own + t > other else 0.5 if own + t == other else 0.0
        if own + t >= self.state.settings.target and not self.state.settings.rules.last_round:
            return float(t), 1.0  # the first to the target wins
        return float(t), 1.0 - self.win.win_chance(other, own + t, (lost[1], 0))

    def throw(self) -> tuple[float, float | None]:
        t, n = self.state.turn_points, self.state.dice_in_play
        rules = self.state.settings.rules
        expected = throw_value(n, 0.0, lambda p, m: self.turn.value(t + p, m), rules)
        if self.win is None:
            return expected, None
        win = self.win
        own, other, lost = win.seats(self.state)
        after = win.lost_turn_chance(own, other, lost)
        chance = throw_value(
            n, after, lambda p, m: win.turn_value(own, other, t + p, m, lost), rules
        )
        return expected, chance

    def selections(
        self,
    ) -> dict[tuple[int, ...], tuple[int, float, float | None]]:
        """Each legal set-aside of the throw: its points, expected points, chance of winning."""
        t, faces = self.state.turn_points, self.state.throw
        points = farkle.selections(faces, self.state.settings.rules)
        expected = self.turn.selection_values(t, faces)
        win = None
        if self.win is not None:
            own, other, lost = self.win.seats(self.state)
            win = self.win.selection_values(own, other, t, faces, lost)
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


# What a decision is judged by, and what it cost.


def model_of(record: Record) -> Model:
    """What the review judges a decision by: ``points`` (Yams, 10 000 alone, or while its
    chance of winning cannot be read yet: :meth:`~zar.ai.farkle.WinStrategy.at_hand`),
    ``duel`` (the exact chance of winning of 10 000 for two), ``leader`` (10 000 of three or
    more: the exact two-player chance against the leading opponent)."""
    start = record.start
    return farkle_model(start) if isinstance(start, FarkleState) else "points"


def farkle_model(state: FarkleState) -> Model:
    """What a 10 000 game is judged by (:func:`model_of`), from any of its states."""
    seats = len(state.totals)
    if seats < 2:
        return "points"
    from zar.ai.farkle import WinStrategy

    if not WinStrategy.at_hand(state.settings.target, state.settings.rules):
        return "points"
    return "duel" if seats == 2 else "leader"


def judged_in(record: Record) -> Literal["win", "points"]:
    """The unit of the review's costs: the chance of winning at a 10 000 table of two or
    more, else points."""
    return "points" if model_of(record) == "points" else "win"


def unit_of(record: Record) -> Literal["win", "points"]:
    """The unit of a game's account of luck and skill (:mod:`zar.ai.luck`): the chance of
    winning at a two-player 10 000 table (where it can be read), else points (Yams: of the
    final score; 10 000: of the turn; with more seats each seat's points, which add up
    exactly)."""
    return "win" if model_of(record) == "duel" else "points"


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision of a game: what was chosen, what was best, what it cost."""

    step: Step
    chosen: Option
    best: Option
    cost: float


def _value(option: Option, unit: str) -> float:
    value: float = option["win"] if unit == "win" else option["expected"]
    return value


def _judge_yams(strategy: Strategy, step: Step) -> Judged | None:
    before, move = step.before, step.move
    if not isinstance(before, YamsState) or not before.dice:
        return None
    options = yams_options(strategy, before)
    best = options[0]
    match move:
        case yams.Throw():
            kept = tuple(sorted(before.dice[p] for p in move.keep))
            if len(kept) == yams.DICE:
                # All five kept and no die thrown: a throw spent; worth the state after.
                after = step.after
                assert isinstance(after, YamsState)
                expected = yams_options(strategy, after)[0]["expected"]
            else:
                expected = strategy.keep_values(before.card, before.dice, before.throws_left)[kept]
            chosen = {"kind": "keep", "keep": list(move.keep), "faces": list(kept),
                      "expected": expected}  # fmt: skip
        case yams.Fill():
            values = strategy.box_values(before.card, before.dice)
            chosen = _box(move.box, before.options[move.box], values[move.box])
        case _:
            return None
    return Judged(step, chosen, best, max(0.0, best["expected"] - chosen["expected"]))


def _judge_farkle(strategies: Strategies, step: Step, unit: str) -> Judged | None:
    before, move = step.before, step.move
    if not isinstance(before, FarkleState):
        return None
    win = strategies.win(before, leader=unit == "win")
    values = _Turn(before, strategies.turn(before), win)
    match move:
        case farkle.SetAside() if before.phase is Phase.SET_ASIDE:
            ranked = _ranked_selections(values)
            faces = tuple(sorted(before.tray[p] or 0 for p in move.positions))
            chosen = dict(next(option for k, option in ranked if k == faces))
            chosen["positions"] = sorted(move.positions)
            best = ranked[0][1]
        case farkle.Bank() | farkle.Throw() if before.can_bank:  # else a throw is forced
            options = _bank_or_throw(values)
            kind = "bank" if isinstance(move, farkle.Bank) else "throw"
            chosen = next(option for option in options if option["kind"] == kind)
            best = options[0]
        case _:
            return None
    return Judged(step, chosen, best, max(0.0, _value(best, unit) - _value(chosen, unit)))


@dataclass(frozen=True, slots=True)
class InChances:
    """A Yams decision at a table of two, read in chance of winning."""

    chosen: float  # the chosen option's chance
    best: float  # the score-optimal option's
    cost: float  # the best chance any option gave, minus the chosen one's


def in_chances(strategy: Strategy, decisions: Iterable[Judged]) -> dict[int, InChances]:
    """Each decision of a Yams game of two (by its version) in chance of winning, as the
    coach shows it (:func:`option_chances`; the laws of the last rounds and the
    calibration read or worked out first: the review waits for them, in a worker thread)."""
    found = {}
    for decided in decisions:
        before = decided.step.before
        assert isinstance(before, YamsState)
        chances = option_chances(strategy, before)
        chosen, best = (chances[option_key(o)] for o in (decided.chosen, decided.best))
        found[decided.step.version] = InChances(
            chosen, best, max(0.0, max(chances.values()) - chosen)
        )
    return found


def judged(
    record: Record,
    strategies: Strategies,
    *,
    computers: bool = False,
    unit: Literal["win", "points"] | None = None,
) -> Iterator[Judged]:
    """Every decision of the people at the table (``computers``: of every seat), with its
    cost in ``unit`` (by default the account's, :func:`unit_of`), undone moves excepted."""
    counted = unit_of(record) if unit is None else unit
    for step in record.steps():
        if record.seats[step.move.seat].computer and not computers:
            continue
        if isinstance(step.before, YamsState):
            found = _judge_yams(strategies.yams(step.before.settings.rules), step)
        else:
            found = _judge_farkle(strategies, step, counted)
        if found is not None:
            yield found
