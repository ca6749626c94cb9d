"""The table: seats and names, the IllegalAction error, winners, replay (zar.table)."""

from dataclasses import FrozenInstanceError, dataclass

import pytest

from zar.farkle import FarkleSettings
from zar.table import (
    MAX_NAME_LENGTH,
    MAX_PEOPLE,
    MAX_SEATS,
    IllegalAction,
    Seat,
    check_name,
    check_seats,
    check_table,
    replay,
    winners,
)
from zar.yams import YamsSettings


def test_illegal_action_is_a_value_error_with_a_reason_and_details() -> None:
    """docs/architecture.md: a refused action raises a domain error that subclasses ValueError."""
    err = IllegalAction("die 3 is already set aside", reason="already-aside", position=2)
    assert isinstance(err, ValueError)
    assert str(err) == "die 3 is already set aside"
    assert err.reason == "already-aside"
    assert err.details == {"position": 2}


@pytest.mark.parametrize("name", ["Ali", "Ayşe", "IA", "Jean Paul", "x" * MAX_NAME_LENGTH])
def test_check_name_accepts_a_name(name: str) -> None:
    """Names of people, Turkish letters and inner spaces included."""
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        (None, "name-not-text"),
        (7, "name-not-text"),
        ("", "name-empty"),
        ("   ", "name-empty"),
        ("x" * (MAX_NAME_LENGTH + 1), "name-too-long"),
        (" Ali", "name-spaces"),
        ("Ali ", "name-spaces"),
        ("A\nli", "name-control"),
        ("Ali\x00", "name-control"),
        ("A\u200bli", "name-control"),
    ],
)
def test_check_name_refuses_a_bad_name(name: object, reason: str) -> None:
    """A name is text of 1 to 24 characters, no outer spaces, no control characters."""
    with pytest.raises(IllegalAction) as err:
        check_name(name)
    assert err.value.reason == reason
    assert str(err.value)


def test_a_seat_is_a_frozen_value() -> None:
    """docs/architecture.md: value types are frozen dataclasses."""
    seat = Seat("IA", computer=True, level="easy")
    assert seat == Seat("IA", computer=True, level="easy")
    assert hash(seat) == hash(Seat("IA", computer=True, level="easy"))
    with pytest.raises(FrozenInstanceError):
        seat.name = "Ali"  # type: ignore[misc]


def test_a_seat_checks_its_name() -> None:
    """A seat cannot be made with a bad name."""
    with pytest.raises(IllegalAction):
        Seat("")


def test_only_a_computer_seat_has_a_level() -> None:
    """The level is the computer's (--level); a person has none."""
    with pytest.raises(ValueError, match="only a computer seat has a level"):
        Seat("Ali", level="easy")


def people(n: int) -> list[Seat]:
    return [Seat(f"Oyuncu {i + 1}") for i in range(n)]


def computers(n: int) -> list[Seat]:
    return [Seat(f"IA {i + 1}", computer=True) for i in range(n)]


@pytest.mark.parametrize(
    "seats",
    [
        people(1),
        people(MAX_PEOPLE),
        people(MAX_PEOPLE) + computers(1),
        computers(1),
        computers(12),
        people(3) + computers(4),
    ],
)
def test_check_seats_accepts_one_to_six_people_and_any_number_of_computers(
    seats: list[Seat],
) -> None:
    """docs/rules.md: 1 to 6 people; the engine takes any number of computer seats."""
    assert check_seats(iter(seats)) == tuple(seats)


@pytest.mark.parametrize(
    ("seats", "max_computers", "reason"),
    [
        ([], None, "no-players"),
        (people(MAX_PEOPLE + 1), None, "too-many-people"),
        (people(MAX_PEOPLE + 1) + computers(1), 1, "too-many-people"),
        ([Seat("Ali"), Seat("Ayşe"), Seat("Ali")], None, "name-taken"),
        ([Seat("Ali"), Seat("ALI", computer=True)], None, "computer-name"),
        ([Seat("IA", computer=True), Seat("ia")], None, "computer-name"),
        (people(2) + computers(2), 1, "too-many-computers"),
        (computers(2), 1, "too-many-computers"),
        (people(1) + computers(1), 0, "too-many-computers"),
    ],
)
def test_check_seats_refuses_a_bad_table(
    seats: list[Seat], max_computers: int | None, reason: str
) -> None:
    """docs/rules.md: "Humains + 1 IA": a table of people takes max_computers=1."""
    with pytest.raises(IllegalAction) as err:
        check_seats(seats, max_computers=max_computers)
    assert err.value.reason == reason
    assert str(err.value)


