"""Processes of their own for what takes the server's processor a long while (the tables
a game asks for): spawned, at a lower priority, going with the server.

Going with it whatever signal they heard: as the server exits, each still running is
killed, and none is started after (:class:`Ending`). A SIGTERM is not enough: a process
spawned while the main thread had SIGTERM ignored for a moment (starting the accounts'
process) starts with it ignored, and the exit would wait for it to end by itself, a table
of half an hour later."""

from __future__ import annotations

import atexit
import multiprocessing
import multiprocessing.util  # its exit handler registered before :func:`_end`: run after it
import os
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing.process import BaseProcess

from zar.server.accounts import deaf_to_ctrl_c

__all__ = ["LOWEST", "Ending", "own_process"]

LOWEST = 19  # the niceness of a process that runs only when nothing else would


class Ending(RuntimeError):
    """The server is exiting: no process of its own is started any more."""


_lock = threading.Lock()
_running: list[BaseProcess] = []  # started here, maybe still running
_ended = False


def own_process(target: Callable[..., object], *args: object, niceness: int = 10) -> BaseProcess:
    """``target(*args)`` (a module's function) run in a process of its own, started now
    (spawn: the server's threads are not forked), ``niceness`` lower in priority (at most
    :data:`LOWEST`), deaf to a terminal's Ctrl-C (which the server hears, and ends it as it
    exits); a daemon: it goes with the server (killed as it exits: :func:`_end`), and ends
    by itself if the server was killed. Raises :class:`Ending` once the server exits."""
    with _lock:
        if _ended:
            raise Ending("the server is exiting")
        with deaf_to_ctrl_c(signal.SIGINT):
            process = multiprocessing.get_context("spawn").Process(
                target=_lower, args=(niceness, target, *args), name="zar-tables", daemon=True
            )
            process.start()
        _running[:] = [*(p for p in _running if p.is_alive()), process]
    return process


@atexit.register
def _end() -> None:
    # Run before multiprocessing's own exit (registered earlier, run later), which would
    # wait for each process it could not stop with a SIGTERM.
    global _ended
    with _lock:
        _ended = True
        running = [p for p in _running if p.is_alive()]
    for process in running:
        process.kill()


def _lower(niceness: int, target: Callable[..., object], *args: object) -> None:
    # Started from a thread other than the main one, it heard Ctrl-C until now; it may have
    # started with SIGTERM ignored (see above): a SIGTERM ends it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.nice(niceness)
    parent = multiprocessing.parent_process()
    if parent is not None:  # a server killed outright leaves no one to read what is made
        threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
    try:
        target(*args)
    except Exception as error:  # said; a game that asks for it again has it made again
        print(f"zar: the tables were not readied ahead: {error!r}", file=sys.stderr, flush=True)


def _orphaned(parent: BaseProcess) -> None:
    parent.join()
    os._exit(0)
