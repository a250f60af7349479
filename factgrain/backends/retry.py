"""Retry policy for transport faults: 429 (honouring Retry-After), 5xx, resets, timeouts."""

from __future__ import annotations

import random
from dataclasses import dataclass

import openai
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from factgrain.errors import BackendError

RETRYABLE = (
    openai.APIConnectionError,  # includes APITimeoutError and connection resets
    openai.RateLimitError,
    openai.InternalServerError,
)


def _is_retryable(exc: BaseException) -> bool:
    if isinstance(exc, RETRYABLE):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code in (408, 409, 429) or (
        isinstance(exc, openai.APIStatusError) and exc.status_code >= 500
    )


def _retry_after(exc: BaseException | None) -> float | None:
    response = getattr(exc, "response", None)
    if response is None:
        return None
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


@dataclass
class RetryPolicy:
    """Bounded, jittered exponential back-off; ``Retry-After`` wins when the server sends it."""

    attempts: int = 5
    base_delay: float = 0.5
    max_delay: float = 20.0

    def wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        hinted = _retry_after(exc)
        if hinted is not None:
            return min(hinted, self.max_delay)
        ceiling = min(self.max_delay, self.base_delay * 2 ** (state.attempt_number - 1))
        return random.uniform(0, ceiling)

    def retrying(self) -> AsyncRetrying:
        return AsyncRetrying(
            retry=retry_if_exception(_is_retryable),
            stop=stop_after_attempt(self.attempts),
            wait=self.wait,
            reraise=True,
        )


def describe_failure(exc: BaseException, attempts: int) -> BackendError:
    """A BackendError whose text never carries request headers (and so never an API key)."""
    status = getattr(exc, "status_code", None)
    kind = type(exc).__name__
    detail = f"HTTP {status}" if status else kind
    return BackendError(f"endpoint failed after {attempts} attempt(s): {detail}")
