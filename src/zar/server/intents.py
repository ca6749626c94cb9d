"""What the page asks for, turned into the engine's actions with the dice the server throws.

The page sends intentions ("keep these dice and throw", "write this box", "set these dice
aside and bank", "let the computer play its next step", "undo my last decision", "abandon
the game"); it never names a face. The seat is always the one whose turn it is (an undo:
the one whose decision it takes back): on a shared device, whoever holds it plays that seat.
An abandon names no seat: it ends the game for everyone.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from zar import ai, farkle, yams
from zar.dice import DiceSource
from zar.record import Abandon, Action, Record
from zar.table import IllegalAction

__all__ = ["Intent", "actions_for"]


class Intent(BaseModel):
    """One intention of the player whose turn it is, made on the game's ``version``."""

    # Strict: "1" or true is not a position nor a version; the page sends numbers.
    model_config = ConfigDict(extra="forbid", strict=True)

    version: int = Field(ge=0, description="the version of the state the player saw")
    type: Literal["throw", "fill", "set_aside", "bank", "computer", "autofill", "undo", "abandon"]
    keep: list[int] = Field(default=[], max_length=5, description="Yams: positions kept")
    box: str | None = Field(default=None, max_length=20, description="Yams: the box to write")
    set_aside: list[int] = Field(
        default=[], max_length=6, description="10 000: tray positions to set aside first"
    )


def actions_for(
    record: Record, intent: Intent, dice: DiceSource, standin: str | None = None
) -> list[Action]:
    """The actions ``intent`` stands for; raises IllegalAction when the rules refuse it.
    ``standin``: the computer's level playing the seat on turn for an absent person."""
    if record.abandoned:
        raise IllegalAction("the game was abandoned", reason="game-abandoned")
    if intent.type == "undo":
        # Even after the game's last box: the last decision is taken back, not a throw.
        if intent.keep or intent.box or intent.set_aside:
            raise IllegalAction("an undo takes nothing more", reason="no-such-action")
        return [record.undo()]
    state = record.state
    if state.is_over:
        raise IllegalAction("the game is over", reason="game-over")
    if intent.type == "abandon":
        if intent.keep or intent.box or intent.set_aside:
            raise IllegalAction("an abandon takes nothing more", reason="no-such-action")
        return [Abandon()]
    seat = state.seat
    computer = record.seats[seat]
    if intent.type == "computer":
        if standin is not None:
            return [_computer_step(record, standin, dice)]
        if not computer.computer:
            raise IllegalAction("it is a person's turn", reason="not-computer-turn")
        return [_computer_step(record, computer.level, dice)]
    if computer.computer:
        raise IllegalAction("it is the computer's turn", reason="computer-turn")
    # A field of the other game is a mistake of the sender's: refused, not ignored.
    stray = intent.set_aside if record.kind == "yams" else (intent.keep or intent.box)
    if stray:
        raise IllegalAction(f"{record.kind} has no such action", reason="no-such-action")
    if intent.type == "autofill" and record.autofill is None:
        # The game's settings hold on every intention: no auto-fill where it is off (it
        # would show the expert's box, a hint the coach's setting may refuse).
        raise IllegalAction("this game has no auto-fill", reason="autofill-off")
    match record.kind:
        case "yams":
            assert isinstance(state, yams.YamsState)
            return [_yams_action(state, intent, dice)]
        case "10000":
            assert isinstance(state, farkle.FarkleState)
            return list(_farkle_actions(state, intent, dice))


def _computer_step(record: Record, level: str | None, dice: DiceSource) -> Action:
    state = record.state
    if isinstance(state, yams.YamsState):
        return ai.next_action(state, ai.computer_player("yams", level, record.rules), dice)
    return ai.next_action(state, ai.computer_player("10000", level, record.rules), dice)


def _yams_action(state: yams.YamsState, intent: Intent, dice: DiceSource) -> yams.YamsAction:
    match intent.type:
        case "throw":
            keep = tuple(intent.keep)
            return yams.Throw(state.seat, keep, dice.roll(max(0, yams.DICE - len(keep))))
        case "fill":
            card = state.settings.rules.box_type  # the boxes of the game's card
            if intent.box is None or intent.box not in card.__members__:
                raise IllegalAction(f"there is no box {intent.box!r}", reason="no-such-box")
            return yams.Fill(state.seat, card[intent.box])
        case "autofill":
            # The seed: after the third throw, the app writes the box the computer would choose.
            if state.throws_left:
                raise IllegalAction(
                    "the computer writes the dice only after the third throw",
                    reason="autofill-too-early",
                )
            rules = state.settings.rules.value
            player = ai.computer_player("yams", ai.DEFAULT_LEVEL["yams"], rules)
            return yams.Fill(state.seat, player.box(state))
    raise IllegalAction(f"Yams has no action {intent.type!r}", reason="no-such-action")


def _farkle_actions(
    state: farkle.FarkleState, intent: Intent, dice: DiceSource
) -> list[farkle.FarkleAction]:
    if intent.type not in ("throw", "bank", "set_aside"):
        raise IllegalAction(f"10 000 has no action {intent.type!r}", reason="no-such-action")
    actions: list[farkle.FarkleAction] = []
    if intent.set_aside or intent.type == "set_aside":
        actions.append(farkle.SetAside(state.seat, tuple(intent.set_aside)))
        state = state.apply(actions[-1])
    match intent.type:
        case "throw":
            actions.append(farkle.Throw(state.seat, dice.roll(state.dice_in_play)))
        case "bank":
            actions.append(farkle.Bank(state.seat))
    return actions
