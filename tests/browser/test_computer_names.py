"""The computer named in the page's language on the home screen's list of games, in the
history and in the statistics, whatever language each game was started in: games started
on a Turkish screen (the computer ``IA``) and on an English one (``Computer``), read on an
English page and then a Turkish one; the statistics count the computer once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from browser.person import PHONE, Person
from browser.test_stats import act
from play_support import shortest_yams_intent


def started(page: Page, lang: str, person: str) -> dict[str, Any]:
    """A Yams game of ``person`` and the computer, started on a screen in ``lang``."""
    body = {"game": "yams", "players": [person], "computer": True, "level": "easy"}
    reply = page.request.post(f"/api/games?lang={lang}", data=body)
    assert reply.ok, reply.text()
    game: dict[str, Any] = reply.json()
    return game


def finished(page: Page, lang: str, person: str) -> None:
    """:func:`started`, played to its end through the API: the person throws once and
    writes the first box offered, the computer plays its own."""
    game = started(page, lang, person)
    while not game["over"]:
        game = act(page, game, **shortest_yams_intent(game))


def assert_unfinished(page: Page, region: str, computer: str, *, not_shown: str) -> None:
    """The home screen's two unfinished games name the computer ``computer``, and never as
    the other language does."""
    unfinished = page.get_by_role("region", name=region).get_by_role("link")
    expect(unfinished).to_have_count(2)
    for link in unfinished.all():
        expect(link).to_contain_text(f"Ayşe 0 · {computer} 0")
        expect(link).not_to_contain_text(not_shown)


def assert_one_computer(page: Page, computer: str) -> None:
    """The Yams statistics: Ayşe and the computer, named ``computer``, one row for both
    games."""
    table = page.get_by_role("table", name="Yams", exact=True)
    expect(table.get_by_role("rowheader")).to_have_text(["Ayşe", computer])
    row = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=computer))
    expect(row.get_by_role("cell").first).to_have_text("2")  # both games, one player


def test_the_lists_and_the_statistics_name_the_computer_in_the_pages_language(
    page: Page, output: Path
) -> None:
    page.set_viewport_size(PHONE)
    for lang in ("tr", "en"):
        finished(page, lang, "Ayşe")
        started(page, lang, "Ayşe")
    person = Person(page)

    person.open("/?lang=en")
    assert_unfinished(page, "Unfinished games", "Computer", not_shown="IA")
    page.screenshot(path=output / "computer-names-home-en.png")
    page.get_by_role("link", name="Statistics").click()
    assert_one_computer(page, "Computer")
    expect(page.get_by_role("combobox", name="Player").get_by_role("option")).to_have_text(
        ["Everyone", "Ayşe", "Computer"]
    )
    expect(page.get_by_role("combobox", name="Which game").get_by_role("option")).to_have_count(2)
    for option in page.get_by_role("combobox", name="Which game").get_by_role("option").all():
        expect(option).to_contain_text("Computer")
    page.screenshot(path=output / "computer-names-stats-en.png", full_page=True)
    page.get_by_role("link", name="History").click()
    played = page.get_by_role("region", name="History").get_by_role("listitem")
    expect(played).to_have_count(2)
    for item in played.all():
        expect(item).to_contain_text("Computer")
        expect(item).not_to_contain_text("IA")

    person.open("/?lang=tr")
    assert_unfinished(page, "Yarım kalan oyunlar", "IA", not_shown="Computer")
    page.get_by_role("link", name="İstatistikler").click()
    assert_one_computer(page, "IA")
    page.screenshot(path=output / "computer-names-stats-tr.png", full_page=True)
