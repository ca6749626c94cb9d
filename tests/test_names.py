"""A new game's names: UTS #39 skeletons, and look-alikes at one table."""

from __future__ import annotations

import unicodedata

import pytest

from zar.i18n import Language
from zar.names import distinct_looks, seat_names, skeleton
from zar.table import IllegalAction, Seat


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # UTS #39 section 4's own example: "paypal" and its look-alikes share a skeleton.
        ("\U0001d52d\U0001d4b6\u1eff\U0001d561\U0001d552\u2113", "paypal"),
        ("\u03c1\u237a\u0443\U0001d4c5\U0001d482\u05df", "paypal"),
        # confusables.txt 17.0.0, line by line:
        ("\u0410\u0430", "Aa"),  # 0410 ; 0041 and 0430 ; 0061: Cyrillic А, а
        ("I\u0406", "ll"),  # 0049 ; 006C and 0406 ; 006C: a capital I is a small L
        ("m", "rn"),  # 006D ; 0072 006E
        ("ı", "i"),  # 0131 ; 0069: the dotless ı
        ("ş", "s\u0326"),  # ş: s and 0327 ; 0326, the cedilla a comma below
        ("0", "O"),  # 0030 ; 004F
        ("\u05ad", "\u0596"),  # the file's first mapping
        ("\u6138", "\U0002b73f"),  # and its last
        # NFD first: é typed in one or in two characters is e and an acute.
        ("\u00e9", "e\u0301"),
        ("e\u0301", "e\u0301"),
        # Default_Ignorable_Code_Point (DerivedCoreProperties.txt 17.0.0) is left out.
        ("Ali\ufe0f", "Ali"),  # a variation selector
        ("A\u3164li", "Ali"),  # the Hangul filler
        ("\u00ad\U000e0fff", ""),  # the section's first and last code points
    ],
)
def test_a_skeleton_is_the_standards(text: str, expected: str) -> None:
    assert skeleton(text) == unicodedata.normalize("NFD", expected)


def test_a_skeleton_is_case_sensitive_as_the_standard_says() -> None:
    assert skeleton("ali") != skeleton("Ali")


def seats(*names: str, computer: str | None = None) -> tuple[Seat, ...]:
    people = tuple(Seat(name) for name in names)
    return people + ((Seat(computer, computer=True),) if computer else ())


@pytest.mark.parametrize(
    ("table", "name", "other"),
    [
        (seats("Ali", "\u0410li"), "\u0410li", "Ali"),  # a Cyrillic А
        (seats("Ece", "\u0415c\u0435"), "\u0415c\u0435", "Ece"),  # Cyrillic Е and е
        (seats("Cem", "Cern"), "Cern", "Cem"),  # rn and m
        (seats("Orhan", "0rhan"), "0rhan", "Orhan"),  # a zero
        (seats("Ilker", "llker"), "llker", "Ilker"),  # a capital I and a small L
        (seats("ALI", "\u0410li"), "\u0410li", "ALI"),  # alike once both are case-folded
        (seats("Ali", "Ali\ufe0f"), "Ali\ufe0f", "Ali"),  # a variation selector shows nothing
        (seats("Aslı", "Asli"), "Asli", "Aslı"),  # the dotless ı: see below
        (seats("Şule", "\u0218ule"), "\u0218ule", "Şule"),  # a cedilla, a comma
        # The person's name is the one to change, wherever the computer sits.
        (seats("\u0406\u0410", computer="IA"), "\u0406\u0410", "IA"),
        (seats("C\u043emputer", computer="Computer"), "C\u043emputer", "Computer"),
    ],
)
def test_two_names_that_look_alike_are_refused(
    table: tuple[Seat, ...], name: str, other: str
) -> None:
    with pytest.raises(IllegalAction) as err:
        distinct_looks(table)
    assert (err.value.reason, dict(err.value.details)) == (
        "name-look-alike",
        {"name": name, "other": other},
    )


