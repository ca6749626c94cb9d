"""The coach and undo through the page: the hint in Yams and in 10 000 and its options
taken, a box and a set-aside undone, a 10 000 game's review; the hints chosen per person in
the new-game dialog."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from browser.person import DESKTOP, PHONE, Person
from browser.test_contrast import low
from dice_support import ScriptedDice

FINAL = re.compile(r"beklenen son puan \d+,\d")


def shots(person: Person, output: Path, name: str) -> None:
    """The screen at a phone's size and a desktop's (and in the dark theme), its contrast
    in both themes at WCAG AA."""
    page = person.page
    page.set_viewport_size(PHONE)
    person.shot(output, f"phone-{name}")
    page.set_viewport_size(DESKTOP)
    person.shot(output, f"desktop-{name}")
    page.emulate_media(color_scheme="dark", reduced_motion="reduce")
    person.shot(output, f"desktop-{name}-dark")
    assert low(page) == []
    page.emulate_media(color_scheme="light")
    assert low(page) == []
    page.set_viewport_size(PHONE)


def test_the_hint_in_yams_and_a_box_undone(page: Page, dice: ScriptedDice, output: Path) -> None:
    page.set_viewport_size(PHONE)
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali")  # alone at the table: the coach is on
    expect(ali.button("İpucu")).to_be_hidden()  # nothing to decide before the first throw
    dice.script(2, 2, 5, 5, 5)
    ali.throw()
    options = ali.ask_coach()
    expect(ali.button("İpucu")).to_have_attribute("aria-expanded", "true")
    # The top three, best first, with their expected final scores: the best keep (three
    # fives) and the best box (the Full) among them.
    expect(options).to_have_count(3)
    expect(options.first).to_contain_text("Tut: 5, 5, 5")
    expect(options.first).to_contain_text("en iyisi")
    expect(ali.coach.get_by_text("Yaz: Full (25)")).to_be_visible()
    for n in range(3):
        expect(options.nth(n)).to_contain_text(FINAL)
    shots(ali, output, "coach-yams")

    # The coach's keep, taken: the three fives are kept.
    assert ali.take_best("Tut") == "Tut: 5, 5, 5"
    assert ali.pressed() == [False, False, True, True, True]

    # The Full, chosen from the coach, with why it scores what it does; written, undone.
    ali.take_best("Yaz: Full")
    expect(ali.box("Full")).to_have_attribute("aria-pressed", "true")
    game = page.url.split("game=")[1].split("&")[0]
    note = page.request.get(f"/api/games/{game}").json()["notes"]["FULL_HOUSE"]
    expect(page.locator(".play").get_by_text(note)).to_be_visible()
    expect(ali.button("Geri al")).to_be_hidden()  # nothing written yet
    ali.act("Turu onayla")
    total = page.get_by_role("row", name=re.compile("^TOPLAM"))
    expect(total).to_contain_text("25")
    expect(ali.box("Full")).to_have_count(0)  # written: no longer a button
    ali.act("Geri al")
    expect(ali.status).to_contain_text("Ali son kararını geri aldı")
    expect(ali.header).to_contain_text("Tur 1/13")
    expect(ali.box("Full")).to_be_enabled()
    expect(ali.box("Full")).to_have_accessible_description("25 puan")
    expect(total).not_to_contain_text("25")
    assert ali.faces() == [2, 2, 5, 5, 5]
    expect(ali.button("At")).to_have_accessible_description("2 atış kaldı")
    expect(ali.button("Geri al")).to_be_hidden()  # back to the throw: nothing more to undo
    expect(ali.coach.get_by_text("Yaz: Full (25)")).to_be_visible()  # the coach follows

    # On a phone the coach is a sheet over the card: closed, the boxes are at hand again.
    ali.button("İpucu").click()
    expect(ali.coach).to_be_hidden()
    expect(ali.button("İpucu")).to_have_attribute("aria-expanded", "false")
    # Another box this time; after the next throw it can no longer be undone.
    ali.box("Beş").click()
    ali.act("Turu onayla")
    expect(page.get_by_role("row", name=re.compile("^Beş"))).to_contain_text("15")
    expect(ali.button("Geri al")).to_be_visible()
    ali.throw()
    expect(ali.button("Geri al")).to_be_hidden()
    expect(ali.coach).to_be_hidden()  # closed, it stays closed
    ali.throw()
    expect(ali.coach).to_be_hidden()


def test_the_hint_in_10000_and_hot_dice_thrown_in_one_tap(
    page: Page, dice: ScriptedDice, output: Path
) -> None:
    page.set_viewport_size(PHONE)
    ali = Person(page)
    ali.open()
    ali.new_game("10 000", "Ali", computer=True, target="5 000")
    dice.script(1, 1, 1, 5, 5, 5)
    ali.throw()
    options = ali.ask_coach()
    # The selections, best first: what each sets aside, the turn's expected points, and
    # against one opponent the chance of winning.
    expect(options.first).to_contain_text("Kenara ayır: 1, 1, 1, 5, 5, 5 (+1 500)")
    # (figures grouped by a no-break space: `1 960,0` stays on one line)
    expect(options.first).to_contain_text(re.compile(r"beklenen tur puanı [\d\s]+,\d"))
    expect(options.first).to_contain_text(re.compile(r"kazanma şansı %\d+,\d"))
    ali.take_best("Kenara ayır")
    assert ali.pressed() == [True] * 6
    shots(ali, output, "coach-10000")

    # To the end, by the coach's selections: these six dice, six sixes (hot dice both
    # times, each thrown again in the same tap), then six ones banked; the computer's last
    # turn.
    dice.script(6, 6, 6, 6, 6, 6)
    ali.throw()
    expect(ali.status).to_contain_text("Dés chauds !")
    ali.options()
    ali.take_best("Kenara ayır")
    dice.script(1, 1, 1, 1, 1, 1)
    ali.throw()
    ali.options()
    ali.take_best("Kenara ayır")
    ali.act("Kasaya yatır")
    expect(ali.winner()).to_be_visible()
    # The review in chances of winning (two at the table), the worst decisions' boards.
    ali.button("İnceleme").click()
    game = page.url.split("game=")[1].split("&")[0]
    person = page.request.get(f"/api/games/{game}/review").json()["players"][0]
    assert person["unit"] == "win"
    card = page.get_by_role("region", name="İnceleme").get_by_role("article", name="Ali")
    expect(card.get_by_text(person["verdict"])).to_be_visible()
    expect(card).to_contain_text(f"{person['decisions']} karar")
    worst = card.get_by_role("listitem").filter(has_text="Seçilen")
    expect(worst).to_have_count(len(person["worst"]))
    for n, decision in enumerate(person["worst"]):
        expect(worst.nth(n)).to_contain_text(re.compile(r"Kayıp: %\d+,\d kazanma şansı"))
        points = f"{decision['board']['turn_points']:,}".replace(",", " ")
        expect(worst.nth(n)).to_contain_text(f"Tur puanı: {points}")
    ali.shot(output, "phone-review-10000")


def test_the_hints_chosen_per_person(page: Page) -> None:
    person = Person(page)
    person.open()
    page.get_by_role("button", name="Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    hints = dialog.get_by_role("checkbox", name="İpucu")
    expect(hints).to_have_count(1)
    expect(hints).to_be_checked()  # one person: on
    dialog.get_by_role("button", name="Oyuncu ekle").click()
    expect(hints.nth(0)).to_be_checked()  # adding someone leaves the boxes as they were
    expect(hints.nth(1)).not_to_be_checked()  # those added to a table of people: off
    dialog.get_by_role("button", name="Oyuncu ekle").click()
    hints.nth(2).check()
    expect(hints.nth(0)).to_be_checked()
    expect(hints.nth(1)).not_to_be_checked()
    # A row removed: the others keep their boxes as they move up.
    dialog.get_by_role("button", name="Sil: Oyuncu 2").click()
    expect(hints).to_have_count(2)
    expect(hints.nth(0)).to_be_checked()
    expect(hints.nth(1)).to_be_checked()
    dialog.get_by_role("button", name="Vazgeç").click()

    person.open()
    person.new_game("Yams", "Ali", "Ece", hints=[False, True])
    person.throw()
    expect(person.button("İpucu")).to_be_hidden()  # Ali plays without the coach
    person.box("Şans").click()
    person.act("Turu onayla")
    person.wait_for_turn("Ece")
    person.throw()
    expect(person.button("İpucu")).to_be_visible()


def test_the_coach_opens_when_asked_and_closes_with_the_turn(
    page: Page, dice: ScriptedDice
) -> None:
    """Opened in a turn, the coach follows that turn's decisions; at the next turn it is
    closed until asked again (it never opens by itself, so `İpucu` always opens it)."""
    page.set_viewport_size(PHONE)
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali", autofill="Kapalı")  # alone: coached
    dice.script(2, 2, 5, 5, 5)
    ali.throw()
    ali.ask_coach()
    ali.take_best("Tut")
    dice.script(1, 2)
    ali.throw()
    expect(ali.coach).to_be_visible()  # the same turn: it follows
    expect(ali.options().first).to_contain_text("Tut: 5, 5, 5")
    ali.box("Şans").click()
    ali.act("Turu onayla")
    expect(ali.header).to_contain_text("Tur 2/13")
    ali.throw()
    expect(ali.button("İpucu")).to_be_visible()
    expect(ali.button("İpucu")).to_have_attribute("aria-expanded", "false")
    expect(ali.coach).to_be_hidden()  # not by itself
    ali.ask_coach()  # one tap opens it
    expect(ali.button("İpucu")).to_have_attribute("aria-expanded", "true")
    page.reload()  # as the player left it
    expect(ali.coach).to_be_visible()
    ali.button("İpucu").click()
    expect(ali.coach).to_be_hidden()
    ali.throw()
    expect(ali.coach).to_be_hidden()  # closed in this turn, it stays closed


def test_enter_after_taking_an_option_does_the_next_thing(page: Page, dice: ScriptedDice) -> None:
    """`Uygula` gives the focus to what comes next: `At` after dice to keep (Enter throws),
    `Turu onayla` after a box (Enter writes it), never to `Uygula` again."""
    page.set_viewport_size(PHONE)
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali", autofill="Kapalı")
    dice.script(2, 2, 5, 5, 5)
    ali.throw()
    ali.ask_coach()
    ali.take_best("Tut")
    expect(ali.button("At")).to_be_focused()
    version = ali.version()
    dice.script(5, 5)
    page.keyboard.press("Enter")
    expect(page.locator("[data-version]")).not_to_have_attribute("data-version", version or "")
    assert ali.faces() == [5, 5, 5, 5, 5]  # the fives kept, the two others thrown
    expect(ali.button("At")).to_have_accessible_description("1 atış kaldı")
    ali.options()
    ali.take_best("Yaz: Penta")
    expect(ali.button("Turu onayla")).to_be_focused()
    page.keyboard.press("Enter")
    expect(ali.header).to_contain_text("Tur 2/13")
    expect(page.get_by_role("row", name=re.compile("^Penta"))).to_contain_text("50")
