"""House rules through the page (docs/rules.md, "House rules"): the dialog's `Kurallar`
says what each preset is and offers the computer's levels it has; a game of Scandinavian
Yatzy against the computer played to its end on its fifteen boxes; its rules named on its
screen and linked to their section of the rules page; the phone's one screen."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from browser.person import DESKTOP, PHONE, Person, tap
from browser.test_layout import at_least, fits, in_view
from dice_support import ScriptedDice
from server.warm_support import Spawned
from support import until
from zar.ai.farkle import WinStrategy
from zar.ai.yams import Strategy
from zar.ai.yams_win import calibration, late_laws
from zar.farkle import PRESETS, FarkleRules
from zar.server import penalty_tables

YATZY = (
    "Bir", "İki", "Üç", "Dört", "Beş", "Altı", "Çift", "Çifte çift", "Üçlü", "Dörtlü",
    "Küçük seri", "Büyük seri", "Full", "Şans", "Yatzy",
)  # fmt: skip


@pytest.fixture(autouse=True)
def _solved(solved: Callable[[str], Strategy]) -> None:
    # Read by the server from the session's cache, not built in a test: the strategy, and
    # the play-to-win level's laws and calibration.
    strategy = solved("scandinavian")
    late_laws(strategy)
    calibration(strategy)


def choose_rules(person: Person, name: str) -> None:
    dialog = person.page.get_by_role("dialog")
    dialog.get_by_role("combobox", name="Kurallar").select_option(label=name)


def test_the_dialog_says_each_preset_and_its_levels(page: Page) -> None:
    ali = Person(page)
    ali.open()
    ali.button("Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    rules = dialog.get_by_role("combobox", name="Kurallar")
    expect(rules).to_have_value("standard")  # the seeds' by default
    expect(rules.get_by_role("option")).to_have_text(
        ["Yams (oyunun kuralları)", "Yahtzee (Hasbro)", "Serbest Joker", "İskandinav Yatzy"]
    )
    expect(rules).to_have_accessible_description(re.compile("^13 kutu"))
    level = dialog.get_by_role("combobox", name="Seviye")
    expect(level.get_by_role("option")).to_have_count(3)
    rules.select_option(label="İskandinav Yatzy")
    expect(rules).to_have_accessible_description(re.compile("^15 kutu"))
    expect(level.get_by_role("option")).to_have_text(
        [re.compile("^Usta"), re.compile("^Rakip avcısı")]
    )  # not the easy player, which knows our card alone
    dialog.get_by_role("radiogroup", name="Oyun").get_by_role("radio", name="10 000").check()
    expect(rules).to_have_value("seed")
    dialog.get_by_role("radiogroup", name="Oyun").get_by_role("radio", name="Yams").check()
    expect(rules).to_have_value("scandinavian")  # each game keeps its choice


def held_build(monkeypatch: pytest.MonkeyPatch, table: tuple[int, FarkleRules]) -> Spawned:
    """The server's builds its own, ``table``'s wanted and held until the test lets go."""
    build = Spawned()
    monkeypatch.setattr(penalty_tables, "builds", penalty_tables.Builds())
    monkeypatch.setattr(penalty_tables, "own_process", build)
    penalty_tables.builds.want([table])
    return build


def facebook_dialog(page: Page) -> tuple[Person, Locator]:
    """Ali's new-game dialog open on 10 000 under Facebook Farkle."""
    ali = Person(page)
    ali.open()
    ali.button("Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("radiogroup", name="Oyun").get_by_role("radio", name="10 000").check()
    choose_rules(ali, "Facebook Farkle")
    return ali, dialog


def test_the_dialog_says_when_an_expert_is_on_its_way(
    page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While this server builds Facebook Farkle's table (held here), its rules say that the
    expert is being prepared, and the levels are the two it has; once the build is over,
    the dialog opened again says it no more."""
    build = held_build(monkeypatch, (10_000, PRESETS["facebook"]))
    ali, dialog = facebook_dialog(page)
    rules = dialog.get_by_role("combobox", name="Kurallar")
    expect(rules).to_have_accessible_description(re.compile(r"Usta seviyesi hazırlanıyor"))
    dialog.get_by_role("checkbox", name="Humains + 1 IA").check()
    level = dialog.get_by_role("combobox", name="Seviye")
    expect(level.get_by_role("option")).to_have_text(
        [re.compile("^Temkinli"), re.compile("^Puan avcısı")]
    )
    build.go.set()
    until(lambda: not penalty_tables.builds.wanted((10_000, PRESETS["facebook"])))
    ali.button("Vazgeç").click()
    ali.button("Yeni oyun").click()
    expect(rules).to_have_value("facebook")  # the choice kept
    expect(rules).to_have_accessible_description(re.compile("^Kasa en az 300"))
    expect(rules).not_to_have_accessible_description(re.compile("hazırlanıyor"))


def test_the_dialog_offers_the_expert_to_each_target_whose_table_is_ready(
    page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Facebook Farkle's table of 10 000 ready, that of 5 000 being built (held here): to
    10 000 the dialog offers `Usta`; to 5 000 not, and its rules say it is on its way; back
    to 10 000, the level chosen is chosen again."""
    facebook = PRESETS["facebook"]
    monkeypatch.setattr(
        WinStrategy,
        "cached",
        classmethod(lambda cls, target, rules=None: (target, rules) == (10_000, facebook)),
    )
    build = held_build(monkeypatch, (5_000, facebook))
    _, dialog = facebook_dialog(page)
    rules = dialog.get_by_role("combobox", name="Kurallar")
    dialog.get_by_role("checkbox", name="Humains + 1 IA").check()
    level = dialog.get_by_role("combobox", name="Seviye")
    expect(level.get_by_role("option")).to_have_text(
        [re.compile("^Temkinli"), re.compile("^Puan avcısı"), re.compile("^Usta")]
    )
    level.select_option("expert")
    expect(rules).not_to_have_accessible_description(re.compile("hazırlanıyor"))
    target = dialog.get_by_role("radiogroup", name="Hedef")
    target.get_by_role("radio", name="5 000", exact=True).check()
    expect(level.get_by_role("option")).to_have_text(
        [re.compile("^Temkinli"), re.compile("^Puan avcısı")]
    )
    expect(rules).to_have_accessible_description(re.compile(r"Usta seviyesi hazırlanıyor"))
    target.get_by_role("radio", name="10 000", exact=True).check()
    expect(level).to_have_value("expert")
    expect(rules).not_to_have_accessible_description(re.compile("hazırlanıyor"))
    build.go.set()  # the build let go: none held past the test
    until(lambda: not penalty_tables.builds.wanted((5_000, facebook)))


def yatzy(page: Page, *, computer: bool = False, level: str | None = None) -> Person:
    """Ali's new game of Scandinavian Yatzy (against the computer, at the level whose words
    start with ``level``), the auto-fill off."""
    ali = Person(page)
    ali.open()
    ali.button("Yeni oyun").click()
    choose_rules(ali, "İskandinav Yatzy")
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("textbox", name="Oyuncu 1").fill("Ali")
    dialog.get_by_role("checkbox", name="Humains + 1 IA").set_checked(computer)
    if level is not None:
        levels = dialog.get_by_role("combobox", name="Seviye")
        chosen = levels.get_by_role("option", name=re.compile(f"^{level}"))
        levels.select_option(chosen.get_attribute("value"))
    dialog.get_by_role("radiogroup", name="Otomatik yazma").get_by_role(
        "radio", name="Kapalı"
    ).check()
    ali.button("Başlat").click()
    expect(ali.button("At")).to_be_visible()
    return ali


def test_a_game_of_scandinavian_yatzy_to_its_end(page: Page, output: Path) -> None:
    page.set_viewport_size(PHONE)
    ali = yatzy(page, computer=True, level="Rakip avcısı")  # the computer plays to win
    link = page.get_by_role("link", name="Kurallar: İskandinav Yatzy")
    expect(link).to_have_attribute("href", "/static/rules/tr.html#rules-yams-scandinavian")
    for round_ in range(1, 16):
        ali.wait_for_turn("Ali")
        expect(ali.header).to_contain_text(f"Tur {round_}/15")
        ali.throw()
        open_boxes = [name for name in YATZY if ali.box(name).count()]
        assert len(open_boxes) == 16 - round_
        if round_ == 1:
            for name in ("Çift", "Çifte çift", "Yatzy"):
                expect(ali.box(name)).to_be_enabled()
            ali.shot(output, "yatzy-phone-390")
            in_view(page, ali.button("At"), ali.button("Turu onayla"), ali.dice)
        ali.box(open_boxes[0]).click()
        ali.act("Turu onayla")
    expect(ali.winner()).to_contain_text("Kazanan")
    ali.shot(output, "yatzy-end-390")
    game = page.request.get(f"/api/games/{page.url.split('game=')[1].split('&')[0]}").json()
    assert game["players"][1] == {"name": "IA", "computer": True, "level": "win"}
    assert None not in game["cards"][1]["boxes"].values()  # its fifteen boxes, played to win
    expect(link).to_be_visible()  # beside the review
    # Every box of both cards written: 15 rows of numbers, the upper bonus of 50 or 0.
    expect(page.get_by_role("button", name=re.compile(r"^(Çift|Yatzy)\b"))).to_have_count(0)
    ali.button("Rövanş").click()  # the same rules again
    expect(page.get_by_role("link", name="Kurallar: İskandinav Yatzy")).to_be_visible()
    expect(ali.header).to_contain_text("Tur 1/15")
    page.get_by_role("link", name="Kurallar: İskandinav Yatzy").click()
    expect(page.get_by_role("heading", name="İskandinav Yatzy")).to_be_visible()
    # The statistics: one set of rules at a time, the game's own first; Ali's Yatzy game
    # counts under Yatzy's.
    ali.open("/?view=stats&kind=yams")
    rules = page.get_by_role("combobox", name="Kurallar")
    expect(rules).to_have_value("standard")
    rules.select_option(label="İskandinav Yatzy")
    expect(page.get_by_role("table").first).to_contain_text("Ali")
    # Its own figures: the Yatzys written, and no Penta bonus, which its card has not.
    own = page.get_by_role("table").nth(1).get_by_role("columnheader")
    expect(own).to_have_text(["Oyuncu", "Üst bonus", "Yatzy"])
    assert page.request.get("/api/stats?game=yams&rules=scandinavian").json()["players"]


@pytest.mark.parametrize("size", [PHONE, {"width": 360, "height": 740}, DESKTOP])
def test_the_fifteen_boxes_and_the_turn_fit_the_screen(
    page: Page, output: Path, size: dict[str, int]
) -> None:
    page.set_viewport_size(size)
    ali = yatzy(page)
    ali.throw()
    ali.shot(output, f"yatzy-{size['width']}")
    in_view(page, ali.button("At"), ali.button("Turu onayla"), ali.dice)
    for control in (ali.button("At"), ali.dice):
        at_least(control, 44, 44)
    boxes = page.get_by_role("button", name=re.compile(rf"^({'|'.join(YATZY)})(\s|$)"))
    expect(boxes).to_have_count(15)
    expect(page.get_by_text("Penta bonusu")).to_have_count(0)  # Yatzy gives no +100
    if size == DESKTOP:  # the whole card, its total row in view
        in_view(page, page.get_by_role("row", name=re.compile("^TOPLAM")))
    fits(page)  # nothing wider than the screen


def farkle_alone(page: Page, rules: str, *, said: str) -> Person:
    """Ali's new game of 10 000 alone under the house rules named ``rules`` in the dialog,
    whose line on them says ``said``."""
    ali = Person(page)
    ali.open()
    ali.button("Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("radiogroup", name="Oyun").get_by_role("radio", name="10 000").check()
    choose_rules(ali, rules)
    expect(dialog.get_by_role("combobox", name="Kurallar")).to_have_accessible_description(
        re.compile(said)
    )
    dialog.get_by_role("textbox", name="Oyuncu 1").fill("Ali")
    ali.button("Başlat").click()
    expect(ali.button("At")).to_be_visible()
    return ali


def test_10000_under_an_entry_says_why_the_bank_waits(
    page: Page, dice: ScriptedDice, output: Path
) -> None:
    """entry-500: 250 in the turn before Ali is on the board; `Kasaya yatır` greyed and the
    felt says what is missing; with 550 the bank is taken."""
    ali = farkle_alone(page, "Giriş 500", said="en az 500")
    expect(page.get_by_role("link", name="Kurallar: Giriş 500")).to_be_visible()
    dice.script(2, 5, 1, 3, 1, 4)
    ali.throw()
    tap(ali, 5, 1, 1)
    bank = ali.button("Kasaya yatır")
    expect(bank).to_be_disabled()
    expect(bank).to_have_accessible_description("Kasaya yatırmak için 250 puan daha gerek")
    expect(page.get_by_text("Kasaya yatırmak için 250 puan daha gerek")).to_be_visible()
    ali.shot(output, "entry-500-bank-waits")
    dice.script(3, 3, 3)
    ali.throw()
    tap(ali, 3, 3, 3)
    expect(bank).to_be_enabled()
    ali.act("Kasaya yatır")
    expect(ali.header).to_contain_text("550")


def test_10000_under_a_penalty_warns_then_takes_it(page: Page, dice: ScriptedDice) -> None:
    """three-lost-500: after two lost turns in a row the status warns; the third costs 500,
    said with its cost, the total below 0."""
    ali = farkle_alone(page, "Üç kayıp tur: −500", said="500 puan götürür")
    for lost in (1, 2, 3):
        dice.script(2, 3, 4, 4, 6, 6)  # nothing scores: "Tour perdu !"
        ali.throw()
        expect(ali.status).to_contain_text("Tour perdu !")
        if lost == 2:
            expect(ali.status).to_contain_text("Üst üste iki kayıp tur: bir tane daha −500")
    expect(ali.status).to_contain_text("Ali üst üste üç turu kaybetti: −500")
    expect(ali.header).to_contain_text("−500")
