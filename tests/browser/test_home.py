"""The first screen: a new game, games to continue, the rules, the language; the
new-game dialog and the server's refusals in it; how much a first visit weighs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from browser.conftest import serving
from browser.person import Person
from zar.server import create_app
from zar.store import SqliteStore

FIRST_VISIT_LIMIT = 150 * 1024  # bytes, everything the home screen loads (design anchor)


def test_home_offers_both_games_and_their_rules(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_role("button", name="Yeni oyun")).to_be_visible()
    expect(page.get_by_role("heading", name="Yams", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="10 000", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Yams oyna")).to_be_visible()
    page.get_by_role("link", name="Kurallar (10 000)").click()  # the name holds what it shows
    expect(page.get_by_role("heading", name="10 000", exact=True)).to_be_visible()
    expect(page.get_by_text("Sıcak zarlar")).to_be_visible()


def test_served_on_the_network_the_home_screen_shows_where_a_phone_opens_it(
    browser: Browser, tmp_path: Path
) -> None:
    """``make run HOST=0.0.0.0``: the server knows the addresses a phone can open (a test
    address here, served on loopback), and the home screen shows the first as a QR code."""
    phone = "http://192.0.2.10:8000/"  # RFC 5737: an address for documentation
    store = SqliteStore(tmp_path / "zar.sqlite3")
    with serving(create_app(store, addresses=[phone])) as url:
        page = browser.new_page(base_url=url)
        page.goto("/")
        where = page.get_by_role("region", name="Telefondan aç")
        expect(where.get_by_role("link", name=phone)).to_have_attribute("href", phone)
        qr = where.get_by_role("img", name="QR kodu")
        expect(qr).to_be_visible()
        assert (qr.get_attribute("src") or "").startswith("data:image/svg+xml")
        page.close()
    store.close()


def test_on_this_machine_only_the_home_screen_shows_no_address(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_role("button", name="Yeni oyun")).to_be_visible()
    expect(page.get_by_role("img", name="QR kodu")).to_have_count(0)


def test_the_language_is_chosen_and_remembered(page: Page) -> None:
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    page.get_by_role("navigation", name="Dil").get_by_role("link", name="English").click()
    expect(page.get_by_role("button", name="New game")).to_be_visible()
    page.goto("/")
    expect(page.get_by_role("button", name="New game")).to_be_visible()
    page.goto("/?lang=fr")
    expect(page.get_by_role("button", name="Nouvelle partie")).to_be_visible()
    page.get_by_role("button", name="Nouvelle partie").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("radio", name="10 000").check()
    expect(dialog.get_by_role("radiogroup", name="Objectif")).to_be_visible()
    dialog.get_by_role("button", name="Annuler").click()
    page.goto("/?lang=en")
    page.get_by_role("button", name="New game").click()
    page.get_by_role("dialog").get_by_role("radio", name="10,000", exact=True).first.check()
    expect(
        page.get_by_role("radiogroup", name="Target").get_by_role("radio", name="10,000")
    ).to_be_checked()
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("banner")).to_contain_text("0 / 10,000")


def test_the_new_game_dialog(page: Page) -> None:
    person = Person(page)
    person.open()
    page.get_by_role("button", name="Yeni oyun").click()
    dialog = page.get_by_role("dialog", name="Yeni oyun")
    expect(dialog.get_by_role("radio", name="Yams")).to_be_checked()
    expect(dialog.get_by_role("radiogroup", name="Otomatik yazma").get_by_role(
        "radio", name="3 sn")).to_be_checked()  # fmt: skip
    expect(dialog.get_by_role("radiogroup", name="Hedef")).to_be_hidden()
    dialog.get_by_role("radio", name="10 000").check()
    target = dialog.get_by_role("radiogroup", name="Hedef")
    expect(target.get_by_role("radio", name="10 000")).to_be_checked()
    expect(target.get_by_role("radio", name="5 000", exact=True)).not_to_be_checked()
    expect(target.get_by_role("radio", name="15 000")).not_to_be_checked()
    expect(dialog.get_by_role("radiogroup", name="Otomatik yazma")).to_be_hidden()
    for n in range(1, 7):
        dialog.get_by_role("textbox", name=f"Oyuncu {n}").fill("Ali" if n < 3 else f"Kişi {n}")
        if n < 6:
            dialog.get_by_role("button", name="Oyuncu ekle").click()
    expect(dialog.get_by_role("button", name="Oyuncu ekle")).to_be_disabled()
    dialog.get_by_role("button", name="Başlat").click()
    expect(dialog.get_by_role("alert")).to_have_text("İki oyuncu aynı adı taşıyor: Ali")
    dialog.get_by_role("button", name="Sil: Oyuncu 2").click()
    expect(dialog.get_by_role("textbox", name="Oyuncu 2")).to_have_value("Kişi 3")
    dialog.get_by_role("checkbox", name="Humains + 1 IA").check()
    dialog.get_by_role("button", name="Başlat").click()
    expect(person.header).to_contain_text("Sıra: Ali")
    expect(page.get_by_role("list").filter(has_text="Kişi 6")).to_contain_text("IA")


def test_unfinished_games_come_first(page: Page) -> None:
    person = Person(page)
    person.open()
    person.new_game("Yams", "Zeynep")
    person.throw()
    page.get_by_role("link", name="Zar, Ana sayfa").click()
    resume = page.get_by_role("link", name=re.compile("Devam et: Yams"))
    expect(resume.first).to_contain_text("Zeynep")
    resume.filter(has_text="Zeynep").first.click()
    expect(person.header).to_contain_text("Sıra: Zeynep")
    expect(person.dice).to_have_count(5)


def test_a_first_visit_weighs_under_150_kb(page: Page) -> None:
    """Every response of a first visit to the home screen, as transferred."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    sizes: dict[str, int] = {}
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]),
    )

    page.goto("/")
    expect(page.get_by_role("button", name="Yeni oyun")).to_be_visible()
    page.wait_for_load_state("networkidle")
    total = sum(sizes.values())
    assert len(sizes) >= 10  # the page, its style, its modules, its words
    assert total < FIRST_VISIT_LIMIT, f"a first visit transfers {total} bytes"


def test_the_manifest_installs_the_app(page: Page) -> None:
    page.goto("/")
    manifest: dict[str, Any] = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"any", "192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        response = page.request.get(icon["src"])
        assert response.ok, icon["src"]
        assert response.headers["content-type"].startswith(icon["type"])


def test_the_theme_follows_the_system_or_the_choice(page: Page) -> None:
    page.emulate_media(color_scheme="dark")
    page.goto("/")
    background = "getComputedStyle(document.body).backgroundColor"
    dark = page.evaluate(background)
    theme = page.get_by_role("button", name=re.compile("^Tema: "))
    expect(theme).to_have_text("Tema: sistem")
    theme.click()
    expect(theme).to_have_text("Tema: açık")
    light = page.evaluate(background)
    assert light != dark
    page.reload()
    expect(theme).to_have_text("Tema: açık")
    assert page.evaluate(background) == light
    theme.click()
    expect(theme).to_have_text("Tema: koyu")
    assert page.evaluate(background) == dark
