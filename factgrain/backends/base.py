"""The one small async interface every LLM backend implements."""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel

from factgrain.schemas.report import Usage

M = TypeVar("M", bound=BaseModel)

Messages = list[dict[str, str]]


@dataclass
class ChatResult:
    """One completion: the text, the first tokens' top logprobs (if asked), usage."""

    text: str
    finish_reason: str | None = None
    top_logprobs: list[dict[str, float]] | None = None
    usage: Usage = field(default_factory=Usage)
    cached: bool = False


class Backend(abc.ABC):
    """An LLM reachable through chat completions.

    Subclasses implement :meth:`chat` and :meth:`structured`. ``max_connections`` bounds the
    concurrent requests the evaluator sends to this backend.
    """

    provider: ClassVar[str] = "abstract"
    supports_logprobs: ClassVar[bool] = True

    def __init__(self, model: str, *, max_connections: int = 4):
        self.model = model
        self.max_connections = max_connections

    @property
    def name(self) -> str:
        return f"{self.provider}/{self.model}"

    @abc.abstractmethod
    async def chat(
        self,
        messages: Messages,
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        top_logprobs: int = 0,
        choices: list[str] | None = None,
    ) -> ChatResult:
        """Plain completion. ``choices`` asks the server to constrain the reply to one of them
        where it can (llama.cpp grammar, vLLM structured outputs); others ignore it."""

    @abc.abstractmethod
    async def structured(
        self,
        messages: Messages,
        response_model: type[M],
        *,
        context: dict[str, Any] | None = None,
        max_retries: int = 2,
        max_tokens: int = 1024,
    ) -> tuple[M, ChatResult]:
        """Completion parsed into ``response_model``; validators see ``context`` and failures
        are re-asked up to ``max_retries`` times, then :class:`StructuredOutputError`."""

    def cache_identity(self) -> dict[str, Any]:
        """What names this backend in a call-cache key: whatever changes its replies for the same
        request, never a secret. Subclasses add their endpoint."""
        return {"provider": self.provider, "model": self.model}

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release connections; the default has nothing to release."""
