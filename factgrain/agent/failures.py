"""The calls that failed during one check, collected through a context variable (as usage is), so
the evaluator can tell a partial failure (warnings naming the sentence) from a run in which every
call failed (an error: there is nothing to report)."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass

from factgrain.errors import FactgrainError


@dataclass
class Failure:
    stage: str  # "decompose" or "verify"
    sentences: list[int]
    error: FactgrainError


_current: contextvars.ContextVar[list[Failure] | None] = contextvars.ContextVar("factgrain_failures", default=None)


def record(stage: str, sentences: list[int], error: FactgrainError) -> None:
    found = _current.get()
    if found is not None:
        found.append(Failure(stage, list(sentences), error))


@contextlib.contextmanager
def collecting() -> Iterator[list[Failure]]:
    """Every failure recorded inside the block (and its tasks)."""
    found: list[Failure] = []
    token = _current.set(found)
    try:
        yield found
    finally:
        _current.reset(token)


def quote(text: str, limit: int = 80) -> str:
    """A sentence as warnings name it: on one line, cut to ``limit`` characters."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
