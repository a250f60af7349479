"""Any OpenAI-compatible chat-completions endpoint: hosted OpenAI, vLLM, llama.cpp server."""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
from typing import Any, ClassVar
from urllib.parse import urlsplit

import httpx
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


# Reply budgets: never ask for less than this (the server says so if even that does not fit).
MIN_REPLY_TOKENS = 32
DISCOVERY_TIMEOUT_S = 5.0
# The usage of every raw completion inside one structured call (instructor's re-asks included).
_attempts: contextvars.ContextVar[list[Usage] | None] = contextvars.ContextVar("factgrain_attempts", default=None)


def estimate_prompt_tokens(messages: Messages) -> int:
    """A deliberately high guess of a prompt's length in tokens, for sizing the reply budget:
    three ASCII characters a token (English BPE vocabularies average about four) and one token for
    every other character (CJK scripts come close to that), plus the chat template's few tokens
    per message."""
    total = 16
    for m in messages:
        text = m.get("content") or ""
        ascii_chars = sum(1 for ch in text if ord(ch) < 128)
        total += ascii_chars // 3 + (len(text) - ascii_chars) + 8
    return total


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
        # instructor reports each raw completion before it folds re-asks into one running total;
        # counting them here keeps failed attempts in ``usage``.
        self._instructor.on("completion:response", _count_attempt)
        # Server-specific request fields sent with every call (e.g. llama.cpp's cache_prompt).
        self.extra_body: dict[str, Any] = {}
        self._context: int | None = None
        self._context_known = False
        self._discovery: tuple[Any, asyncio.Task] | None = None  # (event loop, task) of a lookup in flight

    def __repr__(self) -> str:  # never shows the key
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r})"

    def choice_constraint(self, choices: list[str]) -> dict[str, Any]:
        """Server-specific request fields that restrict the reply to ``choices``."""
        return {}

    # -- the server's context, for reply budgets --------------------------------------------------
    def known_context_length(self) -> int | None:
        """The context (tokens per request) when it is known without asking the server."""
        return None

    async def discover_context_length(self) -> int | None:
        """Ask the server: vLLM lists ``max_model_len`` for each model in ``GET /v1/models``."""
        page = await self._client.with_options(timeout=DISCOVERY_TIMEOUT_S).models.list()
        for entry in page.data:
            if entry.id == self.model:
                value = (entry.model_extra or {}).get("max_model_len")
                return int(value) if value else None
        return None

    async def context_length(self) -> int | None:
        """The server's context length, looked up once per backend (None when it does not say)."""
        if self._context_known:
            return self._context
        known = self.known_context_length()
        if known is not None:
            self._context, self._context_known = known, True
            return known
        loop = asyncio.get_running_loop()
        if self._discovery is None or self._discovery[0] is not loop:  # concurrent first calls share one lookup
            self._discovery = (loop, loop.create_task(self._discover()))
        value = await asyncio.shield(self._discovery[1])
        self._context, self._context_known = value, True
        return value

    async def _discover(self) -> int | None:
        try:
            return await self.discover_context_length()
        except Exception:  # noqa: BLE001 - a server that cannot say gets uncapped budgets; the call itself reports faults
            return None

    async def reply_room(self, messages: Messages) -> tuple[int | None, int | None]:
        """(the most tokens a reply to ``messages`` may ask for, the context length): what the
        server's context leaves after a high estimate of the prompt, never below
        :data:`MIN_REPLY_TOKENS`; (None, None) when the server does not say."""
        context = await self.context_length()
        if context is None:
            return None, None
        return max(MIN_REPLY_TOKENS, context - estimate_prompt_tokens(messages)), context

    def endpoint(self) -> str:
        return self.cache_identity().get("endpoint") or (self.base_url or "")

    async def aclose(self) -> None:
        """Close the HTTP connections inside the event loop that opened them."""
        await self._client.close()

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
        room, _ = await self.reply_room(messages)
        budget = max_tokens if room is None else min(max_tokens, room)
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "max_tokens": budget,
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
            raise describe_failure(exc, attempts, self.endpoint()) from None
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
        room, window = await self.reply_room(messages)  # a cut-off reply never asks for more than this
        budget = max_tokens if room is None else min(max_tokens, room)
        extra = self.request_extras(messages)
        more: dict[str, Any] = {"extra_body": extra} if extra else {}
        truncations = 0
        spent: list[Usage] = []
        token = _attempts.set(spent)

        def cut_off(at: int, tries: int, last: Any) -> StructuredOutputError:
            why = (f"; the server's context of {window} tokens leaves no more room after this prompt"
                   if room is not None and at >= room else "")
            return StructuredOutputError(
                f"no complete {response_model.__name__} from {self.name}: the reply was cut off at "
                f"max_tokens={at} (finish_reason=length){why}", attempts=tries, last_completion=last)

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
                        cause = exc.__cause__
                        if isinstance(cause, openai.OpenAIError):
                            raise cause from cause.__cause__  # keep what it says (e.g. connection refused)
                        raise
                    except IncompleteOutputException as exc:
                        # The reply hit max_tokens: one more try with twice the budget (as far as the
                        # server's context allows), then give up naming the cut.
                        truncations += 1
                        if truncations > 1 or (room is not None and budget >= room):
                            raise cut_off(budget, truncations, _content(exc.last_completion)) from None
                        budget = budget * 2 if room is None else min(budget * 2, room)
                        raise ReplyTruncated() from None
        except InstructorRetryException as exc:
            raise StructuredOutputError(
                f"no valid {response_model.__name__} from {self.name}: {_first_line(exc)}",
                attempts=exc.n_attempts,
                last_completion=_content(exc.last_completion),
            ) from None
        except ReplyTruncated:  # the policy allowed no second try
            raise cut_off(budget, attempts, None) from None
        except TRANSPORT_ERRORS as exc:
            raise describe_failure(exc, attempts, self.endpoint()) from None
        finally:
            _attempts.reset(token)
            for u in spent:  # every attempt the server answered, failed ones too
                usage_meter.record(u)
        u = Usage()
        for one in spent:
            u.add(one)
        raw = completion.choices[0].message.content if completion.choices else ""
        return obj, ChatResult(text=raw or json.dumps(obj.model_dump()), usage=u,
                               finish_reason=completion.choices[0].finish_reason if completion.choices else None)


