"""People's names as they are typed for a new game: one form for what looks the same, and
nothing that would show as nothing.

The engine takes any name of 1 to 24 characters without control characters
(:func:`zar.table.check_name`), so that every stored game replays as it was. A new game's
names are held to more: made NFC (``e`` and a combining acute are ``é``, one name, so that
two people at a table cannot be told apart by bytes alone), and refused when nothing of
them would show (fillers, blanks that are letters or symbols to Unicode, spaces of other
kinds), when they are marks with nothing to sit on, or when they would break a line.
"""

from __future__ import annotations

import unicodedata

from zar.table import IllegalAction, check_name

__all__ = ["new_name"]

# Characters Unicode does not call spaces, marks or controls but that show as nothing: the
# Hangul fillers, the Braille blank, the Khmer inherent vowels. A name made only of these,
# spaces and marks is refused.
BLANKS = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u2800"  # Braille pattern blank
    "\u17b4\u17b5"  # Khmer inherent vowels
)


def new_name(text: str) -> str:
    """The name a new game's person gets for ``text``: NFC, and refused
    (:class:`IllegalAction`) by the engine's rules or for showing as nothing
    (``name-invisible``), starting with a mark (``name-marks``), holding a line break
    (``name-line-break``)."""
    name = unicodedata.normalize("NFC", text) if isinstance(text, str) else text
    check_name(name)
    if any(unicodedata.category(ch) in ("Zl", "Zp") for ch in name):
        raise IllegalAction("a name is on one line", reason="name-line-break")
    if all(ch in BLANKS or unicodedata.category(ch)[0] in "MZ" for ch in name):
        raise IllegalAction("a name shows something", reason="name-invisible")
    if unicodedata.category(name[0]).startswith("M"):
        raise IllegalAction("a name starts with a letter, not a mark", reason="name-marks")
    return name
