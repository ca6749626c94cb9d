"""One screen: with six people and the computer at the table, everything a turn needs is in
view without scrolling on a phone in portrait (390 x 844, 360 x 740), read from the
browser's bounding boxes after a throw; dice and main buttons of 44 x 44 px at least, the
boxes of the player on turn 44 px wide and 36 px tall, nothing tapped under 24 x 24 (WCAG
2.5.8); landscape phones and desktops use their width. A screenshot of each in
tests/output/, to look at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from browser.person import BOXES, DESKTOP, PHONE, Person
from dice_support import ScriptedDice

SMALL_PHONE = {"width": 360, "height": 740}
LANDSCAPE = {"width": 844, "height": 390}
PORTRAIT = {"phone": PHONE, "small-phone": SMALL_PHONE}
WIDE = {"landscape": LANDSCAPE, "desktop": DESKTOP}
SIX = ("Deniz", "Ayşe", "Mehmet", "Elif", "Can", "Zeynep")
MAIN = 44  # px: the dice and the main buttons
BOX_WIDE, BOX_TALL = 44, 36  # px: each box of the player on turn
TAP = 24  # px: anything a person taps (WCAG 2.5.8)

# Every control a person can tap, as the browser lays it out now (a box or a radio button
# inside its label: the label, which takes the tap).
TARGETS = """() => [...document.querySelectorAll('button, a[href], input, select, summary')]
  .filter((el) => el.checkVisibility() && !el.closest('.sr-only'))
  .map((el) => (el.matches('input') && el.closest('label')) || el)
  .map((el) => { const r = el.getBoundingClientRect();
    const name = el.getAttribute('aria-label') || el.textContent.trim();
    return { name, w: r.width, h: r.height }; })"""


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, locator
    return {"x": found["x"], "y": found["y"], "w": found["width"], "h": found["height"]}


def in_view(page: Page, *locators: Locator) -> None:
    """Each element whole inside the viewport, the page not scrolled."""
    assert page.evaluate("window.scrollY") == 0
    size = page.viewport_size
    assert size is not None
    for locator in locators:
        for one in locator.all():
            where = box(one)
            assert where["x"] >= 0, (one, where)
            assert where["y"] >= 0, (one, where)
            assert where["x"] + where["w"] <= size["width"] + 0.5, (one, where)
            assert where["y"] + where["h"] <= size["height"] + 0.5, (one, where)


def at_least(locator: Locator, width: float, height: float) -> None:
    """Each of the elements enabled (a die set aside is a small picture) at least this size."""
    for one in locator.all():
        if not one.is_enabled():
            continue
        where = box(one)
        assert where["w"] >= width, (one, where)
        assert where["h"] >= height, (one, where)


def taps_large_enough(page: Page) -> None:
    small = [t for t in page.evaluate(TARGETS) if t["w"] < TAP or t["h"] < TAP]
    assert small == []


def fits(page: Page) -> None:
    """Nothing sticks out sideways."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def totals(page: Page) -> Locator:
    """Every player's total on screen: the scores' rows (the card's TOPLAM row on a desktop,
    in Yams)."""
    scores = page.get_by_role("region", name="Skorlar")
    if scores.is_visible():
        return scores.get_by_role("listitem")
    return page.get_by_role("row", name=re.compile("^TOPLAM")).get_by_role("cell")


def seven_at_yams(person: Person, dice: ScriptedDice, hints: list[bool] | None = None) -> None:
    person.open()
    person.new_game("Yams", *SIX, computer=True, autofill="Kapalı", hints=hints)
    dice.script(2, 2, 5, 5, 5)
    person.throw()
    expect(person.box("Full")).to_have_accessible_description("25 puan")


def yams_turn_in_view(page: Page, person: Person) -> None:
    in_view(page, person.dice, person.button("At"), person.button("Turu onayla"), totals(page))
    for name in BOXES:
        in_view(page, person.box(name))
    at_least(person.dice, MAIN, MAIN)
    at_least(person.button("At"), MAIN, MAIN)
    at_least(person.button("Turu onayla"), MAIN, MAIN)
    for name in BOXES:
        at_least(person.box(name), BOX_WIDE, BOX_TALL)
    expect(totals(page)).to_have_count(7)
    taps_large_enough(page)
    fits(page)


