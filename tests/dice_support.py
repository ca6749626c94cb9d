"""Dice a test scripts, for the API's tests and the page's: the faces the test names, in
order, then those of other dice (by default a fixed cycle)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from zar.dice import DiceSource

__all__ = ["ScriptedDice", "one_die_at_a_time"]

# A 10 000 turn that sets aside one die at a time, six times: 1, 5, 1, 5, 1, 5 (hot dice).
ONE_AT_A_TIME = [(1, 2, 3, 4, 6, 6), (5, 2, 3, 4, 6), (1, 2, 3, 4), (5, 2, 3), (1, 2), (5,)]


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


def one_die_at_a_time(
    dice: ScriptedDice,
    throw: Callable[[], object],
    take: Callable[[int], object],
    then: tuple[int, ...] = (2, 3, 4, 6, 6, 1),
) -> None:
    """The longest strip a turn's hot dice leave, played as a person would: six set-asides
    of one die each (``take(face)``), each thrown on (``throw()``), the sixth's throw the
    six dice again, showing ``then``."""
    dice.script(*ONE_AT_A_TIME[0])
    throw()
    for this, following in zip(ONE_AT_A_TIME, [*ONE_AT_A_TIME[1:], then], strict=True):
        take(this[0])
        dice.script(*following)
        throw()
