"""The words of the interface in Turkish (the default), French and English.

The engine speaks in stable keys (an :class:`~zar.table.IllegalAction`'s ``reason``, a
:class:`~zar.yams.Box`); front ends turn them into a player's language here. The seeds'
own messages ("Tour perdu !", "Dés chauds !", "Dernier tour !") are the app's French words
and stay the same in every language, as in the original app.

>>> text("tr", "winner", names="Ali")
'Kazanan: Ali'
>>> number(10_000, "tr"), number(10_000, "en")
('10 000', '10,000')
"""

from __future__ import annotations

from collections.abc import Mapping

from zar.i18n import coach, game, page, refusals
from zar.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES, Language
from zar.table import IllegalAction
from zar.yams.scorecard import AnyBox, Box, YatzyBox

__all__ = [
    "DEFAULT_LANGUAGE",
    "HOT_DICE",
    "LANGUAGES",
    "LAST_ROUND",
    "MESSAGES",
    "TURN_LOST",
    "Language",
    "box_name",
    "box_names",
    "capitalized",
    "decimal",
    "explain",
    "number",
    "percent",
    "text",
]


BOX_NAMES: Mapping[Language, tuple[str, ...]] = {
    # the original app's table (docs/rules.md); the order of Box
    "tr": (
        "Bir", "İki", "Üç", "Dört", "Beş", "Altı",
        "Üçlü", "Dörtlü", "Full", "Küçük seri", "Büyük seri", "Şans", "Penta",
    ),
    "fr": (
        "As", "Deux", "Trois", "Quatre", "Cinq", "Six",
        "Brelan", "Carré", "Full", "Petite suite", "Grande suite", "Chance", "Penta",
    ),
    "en": (
        "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes",
        "Three of a kind", "Four of a kind", "Full house", "Small straight",
        "Large straight", "Chance", "Penta",
    ),
}  # fmt: skip

# The boxes of Scandinavian Yatzy's card that ours has not; its others are named as ours.
YATZY_NAMES: Mapping[Language, Mapping[str, str]] = {
    # Not "Bir çift", "İki çift": a box's name never starts with another's and a space.
    "tr": {"ONE_PAIR": "Çift", "TWO_PAIRS": "Çifte çift", "YATZY": "Yatzy"},
    "fr": {"ONE_PAIR": "Paire", "TWO_PAIRS": "Double paire", "YATZY": "Yatzy"},
    "en": {"ONE_PAIR": "One pair", "TWO_PAIRS": "Two pairs", "YATZY": "Yatzy"},
}


_NAMES = {
    lang: {**{box.name: names[box.slot] for box in Box}, **YATZY_NAMES[lang]}
    for lang, names in BOX_NAMES.items()
}


def box_names(lang: Language) -> dict[str, str]:
    """The name in ``lang`` of every box of either card, by the box's member name."""
    return dict(_NAMES[lang])


def _merged(*parts: Mapping[str, Mapping[Language, str]]) -> dict[str, Mapping[Language, str]]:
    """The words of every part in one table; a key in two parts is a mistake."""
    merged: dict[str, Mapping[Language, str]] = {}
    for words in parts:
        twice = merged.keys() & words.keys()
        if twice:
            raise ValueError(f"words defined twice: {sorted(twice)}")
        merged.update(words)
    return merged


MESSAGES: Mapping[str, Mapping[Language, str]] = _merged(
    game.WORDS, refusals.WORDS, coach.WORDS, page.WORDS, page.FARKLE_PRESETS
)
TURN_LOST, HOT_DICE, LAST_ROUND = game.TURN_LOST, game.HOT_DICE, game.LAST_ROUND


def text(lang: Language, key: str, **params: object) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in."""
    return MESSAGES[key][lang].format(**params)


def box_name(box: AnyBox, lang: Language) -> str:
    """A box's name in ``lang``; in Turkish, the seed's (a Yatzy card's box as ours of
    the same name, or its own).

    >>> box_name(Box.PENTA, "tr"), box_name(YatzyBox.TWO_PAIRS, "en")
    ('Penta', 'Two pairs')
    """
    return _NAMES[lang][box.name]


def number(n: int, lang: Language) -> str:
    """Points in the language's format: ``10 000`` in Turkish and French, ``10,000`` in
    English; below zero with the minus sign, as the messages write a penalty.

    >>> number(-1500, "tr"), number(-1500, "en")
    ('−1 500', '−1,500')
    """
    grouped = f"{n:,}".replace("-", "\u2212")
    return grouped if lang == "en" else grouped.replace(",", " ")


def decimal(x: float, lang: Language, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals, a comma in Turkish and French (thousands apart).

    >>> decimal(1234.56, "fr"), decimal(1234.56, "en", 0)
    ('1 234,6', '1,235')
    """
    written = f"{x:,.{digits}f}".replace("-", "\u2212")
    if written.strip("\u22120,.") == "":  # no minus before a zero
        written = written.lstrip("\u2212")
    if lang == "en":
        return written
    return written.replace(",", " ").replace(".", ",")


def percent(p: float, lang: Language) -> str:
    """A chance in the language's format: ``%15,7`` (tr), ``15,7 %`` (fr), ``15.7%`` (en)."""
    digits = f"{100 * p:.1f}"
    match lang:
        case "tr":
            return "%" + digits.replace(".", ",")
        case "fr":
            return digits.replace(".", ",") + " %"
        case "en":
            return digits + "%"


def capitalized(sentence: str, lang: Language) -> str:
    """``sentence`` with its first letter a capital as ``lang`` writes it (Turkish: i, İ).

    >>> capitalized("iki ayrı çift", "tr"), capitalized("il faut", "fr")
    ('İki ayrı çift', 'Il faut')
    """
    first = sentence[:1]
    if lang == "tr":
        first = {"i": "İ", "ı": "I"}.get(first, first)
    return first.upper() + sentence[1:]


def explain(error: IllegalAction, lang: Language) -> str:
    """A refused action, said in the player's language."""
    details = dict(error.details)
    reason = "game-over-refusal" if error.reason == "game-over" else error.reason
    if reason not in MESSAGES:
        return str(error)
    if reason == "cannot-score":
        groups = details.get("dice", ())
        parts = [
            text(lang, "lone" if count == 1 else "pair", face=face)
            for face, count in groups  # type: ignore[attr-defined]
        ]
        details["dice"] = f" {text(lang, 'and')} ".join(parts)
    for key in ("box", "forced"):
        if isinstance(details.get(key), Box | YatzyBox):
            details[key] = box_name(details[key], lang)  # type: ignore[arg-type]
    level = f"level-{details.get('game')}-{details.get('level')}"
    if level in MESSAGES:  # a level by its name on the page (`Kolay`), not the API's
        details["level"] = text(lang, level).split(":")[0]
    if isinstance(details.get("position"), int):
        details["position"] = details["position"] + 1  # type: ignore[operator]
    return capitalized(text(lang, reason, **details), lang)
