"""A whole game of each kind, played through the page as a person plays it, in Firefox and
in WebKit: by roles and accessible names (`Yeni oyun`, `Başlat`, `At`, the dice in
`Zarlar`, the boxes, `Turu onayla`, `Kasaya yatır`), with random dice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engines.drivers import until
from engines.person import YATZY_BOXES, Person
from zar.ai.yams import Strategy
from zar.ai.yams_win import calibration, late_laws


def keep_most_common(ali: Person) -> None:
    """Keep the dice of the face showing most, and only those."""
    dice = ali.read_dice()
    faces = [face for _, face, _ in dice]
    wanted = max(set(faces), key=lambda f: (faces.count(f), f))
    for die, face, kept in dice:
        if (face == wanted) != kept:
            die.click()
    until(lambda: ali.pressed() == [face == wanted for face in faces], "the dice kept")


def test_a_whole_game_of_yams(person: Person) -> None:
    ali = person
    ali.open()
    ali.new_game("Yams", "Ali", computer=True, autofill="Kapalı")
    for round_ in range(1, 14):
        ali.wait_for_turn("Ali")
        until(lambda: ali.header_says(f"Tur {round_}/13"), f"round {round_}")  # noqa: B023
        ali.button("Turu onayla").wait_enabled(False)
        ali.throw()
        assert len(ali.dice()) == 5
        if round_ <= 3:  # the first rounds with every throw, keeping dice
            for throws_left in (1, 0):
                keep_most_common(ali)
                ali.throw()
                at = ali.button("At").get()
                assert at.attribute("aria-description") == f"{throws_left} atış kaldı"
            ali.button("At").wait_enabled(False)
        box = ali.best_box()
        box.click()
        until(lambda: box.get().attribute("aria-pressed") == "true", "the box chosen")  # noqa: B023
        ali.act("Turu onayla")
    until(ali.over, "the end of the game")
    final = ali.js("() => [...document.querySelectorAll('.final li')].map((li) => li.textContent)")
    assert isinstance(final, list)
    assert len(final) == 2
    assert any("Ali" in line for line in final)


def test_a_whole_game_of_yatzy_against_the_computer_playing_to_win(
    person: Person, solved: Callable[[str], Strategy], output: Path
) -> None:
    """Scandinavian Yatzy at a small phone's 360 x 740: its fifteen rounds and boxes, the
    computer at `Rakip avcısı` (its laws and calibration read from the session's cache)."""
    strategy = solved("scandinavian")
    late_laws(strategy)
    calibration(strategy)
    ali = person
    ali.tab.resize(360, 740)
    ali.open()
    ali.new_game("Yams", "Ali", computer=True, autofill="Kapalı", rules="scandinavian",
                 level="win")  # fmt: skip
    ali.find("link", "Kurallar: İskandinav Yatzy").get()
    for round_ in range(1, 16):
        ali.wait_for_turn("Ali")
        until(lambda: ali.header_says(f"Tur {round_}/15"), f"round {round_}")  # noqa: B023
        ali.throw()
        box = ali.best_box(YATZY_BOXES)
        box.click()
        until(lambda: box.get().attribute("aria-pressed") == "true", "the box chosen")  # noqa: B023
        ali.act("Turu onayla")
    until(ali.over, "the end of the game")
    ali.shot(output, "yatzy-end-360")
    game = ali.js(
        """async () => (await fetch(`/api/games/${new URLSearchParams(location.search)
            .get("game")}`)).json()"""
    )
    assert isinstance(game, dict)
    assert game["players"][1]["level"] == "win"
    assert all(None not in card["boxes"].values() for card in game["cards"])


def scoring_dice(faces: list[int]) -> list[int]:
    """Every 1 and 5, every three or more of a kind; three pairs when nothing else scores."""
    chosen = [f for f in faces if f in (1, 5) or faces.count(f) >= 3]
    return chosen or list(faces)


def tap(ali: Person, *faces: int) -> None:
    """Tap one die in play showing each of `faces`."""
    for face in faces:
        for die, shown, chosen in ali.read_dice():
            if shown == face and not chosen:
                die.click()
                until(lambda: die.attribute("aria-pressed") == "true", "the die chosen")  # noqa: B023
                break
        else:
            raise AssertionError(f"no {face} to tap in {ali.read_dice()}")


def test_a_whole_game_of_10000(person: Person) -> None:
    """Set aside all that scores, bank from 300 or when two dice are left."""
    ali = person
    ali.open()
    ali.new_game("10 000", "Ali", computer=True, target="5 000")
    for _ in range(200):
        ali.wait_for_turn("Ali")
        if ali.over():
            break
        ali.throw()
        while ali.header_says("Sıra: Ali") and not ali.over():
            faces = ali.in_play()
            if not faces:  # the turn was lost, and the computer has played already
                break
            scoring = scoring_dice(faces)
            tap(ali, *scoring)
            bank = ali.button("Kasaya yatır").get()
            points = int("".join(c for c in bank.text() if c.isdigit()) or 0)
            left = len(faces) - len(scoring)
            if points >= 300 or 0 < left <= 2:
                ali.act("Kasaya yatır")
                break
            ali.throw()
            if left == 0 and len(ali.in_play()) == 0:  # hot dice, the six still to throw
                ali.throw()
    until(ali.over, "the end of the game")
    final = ali.js("() => document.querySelectorAll('.final li').length")
    assert final == 2
