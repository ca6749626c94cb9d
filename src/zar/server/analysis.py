"""The routes of the coach and the history: a hint, a game's review, log, progress and
export, the statistics per player and their export.

They read the games as the rest of the app does, only those the device asking may read
(:func:`zar.server.rights.to_read`), and change nothing: a hint is for the device holding
the seat on turn (:func:`zar.server.rights.to_hint`), the statistics are of the device's own
games. Each is a heavy read, counted against the asker's budget; a game's hint, review,
log, progress and export are worked out once per version and kept (:mod:`zar.server.reads`),
the rights asked before what is kept is read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from zar.ai.coach import Strategies, hint
from zar.ai.luck import figures as luck_figures
from zar.ai.review import review
from zar.history import (
    current,
    figures,
    game_csv,
    game_export,
    log_entries,
    progress,
    stats,
    stats_csv,
)
from zar.record import GameKind, Record, house_rules
from zar.server.asking import address, language
from zar.server.devices import Devices, Reach
from zar.server.games import Games
from zar.server.reads import Kept, ReadBudget, Reads
from zar.server.replies import GAME_REFUSALS, refusals
from zar.server.rights import require, to_hint

__all__ = ["STATS_GAMES", "analysis_routes", "statistics_routes"]

STATS_GAMES = 1_000  # the statistics read the latest finished games, this many at most

Format = Literal["json", "csv"]
# The house rules by name (refused in words when the game has none of that name).
Rules = Annotated[
    str | None, Query(max_length=40, description="the house rules by name; the seeds' by default")
]

_OBJECT = {"application/json": {"schema": {"type": "object", "additionalProperties": True}}}
STATS_REPLY = {
    "description": "each player's figures, and each name's totals oldest first",
    "content": _OBJECT,
}
JSON_REPLY = {"description": "the reply, as JSON", "content": _OBJECT}


def _file(fmt: Format, data: dict[str, Any], as_csv: Callable[[], str]) -> Kept:
    """A file to save: ``data`` as JSON, or ``as_csv()``."""
    if fmt == "json":
        return Kept(json.dumps(data, ensure_ascii=False, indent=1).encode(), "application/json")
    return Kept(as_csv().encode(), "text/csv; charset=utf-8")


def _download(name: str, fmt: Format, kept: Kept) -> Response:
    """``kept`` as a file to save, named ``name``."""
    headers = {"content-disposition": f'attachment; filename="{name}.{fmt}"'}
    return Response(kept.body, media_type=kept.media, headers=headers)


def _json(found: Any) -> Kept:
    """A reply as JSON, as the API writes it."""
    return Kept(bytes(JSONResponse(found).body), "application/json")


def _sent(kept: Kept) -> Response:
    return Response(kept.body, media_type=kept.media)


async def _worked_out(games: Games, game_id: str) -> Mapping[str, Any] | None:
    """A finished game's figures worked out from its log (none were kept, or of an older
    version), and kept."""
    record = await games.peek(game_id)
    part = figures(record)
    if part is not None:
        await run_in_threadpool(games.store.keep_figures, game_id, record.version, part)
        if games.accounts is not None:  # its luck account after, slowly: they may be many
            games.accounts.later(game_id)
    return part


def analysis_routes(
    games: Games,
    reach: Reach,
    strategies: Strategies | None = None,
    reads: Reads | None = None,
    budget: ReadBudget | None = None,
) -> APIRouter:
    """The routes of the coach and the history over ``games``: a game's hint, review, log,
    progress and export; the coach reads ``strategies`` (by default each loaded on first
    use). The heavy reads are kept in ``reads`` and counted by ``budget`` (None: as often as
    asked)."""
    router = APIRouter()
    coach = strategies or Strategies()
    kept = reads or Reads()

    def counted(request: Request, device: str | None, entries: int = 0) -> None:
        _count(budget, request, device, entries)

    async def record(request: Request, game_id: str) -> Record:
        """The game, for a device with a place at its table (else Forbidden), the read
        counted."""
        table = await reach(game_id, request)
        found = await games.record(game_id)
        counted(request, table.device, found.version)
        return found

    def times(game_id: str) -> list[str]:
        """When each action of the game's log was stored."""
        return games.store.times(game_id)

    @router.get(
        "/api/games/{game_id}/hint",
        response_model=None,
        responses={200: JSON_REPLY, **refusals(*GAME_REFUSALS, 429)},
    )
    async def game_hint(game_id: str, request: Request) -> Response:
        """The coach's options for the seat to play, best first, and its advice in a sentence;
        422 ``no-hint`` when that seat has the coach off or is the computer's."""
        table = await reach(game_id, request)
        found = await games.record(game_id)
        require(to_hint(table.seating, table.device, found))  # the coach is the seat's holder's
        counted(request, table.device)
        lang = language(request)
        key = (game_id, found.version, "hint", lang)
        return _sent(await kept.kept(key, lambda: _json(hint(found, coach, lang))))

    @router.get(
        "/api/games/{game_id}/review",
        response_model=None,
        responses={200: JSON_REPLY, **refusals(*GAME_REFUSALS, 429)},
    )
    async def game_review(game_id: str, request: Request) -> Response:
        """For each person, every decision against the optimal one: what it cost in all and
        on average, the worst three as the board looked, a verdict; and the account of luck
        and skill: the start, the dice's luck, the result, the luckiest and unluckiest
        throws, the strategy's value after every step; 422 ``not-finished``."""
        found = await record(request, game_id)
        lang = language(request)
        key = (game_id, found.version, "review", lang)
        return _sent(await kept.kept(key, lambda: _json(review(found, coach, lang))))

    @router.get(
        "/api/games/{game_id}/log",
        response_model=None,
        responses={200: JSON_REPLY, **refusals(*GAME_REFUSALS, 429)},
    )
    async def game_log(game_id: str, request: Request) -> Response:
        """Every entry of the game's log, undos included, each marked when it was undone."""
        found = await record(request, game_id)

        def logged() -> Kept:
            return _json({
                "id": game_id,
                "game": found.kind,
                "players": [seat.name for seat in found.seats],
                "entries": log_entries(found, times(game_id)),
            })  # fmt: skip

        return _sent(await kept.kept((game_id, found.version, "log", ""), logged))

    @router.get(
        "/api/games/{game_id}/progress",
        response_model=None,
        responses={200: JSON_REPLY, **refusals(*GAME_REFUSALS, 429)},
    )
    async def game_progress(game_id: str, request: Request) -> Response:
        """Each seat's total after each round (Yams) or turn of the table (10 000)."""
        found = await record(request, game_id)
        lang = language(request)
        key = (game_id, found.version, "progress", lang)
        return _sent(await kept.kept(key, lambda: _json(progress(found, lang))))

    @router.get(
        "/api/games/{game_id}/export",
        response_class=Response,
        responses={200: {"description": "the game as a JSON or CSV file"},
                   **refusals(*GAME_REFUSALS, 429)},
    )  # fmt: skip
    async def game_file(game_id: str, request: Request, format: Format = "json") -> Response:
        """The game as a file: its settings, its log with the undone marks, each throw's luck
        and each decision's cost, the final totals."""
        found = await record(request, game_id)
        name = f"zar-{found.kind}-{game_id}"

        def exported() -> Kept:
            stored = times(game_id)
            luck = luck_figures(found, coach)
            data = game_export(game_id, found, stored, luck)
            return _file(format, data, lambda: game_csv(game_id, found, stored, luck))

        done = await kept.kept((game_id, found.version, f"export-{format}", ""), exported)
        return _download(name, format, done)

    return router


