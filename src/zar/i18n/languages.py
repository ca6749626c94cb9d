"""The interface's languages: Turkish (the default, the seeds'), French and English."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "Language"]

Language = Literal["tr", "fr", "en"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
DEFAULT_LANGUAGE: Language = "tr"
