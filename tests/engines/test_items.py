"""The evening's stumbles mended in the page, played again in Firefox and WebKit as in
Chromium (tests/browser/test_farkle_phone.py, test_coach.py, test_layout.py,
test_joining.py, test_stats.py): those that hang most on the engine's layout and script.

- 10 000 on a 360 x 740 phone: a lost turn, the last round and hot dice said on the felt;
  after hot dice one tap throws, the turn whole on the screen at a table of seven; the
  label under a chosen die uncovered; the risk beside `At` said for what it is; a refusal
  by the dice that moves nothing.
- The new-game dialog with seven keeps `Başlat` in view; adding a player leaves the boxes
  `İpucu` as they were; the seeds' `Humains + 1 IA` with its meaning.
- The rules page and the statistics at the phone's width, with nothing to scroll sideways.
- Yams: the coach opens when asked, fits the screen open, and after `Uygula` the focus is on
  what comes next (`Enter` throws, then writes).
- The invitation of a server of this machine only says so, within the screen; the join
  screen in words only.

Read from the engine's bounding boxes; screenshots of each screen at 360 x 740, 390 x 844
and 1280 x 800 in tests/output/.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from box_support import Box, assert_clear_of_others, overlap
from dice_support import ScriptedDice, one_die_at_a_time
from engines.drivers import Tab, until
from engines.person import DESKTOP, PHONE, SMALL_PHONE, Person, press_enter
from engines.test_games import tap
from engines.test_rendering import FINISH_YAMS

SIX = ("Deniz", "Ayşe", "Mehmet", "Elif", "Can", "Zeynep")
SIZES = {"360": SMALL_PHONE, "390": PHONE, "1280": DESKTOP}
NOT_WORDS = re.compile(r"\b(null|undefined|NaN)\b")
HERE_ONLY = "Bu bağlantı ve QR kodu yalnızca bu bilgisayarda açılır"


# The visible elements whose whole text matches ``pattern`` (the innermost such, as a
# person reads it), inside ``within`` or the page.
SAYING = """(pattern, within) => {
  const says = (e) => new RegExp(pattern).test(e.textContent.replace(/\\s+/g, ' ').trim());
  return [...(within || document.body).querySelectorAll('*')]
    .filter((e) => says(e) && e.checkVisibility() && ![...e.children].some(says)); }"""
# Where each of them is.
TEXT_BOXES = f"""(pattern, within) => ({SAYING})(pattern, within).map((e) => {{
  const r = e.getBoundingClientRect(); return {{x: r.x, y: r.y, w: r.width, h: r.height}}; }})"""
# Whether each holds its words whole (nothing cut off at its width).
WHOLE = f"(pattern) => ({SAYING})(pattern, null).map((e) => e.scrollWidth <= e.clientWidth)"


def text_boxes(ali: Person, pattern: str, within: object = None) -> list[Box]:
    found = ali.js(TEXT_BOXES, pattern, within)
    assert isinstance(found, list)
    return found


def exactly(words: str) -> str:
    return f"^{re.escape(words)}$"


def in_view(ali: Person, *boxes: Box) -> None:
    """Each box whole inside the viewport, the page not scrolled."""
    width, height, scrolled = ali.js("() => [innerWidth, innerHeight, scrollY]")  # type: ignore[misc]
    assert scrolled == 0
    for where in boxes:
        assert where["x"] >= 0, where
        assert where["y"] >= 0, where
        assert where["x"] + where["w"] <= width + 0.5, where
        assert where["y"] + where["h"] <= height + 0.5, where


def fits(ali: Person) -> None:
    """Nothing sticks out sideways."""
    assert ali.js("() => document.documentElement.scrollWidth <= innerWidth")


def totals(ali: Person) -> list[Box]:
    return [one.rect() for one in ali.find("region", "Skorlar").find("listitem").all()]


def on_the_felt(ali: Person, words: str) -> Box:
    """The one place showing exactly ``words`` on the felt: above `At` and over it, clear of
    the scores (the status line, under the buttons, says the same words too)."""
    throw = ali.button("At").get().rect()
    scores = ali.find("region", "Skorlar").get().rect()

    def found() -> list[Box]:
        return [
            where
            for where in text_boxes(ali, exactly(words))
            if where["y"] + where["h"] <= throw["y"]
            and where["x"] < throw["x"] + throw["w"]
            and throw["x"] < where["x"] + where["w"]
            and not overlap(where, scores)
        ]

    shown: list[Box] = until(lambda: len(found()) == 1 and found(), f"{words!r} on the felt")
    return shown[0]


def status(ali: Person) -> str:
    words = ali.find("status").get().text()
    return words


def farkle_boxes(ali: Person) -> list[Box]:
    """Where the dice, the two buttons and every total are."""
    shown = [*ali.dice(), ali.button("At").get(), ali.button("Kasaya yatır").get()]
    return [one.rect() for one in shown] + totals(ali)


def shots(ali: Person, output: Path, name: str, back: tuple[int, int]) -> None:
    """The screen at the three sizes, then back to ``back``."""
    for size, (width, height) in SIZES.items():
        ali.tab.resize(width, height)
        ali.shot(output, f"{size}-{name}")
    ali.tab.resize(*back)


def test_10000_on_a_small_phone(person: Person, dice: ScriptedDice, output: Path) -> None:
    """Hot dice lost, hot dice thrown in one tap, the last round, a refusal: each on the felt
    at 360 x 740, the chosen dice's labels uncovered, the refusal moving nothing."""
    ali = person
    ali.tab.resize(*SMALL_PHONE)
    ali.open()
    ali.new_game("10 000", "Ali", "Ece", target="5 000")

    # The chance of losing the turn, beside `At`, says what it is.
    throw = ali.button("At").get()
    assert throw.attribute("aria-description") == "Turu kaybetme riski: %2,3"
    for width, height in SIZES.values():
        ali.tab.resize(width, height)
        (said,) = text_boxes(ali, exactly("kaybetme riski"))
        at = throw.rect()
        assert said["x"] >= at["x"] + at["w"], (said, at)  # right of it, within its height
        assert at["y"] <= said["y"]
        assert said["y"] + said["h"] <= at["y"] + at["h"] + 4
    ali.tab.resize(*SMALL_PHONE)

    # Six chosen: each label `seçildi` clear of the other dice (and their outlines).
    dice.script(1, 1, 1, 5, 5, 5)
    ali.throw()
    tap(ali, 1, 1, 1, 5, 5, 5)
    dice_boxes = [die.rect() for die in ali.dice()]
    labels = text_boxes(ali, exactly("seçildi"), ali.tray())
    assert len(labels) == 6, labels
    assert_clear_of_others(labels, dice_boxes, outline=6)  # a chosen die's 4 px, 2 px off
    shots(ali, output, "10000-chosen", SMALL_PHONE)

    # Hot dice thrown again at once, and nothing scores: both said, the turn lost on the felt.
    dice.script(2, 3, 4, 4, 6, 6)
    ali.throw()
    until(lambda: "Tour perdu !" in status(ali), "the lost turn in the status")
    assert "Dés chauds !" in status(ali)
    lost = on_the_felt(ali, "Tour perdu ! — Tur kaybedildi")
    on_the_felt(ali, "1 500")  # the points lost, struck through
    in_view(ali, lost, ali.button("At").get().rect())
    ali.wait_for_turn("Ece")
    shots(ali, output, "10000-turn-lost", SMALL_PHONE)

    # Ece's selection refused, in words longer than the line: in a smaller font, on the
    # line's own place, nothing else moved.
    dice.script(2, 2, 2, 3, 3, 3)
    ali.throw()
    line = on_the_felt(ali, "Puan getiren zarlara dokunun")
    before = farkle_boxes(ali)[-4:]  # the buttons and the totals (a chosen die is lifted)
    tap(ali, 2, 3)
    long = "Tek başına 2 ve tek başına 3 puan getirmiyor"
    said = on_the_felt(ali, long)
    assert (said["y"], said["h"]) == (line["y"], line["h"])
    assert farkle_boxes(ali)[-4:] == before
    assert ali.js(WHOLE, exactly(long)) == [True]
    shots(ali, output, "10000-refusal-long", SMALL_PHONE)
    # All six then (500), and hot dice: one tap of `At` sets them aside and throws the six
    # again.
    tap(ali, 2, 2, 3, 3)
    ali.button("Kasaya yatır").wait_text("(+500)")
    dice.script(6, 6, 6, 6, 6, 6)
    ali.throw()
    assert ali.in_play() == [6, 6, 6, 6, 6, 6]
    assert "Dés chauds !" in status(ali)
    hot = on_the_felt(ali, "Dés chauds ! — Sıcak zar")
    risk = text_boxes(ali, r"^%\d+,\d$")  # the chance of losing, when it is said
    turn = text_boxes(ali, "^Tur puanı")
    assert turn, "the turn's points"
    in_view(ali, hot, *risk, turn[0], *farkle_boxes(ali))
    shots(ali, output, "10000-hot-dice", SMALL_PHONE)
    tap(ali, 6, 6, 6, 6, 6, 6)
    dice.script(6, 6, 6, 6, 6, 6)
    ali.throw()  # hot dice again
    tap(ali, 6, 6, 6, 6, 6, 6)
    ali.button("Kasaya yatır").wait_text("(+6 500)")
    ali.act("Kasaya yatır")  # 6 500: past the target

    # Ali's last turn, the score to beat on the felt.
    ali.wait_for_turn("Ali")
    until(lambda: "Dernier tour !" in status(ali), "the last round in the status")
    assert "Geçilecek puan: 6 500" in status(ali)
    last = on_the_felt(ali, "Dernier tour ! · Geçilecek puan: 6 500")
    in_view(ali, last, ali.button("At").get().rect())
    shots(ali, output, "10000-last-round", SMALL_PHONE)

    # A 2 tapped: refused by the dice, in the status for screen readers, nothing moved.
    dice.script(2, 5, 1, 3, 1, 4)
    ali.throw()
    before = farkle_boxes(ali)
    said_before = ali.find("status").get().rect()
    ali.dice()[0].click()
    refusal = "Tek başına 2 puan getirmiyor"
    until(lambda: refusal in status(ali), "the refusal in the status")
    said = on_the_felt(ali, refusal)
    in_view(ali, said)
    assert said["y"] < ali.dice()[0].rect()["y"]  # over the tray
    assert ali.find("status").get().rect() == said_before
    assert farkle_boxes(ali) == before
    shots(ali, output, "10000-refusal", SMALL_PHONE)
    tap(ali, 5)  # the next tap takes a die; the refusal is gone
    until(lambda: not text_boxes(ali, exactly(refusal)), "the refusal gone")


