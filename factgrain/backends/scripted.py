"""A scripted backend shipped with the package: replies come from a list or a function.

Use it in tests and examples to drive every stage deterministically without a model::

    backend = ScriptedBackend(handler=lambda req: 0.9 if req.kind == "chat" else {...})

A reply may be a string (the completion text), a float ``p`` (a Yes/No answer whose first-token
logprobs give P(Yes) = p), a dict or a Pydantic object (for structured calls), or an exception
instance (raised, to simulate faults).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from factgrain.backends import usage as usage_meter
from factgrain.backends.base import Backend, ChatResult, M, Messages
from factgrain.errors import ConfigurationError, StructuredOutputError
from factgrain.schemas.report import Usage


@dataclass
class ScriptedRequest:
    kind: str  # "chat" or "structured"
    messages: Messages
    response_model: type[BaseModel] | None = None
    context: dict[str, Any] | None = None
    attempt: int = 1

    @property
    def last_user(self) -> str:
        return next((m["content"] for m in reversed(self.messages) if m["role"] == "user"), "")


def yes_no_logprobs(p_yes: float) -> list[dict[str, float]]:
    p = min(max(p_yes, 1e-6), 1 - 1e-6)
    return [{"Yes": math.log(p), "No": math.log(1 - p)}]


class ScriptedBackend(Backend):
    provider: ClassVar[str] = "scripted"

    def __init__(
        self,
        model: str = "scripted",
        *,
        responses: Iterable[Any] | None = None,
        handler: Callable[[ScriptedRequest], Any] | None = None,
        logprobs: bool = True,
        max_connections: int = 4,
    ):
        super().__init__(model, max_connections=max_connections)
        if responses is None and handler is None:
            raise ConfigurationError("ScriptedBackend needs responses= or handler=")
        self._queue = list(responses or [])
        self._handler = handler
        self.with_logprobs = logprobs
        self.requests: list[ScriptedRequest] = []

    def _next(self, request: ScriptedRequest) -> Any:
        self.requests.append(request)
        if self._handler is not None:
            reply = self._handler(request)
        elif self._queue:
            reply = self._queue.pop(0)
        else:
            raise ConfigurationError("ScriptedBackend ran out of scripted responses")
        if isinstance(reply, BaseException):
            raise reply
        return reply

    @staticmethod
    def _usage(messages: Messages, text: str) -> Usage:
        prompt = sum(len(m.get("content", "")) for m in messages) // 4
        return Usage(calls=1, prompt_tokens=prompt, completion_tokens=max(1, len(text) // 4))

    async def chat(self, messages: Messages, *, max_tokens: int = 256, temperature: float = 0.0,
                   top_logprobs: int = 0, choices: list[str] | None = None) -> ChatResult:
        reply = self._next(ScriptedRequest("chat", messages))
        if isinstance(reply, ChatResult):
            result = reply
        elif isinstance(reply, (int, float)) and not isinstance(reply, bool):
            text = "Yes" if reply >= 0.5 else "No"
            result = ChatResult(text=text, finish_reason="length",
                                top_logprobs=yes_no_logprobs(float(reply)) if self.with_logprobs else None)
        else:
            result = ChatResult(text=str(reply), finish_reason="stop")
        if not top_logprobs or not self.with_logprobs:
            result.top_logprobs = None
        result.usage = self._usage(messages, result.text)
        usage_meter.record(result.usage)
        return result

    async def structured(self, messages: Messages, response_model: type[M], *,
                         context: dict[str, Any] | None = None, max_retries: int = 2,
                         max_tokens: int = 1024) -> tuple[M, ChatResult]:
        last_text = None
        attempts = max_retries + 1
        for attempt in range(1, attempts + 1):
            reply = self._next(ScriptedRequest("structured", messages, response_model, context, attempt))
            if isinstance(reply, BaseModel):
                reply = reply.model_dump(mode="json")
            text = reply if isinstance(reply, str) else json.dumps(reply)
            last_text = text
            try:
                obj = response_model.model_validate_json(text, context=context)
            except ValidationError:
                continue
            result = ChatResult(text=text, finish_reason="stop", usage=self._usage(messages, text))
            usage_meter.record(result.usage)
            return obj, result
        raise StructuredOutputError(f"no valid {response_model.__name__} from {self.name}",
                                    attempts=attempts, last_completion=last_text)
