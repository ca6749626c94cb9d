"""The shapes of the API's replies, for its OpenAPI schema.

They document what :mod:`zar.server.views` sends; the routes still send the views as they
are (nothing is filtered through these models), and the fuzz tests check that every reply
fits its documented shape and status.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from zar.table import MAX_NAME_LENGTH

__all__ = [
    "EVENTS",
    "GAME_REFUSALS",
    "NAME_SCHEMA",
    "REFUSALS",
    "FarkleView",
    "GameView",
    "Listed",
    "Network",
    "Refusal",
    "Setup",
    "Words",
    "YamsView",
    "refusals",
    "stream_refusals",
]


# A player's name (zar.table.check_name): 1 to 24 characters, none a control character,
# none a space at either end.
NAME_SCHEMA: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH}


class Refusal(BaseModel):
    """A refused request: the message in the player's language and a stable key."""

    detail: str = Field(description="what was wrong, in the player's language")
    reason: str = Field(description="a stable key: bad-request, unknown-game, stale-version…")
    version: int | None = Field(default=None, description="409: the game's version now")


class Player(BaseModel):
    name: str
    computer: bool
    level: str | None


class Event(BaseModel):
    """What the last action caused: ``filled``, ``turn_lost``, ``three_lost`` (the house
    rules' penalty), ``hot_dice``, ``banked``, ``last_round``, ``game_over`` (with the values
    each speaks of)."""

    type: Literal[
        "filled", "turn_lost", "three_lost", "hot_dice", "banked", "last_round", "game_over"
    ]


class You(BaseModel):
    """What the device asking is at the table, and the seats it acts for."""

    role: Literal["host", "player", "watcher"] | None
    seats: list[int]


class SeatHolder(BaseModel):
    """A seat as the device asking sees it."""

    holder: Literal["you", "host", "guest", "computer"] = Field(
        description="played on this device, on the host's, on a guest's own, or the computer's"
    )
    standin: str | None = Field(description="the computer's level playing it meanwhile")
    here: bool = Field(description="its device follows the game now")
    away_since: str | None = Field(description="when its device left, if it is away")


class _Game(BaseModel):
    id: str
    version: int = Field(ge=0, description="the number of actions in the game's log")
    lang: Literal["tr", "fr", "en"]
    over: bool
    abandoned: bool = Field(description="the game was abandoned: it takes no more actions")
    seat: int = Field(ge=0, description="whose turn it is")
    rules: str = Field(description="the house rules played by name (/api/setup: rules)")
    players: list[Player]
    winners: list[int]
    events: list[Event]
    messages: list[str]
    you: You | None = None
    seats: list[SeatHolder] | None = None
    seating_rev: int | None = Field(default=None, description="the seating's revision")


class Card(BaseModel):
    boxes: dict[str, int | None]
    upper_total: int
    upper_bonus: int
    penta_bonus: int
    total: int


class YamsView(_Game):
    """A game of Yams as the page shows it."""

    game: Literal["yams"]
    round: int
    rounds: int = Field(description="the rounds of the game: a box of the card each")
    throws: int
    throws_left: int
    kept: list[int] = Field(description="the positions the round's last throw kept")
    dice: list[Annotated[int, Field(ge=1, le=6)]]
    options: dict[str, int]
    must_sacrifice: bool
    sacrifice_message: str | None
    cards: list[Card] = Field(description="each seat's card, its boxes in the card's order")
    upper_bonus: int = Field(description="what the upper bonus gives at 63 under the rules")
    penta_bonus_counts: bool = Field(description="whether a later Penta earns +100 (the Joker)")
    totals: list[int]
    autofill: int | None


class TrayDie(BaseModel):
    face: Annotated[int, Field(ge=1, le=6)] | None
    aside: bool


class Group(BaseModel):
    dice: list[Annotated[int, Field(ge=1, le=6)]]
    points: int


class Selection(BaseModel):
    """A subset of the throw: its points, or why it is refused."""

    points: int | None = None
    refused: str | None = None


class FarkleView(_Game):
    """A game of 10 000 as the page shows it."""

    game: Literal["10000"]
    target: int
    totals: list[int]
    phase: Literal["throw", "set-aside", "over"]
    turn_points: int
    tray: list[TrayDie]
    groups: list[Group]
    dice_in_play: int
    hot_dice: bool = Field(
        description="every die set aside came back in this turn, none set aside since"
    )
    risk: float | None = Field(description="the chance the next throw scores nothing")
    can_bank: bool
    bank_floor: int = Field(description="the fewest turn points a bank takes now (0: any)")
    bank_needs: int = Field(description="the turn points still missing before a bank")
    lost_in_row: list[int] = Field(description="each seat's lost turns in a row")
    three_lost: int = Field(description="what a third lost turn in a row costs (0: nothing)")
    last_round: bool = Field(description="whether reaching the target starts a last round")
    last_round_by: int | None
    selections: dict[str, Selection]
    refusals: dict[str, str]
    turns: list[int]


GameView = Annotated[YamsView | FarkleView, Field(discriminator="game")]


