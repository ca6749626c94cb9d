"""What the app will not do, and why: one family of errors.

A :class:`Refusal` carries its HTTP status, a stable ``reason`` (what a client reads), the
key of its words in the player's language (``words``, the reason unless said otherwise) and
the values those words name (``details``); what its reply carries beside the words
(``reply``, such as the version a stale action missed) and its headers (``headers``, such as
``Retry-After``). Whoever refuses raises one; the server writes every one of them the same
way (:mod:`zar.server.refusals`), and the engine's own refusal, ``IllegalAction``, is one of
them as a 422 (:func:`zar.server.refusals.as_refusal`). Nothing is changed by a refusal.

>>> error = TooMany("too-many-undos", 3)
>>> error.status, error.reason, dict(error.details), error.headers
(429, 'too-many-undos', {'seconds': 3}, {'retry-after': '3'})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = ["Forbidden", "Refusal", "TooMany"]


class Refusal(Exception):
    """An asking refused with ``status`` (422 unless its kind or ``status`` says otherwise)
    for ``reason``, said by the words ``words`` (else the reason's) naming ``details``."""

    status: ClassVar[int] = 422

    def __init__(
        self,
        reason: str,
        *,
        status: int | None = None,
        words: str | None = None,
        reply: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        details: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        if status is not None:
            self.status = status  # type: ignore[misc]  # this one's, not its kind's
        self.words = words or reason
        self.details: Mapping[str, object] = dict(details or {})
        self.reply: dict[str, Any] = dict(reply or {})
        self.headers: dict[str, str] = dict(headers or {})


class Forbidden(Refusal):
    """A device asked for what its credential does not grant (who may do what:
    :mod:`zar.server.rights`)."""

    status = 403

    def __init__(self, reason: str, **details: object) -> None:
        super().__init__(reason, words=f"forbidden-{reason}", details=details)


class TooMany(Refusal):
    """A client asked more often, or holds more, than it may: it may again in ``seconds``."""

    status = 429

    def __init__(
        self, reason: str, seconds: int, *, words: str | None = None, **details: object
    ) -> None:
        super().__init__(
            reason,
            words=words,
            headers={"retry-after": str(seconds)},
            details={"seconds": seconds, **details},
        )
        self.seconds = seconds
