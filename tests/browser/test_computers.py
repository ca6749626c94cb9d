"""Several computers at the table (issue 23), through the page: the dialog seats them
(`Bilgisayar ekle`, each with its level), they play one after another at the page's pace,
alone too while the device watches, and a table of seven fits a phone and a desktop."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from browser.person import BOXES, DESKTOP, PHONE, Person
from browser.test_axe import seen, violations  # noqa: F401 (seen: a fixture)
from dice_support import ScriptedDice

SMALL_PHONE = {"width": 360, "height": 740}


def dialog_of(page: Page) -> Locator:
    page.get_by_role("button", name="Yeni oyun").click()
    return page.get_by_role("dialog")


def add_computer(dialog: Locator) -> None:
    dialog.get_by_role("button", name="Bilgisayar ekle").click()


def test_the_dialog_seats_computers_up_to_seven_seats(page: Page, output: Path) -> None:
    page.set_viewport_size(SMALL_PHONE)
    person = Person(page)
    person.open()
    dialog = dialog_of(page)
    computer = dialog.get_by_role("checkbox", name="Humains + 1 IA")
    expect(computer).not_to_be_checked()  # the seed's dialog by default
    dialog.get_by_role("button", name="Oyuncu ekle").click()
    page.screenshot(path=str(output / "computers-dialog-people-360x740.png"))
    dialog.get_by_role("button", name="Sil: Oyuncu 2").click()
    add_computer(dialog)  # the first computer is the seed's
    expect(computer).to_be_checked()
    expect(dialog.get_by_role("combobox", name="Seviye", exact=True)).to_be_enabled()
    add_computer(dialog)
    add_computer(dialog)
    for name in ("IA 2", "IA 3"):
        expect(dialog.get_by_role("combobox", name=f"Seviye: {name}")).to_have_value("expert")
    dialog.get_by_role("combobox", name="Seviye: IA 3").select_option("easy")
    dialog.get_by_role("button", name="Sil: IA 2").click()  # IA 3 moves up, its level with it
    expect(dialog.get_by_role("combobox", name="Seviye: IA 2")).to_have_value("easy")
    expect(dialog.get_by_role("combobox", name="Seviye: IA 3")).to_have_count(0)
    # Seven seats in all: one person and six computers, or five people and two.
    for _ in range(4):
        add_computer(dialog)
    expect(dialog.get_by_role("button", name="Bilgisayar ekle")).to_be_disabled()
    expect(dialog.get_by_role("button", name="Oyuncu ekle")).to_be_disabled()
    expect(dialog.get_by_role("combobox", name="Seviye: IA 6")).to_be_visible()
    dialog.get_by_role("button", name="Sil: IA 6").click()
    expect(dialog.get_by_role("button", name="Oyuncu ekle")).to_be_enabled()
    dialog.get_by_role("button", name="Oyuncu ekle").click()
    expect(dialog.get_by_role("button", name="Bilgisayar ekle")).to_be_disabled()
    in_view(page, person.button("Başlat"))  # however many rows, `Başlat` stays in view
    page.screenshot(path=str(output / "computers-dialog-360x740.png"))
    # The seed's box off: the computers go with it.
    computer.uncheck()
    expect(dialog.get_by_role("combobox", name=re.compile("^Seviye: IA"))).to_have_count(0)
    expect(dialog.get_by_role("button", name="Bilgisayar ekle")).to_be_enabled()


def test_ali_plays_yams_against_ia_and_ia_2_to_the_end(page: Page) -> None:
    person = Person(page)
    person.open()
    dialog = dialog_of(page)
    dialog.get_by_role("textbox", name="Oyuncu 1").fill("Ali")
    add_computer(dialog)
    dialog.get_by_role("combobox", name="Seviye", exact=True).select_option("easy")
    add_computer(dialog)
    dialog.get_by_role("combobox", name="Seviye: IA 2").select_option("easy")
    dialog.get_by_role("radiogroup", name="Otomatik yazma").get_by_role(
        "radio", name="Kapalı", exact=True
    ).check()
    person.button("Başlat").click()
    expect(person.button("At")).to_be_visible()
    for _ in range(13):
        person.wait_for_turn("Ali")
        person.throw()
        boxes = (person.box(name) for name in BOXES)  # the open ones are buttons
        next(box for box in boxes if box.count() and box.is_enabled()).click()
        person.act("Turu onayla")
    # IA and IA 2 play their last rounds by themselves, one after the other.
    expect(person.winner()).to_be_visible()
    finals = page.locator(".final .pill")
    expect(finals).to_have_count(3)
    assert sorted(finals.all_inner_texts()) == ["Ali", "IA", "IA 2"]
    # Both computers wrote their whole cards.
    cards = page.request.get(f"/api/games/{page.url.split('game=')[1].split('&')[0]}").json()
    assert all(None not in card["boxes"].values() for card in cards["cards"])


def test_three_computers_play_10000_alone_while_the_device_watches(page: Page) -> None:
    person = Person(page)
    person.open()
    dialog = dialog_of(page)
    dialog.get_by_role("radio", name="10 000").check()
    dialog.get_by_role("radiogroup", name="Hedef").get_by_role(
        "radio", name="5 000", exact=True
    ).check()
    for _ in range(3):
        add_computer(dialog)
    dialog.get_by_role("button", name="Sil: Oyuncu 1").click()  # nobody but the computers
    expect(dialog.get_by_role("textbox")).to_have_count(0)
    person.button("Başlat").click()
    # Nobody's turn on this device: the computers play by themselves, one after another.
    expect(person.button("At")).to_be_disabled()
    expect(person.winner()).to_be_visible(timeout=60_000)
    finals = page.locator(".final .pill")
    expect(finals).to_have_count(3)
    assert sorted(finals.all_inner_texts()) == ["IA", "IA 2", "IA 3"]
    # The review judges people: none here.
    expect(page.get_by_role("button", name="İnceleme")).to_have_count(0)
    # A rematch seats the same three again, and they play it too.
    first = page.url
    page.get_by_role("button", name="Rövanş").click()
    expect(page).not_to_have_url(first)
    expect(person.winner()).to_be_visible(timeout=60_000)
    assert sorted(finals.all_inner_texts()) == ["IA", "IA 2", "IA 3"]


def seven(page: Page, game: str) -> dict[str, Any]:
    """A game of three people and four computers (at their quickest levels)."""
    level = "easy" if game == "yams" else "seed"
    body = {"game": game, "players": ["Ali", "Ayşe", "Mehmet"], "computers": [level] * 4}
    reply = page.request.post("/api/games", data=body)
    assert reply.ok, reply.text()
    started: dict[str, Any] = reply.json()
    return started


def in_view(page: Page, locator: Locator) -> None:
    """``locator`` wholly inside the viewport, not scrolled to."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    assert box["x"] >= 0, box
    assert box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"] + 0.5, (box, size)
    assert box["y"] + box["height"] <= size["height"] + 0.5, (box, size)