def test_10000_hot_dice_at_a_table_of_seven_stay_in_view(
    person: Person, dice: ScriptedDice, output: Path
) -> None:
    """Six set-asides of one die each (the longest strip a turn's hot dice leave), then the
    six thrown again by the same tap of `At`: the turn still whole on a 360 x 740 screen."""
    deniz = person
    deniz.tab.resize(*SMALL_PHONE)
    deniz.open()
    deniz.new_game("10 000", *SIX, computer=True)
    one_die_at_a_time(dice, deniz.throw, lambda face: tap(deniz, face))
    assert deniz.in_play() == [2, 3, 4, 6, 6, 1]
    assert "Dés chauds !" in status(deniz)
    hot = on_the_felt(deniz, "Dés chauds ! — Sıcak zar")
    turn = text_boxes(deniz, "^Tur puanı")
    assert turn, "the turn's points"
    in_view(deniz, hot, turn[0], *farkle_boxes(deniz))
    assert len(totals(deniz)) == 7
    shots(deniz, output, "10000-seven-hot-dice", SMALL_PHONE)
    # The 1 just thrown: the six's points counted, `At` throws five.
    tap(deniz, 1)
    deniz.button("Kasaya yatır").wait_text("(+550)")
    in_view(deniz, *farkle_boxes(deniz))
    fits(deniz)


