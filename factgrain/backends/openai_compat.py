"""Any OpenAI-compatible chat-completions endpoint: hosted OpenAI, vLLM, llama.cpp server."""

from __future__ import annotations

import json
import os
from typing import Any, ClassVar
from urllib.parse import urlsplit

import instructor
import openai
try:
    from instructor.core.exceptions import IncompleteOutputException, InstructorRetryException
except ImportError:  # instructor < 1.11
    from instructor.exceptions import IncompleteOutputException, InstructorRetryException  # type: ignore[no-redef]

from factgrain.backends import usage as usage_meter
from factgrain.backends.base import Backend, ChatResult, M, Messages
from factgrain.backends.retry import (
    TRANSPORT_ERRORS,
    ReplyTruncated,
    RetryPolicy,
    describe_failure,
    redact_in_logs,
)
from factgrain.errors import BackendError, ConfigurationError, StructuredOutputError
from factgrain.schemas.report import Usage


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


def usage_from(completion: Any) -> Usage:
    u = getattr(completion, "usage", None)
    if u is None:
        return Usage(calls=1)
    details = getattr(u, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) or 0
    return Usage(
        calls=1,
        prompt_tokens=u.prompt_tokens or 0,
        completion_tokens=u.completion_tokens or 0,
        cached_tokens=cached,
    )


class OpenAICompatBackend(Backend):
    """Chat completions over HTTP with the ``openai`` client; structured output via instructor
    in JSON-schema mode (schema-constrained decoding on vLLM and llama.cpp)."""

    provider: ClassVar[str] = "openai"
    default_base_url: ClassVar[str | None] = None

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        max_connections: int = 8,
        timeout: float = 120.0,
        retry: RetryPolicy | None = None,
        http_client: Any = None,
    ):
        super().__init__(model, max_connections=max_connections)
        self.base_url = base_url or _env("FACTGRAIN_BASE_URL", "OPENAI_BASE_URL") or self.default_base_url
        key = api_key or _env("FACTGRAIN_API_KEY", "OPENAI_API_KEY")
        if self.base_url is None and key is None:
            raise ConfigurationError(
                f"backend {self.provider!r} needs a base URL or an API key: pass --base-url / "
                "base_url=, or set FACTGRAIN_BASE_URL (or OPENAI_BASE_URL) and FACTGRAIN_API_KEY"
            )
        self.retry = retry or RetryPolicy()
        if key:
            redact_in_logs(key)  # client libraries log server error bodies, which may echo the key
        # Retries are ours (tenacity), so the client's own are off.
        self._client = openai.AsyncOpenAI(
            base_url=self.base_url,
            api_key=key or "not-needed",
            timeout=timeout,
            max_retries=0,
            http_client=http_client,
        )
        self._instructor = instructor.from_openai(self._client, mode=instructor.Mode.JSON_SCHEMA)
        # Server-specific request fields sent with every call (e.g. llama.cpp's cache_prompt).
        self.extra_body: dict[str, Any] = {}

    def __repr__(self) -> str:  # never shows the key
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r})"

    def choice_constraint(self, choices: list[str]) -> dict[str, Any]:
        """Server-specific request fields that restrict the reply to ``choices``."""
        return {}

    def request_extras(self, messages: Messages) -> dict[str, Any]:
        """Extra request fields for this call; subclasses route to a server slot here."""
        return dict(self.extra_body)

    def cache_identity(self) -> dict[str, Any]:
        # The endpoint without credentials or query: user:password@ and ?key= never reach a cache key.
        url = urlsplit(self.base_url or "")
        host = url.hostname or ""
        endpoint = f"{url.scheme}://{host}{':' + str(url.port) if url.port else ''}{url.path.rstrip('/')}" if host else ""
        return {**super().cache_identity(), "endpoint": endpoint}

    async def chat(
        self,
        messages: Messages,
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        top_logprobs: int = 0,
        choices: list[str] | None = None,
    ) -> ChatResult:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "max_tokens": max_tokens,
                                  "temperature": temperature}
        if top_logprobs and self.supports_logprobs:
            kwargs.update(logprobs=True, top_logprobs=top_logprobs)
        extra = {**self.request_extras(messages), **(self.choice_constraint(choices) if choices else {})}
        if extra:
            kwargs["extra_body"] = extra
        attempts = 0
        try:
            async for attempt in self.retry.retrying():
                with attempt:
                    attempts += 1
                    completion = await self._client.chat.completions.create(**kwargs)
        except TRANSPORT_ERRORS as exc:
            raise describe_failure(exc, attempts) from None
        return self._to_result(completion)

    def _to_result(self, completion: Any) -> ChatResult:
        if not completion.choices:
            raise BackendError("endpoint returned no choices")
        choice = completion.choices[0]
        top: list[dict[str, float]] | None = None
        lp = getattr(choice, "logprobs", None)
        if lp is not None and getattr(lp, "content", None):
            top = []
            for tok in lp.content:
                entries = {t.token: t.logprob for t in (tok.top_logprobs or [])}
                entries.setdefault(tok.token, tok.logprob)
                top.append(entries)
        u = usage_from(completion)
        usage_meter.record(u)
        return ChatResult(
            text=choice.message.content or "",
            finish_reason=choice.finish_reason,
            top_logprobs=top,
            usage=u,
        )

    async def structured(
        self,
        messages: Messages,
        response_model: type[M],
        *,
        context: dict[str, Any] | None = None,
        max_retries: int = 2,
        max_tokens: int = 1024,
    ) -> tuple[M, ChatResult]:
        attempts = 0
        budget = max_tokens
        extra = self.request_extras(messages)
        more: dict[str, Any] = {"extra_body": extra} if extra else {}
        truncations = 0
        try:
            async for attempt in self.retry.retrying():
                with attempt:
                    attempts += 1
                    try:
                        obj, completion = await self._instructor.chat.completions.create_with_completion(
                            model=self.model,
                            messages=messages,
                            response_model=response_model,
                            max_retries=max_retries,
                            context=context,
                            max_tokens=budget,
                            temperature=0.0,
                            **more,
                        )
                    except InstructorRetryException as exc:
                        # instructor wraps transport faults too; hand those back to our retry policy.
                        if isinstance(exc.__cause__, openai.OpenAIError):
                            raise exc.__cause__ from None
                        raise
                    except IncompleteOutputException as exc:
                        # The reply hit max_tokens: one more try with twice the budget, then give up.
                        truncations += 1
                        if truncations > 1:
                            raise StructuredOutputError(
                                f"no complete {response_model.__name__} from {self.name}: the reply was cut off "
                                f"at max_tokens={budget} (finish_reason=length)",
                                attempts=truncations, last_completion=_content(exc.last_completion),
                            ) from None
                        budget *= 2
                        raise ReplyTruncated() from None
        except InstructorRetryException as exc:
            raise StructuredOutputError(
                f"no valid {response_model.__name__} from {self.name}: {_first_line(exc)}",
                attempts=exc.n_attempts,
                last_completion=_content(exc.last_completion),
            ) from None
        except ReplyTruncated:  # the policy allowed no second try
            raise StructuredOutputError(
                f"no complete {response_model.__name__} from {self.name}: the reply was cut off at "
                f"max_tokens={max_tokens} (finish_reason=length)", attempts=attempts, last_completion=None,
            ) from None
        except TRANSPORT_ERRORS as exc:
            raise describe_failure(exc, attempts) from None
        u = usage_from(completion)
        usage_meter.record(u)
        raw = completion.choices[0].message.content if completion.choices else ""
        return obj, ChatResult(text=raw or json.dumps(obj.model_dump()), usage=u,
                               finish_reason=completion.choices[0].finish_reason if completion.choices else None)


