"""The optimal 10 000 players: ``max-points`` and ``expert``.

- :class:`TurnStrategy` maximises a turn's expected points, whatever the scores.
- :class:`WinStrategy` maximises the chance of winning a two-player game (a tie counting
  1/2), the last round included, for one of the targets 5 000, 10 000 and 15 000. It is
  solved once (about 8 s for 10 000 on two cores) and kept in the cache (:mod:`zar.ai.cache`).
- :class:`MaxPointsPlayer` and :class:`ExpertPlayer` play them. At a table of three or
  more, the expert plays the two-player strategy against the leading opponent.

Each is solved for the game's house rules (:class:`~zar.farkle.rules.FarkleRules`), the
seeds' by default. Under a penalty for three lost turns in a row the chance of winning is
solved by sweeps (:mod:`zar.ai.farkle_penalty`: twenty minutes for ``facebook`` to 10 000),
each player's lost turns in a row part of the state; the expert and the coach read it only
once it is in the cache.

Scores are in points (multiples of 50). ``docs/strategy-10000.md`` has the figures.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from zar.ai import cache as table_cache
from zar.ai.farkle_chances import (
    UNIT,
    ChanceTables,
    bank_floors,
    bank_for_sure,
    chance_tables,
)
from zar.ai.farkle_penalty import LOST, LOW, PenaltyTables, penalty_turn, solve_penalty_game
from zar.ai.farkle_solver import (
    beaten_table,
    pair_bank_values,
    pair_cap,
    solve_game,
    stop_bounds,
    turn_values,
)
from zar.dice import outcomes
from zar.farkle.game import DICE, TARGETS, FarkleState, Phase
from zar.farkle.rules import SEED, FarkleRules
from zar.farkle.scoring import is_farkle, selections

__all__ = [
    "SOLVER_VERSION",
    "ExpertPlayer",
    "MaxPointsPlayer",
    "TurnStrategy",
    "WinStrategy",
    "reachable",
]

SOLVER_VERSION = 1  # part of the cache key: raise it when the tables change meaning
CACHE_NAME = "farkle-win"
REACH_ROWS = 40  # reachability is listed up to 2 000 points; every state past 350 is
PAIRS_KEPT = 64  # turns solved for the pairs of totals met lately, per strategy

Floats = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]
Sweeps = Callable[[int, float], None]
State = tuple[int, int, int, int]  # a turn's start: both totals (units), their lost in a row
Lost = tuple[int, int]  # the mover's lost turns in a row, the other's


# Refusing impossible states.


def _units(points: object, what: str) -> int:
    if type(points) is not int or points < 0 or points % UNIT:
        raise ValueError(f"{what} is a multiple of {UNIT} from 0 up, not {points!r}")
    return points // UNIT


def _dice(dice: object) -> int:
    if type(dice) is not int or not 1 <= dice <= DICE:
        raise ValueError(f"a throw has 1 to {DICE} dice, not {dice!r}")
    return dice


@cache
def _reachable_table(rules: FarkleRules) -> frozenset[tuple[int, int]]:
    """Every (turn units, dice to throw) some turn can reach, up to REACH_ROWS units."""
    moves: dict[int, set[tuple[int, int]]] = {}
    for n in range(1, DICE + 1):
        moves[n] = {
            (points // UNIT, n - len(chosen) or DICE)
            for faces, _ in outcomes(n)
            for chosen, points in selections(faces, rules).items()
        }
    seen = {(0, DICE)}
    todo = [(0, DICE)]
    while todo:
        t, n = todo.pop()
        for p, m in moves[n]:
            if t + p <= REACH_ROWS and (t + p, m) not in seen:
                seen.add((t + p, m))
                todo.append((t + p, m))
    return frozenset(seen)


def reachable(turn_points: int, dice: int, rules: FarkleRules = SEED) -> bool:
    """Whether a turn can hold ``turn_points`` with ``dice`` dice to throw (0 with six: its
    start) under ``rules``. Three dice left after 350 points cannot be: 3 dice never make 350.

    >>> reachable(350, 3), reachable(400, 3), reachable(50, 6)
    (False, True, False)
    """
    t, n = _units(turn_points, "turn points"), _dice(dice)
    return t > REACH_ROWS or (t, n) in _reachable_table(rules)


def _turn(turn_points: int, dice: int, rules: FarkleRules) -> tuple[int, int]:
    """(units, dice) of a turn that can be, or a ValueError saying why not."""
    if not reachable(turn_points, dice, rules):
        raise ValueError(f"no turn holds {turn_points} points with {dice} dice left to throw")
    return turn_points // UNIT, dice


def _throw(
    throw: Iterable[int], dice: int, rules: FarkleRules
) -> dict[tuple[int, ...], tuple[int, int]]:
    """Each legal selection of a scoring throw of ``dice`` dice: (units, dice left after)."""
    faces = tuple(throw)
    if len(faces) != dice:
        raise ValueError(f"the throw has {len(faces)} dice, not the {dice} in play")
    options = selections(faces, rules)
    if not options:
        raise ValueError(f"{faces} scores nothing: the turn is lost, nothing to set aside")
    return {k: (p // UNIT, dice - len(k) or DICE) for k, p in options.items()}


def _best(values: dict[tuple[int, ...], tuple[float, int, int]]) -> tuple[int, ...]:
    """The selection of highest value; ties: more points, then more dice left, then faces."""
    return max(values, key=lambda k: (*values[k], k))


# Maximising a turn's expected points.


class TurnStrategy:
    """The policy that maximises a turn's expected points (a lost turn scores 0) under
    ``rules``; with ``entering``, for a player not yet on the board (the rules' entry).

    ``value(t, n)`` = the best of banking t and throwing n dice, banking only from the
    rules' floor on. Past 18 600 points (the seeds' rules) the turn banks
    (:func:`~zar.ai.farkle_chances.bank_for_sure`: no throw can pay then).
    """

    def __init__(self, rules: FarkleRules = SEED, *, entering: bool = False) -> None:
        self.rules = rules
        self.tables = chance_tables(rules)
        self.floor = rules.bank_floor(0 if entering else UNIT) // UNIT
        self.cap = max(bank_for_sure(rules), self.floor)
        bank = np.arange(self.cap + self.tables.max_points, dtype=np.float64) * UNIT
        bank[: self.floor] = -np.inf  # the rules refuse a bank under the floor
        self._value, self._lose = turn_values(bank, self.cap, 0.0, self.tables)

    @staticmethod
    def load(rules: FarkleRules = SEED, *, entering: bool = False) -> TurnStrategy:
        """The strategy, one per rules (it takes milliseconds: nothing is cached on disk,
        but its compiled code, which another process may be compiling for this one: waited
        for)."""
        return _turn_for(rules, entering)

    @staticmethod
    def of(state: FarkleState) -> TurnStrategy:
        """The most points for the player to move in ``state``, under its game's rules: with
        the entry to reach while that player's banked total is 0 or below."""
        return _turn_for(state.settings.rules, state.totals[state.seat] <= 0)

    def points_per_turn(self) -> float:
        """The expected points of a turn from its start (606.98 under the seeds' rules)."""
        return float(self._value[0, DICE])

    def _state(self, t: int, n: int) -> float:
        return float(t * UNIT) if t >= self.cap else float(self._value[t, n])

    def value(self, turn_points: int, dice: int) -> float:
        """The expected points the turn ends with, holding ``turn_points`` (set aside) with
        ``dice`` to throw, playing on at best; (0, 6) is the turn's start."""
        return self._state(*_turn(turn_points, dice, self.rules))

    def banks(self, turn_points: int, dice: int) -> bool:
        """Whether banking is best, holding ``turn_points`` > 0 with ``dice`` to throw
        (never under the rules' floor: the turn throws on)."""
        t, n = _turn(turn_points, dice, self.rules)
        if t == 0:
            raise ValueError("nothing to bank at the start of a turn")
        # A throw always risks the turn: the chance of losing it is 0 only when banking.
        return t >= self.cap or bool(self._lose[t, n] == 0.0)

    def selection_values(
        self, turn_points: int, throw: Iterable[int]
    ) -> dict[tuple[int, ...], float]:
        """For each legal selection of the scoring ``throw`` (the dice in play, thrown with
        ``turn_points`` in the turn), the expected points the turn ends with after it."""
        t = _units(turn_points, "turn points")
        faces = tuple(throw)
        _turn(turn_points, len(faces) if faces else 0, self.rules)
        moves = _throw(faces, len(faces), self.rules)
        return {k: self._state(t + p, m) for k, (p, m) in moves.items()}


