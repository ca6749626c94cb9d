"""The review's account of luck and skill, through the page: for each person the start, the
dice's luck and the decisions' cost adding up to the result as the figures are shown, the
luckiest and unluckiest throws drawn as the dice fell, and the chart of each person's value
step by step; in Yams for two, in 10 000 for two (in chances of winning) and of three (the
decisions in chances against the leader, the account in points), on phones and a desktop,
nothing wider than the screen; every figure with one decimal; the boards' open boxes with
what the throw would score there."""

from __future__ import annotations

import random
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from browser.person import DESKTOP, PHONE, Person
from browser.test_history import tr_figure
from browser.test_stats import act
from dice_support import ScriptedDice

SMALL_PHONE = {"width": 360, "height": 740}
# What a figure of the identity reads like: its name, then the figure (`Zar şansı`, `12,3`),
# after the sign that joins it to the one before (`+`, `−`, `=` before the result).
TERM = re.compile(r"([+−=]?)([^%\d+−=]+)(%?\d[\d\u00a0 ]*(?:[,.]\d+)?(?:\s?%)?)")


def played_yams(page: Page, players: tuple[str, ...]) -> str:
    """A Yams game played to its end through the API: a throw, then the box scoring most."""
    game = page.request.post("/api/games", data={"game": "yams", "players": list(players)}).json()
    while not game["over"]:
        game = act(page, game, type="throw")
        options: dict[str, int] = game["options"]
        game = act(page, game, type="fill", box=max(options, key=lambda box: options[box]))
    return str(game["id"])


def played_10000(page: Page, players: tuple[str, ...]) -> str:
    """A 10 000 game to 5 000 played to its end through the API: each throw the selection
    scoring most set aside, banked once the turn holds 350 points."""
    new = {"game": "10000", "players": list(players), "target": 5000}
    game = page.request.post("/api/games", data=new).json()
    while not game["over"]:
        game = act(page, game, type="throw")
        if game["phase"] != "set-aside":
            continue  # a lost turn: the next seat throws
        scoring = {mask: s["points"] for mask, s in game["selections"].items() if "points" in s}
        best = max(scoring, key=lambda mask: scoring[mask])
        positions = [p for p in range(6) if int(best) >> p & 1]
        if game["turn_points"] + scoring[best] >= 350:
            game = act(page, game, type="bank", set_aside=positions)  # type: ignore[arg-type]
        else:
            game = act(page, game, type="set_aside", set_aside=positions)  # type: ignore[arg-type]
    return str(game["id"])


def opened_review(page: Page, game: str, lang: str = "tr", name: str = "İnceleme") -> Locator:
    person = Person(page)
    person.open(f"/?game={game}&lang={lang}")
    person.button(name).click()
    review = page.get_by_role("region", name=name)
    # The first review of a 10 000 game for two reads the strategy of winning: seconds.
    expect(review.get_by_role("article").first).to_be_visible(timeout=60_000)
    return review


def value(figure: str) -> Decimal:
    """`%54`, `1 254,5`, `12.3` as a number."""
    digits = re.sub(r"[%\s\u00a0]", "", figure).replace(",", ".")
    return Decimal(digits)


def places(figure: str) -> int:
    return len(figure.split(",")[1]) if "," in figure else 0


def identity(card: Locator) -> list[tuple[str, str, str]]:
    """The account as shown: each (sign, name, figure), the result last."""
    shown = card.get_by_role("paragraph").filter(has_text="Başlangıç")
    expect(shown).to_have_count(1)
    text = (shown.text_content() or "").strip()
    terms = [(sign, name.strip(), figure.strip()) for sign, name, figure in TERM.findall(text)]
    assert re.sub(r"\s", "", "".join(s + n + f for s, n, f in terms)) == re.sub(r"\s", "", text)
    return terms