def test_a_table_of_seven_fits_a_phone_and_a_desktop(
    page: Page, dice: ScriptedDice, output: Path
) -> None:
    person = Person(page)
    for size, label in ((SMALL_PHONE, "360x740"), (PHONE, "390x844"), (DESKTOP, "1280x800")):
        page.set_viewport_size(size)
        for game in (seven(page, "10000"), seven(page, "yams")):
            person.open(f"/?game={game['id']}")
            if game["game"] == "10000":  # a throw that scores: a lost turn would clear the felt
                dice.script(1, 5, 2, 3, 4, 6)
            person.throw()  # the dice on the felt, as a turn shows them
            expect(person.dice).to_have_count(5 if game["game"] == "yams" else 6)
            expect(page.locator(".banner.show")).to_have_count(0)
            for die in person.dice.all():
                in_view(page, die)
            in_view(page, person.button("At"))
            second = "Turu onayla" if game["game"] == "yams" else "Kasaya yatır"
            in_view(page, page.get_by_role("button", name=re.compile(f"^{second}")))
            in_view(page, person.header)
            if game["game"] == "yams":  # Ali's boxes: the first and the last of the card
                in_view(page, person.box("Bir"))
            else:  # the scoreboard's totals, all seven
                totals = page.locator("li.score")
                expect(totals).to_have_count(7)
                for total in totals.all():
                    in_view(page, total)
            scroll = page.evaluate("document.documentElement.scrollWidth")
            assert scroll <= size["width"], (label, scroll)
            page.screenshot(path=str(output / f"computers-seven-{game['game']}-{label}.png"))


def test_the_dialog_with_computers_has_no_axe_violation(seen: Page) -> None:  # noqa: F811
    page = seen
    for size in (SMALL_PHONE, DESKTOP):
        page.set_viewport_size(size)
        Person(page).open()
        dialog = dialog_of(page)
        for _ in range(3):
            add_computer(dialog)
        dialog.get_by_role("button", name="Oyuncu ekle").click()
        expect(dialog.get_by_role("combobox", name="Seviye: IA 3")).to_be_visible()
        assert violations(page) == []


def test_the_dialog_names_the_computers_in_the_pages_language(page: Page) -> None:
    for lang, add, level in (
        ("en", "Add a computer", "Level: Computer 2"),
        ("fr", "Ajouter un ordinateur", "Niveau: IA 2"),
    ):
        Person(page).open(f"/?lang={lang}")
        page.get_by_role("button", name={"en": "New game", "fr": "Nouvelle partie"}[lang]).click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_role("button", name=add).click()
        dialog.get_by_role("button", name=add).click()
        expect(dialog.get_by_role("combobox", name=level)).to_be_visible()
