"""The routes that set the page up: the new-game dialog's choices, the words of each
language, where a phone on the same network opens the app."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter

from zar import ai
from zar.farkle import TARGETS
from zar.i18n import LANGUAGES, MESSAGES, Language, box_names
from zar.record import GAMES, HOUSE_RULES
from zar.server import penalty_tables
from zar.server.network import qr_code
from zar.server.replies import Network, Setup, Words, refusals
from zar.table import MAX_PEOPLE, MAX_SEATS

__all__ = ["setup_routes"]


def setup_routes(addresses: Sequence[str] = ()) -> APIRouter:
    """The routes; ``addresses`` are the URLs a phone on the same network can open (none when
    serving this machine only)."""
    router = APIRouter()

    @router.get("/api/setup", response_model=None, responses={200: {"model": Setup}})
    async def setup() -> dict[str, Any]:
        """The new-game dialog's choices: games, computer levels, targets, auto-fill delays,
        how many people and seats (people and computers) a table takes; the house rules
        whose levels grow once a table being built here is ready."""
        farkle = HOUSE_RULES["10000"]
        return {
            "games": list(GAMES),
            "levels": {game: list(levels) for game, levels in ai.LEVELS.items()},
            "default_level": ai.DEFAULT_LEVEL,
            "targets": list(TARGETS),
            "default_target": 10_000,
            "autofill": [3, 10, 30, None],
            "default_autofill": 3,
            "max_people": MAX_PEOPLE,
            "max_seats": MAX_SEATS,
            "languages": list(LANGUAGES),
            "rules": {game: list(names) for game, names in HOUSE_RULES.items()},
            "default_rules": {game: names[0] for game, names in HOUSE_RULES.items()},
            "rules_levels": {
                game: {name: list(ai.levels(game, name)) for name in names}
                for game, names in HOUSE_RULES.items()
            },
            "rules_preparing": {"yams": [], "10000": penalty_tables.preparing()},
            "target_levels": {
                str(target): {name: list(ai.levels("10000", name, target)) for name in farkle}
                for target in TARGETS
            },
            "target_preparing": {str(t): penalty_tables.preparing(t) for t in TARGETS},
        }

    @router.get(
        "/api/i18n/{lang}",
        response_model=None,
        responses={200: {"model": Words}, **refusals(422)},
    )
    async def words(lang: Language) -> dict[str, Any]:
        """The page's words in ``lang``."""
        return {
            "lang": lang,
            "messages": {key: values[lang] for key, values in MESSAGES.items()},
            "boxes": box_names(lang),
        }

    # Drawn once: the addresses do not change while the app serves.
    phone = {"addresses": list(addresses), "qr": qr_code(addresses[0]) if addresses else None}

    @router.get("/api/network", response_model=None, responses={200: {"model": Network}})
    async def network() -> dict[str, Any]:
        """Where a phone on the same network opens the app, and a QR code of the first."""
        return phone

    return router
