"""10 000: six dice, set aside what scores, bank or risk it (docs/rules.md).

The names outside code relies on (docs/contract.md): :func:`score`, :func:`is_farkle`,
:class:`IllegalSelection`; the game flow beside them.
"""

from zar.farkle.game import (
    DICE,
    TARGETS,
    Bank,
    Banked,
    FarkleAction,
    FarkleEvent,
    FarkleSettings,
    FarkleState,
    GameOver,
    HotDice,
    LastRound,
    Phase,
    SetAside,
    ThreeLost,
    Throw,
    TurnLost,
)
from zar.farkle.rules import PRESETS, SEED, FarkleRules
from zar.farkle.scoring import (
    IllegalSelection,
    farkle_probability,
    is_farkle,
    score,
    scoring_faces,
    selections,
)

__all__ = [
    "DICE",
    "PRESETS",
    "SEED",
    "TARGETS",
    "Bank",
    "Banked",
    "FarkleAction",
    "FarkleEvent",
    "FarkleRules",
    "FarkleSettings",
    "FarkleState",
    "GameOver",
    "HotDice",
    "IllegalSelection",
    "LastRound",
    "Phase",
    "SetAside",
    "ThreeLost",
    "Throw",
    "TurnLost",
    "farkle_probability",
    "is_farkle",
    "score",
    "scoring_faces",
    "selections",
]
