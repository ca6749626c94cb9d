"""Every screen at a phone's size (390 x 844, portrait) and a desktop's (1280 x 800): it
fits the width, the dice are large, the pieces stand where they should; and a screenshot of
each in tests/output/, to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from browser.person import DESKTOP, PHONE, Person
from browser.scripted_dice import ScriptedDice

SIZES = {"phone": PHONE, "desktop": DESKTOP}
MIN_DIE = 56  # px (design.md)
MIN_TARGET = 44  # px, a thumb


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return {"x": found["x"], "y": found["y"], "w": found["width"], "h": found["height"]}


def fits(page: Page) -> None:
    """Nothing sticks out sideways."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def large(person: Person) -> None:
    """The dice in the tray (not the small ones set aside) and the main button."""
    for die in person.dice.all():
        if die.is_disabled():
            continue
        size = box(die)
        assert size["w"] >= MIN_DIE
        assert size["h"] >= MIN_DIE
    assert box(person.button("At"))["h"] >= MIN_TARGET


def placed(page: Page, size: str, dice: Locator, board: Locator) -> None:
    """Phone: one column; desktop: dice left, card or scoreboard right, the table centred."""
    tray, card = box(dice), box(board)
    if size == "desktop":
        assert tray["x"] + tray["w"] <= card["x"]
        game = box(page.locator("main section").first)
        left, right = game["x"], DESKTOP["width"] - game["x"] - game["w"]
        assert abs(left - right) < 40
        assert game["w"] <= 1100
    else:
        assert abs(tray["x"] + tray["w"] / 2 - PHONE["width"] / 2) < 20


@pytest.mark.parametrize("size", list(SIZES))
def test_home_and_the_new_game_dialog(page: Page, output: Path, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    person = Person(page)
    person.open()
    expect(page.get_by_role("button", name="Yeni oyun")).to_be_visible()
    fits(page)
    person.shot(output, f"{size}-home")
    page.get_by_role("button", name="Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("radio", name="10 000").first.check()
    dialog.get_by_role("textbox", name="Oyuncu 1").fill("Ayşe")
    dialog.get_by_role("button", name="Oyuncu ekle").click()
    dialog.get_by_role("textbox", name="Oyuncu 2").fill("Mehmet")
    dialog.get_by_role("checkbox", name="Humains + 1 IA").check()
    fits(page)
    dialog_box = box(dialog)
    assert dialog_box["x"] >= 0
    assert dialog_box["x"] + dialog_box["w"] <= SIZES[size]["width"]
    page.screenshot(path=str(output / f"{size}-new-game.png"))


@pytest.mark.parametrize("size", list(SIZES))
def test_yams_mid_game(page: Page, dice: ScriptedDice, output: Path, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    person = Person(page)
    person.open()
    person.new_game("Yams", "Ayşe", "Mehmet", computer=True, autofill="Kapalı")
    rounds = [
        ("Ayşe", (3, 3, 3, 4, 1), "Üç"),
        ("Mehmet", (6, 6, 2, 6, 5), "Altı"),
        ("Ayşe", (2, 3, 4, 5, 1), "Büyük seri"),
        ("Mehmet", (4, 4, 4, 2, 2), "Full"),
    ]
    for name, faces, choice in rounds:
        person.wait_for_turn(name)
        dice.script(*faces)
        person.throw()
        person.button(choice).click()
        person.act("Turu onayla")
    person.wait_for_turn("Ayşe")
    dice.script(5, 5, 2, 5, 6)
    person.throw()
    for die, face in zip(person.dice.all(), person.faces(), strict=True):
        if face == 5:
            die.click()
    dice.script(1, 5)
    person.throw()
    person.button("Beş").click()
    expect(person.dice).to_have_count(5)
    fits(page)
    large(person)
    placed(page, size, page.get_by_role("group", name="Zarlar"), page.get_by_role("table"))
    person.shot(output, f"{size}-yams")
    page.emulate_media(color_scheme="dark")
    person.shot(output, f"{size}-yams-dark")


@pytest.mark.parametrize("size", list(SIZES))
def test_10000_mid_game_and_its_end(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    person = Person(page)
    person.open()
    person.new_game("10 000", "Ayşe", "Mehmet", target="5 000")
    dice.script(1, 5, 2, 3, 4, 6)
    person.throw()
    person.dice.nth(0).click()
    person.dice.nth(1).click()
    dice.script(5, 5, 5, 2)
    person.throw()
    for n in range(3):
        person.dice.nth(n).click()
    person.act("Kasaya yatır")
    person.wait_for_turn("Mehmet")
    dice.script(1, 1, 2, 3, 4, 6)
    person.throw()
    person.dice.nth(0).click()
    dice.script(5, 2, 3, 4, 6)
    person.throw()
    person.dice.nth(0).click()
    dice.script(1, 3, 3, 6)
    person.throw()
    person.dice.nth(0).click()
    expect(page.get_by_text("+100", exact=True).first).to_be_visible()
    fits(page)
    large(person)
    scoreboard = page.get_by_role("region", name="Skorlar")
    placed(page, size, page.get_by_role("group", name="Zarlar"), scoreboard)
    if size == "phone":  # the scoreboard on top
        assert box(scoreboard)["y"] < box(page.get_by_role("group", name="Zarlar"))["y"]
    person.shot(output, f"{size}-10000")
    # To the end: Mehmet banks, Ayşe throws six sixes twice (hot dice), Mehmet loses.
    person.act("Kasaya yatır")
    person.wait_for_turn("Ayşe")
    for _ in range(2):
        dice.script(6, 6, 6, 6, 6, 6)
        person.throw()
        for die in person.dice.all():
            die.click()
        if _ == 0:
            person.throw()
    person.act("Kasaya yatır")
    person.wait_for_turn("Mehmet")
    dice.script(2, 3, 4, 4, 6, 6)
    person.throw()
    expect(person.winner()).to_have_text("Kazanan: Ayşe")
    fits(page)
    person.shot(output, f"{size}-end")