def statistics_routes(
    games: Games, devices: Devices, budget: ReadBudget | None = None
) -> APIRouter:
    """The routes of the statistics of a device's finished games, as figures or a file; each
    a heavy read counted by ``budget`` (None: as often as asked)."""
    router = APIRouter()

    async def statistics(request: Request, game: GameKind, rules: str | None) -> dict[str, Any]:
        """The statistics of the device's own latest finished games (none without a
        credential) under the house rules ``rules`` (their name; None: the seeds'), summed
        from the figures kept with each: a game's are worked out from its log (and kept)
        only when missing or of an older version; its luck account, too slow to wait for,
        is worked out after by the slow pass (:mod:`zar.server.accounts`)."""
        kept_rules = house_rules(game, rules)  # refused in words (bad-rules) before any read
        device = await devices.caller(request)
        _count(budget, request, device)
        store = games.store
        rows = (
            []
            if device is None
            else await run_in_threadpool(
                lambda: store.finished_figures(game, limit=STATS_GAMES, device=device)
            )
        )
        parts = [
            part if current(part) else await _worked_out(games, game_id)
            for game_id, part in reversed(rows)
        ]
        lang = language(request)
        return await run_in_threadpool(stats, game, parts, lang, kept_rules)  # oldest first

    @router.get(
        "/api/stats",
        response_model=None,
        responses={200: STATS_REPLY, **refusals(422, 429, 503)},
    )
    async def game_stats(game: GameKind, request: Request, rules: Rules = None) -> Response:
        """Each player's figures over the finished games of ``game`` under the house rules
        ``rules`` (the seeds' by default), and their totals."""
        # JSON as it is: FastAPI's walk over every total would cost more than the figures.
        return JSONResponse(await statistics(request, game, rules))

    @router.get(
        "/api/stats/export",
        response_class=Response,
        responses={200: {"description": "the statistics as a JSON or CSV file"},
                   **refusals(422, 429, 503)},
    )  # fmt: skip
    async def stats_file(
        game: GameKind, request: Request, format: Format = "json", rules: Rules = None
    ) -> Response:
        """The statistics of ``game`` under the house rules ``rules`` as a file."""
        found = await statistics(request, game, rules)
        name = f"zar-stats-{game}" if rules is None else f"zar-stats-{game}-{rules}"
        return _download(name, format, _file(format, found, lambda: stats_csv(found)))

    return router


def _count(
    budget: ReadBudget | None, request: Request, device: str | None, entries: int = 0
) -> None:
    """A heavy read of ``device``, of a log of ``entries``, counted (else TooManyReads)."""
    if budget is not None:
        budget.read(device, address(request), entries)