def hint_boxes(ali: Person) -> list[bool]:
    """Whether each person's box `İpucu` in the new-game dialog is ticked."""
    boxes = ali.find("dialog").find("checkbox", "İpucu", prefix=True).all()
    return [bool(box.js("(e) => e.checked")) for box in boxes]


def test_the_new_game_dialog_with_seven(person: Person, output: Path) -> None:
    """Adding players leaves the boxes `İpucu` as they were; with seven, `Başlat` in view."""
    ali = person
    ali.tab.resize(*SMALL_PHONE)
    ali.open()
    ali.button("Yeni oyun").click()
    dialog = ali.find("dialog")
    dialog.find("radiogroup", "Oyun").find("radio", "10 000").click()
    assert hint_boxes(ali) == [True]  # one person: on
    dialog.find("textbox", "Oyuncu 1").type(SIX[0])
    dialog.find("button", "Oyuncu ekle").click()
    until(lambda: hint_boxes(ali) == [True, False], "the first box left ticked")
    dialog.find("button", "Oyuncu ekle").click()
    until(lambda: len(hint_boxes(ali)) == 3, "a third row")
    dialog.find("checkbox", "İpucu", prefix=True).all()[2].click()
    until(lambda: hint_boxes(ali) == [True, False, True], "the third box ticked")
    for n, name in enumerate(SIX[1:], start=2):
        if n > 3:
            dialog.find("button", "Oyuncu ekle").click()
        dialog.find("textbox", f"Oyuncu {n}").type(name)
    assert hint_boxes(ali) == [True, False, True, False, False, False]
    # The seeds' words, then their meaning in the page's language: the engine's name of it.
    dialog.find("checkbox", "Humains + 1 IA — İnsanlar ve bilgisayar").click()
    for size in SIZES.values():
        ali.tab.resize(*size)
        start = ali.button("Başlat").get()
        until(lambda: start.js("(e) => e.checkVisibility()"), "Başlat")  # noqa: B023
        in_view(ali, start.rect())
        fits(ali)
        ali.tab.screenshot(output / f"{ali.tab.engine}-{size[0]}-new-game-seven.png")
    ali.tab.resize(*SMALL_PHONE)
    ali.button("Başlat").click()
    ali.button("At").get()
    until(lambda: len(totals(ali)) == 7, "seven totals")


