"""Every refusal written the same way: its status, ``{"detail": words, "reason": reason}``
in the asker's language with what its reply carries beside them, its headers.

What the app refuses is a :class:`~zar.refusal.Refusal`, raised wherever it is decided;
the rest is mapped into one here (:func:`as_refusal`): the engine's ``IllegalAction`` (422,
its reason), Starlette's 404 and 405, a request that is not what the schema says (422
``bad-request``), and a fault of the server's own (500 ``server-error``, said in words too).
One handler (:func:`install`) writes them all, and the middleware that refuses before the
app (a body too large, a page of another site, too many new games) writes with :func:`say`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain

from fastapi import APIRouter, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import Match, Route

from zar.i18n import explain, text
from zar.refusal import Refusal
from zar.server.asking import language
from zar.server.limits import SECURITY_HEADERS
from zar.table import IllegalAction

__all__ = ["as_refusal", "install", "say"]


def as_refusal(error: Exception, allowed: Callable[[], list[str]] = list) -> Refusal:
    """``error`` as a refusal; ``allowed()``: the methods the request's path takes (a 405's
    ``Allow``)."""
    match error:
        case Refusal():
            return error
        case IllegalAction():
            refusal = Refusal(error.reason, details=error.details)
            refusal.__cause__ = error  # its words are the engine's refusal's (explain)
            return refusal
        case HTTPException(status_code=404):
            return Refusal("not-found", status=404)
        case HTTPException(status_code=405):
            allow = ", ".join(allowed())
            return Refusal("method-not-allowed", status=405, headers={"allow": allow})
        case HTTPException():  # a body that is not text, say
            return Refusal("bad-request", details={"where": "body"})
        case RequestValidationError():
            where = "; ".join(
                ".".join(str(p) for p in e.get("loc", ())[1:]) or "body" for e in error.errors()
            )
            return Refusal("bad-request", details={"where": where})
        case _:
            # A fault of the server's own (a bug), with the security headers, which the
            # middleware cannot add here. The game was not changed: an action counts only
            # once stored, and the cached record is replaced only after that.
            return Refusal("server-error", status=500, headers=SECURITY_HEADERS)


def say(request: Request, refusal: Refusal) -> JSONResponse:
    """``refusal`` in the words of the request's language."""
    lang = language(request)
    cause = refusal.__cause__
    if isinstance(cause, IllegalAction):
        words = explain(cause, lang)
    else:
        words = text(lang, refusal.words, **refusal.details)
    body = {"detail": words, "reason": refusal.reason, **refusal.reply}
    return JSONResponse(body, status_code=refusal.status, headers=refusal.headers)


def install(app: FastAPI, routers: Sequence[APIRouter] = ()) -> None:
    """``app`` says every refusal with :func:`say`: one handler for all of them.
    ``routers``: those the app includes, whose routes a 405 names with the app's own."""

    def allowed(request: Request) -> list[str]:
        """Every method the routes at the request's path take (Starlette's 405 names only
        the first route's)."""
        methods: set[str] = set()
        for route in chain(app.router.routes, *(router.routes for router in routers)):
            if isinstance(route, Route) and route.matches(request.scope)[0] is not Match.NONE:
                methods |= route.methods or set()
        return sorted(methods)

    async def refused(request: Request, error: Exception) -> JSONResponse:
        return say(request, as_refusal(error, lambda: allowed(request)))

    for kind in (Refusal, IllegalAction, HTTPException, RequestValidationError, Exception):
        app.add_exception_handler(kind, refused)
