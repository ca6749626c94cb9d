"""What a request says of its asker: the language to answer in, whether it comes from this
machine, from which address."""

from __future__ import annotations

import ipaddress

from starlette.requests import Request

from zar.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language

__all__ = ["address", "here", "language"]


def language(request: Request) -> Language:
    """``?lang=`` first, then the browser's languages, then Turkish."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


def here(request: Request) -> bool:
    """Whether the request comes from this machine (loopback): the first device to open a
    game stored before seats had holders becomes its host, from here only."""
    client = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(client).is_loopback
    except ValueError:
        return client in ("testclient", "localhost")


def address(request: Request) -> str:
    """The client's address, as the caps on what one client may hold count it."""
    return request.client.host if request.client else ""