def test_the_rules_and_the_statistics_fit_a_small_phone(person: Person, output: Path) -> None:
    """No zooming out on a 360 px phone: the rules' tables within its width, the
    statistics' tables with nothing to scroll sideways."""
    ali = person
    for lang in ("tr", "fr", "en"):
        ali.tab.resize(*SMALL_PHONE)
        ali.tab.goto(f"{ali.base_url}/static/rules/{lang}.html")
        tables = ali.find("table")
        tables.get()
        for size, (width, height) in SIZES.items():
            ali.tab.resize(width, height)
            fits(ali)
            for table in tables.all():
                where = table.rect()
                assert where["x"] >= 0, (lang, size, where)
                assert where["x"] + where["w"] <= width, (lang, size, where)
            if lang == "tr":
                ali.tab.screenshot(output / f"{ali.tab.engine}-{size}-rules-{lang}.png")

    ali.tab.resize(*SMALL_PHONE)
    ali.open()
    assert ali.js(FINISH_YAMS, ["Ayşe Nur", "Jean-Baptiste"]) is True
    ali.open("/?view=stats&kind=yams")
    until(lambda: text_boxes(ali, exactly("Jean-Baptiste")), "the statistics")
    for size, (width, height) in SIZES.items():
        ali.tab.resize(width, height)
        for table in ali.find("table").all():
            wide, shown = table.js(
                "(t) => [t.parentElement.scrollWidth, t.parentElement.clientWidth]"
            )
            assert wide <= shown, (size, wide, shown)
            cells = table.js(
                """(t) => [...t.querySelectorAll('th, td')].filter((c) => c.checkVisibility())
                  .map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })"""
            )
            assert all(left >= 0 and right <= width + 0.5 for left, right in cells), size
        fits(ali)
        ali.shot(output, f"{size}-stats")


def coach(ali: Person) -> bool:
    return ali.find("region", "Koç").visible()


def expanded(ali: Person) -> str | None:
    return ali.button("İpucu").get().attribute("aria-expanded")


def apply(ali: Person, kind: str) -> None:
    """The coach's best option of a kind (`Tut`, `Yaz`), applied: its button `Uygula: …`."""
    region = ali.find("region", "Koç")
    until(lambda: region.get().attribute("aria-busy") != "true", "the coach's options", 30)
    region.find("button", f"Uygula: {kind}", prefix=True).click()


def focused(ali: Person, name: str) -> bool:
    button = ali.button(name).one()
    return button is not None and bool(button.js("(e) => document.activeElement === e"))


