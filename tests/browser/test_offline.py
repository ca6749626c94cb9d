"""The server out of reach: a reload still opens the app (its service worker keeps the
page's files and words), which shows its own screen in the player's language and asks again
by itself; once the server is back, the game is back where it was."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from browser.person import Person
from server.serving import Server, running


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A real ``zar serve``, killed and started again on its port by the test."""
    with running(tmp_path / "zar.sqlite3") as started:
        yield started


def test_a_reload_with_the_server_down_shows_the_apps_screen_and_the_game_comes_back(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(base_url=server.url)
    page = context.new_page()
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali", autofill="Kapalı")
    ali.throw()
    faces = ali.faces()
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # the page's files are kept
    server.kill()  # no goodbye: as a crash, or the network gone
    page.reload()
    offline = page.get_by_role("alert")
    expect(offline).to_contain_text("Sunucuya ulaşılamıyor")  # the app's own words, in Turkish
    expect(offline).to_contain_text("Yeniden deneniyor…")
    server.start()
    expect(offline).to_be_hidden(timeout=15_000)  # it asked again by itself
    expect(ali.dice).to_have_count(5)
    assert ali.faces() == faces
    expect(ali.button("At")).to_have_accessible_description("2 atış kaldı")
    context.close()
