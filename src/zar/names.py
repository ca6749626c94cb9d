"""People's names as they are typed for a new game: one form for what looks the same,
nothing that would show as nothing, and no two at one table that look alike.

The engine takes any name of 1 to 24 characters without control characters
(:func:`zar.table.check_name`), so that every stored game replays as it was. A new game's
names are held to more: made NFC (``e`` and a combining acute are ``é``, one name, so that
two people at a table cannot be told apart by bytes alone), and refused when nothing of
them would show (fillers, blanks that are letters or symbols to Unicode, spaces of other
kinds), when they are marks with nothing to sit on, or when they would break a line. At
one table, two names whose UTS #39 skeletons are equal are refused as look-alikes
(:func:`distinct_looks`): Latin ``Ali`` and Cyrillic ``Аli``, ``rn`` and ``m``.

>>> skeleton("Аli") == skeleton("Ali")
True

A new game's computers are ``IA``, ``IA 2``, ``IA 3``… (``Computer``, ``Computer 2``… in
English: :func:`computer_names`). A table shows them by their names in the table's language
(:func:`seat_names`): the ``IA 2`` of a game started in Turkish is ``Computer 2`` on an
English screen, its stored name unchanged; so do the lists of games and the statistics
(:func:`shown_names`, :func:`computer_name`), which count every computer as one player
whatever its games stored.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources

from zar.i18n import LANGUAGES, Language, text
from zar.table import IllegalAction, Seat, check_name

__all__ = [
    "computer_name",
    "computer_names",
    "distinct_looks",
    "new_name",
    "seat_names",
    "shown_names",
    "skeleton",
]

# Characters Unicode does not call spaces, marks or controls but that show as nothing: the
# Hangul fillers, the Braille blank, the Khmer inherent vowels. A name made only of these,
# spaces and marks is refused.
BLANKS = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u2800"  # Braille pattern blank
    "\u17b4\u17b5"  # Khmer inherent vowels
)

# The Unicode Consortium's data, kept as published (src/zar/unicode/, version 17.0.0).
UNICODE_DATA = resources.files("zar") / "unicode"


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


def computer_names(lang: Language, count: int) -> list[str]:
    """The names a new game started in ``lang`` gives its ``count`` computers, in seat order.

    >>> computer_names("tr", 3), computer_names("en", 2)
    (['IA', 'IA 2', 'IA 3'], ['Computer', 'Computer 2'])
    """
    word = text(lang, "computer")
    return [word if n == 1 else f"{word} {n}" for n in range(1, count + 1)]


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text`` (section 4, ``internalSkeleton``): NFD, without the
    default-ignorable code points, each character replaced by its prototype in
    confusables.txt, NFD again. Two strings whose skeletons are equal can be mistaken for
    one another; a skeleton is for comparing, never for showing.

    >>> skeleton("𝔭𝒶ỿ𝕡𝕒ℓ") == skeleton("paypal")  # the standard's own example
    True
    """
    prototypes, ignorables = _confusables(), _default_ignorables()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(prototypes.get(ch, ch) for ch in decomposed if ch not in ignorables)
    return unicodedata.normalize("NFD", mapped)


