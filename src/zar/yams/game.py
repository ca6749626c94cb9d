"""The flow of a game of Yams: players in turn, thirteen rounds, up to three throws a round.

States are immutable; ``state.apply(action)`` returns the next one or raises
:class:`~zar.table.IllegalAction` (a ``ValueError``) and leaves ``state`` as it was.
The dice that fell are part of each :class:`Throw`: the engine never rolls.

>>> from zar.table import Seat
>>> from zar.yams.scorecard import Box
>>> state = YamsState.start(YamsSettings((Seat("Ali"),)))
>>> state = state.apply(Throw(0, (), (1, 1, 3, 4, 6)))
>>> state = state.apply(Throw(0, (0, 1), (1, 2, 1)))
>>> state.dice, state.throws
((1, 1, 1, 2, 1), 2)
>>> state.apply(Fill(0, Box.ONES)).cards[0].total
4
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import assert_never

from zar.dice import check_dice
from zar.table import IllegalAction, Seat, check_seats, replay, winners
from zar.yams.scorecard import AnyBox, Rules, Scorecard

__all__ = [
    "DICE",
    "ROUNDS",
    "THROWS",
    "Fill",
    "Filled",
    "GameOver",
    "Throw",
    "YamsAction",
    "YamsEvent",
    "YamsSettings",
    "YamsState",
]

DICE = 5
THROWS = 3
ROUNDS = 13  # under our rules: a round a box (Scandinavian Yatzy's card has 15)


@dataclass(frozen=True, slots=True)
class YamsSettings:
    """Who plays, in seat order, and the rules of their cards (ours by default)."""

    seats: tuple[Seat, ...]
    rules: Rules = Rules.STANDARD

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", check_seats(self.seats))
        if not isinstance(self.rules, Rules):
            raise ValueError(f"a game of Yams plays by one of the Rules, not {self.rules!r}")


@dataclass(frozen=True, slots=True)
class Throw:
    """``seat`` keeps the dice at positions ``keep`` (0..4) and throws the others.

    ``dice`` are the faces that fell, for the thrown positions in order. The first throw
    of a round keeps nothing.
    """

    seat: int
    keep: tuple[int, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Fill:
    """``seat`` writes the dice in ``box`` and confirms the round ("Turu onayla")."""

    seat: int
    box: AnyBox


YamsAction = Throw | Fill


@dataclass(frozen=True, slots=True)
class Filled:
    """A box was written: its points, the +100 when a Penta earned it, the upper bonus reached."""

    seat: int
    box: AnyBox
    points: int
    penta_bonus: int
    upper_bonus: bool


@dataclass(frozen=True, slots=True)
class GameOver:
    winners: tuple[int, ...]


YamsEvent = Filled | GameOver


@dataclass(frozen=True, slots=True)
class YamsState:
    """Everything about a game of Yams at one moment."""

    settings: YamsSettings
    cards: tuple[Scorecard, ...]
    seat: int = 0
    throws: int = 0  # throws made in this round, 0 to 3
    dice: tuple[int, ...] = ()  # the five faces showing; empty before the round's first throw
    events: tuple[YamsEvent, ...] = field(default=(), compare=False)

    @classmethod
    def start(cls, settings: YamsSettings) -> YamsState:
        return cls(settings, cards=(Scorecard(rules=settings.rules),) * len(settings.seats))

    @classmethod
    def replay(cls, settings: YamsSettings, log: Iterable[YamsAction]) -> YamsState:
        return replay(cls.start(settings), log)

    @property
    def card(self) -> Scorecard:
        """The card of the player whose round it is."""
        return self.cards[self.seat]

    @property
    def rounds(self) -> int:
        """How many rounds the game has: a round a box of the card (13; Yatzy's 15)."""
        return len(self.card.boxes)

    @property
    def round(self) -> int:
        """The round being played, 1 to :attr:`rounds` (the last once the game is over)."""
        return min(self.rounds, self.rounds - len(self.card.open_boxes) + 1)

    @property
    def is_over(self) -> bool:
        return all(card.is_complete for card in self.cards)

    @property
    def throws_left(self) -> int:
        return 0 if self.is_over else THROWS - self.throws

    @property
    def options(self) -> dict[AnyBox, int]:
        """The boxes the dice may be written in now, with their points (empty before a throw)."""
        if not self.dice or self.is_over:
            return {}
        return self.card.options(self.dice)

    @property
    def must_sacrifice(self) -> bool:
        """No open box scores, the +100 included: "Açık hiçbir kutu puan getirmiyor: birini
        feda etmek gerekiyor". (The Joker's last case writes a Penta for 0 in an upper box, but
        still earns the +100: nothing is sacrificed then.)"""
        options = self.options
        if not options or any(options.values()):
            return False
        return not self.card.earns_penta_bonus(self.dice)

    @property
    def winners(self) -> tuple[int, ...]:
        return winners([card.total for card in self.cards]) if self.is_over else ()

    def apply(self, action: YamsAction) -> YamsState:
        """The state after ``action``; a refused action raises :class:`IllegalAction`."""
        if self.is_over:
            raise IllegalAction("the game is over", reason="game-over")
        if not 0 <= action.seat < len(self.cards) or action.seat != self.seat:
            raise IllegalAction(
                f"it is {self.settings.seats[self.seat].name}'s turn",
                reason="not-your-turn",
                player=self.settings.seats[self.seat].name,
            )
        match action:
            case Throw():
                return self._throw(action.keep, action.dice)
            case Fill():
                return self._fill(action.box)
            case _:
                assert_never(action)

    def _throw(self, keep: tuple[int, ...], dice: tuple[int, ...]) -> YamsState:
        if self.throws >= THROWS:
            raise IllegalAction(
                "three throws are all a round has: write the dice in a box",
                reason="no-throws-left",
            )
        kept = tuple(keep)
        for p in kept:
            if type(p) is not int or not 0 <= p < DICE:
                raise IllegalAction(f"there is no die {p!r}", reason="no-such-die", position=p)
        if len(set(kept)) != len(kept):
            raise IllegalAction("a die is kept twice", reason="die-twice")
        if kept and not self.dice:
            raise IllegalAction(
                "the first throw of a round throws all five dice", reason="keep-before-throw"
            )
        faces = check_dice(dice, count=DICE - len(kept))
        it = iter(faces)
        new = tuple(self.dice[p] if p in kept else next(it) for p in range(DICE))
        return replace(self, throws=self.throws + 1, dice=new, events=())

    def _fill(self, box: AnyBox) -> YamsState:
        if not self.dice:
            raise IllegalAction("throw the dice first", reason="throw-first")
        card = self.card.fill(box, self.dice)
        cards = tuple(card if i == self.seat else c for i, c in enumerate(self.cards))
        event = Filled(
            self.seat,
            box,
            points=card[box] or 0,
            penta_bonus=card.penta_bonus - self.card.penta_bonus,
            upper_bonus=card.upper_bonus > self.card.upper_bonus,
        )
        state = replace(
            self,
            cards=cards,
            seat=(self.seat + 1) % len(cards),
            throws=0,
            dice=(),
            events=(event,),
        )
        if state.is_over:
            return replace(state, events=(event, GameOver(state.winners)))
        return state
