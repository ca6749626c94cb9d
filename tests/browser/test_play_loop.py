"""The play loop as a person feels it: the hand-over that never covers the dice, the
auto-fill that waits for someone thinking, messages that last while they are true, the
computer's turn read like a person's, words a newcomer understands, a reload that keeps
what was chosen, the keys, the celebrations, the switches and the home screen that stays
put."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from browser.person import DESKTOP, PHONE, Person
from dice_support import ScriptedDice

AUTOFILL = re.compile(r"^Otomatik yazma: [123]$")


def overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    assert a is not None
    assert b is not None
    return not (
        a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
    )  # fmt: skip


# Pass the phone


def test_the_hand_over_names_the_next_person_without_covering_the_dice(page: Page) -> None:
    page.set_viewport_size(PHONE)
    page.goto("/")  # the default pace: the banner shows a moment
    person = Person(page)
    person.new_game("Yams", "Deniz", "Ayşe", autofill="Kapalı")
    person.throw()
    person.box("Şans").click()
    person.act("Turu onayla")
    banner = page.locator("#banner")
    expect(banner).to_have_text("Sıra: Ayşe")
    expect(banner).to_have_class(re.compile(r"\bshow\b"))
    tray = page.get_by_role("group", name="Zarlar")
    assert not overlap(banner.bounding_box(), tray.bounding_box())
    assert not overlap(banner.bounding_box(), person.button("At").bounding_box())
    # Undone at once: the banner goes with the turn it named; the header says Deniz.
    person.act("Geri al")
    expect(person.header).to_contain_text("Sıra: Deniz")
    expect(banner).not_to_have_class(re.compile(r"\bshow\b"))


def test_the_computers_turn_reads_like_a_persons(page: Page, dice: ScriptedDice) -> None:
    page.set_viewport_size(DESKTOP)  # every column in view: the computer's too
    page.goto("/")  # the default pace: each of the computer's steps shows a moment
    person = Person(page)
    person.new_game("Yams", "Deniz", computer=True, autofill="Kapalı")
    person.throw()
    person.box("Şans").click()
    dice.script(6, 6, 6, 2, 3, 6, 4)  # the computer's first throw, then the two it throws again
    person.act("Turu onayla")
    expect(person.status).to_contain_text("IA atıyor: 6, 6, 6, 2, 3")
    # Its open boxes are buttons of the player on turn, with no would-be score in them.
    expect(person.box("Altı")).to_have_accessible_name("Altı")
    expect(person.box("Altı")).to_be_disabled()
    # It keeps the three sixes: lifted and said, as a person's kept dice are.
    expect(person.status).to_contain_text("IA tutuyor: 6, 6, 6")
    kept = person.dice.filter(has_text="tutuldu")
    expect(kept).to_have_count(3)
    for n in range(3):
        expect(person.dice.nth(n)).to_have_attribute("aria-pressed", "true")
        expect(person.dice.nth(n)).to_have_accessible_name("6, tutuldu")
    # Then the box it writes is outlined on the card, and told.
    person.wait_for_turn("Deniz")
    expect(person.status).to_contain_text("IA → ")
    expect(page.locator("td.just")).to_have_count(1)


def test_the_computer_sets_aside_and_banks_where_all_can_see(
    page: Page, dice: ScriptedDice
) -> None:
    page.goto("/")  # the default pace
    person = Person(page)
    person.new_game("10 000", "Ali", computer=True)  # the seeds' computer: it banks from 300
    dice.script(2, 3, 4, 4, 6, 6)  # F-13: Ali's turn is lost at once
    person.throw()
    dice.script(1, 1, 1, 2, 3, 4)
    expect(person.status).to_contain_text("IA kenara ayırıyor: 1, 1, 1 (+1 000)")
    expect(page.get_by_role("group", name="Zarlar").get_by_role("listitem")).to_contain_text(
        "+1 000"
    )  # the strip of dice set aside
    expect(person.status).to_contain_text("IA kasaya yatırıyor: +1 000")
    scores = page.get_by_role("region", name="Skorlar")
    expect(scores.get_by_role("listitem").filter(has_text="IA")).to_contain_text("+1 000")
    person.wait_for_turn("Ali")
    expect(scores.get_by_role("listitem").filter(has_text="IA")).to_contain_text("1 000")


def test_a_penta_is_celebrated_unless_motion_is_reduced(page: Page, dice: ScriptedDice) -> None:
    page.goto("/")  # the default pace: celebrations play
    person = Person(page)
    person.new_game("Yams", "Deniz", autofill="Kapalı")
    dice.script(3, 3, 3, 3, 3)
    person.throw()
    person.box("Penta").click()
    person.act("Turu onayla")
    expect(page.locator(".celebration")).to_contain_text("Penta!")
    page.emulate_media(reduced_motion="reduce")
    dice.script(4, 4, 4, 4, 4)
    person.throw()
    person.box("Dört").click()  # the Joker: its own upper box, and +100
    person.act("Turu onayla")
    expect(person.status).to_contain_text("Penta bonusu: +100")
    expect(page.locator(".celebration")).to_have_count(0)


def test_sounds_are_off_until_switched_on_and_the_screen_stays_awake(page: Page) -> None:
    page.add_init_script("""
      window.locks = [];
      Object.defineProperty(navigator, "wakeLock", { value: {
        request: async (type) => { window.locks.push(type);
          return { release: async () => window.locks.push("released") }; } } });
    """)
    person = Person(page)
    person.open()
    person.new_game("Yams", "Deniz")
    switch = person.button("Ses ve titreşim")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(person.button("Ses ve titreşim")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.locks") == ["screen"]
    page.get_by_role("link", name="Zar, Ana sayfa").click()
    expect(page.get_by_role("button", name="Yeni oyun")).to_be_visible()
    assert page.evaluate("window.locks") == ["screen", "released"]


# Time that respects people


def third_throw(person: Person) -> None:
    for _ in range(3):
        person.throw()
    expect(person.page.get_by_text(AUTOFILL)).to_be_visible()


def test_the_autofill_waits_for_a_player_reading_the_coach(page: Page) -> None:
    person = Person(page)
    person.open()
    person.new_game("Yams", "Deniz")  # alone: coached; the auto-fill after 3 s
    third_throw(person)
    person.ask_coach()
    expect(page.get_by_text(AUTOFILL)).to_be_hidden()
    page.wait_for_timeout(3500)
    expect(person.header).to_contain_text("Tur 1/13")
    expect(person.coach).to_be_visible()


def test_a_reload_with_the_coach_open_still_holds_the_autofill(page: Page) -> None:
    person = Person(page)
    person.open()
    person.new_game("Yams", "Deniz")  # alone: coached; the auto-fill after 3 s
    third_throw(person)
    person.ask_coach()
    page.reload()
    expect(person.coach).to_be_visible()
    expect(page.get_by_text(AUTOFILL)).to_be_hidden()
    page.wait_for_timeout(3500)
    expect(person.header).to_contain_text("Tur 1/13")  # nothing written while they read
    expect(person.coach).to_be_visible()


def test_the_autofill_waits_for_a_player_touching_the_dice(page: Page) -> None:
    person = Person(page)
    person.open()
    person.new_game("Yams", "Deniz", hints=[False])
    third_throw(person)
    person.dice.first.click(force=True)  # disabled after the third throw, yet touched
    expect(page.get_by_text(AUTOFILL)).to_be_hidden()
    page.wait_for_timeout(3500)
    expect(person.header).to_contain_text("Tur 1/13")


def test_an_undo_does_not_rush_the_choice_again(page: Page) -> None:
    person = Person(page)
    person.open()
    person.new_game("Yams", "Deniz", hints=[False])
    third_throw(person)
    person.box("Şans").click()
    person.act("Turu onayla")
    person.act("Geri al")
    expect(person.header).to_contain_text("Tur 1/13")
    expect(page.get_by_text(AUTOFILL)).to_be_hidden()
    page.wait_for_timeout(3500)
    expect(person.header).to_contain_text("Tur 1/13")  # they write it themselves
    expect(person.box("Şans")).to_be_enabled()


# Messages that are true


def test_a_lost_turn_is_said_until_the_next_scoring_throw(page: Page, dice: ScriptedDice) -> None:
    person = Person(page)
    person.open()
    person.new_game("10 000", "Ali", "Ece")
    dice.script(2, 3, 4, 4, 6, 6)  # F-13: nothing scores
    person.throw()
    expect(person.status).to_contain_text("Tour perdu ! — Tur kaybedildi")
    person.wait_for_turn("Ece")
    dice.script(1, 2, 3, 4, 6, 6)
    person.throw()
    expect(person.status).not_to_contain_text("Tour perdu")


def test_a_refused_die_is_said_until_the_next_tap(page: Page, dice: ScriptedDice) -> None:
    person = Person(page)
    person.open()
    person.new_game("10 000", "Ali", "Ece")
    dice.script(1, 6, 2, 3, 4, 6)
    person.throw()
    person.dice.nth(1).click()  # a lone 6
    expect(person.status).to_contain_text("Tek başına 6 puan getirmiyor")
    person.dice.nth(0).click()  # the 1: +100
    expect(person.button("Kasaya yatır")).to_have_accessible_description("+100")
    expect(person.status).not_to_contain_text("puan getirmiyor")


# Words a newcomer understands


def test_the_computer_is_computer_in_english_and_its_name_is_its_own(page: Page) -> None:
    person = Person(page)
    person.open("/?lang=en")
    page.get_by_role("button", name="New game").click()
    dialog = page.get_by_role("dialog")
    computer = dialog.get_by_role("checkbox", name="Humains + 1 IA")
    expect(computer).to_have_accessible_description("Adds the computer as an opponent")
    dialog.get_by_role("textbox", name="Player 1").fill("Ali")
    computer.check()
    expect(dialog.get_by_role("combobox", name="Level")).to_have_value("expert")
    dialog.get_by_role("button", name="Start").click()
    expect(page.get_by_role("columnheader", name="Computer").first).to_be_visible()
    person.open("/?lang=tr")
    page.get_by_role("button", name="Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("textbox", name="Oyuncu 1").fill("IA")
    dialog.get_by_role("checkbox", name="Humains + 1 IA").check()
    dialog.get_by_role("button", name="Başlat").click()
    expect(dialog.get_by_role("alert")).to_have_text(
        "IA bilgisayarın adı: bu oyuncuya başka bir ad verin"
    )


def test_an_english_screen_calls_the_computer_computer_in_any_game(page: Page) -> None:
    """A game started in Turkish stores the computer as "IA": on an English screen it is
    "Computer" wherever it shows, in French "IA" again."""
    page.set_viewport_size(PHONE)  # the totals over the felt, and the card
    person = Person(page)
    person.open()
    person.new_game("Yams", "Ali", computer=True)
    game = page.url.split("game=")[1].split("&")[0]
    scores = page.get_by_role("region", name="Skorlar")
    expect(scores.get_by_role("button", name=re.compile("^IA"))).to_be_visible()
    person.open(f"/?game={game}&lang=en")
    scores = page.get_by_role("region", name="Scores")
    expect(scores.get_by_role("button", name=re.compile("^Computer"))).to_be_visible()
    expect(page.get_by_role("main")).not_to_contain_text(re.compile(r"\bIA\b"))
    person.open(f"/?game={game}&lang=fr")
    expect(scores.get_by_role("button", name=re.compile("^IA"))).to_be_visible()


def test_the_seeds_checkbox_says_what_it_means_in_each_language(page: Page) -> None:
    """`Humains + 1 IA` first, word for word, then its meaning in the page's language."""
    person = Person(page)
    for lang, button, meaning in (
        ("tr", "Yeni oyun", "Humains + 1 IA — İnsanlar ve bilgisayar"),
        ("en", "New game", "Humains + 1 IA — People and the computer"),
        ("fr", "Nouvelle partie", "Humains + 1 IA"),
    ):
        person.open(f"/?lang={lang}")
        page.get_by_role("button", name=button).click()
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_role("checkbox", name=meaning, exact=True)).to_be_visible()
        page.keyboard.press("Escape")


