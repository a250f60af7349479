"""Progress display on standard error, only when it is a terminal (or forced)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator


def enabled() -> bool:
    if os.environ.get("FACTGRAIN_PROGRESS") == "0":
        return False
    return sys.stderr.isatty() or os.environ.get("FACTGRAIN_PROGRESS") == "1"


@contextlib.contextmanager
def spinner(label: str) -> Iterator[None]:
    if not enabled():
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(label):
        yield


@contextlib.contextmanager
def bar(total: int | None, label: str) -> Iterator:
    """A progress bar; yields ``advance(n=1)``."""
    if not enabled():
        yield lambda n=1: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=__import__("rich.console").console.Console(stderr=True)) as prog:
        task = prog.add_task(label, total=total)
        yield lambda n=1: prog.advance(task, n)
