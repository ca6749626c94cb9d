"""The seed's computer player for 10 000: it banks once its turn reaches a threshold.

The original app's 10 000 rules (seed 004, docs/rules.md): "Bilgisayar, turu belli bir
eşiğe ulaştığında puanı kasaya yatırır; bu eşik temelde 300 puandır, geride olduğunda daha
yüksek, az zarı kaldığında daha düşüktür." (The computer banks once its turn reaches a
threshold: 300 at base, higher when it is behind, lower when few dice are left.)
``docs/computer-players.md`` tabulates it.

>>> ThresholdPlayer().threshold(behind=2_500, dice_left=2)
300
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from zar.farkle.game import DICE, FarkleState, Phase
from zar.farkle.scoring import farkle_probability, selections

__all__ = ["DICE_WORTH", "ThresholdPlayer"]

# What having n dice (1..6) to throw is worth when the bot goes on: the expected gain of
# throwing them with 100 points in the turn, banking at the base threshold and choosing
# dice at best, computed exactly over every throw and rounded to tens (the figures are in
# docs/computer-players.md). One die is worth more than two: when it scores, all six come
# back (hot dice).
DICE_WORTH = (120, 40, 60, 140, 270, 520)


@dataclass(frozen=True, slots=True)
class ThresholdPlayer:
    """The "seed" level of 10 000: the original app's threshold bot (docs/rules.md, 10 000).

    Threshold = ``base`` + ``step`` for each full ``per`` points the bot trails the best
    other total (at most ``cap``), less ``two_dice_cut`` with two dice left to throw and
    ``one_die_cut`` with one (hot dice: six). The end of the game overrides it:
    see :meth:`banks_with`.
    """

    base: int = 300
    step: int = 50
    per: int = 1_000
    cap: int = 500
    two_dice_cut: int = 100
    one_die_cut: int = 150
    # Reaching the target with this lead over every other total, it banks whatever the turn.
    finish_lead: int = 1_000
    dice_worth: tuple[int, ...] = DICE_WORTH

    def __post_init__(self) -> None:
        if min(self.step, self.cap, self.two_dice_cut, self.finish_lead) < 0 or self.per <= 0:
            raise ValueError(
                "the threshold's step, cap, cuts and lead cannot be negative, nor per 0"
            )
        if self.one_die_cut < self.two_dice_cut:
            raise ValueError("the threshold is lower with one die left than with two")
        if len(self.dice_worth) != DICE:
            raise ValueError(f"dice_worth gives the worth of 1 to {DICE} dice")

    def threshold(self, behind: int, dice_left: int) -> int:
        """The turn's points at which the bot banks, trailing the leader by ``behind``
        with ``dice_left`` dice to throw (6 after hot dice).

        >>> player = ThresholdPlayer()
        >>> player.threshold(0, 6), player.threshold(1_000, 6), player.threshold(0, 1)
        (300, 350, 150)
        """
        if not 1 <= dice_left <= DICE:
            raise ValueError(f"a throw has 1 to {DICE} dice, not {dice_left!r}")
        raised = min(self.cap, self.step * (max(0, behind) // self.per))
        cut = {1: self.one_die_cut, 2: self.two_dice_cut}.get(dice_left, 0)
        return self.base + raised - cut

    def banks_with(self, state: FarkleState, turn_points: int, dice_left: int) -> bool:
        """Whether the bot banks holding ``turn_points`` with ``dice_left`` dice to throw.

        - Last round ("Dernier tour !"): it banks as soon as its total would beat every
          other total, never below it; on an exact tie it banks only when a throw of the
          dice left fails more often than not (one die), since a tie shares the win.
        - Banking would reach the target with a lead of ``finish_lead`` or more over every
          other total (always, alone at the table): it banks, starting the last round.
        - Under the house rules' entry or bank minimum it never banks: it throws on.
        - Otherwise it banks when ``turn_points`` reaches :meth:`threshold`, ``behind``
          being how far its banked total trails the best other (0 when it leads).
        """
        own = state.totals[state.seat]
        if turn_points < state.settings.rules.bank_floor(own):
            return False  # the house rules' entry or minimum: it may not bank yet
        others = [t for seat, t in enumerate(state.totals) if seat != state.seat]
        leader = max(others, default=None)
        total = own + turn_points
        if state.last_round_by is not None and leader is not None:
            if total == leader:
                return farkle_probability(dice_left, state.settings.rules) > Fraction(1, 2)
            return total > leader
        if total >= state.settings.target and (
            leader is None or total - leader >= self.finish_lead
        ):
            return True
        behind = 0 if leader is None else leader - own
        return turn_points >= self.threshold(behind, dice_left)

    def banks(self, state: FarkleState) -> bool:
        """Bank now (True) or throw the dice in play again (always, short of the rules'
        entry or minimum)."""
        if state.phase is not Phase.THROW or not state.turn_points:
            raise ValueError("the computer decides to bank only after setting dice aside")
        return self.banks_with(state, state.turn_points, state.dice_in_play)

    def set_aside(self, state: FarkleState) -> tuple[int, ...]:
        """The tray positions to set aside from the throw just made.

        Each legal selection is worth its points and, unless the bot would then bank, the
        worth of the dice left to throw (:data:`DICE_WORTH`; all dice set aside: six).
        So it keeps three 1s rather than four (F-10) and a lone 1 rather than the 1 and a 5
        (F-12), yet takes the most points when it is about to bank. Ties: more points, more
        dice left, then the higher faces.
        """
        if state.phase is not Phase.SET_ASIDE:
            raise ValueError("the computer sets dice aside only after a scoring throw")
        in_throw = [p for p in range(DICE) if not state.aside[p] and state.tray[p] is not None]
        faces = [state.tray[p] or 0 for p in in_throw]

        def worth(item: tuple[tuple[int, ...], int]) -> tuple[int, int, int, tuple[int, ...]]:
            chosen, points = item
            left = len(faces) - len(chosen) or DICE
            value = points
            if not self.banks_with(state, state.turn_points + points, left):
                value += self.dice_worth[left - 1]
            return value, points, left, chosen

        chosen, _ = max(selections(faces, state.settings.rules).items(), key=worth)
        positions: list[int] = []
        for face in chosen:
            positions.append(
                next(p for p in in_throw if state.tray[p] == face and p not in positions)
            )
        return tuple(sorted(positions))