def test_each_game_keeps_its_own_level_and_says_what_it_does(page: Page) -> None:
    person = Person(page)
    person.open()
    page.get_by_role("button", name="Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("checkbox", name="Humains + 1 IA").check()
    level = dialog.get_by_role("combobox", name="Seviye")
    expect(level).to_have_value("expert")  # Yams: the optimal player
    expert = "Usta: en yüksek ortalama puan için oynar"
    expect(level.get_by_role("option", name=expert)).to_be_attached()
    dialog.get_by_role("radio", name="10 000").check()
    expect(level).to_have_value("seed")  # the documented default, whatever Yams had
    seed = "Temkinli: 300 puan civarında kasaya yatırır"
    expect(level.get_by_role("option", name=seed)).to_be_attached()
    level.select_option("max-points")
    dialog.get_by_role("radio", name="Yams").check()
    expect(level).to_have_value("expert")
    dialog.get_by_role("radio", name="10 000").check()
    expect(level).to_have_value("max-points")  # each game keeps its own choice


# Nothing chosen is lost on a reload


def test_a_reload_keeps_the_kept_dice_the_chosen_box_and_the_open_coach(
    page: Page, dice: ScriptedDice
) -> None:
    person = Person(page)
    person.open()
    person.new_game("Yams", "Deniz", autofill="Kapalı")
    dice.script(2, 2, 5, 5, 5)
    person.throw()
    for n in (2, 3, 4):
        person.dice.nth(n).click()
    person.ask_coach()
    page.reload()
    expect(person.dice).to_have_count(5)
    expect(person.coach).to_be_visible()
    assert person.pressed() == [False, False, True, True, True]
    person.box("Full").click()
    page.reload()
    expect(person.box("Full")).to_have_attribute("aria-pressed", "true")
    expect(person.button("Turu onayla")).to_be_enabled()


def test_a_reload_keeps_the_dice_chosen_to_set_aside(page: Page, dice: ScriptedDice) -> None:
    person = Person(page)
    person.open()
    person.new_game("10 000", "Ali", "Ece")
    dice.script(1, 5, 2, 3, 4, 6)
    person.throw()
    person.dice.nth(0).click()
    person.dice.nth(1).click()
    page.reload()
    expect(person.button("Kasaya yatır")).to_have_accessible_description("+150")
    assert person.pressed() == [True, True, False, False, False, False]


# Keyboard


def test_a_key_confirms_the_round_and_a_key_banks(page: Page, dice: ScriptedDice) -> None:
    person = Person(page)
    person.open()
    person.new_game("Yams", "Deniz", "Ayşe", autofill="Kapalı")
    page.keyboard.press("Enter")
    expect(page.locator("[data-version]")).to_have_attribute("data-version", "1")
    person.box("Şans").click()
    page.keyboard.press("o")
    person.wait_for_turn("Ayşe")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused.startswith("At")  # the next person's throw, at hand
    person.open()
    person.new_game("10 000", "Ali", "Ece")
    dice.script(1, 5, 2, 3, 4, 6)
    page.keyboard.press("Enter")
    expect(person.dice.first).to_be_enabled()
    page.keyboard.press("1")
    page.keyboard.press("k")
    person.wait_for_turn("Ece")
    expect(page.get_by_role("region", name="Skorlar")).to_contain_text("100")


def test_a_touch_screen_shows_no_keyboard_hint(browser: Browser, base_url: str) -> None:
    """A phone (a touch screen, its pointer a finger) is told no keys; a desktop is."""
    for touch in (False, True):
        context = browser.new_context(
            base_url=base_url, viewport=PHONE, has_touch=touch, is_mobile=touch
        )
        person = Person(context.new_page())
        person.open()
        person.new_game("Yams", "Ali")
        hint = person.page.get_by_text("Klavye: 1–5 zar tutar")
        if touch:
            expect(hint).to_be_hidden()
            person.button("At").tap()  # and once touched, whatever the screen says of itself
            expect(hint).to_be_hidden()
        else:
            expect(hint).to_be_visible()
        context.close()


# The home screen and the theme


def test_the_home_screen_does_not_move_under_a_finger(page: Page) -> None:
    for name in ("Ali", "Ece", "Can", "Su"):
        page.request.post("/api/games", data={"game": "yams", "players": [name]})
    page.add_init_script("""
      window.shifts = 0;
      new PerformanceObserver((list) => {
        for (const one of list.getEntries()) if (!one.hadRecentInput) window.shifts += one.value;
      }).observe({ type: "layout-shift", buffered: true });
    """)
    page.set_viewport_size(PHONE)
    person = Person(page)
    person.open()
    start = page.get_by_role("button", name="Yeni oyun")
    expect(start).to_be_visible()
    first = start.bounding_box()
    page.wait_for_timeout(800)
    assert start.bounding_box() == first
    assert page.evaluate("window.shifts") <= 0.01
    # Three shown, all one tap away; each with its date and how far it is.
    resume = page.get_by_role("region", name="Yarım kalan oyunlar")
    expect(resume.get_by_role("listitem")).to_have_count(3)
    page.get_by_role("link", name="Tümünü gör").click()
    for name in ("Ali", "Ece", "Can", "Su"):
        expect(page.get_by_role("listitem").filter(has_text=f"{name} 0").first).to_contain_text(
            "Tur 1/13 · Sıra: "
        )


def test_an_unfinished_game_is_abandoned_after_a_question(page: Page) -> None:
    game = page.request.post("/api/games", data={"game": "10000", "players": ["Ayla"]}).json()
    person = Person(page)
    person.open("/?view=games")
    item = page.get_by_role("listitem").filter(has_text="Ayla")
    item.get_by_role("button", name=re.compile("^Bırak")).click()
    question = page.get_by_role("dialog", name="Bu oyun bırakılsın mı?")
    expect(question).to_contain_text("silinmez")
    question.get_by_role("button", name="Vazgeç").click()
    expect(item).to_be_visible()
    item.get_by_role("button", name=re.compile("^Bırak")).click()
    page.get_by_role("dialog").get_by_role("button", name="Oyunu bırak").click()
    expect(item).to_have_count(0)
    assert page.request.get(f"/api/games/{game['id']}").json()["abandoned"] is True
    listed = page.request.get("/api/games?finished=false&limit=200").json()
    assert game["id"] not in [g["id"] for g in listed]


def test_the_first_tap_on_the_theme_changes_what_is_seen(page: Page) -> None:
    page.set_viewport_size(PHONE)
    page.emulate_media(color_scheme="light")
    person = Person(page)
    person.open()
    before = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.get_by_role("button", name=re.compile("^Tema")).click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != before
