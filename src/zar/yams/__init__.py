"""Yams: five dice, thirteen boxes, the Penta and its Joker (docs/rules.md); the card of
Scandinavian Yatzy beside it (:class:`YatzyBox`, the rules scandinavian).

The names outside code relies on (docs/contract.md): :class:`Box`, :class:`Scorecard`,
:class:`IllegalMove`; the game flow beside them.
"""

from zar.yams.game import (
    DICE,
    ROUNDS,
    THROWS,
    Fill,
    Filled,
    GameOver,
    Throw,
    YamsAction,
    YamsEvent,
    YamsSettings,
    YamsState,
)
from zar.yams.scorecard import (
    HOUSE_RULES,
    LOWER,
    UPPER,
    AnyBox,
    Box,
    IllegalMove,
    Rules,
    Scorecard,
    YatzyBox,
    box_points,
    is_penta,
    yatzy_points,
)

__all__ = [
    "DICE",
    "HOUSE_RULES",
    "LOWER",
    "ROUNDS",
    "THROWS",
    "UPPER",
    "AnyBox",
    "Box",
    "Fill",
    "Filled",
    "GameOver",
    "IllegalMove",
    "Rules",
    "Scorecard",
    "Throw",
    "YamsAction",
    "YamsEvent",
    "YamsSettings",
    "YamsState",
    "YatzyBox",
    "box_points",
    "is_penta",
    "yatzy_points",
]
