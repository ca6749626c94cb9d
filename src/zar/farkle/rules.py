"""The house rules of 10 000 as a value: what scores, when a turn may bank, what three
lost turns in a row cost and whether reaching the target starts a last round
(docs/rules.md, "House rules of 10 000").

The seeds' rules (F-1 .. F-13) are :data:`SEED`, every option at its default; the
presets are named values of the same class.

>>> FarkleRules.named("bank-300")
FarkleRules(entry=0, bank_minimum=300, three_lost=0, three_pairs=1500, straight=2500, \
kinds='fixed', four_and_pair=True, last_round=True)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal, assert_never

__all__ = [
    "BANK_MINIMUMS",
    "ENTRIES",
    "KINDS",
    "PRESETS",
    "SEED",
    "STRAIGHTS",
    "THREE_LOST",
    "THREE_PAIRS",
    "FarkleRules",
    "Kinds",
]

Kinds = Literal["fixed", "doubling", "linear"]

# The values each option may take, the seeds' first.
ENTRIES = (0, 500, 750, 1_000)
BANK_MINIMUMS = (0, 300, 350, 500)
THREE_LOST = (0, 500, 1_000)
THREE_PAIRS = (1_500, 500, 750)
STRAIGHTS = (2_500, 1_000, 1_500)
KINDS: tuple[Kinds, ...] = ("fixed", "doubling", "linear")
FIXED_KINDS = {4: 1_000, 5: 2_000, 6: 3_000}


@dataclass(frozen=True, slots=True)
class FarkleRules:
    """One set of house rules; every option at its default is the seeds' game.

    - ``entry``: while a player's banked total is 0 (or below, after a penalty), a turn
      needs at least this many points to be banked: getting on the board.
    - ``bank_minimum``: any bank needs at least this many turn points.
    - ``three_lost``: the third lost turn in a row costs this many points (a total may go
      below 0); the count starts again after it and after any bank.
    - ``three_pairs``, ``straight``: what these six-dice combinations are worth.
    - ``kinds``: four, five and six of a kind: ``"fixed"`` 1 000, 2 000, 3 000;
      ``"doubling"`` 2, 4 and 8 times the three of that face; ``"linear"`` 2, 3 and 4 times.
    - ``four_and_pair``: whether four of a kind and a pair count as three pairs.
    - ``last_round``: whether the first bank to reach the target starts a last round
      (every other player plays once more) or wins at once.
    """

    entry: int = 0
    bank_minimum: int = 0
    three_lost: int = 0
    three_pairs: int = 1_500
    straight: int = 2_500
    kinds: Kinds = "fixed"
    four_and_pair: bool = True
    last_round: bool = True

    def __post_init__(self) -> None:
        for option, choices in (
            ("entry", ENTRIES),
            ("bank_minimum", BANK_MINIMUMS),
            ("three_lost", THREE_LOST),
            ("three_pairs", THREE_PAIRS),
            ("straight", STRAIGHTS),
            ("kinds", KINDS),
        ):
            value = getattr(self, option)
            if type(value) is not type(choices[0]) or value not in choices:
                said = ", ".join(repr(c) for c in choices)
                raise ValueError(f"{option} is one of {said}, not {value!r}")
        for option in ("four_and_pair", "last_round"):
            if type(getattr(self, option)) is not bool:
                raise ValueError(f"{option} is True or False, not {getattr(self, option)!r}")

    @classmethod
    def named(cls, name: str) -> FarkleRules:
        """The preset called ``name`` (:data:`PRESETS`); a ValueError names the choices."""
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise ValueError(
                f"the house rules are one of {', '.join(PRESETS)}, not {name!r}"
            ) from None

    @property
    def name(self) -> str | None:
        """The name of the preset these rules are, None for rules no preset has."""
        return next((name for name, rules in PRESETS.items() if rules == self), None)

    def as_dict(self) -> dict[str, object]:
        """Each option by its name, as the constructor takes them."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def kind_points(self, face: int, count: int) -> int:
        """The points of ``count`` (3 to 6) dice of ``face`` set aside together."""
        three = 1_000 if face == 1 else face * 100
        match self.kinds:
            case "fixed":
                return three if count == 3 else FIXED_KINDS[count]
            case "doubling":
                return three << (count - 3)  # 2, 4 and 8 times
            case "linear":
                return three * (count - 2)
            case _:
                assert_never(self.kinds)

    def bank_floor(self, total: int) -> int:
        """The fewest turn points a player with this banked ``total`` may bank (0: any)."""
        if total <= 0:
            return max(self.entry, self.bank_minimum)
        return self.bank_minimum


SEED = FarkleRules()

PRESETS: dict[str, FarkleRules] = {
    "seed": SEED,
    "entry-500": FarkleRules(entry=500),
    "entry-750": FarkleRules(entry=750),
    "entry-1000": FarkleRules(entry=1_000),
    "bank-300": FarkleRules(bank_minimum=300),
    "bank-350": FarkleRules(bank_minimum=350),
    "bank-500": FarkleRules(bank_minimum=500),
    "three-lost-500": FarkleRules(three_lost=500),
    "three-lost-1000": FarkleRules(three_lost=1_000),
    "three-pairs-500": FarkleRules(three_pairs=500),
    "three-pairs-750": FarkleRules(three_pairs=750),
    "straight-1000": FarkleRules(straight=1_000),
    "straight-1500": FarkleRules(straight=1_500),
    "doubling": FarkleRules(kinds="doubling"),
    # Facebook Farkle as Busche states it ("Maximizing Win Probability in the Game of
    # Farkle", 2016): docs/rules.md says what of it is his words and what our reading.
    "facebook": FarkleRules(
        bank_minimum=300,
        three_lost=500,
        three_pairs=750,
        straight=1_500,
        kinds="linear",
        four_and_pair=False,
        last_round=False,
    ),
}
