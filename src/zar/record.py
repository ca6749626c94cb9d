"""A game as a record: its kind, settings and log, written as plain JSON values and read back.

The store keeps records; the server rebuilds states from them by replaying the log through
the engine. Reading checks every value, so a damaged record is refused, never half read.

The log is append-only, undo included: an :class:`Undo` entry cancels the last decision
that still stands (a box written, dice set aside, a bank), which stays in the log marked
undone. The state is the replay of the entries that stand; the engine never sees an undo.
A record carries the state before each decision an undo may still take back, from record
to record, so that an undo costs the same at the log's 10 000th entry as at its first,
and a snapshot of the replay every :data:`SNAPSHOT_EVERY` entries, so that the game as it
stood at any version (:meth:`Record.upto`) replays that many entries at most.
An :class:`Abandon` entry ends an unfinished game for good: it is the log's last, kept.

>>> from zar.table import Seat
>>> record = Record.new("10000", (Seat("Ali"),), target=5_000)
>>> record = record.append(farkle.Throw(0, (1, 2, 3, 4, 6, 6)))
>>> record = record.append(farkle.SetAside(0, (0,)))
>>> record.state.turn_points, record.can_undo
(100, True)
>>> record = record.append(record.undo())
>>> Record.from_json(record.to_json()) == record
True
>>> record.state.turn_points, record.version, record.undone
(0, 3, frozenset({2}))
>>> record.append(Abandon()).abandoned
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal, assert_never, get_args

from zar import farkle, yams
from zar.table import IllegalAction, Seat

__all__ = [
    "GAMES",
    "HOUSE_RULES",
    "SNAPSHOT_EVERY",
    "Abandon",
    "Action",
    "GameKind",
    "Move",
    "Record",
    "State",
    "Step",
    "Undo",
    "farkle_rules",
    "house_rules",
    "yams_rules",
]

GameKind = Literal["yams", "10000"]
GAMES: tuple[GameKind, ...] = get_args(GameKind)

# The rules a table may play by, each game's by name, the seeds' first (the default): a
# record names its rules only when they are not the seeds' (docs/rules.md, "House rules").
HOUSE_RULES: dict[GameKind, tuple[str, ...]] = {
    "yams": tuple(rules.value for rules in yams.HOUSE_RULES),
    "10000": tuple(farkle.PRESETS),
}


def house_rules(kind: GameKind, name: object) -> str | None:
    """The name a record keeps of the rules ``name`` of ``kind``: None for the seeds'."""
    if name is None:
        return None
    if not isinstance(name, str) or name not in HOUSE_RULES[kind]:
        choices = ", ".join(HOUSE_RULES[kind])
        raise IllegalAction(
            f"{kind} has no rules {name!r}: choose {choices}", reason="bad-rules", rules=name
        )
    return None if name == HOUSE_RULES[kind][0] else name


def yams_rules(name: str | None) -> yams.Rules:
    """The rules of a Yams card a record names (None: ours, the seeds')."""
    return yams.Rules.STANDARD if name is None else yams.Rules(name)


def farkle_rules(name: str | None) -> farkle.FarkleRules:
    """The rules of 10 000 a record names (None: the seeds')."""
    return farkle.SEED if name is None else farkle.PRESETS[name]


# A record keeps its replay as it stood after every this many entries of the log: the game
# at an old version replays this many entries at most (a hundred moves: about a millisecond),
# for a few hundred bytes kept each.
SNAPSHOT_EVERY = 100


@dataclass(frozen=True, slots=True)
class Undo:
    """``seat`` takes back its last decision that stands: a box written, dice set aside, a bank."""

    seat: int


@dataclass(frozen=True, slots=True)
class Abandon:
    """The game ends unfinished, for good: nothing may follow in its log.

    It names no seat: ending a game is no move at the table, made on nobody's turn, and
    who may end it (the game's host device) is the server's to say, not the log's.
    """


Move = yams.YamsAction | farkle.FarkleAction
"""What the engine applies."""
Action = Move | Undo | Abandon
"""An entry of the log: a move, the undo of the last decision that stands, or the abandon."""
State = yams.YamsState | farkle.FarkleState