@pytest.mark.parametrize("size", list(PORTRAIT))
def test_yams_for_seven_is_one_screen_on_a_phone(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    page.set_viewport_size(PORTRAIT[size])
    person = Person(page)
    seven_at_yams(person, dice)
    yams_turn_in_view(page, person)
    # A box chosen: `Turu onayla` says what it will do, still in view.
    person.box("Full").click()
    expect(person.button("Turu onayla")).to_be_enabled()
    yams_turn_in_view(page, person)
    person.shot(output, f"{size}-yams-seven")
    # Another player's card, one tap away: their total shows it, the player on turn's comes back.
    scores = page.get_by_role("region", name="Skorlar")
    scores.get_by_role("button", name=re.compile("^Ayşe")).click()
    expect(scores.get_by_role("button", name=re.compile("^Ayşe"))).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(person.box("Full")).to_be_hidden()
    scores.get_by_role("button", name=re.compile("^Deniz")).click()
    expect(person.box("Full")).to_be_visible()


@pytest.mark.parametrize("size", list(WIDE))
def test_yams_for_seven_uses_the_width(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    page.set_viewport_size(WIDE[size])
    person = Person(page)
    seven_at_yams(person, dice)
    tray, first_box = box(page.get_by_role("group", name="Zarlar")), box(person.box("Bir"))
    assert tray["x"] + tray["w"] <= first_box["x"]  # the dice left, the card right
    if size == "desktop":
        yams_turn_in_view(page, person)
        # Every player's column, the table centred.
        expect(page.get_by_role("columnheader", name="Zeynep").first).to_be_visible()
        game = box(page.locator("main section.game"))
        assert abs(game["x"] - (DESKTOP["width"] - game["x"] - game["w"])) < 40
    else:
        in_view(page, person.dice, person.button("At"), person.button("Turu onayla"))
        at_least(person.dice, MAIN, MAIN)
        taps_large_enough(page)
    person.shot(output, f"{size}-yams-seven")


def seven_at_10000(person: Person, dice: ScriptedDice) -> None:
    person.open()
    person.new_game("10 000", *SIX, computer=True)
    dice.script(1, 5, 2, 3, 4, 6)
    person.throw()
    person.dice.nth(0).click()  # a 1: +100, with five dice left to throw


def farkle_turn_in_view(page: Page, person: Person) -> None:
    risk = page.get_by_text(re.compile(r"^%\d+,\d$"))
    turn = page.get_by_text("Tur puanı")
    in_view(page, person.dice, turn, person.button("At"), risk, person.button("Kasaya yatır"))
    in_view(page, totals(page))
    expect(totals(page)).to_have_count(7)
    at_least(person.dice, MAIN, MAIN)
    at_least(person.button("At"), MAIN, MAIN)
    at_least(person.button("Kasaya yatır"), MAIN, MAIN)
    taps_large_enough(page)
    fits(page)


@pytest.mark.parametrize("size", list(PORTRAIT))
def test_10000_for_seven_is_one_screen_on_a_phone(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    page.set_viewport_size(PORTRAIT[size])
    person = Person(page)
    seven_at_10000(person, dice)
    expect(person.button("Kasaya yatır")).to_be_enabled()
    farkle_turn_in_view(page, person)
    person.shot(output, f"{size}-10000-seven")
    # The next throw, with the set-aside strip above the tray: still one screen.
    dice.script(5, 5, 2, 3, 6)
    person.throw()
    expect(person.button("Kasaya yatır")).to_be_disabled()  # nothing chosen yet
    in_view(page, person.dice, person.button("At"), person.button("Kasaya yatır"), totals(page))


@pytest.mark.parametrize("size", list(WIDE))
def test_10000_for_seven_uses_the_width(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    page.set_viewport_size(WIDE[size])
    person = Person(page)
    seven_at_10000(person, dice)
    tray = box(page.get_by_role("group", name="Zarlar"))
    scores = box(page.get_by_role("region", name="Skorlar"))
    assert tray["x"] + tray["w"] <= scores["x"]  # the dice left, the scores right
    if size == "desktop":
        farkle_turn_in_view(page, person)
    else:
        in_view(page, person.dice, person.button("At"))
        taps_large_enough(page)
    person.shot(output, f"{size}-10000-seven")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_coach_leaves_the_dice_and_buttons_in_view(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    page.set_viewport_size(PHONE if size == "phone" else DESKTOP)
    person = Person(page)
    person.open()
    person.new_game("10 000", "Deniz", computer=True)  # alone with the computer: coached
    dice.script(1, 5, 2, 3, 4, 6)
    person.throw()
    person.ask_coach()
    in_view(page, person.coach, person.dice, person.button("At"), person.button("Kasaya yatır"))
    in_view(page, totals(page))
    person.shot(output, f"{size}-coach-10000-open")
    person.button("İpucu").click()
    person.open()
    person.new_game("Yams", "Deniz", computer=True, autofill="Kapalı")
    dice.script(2, 2, 5, 5, 5)
    person.throw()
    person.ask_coach()
    in_view(page, person.coach, person.dice, person.button("At"), person.button("Turu onayla"))
    in_view(page, totals(page))
    person.shot(output, f"{size}-coach-yams-open")


@pytest.mark.parametrize("size", [*PORTRAIT, "desktop"])
def test_the_coach_open_at_a_table_of_seven_fits_the_screen(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    """The coach open, the page grows no taller than the screen's worth that matters: every
    total, the dice, both buttons and the whole panel (its options scrolling within it)."""
    page.set_viewport_size({**PORTRAIT, "desktop": DESKTOP}[size])
    person = Person(page)
    seven_at_yams(person, dice, hints=[True])
    person.ask_coach()
    expect(totals(page)).to_have_count(7)
    in_view(page, person.coach, person.dice, person.button("At"), person.button("Turu onayla"))
    in_view(page, totals(page))
    person.take_best("Yaz: Full")  # a box chosen: what it scores shows under the buttons
    expect(person.button("Turu onayla")).to_be_enabled()
    in_view(page, person.coach, person.dice, person.button("At"), person.button("Turu onayla"))
    in_view(page, totals(page))
    fits(page)
    person.shot(output, f"{size}-coach-yams-seven-open")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_home_and_the_new_game_dialog(page: Page, output: Path, size: str) -> None:
    page.set_viewport_size(PHONE if size == "phone" else DESKTOP)
    person = Person(page)
    person.open()
    expect(page.get_by_role("button", name="Yeni oyun")).to_be_visible()
    fits(page)
    taps_large_enough(page)
    person.shot(output, f"{size}-home")
    page.get_by_role("button", name="Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("radio", name="10 000").first.check()
    dialog.get_by_role("textbox", name="Oyuncu 1").fill("Ayşe")
    dialog.get_by_role("button", name="Oyuncu ekle").click()
    dialog.get_by_role("textbox", name="Oyuncu 2").fill("Mehmet")
    dialog.get_by_role("checkbox", name="Humains + 1 IA").check()
    fits(page)
    taps_large_enough(page)
    width = (PHONE if size == "phone" else DESKTOP)["width"]
    where = box(dialog)
    assert where["x"] >= 0
    assert where["x"] + where["w"] <= width
    page.screenshot(path=str(output / f"{size}-new-game.png"))


def test_the_end_of_a_10000_game(page: Page, dice: ScriptedDice, output: Path) -> None:
    page.set_viewport_size(PHONE)
    person = Person(page)
    person.open()
    person.new_game("10 000", "Ayşe", "Mehmet", target="5 000")
    dice.script(6, 6, 6, 6, 6, 6)
    person.throw()
    for _ in range(2):
        for die in person.dice.all():
            die.click()
        if _ == 0:
            dice.script(6, 6, 6, 6, 6, 6)
            person.throw()  # hot dice: the six thrown again in the same tap
    person.act("Kasaya yatır")
    person.wait_for_turn("Mehmet")
    dice.script(2, 3, 4, 4, 6, 6)
    person.throw()
    expect(person.winner()).to_have_text("Kazanan: Ayşe")
    fits(page)
    person.shot(output, "phone-end")
