"""10 000 on a small phone (360 x 740, and 390 x 844): the seeds' messages on the felt, hot
dice thrown again in one tap with everything still in view, the label under a chosen die
left uncovered, the risk beside `At` said for what it is, a refusal by the dice that moves
nothing, the new-game dialog's `Başlat` in view with seven at the table, and the rules
page at the phone's width. Read from the browser's bounding boxes; screenshots in
tests/output/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from box_support import assert_clear_of_others, overlap
from browser.person import DESKTOP, PHONE, Person, tap
from browser.test_layout import SIX, SMALL_PHONE, box, fits, in_view, totals
from dice_support import ScriptedDice, one_die_at_a_time

SIZES = {"small-phone": SMALL_PHONE, "phone": PHONE, "desktop": DESKTOP}
PHONES = ["small-phone", "phone"]


def start(
    page: Page, size: dict[str, int], *players: str, computer: bool = False, target: str = "10 000"
) -> Person:
    """A game of 10 000 started through the dialog on a screen of `size`."""
    page.set_viewport_size(size)
    person = Person(page)
    person.open()
    person.new_game("10 000", *players, computer=computer, target=target)
    return person


def on_the_felt(page: Page, words: str) -> Locator:
    """The one place showing exactly `words` on the felt: above `At` and over it, clear of
    the scores (the status line, under the buttons, says the same words too)."""
    scores = box(page.get_by_role("region", name="Skorlar"))
    throw = box(page.get_by_role("button", name="At", exact=True))
    found = [
        one
        for one in page.get_by_text(words, exact=True).all()
        if one.is_visible()
        and (where := box(one))["y"] + where["h"] <= throw["y"]
        and where["x"] < throw["x"] + throw["w"]
        and throw["x"] < where["x"] + where["w"]
        and not overlap(where, scores)
    ]
    assert len(found) == 1, (words, [box(one) for one in page.get_by_text(words).all()])
    return found[0]


def boxes(page: Page, person: Person) -> list[dict[str, float]]:
    """Where the dice, the two buttons and every total are."""
    shown = [*person.dice.all(), person.button("At"), person.button("Kasaya yatır")]
    shown += totals(page).all()
    return [box(one) for one in shown]


@pytest.mark.parametrize("size", list(SIZES))
def test_hot_dice_are_thrown_in_one_tap_and_the_turn_stays_in_view(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    """Six set-asides of one die each (the longest strip a turn's hot dice leave), then the
    six thrown again by the same tap of `At`."""
    deniz = start(page, SIZES[size], *SIX, computer=True)
    one_die_at_a_time(dice, deniz.throw, lambda face: tap(deniz, face))
    # One tap: the six were set aside and thrown again, and it says so on the felt.
    assert deniz.in_play() == [2, 3, 4, 6, 6, 1]
    expect(deniz.status).to_contain_text("Dés chauds !")
    hot = on_the_felt(page, "Dés chauds ! — Sıcak zar")
    risk = page.get_by_text(re.compile(r"^%\d+,\d$"))
    in_view(page, hot, deniz.dice, page.get_by_text("Tur puanı"), deniz.button("At"), risk)
    in_view(page, deniz.button("Kasaya yatır"), totals(page))
    expect(totals(page)).to_have_count(7)
    deniz.shot(output, f"{size}-10000-hot-dice")
    # The 1 just thrown: the six's points counted, `At` throws five.
    tap(deniz, 1)
    expect(deniz.button("Kasaya yatır")).to_contain_text("(+550)")
    in_view(page, deniz.dice, deniz.button("At"), deniz.button("Kasaya yatır"), totals(page))


def test_hot_dice_thrown_at_once_and_lost_say_both(page: Page, dice: ScriptedDice) -> None:
    ali = start(page, SMALL_PHONE, "Ali", "Ece")
    dice.script(1, 1, 1, 5, 5, 5)
    ali.throw()
    tap(ali, 1, 1, 1, 5, 5, 5)
    dice.script(2, 3, 4, 4, 6, 6)  # the six come back, and nothing scores (F-13)
    ali.throw()
    expect(ali.status).to_contain_text("Dés chauds !")
    expect(ali.status).to_contain_text("Tour perdu !")
    on_the_felt(page, "Tour perdu ! — Tur kaybedildi")
    on_the_felt(page, "1 500")  # the points lost, struck through
    expect(ali.header).to_contain_text("Sıra: Ece")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_lost_turn_and_the_last_round_show_on_the_felt(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    ali = start(page, SIZES[size], "Ali", "Ece", target="5 000")
    dice.script(6, 6, 6, 6, 6, 6)
    ali.throw()
    tap(ali, 6, 6, 6, 6, 6, 6)
    ali.act("Kasaya yatır")  # 3 000
    ali.wait_for_turn("Ece")
    dice.script(2, 3, 4, 4, 6, 6)  # nothing scores (F-13)
    ali.throw()
    expect(ali.status).to_contain_text("Tour perdu !")
    lost = on_the_felt(page, "Tour perdu ! — Tur kaybedildi")
    in_view(page, lost, ali.button("At"))
    ali.shot(output, f"{size}-10000-turn-lost")

    dice.script(6, 6, 6, 6, 6, 6)
    ali.throw()
    tap(ali, 6, 6, 6, 6, 6, 6)
    ali.act("Kasaya yatır")  # 6 000: past the target
    ali.wait_for_turn("Ece")
    expect(ali.status).to_contain_text("Dernier tour !")
    expect(ali.status).to_contain_text("Geçilecek puan: 6 000")
    last = on_the_felt(page, "Dernier tour ! · Geçilecek puan: 6 000")
    in_view(page, last, ali.button("At"))
    ali.shot(output, f"{size}-10000-last-round")
    # It stays while Ece plays her last turn.
    dice.script(5, 2, 3, 4, 6, 6)
    ali.throw()
    tap(ali, 5)
    on_the_felt(page, "Dernier tour ! · Geçilecek puan: 6 000")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_label_under_a_chosen_die_is_not_covered(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    ali = start(page, SIZES[size], "Ali", "Ece")
    dice.script(1, 1, 1, 5, 5, 5)
    ali.throw()
    tap(ali, 1, 1, 1, 5, 5, 5)
    dice_boxes = [box(one) for one in ali.dice.all()]
    labels = page.get_by_role("group", name="Zarlar").get_by_text("seçildi", exact=True)
    expect(labels).to_have_count(6)
    # A chosen die's outline is 4 px, 2 px off the die.
    assert_clear_of_others([box(label) for label in labels.all()], dice_boxes, outline=6)
    page.get_by_role("group", name="Zarlar").screenshot(path=str(output / f"{size}-chosen.png"))


@pytest.mark.parametrize(
    ("lang", "label", "description"),
    [
        ("tr", "kaybetme riski", "Turu kaybetme riski: %2,3"),
        ("fr", "risque de perdre", "Risque de perdre le tour : 2,3 %"),
        ("en", "risk of losing", "Risk of losing the turn: 2.3%"),
    ],
)
def test_the_risk_beside_at_says_what_it_is(
    page: Page, output: Path, lang: str, label: str, description: str
) -> None:
    page.set_viewport_size(SMALL_PHONE)
    game = page.request.post("/api/games", data={"game": "10000", "players": ["Ali", "Ece"]})
    assert game.ok
    page.goto(f"/?game={game.json()['id']}&lang={lang}&pace=instant")
    names = {"tr": "At", "fr": "Lancer", "en": "Throw"}
    throw = page.get_by_role("button", name=names[lang], exact=True)
    expect(throw).to_have_accessible_description(description)
    words = page.get_by_text(label, exact=True)
    expect(words).to_be_visible()
    in_view(page, words, throw)
    for size in SIZES:
        page.set_viewport_size(SIZES[size])
        # Beside `At`: right of it, within its height.
        at, said = box(throw), box(words)
        assert said["x"] >= at["x"] + at["w"]
        assert at["y"] <= said["y"]
        assert said["y"] + said["h"] <= at["y"] + at["h"] + 4
        page.screenshot(path=str(output / f"{size}-10000-risk-{lang}.png"))


@pytest.mark.parametrize("size", [*PHONES, "desktop"])
def test_a_refusal_shows_by_the_dice_and_moves_nothing(
    page: Page, dice: ScriptedDice, output: Path, size: str
) -> None:
    ali = start(page, SIZES[size], *SIX, computer=True)
    dice.script(2, 5, 1, 3, 1, 4)
    ali.throw()
    before = boxes(page, ali)
    status = box(ali.status)
    ali.dice.first.click()
    refusal = "Tek başına 2 puan getirmiyor"
    expect(ali.status).to_contain_text(refusal)  # for screen readers
    said = on_the_felt(page, refusal)
    in_view(page, said)
    # By the dice: over the tray, not in the status line under the buttons.
    first = box(ali.dice.first)
    assert said.bounding_box()["y"] < first["y"]  # type: ignore[index]
    assert box(ali.status) == status
    assert boxes(page, ali) == before
    ali.shot(output, f"{size}-10000-refusal")
    # The next tap takes a die; the refusal is gone.
    tap(ali, 5)
    expect(page.get_by_text(refusal, exact=True).filter(visible=True)).to_have_count(0)

    # A selection refused, in words longer than the line: in a smaller font, on one line.
    ali.act("Kasaya yatır")
    ali.wait_for_turn("Ayşe")
    dice.script(2, 2, 2, 3, 3, 3)
    ali.throw()
    line = box(on_the_felt(page, "Puan getiren zarlara dokunun"))
    before = boxes(page, ali)[-9:]  # the buttons and the totals (a chosen die is lifted)
    tap(ali, 2, 3)
    said = on_the_felt(page, "Tek başına 2 ve tek başına 3 puan getirmiyor")
    assert box(said)["y"] == line["y"]
    assert box(said)["h"] == line["h"]
    assert boxes(page, ali)[-9:] == before
    assert said.evaluate("el => el.scrollWidth <= el.clientWidth")
    ali.shot(output, f"{size}-10000-refusal-long")


@pytest.mark.parametrize("size", PHONES)
def test_the_new_game_dialog_keeps_start_in_view_with_seven(
    page: Page, output: Path, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    person = Person(page)
    person.open()
    page.get_by_role("button", name="Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("radio", name="10 000").first.check()
    for n, name in enumerate(SIX, start=1):
        if n > 1:
            dialog.get_by_role("button", name="Oyuncu ekle").click()
        dialog.get_by_role("textbox", name=f"Oyuncu {n}").fill(name)
    dialog.get_by_role("checkbox", name=re.compile("^Humains \\+ 1 IA")).check()
    start = dialog.get_by_role("button", name="Başlat")
    in_view(page, start)
    fits(page)
    page.screenshot(path=str(output / f"{size}-new-game-seven.png"))
    start.click()
    expect(person.button("At")).to_be_visible()
    expect(totals(page)).to_have_count(7)


@pytest.mark.parametrize("lang", ["tr", "fr", "en"])
@pytest.mark.parametrize("size", [*PHONES, "desktop"])
def test_the_rules_fit_the_width(page: Page, output: Path, size: str, lang: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"/static/rules/{lang}.html")
    expect(page.get_by_role("table").first).to_be_visible()
    fits(page)
    for table in page.get_by_role("table").all():
        where = box(table)
        assert where["x"] >= 0
        assert where["x"] + where["w"] <= SIZES[size]["width"]
    page.get_by_role("table").last.screenshot(path=str(output / f"{size}-rules-{lang}.png"))
