"""10 000 through the page, as a person plays it: a refused die, the selection's value, hot
dice, a lost turn, the last round, the end; and a whole game against the computer."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from browser.person import Person, tap
from dice_support import ScriptedDice


def scoring_dice(faces: list[int]) -> list[int]:
    """Every 1 and 5, every three or more of a kind; three pairs when nothing else scores."""
    chosen = [f for f in faces if f in (1, 5) or faces.count(f) >= 3]
    return chosen or list(faces)


def test_a_game_of_two_with_every_message(page: Page, dice: ScriptedDice) -> None:
    ali = Person(page)
    ali.open()
    ali.new_game("10 000", "Ali", "Ece", target="5 000")
    expect(ali.header).to_contain_text("Sıra: Ali")
    expect(ali.header).to_contain_text("0 / 5 000")
    expect(page.get_by_text("Hedef: 5 000")).to_be_visible()

    # Ali's turn. A lone 2 is refused at once and stays in play.
    dice.script(2, 5, 1, 3, 1, 4)
    ali.throw()
    assert ali.faces() == [2, 5, 1, 3, 1, 4]
    ali.dice.first.click()
    expect(ali.status).to_contain_text("Tek başına 2 puan getirmiyor")
    expect(ali.dice.first).to_have_attribute("aria-pressed", "false")
    tap(ali, 5, 1, 1)
    expect(page.get_by_text("+250", exact=True)).to_be_visible()  # the selection's value
    expect(page.get_by_text("%27,8", exact=True)).to_be_visible()  # three dice left
    expect(ali.button("Kasaya yatır")).to_contain_text("(+250)")
    dice.script(1, 1, 1)
    ali.throw()
    # The dice set aside stay in the group, pressed; three are in play.
    expect(ali.dice).to_have_count(6)
    assert sorted(ali.in_play()) == [1, 1, 1]
    aside = page.get_by_role("list", name="Kenara ayrılanlar")
    expect(aside).to_contain_text("+250")
    expect(aside.get_by_role("button", name="1, kenarda")).to_have_count(2)
    expect(aside.get_by_role("button", name="5, kenarda")).to_be_disabled()
    # Every die in play set aside: hot dice, and the same tap throws the six.
    tap(ali, 1, 1, 1)
    expect(ali.button("Kasaya yatır")).to_contain_text("(+1 250)")
    dice.script(6, 6, 6, 6, 6, 6)
    ali.throw()
    expect(ali.status).to_contain_text("Dés chauds !")
    assert ali.in_play() == [6, 6, 6, 6, 6, 6]
    tap(ali, 6, 6, 6, 6, 6, 6)
    expect(ali.button("Kasaya yatır")).to_contain_text("(+4 250)")
    ali.act("Kasaya yatır")

    # Ece's turn: nothing scores (F-13), the turn is lost.
    ali.wait_for_turn("Ece")
    expect(page.get_by_role("listitem").filter(has_text="Ali")).to_contain_text("4 250")
    dice.script(2, 3, 4, 4, 6, 6)
    ali.throw()
    expect(ali.status).to_contain_text("Tour perdu !")
    expect(ali.header).to_contain_text("Sıra: Ali")

    # Ali reaches the target: the last round, announced and kept on screen.
    dice.script(1, 1, 1, 2, 3, 4)
    ali.throw()
    tap(ali, 1, 1, 1)
    ali.act("Kasaya yatır")
    expect(ali.status).to_contain_text("Dernier tour !")
    ali.wait_for_turn("Ece")
    dice.script(5, 2, 3, 4, 6, 6)
    ali.throw()
    expect(ali.status).to_contain_text("Dernier tour !")
    tap(ali, 5)
    ali.act("Kasaya yatır")

    expect(ali.winner()).to_have_text("Kazanan: Ali")
    final = page.locator(".final")
    expect(final).to_contain_text("5 250")
    expect(final).to_contain_text("50")
    expect(ali.status).not_to_contain_text("Dernier tour !")
    ali.act("Rövanş")
    expect(ali.header).to_contain_text("Sıra: Ali")
    expect(ali.header).to_contain_text("0 / 5 000")


def test_a_whole_game_against_the_computer(page: Page) -> None:
    """Random dice: set aside all that scores, bank from 300 or when two dice are left."""
    ali = Person(page)
    ali.open()
    ali.new_game("10 000", "Ali", computer=True, target="5 000")
    for _ in range(200):
        ali.wait_for_turn("Ali")
        if ali.winner().is_visible():
            break
        ali.throw()
        while ali.header.get_by_text("Sıra: Ali").is_visible():
            faces = ali.in_play()
            if not faces:  # the turn was lost, and the computer has played already
                break
            scoring = scoring_dice(faces)
            tap(ali, *scoring)
            bank = ali.button("Kasaya yatır")
            points = int(re.sub(r"\D", "", bank.inner_text()) or 0)
            left = len(faces) - len(scoring)
            if points >= 300 or 0 < left <= 2:
                ali.act("Kasaya yatır")
                break
            ali.throw()  # hot dice too: the six are thrown in the same tap
    expect(ali.winner()).to_be_visible()
    expect(page.locator(".final li")).to_have_count(2)
