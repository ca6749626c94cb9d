"""Contrast at WCAG AA on every screen, in the light and the dark theme: each visible piece of
text against the colour behind it, 4.5:1 at least (3:1 for large text: 24 px, or 18.66 px
bold). Disabled controls are exempt, as WCAG says."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.person import Person
from dice_support import ScriptedDice

# For each element with text of its own: its colour against the first opaque background
# behind it (semi-transparent layers blended on the way), as WCAG 2's contrast ratio.
MEASURE = """
() => {
  // Colours mid-transition (a banner fading, a die landing) are not what the eye rests on.
  for (const animation of document.getAnimations()) {
    try { animation.finish(); } catch { animation.cancel(); } // an endless one cannot finish
  }
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const blend = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      const bg = parse(s.backgroundColor);
      if (s.backgroundImage && s.backgroundImage !== "none" && (!bg || bg[3] === 0)) {
        // A gradient: its first colour stop stands for it.
        const stop = parse(s.backgroundImage);
        if (stop) { layers.push(stop); if (stop[3] === 1) break; continue; }
      }
      if (bg && bg[3] > 0) { layers.push(bg); if (bg[3] === 1) break; }
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = blend(layer, colour);
    return colour;
  };
  const found = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest("[hidden], [aria-hidden='true'], dialog:not([open])")) continue;
    if (el.closest("button:disabled, input:disabled, [aria-disabled='true']")) continue;
    const s = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const gone = s.visibility === "hidden" || s.display === "none" || +s.opacity === 0;
    if (gone || box.width === 0) continue;
    const fg = parse(s.color);
    if (!fg) continue;
    const bg = behind(el);
    const a = lum(blend(fg, bg)), b = lum(bg);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(s.fontSize), bold = +s.fontWeight >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    found.push({ text: el.textContent.trim().slice(0, 30), ratio, need: large ? 3 : 4.5 });
  }
  return found;
}
"""


def low(page: Page) -> list[dict[str, Any]]:
    measured: list[dict[str, Any]] = page.evaluate(MEASURE)
    assert measured, "some text was measured"
    return [m for m in measured if m["ratio"] < m["need"]]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_has_aa_contrast(page: Page, dice: ScriptedDice, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")  # type: ignore[arg-type]
    person = Person(page)
    person.open("/")
    assert low(page) == []
    person.new_game("Yams", "Ali", computer=True)
    person.throw()
    assert low(page) == []
    person.open("/")
    person.new_game("10 000", "Ali", "Ece")
    dice.script(2, 5, 1, 3, 1, 4)  # a throw that scores, with a die that cannot
    person.throw()
    expect(person.dice.first).to_be_visible()
    assert low(page) == []
