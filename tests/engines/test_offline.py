"""The server out of reach, in Firefox and WebKit: a reload still opens the app (its service
worker keeps the page's files and words), which shows its own screen in Turkish and asks
again by itself; once the server is back, the game is back where it was."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engines.drivers import Tab, until
from engines.person import Person
from server.serving import Server, running


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A real ``zar serve``, killed and started again on its port by the test."""
    with running(tmp_path / "zar.sqlite3") as started:
        yield started


def test_a_reload_with_the_server_down_shows_the_apps_screen_and_the_game_comes_back(
    new_tab: Callable[[], Tab], server: Server
) -> None:
    ali = Person(new_tab(), server.url)
    ali.open()
    ali.new_game("Yams", "Ali", autofill="Kapalı")
    ali.throw()
    faces = ali.faces()
    assert ali.js("() => navigator.serviceWorker.ready.then(() => true)") is True
    server.kill()  # no goodbye: as a crash, or the network gone
    ali.tab.reload()
    offline = ali.find("alert")
    offline.wait_text("Sunucuya ulaşılamıyor")  # the app's own words, in Turkish
    offline.wait_text("Yeniden deneniyor…")
    server.start()
    until(lambda: not offline.visible(), "the game back", timeout=15)  # it asked by itself
    until(lambda: len(ali.dice()) == 5, "the dice back")
    assert ali.faces() == faces
    assert ali.button("At").get().attribute("aria-description") == "2 atış kaldı"
