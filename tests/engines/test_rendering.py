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

from dice_support import ScriptedDice
from engines.drivers import until
from engines.person import PHONE, SMALL_PHONE, Person
from engines.pixels import Picture

# The text of the visible elements whose whole text matches a pattern.
SHOWN_TEXT = """(pattern) => [...document.querySelectorAll('main p, main span')]
  .filter((e) => e.checkVisibility() && new RegExp(pattern).test(e.textContent))
  .map((e) => e.textContent)"""


def shown(ali: Person, pattern: str) -> list[str]:
    found = ali.js(SHOWN_TEXT, pattern)
    assert isinstance(found, list)
    return found


def why(ali: Person) -> str:
    """The words under the buttons on why the box tapped scores what it does."""
    words = ali.js("() => document.querySelector('.felt-line .why').textContent")
    assert isinstance(words, str)
    return words


def test_why_a_box_scores_shows_under_the_buttons_after_the_coach(
    person: Person, dice: ScriptedDice
) -> None:
    ali = person
    ali.open()
    ali.new_game("Yams", "Ali", computer=True, autofill="Kapalı")  # alone: coached
    dice.script(2, 2, 5, 5, 5)
    ali.throw()
    ali.box("Full").click()
    note = why(ali)
    assert note  # what the box scores, in words
    until(lambda: shown(ali, f"^{re.escape(note)}$"), "the line under the buttons")
    # The coach opened and closed once: the line still shows for the next box tapped.
    ali.button("İpucu").click()
    ali.find("region", "Koç").get()
    ali.button("İpucu").click()
    ali.find("region", "Koç").wait_hidden()
    ali.box("Beş").click()
    until(lambda: why(ali) not in ("", note), "the Beş box's words")
    note = why(ali)
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


# A Yams game to its end through the API, as this phone: a throw, then the first open box.
FINISH_YAMS = """async (players) => {
  const post = (url, body) => fetch(url, {method: 'POST',
    headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})
    .then((r) => r.json());
  let game = await post('/api/games', {game: 'yams', players});
  while (!game.over) {
    game = await post(`/api/games/${game.id}/actions`, {version: game.version, type: 'throw'});
    game = await post(`/api/games/${game.id}/actions`,
      {version: game.version, type: 'fill', box: Object.keys(game.options)[0]});
  }
  return game.over;
}"""

# Each row of the statistics but the last: where its first cell and the next one are.
ROW_LINES = """() => [...document.querySelector('table').rows].slice(0, -1)
  .filter((tr) => tr.checkVisibility()).map((tr) => { const [first, next] = tr.children;
    const a = first.getBoundingClientRect(), b = next.getBoundingClientRect();
    return {bottom: Math.floor(Math.min(a.bottom, b.bottom)), first: Math.round(a.x + a.width / 2),
      next: Math.round(b.x + b.width / 2)}; })"""


def test_the_statistics_rows_keep_their_lines_under_the_first_column(
    person: Person, output: Path
) -> None:
    ali = person
    ali.open()
    assert ali.js(FINISH_YAMS, ["Ayşe", "Mehmet"]) is True
    ali.open("/?view=stats&kind=yams")
    ali.find("table").get()
    rows = ali.js(ROW_LINES)
    assert isinstance(rows, list)
    assert len(rows) >= 2, "the head and a row"
    picture_path = output / f"{ali.tab.engine}-stats-lines.png"
    ali.tab.screenshot(picture_path)
    picture = Picture(picture_path)
    for row in rows:
        # The line under the second cell: the pixels at its bottom that are not its inside.
        inside = picture.at(row["next"], row["bottom"] - 6)
        line = [y for y in range(row["bottom"] - 3, row["bottom"] + 4)
                if picture.at(row["next"], y) != inside]  # fmt: skip
        assert line, ("no line under the second cell", row)
        # The same line under the first cell (WebKit may draw the sticky cell a pixel off).
        for y in line:
            near = [picture.at(row["first"], y + dy) for dy in (-1, 0, 1)]
            assert picture.at(row["next"], y) in near, (row, y)
