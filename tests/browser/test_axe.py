"""axe-core (from the npm registry, package-lock.json) on every screen, in the light and the
dark theme, at a phone's size and a desktop's: no violation of WCAG 2.2 A and AA, of axe's
best practices, nor of its experimental rules (label-content-name-mismatch among them).

axe is injected into a browser context that bypasses the page's content security policy
(which allows the page's own scripts only), as the page itself never needs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browser.person import DESKTOP, PHONE, Person
from browser.test_review import played_10000
from dice_support import ScriptedDice

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice", "experimental"]
RUN = f"""async () => {{
  for (const animation of document.getAnimations()) {{
    try {{ animation.finish(); }} catch {{ animation.cancel(); }}
  }}
  const only = {{ type: "tag", values: {json.dumps(RULES)} }};
  const result = await axe.run(document, {{ runOnly: only }});
  return result.violations.map((v) => ({{ id: v.id, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + " — " + n.failureSummary) }}));
}}"""


@pytest.fixture
def seen(browser: Browser, base_url: str) -> Iterator[Page]:
    """A page whose content security policy lets axe in; no script error on it either."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: npm ci (make browser does it)")
    context = browser.new_context(base_url=base_url, bypass_csp=True, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def violations(page: Page) -> list[dict[str, Any]]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return found


class Screens:
    """What axe found on each screen visited, said together at the end."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.found: dict[str, list[dict[str, Any]]] = {}

    def check(self, screen: str) -> None:
        found = violations(self.page)
        if found:
            self.found[screen] = found

    def report(self) -> str:
        return json.dumps(self.found, ensure_ascii=False, indent=1)


def finished_yams(page: Page, player: str) -> str:
    """A Yams game played to its end through the API (the first open box each round)."""
    game = page.request.post("/api/games", data={"game": "yams", "players": [player]}).json()
    actions = f"/api/games/{game['id']}/actions"
    for _ in range(13):
        game = page.request.post(actions, data={"version": game["version"], "type": "throw"}).json()
        box = next(iter(game["options"]))
        fill = {"version": game["version"], "type": "fill", "box": box}
        game = page.request.post(actions, data=fill).json()
    assert game["over"]
    return str(game["id"])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_screen_passes_axe(seen: Page, dice: ScriptedDice, size: str, scheme: str) -> None:
    page = seen
    page.set_viewport_size(PHONE if size == "phone" else DESKTOP)
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")  # type: ignore[arg-type]
    person = Person(page)
    screens = Screens(page)
    checked = lambda screen: screens.check(screen)  # noqa: E731
    done = finished_yams(page, "Nilüfer")  # a name of its own: other tests count Deniz's games

    person.open()
    # The home as drawn (its heading), not the page's shell before its script ran.
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    checked("home")
    page.get_by_role("button", name="Yeni oyun").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("radio", name="10 000").check()
    dialog.get_by_role("checkbox", name="Humains + 1 IA").check()
    checked("the new-game dialog")
    dialog.get_by_role("button", name="Vazgeç").click()

    person.new_game("Yams", "Ali", computer=True, autofill="Kapalı")
    person.button("Davet et").click()
    expect(page.get_by_role("img", name="QR kodu")).to_be_visible()
    checked("the invitation")
    page.get_by_role("dialog").get_by_role("button", name="Tamam").click()
    dice.script(2, 2, 5, 5, 5)
    person.throw()
    person.dice.nth(2).click()
    person.box("Full").click()
    checked("Yams, a throw")
    person.ask_coach()
    checked("Yams, the coach")

    person.open()
    person.new_game("10 000", "Ali", "Ece")
    dice.script(1, 5, 2, 3, 4, 6)
    person.throw()
    person.dice.nth(0).click()
    person.dice.nth(2).click()  # a die that cannot be taken: shaken, and said why
    checked("10 000, a throw")

    person.open(f"/?game={done}")
    expect(person.winner()).to_be_visible()
    person.button("İnceleme").click()
    expect(page.get_by_role("region", name="İnceleme")).not_to_have_attribute("aria-busy", "true")
    checked("the end and the review")
    person.open(f"/?game={played_10000(page, ('Nilüfer', 'Ece'))}")
    person.button("İnceleme").click()
    review = page.get_by_role("region", name="İnceleme")
    # (the first review of a 10 000 game for two reads the strategy of winning: seconds)
    expect(review.get_by_role("img", name="Kazanma şansı, adım adım")).to_be_visible(timeout=60_000)
    checked("a 10 000 review in chances of winning")

    person.open("/?view=games")
    expect(page.get_by_role("heading", name="Tüm yarım kalan oyunlar")).to_be_visible()
    checked("the unfinished games")
    page.get_by_role("button", name="Bırak").first.click()
    checked("abandoning a game")
    page.get_by_role("button", name="Vazgeç").click()

    person.open("/?view=history")
    expect(page.get_by_role("link").filter(has_text="Nilüfer").first).to_be_visible()
    checked("the history")
    person.open(f"/?replay={done}&at=5")
    expect(page.get_by_text("Adım 5/")).to_be_visible()
    checked("a replay")
    person.open("/?view=stats")
    expect(page.get_by_role("img", name="Son puanların dağılımı")).to_be_visible()
    checked("the statistics")

    page.goto("/static/rules/tr.html")
    checked("the rules")

    # The server out of reach: the app's own screen.
    person.open()
    expect(page.get_by_role("button", name="Yeni oyun")).to_be_visible()
    page.route("**/api/**", lambda route: route.abort())
    page.get_by_role("link", name="Geçmiş").click()
    expect(page.get_by_role("alert")).to_contain_text("Sunucuya ulaşılamıyor")
    checked("the server out of reach")
    assert screens.found == {}, screens.report()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_join_screen_passes_axe(
    browser: Browser, base_url: str, size: str, scheme: str
) -> None:
    """Another phone's screens: the seats an invitation offers, and the game as a guest
    sees it (whose turn it is, on which phone)."""
    viewport = PHONE if size == "phone" else DESKTOP
    contexts = [
        browser.new_context(
            base_url=base_url,
            bypass_csp=True,
            viewport=viewport,
            color_scheme=scheme,
            reduced_motion="reduce",
        )  # type: ignore[arg-type]
        for _ in range(2)
    ]
    host, guest = (Person(context.new_page()) for context in contexts)
    host.open()
    host.new_game("10 000", "Ali", "Ece")
    host.button("Davet et").click()
    link = host.page.get_by_role("link", name="Davet bağlantısı").get_attribute("href") or ""
    guest.page.goto(link)
    expect(guest.button("Ece")).to_be_visible()
    screens = Screens(guest.page)
    screens.check("the join screen")
    guest.button("Ece").click()
    expect(guest.page.get_by_text("Sıra: Ali, oyunu kuran telefonda")).to_be_visible()
    screens.check("a guest's game")
    for context in contexts:
        context.close()
    assert screens.found == {}, screens.report()
