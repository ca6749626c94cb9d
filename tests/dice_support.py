"""Dice a test scripts, for the API's tests and the page's: the faces the test names, in
order, then those of other dice (by default a fixed cycle)."""

from __future__ import annotations

import threading

from zar.dice import DiceSource

__all__ = ["ScriptedDice"]


class Cycle:
    """Dice that fall 2 3 4 5 6 1 2 3 … whatever is asked of them."""

    def __init__(self) -> None:
        self._turn = 0

    def roll(self, n: int) -> tuple[int, ...]:
        faces = []
        for _ in range(n):
            self._turn += 1
            faces.append(self._turn % 6 + 1)
        return tuple(faces)


class ScriptedDice:
    """The faces a test names, in order; then ``then``'s, one face at a time (a fixed
    cycle unless said). A server may roll them from another thread than the test's."""

    def __init__(self, then: DiceSource | None = None) -> None:
        self._queue: list[int] = []
        self._lock = threading.Lock()
        self._then = Cycle() if then is None else then

    def script(self, *faces: int) -> None:
        with self._lock:
            self._queue.extend(faces)

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()

    @property
    def scripted(self) -> int:
        """How many scripted faces are still to fall."""
        with self._lock:
            return len(self._queue)

    def roll(self, n: int) -> tuple[int, ...]:
        with self._lock:
            return tuple(
                self._queue.pop(0) if self._queue else self._then.roll(1)[0] for _ in range(n)
            )
