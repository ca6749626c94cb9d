"""A person at the page in Firefox or WebKit: what they see, by roles and accessible names
(the engine's own), and what they do, through the engine's own input. The same words as
the Chromium suite's person (tests/browser/person.py), on :mod:`drivers`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from engines.drivers import DriverError, Element, FirefoxTab, Tab, WebKitTab, until

BOXES = (
    "Bir", "İki", "Üç", "Dört", "Beş", "Altı",
    "Üçlü", "Dörtlü", "Full", "Küçük seri", "Büyük seri", "Şans", "Penta",
)  # fmt: skip
YATZY_BOXES = (
    "Bir", "İki", "Üç", "Dört", "Beş", "Altı", "Çift", "Çifte çift", "Üçlü", "Dörtlü",
    "Küçük seri", "Büyük seri", "Full", "Şans", "Yatzy",
)  # fmt: skip

PHONE = (390, 844)
SMALL_PHONE = (360, 740)
DESKTOP = (1280, 800)


@dataclass(frozen=True)
class Find:
    """What a person looks for: an element by role and accessible name (exact; with
    ``prefix``, a name that begins with it and a space, as a box's `Bir 4`), in ``within``
    (another ``Find``) or the whole page. Asked anew each time, as the page changes."""

    tab: Tab
    role: str
    name: str | None = None
    within: Find | None = None
    prefix: bool = False

    def all(self) -> list[Element]:
        scope = self.within.one() if self.within else None
        if scope is None and self.within is not None:
            return []
        if not self.prefix:
            return self.tab.find_all(self.role, self.name, scope)
        found = []
        for element in self.tab.find_all(self.role, None, scope):
            try:
                name = self.tab.name_of(element, self.role)
            except DriverError:
                continue
            if name == self.name or name.startswith(f"{self.name} "):
                found.append(element)
        return found

    def one(self) -> Element | None:
        found = self.all()
        return found[0] if found else None

    def get(self) -> Element:
        """The element, once it is there and visible."""
        element: Element = until(lambda: self._shown(), f"showing {self}")
        return element

    def _shown(self) -> Element | None:
        element = self.one()
        return element if element is not None and element.visible() else None

    def find(self, role: str, name: str | None = None, prefix: bool = False) -> Find:
        return Find(self.tab, role, name, self, prefix)

    def click(self) -> None:
        """Tap it once it is visible and enabled."""
        element: Element = until(
            lambda: (e := self._shown()) is not None and e.enabled() and e, f"enabled: {self}"
        )
        element.click()

    def type(self, text: str) -> None:
        self.get().type(text)

    def visible(self) -> bool:
        element = self.one()
        return element is not None and element.visible()

    def wait_hidden(self) -> None:
        until(lambda: not self.visible(), f"hidden: {self}")

    def wait_enabled(self, enabled: bool = True) -> None:
        until(lambda: (e := self._shown()) is not None and e.enabled() == enabled,
              f"{'enabled' if enabled else 'disabled'}: {self}")  # fmt: skip

    def wait_text(self, words: str) -> None:
        until(
            lambda: (e := self._shown()) is not None and words in e.text(), f"{words!r} in {self}"
        )

    def __str__(self) -> str:
        inside = f" in {self.within}" if self.within else ""
        return f"{self.role} {self.name!r}{'…' if self.prefix else ''}{inside}"


class Person:
    """One person's hands on the page, in one tab (one phone)."""

    def __init__(self, tab: Tab, base_url: str) -> None:
        self.tab = tab
        self.base_url = base_url
        self._tray: Element | None = None

    def find(self, role: str, name: str | None = None, prefix: bool = False) -> Find:
        return Find(self.tab, role, name, prefix=prefix)

    def button(self, name: str) -> Find:
        return self.find("button", name)

    def box(self, name: str) -> Find:
        """A Yams box of the player on turn: named by the box, then what it would score."""
        return self.find("button", name, prefix=True)

    def tray(self) -> Element:
        """The group `Zarlar` (found again only once the one found is gone)."""
        try:
            if self._tray is not None and self._tray.js("(e) => e.isConnected"):
                return self._tray
        except DriverError:
            pass  # a page loaded since
        self._tray = self.find("group", "Zarlar").get()
        return self._tray

    def dice(self) -> list[Element]:
        """The dice: the buttons of the group `Zarlar` (asked again if the page changed
        under the question)."""
        for _ in range(20):
            try:
                return self.tab.find_all("button", None, self.tray())
            except DriverError:
                self._tray = None
        return self.tab.find_all("button", None, self.tray())

    def read_dice(self) -> list[tuple[Element, int, bool]]:
        """Each die, its face and whether it is pressed (kept, chosen or set aside)."""
        dice = self.dice()
        shown: list[list[str]] = self.tab.js(
            "(...dice) => dice.map((d) => [d.dataset.face, d.getAttribute('aria-pressed')])", *dice
        )
        return [
            (die, int(face), pressed == "true")
            for die, (face, pressed) in zip(dice, shown, strict=True)
        ]

    def faces(self) -> list[int]:
        return [face for _, face, _ in self.read_dice()]

    def pressed(self) -> list[bool]:
        return [pressed for _, _, pressed in self.read_dice()]

    def in_play(self) -> list[int]:
        return [f for f, p in zip(self.faces(), self.pressed(), strict=True) if not p]

    def best_box(self, boxes: tuple[str, ...] = BOXES) -> Find:
        """The open box the throw may go in that scores most, of the card's ``boxes``: read
        from the page's buttons (what each shows, what it says it scores), then found by its
        accessible name. The boxes are waited for: the card may be drawn a moment after the
        state's version (the dice's fall shown first)."""

        def read() -> list[list[object]]:
            found = self.js(
                """(boxes) => [...document.querySelectorAll('button')].filter((b) =>
                  b.checkVisibility() && !b.disabled).map((b) => [
                  b.textContent.replace(/\\s+/g, ' ').trim(),
                  Number((b.getAttribute('aria-description') || '').replace(/\\D/g, '') || 0)])
                  .filter(([name]) => boxes.some((box) => name === box
                    || name.startsWith(box + ' ')))""",
                list(boxes),
            )
            assert isinstance(found, list)
            return found

        until(read, "a box to write in")
        name, _ = max(read(), key=lambda box: float(str(box[1])))
        return self.button(str(name))

    def js(self, function: str, *args: object) -> object:
        return self.tab.js(function, *args)

    def header_says(self, words: str) -> bool:
        return bool(
            self.js("(w) => document.querySelector('header').textContent.includes(w)", words)
        )

    def over(self) -> bool:
        return bool(
            self.js(
                "() => [...document.querySelectorAll('h2, h3')].some((h) =>"
                " h.checkVisibility() && h.textContent.includes('Kazanan'))"
            )
        )

    # Starting

    def open(self, path: str = "/") -> None:
        separator = "&" if "?" in path else "?"
        self.tab.goto(f"{self.base_url}{path}{separator}pace=instant")

    def new_game(
        self,
        game: str,
        *players: str,
        computer: bool = False,
        target: str | None = None,
        autofill: str | None = None,
        rules: str | None = None,
        level: str | None = None,
    ) -> None:
        """Fill in the new-game dialog and start; the game's screen is then showing. The
        selects (``rules``, the computer's ``level``, by value) are set as a choice in their
        list sets them: a pop-up list is the system's own, outside the page in WebKitGTK."""
        self.button("Yeni oyun").click()
        dialog = self.find("dialog")
        dialog.get()
        dialog.find("radiogroup", "Oyun").find("radio", game).click()
        for n, name in enumerate(players, start=1):
            if n > 1:
                dialog.find("button", "Oyuncu ekle").click()
            dialog.find("textbox", f"Oyuncu {n}").type(name)
        if computer:
            dialog.find("checkbox", "Humains + 1 IA", prefix=True).click()
        if target:
            dialog.find("radiogroup", "Hedef").find("radio", target).click()
        if autofill:
            dialog.find("radiogroup", "Otomatik yazma").find("radio", autofill).click()
        for name, value in (("rules", rules), ("level", level)):
            if value is not None:
                self.choose(name, value)
        self.button("Başlat").click()
        self.button("At").get()

    def choose(self, name: str, value: str) -> None:
        """The dialog's select ``name`` set to the option ``value``, as choosing it does."""
        chosen = self.js(
            """(name, value) => {
                const select = document.querySelector(`dialog select[name=${name}]`);
                if (![...select.options].some((option) => option.value === value)) return false;
                select.value = value;
                select.dispatchEvent(new Event("change", {bubbles: true}));
                return true;
            }""",
            name,
            value,
        )
        assert chosen, f"the dialog offers no {name} {value}"

    # Playing

    def version(self) -> str | None:
        version: str | None = self.js(
            "() => document.querySelector('[data-version]')?.dataset.version ?? null"
        )  # type: ignore[assignment]
        return version

    def act(self, name: str) -> None:
        """Press a button and wait until the screen shows what it did."""
        before = self.version()
        self.button(name).click()
        until(lambda: self.version() != before, f"a new state after {name}")

    def throw(self) -> None:
        self.act("At")

    def wait(self, check: Callable[[], object], what: str, timeout: float = 10) -> None:
        until(check, what, timeout)

    def wait_for_turn(self, name: str) -> None:
        """Until the header says it is `name`'s turn, or the game is over."""
        until(lambda: self.header_says(f"Sıra: {name}") or self.over(), f"{name}'s turn")

    def shot(self, output: Path, name: str) -> None:
        """The viewport as it is, once the turn's banner is gone."""
        until(lambda: not self.js("() => !!document.querySelector('.banner.show')"), "no banner")
        self.js("() => window.scrollTo(0, 0)")
        self.tab.screenshot(output / f"{self.tab.engine}-{name}.png")


def press_enter(person: Person) -> None:
    """Enter on the keyboard, to whatever has the focus (the engine's own key input)."""
    tab = person.tab
    if isinstance(tab, FirefoxTab):
        tab.js("() => true")  # its tab in front
        keys = tab.marionette.actions.sequence("key", "keyboard")
        keys.key_down(Keys.ENTER).key_up(Keys.ENTER).perform()
    else:
        assert isinstance(tab, WebKitTab)
        ActionChains(tab.driver).send_keys(Keys.ENTER).perform()
