"""One error hierarchy for the whole package.

The CLI prints any :class:`FactgrainError` as a one-line message (no traceback) and exits with
its ``exit_code``.
"""

from __future__ import annotations


class FactgrainError(Exception):
    """Base class of every error factgrain raises on purpose."""

    exit_code = 1


class InputError(FactgrainError, ValueError):
    """The text, reference or question given to factgrain cannot be evaluated."""

    exit_code = 2


class ConfigurationError(FactgrainError):
    """A model string, URL, key or option is wrong or missing."""

    exit_code = 3


class MissingExtraError(FactgrainError, ImportError):
    """An optional dependency is not installed; the message names the pip command."""

    exit_code = 3

    def __init__(self, extra: str, package: str):
        self.extra = extra
        self.package = package
        super().__init__(
            f"{package!r} is not installed; it is needed for this feature. "
            f"Install it with: pip install 'factgrain[{extra}]'"
        )


class BackendError(FactgrainError):
    """The LLM endpoint failed after all retries (transport fault, server error)."""

    exit_code = 4


class StructuredOutputError(FactgrainError):
    """The model never produced output that validated against the schema.

    Carries the number of attempts and the last raw completion so nothing is lost.
    """

    exit_code = 4

    def __init__(self, message: str, *, attempts: int, last_completion: str | None):
        self.attempts = attempts
        self.last_completion = last_completion
        super().__init__(f"{message} (after {attempts} attempt(s))")
