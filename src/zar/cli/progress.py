"""A progress bar on standard error while a strategy is built or games are backed up or
restored, so stdout keeps the figures.

>>> with BuildBar("solving") as bar:
...     pass
>>> bar.started
False
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console as RichConsole
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

__all__ = ["BuildBar"]


class BuildBar:
    """Pass it as a build's ``progress(done, total)``: the bar shows from the first report
    on (a strategy read from the cache shows none) and goes when the ``with`` block ends."""

    def __init__(self, title: str) -> None:
        self.title = title
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    @property
    def started(self) -> bool:
        """Whether anything was built (the bar was shown)."""
        return self._progress is not None

    def __call__(self, done: int, total: int) -> None:
        if self._progress is None:
            self._progress = Progress(
                TextColumn(self.title),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f} %"),
                TimeElapsedColumn(),
                console=RichConsole(stderr=True),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.title, total=total)
        assert self._task is not None
        self._progress.update(self._task, completed=done)

    def __enter__(self) -> BuildBar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
