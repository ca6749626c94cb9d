"""The statistics screen (`İstatistikler`) at a phone's size and a desktop's: three tables
(the main figures, the game's own, luck and skill) that fit a phone's width with nothing to
scroll sideways; with larger text, no column out of sight without a cue that it is there,
the table's scroll area reached and scrolled by keyboard; the columns' names whole words in
French, in words a player understands, the headings one level at a time; and its
screenshots in French and Turkish, light and dark."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from browser.person import DESKTOP, PHONE, Person
from browser.test_contrast import low
from zar.i18n.page import WORDS

# One name that wraps at its space, one at its hyphen.
PLAYERS = ("Ayşe Nur", "Jean-Baptiste")
SMALL_PHONE: ViewportSize = {"width": 360, "height": 740}
# The Yams tables' columns, in their order on the page: the main figures, the game's own,
# luck and skill.
COLUMNS = ("player", "games-played", "wins", "mean-total", "best-total",
           "player", "upper-bonus-rate", "pentas", "penta-bonuses",
           "player", "mean-luck", "stats-mean-cost")  # fmt: skip
TABLES = {
    "tr": ("Yams", "Ayrıntılar", "Şans ve beceri"),
    "fr": ("Yams", "Détails", "Chance et talent"),
}
# Text half as large again as the page's own (a phone's larger text setting), set through
# the page's style object (the content security policy refuses a style sheet written in):
# the main figures no longer fit a phone's width.
LARGER_TEXT = "document.documentElement.style.setProperty('font-size', '150%', 'important')"

# Each column's name: what overflows its cell, and each word broken across two lines.
CUT_WORDS = """ths => ths.flatMap((th) => {
  const cut = th.scrollWidth > th.clientWidth ? [`${th.textContent} overflows its cell`] : [];
  const text = th.firstChild;
  for (const match of th.textContent.matchAll(/\\S+/g)) {
    const word = document.createRange();
    word.setStart(text, match.index);
    word.setEnd(text, match.index + match[0].length);
    const lines = new Set([...word.getClientRects()].map((r) => Math.round(r.top)));
    if (lines.size !== 1) cut.push(`${match[0]} (of ${th.textContent}) is cut`);
  }
  return cut;
})"""


def act(page: Page, game: dict[str, Any], **intent: str) -> dict[str, Any]:
    """The game once the intention of the player on turn is applied, through the API."""
    reply = page.request.post(
        f"/api/games/{game['id']}/actions", data={"version": game["version"], **intent}
    )
    assert reply.ok, reply.text()
    played: dict[str, Any] = reply.json()
    return played


def finished_yams(page: Page, players: tuple[str, ...]) -> None:
    """A Yams game played to its end through the API: a throw, then the first open box."""
    game = page.request.post("/api/games", data={"game": "yams", "players": list(players)}).json()
    for _ in range(13 * len(players)):
        game = act(page, game, type="throw")
        game = act(page, game, type="fill", box=next(iter(game["options"])))
    assert game["over"]


@pytest.fixture
def person(page: Page) -> Person:
    """Someone at the page, with a finished game of Yams in the statistics (played once)."""
    stats = page.request.get("/api/stats?game=yams").json()
    if not {p["name"] for p in stats["players"]} >= set(PLAYERS):
        finished_yams(page, PLAYERS)
    return Person(page)


def open_stats(person: Person, lang: str = "tr") -> Locator:
    """The statistics of Yams; the area the table scrolls in (the table's parent)."""
    person.open(f"/?view=stats&lang={lang}")
    table = person.page.get_by_role("table", name="Yams")
    expect(table.get_by_role("row").filter(has_text="Jean-Baptiste")).to_be_visible()
    return table.locator("xpath=..")


def shade(page: Page, edge: str) -> Locator:
    """The shade at an edge of the main figures' scroll area ("before", "after"): a drawing,
    hidden from the accessibility tree, so found by its class."""
    return page.locator(".table-frame").first.locator(f".shade.{edge}")


def edges(locator: Locator) -> tuple[float, float]:
    """Where a thing is across the screen: its left and right edges, in pixels."""
    box = locator.bounding_box()
    assert box, f"{locator} is not on the page"
    return box["x"], box["x"] + box["width"]


def scroll_width(area: Locator) -> tuple[int, int]:
    sizes: list[int] = area.evaluate("el => [el.scrollWidth, el.clientWidth]")
    return sizes[0], sizes[1]


def out_of_sight(page: Page, area: Locator) -> list[str]:
    """The columns wholly or partly out of the scroll area's view (beyond its edge, or under
    the players' names) with no shade at that edge to say so."""
    headers = area.get_by_role("columnheader")
    names, right = edges(headers.first)[1], edges(area)[1]
    hidden = []
    for header in headers.all()[1:]:
        start, end = edges(header)
        if end > right + 0.5 and not shade(page, "after").is_visible():
            hidden.append(f"{header.inner_text()} beyond the right edge")
        if start < names - 0.5 and not shade(page, "before").is_visible():
            hidden.append(f"{header.inner_text()} under the names")
    return hidden


def settled(area: Locator) -> float:
    """The scroll area's scrollLeft once it has stopped moving (it snaps to a column)."""
    area.page.wait_for_timeout(50)
    for _ in range(40):
        before: float = area.evaluate("el => el.scrollLeft")
        area.page.wait_for_timeout(150)
        if area.evaluate("el => el.scrollLeft") == before:
            return before
    raise AssertionError("the table does not stop scrolling")


@pytest.mark.parametrize("lang", ["tr", "fr"])
@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_on_a_phone_every_figure_is_in_view_with_nothing_to_scroll_sideways(
    page: Page, person: Person, size: ViewportSize, lang: str
) -> None:
    page.set_viewport_size(size)
    open_stats(person, lang)
    for name in TABLES[lang]:
        table = page.get_by_role("table", name=name)
        area = table.locator("xpath=..")
        wide, shown = scroll_width(area)
        assert wide <= shown, (name, wide, shown)
        expect(area).not_to_have_attribute("tabindex", "0")  # nothing to scroll: no tab stop
        for cell in table.locator("th, td").all():
            start, end = edges(cell)
            assert start >= 0, (name, cell.inner_text(), start)
            assert end <= size["width"], (name, cell.inner_text(), end)
    expect(page.locator(".table-frame .shade:not([hidden])")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_with_larger_text_no_column_is_out_of_sight_without_a_cue(
    page: Page, person: Person, size: ViewportSize
) -> None:
    page.set_viewport_size(size)
    area = open_stats(person)
    page.evaluate(LARGER_TEXT)
    names = area.get_by_role("columnheader").first
    expect(names).to_have_text("Oyuncu")
    expect(shade(page, "after")).to_be_visible()
    wide, shown = scroll_width(area)
    assert wide > shown  # the larger figures are wider than a phone
    after = shade(page, "after")
    expect(shade(page, "before")).to_be_hidden()
    # The shade is at the right edge of the area, on the screen.
    left, right = edges(area)
    assert abs(edges(after)[1] - right) <= 1
    assert right <= size["width"]
    assert out_of_sight(page, area) == []
    place = names.bounding_box()
    jean = area.get_by_role("rowheader", name="Jean-Baptiste")
    row = jean.bounding_box()

    # A swipe to the left: the names stay put, shaded on their right.
    area.hover()
    page.mouse.wheel(120, 0)
    assert settled(area) > 0
    expect(shade(page, "before")).to_be_visible()
    assert names.bounding_box() == place
    assert jean.bounding_box() == row
    assert out_of_sight(page, area) == []

    # At the end, the last column on the screen, no shade on the right any more.
    area.evaluate("el => el.scrollBy({ left: el.scrollWidth })")
    assert settled(area) == wide - shown
    expect(after).to_be_hidden()
    start, end = edges(area.get_by_role("columnheader").last)
    assert left <= start
    assert end <= right + 0.5
    assert out_of_sight(page, area) == []
    assert names.bounding_box() == place


@pytest.mark.parametrize("size", [SMALL_PHONE, DESKTOP], ids=["360x740", "1280x800"])
def test_in_french_the_columns_names_are_whole_words(
    page: Page, person: Person, size: ViewportSize
) -> None:
    page.set_viewport_size(size)
    open_stats(person, "fr")
    headers = page.get_by_role("columnheader")
    expect(headers).to_have_text([WORDS[column]["fr"] for column in COLUMNS])
    assert headers.evaluate_all(CUT_WORDS) == []
    for name in TABLES["fr"]:
        area = page.get_by_role("table", name=name).locator("xpath=..")
        across = [edges(header) for header in area.get_by_role("columnheader").all()]
        for one, other in pairwise(across):  # side by side, never overlapping
            assert one[1] <= other[0] + 0.5
        wide, shown = scroll_width(area)  # every column in view
        assert wide == shown
        assert across[-1][1] <= edges(area)[1]


def test_the_table_is_reached_by_tab_and_scrolled_with_the_arrow_keys(
    page: Page, person: Person
) -> None:
    page.set_viewport_size(PHONE)
    open_stats(person)
    page.evaluate(LARGER_TEXT)
    area = page.get_by_role("region", name="Yams")  # named by the table's caption
    expect(area).to_have_attribute("tabindex", "0")
    wide, shown = scroll_width(area)
    assert wide > shown
    page.get_by_role("button", name="10 000").focus()
    page.keyboard.press("Tab")  # the rules the statistics count first, then the table
    expect(page.get_by_role("combobox", name="Kurallar")).to_be_focused()
    page.keyboard.press("Tab")
    expect(area).to_be_focused()
    outline: list[str] = area.evaluate(
        "el => [getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineWidth]"
    )
    assert outline[0] == "solid"
    assert float(outline[1].removesuffix("px")) >= 2
    page.keyboard.press("ArrowRight")
    assert settled(area) > 0
    page.keyboard.press("ArrowLeft")
    assert settled(area) == 0

    # On a desktop the tables fit: nothing to scroll, so no stop on the way to the charts.
    page.set_viewport_size(DESKTOP)
    expect(area).not_to_have_attribute("tabindex", "0")
    assert scroll_width(area)[0] == scroll_width(area)[1]
    page.get_by_role("button", name="10 000").focus()
    page.keyboard.press("Tab")
    expect(page.get_by_role("combobox", name="Kurallar")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("combobox", name="Oyuncu")).to_be_focused()


def test_the_headings_go_down_one_level_at_a_time(page: Page, person: Person) -> None:
    page.set_viewport_size(PHONE)
    open_stats(person)
    expect(page.get_by_role("img", name="Tur tur puanlar")).to_be_visible()
    levels: list[int] = page.locator("h1, h2, h3, h4, h5, h6").evaluate_all(
        "hs => hs.map((h) => Number(h.tagName[1]))"
    )
    assert levels[0] == 1
    assert all(b - a <= 1 for a, b in pairwise(levels)), levels
    expect(page.get_by_role("heading", level=1, name="İstatistikler")).to_be_visible()
    expect(page.get_by_role("heading", level=2, name="Yams")).to_be_visible()
    expect(page.get_by_role("heading", level=3, name="Ayrıntılar")).to_be_visible()
    expect(page.get_by_role("heading", level=3, name="Şans ve beceri")).to_be_visible()
    expect(page.get_by_role("heading", level=3, name="Son puanların dağılımı")).to_be_visible()


@pytest.mark.parametrize("lang", ["tr", "fr"])
def test_the_statistics_in_light_and_dark(
    page: Page, person: Person, output: Path, lang: str
) -> None:
    """Screenshots to look at, at a phone's size and a desktop's, with text at WCAG AA."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")  # type: ignore[arg-type]
        for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
            page.set_viewport_size(size)
            open_stats(person, lang)
            expect(page.get_by_role("img", name=WORDS["chart-progress"][lang])).to_be_visible()
            person.shot(output, f"{name}-stats-{lang}-{scheme}")
            assert low(page) == []


def accounted(page: Page, games: int) -> None:
    """Wait until the server has kept the luck account of ``games`` Yams games: each is
    worked out a moment after its game ends, off the request that ended it."""
    for _ in range(300):
        if page.request.get("/api/stats?game=yams").json()["accounted"] >= games:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"fewer than {games} games accounted")


def test_the_luck_figures_and_the_cost_chart_show_after_two_finished_games(
    page: Page, person: Person
) -> None:
    finished_yams(page, PLAYERS)  # a second game beside the fixture's
    accounted(page, 2)
    stats = page.request.get("/api/stats?game=yams").json()
    own = next(p for p in stats["players"] if p["name"] == "Jean-Baptiste")
    assert own["luck_games"] >= 2
    page.set_viewport_size(DESKTOP)
    open_stats(person, "en")
    table = page.get_by_role("table", name="Luck and skill")
    expect(table.get_by_role("columnheader", name="Mean luck")).to_be_visible()
    expect(table.get_by_role("columnheader", name="Mean cost")).to_be_visible()
    row = table.get_by_role("row").filter(has_text="Jean-Baptiste")
    expect(row.get_by_role("cell").nth(-1)).to_have_text(f"{own['mean_cost']:.1f}")
    expect(
        page.get_by_text(f"Means per game, in points (games counted: {stats['accounted']}): luck")
    ).to_be_visible()
    chart = page.get_by_role("img", name="Cost per decision, game by game")
    expect(chart).to_be_visible()
    described = chart.evaluate("svg => svg.querySelector('desc').textContent")
    assert "Jean-Baptiste: Game 1" in described
    # The mark in a player's words (Tom Verhoeff's aim for his Yahtzee proficiency test).
    assert "Expert play: under 0.2 points lost per decision" in described
    assert "Verhoeff" not in page.locator("body").inner_text()
    expect(chart.locator(".reference-line")).to_have_count(1)
