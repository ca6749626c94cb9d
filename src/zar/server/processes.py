"""Processes of their own for what takes the server's processor a long while (the tables
a game asks for): spawned, at a lower priority, going with the server."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing.process import BaseProcess

from zar.server.accounts import deaf_to_ctrl_c

__all__ = ["LOWEST", "own_process"]

LOWEST = 19  # the niceness of a process that runs only when nothing else would


def own_process(target: Callable[..., object], *args: object, niceness: int = 10) -> BaseProcess:
    """``target(*args)`` (a module's function) run in a process of its own, started now
    (spawn: the server's threads are not forked), ``niceness`` lower in priority (at most
    :data:`LOWEST`), deaf to a terminal's Ctrl-C (which the server hears, and ends it as it
    exits); a daemon: it goes with the server, and ends by itself if the server was killed."""
    with deaf_to_ctrl_c(signal.SIGINT):
        process = multiprocessing.get_context("spawn").Process(
            target=_lower, args=(niceness, target, *args), name="zar-tables", daemon=True
        )
        process.start()
    return process


def _lower(niceness: int, target: Callable[..., object], *args: object) -> None:
    # Started from a thread other than the main one, it heard Ctrl-C until now.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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
