"""The computer players of Yams and 10 000, and the levels a computer seat plays at.

Only the standard library is used here: levels that need numpy load it when built.

>>> LEVELS["10000"]
('seed', 'max-points', 'expert')
"""

from zar.ai.players import (
    DEFAULT_LEVEL,
    LEVELS,
    FarklePlayer,
    YamsPlayer,
    computer_player,
    levels,
)
from zar.ai.turns import next_action, play_turn

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "FarklePlayer",
    "YamsPlayer",
    "computer_player",
    "levels",
    "next_action",
    "play_turn",
]
