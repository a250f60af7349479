"""Progress display on standard error, only when it is a terminal (or forced)."""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any


def enabled() -> bool:
    if os.environ.get("FACTGRAIN_PROGRESS") == "0":
        return False
    return sys.stderr.isatty() or os.environ.get("FACTGRAIN_PROGRESS") == "1"


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


# Stage progress inside one check: the decomposer and verifier report each finished piece here;
# the CLI shows a bar per stage. Library callers see nothing unless they install a reporter.
_reporter: contextvars.ContextVar[Callable[[str, int], None] | None] = contextvars.ContextVar(
    "factgrain_progress", default=None)


def advance(stage: str, total: int) -> None:
    """One more ``stage`` item of ``total`` is done."""
    reporter = _reporter.get()
    if reporter is not None:
        reporter(stage, total)


@contextlib.contextmanager
def stages(label: str) -> Iterator[None]:
    """Show one bar per stage (decompose, verify) while the block runs; a spinner until the first."""
    if not enabled():
        yield
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    tasks: dict[str, Any] = {}
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as prog:
        tasks[""] = prog.add_task(label, total=None)

        def report(stage: str, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = prog.add_task(f"{label}: {stage}", total=total)
            prog.advance(tasks[stage], 1)

        token = _reporter.set(report)
        try:
            yield
        finally:
            _reporter.reset(token)
