"""The accessible names outside tests rely on (the box buttons, the seat buttons, `At`,
`Turu onayla`, `Kasaya yatır`, `Davet et`, `Davet bağlantısı`, `İzleme bağlantısı`,
`QR kodu`) are the names Firefox and WebKit give them, found by their accessibility trees;
and nothing is logged on loading (WebKit once said, on every load, that it did not know a
directive of the content security policy)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dice_support import ScriptedDice
from engines.drivers import Tab, until
from engines.person import Person
from zar.ai.farkle import WinStrategy
from zar.farkle import PRESETS


def test_the_names_of_a_game_and_its_invitation(
    new_tab: Callable[[], Tab], base_url: str, dice: ScriptedDice
) -> None:
    ali = Person(new_tab(), base_url)
    ali.open()
    ali.new_game("Yams", "Ali", "Ayşe", autofill="Kapalı")
    dice.script(2, 2, 5, 5, 5)
    ali.throw()
    ali.button("At").get()
    for name in ("Full 25", "Bir 0", "Beş 15", "Şans 19"):  # each box, then its points
        ali.button(name).get()
    ali.button("Full 25").click()
    ali.button("Turu onayla").wait_enabled()
    ali.button("Davet et").click()
    invitation = ali.find("dialog")
    link = invitation.find("link", "Davet bağlantısı").get()
    invitation.find("img", "QR kodu").get()
    invitation.find("link", "İzleme bağlantısı").get()
    address = link.attribute("href")
    assert address
    # Another phone opens the invitation: the seats by their people's names, and `İzle`.
    ayse = Person(new_tab(), base_url)
    ayse.tab.goto(address)
    ayse.button("Ayşe").get()
    ayse.button("İzle").get()
    ayse.button("Ayşe").click()
    ayse.button("At").get()


def test_the_names_of_10000(person: Person, dice: ScriptedDice) -> None:
    ali = person
    ali.open()
    ali.new_game("10 000", "Ali", computer=True)
    dice.script(1, 5, 2, 3, 4, 6)
    ali.throw()
    ali.dice()[0].click()
    ali.button("Kasaya yatır").wait_enabled()


def test_nothing_is_logged_on_loading(person: Person) -> None:
    ali = person
    ali.open()
    ali.button("Yeni oyun").get()
    ali.new_game("Yams", "Ali", autofill="Kapalı")
    ali.throw()
    until(lambda: ali.tab.console() == [], "a quiet console", timeout=1)
    assert ali.tab.console() == []


def test_the_names_of_a_game_under_house_rules(person: Person) -> None:
    """The dialog's `Kurallar` is a select by that name; under Scandinavian Yatzy the card's
    own boxes are buttons named by their names (`Çift`, `Çifte çift`, `Yatzy`), and the game's
    rules are a link by their name."""
    ali = person
    ali.open()
    ali.button("Yeni oyun").click()
    dialog = ali.find("dialog")
    dialog.get()
    # A select is a combobox in Firefox, a pop-up button in WebKitGTK: named `Kurallar` by
    # both engines (a wrapping label's name in WebKit would add the option shown).
    rules = ali.tab.js("() => document.querySelector('dialog select[name=rules]')")
    assert ali.tab.name_of(rules, "combobox") == "Kurallar"
    rules.js("(s) => { s.value = 'scandinavian'; s.dispatchEvent(new Event('change')); }")
    dialog.find("textbox", "Oyuncu 1").type("Ali")
    ali.button("Başlat").click()
    ali.button("At").get()
    ali.throw()
    for name in ("Çifte çift", "Yatzy", "Büyük seri"):
        ali.box(name).get()
    ali.find("link", "Kurallar: İskandinav Yatzy").get()


def test_the_dialogs_levels_follow_the_target_under_a_penalty(
    person: Person, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Facebook Farkle's table of 10 000 ready, not that of 5 000: to 10 000 the level
    select offers `Usta`; the radio `5 000` tapped, it does not, and 10 000 again it does."""
    facebook = PRESETS["facebook"]
    monkeypatch.setattr(
        WinStrategy,
        "cached",
        classmethod(lambda cls, target, rules=None: (target, rules) == (10_000, facebook)),
    )
    ali = person
    ali.open()
    ali.button("Yeni oyun").click()
    dialog = ali.find("dialog")
    dialog.get()
    dialog.find("radiogroup", "Oyun").find("radio", "10 000").click()
    rules = ali.tab.js("() => document.querySelector('dialog select[name=rules]')")
    rules.js("(s) => { s.value = 'facebook'; s.dispatchEvent(new Event('change')); }")
    dialog.find("checkbox", "Humains + 1 IA — İnsanlar ve bilgisayar").click()

    def offered() -> list[str]:
        found = ali.tab.js(
            "() => [...document.querySelectorAll('dialog select[name=level] option')]"
            ".map((o) => o.value)"
        )
        return list(found)

    until(lambda: offered() == ["seed", "max-points", "expert"], "Usta to 10 000")
    target = dialog.find("radiogroup", "Hedef")
    target.find("radio", "5 000").click()
    until(lambda: offered() == ["seed", "max-points"], "no Usta to 5 000")
    target.find("radio", "10 000").click()
    until(lambda: offered() == ["seed", "max-points", "expert"], "Usta to 10 000 again")
