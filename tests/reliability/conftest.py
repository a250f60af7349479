"""Reliability tests never sleep: back-off waits are recorded and replaced by zero."""

from __future__ import annotations

import pytest

from factgrain.backends import retry


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch) -> list[float]:
    """The waits the retry policy asked for, in order (each one skipped)."""
    asked: list[float] = []
    original = retry.RetryPolicy.wait

    def wait(self, state):
        asked.append(original(self, state))
        return 0.0

    monkeypatch.setattr(retry.RetryPolicy, "wait", wait)
    return asked
