"""The backend of a check with no model configured: every stage runs offline (spaCy's parse,
the lexical verifier), so nothing should ever ask it for a completion. When a stage does (a
forced ``--span-mode free``, ``--verifier llm``, ``--reflect-mode full``, ``revise``), the call
is a configuration error that says which model to configure - never a silent empty reply."""

from __future__ import annotations

from typing import Any, ClassVar

from factgrain.backends.base import Backend, ChatResult, M, Messages
from factgrain.errors import ConfigurationError

OFFLINE_MODEL = "none"


class OfflineBackend(Backend):
    provider: ClassVar[str] = "offline"
    supports_logprobs: ClassVar[bool] = False

    def __init__(self, model: str | None = None, **_ignored: Any):
        super().__init__(model or OFFLINE_MODEL, max_connections=8)

    def _refuse(self) -> ConfigurationError:
        return ConfigurationError(
            "no model is configured, and this step needs one (the offline default decomposes with spaCy and "
            "verifies with the lexical verifier, without a model); pass --model provider/model, e.g. "
            "embedded/<file.gguf>, vllm/<name> or openai/<name> (or set FACTGRAIN_MODEL)")

    async def chat(self, messages: Messages, *, max_tokens: int = 256, temperature: float = 0.0,
                   top_logprobs: int = 0, choices: list[str] | None = None) -> ChatResult:
        raise self._refuse()

    async def structured(self, messages: Messages, response_model: type[M], *, context: dict[str, Any] | None = None,
                         max_retries: int = 2, max_tokens: int = 1024) -> tuple[M, ChatResult]:
        raise self._refuse()
