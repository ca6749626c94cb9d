"""The flow of a game of 10 000: turns, throws, dice set aside, banking and the last round.

States are immutable; ``state.apply(action)`` returns the next one or raises
:class:`~zar.table.IllegalAction` (a ``ValueError``) and leaves ``state`` as it was.
The dice that fell are part of each :class:`Throw`: the engine never rolls.

>>> from zar.table import Seat
>>> state = FarkleState.start(FarkleSettings((Seat("Ali"),), target=5_000))
>>> state = state.apply(Throw(0, (1, 5, 3, 3, 6, 2)))
>>> state = state.apply(SetAside(0, (0, 1)))
>>> state.turn_points, state.dice_in_play
(150, 4)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import assert_never

from zar.dice import check_dice
from zar.farkle.rules import SEED, FarkleRules
from zar.farkle.scoring import is_farkle, score
from zar.table import IllegalAction, Seat, check_seats, replay, winners

__all__ = [
    "DICE",
    "TARGETS",
    "Bank",
    "Banked",
    "FarkleAction",
    "FarkleEvent",
    "FarkleSettings",
    "FarkleState",
    "GameOver",
    "HotDice",
    "LastRound",
    "Phase",
    "SetAside",
    "ThreeLost",
    "Throw",
    "TurnLost",
]

DICE = 6
TARGETS = (5_000, 10_000, 15_000)


@dataclass(frozen=True, slots=True)
class FarkleSettings:
    """Who plays, in seat order, the target that starts the last round (or wins, as the
    rules say) and the house rules (the seeds' by default)."""

    seats: tuple[Seat, ...]
    target: int = 10_000
    rules: FarkleRules = SEED

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", check_seats(self.seats))
        if type(self.target) is not int or self.target not in TARGETS:
            raise IllegalAction(
                f"the target is 5 000, 10 000 or 15 000, not {self.target!r}",
                reason="bad-target",
                target=self.target,
            )
        if not isinstance(self.rules, FarkleRules):
            raise ValueError(f"the house rules are a FarkleRules, not {self.rules!r}")


# Actions: what a player does, with the dice that fell.


@dataclass(frozen=True, slots=True)
class Throw:
    """``seat`` throws the dice in play; ``dice`` are the faces that fell, in tray order."""

    seat: int
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SetAside:
    """``seat`` sets aside the dice at these tray positions (0..5) from the throw just made."""

    seat: int
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Bank:
    """``seat`` banks the turn's points ("Kasaya yatır")."""

    seat: int


FarkleAction = Throw | SetAside | Bank


# Events: what an action caused, for front ends to show and announce.


@dataclass(frozen=True, slots=True)
class TurnLost:
    """The throw scored nothing: "Tour perdu !"; the turn's points are lost."""

    seat: int
    dice: tuple[int, ...]
    points: int

    @property
    def after_hot_dice(self) -> bool:
        """Whether the throw was of the six come back hot: six dice with points already won
        in the turn (a turn's first throw has none), so "Dés chauds !" came just before."""
        return len(self.dice) == DICE and self.points > 0


@dataclass(frozen=True, slots=True)
class ThreeLost:
    """The third lost turn in a row of ``seat``: the rules take ``points`` from its total."""

    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class HotDice:
    """All six dice are set aside: "Dés chauds !"; they come back, the points stay."""

    seat: int


@dataclass(frozen=True, slots=True)
class Banked:
    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class LastRound:
    """``seat`` reached the target: "Dernier tour !", every other player plays once more."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameOver:
    winners: tuple[int, ...]


FarkleEvent = TurnLost | ThreeLost | HotDice | Banked | LastRound | GameOver


class Phase(enum.Enum):
    THROW = "throw"  # the player throws the dice in play (or banks, once something is set aside)
    SET_ASIDE = "set-aside"  # the throw scored: the player sets aside at least one scoring die
    OVER = "over"


@dataclass(frozen=True, slots=True)
class FarkleState:
    """Everything about a game of 10 000 at one moment."""

    settings: FarkleSettings
    totals: tuple[int, ...]
    seat: int = 0
    phase: Phase = Phase.THROW
    turn_points: int = 0
    # The tray: the face of each of the six dice, None before the turn's first throw.
    tray: tuple[int | None, ...] = (None,) * DICE
    # Which tray positions are set aside in this turn (all False again after hot dice).
    aside: tuple[bool, ...] = (False,) * DICE
    # The turn's dice set aside so far, one group (sorted faces, points) per throw.
    groups: tuple[tuple[tuple[int, ...], int], ...] = ()
    throws: int = 0  # throws made in this turn
    turns: tuple[int, ...] = ()  # turns each seat has finished
    last_round_by: int | None = None
    # Each seat's lost turns in a row since its last bank or penalty (0 to 2).
    lost_in_row: tuple[int, ...] = ()
    events: tuple[FarkleEvent, ...] = field(default=(), compare=False)

    @classmethod
    def start(cls, settings: FarkleSettings) -> FarkleState:
        n = len(settings.seats)
        return cls(settings, totals=(0,) * n, turns=(0,) * n, lost_in_row=(0,) * n)

    @classmethod
    def replay(cls, settings: FarkleSettings, log: Iterable[FarkleAction]) -> FarkleState:
        return replay(cls.start(settings), log)

    # What the state says.

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def dice_in_play(self) -> int:
        """How many dice the next throw uses (six at the start of a turn and after hot dice)."""
        return self.aside.count(False)

    @property
    def throw(self) -> tuple[int, ...]:
        """The faces of the throw to set dice aside from (empty unless the phase is SET_ASIDE)."""
        if self.phase is not Phase.SET_ASIDE:
            return ()
        return tuple(f for f, a in zip(self.tray, self.aside, strict=True) if f and not a)

    @property
    def hot_dice(self) -> bool:
        """Whether the dice in play came back after hot dice in this turn, none set aside
        since: "Dés chauds !" holds from the set-aside of the last die until the next one
        (whether the six are thrown in the same intention or not)."""
        return bool(self.groups) and not any(self.aside) and not self.is_over

    @property
    def bank_floor(self) -> int:
        """The fewest turn points the player to move may bank: the bank minimum, or the
        entry while the player's total is 0 (0: any points)."""
        return self.settings.rules.bank_floor(self.totals[self.seat])

    @property
    def bank_needs(self) -> int:
        """The turn points still missing before the player may bank (0 when the points held
        are enough), for a front end to say why banking waits."""
        return max(0, self.bank_floor - self.turn_points)

    @property
    def can_bank(self) -> bool:
        return self.phase is Phase.THROW and self.turn_points > 0 and self.bank_needs == 0

    @property
    def winners(self) -> tuple[int, ...]:
        return winners(self.totals) if self.is_over else ()

    # Moving on.

    def apply(self, action: FarkleAction) -> FarkleState:
        """The state after ``action``; a refused action raises :class:`IllegalAction`."""
        if self.is_over:
            raise IllegalAction("the game is over", reason="game-over")
        if not 0 <= action.seat < len(self.totals) or action.seat != self.seat:
            raise IllegalAction(
                f"it is {self.settings.seats[self.seat].name}'s turn",
                reason="not-your-turn",
                player=self.settings.seats[self.seat].name,
            )
        match action:
            case Throw():
                return self._throw(action.dice)
            case SetAside():
                return self._set_aside(action.positions)
            case Bank():
                return self._bank()
            case _:
                assert_never(action)

    def _throw(self, dice: tuple[int, ...]) -> FarkleState:
        if self.phase is Phase.SET_ASIDE:
            raise IllegalAction(
                "set aside at least one scoring die before throwing again",
                reason="set-aside-first",
            )
        faces = check_dice(dice, count=self.dice_in_play)
        it = iter(faces)
        tray = tuple(old if a else next(it) for old, a in zip(self.tray, self.aside, strict=True))
        state = replace(self, tray=tray, throws=self.throws + 1, phase=Phase.SET_ASIDE, events=())
        if is_farkle(faces, self.settings.rules):
            return state._lost(TurnLost(self.seat, faces, self.turn_points))
        return state

    def _lost(self, lost: TurnLost) -> FarkleState:
        # The third lost turn in a row costs the rules' penalty; the count starts again.
        in_row = self.lost_in_row[self.seat] + 1
        penalty = self.settings.rules.three_lost
        if in_row < 3 or not penalty:
            state = replace(self, lost_in_row=self._lost_count(in_row % 3))
            return state._next_turn(lost)
        totals = list(self.totals)
        totals[self.seat] -= penalty
        state = replace(self, totals=tuple(totals), lost_in_row=self._lost_count(0))
        return state._next_turn(lost, ThreeLost(self.seat, penalty))

    def _lost_count(self, count: int) -> tuple[int, ...]:
        return tuple(count if i == self.seat else n for i, n in enumerate(self.lost_in_row))

    def _set_aside(self, positions: tuple[int, ...]) -> FarkleState:
        if self.phase is not Phase.SET_ASIDE:
            if self.throws == 0:
                raise IllegalAction("throw the dice first", reason="throw-first")
            raise IllegalAction(
                "dice are set aside once per throw: throw again or bank",
                reason="already-set-aside",
            )
        chosen = tuple(positions)
        if not chosen:
            raise IllegalAction("set aside at least one scoring die", reason="empty-selection")
        for p in chosen:
            if type(p) is not int or not 0 <= p < DICE:
                raise IllegalAction(f"there is no die {p!r}", reason="no-such-die", position=p)
        if len(set(chosen)) != len(chosen):
            raise IllegalAction("a die is chosen twice", reason="die-twice")
        for p in chosen:
            if self.aside[p]:
                raise IllegalAction(
                    f"die {p + 1} is already set aside", reason="already-aside", position=p
                )
        faces = tuple(sorted(self.tray[p] or 0 for p in chosen))
        points = score(faces, self.settings.rules)
        aside = tuple(a or p in chosen for p, a in enumerate(self.aside))
        state = replace(
            self,
            phase=Phase.THROW,
            turn_points=self.turn_points + points,
            aside=aside,
            groups=(*self.groups, (faces, points)),
            events=(),
        )
        if all(aside):
            return replace(state, aside=(False,) * DICE, events=(HotDice(self.seat),))
        return state

    def _bank(self) -> FarkleState:
        if self.phase is Phase.SET_ASIDE:
            raise IllegalAction(
                "set aside at least one scoring die before banking", reason="set-aside-first"
            )
        if self.turn_points == 0:
            raise IllegalAction("nothing to bank yet: throw first", reason="nothing-to-bank")
        if self.bank_needs:
            rules = self.settings.rules
            entering = self.totals[self.seat] <= 0 and rules.entry > rules.bank_minimum
            what = "getting on the board" if entering else "a bank"
            raise IllegalAction(
                f"{what} needs {self.bank_floor} points in the turn, not {self.turn_points}:"
                " throw again",
                reason="bank-under-entry" if entering else "bank-under-minimum",
                minimum=self.bank_floor,
                turn_points=self.turn_points,
            )
        totals = list(self.totals)
        totals[self.seat] += self.turn_points
        state = replace(self, totals=tuple(totals), lost_in_row=self._lost_count(0))
        events: list[FarkleEvent] = [Banked(self.seat, self.turn_points)]
        if totals[self.seat] >= self.settings.target and not self.settings.rules.last_round:
            # No last round: the first bank to reach the target wins at once.
            done = state._next_turn(*events)
            return replace(done, phase=Phase.OVER, events=(*events, GameOver((self.seat,))))
        if self.last_round_by is None and totals[self.seat] >= self.settings.target:
            state = replace(state, last_round_by=self.seat)
            events.append(LastRound(self.seat))
        return state._next_turn(*events)

    def _next_turn(self, *events: FarkleEvent) -> FarkleState:
        turns = tuple(t + (i == self.seat) for i, t in enumerate(self.turns))
        following = (self.seat + 1) % len(self.totals)
        state = replace(
            self,
            seat=following,
            phase=Phase.THROW,
            turn_points=0,
            tray=(None,) * DICE,
            aside=(False,) * DICE,
            groups=(),
            throws=0,
            turns=turns,
            events=events,
        )
        if following == self.last_round_by:
            return replace(
                state, phase=Phase.OVER, events=(*events, GameOver(winners(self.totals)))
            )
        return state
