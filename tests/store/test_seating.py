"""Both stores keep who sits where: a seating is kept only on the revision it was made from,
an action only while the seating it was judged on stands, an invitation is spent once, a
device's credential is known by its key, and a device's list holds its own games, those on
its turn first."""

from __future__ import annotations

import pytest

from store_support import NOW, create, one_person_yams, two_person_10000, yams_round
from zar.seating import Seating
from zar.server.views import summary
from zar.store import Conflict, Invitation, Store

LATER = "2026-12-02T10:00:00.000+00:00"


def seated(store: Store, game_id: str, host: str = "h") -> Seating:
    record = two_person_10000()
    seating = Seating.hosted(host, record.seats)
    store.create(game_id, record, NOW, summary(record), seating=seating)
    return seating


def test_a_seating_is_kept_only_on_the_revision_it_was_made_from(store: Store) -> None:
    seating = seated(store, "g")
    assert store.seating("g") == seating
    assert store.seating("g").rev == 0  # type: ignore[union-attr]
    claimed = Seating(seating.host, ("h", "guest"), seating.standins, rev=1)
    store.reseat("g", claimed)
    assert store.seating("g") == claimed
    assert store.seating("g").rev == 1  # type: ignore[union-attr]
    stale = Seating(seating.host, ("h", "other"), seating.standins, rev=1)  # made from rev 0
    with pytest.raises(Conflict):
        store.reseat("g", stale)
    assert store.seating("g") == claimed


def test_an_action_judged_on_an_old_seating_is_refused(store: Store) -> None:
    record = one_person_yams()
    seating = Seating.hosted("h", record.seats)
    store.create("g", record, NOW, summary(record), seating=seating)
    store.reseat("g", Seating("h", ("guest",), (None,), rev=1))
    actions = yams_round(record)
    with pytest.raises(Conflict):
        store.append("g", 0, actions, NOW, finished=False, summary={}, seating_rev=0)
    assert store.load("g") == record
    store.append("g", 0, actions, NOW, finished=False, summary={}, seating_rev=1)
    assert store.load("g").version == 2


def test_a_game_from_before_seats_has_none(store: Store) -> None:
    create(store, "old", one_person_yams())
    assert store.seating("old") is None


def test_an_invitation_is_spent_by_one_device(store: Store) -> None:
    seated(store, "g")
    store.add_invitation(Invitation("k", "ABCDEF", "g", "seat", NOW, LATER))
    assert store.invitation(key="k") == Invitation("k", "ABCDEF", "g", "seat", NOW, LATER)
    assert store.invitation(code="ABCDEF") == store.invitation(key="k")
    assert store.invitation(code="ZZZZZZ") is None
    seating = store.seating("g")
    assert seating is not None
    guest = seating.claimed(1, "guest")
    assert store.claim("g", guest, "k", "guest", NOW)
    assert store.claim("g", guest.claimed(0, "guest"), "k", "guest")  # its own still
    assert not store.claim("g", guest.claimed(0, "late"), "k", "late", NOW)
    assert store.invitation(key="k").spent_by == "guest"  # type: ignore[union-attr]


def test_a_device_is_known_by_its_key_while_it_is_used(store: Store) -> None:
    store.add_device("d", NOW)  # NOW is 2025-01-01
    assert store.device_seen("d", NOW, since="2024-01-01")
    assert not store.device_seen("d", LATER, since="2026-01-01")  # unused since: expired
    assert not store.device_seen("forged", NOW, since="2024-01-01")


def test_a_devices_list_holds_its_games_those_on_its_turn_first(store: Store) -> None:
    seated(store, "mine")
    seated(store, "theirs", host="other")
    guest = Seating("other", ("other", "h"), (None, None), rev=1)  # h plays seat 1
    store.reseat("theirs", guest)
    record = two_person_10000()
    for game_id in ("mine", "theirs"):  # seat 0 to play in both, "theirs" updated last
        store.append(game_id, 0, [], LATER, finished=False, summary=summary(record))
    listed = [(g.id, g.my_turn, g.hosts) for g in store.games(device="h")]
    # Its turn first, then the latest; which of them it hosts (and may end).
    assert listed == [("mine", True, True), ("theirs", False, False)]
    assert [g.id for g in store.games(device="nobody")] == []
    assert sorted(g.id for g in store.games()) == ["mine", "theirs"]  # all, for the server


def test_a_claim_is_kept_whole_or_not_at_all(store: Store) -> None:
    """The invitation spent, the seat taken and the new device known, in one transaction:
    none of them when another device spent the invitation first, or the seating moved on."""
    seating = seated(store, "g")
    for key in ("k", "other"):
        store.add_invitation(Invitation(key, None, "g", "seat", NOW, LATER))
    claimed = seating.claimed(1, "guest")
    assert store.claim("g", claimed, "k", "guest", NOW)
    assert store.seating("g") == claimed
    assert store.invitation(key="k").spent_by == "guest"  # type: ignore[union-attr]
    assert store.device_seen("guest", NOW, NOW)
    # Spent by the guest: a late device's claim writes nothing.
    assert not store.claim("g", claimed.claimed(0, "late"), "k", "late", NOW)
    assert not store.device_seen("late", NOW, NOW)
    # Made from the seating before the guest's: refused, the other invitation unspent.
    with pytest.raises(Conflict):
        store.claim("g", seating.claimed(1, "late"), "other", "late", NOW)
    assert store.seating("g") == claimed
    assert store.invitation(key="other").spent_by is None  # type: ignore[union-attr]
    assert not store.device_seen("late", NOW, NOW)


def test_a_seating_keeps_that_it_was_shared_and_whom_a_seat_was_taken_back_from(
    store: Store,
) -> None:
    seating = seated(store, "g")
    claimed = seating.claimed(1, "guest")
    taken = claimed.taken_back(1)
    store.reseat("g", claimed)
    store.reseat("g", taken)
    kept = store.seating("g")
    assert kept == taken
    assert kept is not None
    assert kept.devices == {"h"}
    assert (kept.shared, kept.former) == (True, {"guest"})