@pytest.mark.parametrize(
    "table",
    [
        # Turkish letters with a mark of their own are other letters, and look so: ş ç ğ ö ü
        # and the dotted capital İ keep their marks in the skeleton. (The dotless ı has
        # none: confusables.txt maps it to i, so "Aslı" and "Asli" are refused above.)
        seats("Şule", "Sule"),
        seats("Işık", "Isik"),
        seats("Çağla", "Cagla"),
        seats("Gül", "Gul"),
        seats("Öykü", "Oyku"),
        seats("İpek", "Ipek"),
        seats("Ayşe", "Ayse", "Ali", "Ece", "Can", "Cem"),
        # Names equal but for case are check_seats' to refuse, as name-taken.
        seats("Ali", "ALI"),
        seats("IA", computer="IA"),
    ],
)
def test_names_that_differ_to_the_eye_are_accepted(table: tuple[Seat, ...]) -> None:
    assert distinct_looks(table) == table


@pytest.mark.parametrize(
    ("table", "lang", "shown"),
    [
        # The computer a Turkish or French game named "IA" is "Computer" on an English
        # screen, and the other way round; a person's name is never changed.
        (seats("Ali", computer="IA"), "en", ["Ali", "Computer"]),
        (seats("Ali", computer="IA"), "fr", ["Ali", "IA"]),
        (seats("Ali", computer="Computer"), "tr", ["Ali", "IA"]),
        (seats("IA", "Ece"), "en", ["IA", "Ece"]),
        # A person at the table already called so (or alike): the computer keeps its name.
        (seats("Computer", computer="IA"), "en", ["Computer", "IA"]),
        (seats("COMPUTER", computer="IA"), "en", ["COMPUTER", "IA"]),
        (seats("C\u043emputer", computer="IA"), "en", ["C\u043emputer", "IA"]),
        (seats("\u0406\u0410", computer="Computer"), "tr", ["\u0406\u0410", "Computer"]),
        # A computer named otherwise (a simulation's) keeps its name.
        (seats(computer="IA 1"), "en", ["IA 1"]),
    ],
)
def test_a_table_shows_the_computer_by_its_name_in_the_tables_language(
    table: tuple[Seat, ...], lang: Language, shown: list[str]
) -> None:
    assert seat_names(table, lang) == shown


def machines(*names: str) -> tuple[Seat, ...]:
    return tuple(Seat(name, computer=True) for name in names)


@pytest.mark.parametrize(
    ("table", "lang", "shown"),
    [
        # Issue 23: several computers, numbered from the second, each in the table's words.
        (seats("Ali") + machines("IA", "IA 2"), "en", ["Ali", "Computer", "Computer 2"]),
        (machines("Computer", "Computer 2", "Computer 3"), "tr", ["IA", "IA 2", "IA 3"]),
        (machines("IA", "IA 2"), "fr", ["IA", "IA 2"]),
        # A person like one of the words: every computer keeps the name it was given.
        (seats("Computer 2") + machines("IA", "IA 2"), "en", ["Computer 2", "IA", "IA 2"]),
        (seats("computer") + machines("IA", "IA 2"), "en", ["computer", "IA", "IA 2"]),
        # A person called as a computer of another table is a person.
        (seats("IA 2") + machines("IA"), "en", ["IA 2", "Computer"]),
        # Computers a new game did not name so (a simulation's) keep their names.
        (machines("IA 1", "IA 2"), "en", ["IA 1", "IA 2"]),
        (machines("IA", "IA 3"), "en", ["IA", "IA 3"]),
        (machines("IA", "Computer 2"), "en", ["IA", "Computer 2"]),
    ],
)
def test_a_table_shows_several_computers_numbered_in_the_tables_language(
    table: tuple[Seat, ...], lang: Language, shown: list[str]
) -> None:
    assert seat_names(table, lang) == shown
