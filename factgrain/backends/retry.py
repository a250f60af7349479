"""Retry policy for transport faults: 429 (honouring Retry-After), 5xx, resets, timeouts."""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

import openai
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from factgrain.errors import BackendError


class ReplyTruncated(Exception):
    """A structured reply hit max_tokens; asked again at once with a larger budget."""


RETRYABLE = (
    openai.APIConnectionError,  # includes APITimeoutError and connection resets
    openai.RateLimitError,
    openai.InternalServerError,
    json.JSONDecodeError,  # a 200 whose body is not JSON: a proxy or server glitch
    ReplyTruncated,
)
# What a backend turns into a BackendError once the policy gives up.
TRANSPORT_ERRORS = (openai.OpenAIError, json.JSONDecodeError)


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
    headers = response.headers
    ms = headers.get("retry-after-ms")  # OpenAI and Azure send this finer hint
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:  # the HTTP-date form
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


@dataclass
class RetryPolicy:
    """Bounded, jittered exponential back-off; ``Retry-After`` wins when the server sends it."""

    attempts: int = 5
    base_delay: float = 0.5
    max_delay: float = 20.0

    def wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, ReplyTruncated):
            return 0.0  # not a server fault: ask again straight away
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


def server_message(exc: BaseException) -> str | None:
    """The explanation a server put in its error body (vLLM: ``{"object": "error", "message": ...}``;
    OpenAI: ``{"error": {"message": ...}}``), on one line, secrets masked; None when it sent none."""
    body = getattr(exc, "body", None)  # the openai client keeps body["error"] when there is one
    if isinstance(body, dict):
        inner = body.get("error") if isinstance(body.get("error"), dict) else body
        text = inner.get("message") or inner.get("detail") or inner.get("msg")
        if isinstance(text, list):  # FastAPI validation errors: a list of {"msg": ...}
            text = "; ".join(str(t.get("msg", t)) if isinstance(t, dict) else str(t) for t in text)
    elif isinstance(body, str):
        text = body
    else:
        text = None
    if not text:
        return None
    return _mask(" ".join(str(text).split()))[:500]


def describe_failure(exc: BaseException, attempts: int, endpoint: str | None = None) -> BackendError:
    """A BackendError carrying the server's own explanation (its error body's message), never
    request headers (and so never an API key): ``endpoint URL failed after N attempt(s): HTTP 404:
    The model `x` does not exist.``"""
    status = getattr(exc, "status_code", None)
    if isinstance(exc, json.JSONDecodeError):
        detail = "malformed response body (not JSON)"
    elif status:
        detail = f"HTTP {status}"
    else:
        detail = type(exc).__name__
        cause = exc.__cause__
        if isinstance(exc, openai.APIConnectionError) and cause is not None and str(cause):
            detail += f" ({_mask(str(cause))[:200]})"  # e.g. "[Errno 111] Connection refused"
    message = server_message(exc)
    if message:
        detail += f": {message}"
    where = f"endpoint {endpoint}" if endpoint else "endpoint"
    return BackendError(f"{where} failed after {attempts} attempt(s): {detail}")


# -- keeping keys out of logs -------------------------------------------------------------------
_SECRETS: set[str] = set()
# Loggers of the client libraries that may log a server's error body (which can echo the key).
_CLIENT_LOGGERS = ("instructor", "instructor.v2.retry", "openai", "openai._base_client", "httpx", "httpcore")


class _RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if _SECRETS:
            message = record.getMessage()
            redacted = message
            for secret in _SECRETS:
                redacted = redacted.replace(secret, "***")
            if redacted != message:
                record.msg, record.args = redacted, ()
        return True


_FILTER = _RedactSecrets()


def _mask(text: str) -> str:
    for secret in _SECRETS:
        text = text.replace(secret, "***")
    return text


def redact_in_logs(secret: str) -> None:
    """Replace ``secret`` with ``***`` in every record the client libraries log."""
    if len(secret) < 12:  # placeholders such as "embedded" are not secrets
        return
    _SECRETS.add(secret)
    for name in _CLIENT_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
