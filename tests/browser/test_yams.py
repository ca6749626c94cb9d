"""Yams through the page, as a person plays it: throws, kept dice, boxes, the Joker, the
sacrifice, the auto-fill, a reload, a second screen, the end."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from browser.person import BOXES, Person
from dice_support import ScriptedDice


def best_box(person: Person) -> str:
    """The open box the throw may go in that scores most (the first of equals)."""
    best, most = "", -1
    for name in BOXES:
        box = person.box(name)
        if box.count() and box.is_enabled():
            points = int(re.sub(r"\D", "", box.get_attribute("aria-description") or "0") or 0)
            if points > most:
                best, most = name, points
    return best


def keep_most_common(person: Person) -> None:
    """Keep the dice of the face showing most, and only those."""
    faces = person.faces()
    wanted = max(set(faces), key=lambda f: (faces.count(f), f))
    for die, face, kept in zip(person.dice.all(), faces, person.pressed(), strict=True):
        if (face == wanted) != kept:
            die.click()
    pressed = [face == wanted for face in faces]
    assert person.pressed() == pressed


def test_a_whole_game_against_the_computer(page: Page) -> None:
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali", computer=True, autofill="Kapalı")
    for round_ in range(1, 14):
        ali.wait_for_turn("Ali")
        expect(ali.header).to_contain_text(f"Tur {round_}/13")
        expect(ali.button("Turu onayla")).to_be_disabled()
        ali.throw()
        expect(ali.dice).to_have_count(5)
        expect(ali.status).to_contain_text("Ali atıyor: ")
        for throws_left in (1, 0):
            keep_most_common(ali)
            ali.throw()
            expect(ali.button("At")).to_have_accessible_description(f"{throws_left} atış kaldı")
        expect(ali.button("At")).to_be_disabled()
        box = best_box(ali)
        ali.box(box).click()
        expect(ali.box(box)).to_have_attribute("aria-pressed", "true")
        ali.act("Turu onayla")
        expect(ali.box(box)).to_have_count(0)  # written: no longer a button
        if round_ == 7:
            break
    # The rest of the game, faster: the best box for the first throw.
    while not ali.winner().is_visible():
        ali.wait_for_turn("Ali")
        if ali.winner().is_visible():
            break
        ali.throw()
        ali.box(best_box(ali)).click()
        ali.act("Turu onayla")
    expect(ali.winner()).to_contain_text("Kazanan")
    expect(page.get_by_role("list").filter(has_text="IA")).to_contain_text("Ali")


# Scripted throws that fill a card: upper boxes of three of each face (63: the bonus).
FILLS = [
    ("Bir", (1, 1, 1, 2, 3)),
    ("İki", (2, 2, 2, 3, 4)),
    ("Üç", (3, 3, 3, 1, 2)),
    ("Dört", (4, 4, 4, 1, 2)),
    ("Beş", (5, 5, 5, 1, 2)),
    ("Altı", (6, 6, 6, 1, 2)),
    ("Üçlü", (6, 6, 6, 5, 4)),
    ("Dörtlü", (6, 6, 6, 6, 5)),
    ("Küçük seri", (1, 2, 3, 4, 6)),
    ("Büyük seri", (2, 3, 4, 5, 6)),
    ("Şans", (6, 6, 5, 5, 4)),
    ("Penta", (2, 2, 2, 2, 2)),
]


def test_the_sacrifice_and_the_end_of_a_game(page: Page, dice: ScriptedDice) -> None:
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali")
    for box, faces in FILLS:
        dice.script(*faces)
        ali.throw()
        assert ali.faces() == list(faces)
        ali.box(box).click()
        ali.act("Turu onayla")
    expect(page.get_by_role("row", name=re.compile("^Üst toplam"))).to_contain_text("63/63")
    expect(page.get_by_role("row", name=re.compile(r"^Bonus \(63\)"))).to_contain_text("35")
    # Y-1: the Full house, the last open box, scores nothing. While the player may throw
    # again nothing is said; once they are to write (the third throw), the sacrifice is.
    sacrifice = "Açık hiçbir kutu puan getirmiyor: birini feda etmek gerekiyor"
    for throws_left in (2, 1, 0):
        dice.script(1, 1, 3, 4, 6)
        ali.throw()
        expect(ali.box("Full")).to_have_accessible_description("0 puan")
        if throws_left:
            expect(ali.status).not_to_contain_text(sacrifice)
    expect(ali.status).to_contain_text(sacrifice)
    ali.box("Full").click()
    ali.act("Turu onayla")
    expect(ali.winner()).to_have_text("Kazanan: Ali")
    total = 3 + 6 + 9 + 12 + 15 + 18 + 35 + 27 + 29 + 30 + 40 + 26 + 50
    expect(page.locator(".final")).to_contain_text(str(total))
    expect(ali.button("Rövanş")).to_be_visible()
    expect(ali.button("Yeni oyun")).to_be_visible()
    ali.act("Rövanş")
    expect(ali.header).to_contain_text("Tur 1/13")
    expect(ali.header).to_contain_text("Sıra: Ali")


def test_the_jokers_forced_box(page: Page, dice: ScriptedDice) -> None:
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali")
    dice.script(4, 4, 4, 4, 4)
    ali.throw()
    expect(ali.box("Penta")).to_have_accessible_description("50 puan")
    ali.box("Penta").click()
    ali.act("Turu onayla")
    dice.script(4, 4, 4, 4, 4)
    ali.throw()
    # Y-2: the Penta box holds 50 and Fours is empty: Fours is the only box allowed.
    for name in BOXES:
        if name == "Penta":
            expect(ali.box(name)).to_have_count(0)  # filled: no longer a button
        elif name == "Dört":
            expect(ali.box(name)).to_be_enabled()
        else:
            expect(ali.box(name)).to_be_disabled()
    ali.box("Dört").click()
    ali.act("Turu onayla")
    expect(ali.status).to_contain_text("Ali → Dört: 20")
    expect(ali.status).to_contain_text("Penta bonusu: +100")
    expect(page.get_by_role("row", name=re.compile("^TOPLAM"))).to_contain_text("170")


def test_the_autofill_after_the_third_throw(page: Page) -> None:
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali")  # the auto-fill: 3 seconds by default
    for _ in range(3):
        ali.throw()
    countdown = page.get_by_text(re.compile(r"^Otomatik yazma: [123]$"))
    expect(countdown).to_be_visible()
    expect(ali.status).to_contain_text("3 saniye sonra otomatik yazılacak")
    expect(ali.header).to_contain_text("Tur 2/13", timeout=6000)
    expect(ali.status).to_contain_text("Ali → ")
    # A box tapped before the time is up: no auto-fill, the person confirms.
    for _ in range(3):
        ali.throw()
    expect(countdown).to_be_visible()
    box = best_box(ali)
    ali.box(box).click()
    expect(countdown).to_be_hidden()
    page.wait_for_timeout(3500)
    expect(ali.header).to_contain_text("Tur 2/13")
    ali.act("Turu onayla")
    expect(ali.header).to_contain_text("Tur 3/13")


def test_keys_keep_dice_and_throw(page: Page) -> None:
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali")
    page.keyboard.press("Enter")
    # The dice answer the keys once the throw is on screen, not before.
    expect(page.locator("[data-version]")).to_have_attribute("data-version", "1")
    expect(ali.dice).to_have_count(5)
    expect(ali.dice.nth(1)).to_be_enabled()  # the throw landed: the dice take keys
    page.keyboard.press("2")
    expect(ali.dice.nth(1)).to_have_accessible_name(re.compile(r"^\d, tutuldu$"))
    assert ali.pressed() == [False, True, False, False, False]
    kept = ali.faces()[1]
    page.evaluate("document.activeElement.blur()")
    version = ali.version()
    page.keyboard.press("Enter")
    expect(page.locator("[data-version]")).not_to_have_attribute("data-version", version or "")
    assert ali.faces()[1] == kept
    expect(ali.button("At")).to_have_accessible_description("1 atış kaldı")


def test_a_reload_returns_to_the_same_game(page: Page) -> None:
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali", "Ece")
    ali.throw()
    ali.dice.first.click()
    ali.throw()
    faces = ali.faces()
    assert "game=" in page.url
    page.reload()
    expect(ali.dice).to_have_count(5)
    assert ali.faces() == faces
    expect(ali.button("At")).to_have_accessible_description("1 atış kaldı")
    expect(ali.header).to_contain_text("Sıra: Ali")


def test_a_second_screen_follows_and_a_stale_tap_is_refused(page: Page) -> None:
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali")
    follower = Person(page.context.new_page())
    follower.page.goto(page.url)
    expect(follower.button("At")).to_be_visible()
    ali.throw()
    expect(follower.dice).to_have_count(5)
    expect(follower.page.locator("[data-version]")).to_have_attribute("data-version", "1")
    assert follower.faces() == ali.faces()
    # A screen that missed the news taps on an old state: its live stream hangs without a
    # word (a stream that fails says so, and its controls wait).
    stale = Person(page.context.new_page())
    stale.page.route("**/events*", lambda route: None)
    stale.page.goto(page.url)
    expect(stale.dice).to_have_count(5)
    ali.throw()
    stale.button("At").click()
    expect(stale.status).to_contain_text("Oyun bu arada ilerledi: güncel hâli gösteriliyor")
    expect(stale.page.locator("[data-version]")).to_have_attribute("data-version", "2")
    assert stale.faces() == ali.faces()


def test_the_computer_plays_step_by_step_at_a_pace_to_follow(page: Page) -> None:
    page.goto("/")  # the default pace: each of the computer's steps shows a moment
    ali = Person(page)
    ali.new_game("Yams", "Ali", computer=True, autofill="Kapalı")
    ali.throw()
    ali.box(best_box(ali)).click()
    ali.act("Turu onayla")
    expect(page.locator("#banner")).to_have_text("Sıra: IA")
    expect(ali.header).to_contain_text("Sıra: IA")
    expect(ali.status).to_contain_text("IA atıyor: ")  # a throw of its turn, on screen
    expect(ali.dice).to_have_count(5)
    expect(ali.button("At")).to_be_disabled()
    speed = ali.button("Hızlandır")
    speed.click()
    expect(speed).to_have_attribute("aria-pressed", "true")
    ali.wait_for_turn("Ali")
    expect(ali.header).to_contain_text("Tur 2/13")
    expect(page.locator("#banner")).to_have_text("Sıra: Ali")
