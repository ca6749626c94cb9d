"""Playing from separate phones, in three browser contexts: a host phone, a guest phone and a
watcher's desktop (each context is a device, with its own credential).

A whole Yams game and a whole 10 000 game: the host plays two people on its own phone, the
guest the seat it took by the invitation's link; the watcher follows every move live;
nobody can act out of their seats; the guest reloads and loses the network for a while and
keeps its seat, catching up; the host hands the absent guest's seat to the computer and the
guest takes it back. And a stream gone quiet, opened anew."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from browser.person import BOXES, DESKTOP, PHONE, Person
from dice_support import ScriptedDice


class Phone(Person):
    """A person's device: its own browser context (cookies, storage), one page."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        super().__init__(context.new_page())

    def at(self) -> bool:
        return self.button("At").is_enabled()


@pytest.fixture
def devices(browser: Browser, base_url: str) -> Iterator[tuple[Phone, Phone, Phone]]:
    contexts = [
        browser.new_context(base_url=base_url, viewport=PHONE),
        browser.new_context(base_url=base_url, viewport=PHONE),
        browser.new_context(base_url=base_url, viewport=DESKTOP),
    ]
    phones = [Phone(context) for context in contexts]
    errors: list[str] = []
    for phone in phones:
        phone.page.on("pageerror", lambda error: errors.append(str(error)))
    yield phones[0], phones[1], phones[2]
    for context in contexts:
        context.close()
    assert errors == []


def invite(host: Phone) -> tuple[str, str]:
    """The host's `Davet et`: the join link and the watchers' link."""
    host.button("Davet et").click()
    dialog = host.page.get_by_role("dialog", name="Davet et")
    join = dialog.get_by_role("link", name="Davet bağlantısı")
    expect(join).to_have_attribute("href", re.compile(r"^http://127\.0\.0\.1:\d+/#join="))
    expect(dialog.get_by_role("img", name="QR kodu")).to_be_visible()
    expect(dialog.get_by_text(re.compile(r"^[2-9A-Z]{3} [2-9A-Z]{3}$"))).to_be_visible()
    watch = dialog.get_by_role("link", name="İzleme bağlantısı")
    links = join.get_attribute("href") or "", watch.get_attribute("href") or ""
    dialog.get_by_role("button", name="Tamam").click()
    return links


def instant(link: str) -> str:
    """The link, with the instant pace (the page's own query, before the fragment)."""
    path, _, fragment = link.partition("#")
    return f"{path}?pace=instant#{fragment}"


def seat_up(host: Phone, guest: Phone, watcher: Phone, game: str, *people: str) -> None:
    """The host starts a game of ``people``; the guest takes the second seat; the watcher
    watches."""
    host.open()
    options = {"autofill": "Kapalı"} if game == "Yams" else {"target": "5 000"}
    host.new_game(game, *people, **options)
    join, watch = invite(host)
    guest.page.goto(instant(join))
    # The seats the host's phone holds, each named by the person's name, and `İzle`.
    for name in people:
        expect(guest.button(name)).to_be_visible()
    expect(guest.button("İzle")).to_be_visible()
    guest.button(people[1]).click()
    expect(guest.page).to_have_url(re.compile(r"/\?pace=instant&game=[\w-]+$"))  # no secret
    watcher.page.goto(instant(watch))
    expect(watcher.page).to_have_url(re.compile(r"/\?pace=instant&game=[\w-]+$"))
    expect(watcher.button("At")).to_be_disabled()  # a watcher never acts


def nobody_acts_out_of_their_seats(phones: list[Phone], on_turn: Phone) -> None:
    for phone in phones:
        if phone is not on_turn:
            expect(phone.button("At")).to_be_disabled()


def play_yams_round(phone: Phone) -> None:
    phone.throw()
    for name in BOXES:
        box = phone.box(name)
        if box.count() and box.is_enabled():
            box.click()
            break
    phone.act("Turu onayla")


def test_a_whole_yams_game_on_two_phones_watched_on_a_desktop(
    devices: tuple[Phone, Phone, Phone], output: Path
) -> None:
    host, guest, watcher = devices
    seat_up(host, guest, watcher, "Yams", "Deniz", "Ayşe", "Can")
    turns = {"Deniz": host, "Ayşe": guest, "Can": host}  # two people on the host's phone
    phones = [host, guest, watcher]
    for round_ in range(1, 14):
        for name, phone in turns.items():
            for other in phones:
                other.wait_for_turn(name)
            nobody_acts_out_of_their_seats(phones, phone)
            if phone is not host:
                expect(host.page.get_by_text(f"Sıra: {name}, kendi telefonunda")).to_be_visible()
            if round_ == 2 and name == "Ayşe":
                host.shot(output, "phones-host-waiting")
                guest.shot(output, "phones-guest-turn")
                watcher.shot(output, "phones-watcher")
                # The guest reloads: its seat is still its own.
                guest.page.reload()
                expect(guest.button("At")).to_be_enabled()
            if round_ == 4 and name == "Deniz":
                # The guest's phone loses the network while the host plays on.
                guest.context.set_offline(True)
            play_yams_round(phone)
            if round_ == 4 and name == "Deniz":
                lost = guest.page.get_by_text("Bağlantı koptu: yeniden bağlanılıyor…")
                expect(lost).to_be_visible()
                guest.context.set_offline(False)
                expect(lost).to_be_hidden()  # back, with the state as it stands
            # The watcher sees every move live, as it was made.
            expect(watcher.page.locator("[data-version]")).to_have_attribute(
                "data-version", phone.version() or ""
            )
    for phone in phones:
        expect(phone.winner()).to_be_visible()
    finals = [phone.page.locator(".final").inner_text() for phone in phones]
    assert finals[0] == finals[1] == finals[2]
    watcher.shot(output, "phones-watcher-end")


