"""After a game, through the page: a whole Yams game played with the coach's best boxes
(its last box undone once), its review, the statistics with their charts, the exports, the
history and a replay of the game step by step."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from browser.person import PHONE, Person
from browser.test_coach import shots
from browser.test_stats import act
from dice_support import ScriptedDice


def tr_figure(x: float, digits: int = 1) -> str:
    """A figure as the Turkish page writes it: `1 254,3`."""
    return f"{x:,.{digits}f}".replace(",", " ").replace(".", ",")


def test_a_game_its_review_its_statistics_and_its_replay(page: Page, output: Path) -> None:
    page.set_viewport_size(PHONE)
    deniz = Person(page)
    deniz.open()
    deniz.new_game("Yams", "Deniz", autofill="Kapalı")
    game = page.url.split("game=")[1].split("&")[0]
    for round_ in range(1, 14):  # each round: one throw, the coach asked, its best box
        expect(deniz.header).to_contain_text(f"Tur {round_}/13")
        deniz.throw()
        deniz.ask_coach()
        deniz.take_best("Yaz")
        deniz.act("Turu onayla")
    expect(deniz.winner()).to_have_text("Kazanan: Deniz")
    # The last box undone: the game goes on, and ends again with the coach's box.
    deniz.act("Geri al")
    expect(deniz.winner()).to_be_hidden()
    expect(deniz.header).to_contain_text("Tur 13/13")
    deniz.options()
    deniz.take_best("Yaz")
    deniz.act("Turu onayla")
    expect(deniz.winner()).to_have_text("Kazanan: Deniz")
    final = page.request.get(f"/api/games/{game}").json()["totals"][0]
    expect(page.locator(".final")).to_contain_text(str(final))

    # The review: the figures the server measured against the strategy, as they are.
    deniz.button("İnceleme").click()
    review = page.get_by_role("region", name="İnceleme")
    measured = page.request.get(f"/api/games/{game}/review").json()["players"]
    assert [p["name"] for p in measured] == ["Deniz"]
    person = measured[0]
    assert person["decisions"] == 13  # the box undone is not one
    card = review.get_by_role("article", name="Deniz")
    expect(card.get_by_text(person["verdict"])).to_be_visible()
    expect(card).to_contain_text(f"Toplam kayıp{tr_figure(person['total_cost'])} puan")
    expect(card).to_contain_text(f"Karar başına{tr_figure(person['mean_cost'])} puan")
    expect(card).to_contain_text("13 karar")
    worst = card.get_by_role("listitem").filter(has_text="Seçilen")
    expect(worst).to_have_count(len(person["worst"]))
    for n, decision in enumerate(person["worst"]):
        expect(worst.nth(n)).to_contain_text(f"Tur {decision['round']}")
        expect(worst.nth(n)).to_contain_text(f"Kayıp: {tr_figure(decision['cost'])} puan")
        dice = ", ".join(str(f) for f in decision["board"]["dice"])
        expect(worst.nth(n)).to_contain_text(f"Zarlar: {dice}.")
    shots(deniz, output, "review")

    # The statistics: Deniz's line, the two charts, described in words.
    page.get_by_role("link", name="Zar, Ana sayfa").click()
    expect(page.get_by_role("link", name="Geçmiş")).to_be_visible()
    page.get_by_role("link", name="İstatistikler").click()
    expect(page.get_by_role("button", name="Yams", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    # The main figures: games, wins, the mean and the best total.
    row = page.get_by_role("table", name="Yams").get_by_role("row", name=re.compile("^Deniz"))
    expect(row).to_contain_text(str(final))
    expect(row.get_by_role("cell").first).to_have_text("1")  # one game
    totals = page.get_by_role("img", name="Son puanların dağılımı")
    expect(totals).to_be_visible()
    expect(totals).to_have_accessible_description(re.compile(r"son puan, \d+ ile \d+ arası"))
    page.get_by_role("combobox", name="Oyuncu").select_option("Deniz")
    mine = page.get_by_role("img", name="Son puanların dağılımı: Deniz")
    expect(mine).to_have_accessible_description(re.compile(f"^1 son puan, {final} ile {final}"))
    progress = page.get_by_role("img", name="Tur tur puanlar")
    expect(progress).to_have_accessible_description(re.compile(f"^13 tur sonunda: Deniz {final}."))
    for name in ("JSON", "CSV"):
        reply = page.request.get(page.get_by_role("link", name=name).get_attribute("href") or "")
        assert reply.ok
        assert reply.headers["content-disposition"].startswith("attachment")
        assert "Deniz" in reply.text()
    page.evaluate("window.scrollTo(0, 0)")
    shots(deniz, output, "stats")

    # The history, and the game replayed step by step.
    page.get_by_role("link", name="Geçmiş").click()
    page.get_by_role("link").filter(has_text="Deniz").first.click()
    steps = page.request.get(f"/api/games/{game}/log").json()["entries"]
    assert len(steps) == 28  # a throw and a box a round, the undo and the box instead
    assert [step["version"] for step in steps if step["undone"]] == [26]
    expect(page.get_by_text(f"Adım 0/{len(steps)}")).to_be_visible()
    expect(deniz.button("Önceki")).to_be_disabled()
    total = page.get_by_role("row", name=re.compile("^TOPLAM"))
    expect(total).to_contain_text("0")
    deniz.button("Sonraki").click()
    expect(page.get_by_text(f"Adım 1/{len(steps)}")).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Deniz atıyor: \d, \d, \d, \d, \d$"))).to_be_visible()
    expect(deniz.dice).to_have_count(5)
    deniz.button("Sonraki").click()
    expect(page.get_by_text(re.compile("^Deniz → "))).to_be_visible()
    page.get_by_role("slider", name="Adım").fill("19")
    expect(page.get_by_text(f"Adım 19/{len(steps)}")).to_be_visible()
    expect(deniz.header).to_contain_text("Tur 10/13")
    expect(deniz.dice).to_have_count(5)
    shots(deniz, output, "replay")
    page.get_by_role("slider", name="Adım").fill("26")
    expect(page.get_by_text(re.compile(r"^Deniz → .* \(geri alındı\)$"))).to_be_visible()
    deniz.button("Sonraki").click()
    expect(page.get_by_text("Deniz son kararını geri aldı", exact=True)).to_be_visible()
    page.get_by_role("slider", name="Adım").fill(str(len(steps)))
    expect(total).to_contain_text(str(final))
    expect(deniz.button("Sonraki")).to_be_disabled()
    deniz.button("Önceki").click()
    expect(page.get_by_text(f"Adım {len(steps) - 1}/{len(steps)}")).to_be_visible()


def test_a_replay_step_after_an_undo_shows_no_stale_flash(page: Page, dice: ScriptedDice) -> None:
    """Three 3s written in Üç ("Üç 9" beside the total), undone, then written in Şans: the
    undo's step no longer shows "Üç 9", nor does the step after it; the step of each box
    written shows its own words."""
    page.set_viewport_size(PHONE)
    game = page.request.post("/api/games", data={"game": "yams", "players": ["Deniz"]}).json()
    dice.script(3, 3, 3, 1, 2)
    game = act(page, game, type="throw")
    game = act(page, game, type="fill", box="THREES")
    game = act(page, game, type="undo")
    game = act(page, game, type="fill", box="CHANCE")
    steps = page.request.get(f"/api/games/{game['id']}/log").json()["entries"]
    assert [step["type"] for step in steps] == ["throw", "fill", "undo", "fill"]
    # The page's clock stands still: a flash stays until the page takes it away itself.
    page.clock.install()
    Person(page).open(f"/?replay={game['id']}&at=1")
    expect(page.get_by_text("Adım 1/4")).to_be_visible()
    page.clock.pause_at(page.evaluate("Date.now()") + 10)
    scores = page.get_by_role("region", name="Skorlar")
    flash = scores.get_by_text("Üç 9", exact=True)
    page.get_by_role("button", name="Sonraki").click()
    expect(page.get_by_text("Adım 2/4")).to_be_visible()
    expect(flash).to_be_visible()
    page.get_by_role("button", name="Sonraki").click()
    expect(page.get_by_text("Deniz son kararını geri aldı", exact=True)).to_be_visible()
    expect(flash).to_have_count(0)
    page.get_by_role("button", name="Sonraki").click()
    expect(page.get_by_text("Adım 4/4")).to_be_visible()
    expect(scores.get_by_text("Şans 12", exact=True)).to_be_visible()
    expect(flash).to_have_count(0)
