"""Joining a table from another phone, and leaving it: the join screen by the invitation's
link and by its code, in words only; what the host's phone offers when a guest's phone goes
away; and what a guest who comes back is told. Each phone is its own browser context."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from browser.conftest import serving
from browser.person import BOXES, PHONE, Person
from server.serving import Server
from zar.server import create_app
from zar.store import SqliteStore

NOT_WORDS = re.compile(r"\b(null|undefined|NaN)\b")


class Phone(Person):
    """A person's device: its own browser context (cookies, storage), one page."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        super().__init__(context.new_page())


@pytest.fixture
def phones(browser: Browser, base_url: str) -> Iterator[list[Phone]]:
    contexts = [browser.new_context(base_url=base_url, viewport=PHONE) for _ in range(3)]
    phones = [Phone(context) for context in contexts]
    errors: list[str] = []
    for phone in phones:
        phone.page.on("pageerror", lambda error: errors.append(str(error)))
    yield phones
    for context in contexts:
        context.close()
    assert errors == []


def invitation(host: Phone) -> tuple[str, str]:
    """A fresh invitation from the host's `Davet et`: its link and its code."""
    host.button("Davet et").click()
    dialog = host.page.get_by_role("dialog", name="Davet et")
    link = dialog.get_by_role("link", name="Davet bağlantısı")
    expect(link).to_have_attribute("href", re.compile("#join="))
    code = dialog.get_by_text(re.compile(r"^[2-9A-Z]{3} [2-9A-Z]{3}$")).inner_text()
    href = link.get_attribute("href") or ""
    dialog.get_by_role("button", name="Tamam").click()
    path, _, fragment = href.partition("#")
    return f"{path}?pace=instant#{fragment}", code


def join_screen_words(phone: Phone) -> str:
    screen = phone.page.get_by_role("region", name=re.compile("Oyuna katıl|Join the game"))
    expect(screen.get_by_role("button").first).to_be_visible()
    return screen.inner_text()


def join_by_code(phone: Phone, host: Phone, lang: str = "tr") -> str:
    """A new invitation's code typed on ``phone``'s home screen (in ``lang``, else as the
    phone has it): the join screen's words."""
    _, code = invitation(host)
    phone.open("/" if lang == "tr" else f"/?lang={lang}")
    box, join = {"tr": ("Kodla katıl", "Katıl"), "en": ("Join with a code", "Join")}[lang]
    phone.page.get_by_role("textbox", name=box).fill(code)
    phone.button(join).click()
    return join_screen_words(phone)


def test_the_join_screen_shows_words_only_by_link_and_by_code(phones: list[Phone]) -> None:
    host, guest, third = phones
    host.open()
    host.new_game("Yams", "Deniz", "Ayşe", "Can", autofill="Kapalı")
    # By the link: the seats the host's phone holds, and `İzle`.
    link, _ = invitation(host)
    guest.page.goto(link)
    words = join_screen_words(guest)
    for name in ("Deniz", "Ayşe", "Can", "İzle"):
        expect(guest.button(name)).to_be_visible()
    assert not NOT_WORDS.search(words), words
    guest.button("Ayşe").click()
    expect(guest.button("At")).to_be_visible()
    # By the code, typed on the home screen of a phone with no seat yet.
    words = join_by_code(third, host)
    expect(third.button("Can")).to_be_visible()
    expect(third.button("Ayşe")).to_have_count(0)  # the guest's now
    assert not NOT_WORDS.search(words), words
    # And by a code on the guest's phone, which holds a seat already: `Oyuna dön` too.
    words = join_by_code(guest, host)
    expect(guest.button("Oyuna dön")).to_be_visible()
    assert not NOT_WORDS.search(words), words
    # In English too.
    words = join_by_code(third, host, lang="en")
    assert not NOT_WORDS.search(words), words