def test_yams_the_coach_when_asked(person: Person, dice: ScriptedDice, output: Path) -> None:
    """Seven at the table at 360 x 740: the coach opens when asked and the page still fits
    with it open; `Uygula` leaves the focus on what comes next (`Enter` throws, then writes).
    Then alone: `İpucu` opens and closes it, and it never opens by itself."""
    ali = person
    ali.tab.resize(*SMALL_PHONE)
    ali.open()
    ali.new_game("Yams", *SIX, computer=True, autofill="Kapalı")
    dice.script(2, 2, 5, 5, 5)
    ali.throw()
    assert expanded(ali) == "false"
    assert not coach(ali)
    ali.button("İpucu").click()
    until(lambda: coach(ali), "the coach")
    assert expanded(ali) == "true"
    main = [ali.button("At").get(), ali.button("Turu onayla").get(), *ali.dice()]
    scores = totals(ali)
    assert len(scores) == 7
    in_view(ali, ali.find("region", "Koç").get().rect(), *(e.rect() for e in main), *scores)
    fits(ali)
    shots(ali, output, "coach-yams-seven-open", SMALL_PHONE)

    apply(ali, "Tut: 5, 5, 5")
    until(lambda: ali.pressed() == [False, False, True, True, True], "the fives kept")
    until(lambda: focused(ali, "At"), "the focus on At")
    before = ali.version()
    dice.script(5, 5)
    press_enter(ali)
    until(lambda: ali.version() != before, "a throw by Enter")
    assert ali.faces() == [5, 5, 5, 5, 5]
    assert ali.button("At").get().attribute("aria-description") == "1 atış kaldı"
    apply(ali, "Yaz: Penta")
    until(lambda: focused(ali, "Turu onayla"), "the focus on Turu onayla")
    press_enter(ali)
    ali.wait_for_turn("Ayşe")
    assert not coach(ali)

    # Alone with the coach: opened in a turn, closed by `İpucu`; at the next turn, shut.
    ali.open()
    ali.new_game("Yams", "Ali", autofill="Kapalı")
    ali.throw()
    ali.button("İpucu").click()
    until(lambda: coach(ali), "the coach")
    ali.box("Şans").click()
    ali.act("Turu onayla")
    until(lambda: ali.header_says("Tur 2/13"), "round 2")
    ali.throw()
    assert not coach(ali)  # not by itself
    assert expanded(ali) == "false"
    ali.button("İpucu").click()
    until(lambda: coach(ali), "the coach, asked")
    ali.button("İpucu").click()
    until(lambda: not coach(ali), "the coach closed")
    assert expanded(ali) == "false"
    ali.throw()
    assert not coach(ali)  # closed in this turn, it stays closed


def invitation(host: Person) -> tuple[str, str]:
    """A fresh invitation from the host's `Davet et`: its link and its code."""
    host.button("Davet et").click()
    dialog = host.find("dialog", "Davet et")
    link = dialog.find("link", "Davet bağlantısı").get()
    href = until(lambda: "#join=" in (link.attribute("href") or "") and link.attribute("href"),
                 "the link")  # fmt: skip
    code = host.js(
        """() => [...document.querySelectorAll('dialog *')].map((e) => e.textContent.trim())
          .find((t) => /^[2-9A-Z]{3} [2-9A-Z]{3}$/.test(t))"""
    )
    assert isinstance(code, str)
    dialog.find("button", "Tamam").click()
    dialog.wait_hidden()
    path, _, fragment = str(href).partition("#")
    return f"{path}?pace=instant#{fragment}", code


def join_words(phone: Person) -> str:
    screen = phone.find("region", "Oyuna katıl")
    screen.find("button").get()
    return screen.get().text()


def test_the_invitation_and_the_join_screen(
    new_tab: Callable[[], Tab], base_url: str, output: Path
) -> None:
    """The invitation of a server of this machine only says so; the join screen, by the
    link and by the code, is in words only (no `null`)."""
    host, guest = Person(new_tab(), base_url), Person(new_tab(), base_url)
    host.open()
    host.new_game("Yams", "Deniz", "Ayşe", "Can", autofill="Kapalı")
    # A server of this machine only: the invitation says so, and how to serve the network,
    # within the screen's width at every size.
    host.button("Davet et").click()
    dialog = host.find("dialog", "Davet et")
    assert str(dialog.find("link", "Davet bağlantısı").get().attribute("href")).startswith(
        "http://127.0.0.1:"
    )
    assert text_boxes(host, f"^{re.escape(HERE_ONLY)}")
    assert text_boxes(host, exactly("make run HOST=0.0.0.0"))
    for size, (width, height) in SIZES.items():
        host.tab.resize(width, height)
        where = dialog.get().rect()
        assert where["x"] >= 0, (size, where)
        assert where["x"] + where["w"] <= width, (size, where)
        fits(host)
        host.tab.screenshot(output / f"{host.tab.engine}-{size}-invite-here-only.png")
    host.tab.resize(*PHONE)
    dialog.find("button", "Tamam").click()
    dialog.wait_hidden()
    link, code = invitation(host)
    guest.tab.goto(link)
    words = join_words(guest)
    for name in ("Deniz", "Ayşe", "Can", "İzle"):
        guest.button(name).get()
    assert not NOT_WORDS.search(words), words
    shots(guest, output, "join-by-link", PHONE)
    # By the code, typed on the home screen.
    guest.open()
    guest.find("textbox", "Kodla katıl").type(code)
    guest.button("Katıl").click()
    words = join_words(guest)
    guest.button("Can").get()
    assert not NOT_WORDS.search(words), words