def assert_adds_up(card: Locator, person: dict[str, Any], names: list[str], scale: int) -> None:
    """The figures shown add up, as shown, to the result shown; each is the server's figure
    to its last place shown (in percents of a chance when `scale` is 100)."""
    terms = identity(card)
    assert [name for _, name, _ in terms] == names
    assert [sign for sign, _, _ in terms][-1] == "="
    *parts, (_, _, result) = terms
    total = sum((value(f) if s != "−" else -value(f) for s, _, f in parts), Decimal(0))
    assert total == value(result), terms
    assert value(result) == Decimal(str(person["result"] * scale)).quantize(value(result))
    measured = [person["start"], person["luck"], -person["account_cost"]]
    if person["opponent_luck"] is not None:
        measured += [-person["opponent_luck"], person["opponent_cost"]]
    for (sign, name, figure), true in zip(parts, measured, strict=True):
        shown = value(figure) if sign != "−" else -value(figure)
        last = Decimal(1).scaleb(-places(figure))
        assert abs(shown - Decimal(true * scale)) < last, (name, figure, true)


def assert_luckiest(card: Locator, person: dict[str, Any], unit: str) -> None:
    """The luckiest throws drawn as the dice fell: the round, the luck, the dice, the value
    before and after."""
    drawn = card.get_by_role("listitem").filter(has_text=re.compile("Zar şansı: \\+"))
    expect(drawn).to_have_count(len(person["luckiest"]))
    assert person["luckiest"], "no throw with luck"
    for n, thrown in enumerate(person["luckiest"]):
        item = drawn.nth(n)
        expect(item).to_contain_text(f"Tur {thrown['round']}")
        if unit == "points":
            expect(item).to_contain_text(f"Zar şansı: +{tr_figure(thrown['luck'])} puan")
            dice = ", ".join(str(f) for f in thrown["board"]["dice"])
            before, after = tr_figure(thrown["before"]), tr_figure(thrown["after"])
            expect(item).to_contain_text(f"Beklenen son puan: {before} → {after}")
        else:
            expect(item).to_contain_text(f"Zar şansı: +%{tr_figure(100 * thrown['luck'])}")
            before, after = tr_figure(100 * thrown["before"]), tr_figure(100 * thrown["after"])
            expect(item).to_contain_text(f"Kazanma şansı: %{before} → %{after}")
            dice = ", ".join(str(d["face"]) for d in thrown["board"]["tray"])
        expect(item).to_contain_text(f"Zarlar: {dice}.")