def distinct_looks(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """``seats`` if no two of their names look alike, else refused (``name-look-alike``).

    Two names look alike when their skeletons are equal as typed (``Il`` and ``ll``: a
    capital I is a small L) or once both are case-folded (``АLI`` with a Cyrillic А and
    ``Ali``), since a table shows names in either case. ``name`` is the later seat's (the
    person's, beside the computer), ``other`` the one it looks like. Names that differ
    only by case are :func:`zar.table.check_seats`' to refuse, in its own words.
    """
    seen: dict[tuple[bool, str], Seat] = {}
    for seat in seats:
        for folded in (False, True):
            key = (folded, skeleton(seat.name.casefold() if folded else seat.name))
            other = seen.setdefault(key, seat)
            if other is seat or other.name.casefold() == seat.name.casefold():
                continue
            person, like = (other, seat) if seat.computer else (seat, other)
            raise IllegalAction(
                f"{person.name!r} looks like {like.name!r}",
                reason="name-look-alike",
                name=person.name,
                other=like.name,
            )
    return seats


def seat_names(seats: Sequence[Seat], lang: Language) -> list[str]:
    """The seats' names as a table in ``lang`` shows them: a person's as typed; the
    computers', when they are the names a new game gives them in some language
    (:func:`computer_names`), as ``lang`` calls them, unless a person at the table has a
    name like one of those (a Turkish table may seat a person called ``Computer`` beside its
    ``IA``), so that no two seats ever look alike.

    >>> seat_names((Seat("Ali"), Seat("IA", computer=True)), "en")
    ['Ali', 'Computer']
    >>> seat_names((Seat("Computer"), Seat("IA", computer=True)), "en")
    ['Computer', 'IA']
    """
    return shown_names([seat.name for seat in seats], [seat.computer for seat in seats], lang)


def shown_names(names: Sequence[str], computer: Sequence[bool], lang: Language) -> list[str]:
    """:func:`seat_names` of a game known by its seats' stored names and kinds (``computer``:
    whether each seat is the computer's), as the list of games keeps them.

    >>> shown_names(["IA", "Computer"], [False, True], "tr")
    ['IA', 'Computer']
    >>> shown_names(["Ece", "Computer"], [False, True], "tr")
    ['Ece', 'IA']
    >>> shown_names(["Ece", "IA", "IA 2"], [False, True, True], "en")
    ['Ece', 'Computer', 'Computer 2']
    """
    people = [name for name, machine in zip(names, computer, strict=True) if not machine]
    stored = [name for name, machine in zip(names, computer, strict=True) if machine]
    # A table whose computers a new game did not name so (a simulation's "IA 1", "IA 2")
    # keeps their names on every screen.
    if not any(stored == computer_names(other, len(stored)) for other in LANGUAGES):
        return list(names)
    if len(stored) == 1:
        shown = [computer_name(lang, people, stored)]
    else:
        # Several: all in ``lang``'s words, or (one like a person's name) all as stored,
        # names a new game checked distinct from the people's.
        wanted = computer_names(lang, len(stored))
        alike = any(_alike(name, person) for name in wanted for person in people)
        shown = stored if alike else wanted
    machines = iter(shown)
    pairs = zip(names, computer, strict=True)
    return [next(machines) if machine else name for name, machine in pairs]


def computer_name(lang: Language, people: Iterable[str], stored: Sequence[str] = ()) -> str:
    """The computer's name beside ``people`` on a screen in ``lang``: ``lang``'s word for it,
    unless one of ``people`` has a name like that one; then the first of the names it was
    ``stored`` by (a game's) and the other languages' words that none looks like (else
    ``lang``'s word numbered: ``Computer 2``).

    The statistics name so the one computer of all their games (kept in each language's
    word), beside every person they list.

    >>> computer_name("en", ["Ali"], ["IA", "Computer"])
    'Computer'
    >>> computer_name("en", ["Ali", "computer"], ["Computer", "IA"])
    'IA'
    """
    names = list(people)
    word = text(lang, "computer")
    words = [word, *stored, *(text(other, "computer") for other in LANGUAGES)]
    numbered = (f"{word} {n}" for n in itertools.count(2))  # beside "IA" and "Computer" both
    return next(w for w in itertools.chain(words, numbered) if not any(_alike(w, n) for n in names))


def _alike(one: str, other: str) -> bool:
    """Whether two names are one to the eye: equal but for case, or by their skeletons as
    typed or case-folded (:func:`distinct_looks`' rules)."""
    if one.casefold() == other.casefold() or skeleton(one) == skeleton(other):
        return True
    return skeleton(one.casefold()) == skeleton(other.casefold())


@functools.cache
def _confusables() -> Mapping[str, str]:
    """confusables.txt: each character that can be mistaken for another, to its prototype."""
    data = gzip.decompress((UNICODE_DATA / "confusables.txt.gz").read_bytes())
    prototypes: dict[str, str] = {}
    for source, target in _fields(data.decode("utf-8")):
        prototypes[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in target.split())
    return prototypes


@functools.cache
def _default_ignorables() -> frozenset[str]:
    """The code points whose property Default_Ignorable_Code_Point is true."""
    text = (UNICODE_DATA / "default-ignorables.txt").read_text(encoding="utf-8")
    ignorables: set[str] = set()
    for points, _ in _fields(text):
        first, _, last = points.partition("..")
        ignorables.update(map(chr, range(int(first, 16), int(last or first, 16) + 1)))
    return frozenset(ignorables)


def _fields(text: str) -> list[tuple[str, str]]:
    """The first two ``;``-separated fields of each line of a Unicode data file that has
    them, comments left out."""
    rows = []
    for line in text.splitlines():
        fields = line.partition("#")[0].split(";")
        if len(fields) >= 2:
            rows.append((fields[0].strip(), fields[1].strip()))
    return rows
