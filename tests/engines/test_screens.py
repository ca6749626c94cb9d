"""Screenshots of the home screen, a Yams game and a 10 000 game at 360 x 740, 390 x 844
and 1280 x 800, light and dark, in Firefox and WebKit (tests/output/, to look at); at each
size nothing sticks out sideways and the dice and `At` are in view.

One page for each kind of game, as one phone turned and one window resized: its home screen
at each size and in each theme, then the game started and its first move made, shown again
at each size and in each theme."""

from __future__ import annotations

from pathlib import Path

import pytest

from dice_support import ScriptedDice
from engines.person import DESKTOP, PHONE, SMALL_PHONE, Person
from engines.test_layout import fits

SIZES = {"small-phone": SMALL_PHONE, "phone": PHONE, "desktop": DESKTOP}


def dice_and_at_in_view(ali: Person, size: tuple[int, int]) -> None:
    """At the top of the page, the dice and `At` whole inside the viewport."""
    width, height = size
    ali.js("() => window.scrollTo(0, 0)")
    for element in (*ali.dice(), ali.button("At").get()):
        where = element.rect()
        assert where["x"] >= 0
        assert where["x"] + where["w"] <= width + 0.5
        assert where["y"] + where["h"] <= height + 0.5, where


def dark(ali: Person) -> None:
    """From the system's theme (light here) to the dark one: the first tap."""
    ali.button("Tema: sistem").click()
    ali.button("Tema: koyu").get()


def light(ali: Person) -> None:
    """From the dark theme back to the system's: through the light one by name."""
    ali.button("Tema: koyu").click()
    ali.button("Tema: açık").click()
    ali.button("Tema: sistem").get()


def at_each_size(
    ali: Person, output: Path, theme: str, shoot: str | None, playing: bool = False
) -> None:
    """At each size: nothing sticks out sideways (and, ``playing``, the dice and `At` are in
    view); the screenshot `{size}-{theme}-{shoot}`, if asked for."""
    for size, (width, height) in SIZES.items():
        ali.tab.resize(width, height)
        fits(ali)
        if playing:
            dice_and_at_in_view(ali, (width, height))
        if shoot is not None:
            ali.shot(output, f"{size}-{theme}-{shoot}")


@pytest.mark.parametrize("game", ["Yams", "10 000"])
def test_the_screens(person: Person, dice: ScriptedDice, output: Path, game: str) -> None:
    ali = person
    ali.open()
    home = "home" if game == "Yams" else None  # the home screen's pictures taken once
    at_each_size(ali, output, "light", home)
    dark(ali)
    at_each_size(ali, output, "dark", home)
    ali.tab.resize(*PHONE)
    ali.new_game(
        game, "Ayşe", "Mehmet", computer=True, autofill="Kapalı" if game == "Yams" else None
    )
    if game == "Yams":
        dice.script(2, 2, 5, 5, 5)
        ali.throw()
        ali.box("Full").click()
        ali.button("Turu onayla").wait_enabled()
    else:
        dice.script(1, 5, 5, 2, 3, 4)
        ali.throw()
        ali.dice()[0].click()
        ali.button("Kasaya yatır").wait_enabled()
    name = game.replace(" ", "").lower()
    at_each_size(ali, output, "dark", name, playing=True)
    light(ali)
    at_each_size(ali, output, "light", name, playing=True)