def _content(completion: Any) -> str | None:
    if completion is None:
        return None
    try:
        return completion.choices[0].message.content
    except Exception:  # noqa: BLE001 - best effort to keep the raw reply
        return str(completion)


def _first_line(exc: BaseException) -> str:
    cause = exc.__cause__ or exc  # instructor's own text is a dump of every attempt
    text = str(cause).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


class VLLMBackend(OpenAICompatBackend):
    """A ``vllm serve`` endpoint; same protocol, plus its structured-output choice constraint."""

    provider: ClassVar[str] = "vllm"
    default_base_url: ClassVar[str | None] = "http://127.0.0.1:8000/v1"

    def choice_constraint(self, choices: list[str]) -> dict[str, Any]:
        # vLLM >= 0.10 reads structured_outputs; older releases read guided_choice.
        return {"structured_outputs": {"choice": choices}, "guided_choice": choices}


def gbnf_choice(choices: list[str]) -> str:
    alternatives = " | ".join(json.dumps(c) for c in choices)
    return f"root ::= {alternatives}"


class LlamaCppBackend(OpenAICompatBackend):
    """A llama.cpp ``llama-server`` endpoint; choices become a GBNF grammar."""

    provider: ClassVar[str] = "llamacpp"
    default_base_url: ClassVar[str | None] = "http://127.0.0.1:8080/v1"

    def choice_constraint(self, choices: list[str]) -> dict[str, Any]:
        return {"grammar": gbnf_choice(choices)}
