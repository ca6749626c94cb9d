"""What a cache may keep of a reply: nothing of a device's own.

A game, its log, review, progress and export, the lists and the statistics are what one
device may read, by its cookie: a shared cache (a proxy, a CDN in front of the server)
that kept one would hand it to the next asker, and a browser's would keep it on disk after
the device left the table. Every reply under :data:`PRIVATE_PATHS`, refusals included,
says ``Cache-Control: private, no-store`` and ``Vary: Cookie``; the page's words and setup,
the same for everyone, are left to their own rules.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["PRIVATE", "PRIVATE_PATHS", "PrivateReplies"]

PRIVATE = "private, no-store"
PRIVATE_PATHS = ("/api/games", "/api/invitations", "/api/stats")


class PrivateReplies:
    """Marks every reply to a path under :data:`PRIVATE_PATHS` as :data:`PRIVATE`, varying
    with the cookie; a reply that says its own ``Cache-Control`` (the event stream's
    ``no-store``) keeps it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope["path"]).startswith(PRIVATE_PATHS):
            await self.app(scope, receive, send)
            return

        async def send_private(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("cache-control", PRIVATE)
                headers.add_vary_header("Cookie")
            await send(message)

        await self.app(scope, receive, send_private)
