"""Per-check token accounting through a context variable, so concurrent checks never mix."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from factgrain.schemas.report import Usage

_current: contextvars.ContextVar[Usage | None] = contextvars.ContextVar("factgrain_usage", default=None)


def record(usage: Usage) -> None:
    meter = _current.get()
    if meter is not None:
        meter.add(usage)


@contextlib.contextmanager
def metering() -> Iterator[Usage]:
    """Collect the usage of every backend call made inside the block (and its tasks)."""
    meter = Usage()
    token = _current.set(meter)
    try:
        yield meter
    finally:
        _current.reset(token)
