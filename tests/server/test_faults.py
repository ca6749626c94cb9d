"""The real server killed (SIGKILL) at random points while a scripted client plays several
games at once, then started again: every acknowledged action is there, no action is half
there, every game replays to the same state and plays on.

The client sends its intentions in bursts, one game per connection, and reads the replies;
a kill comes a random delay after the last burst was sent, often before any reply was read.
A reply read whole (even after the kill) acknowledges its action; a request whose reply did
not come is in flight: its actions are then either all in the log or none. The delays and
the client's choices come from a seeded generator, so a failing seed can be run again
(``bench/faults.py --seed``); the dice are the server's own.

The client is two devices: the host's, which starts the games, and a guest's phone, which
takes seat 1 of the games of several people by an invitation (and the host, now and then,
takes it back); only the guest then acts for that seat. A claim or a taking back goes in a
burst like an intention, killed bursts included: an acknowledged one is in the store (the
seating and who may reach the game say so), one in flight is there wholly or not at all;
after each restart the guest's credential is still good and it plays its seat on.
"""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.serving import Server
from zar.record import Record, action_to_json
from zar.server.devices import COOKIE, key_of
from zar.server.views import view
from zar.store import SqliteStore
from zar.store.rows import access_rows

LANG = "en"

# The tables the client keeps going: when a game ends, another of the same kind starts.
GAMES: tuple[dict[str, Any], ...] = (
    {"game": "yams", "players": ["Ali"], "computer": True},
    {"game": "yams", "players": ["Ali", "Ece"], "autofill": 3},
    {"game": "10000", "players": ["Ali"], "computer": True, "target": 5_000},
    {"game": "10000", "players": ["Ali", "Ece", "Can"], "target": 5_000},
)
GUEST_SEAT = 1  # the seat a guest's phone takes, in the games of more than one person
SEATING_CHANGES = ("claim", "take-back")  # the requests that change who holds it


def guested(settings: dict[str, Any]) -> bool:
    """Whether a guest takes a seat of the game."""
    return len(settings["players"]) > GUEST_SEAT


