"""One screen at a phone's 390 x 844, in Firefox and WebKit as in Chromium
(tests/browser/test_layout.py): with six people and the computer, nothing sticks out
sideways, the dice and the main buttons are whole in view without scrolling and 44 px at
least, every total is on screen; a screenshot of each in tests/output/."""

from __future__ import annotations

from pathlib import Path

from dice_support import ScriptedDice
from engines.drivers import Element
from engines.person import BOXES, PHONE, Person

SIX = ("Deniz", "Ayşe", "Mehmet", "Elif", "Can", "Zeynep")
MAIN = 44  # px: the dice and the main buttons


def in_view(ali: Person, *elements: Element) -> None:
    """Each element whole inside the viewport, the page not scrolled."""
    assert ali.js("() => scrollY") == 0
    width, height = PHONE
    for element in elements:
        where = element.rect()
        assert where["x"] >= 0, (element, where)
        assert where["y"] >= 0, (element, where)
        assert where["x"] + where["w"] <= width + 0.5, (element, where)
        assert where["y"] + where["h"] <= height + 0.5, (element, where)


def at_least(element: Element, size: float) -> None:
    where = element.rect()
    assert where["w"] >= size, where
    assert where["h"] >= size, where


def fits(ali: Person) -> None:
    """Nothing sticks out sideways."""
    assert ali.js("() => document.documentElement.scrollWidth <= innerWidth")


def totals(ali: Person) -> list[Element]:
    return ali.find("region", "Skorlar").find("listitem").all()


def test_yams_for_seven_is_one_screen(person: Person, dice: ScriptedDice, output: Path) -> None:
    ali = person
    ali.open()
    ali.new_game("Yams", *SIX, computer=True, autofill="Kapalı")
    dice.script(2, 2, 5, 5, 5)
    ali.throw()
    ali.box("Full").click()
    ali.button("Turu onayla").wait_enabled()
    dice_ = ali.dice()
    assert len(dice_) == 5
    main = [ali.button("At").get(), ali.button("Turu onayla").get()]
    boxes = [ali.box(name).get() for name in BOXES]
    scores = totals(ali)
    assert len(scores) == 7
    in_view(ali, *dice_, *main, *boxes, *scores)
    for element in (*dice_, *main):
        at_least(element, MAIN)
    fits(ali)
    ali.shot(output, "phone-yams-seven")


def test_10000_for_seven_is_one_screen(person: Person, dice: ScriptedDice, output: Path) -> None:
    ali = person
    ali.open()
    ali.new_game("10 000", *SIX, computer=True)
    dice.script(1, 5, 2, 3, 4, 6)
    ali.throw()
    ali.dice()[0].click()  # a 1: +100, five dice left to throw
    ali.button("Kasaya yatır").wait_enabled()
    dice_ = ali.dice()
    main = [ali.button("At").get(), ali.button("Kasaya yatır").get()]
    scores = totals(ali)
    assert len(scores) == 7
    in_view(ali, *dice_, *main, *scores)
    for element in (*dice_, *main):
        at_least(element, MAIN)
    fits(ali)
    ali.shot(output, "phone-10000-seven")
    # The next throw, with the dice set aside above the tray: still one screen.
    dice.script(5, 5, 2, 3, 6)
    ali.throw()
    ali.button("Kasaya yatır").wait_enabled(False)  # nothing chosen yet
    in_view(ali, *ali.dice(), ali.button("At").get(), ali.button("Kasaya yatır").get())
    fits(ali)


def test_home_fits(person: Person, output: Path) -> None:
    ali = person
    ali.open()
    in_view(ali, ali.button("Yeni oyun").get())
    fits(ali)
    ali.shot(output, "phone-home")
