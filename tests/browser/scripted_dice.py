"""Dice a browser test can script, for the rare events: a hot dice, a Penta, a lost turn."""

from __future__ import annotations

import random
import threading


class ScriptedDice:
    """The faces a test names, in order; then the operating system's randomness."""

    def __init__(self) -> None:
        self._queue: list[int] = []
        self._lock = threading.Lock()
        self._random = random.SystemRandom()

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
                self._queue.pop(0) if self._queue else self._random.randint(1, 6) for _ in range(n)
            )
