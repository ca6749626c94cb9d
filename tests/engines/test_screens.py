"""Screenshots of the home screen, a Yams game and a 10 000 game at 360 x 740, 390 x 844
and 1280 x 800, light and dark, in Firefox and WebKit (tests/output/, to look at); at each
size nothing sticks out sideways and the dice and `At` are in view."""

from __future__ import annotations

from pathlib import Path

import pytest

from dice_support import ScriptedDice
from engines.person import DESKTOP, PHONE, SMALL_PHONE, Person
from engines.test_layout import fits

SIZES = {"small-phone": SMALL_PHONE, "phone": PHONE, "desktop": DESKTOP}


def dice_and_at_in_view(ali: Person, size: tuple[int, int]) -> None:
    width, height = size
    for element in (*ali.dice(), ali.button("At").get()):
        where = element.rect()
        assert where["x"] >= 0
        assert where["x"] + where["w"] <= width + 0.5
        assert where["y"] + where["h"] <= height + 0.5, where


@pytest.mark.parametrize("game", ["Yams", "10 000"])
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_screens(
    person: Person, dice: ScriptedDice, output: Path, size: str, theme: str, game: str
) -> None:
    ali = person
    ali.tab.resize(*SIZES[size])
    ali.open()
    if theme == "dark":  # the first tap: the other theme than the system's (light here)
        ali.button("Tema: sistem").click()
        ali.button("Tema: koyu").get()
    fits(ali)
    if game == "Yams":
        ali.shot(output, f"{size}-{theme}-home")
    ali.new_game(
        game, "Ayşe", "Mehmet", computer=True, autofill="Kapalı" if game == "Yams" else None
    )
    if game == "Yams":
        dice.script(2, 2, 5, 5, 5)
        ali.throw()
        ali.box("Full").click()
    else:
        dice.script(1, 5, 5, 2, 3, 4)
        ali.throw()
        ali.dice()[0].click()
        ali.button("Kasaya yatır").wait_enabled()
    fits(ali)
    dice_and_at_in_view(ali, SIZES[size])
    ali.shot(output, f"{size}-{theme}-{game.replace(' ', '').lower()}")