class Listed(BaseModel):
    """A game in the list: to continue, or in the history."""

    id: str
    game: Literal["yams", "10000"]
    created_at: str
    updated_at: str
    version: int
    finished: bool
    players: list[str] = Field(
        description="the seats' names, the computer's in the request's language (IA, Computer)"
    )
    computer: list[bool] = Field(description="for each seat, whether it is the computer's")
    totals: list[int]
    seat: int
    winners: list[int]
    round: int | None = Field(description="Yams: the round")
    rounds: int | None = Field(
        default=None, description="Yams: the rounds of its card (absent before house rules: 13)"
    )
    rules: str | None = Field(default=None, description="the house rules by name; null: the seeds'")
    target: int | None = Field(description="10 000: the target")
    abandoned: bool = Field(default=False, description="always false: no abandoned game is listed")
    my_turn: bool = Field(default=False, description="a seat this device holds is on turn")
    host: bool = Field(default=False, description="this device hosts the game (it may end it)")


class Setup(BaseModel):
    """The new-game dialog's choices."""

    games: list[str]
    levels: dict[str, list[str]]
    default_level: dict[str, str]
    targets: list[int]
    default_target: int
    autofill: list[int | None]
    default_autofill: int | None
    max_people: int = Field(description="the people at one table, at most")
    max_seats: int = Field(description="the seats at one table, people and computers, at most")
    languages: list[str]
    rules: dict[str, list[str]] = Field(description="each game's house rules, the seeds' first")
    default_rules: dict[str, str]
    rules_levels: dict[str, dict[str, list[str]]] = Field(
        description="the computer's levels under each game's house rules"
    )
    rules_preparing: dict[str, list[str]] = Field(
        description="each game's house rules whose strongest level is offered once the table"
        " this server is building for it is ready (minutes to half an hour)"
    )
    target_levels: dict[str, dict[str, list[str]]] = Field(
        description="10 000: the computer's levels under each house rules, by target (those"
        " of rules_levels are the default target's)"
    )
    target_preparing: dict[str, list[str]] = Field(
        description="10 000: by target, the house rules whose expert is offered once the"
        " table this server is building for that target is ready"
    )


class Network(BaseModel):
    """Where a phone on the same network opens the app, for the home screen to show."""

    addresses: list[str] = Field(
        description="the URLs a phone can open; none when serving this machine only"
    )
    qr: str | None = Field(
        description="a data: URI of an SVG QR code of the first address; null when there is none"
    )


class Invite(BaseModel):
    """A way in for another device, from the host's."""

    join: str = Field(description="the address another device opens to take a seat")
    code: str = Field(description="the same, as a short code to type")
    watch: str = Field(description="the address for watchers")
    qr: str = Field(description="a data: URI of an SVG QR code of the join address")
    expires_at: str
    here_only: bool = Field(
        description="whether the links name this machine only (the server does not serve the "
        "network: no other phone can open them)"
    )


class OfferedSeat(BaseModel):
    seat: int
    name: str


class Opened(BaseModel):
    """What an invitation offers the device that opened it."""

    game: str
    kind: Literal["seat", "watch"]
    players: list[str]
    seats: list[OfferedSeat] = Field(description="the seats the host's device still holds")
    yours: list[int] = Field(description="the seats this device holds already")


class Words(BaseModel):
    """The page's words in one language."""

    lang: Literal["tr", "fr", "en"]
    messages: dict[str, str]
    boxes: dict[str, str]


REFUSALS: dict[int, dict[str, Any]] = {
    403: {
        "model": Refusal,
        "description": "This device may not: not at this table, a watcher, another's seat, "
        "the host's to do, a spent or unknown invitation, another site's request",
    },
    404: {"model": Refusal, "description": "No game has this id"},
    409: {
        "model": Refusal,
        "description": "The intention was made on another version: `version` is the game's now",
    },
    413: {"model": Refusal, "description": "The body is over 16 KiB"},
    422: {
        "model": Refusal,
        "description": "The rules refuse it, or the request is malformed",
    },
    429: {
        "model": Refusal,
        "description": "Too many from this client: new games or joins in a minute, open "
        "event streams, undos in a row (on the game, from the device or its address), or "
        "reviews, exports, logs, hints and statistics, or actions faster than a table plays "
        "(from the device or its address)",
        "headers": {
            "Retry-After": {
                "description": "the seconds to wait",
                "required": True,
                "schema": {"type": "integer", "minimum": 1},
            }
        },
    },
    503: {"model": Refusal, "description": "The games cannot be reached now: try again"},
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented refusals of a route, for its ``responses=``."""
    return {status: REFUSALS[status] for status in statuses}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def stream_refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals of a route whose replies are events: JSON all the same."""
    return {
        status: {
            "description": REFUSALS[status]["description"],
            **{k: v for k, v in REFUSALS[status].items() if k == "headers"},
            "content": {"application/json": {"schema": _ref("Refusal")}},
        }
        for status in statuses
    }


# One server-sent event: its data is the game's state, as GET /api/games/{id} gives it.
_EVENT: dict[str, Any] = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"oneOf": [_ref("YamsView"), _ref("FarkleView")]},
        },
        "event": {"type": "string"},
        "id": {"type": "string"},
        "retry": {"type": "integer"},
    },
}

EVENTS: dict[str, Any] = {
    "description": "The game's state now, then each new one; `: keep-alive` comments between",
    "content": {
        "text/event-stream": {
            "schema": {"type": "array", "items": _EVENT},
            "itemSchema": _EVENT,
        }
    },
}


# Every route that reads or writes a game.
GAME_REFUSALS = (403, 404, 422, 503)