def test_a_whole_10000_game_the_guests_seat_handed_to_the_computer_and_taken_back(
    devices: tuple[Phone, Phone, Phone], dice: ScriptedDice
) -> None:
    host, guest, watcher = devices
    seat_up(host, guest, watcher, "10 000", "Deniz", "Ayşe")
    phones = [host, guest, watcher]
    # The guest cannot act for Deniz, even by hand: 403, and the game as it was.
    game = guest.page.url.split("game=")[1]
    refused = guest.page.request.post(
        f"/api/games/{game}/actions", data={"version": 0, "type": "throw"}
    )
    assert refused.status == 403
    assert refused.json()["detail"] == "Bu oyuncu başka bir cihazda oynuyor"
    # Deniz banks 3 000 (six sixes), Ayşe's phone goes away.
    dice.script(6, 6, 6, 6, 6, 6)
    host.throw()
    for die in host.dice.all():
        die.click()
    host.act("Kasaya yatır")
    guest.page.close()
    ayse = host.page.get_by_role("region", name="Skorlar").get_by_role("listitem").nth(1)
    expect(ayse).to_have_class(re.compile(r"\baway\b"))
    host.button("Davet et").click()
    dialog = host.page.get_by_role("dialog", name="Davet et")
    dialog.get_by_role("button", name="IA'ya ver (Ayşe)").click()
    dialog.get_by_role("button", name="Tamam").click()
    # The computer plays Ayşe's turn on the host's phone; Deniz plays on.
    host.wait_for_turn("Deniz")
    for phone in (host, watcher):
        expect(phone.page.get_by_role("region", name="Skorlar")).to_contain_text("Ayşe")
    # Ayşe comes back, and takes her seat back.
    guest.page = guest.context.new_page()
    guest.page.goto("/?pace=instant")  # her home screen: the game, which only the host ends
    resume = guest.page.locator(".resume-item")
    expect(resume).to_have_count(1)
    expect(resume.get_by_role("button", name=re.compile("^Bırak"))).to_have_count(0)
    resume.get_by_role("link").click()
    expect(guest.page).to_have_url(re.compile(f"game={game}$"))
    guest.button("Yerime dön").click()
    expect(guest.button("Yerime dön")).to_be_hidden()
    # To the end: Deniz banks what scores, Ayşe too, until 5 000.
    for _ in range(60):
        if host.winner().is_visible():
            break
        name = "Deniz" if host.header.get_by_text("Sıra: Deniz").is_visible() else "Ayşe"
        phone = host if name == "Deniz" else guest
        nobody_acts_out_of_their_seats(phones, phone)
        dice.script(5, 5, 5, 5, 5, 5)
        phone.throw()
        for die in phone.dice.all():
            die.click()
        phone.act("Kasaya yatır")
    for phone in phones:
        expect(phone.winner()).to_be_visible()


def test_a_stream_gone_quiet_is_opened_anew(page: Page) -> None:
    """A phone whose stream stays open but carries nothing (it changed networks, the old
    connection half-dead) opens it anew, and hears the moves again; while the network is
    gone, its controls wait."""
    page.clock.install()
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali", autofill="Kapalı")
    expect(ali.button("At")).to_be_enabled()
    # No word from the server for 40 s (the clock jumps, the server's keep-alive does not):
    # the page gives the stream up and opens a new one.
    with page.expect_request("**/events?*"):
        page.clock.fast_forward(41_000)
    game = page.url.split("game=")[1]
    other = page.context.request.post(
        f"/api/games/{game}/actions", data={"version": 0, "type": "throw"}
    )
    assert other.ok
    expect(page.locator("[data-version]")).to_have_attribute("data-version", "1")
    expect(ali.dice).to_have_count(5)
    # The network gone: the page says so, and its controls wait until it is back.
    page.context.set_offline(True)
    expect(page.get_by_text("Bağlantı koptu: yeniden bağlanılıyor…")).to_be_visible()
    expect(ali.button("At")).to_be_disabled()
    page.context.set_offline(False)
    expect(ali.button("At")).to_be_enabled()
    expect(page.get_by_text("Bağlantı koptu: yeniden bağlanılıyor…")).to_be_hidden()