def test_a_server_stopped_by_ctrl_c_leaves_every_phone_saying_it_reconnects(
    browser: Browser, tmp_path: Path
) -> None:
    """`zar serve` in a process of its own, two phones following a game: one Ctrl-C, and
    both say at once that the link is lost (the server exits, tests/server/test_stopping.py)."""
    server = Server(tmp_path / "zar.sqlite3", group=True)
    server.start()
    contexts = [browser.new_context(base_url=server.url, viewport=PHONE) for _ in range(2)]
    try:
        host, guest = (Phone(context) for context in contexts)
        host.open()
        host.new_game("Yams", "Deniz", "Ayşe", autofill="Kapalı")
        link, _ = invitation(host)
        guest.page.goto(link)
        guest.button("Ayşe").click()
        expect(guest.button("At")).to_be_disabled()  # Deniz's turn, on the host's phone
        host.throw()
        expect(guest.page.locator("[data-version]")).to_have_attribute("data-version", "1")
        server.interrupt()
        assert server.process is not None
        assert server.process.wait(timeout=30) == 0  # generous: it exits in a second or two
        for phone in (host, guest):
            expect(phone.page.get_by_text("Bağlantı koptu: yeniden bağlanılıyor…")).to_be_visible()
            expect(phone.button("At")).to_be_disabled()
        assert "Traceback" not in server.lines()
    finally:
        for context in contexts:
            context.close()
        if server.process is not None and server.process.poll() is None:
            server.kill()


HERE_ONLY = "Bu bağlantı ve QR kodu yalnızca bu bilgisayarda açılır"


def test_an_invitation_from_a_server_on_this_machine_only_says_so_and_how(
    phones: list[Phone], output: Path
) -> None:
    """Plain `make run` serves 127.0.0.1: the links and the QR code name it, which no other
    phone opens; the dialog says so, and how to serve the network."""
    host = phones[0]
    host.open()
    host.new_game("Yams", "Deniz", "Ayşe", autofill="Kapalı")
    host.button("Davet et").click()
    dialog = host.page.get_by_role("dialog", name="Davet et")
    expect(dialog.get_by_role("link", name="Davet bağlantısı")).to_have_attribute(
        "href", re.compile(r"^http://127\.0\.0\.1:")
    )
    expect(dialog.get_by_text(HERE_ONLY)).to_be_visible()
    expect(dialog.get_by_text("make run HOST=0.0.0.0", exact=True)).to_be_visible()
    for size in ({"width": 360, "height": 740}, PHONE, {"width": 1280, "height": 800}):
        host.page.set_viewport_size(size)
        box = dialog.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= size["width"]  # no sideways scroll
        host.page.screenshot(path=str(output / f"invite-here-only-{size['width']}.png"))


def test_an_invitation_from_a_server_on_the_network_says_nothing_of_it(
    browser: Browser, tmp_path: Path
) -> None:
    """`make run HOST=0.0.0.0`: the links name the address a phone opens, and no warning."""
    store = SqliteStore(tmp_path / "zar.sqlite3")
    app = create_app(store, addresses=["http://192.0.2.10:8000/"], games_per_minute=None)
    context = None
    try:
        with serving(app) as url:
            context = browser.new_context(base_url=url, viewport=PHONE)
            host = Phone(context)
            host.open()
            host.new_game("Yams", "Deniz", "Ayşe", autofill="Kapalı")
            host.button("Davet et").click()
            dialog = host.page.get_by_role("dialog", name="Davet et")
            expect(dialog.get_by_role("link", name="Davet bağlantısı")).to_have_attribute(
                "href", re.compile(r"^http://192\.0\.2\.10:8000/#join=")
            )
            expect(dialog.get_by_role("img", name="QR kodu")).to_be_visible()
            expect(dialog.get_by_text(HERE_ONLY)).to_have_count(0)
            context.close()
            context = None
    finally:
        if context is not None:
            context.close()
        store.close()


def play_yams_round(phone: Phone) -> None:
    phone.throw()
    boxes = (phone.box(name) for name in BOXES)
    next(box for box in boxes if box.count() and box.is_enabled()).click()
    phone.act("Turu onayla")