def test_check_seats_allows_one_computer_at_a_table_of_people() -> None:
    """docs/rules.md: six people "Humains + 1 IA"."""
    seats = people(MAX_PEOPLE) + computers(1)
    assert check_seats(seats, max_computers=1) == tuple(seats)


def table_refusal(people: int, machines: int) -> str | None:
    """What a new game's table of ``people`` and ``machines`` is refused for (None: taken):
    six people, seven seats, one at least."""
    if people + machines == 0:
        return "no-players"
    if people > MAX_PEOPLE:
        return "too-many-people"
    return "too-many-seats" if people + machines > MAX_SEATS else None


@pytest.mark.parametrize("machines", range(10))
@pytest.mark.parametrize("n", range(9))
def test_check_table_takes_six_people_and_seven_seats_any_of_them_computers(
    n: int, machines: int
) -> None:
    """Issue 23: seven seats (six people and the computer), any of them a computer's; a
    table of computers alone is a game to watch."""
    seats = people(n) + computers(machines)
    reason = table_refusal(n, machines)
    if reason is None:
        assert check_table(seats) == tuple(seats)
        return
    with pytest.raises(IllegalAction) as err:
        check_table(seats)
    assert err.value.reason == reason
    assert str(err.value)


def test_the_limits_are_six_people_and_seven_seats() -> None:
    assert (MAX_PEOPLE, MAX_SEATS) == (6, 7)
    with pytest.raises(IllegalAction) as err:
        check_table(people(2) + computers(6))
    assert err.value.details == {"limit": MAX_SEATS}
    # zar play, in the terminal: one computer at most, the seed's.
    assert check_table(people(MAX_PEOPLE) + computers(1), max_computers=1)
    with pytest.raises(IllegalAction) as err:
        check_table(people(1) + computers(2), max_computers=1)
    assert err.value.reason == "too-many-computers"


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ((0,), (0,)),
        ((120, 250, 240), (1,)),
        ((120, 250, 250), (1, 2)),
        ((7, 7, 7), (0, 1, 2)),
    ],
)
def test_winners_share_equal_totals(totals: tuple[int, ...], expected: tuple[int, ...]) -> None:
    """docs/rules.md: highest total wins; equal totals share the win."""
    assert winners(totals) == expected


@dataclass(frozen=True)
class Counter:
    value: int = 0

    def apply(self, action: int) -> "Counter":
        return Counter(self.value * 10 + action)


def test_replay_applies_the_log_in_order() -> None:
    """docs/architecture.md: a game is its log; the state is the replay of the log."""
    assert replay(Counter(), [1, 2, 3]) == Counter(123)
    assert replay(Counter(5), []) == Counter(5)


@pytest.mark.parametrize("settings", [FarkleSettings, YamsSettings])
@pytest.mark.parametrize(
    ("seats", "reason"),
    [
        pytest.param((), "no-players", id="no-players"),
        pytest.param(tuple(people(MAX_PEOPLE + 1)), "too-many-people", id="7-people"),
        pytest.param((Seat("Ali"), Seat("Ayşe"), Seat("AYŞE")), "name-taken", id="duplicates"),
    ],
)
def test_a_game_refuses_a_bad_table(
    settings: type[FarkleSettings | YamsSettings], seats: tuple[Seat, ...], reason: str
) -> None:
    """Both games check their seats as check_seats does."""
    with pytest.raises(IllegalAction) as err:
        settings(seats)
    assert err.value.reason == reason


@pytest.mark.parametrize("settings", [FarkleSettings, YamsSettings])
def test_a_game_takes_any_number_of_computer_seats(
    settings: type[FarkleSettings | YamsSettings],
) -> None:
    """The engine lets computers play each other (simulations); people stay at six at most."""
    seats = tuple(people(MAX_PEOPLE) + computers(9))
    assert settings(seats).seats == seats