def choose(shown: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal intention for the state shown, chosen at random among what the view offers."""
    intent: dict[str, Any] = {"version": shown["version"]}
    if shown["can_undo"] and rng.random() < 0.05:
        return {**intent, "type": "undo"}
    if shown["players"][shown["seat"]]["computer"]:
        return {**intent, "type": "computer"}
    if shown["game"] == "yams":
        if shown["throws"] == 0:
            return {**intent, "type": "throw"}
        if shown["throws_left"] and rng.random() < 0.6:
            keep = sorted(rng.sample(range(5), rng.randint(0, 4)))
            return {**intent, "type": "throw", "keep": keep}
        if not shown["throws_left"] and shown["autofill"] and rng.random() < 0.5:
            return {**intent, "type": "autofill"}
        return {**intent, "type": "fill", "box": rng.choice(sorted(shown["options"]))}
    if shown["phase"] == "throw":
        kind = "bank" if shown["can_bank"] and rng.random() < 0.4 else "throw"
        return {**intent, "type": kind}
    scoring = sorted((m for m, s in shown["selections"].items() if "points" in s), key=int)
    mask = int(rng.choice(scoring))
    chosen = [p for p in range(6) if mask >> p & 1]
    kind = rng.choices(["throw", "bank", "set_aside"], weights=[6, 3, 1])[0]
    return {**intent, "type": kind, "set_aside": chosen}


def expected_actions(game: str, seat: int, intent: dict[str, Any]) -> list[dict[str, Any]]:
    """What the log gains from ``intent`` if it is applied, as fields of the stored actions:
    nothing for a stale version, two actions for a 10 000 set-aside followed by a throw or a
    bank."""
    if intent.get("stale"):
        return []
    match game, intent["type"]:
        case _, "undo":
            return [{"type": "undo"}]  # by the seat whose decision it takes back
        case _, "computer":
            return [{"seat": seat}]
        case "yams", "throw":
            return [{"type": "throw", "seat": seat, "keep": intent.get("keep", [])}]
        case "yams", "fill":
            return [{"type": "fill", "seat": seat, "box": intent["box"]}]
        case "yams", "autofill":
            return [{"type": "fill", "seat": seat}]
    actions = []
    if intent.get("set_aside") or intent["type"] == "set_aside":
        actions.append({"type": "set_aside", "seat": seat, "positions": intent["set_aside"]})
    if intent["type"] in ("throw", "bank"):
        actions.append({"type": intent["type"], "seat": seat})
    return actions


def as_json(value: Any) -> Any:
    """``value`` as it reads back from the wire."""
    return json.loads(json.dumps(value))


# What a view says of who sits where and what the device asking may do (the coach and
# undo are a seat's holder's), beside the game itself.
SEATING = ("you", "seats", "seating_rev", "can_undo", "can_hint")


def credential(device: Server) -> str:
    """The device's credential: the cookie the server gave it."""
    return next(c.value for c in device.cookies if c.name == COOKIE and c.value)


def view_at(game_id: str, record: Record, version: int) -> Any:
    """The view of ``record``'s game replayed up to ``version``, as it was shown then."""
    return game_of(as_json(view(game_id, record.upto(version), LANG)))


def game_of(shown: dict[str, Any]) -> dict[str, Any]:
    """A view shown to a device, without who sits where: the game alone."""
    return {k: v for k, v in shown.items() if k not in SEATING}


@dataclass
class Table:
    """A game the client plays: the state it was last shown, and the replies it got since the
    last check."""

    settings: dict[str, Any]
    shown: dict[str, Any]
    acknowledged: list[dict[str, Any]]
    conn: http.client.HTTPConnection | None = None  # the request's, one per request
    in_flight: dict[str, Any] | None = None  # an intention sent, its reply not yet read
    claimed: bool = False  # the guest holds GUEST_SEAT (acknowledged, or found stored)
    invitation: str | None = None  # the secret of the seat's invitation, for the claim
    viewer: str = "host"  # whose view ``shown`` is (an undo is offered to that device only)

    @property
    def id(self) -> str:
        return str(self.shown["id"])


@dataclass
class Tally:
    """What a run of kills did."""

    kills: int = 0
    intents: int = 0  # intentions acknowledged
    actions: int = 0  # actions acknowledged (versions moved on)
    refused: int = 0  # stale intentions refused with 409
    games: int = 0  # games started
    finished: int = 0  # games played to the end
    in_flight: int = 0  # requests whose reply never came, at a kill
    applied: int = 0  # of those, the ones found in the log after the restart
    applied_pairs: int = 0  # of those, the ones of two actions (a set-aside and a throw or bank)
    claims: int = 0  # claims of a seat acknowledged
    taken_back: int = 0  # seats taken back to the host's device, acknowledged
    seating_in_flight: int = 0  # claims and takings back whose reply never came, at a kill
    seating_applied: int = 0  # of those, the ones found in the store after the restart
    guest_intents: int = 0  # intentions acknowledged to the guest's device
    guest_after_restart: int = 0  # of those, the first burst's after a restart
    restart_s: list[float] = field(default_factory=list)


class Player:
    """The scripted client: plays every table through the HTTP API of ``server``."""

    def __init__(self, server: Server, rng: random.Random) -> None:
        self.server = server
        self.guest = server.another_device()
        self.rng = rng
        self.tally = Tally()
        self.tables = [self.start_game(settings) for settings in GAMES]
        # The guest's phone gets its credential by opening an invitation, before any kill.
        first = next(table for table in self.tables if guested(table.settings))
        opened = self.guest.call(
            "POST", "/api/invitations/open", {"invitation": self.invite(first)}
        )
        assert [s["seat"] for s in opened["seats"]] == list(range(len(first.settings["players"])))
        self.keys = {"host": key_of(credential(server)), "guest": key_of(credential(self.guest))}

    def invite(self, table: Table) -> str:
        """The secret of a new invitation to the table's seats (its link's, after ``=``)."""
        invitation = self.server.call("POST", f"/api/games/{table.id}/invitations")
        table.invitation = str(invitation["join"]).split("=", 1)[1]
        return table.invitation

    def start_game(self, settings: dict[str, Any]) -> Table:
        shown = self.server.call("POST", f"/api/games?lang={LANG}", settings)
        self.tally.games += 1
        return Table(settings, shown, [shown])

    def send(self, table: Table, *, stale: float = 0.05, seats: bool = False) -> None:
        """Send the table's next intention, a share ``stale`` of them on an older version (a
        double tap), from the device that holds the seat; with ``seats``, on a table a guest
        takes a seat of, the guest's claim instead while the seat is not its own, else now
        and then the host taking it back. A connection per request: an idle keep-alive one
        that the server closed would leave a request in doubt."""
        intent = choose(table.shown, self.rng)
        if table.shown["version"] and self.rng.random() < stale:
            intent = {**intent, "version": table.shown["version"] - 1, "stale": True}
        path, body = f"/api/games/{table.id}/actions?lang={LANG}", intent
        device = self.sender(table, intent)
        if seats and guested(table.settings) and not table.claimed:
            # An invitation whose claim did not come through is used again (spent, perhaps,
            # by the guest already: it may still take a seat with it).
            invitation = table.invitation or self.invite(table)
            intent, device = {"type": "claim"}, self.guest
            path = f"/api/invitations/claim?lang={LANG}"
            body = {"invitation": invitation, "seat": GUEST_SEAT}
        elif seats and table.claimed and self.rng.random() < 0.25:
            intent, device = {"type": "take-back"}, self.server
            path, body = f"/api/games/{table.id}/seats/{GUEST_SEAT}?lang={LANG}", {"to": "host"}
        table.conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=20)
        table.conn.request(
            "POST",
            path,
            body=json.dumps({k: v for k, v in body.items() if k != "stale"}),
            headers={"content-type": "application/json", "cookie": device.cookie_header()},
        )
        table.in_flight = {**intent, "by": "guest" if device is self.guest else "host"}

    def sender(self, table: Table, intent: dict[str, Any]) -> Server:
        """The device an intention is sent from: an undo from the one it was offered to, the
        guest's seat's from the guest, every other from the host's."""
        if intent["type"] == "undo":
            return self.guest if table.viewer == "guest" else self.server
        if table.claimed and table.shown["seat"] == GUEST_SEAT and intent["type"] != "computer":
            return self.guest
        return self.server

    def receive(self, table: Table, *, killed: bool = False) -> None:
        """Read the reply to the table's intention in flight; after a kill, a reply that did
        not come whole leaves it in flight."""
        assert table.conn is not None
        assert table.in_flight is not None
        intent = table.in_flight
        try:
            response = table.conn.getresponse()
            status, payload = response.status, json.loads(response.read())
        except (OSError, http.client.HTTPException, ValueError):
            if not killed:
                raise
            return
        finally:
            table.conn.close()
            table.conn = None
        table.in_flight = None
        if intent["type"] in SEATING_CHANGES:
            assert status == 200, (status, payload, intent)
            assert payload["version"] == table.shown["version"], (intent, payload)
            if intent["type"] == "claim":
                assert payload["you"] == {"role": "player", "seats": [GUEST_SEAT]}, payload
                table.claimed = True
                self.tally.claims += 1
            else:
                assert GUEST_SEAT in payload["you"]["seats"], payload
                table.claimed, table.invitation = False, None
                self.tally.taken_back += 1
            table.shown, table.viewer = payload, intent["by"]
            table.acknowledged.append(payload)
            return
        if intent.get("stale"):
            assert status == 409, (status, payload)
            assert payload["version"] == table.shown["version"], payload
            self.tally.refused += 1
            return
        assert status == 200, (status, payload, intent, table.shown)
        assert payload["version"] == table.shown["version"] + len(
            expected_actions(table.shown["game"], table.shown["seat"], intent)
        ), (intent, payload)
        self.tally.intents += 1
        self.tally.actions += payload["version"] - table.shown["version"]
        if intent["by"] == "guest":
            self.tally.guest_intents += 1
        table.shown, table.viewer = payload, intent["by"]
        table.acknowledged.append(payload)

    def burst(
        self,
        tables: list[Table],
        kill_after: float | None = None,
        *,
        stale: float = 0.05,
        seats: bool = True,
    ) -> None:
        """One request on each of ``tables`` at once; the replies, or a kill after
        ``kill_after`` seconds and then whatever replies came whole. ``seats``: the guest's
        seat may change hands."""
        for table in tables:
            self.send(table, stale=stale, seats=seats)
        if kill_after is not None:
            time.sleep(kill_after)
            self.server.kill()
            self.tally.kills += 1
        for table in tables:
            self.receive(table, killed=kill_after is not None)

    def playing(self) -> list[Table]:
        """The tables, a finished game replaced by a new one."""
        for i, table in enumerate(self.tables):
            if table.shown["over"]:
                self.tally.finished += 1
                self.tables[i] = self.start_game(table.settings)
        return self.tables

    def round_of_play(self) -> None:
        """A few bursts on random tables, then a burst killed after a random delay: often
        before its requests are read, sometimes mid-way, sometimes after every reply."""
        for _ in range(self.rng.randint(0, 3)):
            tables = self.playing()
            self.burst(self.rng.sample(tables, self.rng.randint(1, len(tables))))
        tables = self.playing()
        quick = self.rng.random() < 0.5
        delay = self.rng.uniform(0, 0.004) if quick else self.rng.uniform(0, 0.04)
        self.burst(self.rng.sample(tables, self.rng.randint(1, len(tables))), kill_after=delay)

    def check(self) -> None:
        """With the server down: every acknowledged action in the log, as it was shown; the
        request in flight wholly there or not at all; every game replays the same; who
        holds the guest's seat as acknowledged, or as the request in flight left it."""
        store = SqliteStore(Path(self.server.db))
        reader = sqlite3.connect(f"file:{self.server.db}?mode=ro", uri=True)
        try:
            for table in self.tables:
                record = store.load(table.id)
                again = store.load(table.id)
                assert again == record
                assert as_json(view(table.id, again, LANG)) == as_json(view(table.id, record, LANG))
                last = table.shown["version"]
                assert record.version >= last, (table.id, record.version, last)
                intent, table.in_flight = table.in_flight, None
                gained = [action_to_json(a) for a in record.log[last:]]
                if guested(table.settings):
                    self.check_seat(store, reader, table, intent)
                if intent is None or intent["type"] in SEATING_CHANGES:
                    assert gained == [], (table.id, last, gained)
                else:
                    self.tally.in_flight += 1
                    expected = expected_actions(table.shown["game"], table.shown["seat"], intent)
                    if gained:
                        assert len(gained) == len(expected), (intent, gained)  # never half
                        for action, fields in zip(gained, expected, strict=True):
                            assert fields.items() <= action.items(), (intent, gained)
                        self.tally.applied += 1
                        self.tally.applied_pairs += int(len(gained) == 2)
                        table.shown = as_json(view(table.id, record, LANG))
                for shown in table.acknowledged:
                    assert view_at(table.id, record, shown["version"]) == game_of(shown)
                table.acknowledged.clear()
        finally:
            reader.close()
            store.close()

    def check_seat(
        self,
        store: SqliteStore,
        reader: sqlite3.Connection,
        table: Table,
        in_flight: dict[str, Any] | None,
    ) -> None:
        """The guest's seat held as the client was told, or as the claim or taking back in
        flight left it (either way, wholly: the seating and who may reach the game agree)."""
        seating = store.seating(table.id)
        assert seating is not None
        assert seating.host == self.keys["host"]
        holder = seating.holders[GUEST_SEAT]
        reach = reader.execute(
            "SELECT game_id, device, seat FROM access WHERE game_id = ?", (table.id,)
        )
        assert sorted(reach) == access_rows(table.id, seating), table.id
        if in_flight is not None and in_flight["type"] in SEATING_CHANGES:
            self.tally.seating_in_flight += 1
            assert holder in (self.keys["host"], self.keys["guest"]), seating
            claimed = holder == self.keys["guest"]
            self.tally.seating_applied += int(claimed == (in_flight["type"] == "claim"))
            table.claimed = claimed
            if not claimed and in_flight["type"] == "take-back":
                table.invitation = None
        expected = self.keys["guest" if table.claimed else "host"]
        assert holder == expected, (table.id, in_flight, seating)
        if table.invitation is not None:  # spent by the guest once it took the seat, by nobody else
            invitation = store.invitation(key=key_of(table.invitation))
            assert invitation is not None
            spent = (self.keys["guest"],) if table.claimed else (None, self.keys["guest"])
            assert invitation.spent_by in spent, invitation
        else:
            assert not table.claimed

    def restart(self) -> None:
        """Start the server again: each game is as the log says and takes its next action."""
        started = time.perf_counter()
        self.server.start()
        self.tally.restart_s.append(time.perf_counter() - started)
        for table in self.tables:
            shown = self.server.call("GET", f"/api/games/{table.id}?lang={LANG}")
            assert game_of(shown) == game_of(table.shown)
            table.shown, table.viewer = shown, "host"
            if table.claimed:  # the guest's credential is still good, its seat its own
                mine = self.guest.call("GET", f"/api/games/{table.id}?lang={LANG}")
                assert mine["you"] == {"role": "player", "seats": [GUEST_SEAT]}, mine
                assert game_of(mine) == game_of(shown)
        before = self.tally.guest_intents
        self.burst(self.playing(), stale=0, seats=False)
        self.tally.guest_after_restart += self.tally.guest_intents - before

    def run(self, kills: int, report: Callable[[Tally], None] | None = None) -> Tally:
        while self.tally.kills < kills:
            self.round_of_play()
            self.check()
            self.restart()
            if report:
                report(self.tally)
        return self.tally


def survive(
    db: Path, kills: int, seed: int, report: Callable[[Tally], None] | None = None
) -> Tally:
    """Play and kill ``kills`` times a server whose games are in ``db``; raises on the first
    lost, changed or half-applied action."""
    server = Server(db)
    server.start()
    try:
        return Player(server, random.Random(seed)).run(kills, report)
    except BaseException:
        print("".join(server.output))
        raise
    finally:
        if server.process and server.process.poll() is None:
            server.kill()


def test_killed_at_random_points_the_server_loses_nothing(tmp_path: Path) -> None:
    tally = survive(tmp_path / "zar.sqlite3", kills=16, seed=20261130)
    assert tally.kills == 16
    assert tally.intents > 16  # it played, between the kills
    assert tally.in_flight > 0  # and some kills came before a reply was read
    assert tally.claims > 0  # the guest's seat changed hands
    assert tally.taken_back > 0
    assert tally.seating_in_flight > 0  # some kills came during a claim or a taking back
    assert tally.guest_after_restart > 0  # and the guest played its seat after a restart
    print(tally)
