"""A person at the page: what they see (by roles and accessible names, in Turkish) and
what they do. The browser tests read as a game played through the page."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

# The seed's box names, in the card's order.
BOXES = (
    "Bir", "İki", "Üç", "Dört", "Beş", "Altı",
    "Üçlü", "Dörtlü", "Full", "Küçük seri", "Büyük seri", "Şans", "Penta",
)  # fmt: skip

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


class Person:
    """One person's hands on the page."""

    def __init__(self, page: Page) -> None:
        self.page = page

    # Where things are

    def button(self, name: str) -> Locator:
        return self.page.get_by_role("button", name=name, exact=True)

    def box(self, name: str) -> Locator:
        """A Yams box of the player on turn: a button named by the box, then what the throw
        would score there ("Bir 4"; docs/contract.md)."""
        return self.page.get_by_role("button", name=re.compile(rf"^{re.escape(name)}(\s|$)"))

    @property
    def dice(self) -> Locator:
        return self.page.get_by_role("group", name="Zarlar").get_by_role("button")

    @property
    def status(self) -> Locator:
        return self.page.get_by_role("status")

    @property
    def header(self) -> Locator:
        return self.page.get_by_role("banner")

    def faces(self) -> list[int]:
        """The faces of the dice in the tray, in order."""
        return [int(f) for f in self.dice.evaluate_all("ds => ds.map(d => d.dataset.face)")]

    def in_play(self) -> list[int]:
        """The faces of the dice not kept, chosen or set aside."""
        return [f for f, p in zip(self.faces(), self.pressed(), strict=True) if not p]

    def pressed(self) -> list[bool]:
        return [p == "true" for p in self.dice.evaluate_all(
            "ds => ds.map(d => d.getAttribute('aria-pressed'))")]  # fmt: skip

    # Starting

    def open(self, path: str = "/") -> None:
        separator = "&" if "?" in path else "?"
        self.page.goto(f"{path}{separator}pace=instant")

    def new_game(
        self,
        game: str,
        *players: str,
        computer: bool = False,
        target: str | None = None,
        autofill: str | None = None,
        hints: Sequence[bool] | None = None,
    ) -> None:
        """Fill in the new-game dialog and start; the game's screen is then showing.

        ``hints``: each person's box `İpucu` (the coach), else as the dialog has it."""
        self.page.get_by_role("button", name="Yeni oyun").click()
        dialog = self.page.get_by_role("dialog")
        dialog.get_by_role("radiogroup", name="Oyun").get_by_role(
            "radio", name=game, exact=True
        ).check()
        for n, name in enumerate(players, start=1):
            if n > 1:
                dialog.get_by_role("button", name="Oyuncu ekle").click()
            dialog.get_by_role("textbox", name=f"Oyuncu {n}").fill(name)
        for n, on in enumerate(hints or ()):
            dialog.get_by_role("checkbox", name="İpucu").nth(n).set_checked(on)
        if computer:
            dialog.get_by_role("checkbox", name="Humains + 1 IA").check()
        if target:
            dialog.get_by_role("radiogroup", name="Hedef").get_by_role(
                "radio", name=target, exact=True
            ).check()
        if autofill:
            dialog.get_by_role("radiogroup", name="Otomatik yazma").get_by_role(
                "radio", name=autofill, exact=True
            ).check()
        self.button("Başlat").click()
        expect(self.button("At")).to_be_visible()

    # Playing

    def version(self) -> str | None:
        """The version of the state on screen (the game's data-version)."""
        return self.page.locator("[data-version]").get_attribute("data-version")

    def act(self, name: str) -> None:
        """Press a button and wait until the screen shows what it did."""
        button = self.button(name)
        expect(button).to_be_enabled()
        version = self.version()
        button.click()
        expect(self.page.locator("[data-version]")).not_to_have_attribute(
            "data-version", version or ""
        )

    def throw(self) -> None:
        self.act("At")

    def wait_for_turn(self, name: str) -> None:
        """Until the header says it is `name`'s turn, or the game is over."""
        expect(self.header.get_by_text(f"Sıra: {name}").or_(self.winner())).to_be_visible()

    def winner(self) -> Locator:
        return self.page.get_by_role("heading", name=re.compile("Kazanan"))

    # The coach

    @property
    def coach(self) -> Locator:
        return self.page.get_by_role("region", name="Koç")

    def options(self) -> Locator:
        """The coach's options, best first, once they are in (the server's first hint of a
        game loads the strategies: a few seconds)."""
        expect(self.coach).not_to_have_attribute("aria-busy", "true", timeout=30_000)
        options = self.coach.get_by_role("listitem")
        expect(options.first).to_be_visible()
        return options

    def ask_coach(self) -> Locator:
        """Open the coach (the button `İpucu`) and return its options."""
        self.button("İpucu").click()
        expect(self.coach).to_be_visible()
        return self.options()

    def take_best(self, kind: str) -> str:
        """Apply the coach's best option of a kind (`Tut`, `Yaz`, `Kenara ayır`); its words."""
        apply = self.coach.get_by_role("button", name=re.compile(f"^Uygula: {kind}")).first
        option = apply.get_attribute("aria-label") or ""
        apply.click()
        return option.removeprefix("Uygula: ")

    def shot(self, output: Path, name: str) -> None:
        """A screenshot of the whole page from its top, once the turn's banner is gone."""
        expect(self.page.locator(".banner.show")).to_have_count(0)
        self.page.evaluate("window.scrollTo(0, 0)")
        self.page.screenshot(path=str(output / f"{name}.png"), full_page=True)


def tap(person: Person, *faces: int) -> None:
    """Tap one die in play showing each of `faces` (not yet chosen): 10 000's set-aside."""
    for face in faces:
        for die, shown, chosen in zip(
            person.dice.all(), person.faces(), person.pressed(), strict=True
        ):
            if shown == face and not chosen:
                die.click()
                expect(die).to_have_attribute("aria-pressed", "true")
                break
        else:
            raise AssertionError(f"no {face} to tap in {person.faces()}")
