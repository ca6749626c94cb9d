"""Every word the page asks for (``t("key")`` in its modules) is in the interface's table,
in each language: a missing one would show its key to a player."""

from __future__ import annotations

import re
from typing import get_args

import pytest

from zar import ai
from zar.ai.judging import Model
from zar.i18n import LANGUAGES, MESSAGES
from zar.record import HOUSE_RULES
from zar.server.app import STATIC

KEY = re.compile(r"""\bt\(\s*["']([\w-]+)["']""")
REVIEW_UNITS = ("final", "win", "points")  # the review's units of value (review.js unitOf)
# The keys the page builds from parts, with every part they are built from.
BUILT = [
    *(f"level-{game}-{level}" for game, levels in ai.LEVELS.items() for level in levels),
    *(f"theme-{mode}" for mode in ("auto", "light", "dark")),
    *(f"keys-help-{game}" for game in ("yams", "10000")),
    *(f"scorecard-{part}" for part in ("upper", "lower")),
    *(f"holder-{holder}" for holder in ("you", "host", "guest", "computer")),
    *(f"{kind}-{unit}" for kind in ("value", "chart-values") for unit in REVIEW_UNITS),
    *(f"review-model-{model}" for model in get_args(Model)),
    # the house rules: each preset's name, and the line on it
    *(
        f"rules-{game}-{name}{about}"
        for game, names in HOUSE_RULES.items()
        for name in names
        for about in ("", "-about")
    ),
]


def asked() -> set[str]:
    return {key for path in (STATIC / "js").glob("*.js") for key in KEY.findall(path.read_text())}


def test_the_page_asks_for_words_by_name() -> None:
    assert len(asked()) > 100  # the pattern finds them


@pytest.mark.parametrize("key", sorted(asked() | set(BUILT)))
def test_every_word_the_page_asks_for_is_in_every_language(key: str) -> None:
    assert key in MESSAGES
    assert set(MESSAGES[key]) == set(LANGUAGES)
    assert all(MESSAGES[key][lang].strip() for lang in LANGUAGES)


def test_the_built_keys_are_the_ones_the_page_builds() -> None:
    """The page builds these kinds of keys, and no other."""
    source = "".join(p.read_text() for p in (STATIC / "js").glob("*.js"))
    built = re.findall(r"\bt\(`([\w-]+)-\$\{", source)
    expected = [
        "chart-values",
        "holder",
        "keys-help",
        "level",
        "review-model",
        "rules",  # the dialog's names of the presets
        "rules",  # the dialog's line on the preset chosen
        "rules",  # the game's screen: its rules
        "rules",  # the statistics' picker
        "scorecard",
        "theme",
        "value",
    ]
    assert sorted(built) == expected
