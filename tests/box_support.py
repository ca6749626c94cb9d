"""Boxes on a page as a browser measures them (``x``, ``y``, ``w``, ``h`` in CSS pixels),
for the layout checks of the Chromium suite and of the Firefox and WebKit one alike."""

from __future__ import annotations

__all__ = ["Box", "assert_clear_of_others", "overlap"]

Box = dict[str, float]


def overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share any area (touching edges do not)."""
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and (a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])
    )


def assert_clear_of_others(labels: list[Box], dice: list[Box], outline: float) -> None:
    """Each die's label (the ``n``-th label the ``n``-th die's) clear of every other die,
    grown by its ``outline`` on every side."""
    for n, where in enumerate(labels):
        for m, other in enumerate(dice):
            if m == n:
                continue
            grown = {k: other[k] - outline for k in ("x", "y")}
            grown |= {k: other[k] + 2 * outline for k in ("w", "h")}
            assert not overlap(where, grown), (n, where, m, other)