def _count_attempt(response: Any) -> None:
    """instructor's ``completion:response`` hook: the raw completion's own usage, read before
    instructor adds earlier attempts into it."""
    spent = _attempts.get()
    if spent is not None:
        spent.append(usage_from(response))


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
        # vLLM >= 0.10 reads structured_outputs. Sending the older guided_choice beside it makes
        # vLLM 0.32 log that the output will not be constrained (it is, by structured_outputs).
        return {"structured_outputs": {"choice": choices}}


def gbnf_choice(choices: list[str]) -> str:
    alternatives = " | ".join(json.dumps(c) for c in choices)
    return f"root ::= {alternatives}"


class LlamaCppBackend(OpenAICompatBackend):
    """A llama.cpp ``llama-server`` endpoint; choices become a GBNF grammar."""

    provider: ClassVar[str] = "llamacpp"
    default_base_url: ClassVar[str | None] = "http://127.0.0.1:8080/v1"

    def choice_constraint(self, choices: list[str]) -> dict[str, Any]:
        return {"grammar": gbnf_choice(choices)}

    async def discover_context_length(self) -> int | None:
        """llama.cpp's ``GET /props`` gives each slot's context as ``default_generation_settings.n_ctx``."""
        root = str(self._client.base_url).rstrip("/")
        root = root[: -len("/v1")] if root.endswith("/v1") else root
        response = await self._client.with_options(timeout=DISCOVERY_TIMEOUT_S).get(root + "/props", cast_to=httpx.Response)
        n_ctx = (response.json().get("default_generation_settings") or {}).get("n_ctx")
        return int(n_ctx) if n_ctx else None
