"""The engine's public names, pinned (docs/contract.md)."""

import enum
import inspect
from types import ModuleType

import pytest

import zar.dice
import zar.farkle
import zar.table
import zar.yams
from zar.table import IllegalAction

# docs/contract.md: outside tests rely on these names exactly.
CONTRACT = {
    zar.farkle: {"score", "is_farkle", "IllegalSelection", "FarkleRules", "PRESETS"},
    zar.yams: {"Box", "Scorecard", "IllegalMove"},
}
MODULES = [zar.dice, zar.table, zar.farkle, zar.yams]


@pytest.mark.parametrize("module", CONTRACT, ids=lambda module: module.__name__)
def test_the_contract_names_are_exported(module: ModuleType) -> None:
    """docs/contract.md: score, is_farkle, IllegalSelection, FarkleRules, PRESETS; Box,
    Scorecard, IllegalMove."""
    assert CONTRACT[module] <= set(module.__all__)


@pytest.mark.parametrize("module", CONTRACT, ids=lambda module: module.__name__)
def test_all_lists_exactly_the_public_members(module: ModuleType) -> None:
    """A package's __init__ exports what it imports: every public name is in __all__, once."""
    public = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert len(module.__all__) == len(set(module.__all__))
    assert set(module.__all__) == public


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.__name__)
def test_every_exported_name_exists(module: ModuleType) -> None:
    """Every name of __all__ is there, once."""
    assert len(module.__all__) == len(set(module.__all__))
    assert [name for name in module.__all__ if not hasattr(module, name)] == []


def test_box_has_its_thirteen_members_in_order() -> None:
    """docs/contract.md: Box is an enum.Enum of these 13 members, in this order."""
    assert issubclass(zar.yams.Box, enum.Enum)
    assert [box.name for box in zar.yams.Box] == [
        "ONES",
        "TWOS",
        "THREES",
        "FOURS",
        "FIVES",
        "SIXES",
        "THREE_OF_A_KIND",
        "FOUR_OF_A_KIND",
        "FULL_HOUSE",
        "SMALL_STRAIGHT",
        "LARGE_STRAIGHT",
        "CHANCE",
        "PENTA",
    ]


@pytest.mark.parametrize(
    "error", [zar.farkle.IllegalSelection, zar.yams.IllegalMove, IllegalAction]
)
def test_the_errors_are_value_errors(error: type[Exception]) -> None:
    """docs/contract.md: IllegalSelection and IllegalMove are ValueErrors."""
    assert issubclass(error, ValueError)
    assert issubclass(error, IllegalAction)


def test_the_contract_is_callable_as_written() -> None:
    """docs/contract.md: score(dice) -> int, is_farkle(throw) -> bool, the Scorecard members."""
    assert zar.farkle.score([5, 5, 5, 1]) == 600
    assert zar.farkle.is_farkle([2, 3, 4, 4, 6, 6]) is True
    assert zar.farkle.score([1, 1, 1, 1], zar.farkle.PRESETS["doubling"]) == 2_000
    assert zar.farkle.FarkleRules.named("seed") == zar.farkle.FarkleRules()
    card = zar.yams.Scorecard()
    assert card.options((1, 1, 3, 4, 6))[zar.yams.Box.CHANCE] == 15
    card = card.fill(zar.yams.Box.CHANCE, (1, 1, 3, 4, 6))
    assert (card.upper_bonus, card.penta_bonus, card.total, card.is_complete) == (0, 0, 15, False)
    assert isinstance(hash(card), int)