@pytest.mark.parametrize("choice", ["IA'ya ver", "Bu telefona al"])
def test_a_guest_phone_gone_on_its_turn_offers_the_host_its_choices_on_the_felt(
    phones: list[Phone], choice: str, output: Path
) -> None:
    host, guest, _ = phones
    host.page.clock.install()  # the short wait, passed at once
    host.open()
    host.new_game("Yams", "Deniz", "Ayşe", autofill="Kapalı")
    link, _ = invitation(host)
    guest.page.goto(link)
    guest.button("Ayşe").click()
    expect(guest.button("At")).to_be_disabled()
    play_yams_round(host)  # Deniz's round; Ayşe's turn, on her phone
    elsewhere = host.page.get_by_text("Sıra: Ayşe, kendi telefonunda")
    expect(elsewhere).to_be_visible()
    to_computer = host.button("IA'ya ver (Ayşe)")
    to_here = host.button("Bu telefona al (Ayşe)")
    host.page.clock.fast_forward(20_000)
    expect(to_computer).to_have_count(0)  # her phone is here: nothing to offer
    guest.page.close()  # her phone goes away
    ayse = host.page.get_by_role("region", name="Skorlar").get_by_role("listitem").nth(1)
    expect(ayse).to_have_class(re.compile(r"\baway\b"))
    expect(to_computer).to_have_count(0)  # not at once: a reload comes back in a moment
    host.page.clock.fast_forward(9_000)
    expect(host.page.get_by_text("Ayşe şu an bağlı değil. Sırası için:")).to_be_visible()
    expect(to_computer).to_be_visible()
    expect(to_here).to_be_visible()
    host.page.screenshot(path=str(output / "away-choices-390.png"))
    host.page.set_viewport_size({"width": 360, "height": 740})
    box = to_here.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= 360
    assert box["height"] >= 44
    host.page.screenshot(path=str(output / "away-choices-360.png"))
    host.button(f"{choice} (Ayşe)").click()
    expect(to_computer).to_have_count(0)
    if choice == "IA'ya ver":
        host.wait_for_turn("Deniz")  # the computer played her round
        expect(host.button("At")).to_be_enabled()
    else:
        expect(host.button("At")).to_be_enabled()  # her round, on the host's phone
        expect(elsewhere).to_have_count(0)
        play_yams_round(host)
        host.wait_for_turn("Deniz")


def test_a_guest_back_from_the_computer_is_told_what_it_did_for_her(
    phones: list[Phone], output: Path
) -> None:
    host, guest, _ = phones
    host.open()
    host.new_game("Yams", "Deniz", "Ayşe", autofill="Kapalı")
    link, _ = invitation(host)
    guest.page.goto(link)
    guest.button("Ayşe").click()
    expect(guest.button("At")).to_be_disabled()
    game = host.page.url.split("game=")[1]
    guest.page.close()  # her phone goes away; the host hands her seat to the computer
    host.button("Davet et").click()
    dialog = host.page.get_by_role("dialog", name="Davet et")
    dialog.get_by_role("button", name="IA'ya ver (Ayşe)").click()
    dialog.get_by_role("button", name="Tamam").click()
    for _ in range(2):  # Deniz's round, then the computer's for Ayşe
        play_yams_round(host)
        host.wait_for_turn("Deniz")
    # Ayşe comes back and takes her seat back.
    guest.page = guest.context.new_page()
    guest.page.goto(f"/?pace=instant&game={game}")
    guest.button("Yerime dön").click()
    account = guest.page.get_by_text(re.compile(r"^Sen yokken IA senin yerine 2 tur oynadı: "))
    expect(account).to_be_visible()
    said = account.inner_text()
    guest.page.set_viewport_size({"width": 360, "height": 740})
    box = account.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 360
    guest.page.screenshot(path=str(output / "stood-in-360.png"))
    written = re.findall(rf"({'|'.join(BOXES)}) (\d+)", said)
    assert len(written) == 2, said
    assert not NOT_WORDS.search(said), said
    # What it says is what her card holds (the boxes in the card's order, as BOXES).
    card = guest.page.request.get(f"/api/games/{game}").json()["cards"][1]["boxes"]
    held = [(BOXES[i], str(p)) for i, p in enumerate(card.values()) if p is not None]
    assert written == held
    play_yams_round(host)  # Deniz's round; then hers, on her phone
    guest.wait_for_turn("Ayşe")
    guest.throw()
    expect(account).to_be_hidden()  # gone with her first move