def assert_inside(page: Page, review: Locator) -> None:
    """Nothing of the review is wider than the screen, nor makes the page scroll sideways."""
    outside = review.evaluate(
        """el => [el, ...el.querySelectorAll("*")].filter((e) => {
             const box = e.getBoundingClientRect();
             return box.width && (box.left < -0.5 || box.right > innerWidth + 0.5);
           }).map((e) => e.tagName + "." + e.getAttribute("class"))"""
    )
    assert outside == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def sized(page: Page, review: Locator, output: Path, name: str) -> None:
    """The review at 390 x 844, 360 x 740 and 1280 x 800, inside the screen each time;
    pictures of it at the first and the last."""
    for size, shot in ((PHONE, "phone"), (SMALL_PHONE, None), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        assert_inside(page, review)
        if shot:
            review.screenshot(path=str(output / f"{shot}-review-luck-{name}.png"))


def test_a_yams_review_for_two_adds_up(page: Page, dice: ScriptedDice, output: Path) -> None:
    page.set_viewport_size(PHONE)
    # Each player's first throw a Penta, so each has a throw with luck to draw; the rest
    # as the dice fall.
    dice.script(*[6] * 10)
    game = played_yams(page, ("Ali", "Ece"))
    review = opened_review(page, game)
    measured = page.request.get(f"/api/games/{game}/review").json()["players"]
    assert [p["name"] for p in measured] == ["Ali", "Ece"]
    for person in measured:
        card = review.get_by_role("article", name=person["name"])
        assert_adds_up(card, person, ["Başlangıç", "Zar şansı", "Karar kaybı", "Sonuç"], 1)
        assert_luckiest(card, person, "points")
        # The costs read in chance of winning too, under the points.
        chance = "%" + f"{100 * person['win_cost']:.1f}".replace(".", ",")
        total = card.get_by_role("definition").first
        expect(total).to_contain_text(f"{tr_figure(person['total_cost'])} puan")
        expect(total).to_contain_text(f"{chance} kazanma şansı")
        expect(card.get_by_role("heading", name="En şanssız atışlar")).to_have_count(
            1 if person["unluckiest"] else 0
        )

    # One line per person, described in words: where each started and ended.
    chart = review.get_by_role("img", name="Beklenen son puan, adım adım")
    expect(chart).to_be_visible()
    steps = len(measured[0]["values"]) - 1
    ends = ", ".join(
        f"{p['name']} {tr_figure(p['values'][0]['value'])} → {p['result']:.0f}" for p in measured
    )
    expect(chart).to_have_accessible_description(re.compile(f"^{steps} adımda: {ends}\\. Ali: "))
    expect(chart.locator("polyline")).to_have_count(2)
    sized(page, review, output, "yams")

    # The same account in the app's other languages.
    for lang, name, words in (
        ("fr", "Analyse", ("Départ", "Chance aux dés", "Coût des choix", "Résultat")),
        ("en", "Review", ("Start", "Dice luck", "Decision cost", "Result")),
    ):
        card = opened_review(page, game, lang, name).get_by_role("article", name="Ali")
        shown = card.get_by_role("paragraph").filter(has_text=words[0])
        for word in words:
            expect(shown).to_contain_text(word)


def test_a_10000_review_for_two_adds_up_in_chances_of_winning(page: Page, output: Path) -> None:
    page.set_viewport_size(PHONE)
    game = played_10000(page, ("Ali", "Ece"))
    review = opened_review(page, game)
    measured = page.request.get(f"/api/games/{game}/review").json()["players"]
    for person in measured:
        assert person["unit"] == "win"
        card = review.get_by_role("article", name=person["name"])
        outcome = "kazandı" if person["result"] == 1 else "kaybetti"
        names = ["Başlangıç", "Zar şansı", "Karar kaybı", "Rakibin şansı", "Rakibin kaybı"]
        assert_adds_up(card, person, [*names, f"Sonuç ({outcome})"], 100)
        assert_luckiest(card, person, "win")
    chart = review.get_by_role("img", name="Kazanma şansı, adım adım")
    expect(chart).to_be_visible()
    winner = next(p for p in measured if p["result"] == 1)
    ends = re.compile(f"{winner['name']} %[\\d,]+ → %100[,.]")
    expect(chart).to_have_accessible_description(ends)
    sized(page, review, output, "10000")


def test_the_parts_shown_always_add_up_to_the_result_shown(page: Page) -> None:
    """The page's rounding (review.js `honest`) on sums that plain rounding gets wrong at one
    place and at two, and on random ones: the parts shown add up to the result shown, each
    off its figure by less than the last place shown."""
    Person(page).open()
    module = page.locator("link[rel=modulepreload][href*='review.js']").get_attribute("href")
    rng = random.Random(12)
    sums = [[1 / 3, 1 / 3, 1 / 3], [254.4848, 0.05, -0.0348 - 14.5]]
    for _ in range(300):
        parts = [rng.uniform(-50, 300) for _ in range(rng.choice((3, 5)))]
        sums.append([*parts[:-1], round(sum(parts)) - sum(parts[:-1])])  # a whole result
    shown: list[dict[str, Any]] = page.evaluate(
        """async ([module, sums]) => {
             const { honest } = await import(module);
             return sums.map((parts) => honest(parts, parts.reduce((a, b) => a + b, 0), 1));
           }""",
        [module, sums],
    )
    # 0,3 × 3 is not 1: 0,4 + 0,3 + 0,3 (of equal remainders, the first up), one decimal
    # as every figure of the review
    assert shown[0] == {"places": 1, "units": [4, 3, 3]}
    for parts, found in zip(sums, shown, strict=True):
        scale = 10 ** found["places"]
        assert found["places"] == 1
        assert sum(found["units"]) == round(sum(parts) * scale)
        for part, unit in zip(parts, found["units"], strict=True):
            assert abs(unit - part * scale) < 1


DECIMAL = re.compile(r"\d[,.](\d+)")


def assert_one_decimal(review: Locator) -> None:
    """Every figure of the review with a decimal part has one decimal (a Turkish page: the
    comma; a figure grouped by thousands has a space, never a point)."""
    text = review.evaluate("el => el.innerText + ' ' + [...el.querySelectorAll('[aria-label], "
                           "[aria-description]')].map((e) => e.getAttribute('aria-label') + ' ' "
                           "+ (e.getAttribute('aria-description') ?? '')).join(' ')")  # fmt: skip
    found = DECIMAL.findall(text)
    assert found, "no figure with decimals"
    assert {len(part) for part in found} == {1}, [m.group(0) for m in DECIMAL.finditer(text)]
    assert not re.search(r"\d\.\d", text)  # Turkish: a comma


def test_a_yams_review_has_one_decimal_and_shows_what_open_boxes_would_score(
    page: Page, output: Path
) -> None:
    page.set_viewport_size(PHONE)
    game = played_yams(page, ("Ali", "Ece"))
    review = opened_review(page, game)
    assert_one_decimal(review)
    measured = page.request.get(f"/api/games/{game}/review").json()["players"]
    person = next(p for p in measured if p["worst"])
    card = review.get_by_role("article", name=person["name"])
    expect(card.get_by_text("Kararlar beklenen puanla ölçüldü.")).to_have_count(0)  # per review
    expect(review.get_by_text("Kararlar beklenen puanla ölçüldü.")).to_be_visible()
    worst = person["worst"][0]
    board = card.get_by_role("listitem").filter(has_text="Seçilen").first.locator(".mini-card")
    card_then = worst["board"]["card"]
    would = worst["board"]["options"]
    assert any(points is None for points in card_then.values())
    rows = board.get_by_role("listitem")
    expect(rows).to_have_count(13)
    shown = rows.all_inner_texts()
    for row, (box, points) in zip(shown, card_then.items(), strict=True):
        if points is not None:
            assert row.endswith(str(points)), (box, row)
        elif box in would:  # what the throw would score there, said in words too
            assert f"{would[box]}" in row, (box, row)
            assert f"açık kutu, bu atış {would[box]} getirirdi" in row, (box, row)
        assert "–" not in row or (points is None and box not in would), (box, row)
    board.screenshot(path=str(output / "phone-review-yams-board.png"))


def test_a_10000_review_of_three_judges_a_winning_bank_by_the_chance_of_winning(
    page: Page, dice: ScriptedDice, output: Path
) -> None:
    """Ali reaches 5 000; Ece loses her last turn; Can throws a straight (2 500, hot dice) and
    banks it, 5 500, the game won: that bank is no costly decision (in points it cost 409)."""
    page.set_viewport_size(SMALL_PHONE)
    new = {"game": "10000", "players": ["Ali", "Ece", "Can"], "target": 5000}
    game = page.request.post("/api/games", data=new).json()
    every = list(range(6))
    for faces, kept in (
        ((1,) * 6, every), ((2, 2, 3, 3, 4, 6), None), ((1,) * 6, every),
        ((1, 1, 1, 1, 1, 2), every[:5]), ((2, 2, 3, 3, 4, 6), None), ((1, 2, 3, 4, 5, 6), every),
    ):  # fmt: skip
        dice.script(*faces)
        game = act(page, game, type="throw")
        if kept is not None:
            game = act(page, game, type="bank", set_aside=kept)  # type: ignore[arg-type]
    assert game["over"]
    assert game["totals"] == [5000, 0, 5500]
    review = opened_review(page, str(game["id"]))
    measured = {
        p["name"]: p for p in page.request.get(f"/api/games/{game['id']}/review").json()["players"]
    }
    can = measured["Can"]
    assert (can["unit"], can["model"], can["account_unit"]) == ("win", "leader", "points")
    expect(review.get_by_text(re.compile("^Kararlar kazanma şansıyla ölçüldü: her biri, önde olan "
                                          "rakibe karşı"))).to_be_visible()  # fmt: skip
    card = review.get_by_role("article", name="Can")
    worst = card.get_by_role("listitem").filter(has_text="Seçilen")
    expect(worst).to_have_count(len(can["worst"]))
    assert [w["round"] for w in can["worst"]] == [1]  # the first bank, not the winning one
    expect(worst.first).to_contain_text(f"Kayıp: %{tr_figure(100 * can['worst'][0]['cost'])} "
                                        "kazanma şansı")  # fmt: skip
    expect(card).not_to_contain_text("Tur 2Kayıp")
    # The account in points adds up, the decisions' cost in points there.
    assert_adds_up(card, can, ["Başlangıç", "Zar şansı", "Karar kaybı", "Sonuç"], 1)
    expect(card.get_by_text(can["verdict"])).to_be_visible()
    assert_one_decimal(review)
    sized(page, review, output, "10000-three")