def action_to_json(action: Action) -> dict[str, Any]:
    match action:
        case yams.Throw():
            return {"type": "throw", "seat": action.seat, "keep": list(action.keep),
                    "dice": list(action.dice)}  # fmt: skip
        case yams.Fill():
            return {"type": "fill", "seat": action.seat, "box": action.box.name}
        case farkle.Throw():
            return {"type": "throw", "seat": action.seat, "dice": list(action.dice)}
        case farkle.SetAside():
            return {"type": "set_aside", "seat": action.seat, "positions": list(action.positions)}
        case farkle.Bank():
            return {"type": "bank", "seat": action.seat}
        case Undo():
            return {"type": "undo", "seat": action.seat}
        case Abandon():
            return {"type": "abandon"}
        case _:
            assert_never(action)


def _ints(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or any(type(v) is not int for v in value):
        raise ValueError(f"{what} is a list of whole numbers")
    return tuple(value)


def action_from_json(kind: GameKind, data: Mapping[str, Any], rules: str | None = None) -> Action:
    """An entry of the log of a game of ``kind`` under the ``rules`` its record names (a
    box is one of its card's)."""
    if data.get("type") == "abandon":
        return Abandon()
    seat = data.get("seat")
    if type(seat) is not int:
        raise ValueError("an action names its seat")
    match kind, data.get("type"):
        case _, "undo":
            return Undo(seat)
        case "yams", "throw":
            return yams.Throw(
                seat, _ints(data.get("keep"), "keep"), _ints(data.get("dice"), "dice")
            )
        case "yams", "fill":
            box = data.get("box")
            card = yams_rules(rules).box_type
            if not isinstance(box, str) or box not in card.__members__:
                raise ValueError(f"there is no box {box!r}")
            return yams.Fill(seat, card[box])
        case "10000", "throw":
            return farkle.Throw(seat, _ints(data.get("dice"), "dice"))
        case "10000", "set_aside":
            return farkle.SetAside(seat, _ints(data.get("positions"), "positions"))
        case "10000", "bank":
            return farkle.Bank(seat)
    raise ValueError(f"{kind} has no action {data.get('type')!r}")


def is_decision(move: Move) -> bool:
    """A move a player chooses after seeing the dice, and may take back: never a throw."""
    return isinstance(move, yams.Fill | farkle.SetAside | farkle.Bank)


@dataclass(frozen=True, slots=True)
class Step:
    """A move that stands, at its place in the log (``version``, from 1), with the states
    before and after it."""

    version: int
    move: Move
    before: State
    after: State


@dataclass(frozen=True, slots=True)
class _Rounds:
    """Each seat's totals after each round (Yams) or turn of the table (10 000) so far, the
    latest first (``count`` of them): a persistent list, shared by the records that follow."""

    totals: tuple[int, ...]
    count: int
    before: _Rounds | None


@dataclass(frozen=True, slots=True)
class _Stand:
    """A move that stands (``index``: its place in the log, from 0; -1: the start) with the
    state after it, on the moves that stood before it (``below``) while an undo may take it
    back: a persistent stack, whose tail each record shares with the one it grew from.

    A move no undo takes back (a throw, the computer's decision) is its bottom (nothing
    below): what stood before it stands for good, and is let go. The stack is never
    deeper than a turn's decisions since its last throw."""

    index: int
    after: State
    below: _Stand | None = None
    rounds: _Rounds | None = None  # the rounds ended by the moves that stood until it


def _default_hints(seats: Sequence[Seat]) -> tuple[int, ...]:
    """The coach is on for a person alone at the table (or alone with the computer)."""
    people = tuple(i for i, seat in enumerate(seats) if not seat.computer)
    return people if len(people) == 1 else ()


@dataclass(frozen=True)
class Record:
    """A game: what it is, who plays, and every action with the dice that fell."""

    kind: GameKind
    seats: tuple[Seat, ...]
    target: int | None = None  # 10 000 only
    autofill: int | None = None  # Yams: seconds before the computer writes a third throw
    log: tuple[Action, ...] = ()
    hint_seats: tuple[int, ...] | None = None  # who may ask the coach; None: the default
    rules: str | None = None  # the house rules by name (HOUSE_RULES); None: the seeds'
    # The replay of the log, kept and carried to the records that follow (None: not replayed
    # yet): the last move that stands, on those an undo may still take back. A record is
    # read far more often than written, and an undo replays nothing.
    _top: _Stand | None = field(default=None, compare=False, repr=False)
    # The replay after 0, SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY... entries of the log, as far
    # as the log goes (all of them once ``_top`` is known), shared with the records that
    # follow: where a replay of an older version starts.
    _marks: tuple[_Stand, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.hint_seats is None:
            object.__setattr__(self, "hint_seats", _default_hints(self.seats))

    @classmethod
    def new(
        cls,
        kind: GameKind,
        seats: Sequence[Seat],
        *,
        target: int | None = None,
        autofill: int | None = None,
        hints: Sequence[int] | None = None,
        rules: str | None = None,
    ) -> Record:
        """A record with no action yet; refuses bad settings as the engine does.

        ``hints``: the people's seats that may ask the coach; None: the person, when one
        person plays, else nobody. ``rules``: the house rules' name (None or the first of
        :data:`HOUSE_RULES`: the seeds'), refused with ``bad-rules`` when the game has none
        of that name.
        """
        if autofill is not None and (type(autofill) is not int or not 1 <= autofill <= 600):
            raise ValueError("the auto-fill delay is 1 to 600 seconds, or off")
        seats = tuple(seats)
        chosen = _default_hints(seats) if hints is None else tuple(sorted(set(hints)))
        for seat in chosen:
            if type(seat) is not int or not 0 <= seat < len(seats) or seats[seat].computer:
                raise ValueError(f"the coach helps the people at the table, not seat {seat!r}")
        record = cls(
            kind,
            seats,
            target if kind == "10000" else None,
            autofill if kind == "yams" else None,
            hint_seats=chosen,
            rules=house_rules(kind, rules),
        )
        record.start  # noqa: B018 -- checks the settings now, not at the first action
        return record

    @cached_property
    def start(self) -> State:
        if self.kind == "yams":
            if self.target is not None:
                raise ValueError("Yams has no target")
            return yams.YamsState.start(yams.YamsSettings(self.seats, yams_rules(self.rules)))
        target = 10_000 if self.target is None else self.target
        settings = farkle.FarkleSettings(self.seats, target=target, rules=farkle_rules(self.rules))
        return farkle.FarkleState.start(settings)

    @property
    def hints(self) -> tuple[int, ...]:
        """The seats that may ask the coach."""
        assert self.hint_seats is not None
        return self.hint_seats

    @property
    def version(self) -> int:
        """How many entries the log holds: every action, undo included, makes a new version."""
        return len(self.log)

    @property
    def _last(self) -> _Stand:
        """The last move that stands, on those an undo may take back: replayed once, when no
        record before this one carried it, from the latest snapshot it holds (else from the
        start), the snapshots after it kept on the way."""
        top = self._top
        if top is None:
            marks = self._marks[: self.version // SNAPSHOT_EVERY + 1] or (_Stand(-1, self.start),)
            top, marks = _replay(self.seats, self.log, marks)
            object.__setattr__(self, "_top", top)
            object.__setattr__(self, "_marks", marks)
        return top

    @cached_property
    def undone(self) -> frozenset[int]:
        """The versions (places in the log, from 1) of the moves an undo cancelled (read off
        the log when asked: no move is applied)."""
        return frozenset(i + 1 for i in _standing(self.log)[1])

    @property
    def abandoned(self) -> bool:
        """Whether the game was abandoned: its log ends with an :class:`Abandon`."""
        return bool(self.log) and isinstance(self.log[-1], Abandon)

    @cached_property
    def state(self) -> State:
        state = self._last.after
        if self.log and isinstance(self.log[-1], Undo | Abandon):
            # After an undo or an abandon, what the last move caused is not announced again.
            return _quiet(state)
        return state

    def steps(self) -> Iterator[Step]:
        """Each move that stands, in order, with the states around it."""
        state = self.start
        for i in _standing(self.log)[0]:
            move = self.log[i]
            assert not isinstance(move, Undo | Abandon)
            after = state.apply(move)  # type: ignore[arg-type]
            yield Step(i + 1, move, state, after)
            state = after

    @property
    def rounds(self) -> list[tuple[int, ...]]:
        """Each seat's totals after each round (Yams) or turn of the table (10 000) of the
        moves that stand, oldest first: kept with the replay, read without applying a move."""
        rows = []
        rounds = self._last.rounds
        while rounds is not None:
            rows.append(rounds.totals)
            rounds = rounds.before
        return rows[::-1]

    @property
    def last_move(self) -> Move | None:
        """The last move that stands (undone ones and an abandon left out), if any."""
        top = self._last
        if top.index < 0:
            return None
        move = self.log[top.index]
        assert not isinstance(move, Undo | Abandon)
        return move

    @property
    def can_undo(self) -> bool:
        """Whether the last move that stands is a person's decision, so that it may be undone
        (never once the game is abandoned)."""
        if self.abandoned:
            return False
        return _undoable(self.log, self._last) is not None

    def undo(self) -> Undo:
        """The log entry that undoes the last decision; IllegalAction when none may be undone."""
        if self.abandoned:
            raise _abandoned()
        move = _undoable(self.log, self._last)
        if move is None:
            raise IllegalAction("there is no decision to undo", reason="nothing-to-undo")
        return Undo(move.seat)

    def append(self, action: Action) -> Record:
        """The record with ``action`` added; raises IllegalAction, changing nothing, if refused:
        after an :class:`Abandon`, every action is (``game-abandoned``).

        It applies one move at most, whatever the log's length: an undo goes back to the
        state the record kept from before the decision, an abandon keeps the state as is."""
        if self.abandoned:
            raise _abandoned()
        log = self.log + (action,)  # noqa: RUF005 -- one copy of the log, not two
        top = _next(self._last, self.seats, log, len(self.log))
        marks = self._marks  # all of them: the last move is known
        if not len(log) % SNAPSHOT_EVERY:
            marks = (*marks, top)
        return replace(self, log=log, _top=top, _marks=marks)

    def extended(self, entries: Sequence[Mapping[str, Any]]) -> Record:
        """The record with the log ``entries`` that followed it (as :func:`action_to_json`
        writes them) applied in order, as a replay would; raises IllegalAction if the rules
        refuse one, ValueError if one is not an action."""
        record = self
        for entry in entries:
            record = record.append(action_from_json(self.kind, entry, self.rules))
        return record

    def upto(self, version: int) -> Record:
        """The record as it stood at ``version`` (0 to its version), for a replay: its state
        replayed from the latest snapshot before it, :data:`SNAPSHOT_EVERY` entries at most."""
        if type(version) is not int or not 0 <= version <= self.version:
            raise IllegalAction(
                f"the game has versions 0 to {self.version}",
                reason="no-such-version",
                last=self.version,
            )
        self._last  # noqa: B018 -- every snapshot of this record, for the one before it
        marks = self._marks[: version // SNAPSHOT_EVERY + 1]
        return replace(self, log=self.log[:version], _top=None, _marks=marks)

    def settings_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seats": [
                {"name": s.name, "computer": s.computer, "level": s.level} for s in self.seats
            ],
            "target": self.target,
            "autofill": self.autofill,
            "hints": list(self.hints),
            # Named only when not the seeds': a record stored before house rules reads as it was.
            **({"rules": self.rules} if self.rules is not None else {}),
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.settings_json(), "log": [action_to_json(a) for a in self.log]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        """Read a record back, replaying its log: a record the rules refuse is a ValueError."""
        kind = data.get("kind")
        if kind not in GAMES:
            raise ValueError(f"there is no game {kind!r}")
        seats_data = data.get("seats")
        if not isinstance(seats_data, list):
            raise ValueError("a game lists its seats")
        seats = []
        for seat in seats_data:
            if not isinstance(seat, Mapping):
                raise ValueError("a seat is an object")
            seats.append(
                Seat(seat.get("name"), bool(seat.get("computer")), seat.get("level"))  # type: ignore[arg-type]
            )
        hints = data.get("hints")  # absent from games stored before the coach: the default
        if hints is not None:
            hints = _ints(hints, "hints")
        target = data.get("target")
        rules = data.get("rules")  # absent from games stored before house rules: the seeds'
        record = cls.new(
            kind, seats, target=target, autofill=data.get("autofill"), hints=hints, rules=rules
        )
        log = data.get("log", [])
        if not isinstance(log, list):
            raise ValueError("a game's log is a list")
        actions: list[Action] = []
        for entry in log:
            if not isinstance(entry, Mapping):
                raise ValueError("an action is an object")
            actions.append(action_from_json(kind, entry, record.rules))
        try:
            top, marks = _replay(record.seats, actions, (_Stand(-1, record.start),))
        except _Refused as refused:
            raise ValueError(f"action {refused.index + 1} of the log: {refused.error}") from None
        return replace(record, log=tuple(actions), _top=top, _marks=marks)


class _Refused(Exception):
    """An entry of a log the rules refuse, at ``index``."""

    def __init__(self, index: int, error: IllegalAction) -> None:
        super().__init__(index, error)
        self.index = index
        self.error = error


def _abandoned() -> IllegalAction:
    return IllegalAction("the game was abandoned", reason="game-abandoned")


def _standing(log: Sequence[Action]) -> tuple[list[int], set[int]]:
    """The places in ``log`` (from 0) of the moves that stand, and of those undone; a log
    with an undo of nothing (one not replayed, as a backup reads it) is a ValueError."""
    standing: list[int] = []
    undone: set[int] = set()
    for i, entry in enumerate(log):
        match entry:
            case Undo():
                if not standing:
                    raise ValueError(f"action {i + 1} of the log undoes nothing")
                undone.add(standing.pop())
            case Abandon():
                pass
            case _:
                standing.append(i)
    return standing, undone


def _undoable(log: Sequence[Action], top: _Stand) -> Move | None:
    """The last move that stands, if an undo may take it back (a person's decision)."""
    if top.below is None:
        return None
    move = log[top.index]
    assert not isinstance(move, Undo | Abandon)
    return move


def _replay(
    seats: Sequence[Seat], log: Sequence[Action], marks: tuple[_Stand, ...]
) -> tuple[_Stand, tuple[_Stand, ...]]:
    """The last move of ``log`` that stands, and the snapshots of the whole log, replayed
    from the last of ``marks`` (the snapshots of its first entries, the start's first); an
    entry the rules refuse raises _Refused with its place."""
    top = marks[-1]
    kept = list(marks)
    for i in range((len(marks) - 1) * SNAPSHOT_EVERY, len(log)):
        try:
            top = _next(top, seats, log, i)
        except IllegalAction as error:
            raise _Refused(i, error) from None
        if not (i + 1) % SNAPSHOT_EVERY:
            kept.append(top)
    return top, tuple(kept)


def _next(top: _Stand, seats: Sequence[Seat], log: Sequence[Action], i: int) -> _Stand:
    """The last move that stands after entry ``i`` of ``log``, ``top`` being the last before
    it: one move applied at most. An entry the rules refuse (an undo with nothing to undo,
    an abandon of a finished game, anything after an abandon) raises IllegalAction."""
    if i and isinstance(log[i - 1], Abandon):
        raise _abandoned()
    entry = log[i]
    match entry:
        case Undo():
            move = _undoable(log, top)
            if move is None or move.seat != entry.seat:
                raise IllegalAction("there is no decision to undo", reason="nothing-to-undo")
            assert top.below is not None
            return top.below
        case Abandon():
            if top.after.is_over:
                raise IllegalAction("the game is over", reason="game-over")
            return top
        case _:
            after = top.after.apply(entry)  # type: ignore[arg-type]
            # A person's decision may be undone: what stood before it is kept under it.
            below = top if is_decision(entry) and not seats[entry.seat].computer else None
            return _Stand(i, after, below, _ended(top.rounds, entry, after))


def _ended(rounds: _Rounds | None, move: Move, after: State) -> _Rounds | None:
    """``rounds`` with the one ``move`` ended, if it ended one: a Yams box written by the
    table's last seat; in 10 000 the turn after which every seat has played one more."""
    count = 0 if rounds is None else rounds.count
    match after:
        case yams.YamsState():
            done = isinstance(move, yams.Fill) and after.seat == 0
            totals = tuple(card.total for card in after.cards)
        case farkle.FarkleState():
            done = min(after.turns) > count
            totals = after.totals
        case _:
            assert_never(after)
    return _Rounds(totals, count + 1, rounds) if done else rounds


def _quiet(state: State) -> State:
    """``state`` as an undo or an abandon leaves it: what the last move caused is not
    announced again."""
    match state:
        case yams.YamsState():
            return replace(state, events=())
        case farkle.FarkleState():
            return replace(state, events=())
        case _:
            assert_never(state)