@cache
def _turn_for(rules: FarkleRules, entering: bool) -> TurnStrategy:
    from zar.ai.ahead import FARKLE_TURN, ahead

    ahead.wait(FARKLE_TURN)
    return TurnStrategy(rules, entering=entering)


# Maximising the chance of winning.


class WinStrategy:
    """The two-player strategy that maximises the chance of winning (a tie counts 1/2).

    W(a, b) is the chance of the player about to throw with ``a`` banked against ``b``.
    When a bank reaches the target, the other player has one last turn to pass it (or,
    when the rules have no last round, the bank wins at once).
    """

    def __init__(
        self,
        target: int,
        win: Floats,
        need: Floats,
        rules: FarkleRules = SEED,
        short: Floats | None = None,
    ) -> None:
        if target not in TARGETS:
            raise ValueError(f"the target is 5 000, 10 000 or 15 000, not {target!r}")
        units = target // UNIT
        # Under a penalty for three lost turns in a row a total may fall to LOW units, and
        # each player's lost turns in a row (0 to 2) are part of the state.
        self.low = LOW if rules.three_lost else 0
        self.bound = self.low * UNIT  # the lowest total the table holds, in points
        shape = (units - self.low,) * 2 + ((LOST, LOST) if rules.three_lost else ())
        self.floors = bank_floors(rules)
        minimum = int(self.floors[0])
        if short is None:
            short = np.zeros((minimum, minimum, DICE + 1))
        if (
            win.shape != shape
            or need.ndim != 2
            or need.shape[1] != DICE + 1
            or short.shape != (minimum, minimum, DICE + 1)
        ):
            raise ValueError(f"these tables are not those of the target {target}")
        self.target = target
        self.rules = rules
        self.tables: ChanceTables = chance_tables(rules)
        self._units = units
        self._win = win
        self._need = need
        self._short = short
        self._beaten = beaten_table(need, short)
        self._stop = stop_bounds(self._beaten, self.tables)
        self._penalty = (
            PenaltyTables(units, self.low, win, need, short, self._stop, ())
            if rules.three_lost
            else None
        )
        self._pairs: OrderedDict[State, tuple[int, Floats, Floats, Floats]] = OrderedDict()

    @staticmethod
    def cache_key(target: int, rules: FarkleRules = SEED) -> dict[str, object]:
        key: dict[str, object] = {"game": "10000", "target": target, "solver": SOLVER_VERSION}
        if rules != SEED:  # the seeds' tables keep the key they always had
            key["rules"] = {"name": rules.name, **rules.as_dict()}
        if rules.three_lost:
            key["low"] = LOW * UNIT
        return key

    @classmethod
    def build(
        cls,
        target: int = 10_000,
        *,
        rules: FarkleRules = SEED,
        progress: Progress | None = None,
        sweeps: Sweeps | None = None,
    ) -> WinStrategy:
        """Solve the game for ``target`` under ``rules`` (no cache). Under a penalty for
        three lost turns in a row the solve is by sweeps, each reported to ``sweeps(sweep,
        largest change)``; else ``progress(done, total)`` follows the pairs solved."""
        if target not in TARGETS:
            raise ValueError(f"the target is 5 000, 10 000 or 15 000, not {target!r}")
        if rules.three_lost:
            penalty = solve_penalty_game(target // UNIT, rules, low=LOW, progress=sweeps)
            return cls(target, penalty.win, penalty.need, rules, penalty.short)
        game = solve_game(target // UNIT, rules=rules, progress=progress)
        return cls(target, game.win, game.need, rules, game.short)

    @classmethod
    def load(
        cls,
        target: int = 10_000,
        *,
        rules: FarkleRules = SEED,
        rebuild: bool = False,
        progress: Progress | None = None,
        sweeps: Sweeps | None = None,
    ) -> WinStrategy:
        """The strategy for ``target`` under ``rules``, from the cache or built (and stored)
        when the cache has none, a damaged one or one of another solver version, or
        ``rebuild`` is set (``progress`` and ``sweeps``: :meth:`build`'s)."""
        if target not in TARGETS:
            raise ValueError(f"the target is 5 000, 10 000 or 15 000, not {target!r}")
        if not rebuild:  # another process making it ready: read once done
            from zar.ai.ahead import ahead, table_of_two

            ahead.wait(table_of_two(target, rules.name))
        with _loading:  # a server's threads wait for one build rather than each making one
            return cls._load(target, rules, rebuild=rebuild, progress=progress, sweeps=sweeps)

    @classmethod
    def at_hand(cls, target: int, rules: FarkleRules = SEED) -> bool:
        """Whether a game may ask for the table of ``target`` under ``rules`` now: under no
        penalty for three lost turns in a row always (built in seconds when missing); under
        one, once it is in the cache (tens of minutes to build, which no game waits for:
        ``zar serve`` builds it in the background, ``zar solve 10000 --rules NAME`` for an
        operator). Until then a game's expert, coach and review play and judge in points."""
        return not rules.three_lost or cls.cached(target, rules)

    @classmethod
    def cached(cls, target: int, rules: FarkleRules = SEED) -> bool:
        """Whether the strategy is loaded or its table is in the cache (then read, once)."""
        key = cls.cache_key(target, rules)
        if (target, rules) in _loaded or not table_cache.cache_path(CACHE_NAME, key).exists():
            return (target, rules) in _loaded
        with _loading:
            return cls._read(target, rules) is not None

    @classmethod
    def _read(cls, target: int, rules: FarkleRules) -> WinStrategy | None:
        """The strategy loaded or read from the cache (and kept), else None."""
        if (target, rules) in _loaded:
            return _loaded[target, rules]
        arrays = table_cache.load(CACHE_NAME, cls.cache_key(target, rules))
        if arrays is None:
            return None
        try:
            win = np.asarray(arrays["win"], dtype=np.float64)
            need = np.asarray(arrays["need"], dtype=np.float64)
            stored = arrays.get("short")  # none under no bank minimum
            short = None if stored is None else np.asarray(stored, dtype=np.float64)
            strategy = cls(target, win, need, rules, short)
        except (KeyError, ValueError):
            return None
        _loaded[target, rules] = strategy
        return strategy

    @classmethod
    def _load(
        cls,
        target: int,
        rules: FarkleRules,
        *,
        rebuild: bool,
        progress: Progress | None,
        sweeps: Sweeps | None = None,
    ) -> WinStrategy:
        if not rebuild and (strategy := cls._read(target, rules)) is not None:
            return strategy
        # One process at a time on this cache builds it (a server's workers, its process of
        # tables, `zar solve`): another waits, then reads what the first stored.
        with table_cache.building(CACHE_NAME, cls.cache_key(target, rules)):
            if not rebuild and (strategy := cls._read(target, rules)) is not None:
                return strategy
            strategy = cls.build(target, rules=rules, progress=progress, sweeps=sweeps)
            arrays = {"win": strategy._win, "need": strategy._need}
            if strategy._short.size:
                arrays["short"] = strategy._short
            table_cache.store(CACHE_NAME, cls.cache_key(target, rules), arrays)
        _loaded[target, rules] = strategy
        return strategy

    # The scores.

    def _totals(self, own: int, other: int, lost: Lost) -> State:
        """(a, b, c, d): the totals in units and, under a penalty for three lost turns in a
        row, each one's lost turns in a row (else 0: they change nothing)."""
        a, b = (self._total(x) for x in (own, other))
        if a >= self._units:
            raise ValueError(
                f"{own} has reached the target {self.target}: that player has no turn left"
            )
        if b >= self._units and not self.rules.last_round:
            raise ValueError(f"{other} has reached the target {self.target}: the game is over")
        if any(type(c) is not int or not 0 <= c < LOST for c in lost) or len(lost) != 2:
            raise ValueError(f"lost turns in a row are two counts from 0 to 2, not {lost!r}")
        c, d = lost if self.rules.three_lost else (0, 0)
        return a, b, c, d

    def _total(self, points: int) -> int:
        if not self.low:
            return _units(points, "a banked total")
        if type(points) is not int or points % UNIT or points < self.low * UNIT:
            raise ValueError(
                f"a banked total is a multiple of {UNIT} from {self.low * UNIT} up, not {points!r}"
            )
        return points // UNIT

    def _floor(self, a: int) -> int:
        return int(self.floors[1] if a <= 0 else self.floors[0])

    def _at(self, a: int, b: int, c: int, d: int) -> float:
        if self.rules.three_lost:
            return float(self._win[a - self.low, b - self.low, c, d])
        return float(self._win[a, b])

    def seats(self, state: FarkleState) -> tuple[int, int, Lost]:
        """What the strategy reads of a game of two or more: the banked totals of the player
        to move and of the leading other (the first such seat), each read at the table's
        bound when under it (-2 500 after five penalties), and their lost turns in a row."""
        others = [seat for seat in range(len(state.totals)) if seat != state.seat]
        leader = max(others, key=lambda seat: state.totals[seat])
        own, other = (max(state.totals[seat], self.bound) for seat in (state.seat, leader))
        in_row = state.lost_in_row or (0,) * len(state.totals)
        return own, other, (in_row[state.seat], in_row[leader])

    def first_player_wins(self) -> float:
        """The chance that the first to play wins (ties counting 1/2), both playing at best."""
        return self._at(0, 0, 0, 0)

    def win_chance(self, own: int, other: int, lost: Lost = (0, 0)) -> float:
        """W: the chance of the player about to start a turn with ``own`` banked against
        ``other`` (from the target on: the other started the last round), ``lost`` their
        lost turns in a row (under a penalty for the third)."""
        a, b, c, d = self._totals(own, other, lost)
        if b >= self._units:
            return self._last(b - a, 0, DICE)
        return self._at(a, b, c, d)

    def lost_turn_chance(self, own: int, other: int, lost: Lost = (0, 0)) -> float:
        """The chance of the player at ``own`` against ``other`` once its turn is lost: the
        other's turn with the totals unchanged, or after its third lost turn in a row (under
        a penalty) its total less the penalty (stopping at the table's bound)."""
        a, b, c, d = self._totals(own, other, lost)
        if b >= self._units:
            return 0.0  # a lost last turn: the other has won
        if self.rules.three_lost and c == LOST - 1:
            return 1.0 - self._at(b, max(a - self.rules.three_lost // UNIT, self.low), d, 0)
        return 1.0 - self._at(b, a, d, c + 1 if self.rules.three_lost else 0)

    def last_turn_chance(self, behind: int) -> float:
        """The chance that a last turn passes a total ``behind`` points ahead (50 or more),
        a tie counting 1/2."""
        d = _units(behind, "the lead to pass")
        if d == 0:
            raise ValueError("a last turn starts behind the total that reached the target")
        return self._last(d, 0, DICE)

    def _last(self, d: int, t: int, n: int) -> float:
        # The last turn, d units behind, holding t units with n dice to throw.
        if d < self._short.shape[0] and t < self._short.shape[0]:
            return float(self._short[d, t, n])  # passing is not enough: the minimum too
        r = d - t
        if r < 0:
            return 1.0
        throw = float(self._need[r, n]) if r < self._need.shape[0] else 0.0
        return max(0.5, throw) if r == 0 and t > 0 else throw

    def _pair(self, state: State) -> tuple[int, Floats, Floats, Floats]:
        """The turn of the player at ``state``, both below the target: cap, bank, value,
        lose."""
        found = self._pairs.get(state)
        if found is None:
            a, b, _, _ = state
            if self._penalty is not None:
                cap, lost, bank = penalty_turn(state, self._penalty, self.rules, self.tables)
            else:
                other = float(self._win[b, a])
                cap = pair_cap(a, b, self._units, other, self._stop, self.floors)
                bank = pair_bank_values(
                    a, b, self._units, cap, self._win, self._beaten, self.floors, self.tables
                )
                lost = 1.0 - other
            value, lose = turn_values(bank, cap, lost, self.tables)
            found = (cap, bank, value, lose)
            self._pairs[state] = found
            if len(self._pairs) > PAIRS_KEPT:
                self._pairs.popitem(last=False)
        else:
            self._pairs.move_to_end(state)
        return found

    def _state(self, state: State, t: int, n: int) -> float:
        a, b, _, _ = state
        if b >= self._units:
            return self._last(b - a, t, n)
        cap, _, value, _ = self._pair(state)
        if t < cap:
            return float(value[t, n])
        # Past the cap (past the target too), the player banks: the other's last turn.
        lead = a + t - b
        return 1.0 - (float(self._beaten[lead]) if lead < self._beaten.shape[0] else 0.0)

    def turn_value(
        self, own: int, other: int, turn_points: int, dice: int, lost: Lost = (0, 0)
    ) -> float:
        """The chance of winning holding ``turn_points`` (set aside) with ``dice`` to throw,
        then playing at best; (0, 6) is the turn's start."""
        state = self._totals(own, other, lost)
        t, n = _turn(turn_points, dice, self.rules)
        return self._state(state, t, n)

    def banks(self, own: int, other: int, turn_points: int, dice: int, lost: Lost = (0, 0)) -> bool:
        """Whether banking is best, holding ``turn_points`` > 0 with ``dice`` to throw
        (never under the rules' floor: the turn throws on)."""
        state = self._totals(own, other, lost)
        a, b, _, _ = state
        t, n = _turn(turn_points, dice, self.rules)
        if t == 0:
            raise ValueError("nothing to bank at the start of a turn")
        if t < self._floor(a):
            return False
        if b >= self._units:
            r = b - a - t
            need = float(self._need[r, n]) if 0 <= r < self._need.shape[0] else 0.0
            return r < 0 or (r == 0 and need <= 0.5)
        cap, _, _, lose = self._pair(state)
        # A throw always risks the turn: the chance of losing it is 0 only when banking.
        return t >= cap or bool(lose[t, n] == 0.0)

    def selection_values(
        self,
        own: int,
        other: int,
        turn_points: int,
        throw: Iterable[int],
        lost: Lost = (0, 0),
    ) -> dict[tuple[int, ...], float]:
        """For each legal selection of the scoring ``throw`` (the dice in play, thrown with
        ``turn_points`` in the turn), the chance of winning after setting it aside."""
        state = self._totals(own, other, lost)
        faces = tuple(throw)
        t, _ = _turn(turn_points, len(faces) if faces else 0, self.rules)
        moves = _throw(faces, len(faces), self.rules)
        return {k: self._state(state, t + p, m) for k, (p, m) in moves.items()}


_loaded: dict[tuple[int, FarkleRules], WinStrategy] = {}
_loading = threading.Lock()


# The players.


def _positions(state: FarkleState, chosen: tuple[int, ...]) -> tuple[int, ...]:
    """The lowest tray positions in play showing the chosen faces."""
    free = [p for p in range(DICE) if not state.aside[p] and state.tray[p] is not None]
    positions: list[int] = []
    for face in chosen:
        positions.append(next(p for p in free if state.tray[p] == face and p not in positions))
    return tuple(sorted(positions))


def _thrown(state: FarkleState) -> tuple[int, ...]:
    if state.phase is not Phase.SET_ASIDE or is_farkle(state.throw, state.settings.rules):
        raise ValueError("the computer sets dice aside only after a scoring throw")
    return state.throw


def _may_bank(state: FarkleState) -> bool:
    """Whether the rules let the player bank now (not under their entry or minimum)."""
    if state.phase is not Phase.THROW or not state.turn_points:
        raise ValueError("the computer decides to bank only after setting dice aside")
    return state.can_bank


@dataclass(frozen=True, slots=True)
class MaxPointsPlayer:
    """The ``max-points`` level: every turn for the most points it can expect, whatever the
    scores (the last round included), under the game's house rules."""

    def set_aside(self, state: FarkleState) -> tuple[int, ...]:
        faces = _thrown(state)
        values = TurnStrategy.of(state).selection_values(state.turn_points, faces)
        moves = _throw(faces, len(faces), state.settings.rules)
        return _positions(state, _best({k: (v, *moves[k]) for k, v in values.items()}))

    def banks(self, state: FarkleState) -> bool:
        if not _may_bank(state):
            return False
        return TurnStrategy.of(state).banks(state.turn_points, state.dice_in_play)


@dataclass(frozen=True, slots=True)
class ExpertPlayer:
    """The ``expert`` level: the two-player strategy that maximises the chance of winning,
    against the leading opponent when there are more. Alone at the table it plays for the
    most points and banks as soon as it reaches the target; so it does under a penalty for
    three lost turns in a row until that game's table is in the cache (tens of minutes to
    build: a game never waits for it; ``zar serve`` builds it in the background, ``zar solve
    10000 --rules NAME`` for an operator)."""

    def _scores(self, state: FarkleState) -> tuple[WinStrategy, int, int, Lost] | None:
        rules = state.settings.rules
        target = state.settings.target
        if len(state.totals) < 2 or not WinStrategy.at_hand(target, rules):  # alone, or not yet
            return None
        strategy = WinStrategy.load(target, rules=rules)
        return strategy, *strategy.seats(state)

    def set_aside(self, state: FarkleState) -> tuple[int, ...]:
        faces = _thrown(state)
        scores = self._scores(state)
        if scores is None:
            return MaxPointsPlayer().set_aside(state)
        strategy, own, other, lost = scores
        values = strategy.selection_values(own, other, state.turn_points, faces, lost)
        moves = _throw(faces, len(faces), state.settings.rules)
        return _positions(state, _best({k: (v, *moves[k]) for k, v in values.items()}))

    def banks(self, state: FarkleState) -> bool:
        if not _may_bank(state):
            return False
        scores = self._scores(state)
        if scores is None:
            own = state.totals[state.seat]
            return own + state.turn_points >= state.settings.target or MaxPointsPlayer().banks(
                state
            )
        strategy, own, other, lost = scores
        return strategy.banks(own, other, state.turn_points, state.dice_in_play, lost)
