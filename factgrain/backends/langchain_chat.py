"""A LangChain chat model as a factgrain backend.

Pass any ``BaseChatModel`` object as ``model=`` (``ChatOpenAI(base_url=...)``, ``ChatAnthropic``,
``ChatOllama``...), or write ``langchain/<model>`` to get a ``ChatOpenAI`` on the configured base URL.

- Plain completions ask for logprobs where the model class has a ``logprobs`` setting (the
  OpenAI-style chat models); elsewhere none come back and the LLM verifier falls back to the hard
  Yes/No answer, marking it ``hard_answer_only``.
- Structured output goes through the model's ``with_structured_output`` (JSON schema first, then its
  default method); a model without one is asked for JSON by instruction. Either way the reply is
  validated here, with the caller's validation context, and a failure is re-asked with the
  validation errors, up to ``max_retries`` times.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from factgrain.backends import usage as usage_meter
from factgrain.backends.base import Backend, ChatResult, M, Messages
from factgrain.errors import BackendError, ConfigurationError, FactgrainError, MissingExtraError, StructuredOutputError
from factgrain.schemas.report import Usage

STRUCTURED_METHODS = ("auto", "json_schema", "function_calling", "json_mode", "prompt")


def is_chat_model(obj: Any) -> bool:
    """True for a LangChain ``BaseChatModel`` instance, checked without importing LangChain."""
    return any(c.__name__ == "BaseChatModel" and c.__module__.startswith("langchain_core")
               for c in type(obj).__mro__)


def _fields(model: Any) -> set[str]:
    return set(getattr(type(model), "model_fields", {}) or {})


def _text_of(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, str):
        return content
    parts = []
    for block in content or []:  # content blocks (Anthropic and others)
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(block.get("text", ""))
    return "".join(parts)


def _usage_of(message: Any) -> Usage:
    meta = getattr(message, "usage_metadata", None) or {}
    details = meta.get("input_token_details") or {}
    return Usage(calls=1, prompt_tokens=meta.get("input_tokens", 0) or 0,
                 completion_tokens=meta.get("output_tokens", 0) or 0,
                 cached_tokens=details.get("cache_read", 0) or 0)


def _top_logprobs_of(message: Any) -> list[dict[str, float]] | None:
    """OpenAI-shaped ``response_metadata["logprobs"]["content"]`` -> one {token: logprob} per position."""
    lp = (getattr(message, "response_metadata", None) or {}).get("logprobs")
    content = lp.get("content") if isinstance(lp, dict) else None
    if not content:
        return None
    out = []
    for tok in content:
        entries = {t["token"]: t["logprob"] for t in tok.get("top_logprobs") or []}
        entries.setdefault(tok["token"], tok["logprob"])
        out.append(entries)
    return out


class _ReplyCut(Exception):
    """The provider's client refused a reply cut at the token budget (the text so far, if it says)."""

    def __init__(self, exc: Exception):
        super().__init__(str(exc))
        completion = getattr(exc, "completion", None)
        try:
            self.text = completion.choices[0].message.content or ""
        except (AttributeError, IndexError):
            self.text = ""
        used = getattr(completion, "usage", None)  # the call was made and billed: count it
        self.usage = Usage(calls=1, prompt_tokens=getattr(used, "prompt_tokens", 0) or 0,
                           completion_tokens=getattr(used, "completion_tokens", 0) or 0)


def _finish_reason(message: Any) -> str | None:
    """Why the provider stopped, in OpenAI's words ('length' for a reply cut at the budget):
    OpenAI-style metadata say finish_reason, Anthropic's stop_reason='max_tokens', Ollama's done_reason."""
    meta = getattr(message, "response_metadata", None) or {}
    reason = meta.get("finish_reason") or meta.get("stop_reason") or meta.get("done_reason")
    if reason in ("max_tokens", "length", "MAX_TOKENS"):
        return "length"
    return str(reason) if reason else None


def extract_json(text: str) -> str:
    """The JSON object inside a reply that may wrap it in a code fence or prose."""
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.DOTALL)
    if fenced:
        text = fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    return text[start:end + 1] if start != -1 and end > start else text.strip()


class LangChainChatBackend(Backend):
    """Wraps a LangChain chat model behind factgrain's Backend interface."""

    provider: ClassVar[str] = "langchain"

    def __init__(self, model: Any, *, base_url: str | None = None, api_key: str | None = None,
                 logprobs: bool | None = None, structured_method: str = "auto", max_connections: int = 4,
                 context_length: int | None = None, **chat_options: Any):
        if isinstance(model, str):
            model = self._chat_openai(model, base_url=base_url, api_key=api_key, **chat_options)
        elif not is_chat_model(model):
            raise ConfigurationError(f"expected a LangChain chat model, got {type(model).__name__}")
        if structured_method not in STRUCTURED_METHODS:
            raise ConfigurationError(f"structured_method must be one of {STRUCTURED_METHODS}")
        self.chat_model = model
        name = getattr(model, "model_name", None) or getattr(model, "model", None) or type(model).__name__
        super().__init__(str(name), max_connections=max_connections)
        self._fields = _fields(model)
        # An instance attribute: whether logprobs can be asked for depends on the wrapped model.
        self.supports_logprobs = ("logprobs" in self._fields) if logprobs is None else logprobs  # type: ignore[misc]
        self.structured_method = structured_method
        self._resolved_method: str | None = None if structured_method == "auto" else structured_method
        # Tokens per request, for sizing reply budgets: as given, else asked of the server once.
        self._context: int | None = context_length
        self._context_known = context_length is not None

    @staticmethod
    def _chat_openai(model: str, **options: Any) -> Any:
        try:
            from langchain_openai import ChatOpenAI
        except ImportError as exc:
            raise MissingExtraError("langchain", "langchain-openai") from exc
        options = {k: v for k, v in options.items() if v is not None}
        if "api_key" not in options and "base_url" in options:
            options["api_key"] = "not-needed"  # local servers accept any key; the client insists on one
        return ChatOpenAI(model=model, **options)

    def __repr__(self) -> str:
        return f"LangChainChatBackend({type(self.chat_model).__name__}, model={self.model!r})"

    def cache_identity(self) -> dict[str, Any]:
        url = getattr(self.chat_model, "openai_api_base", None) or getattr(self.chat_model, "base_url", None)
        return {"provider": self.provider, "class": type(self.chat_model).__name__, "model": self.model,
                "base_url": str(url) if url else None}

    # -- the server's context, for reply budgets ----------------------------------------------
    async def context_length(self) -> int | None:
        """The context of the server behind a ChatOpenAI (vLLM's ``max_model_len`` in ``/v1/models``,
        llama.cpp's ``n_ctx`` in ``/props``), looked up once; None for other chat models and servers
        that do not say (their budgets stay as asked, and a cut reply is an error that names it)."""
        if self._context_known:
            return self._context
        value = None
        base = getattr(self.chat_model, "openai_api_base", None)
        if base:
            from factgrain.backends.openai_compat import LlamaCppBackend, OpenAICompatBackend

            secret = getattr(self.chat_model, "openai_api_key", None)
            key = secret.get_secret_value() if hasattr(secret, "get_secret_value") else (secret or "not-needed")
            for cls in (OpenAICompatBackend, LlamaCppBackend):
                probe = cls(self.model, base_url=base, api_key=key)  # the id the server lists
                try:
                    value = await probe.context_length()
                finally:
                    await probe.aclose()
                if value:
                    break
        self._context, self._context_known = value, True
        return value

    async def reply_budget(self, messages: Messages, max_tokens: int) -> int:
        """``max_tokens``, capped to what the server's context leaves after a high estimate of the prompt."""
        from factgrain.backends.openai_compat import MIN_REPLY_TOKENS, estimate_prompt_tokens

        context = await self.context_length()
        if context is None:
            return max_tokens
        return min(max_tokens, max(MIN_REPLY_TOKENS, context - estimate_prompt_tokens(messages)))

    def _configured(self, **settings: Any) -> Any:
        """A copy of the chat model with the settings it declares (others are dropped, not sent)."""
        update = {k: v for k, v in settings.items() if k in self._fields and v is not None}
        return self.chat_model.model_copy(update=update) if update else self.chat_model

    async def _invoke(self, runnable: Any, messages: Messages) -> Any:
        try:
            return await runnable.ainvoke(messages)
        except FactgrainError:
            raise
        except Exception as exc:  # noqa: BLE001 - any provider error becomes one typed error
            if type(exc).__name__ == "LengthFinishReasonError":  # openai's parse helpers raise on a cut reply
                raise _ReplyCut(exc) from exc
            raise BackendError(f"{self.name}: {type(exc).__name__}: {exc}") from exc

    async def chat(self, messages: Messages, *, max_tokens: int = 256, temperature: float = 0.0,
                   top_logprobs: int = 0, choices: list[str] | None = None) -> ChatResult:
        want = bool(top_logprobs and self.supports_logprobs)
        max_tokens = await self.reply_budget(messages, max_tokens)
        model = self._configured(temperature=temperature, max_tokens=max_tokens,
                                 logprobs=True if want else None, top_logprobs=top_logprobs if want else None)
        message = await self._invoke(model, messages)
        usage = _usage_of(message)
        usage_meter.record(usage)
        return ChatResult(text=_text_of(message), top_logprobs=_top_logprobs_of(message) if want else None,
                          finish_reason=_finish_reason(message), usage=usage)

    # -- structured output ---------------------------------------------------------------------
    def _structured_runnable(self, schema: dict[str, Any], max_tokens: int) -> tuple[Any, str]:
        model = self._configured(temperature=0.0, max_tokens=max_tokens)
        order = [self._resolved_method] if self._resolved_method else ["json_schema", "default", "prompt"]
        for method in order:
            if method == "prompt":
                return model, "prompt"
            try:
                kw = {} if method == "default" else {"method": method}
                return model.with_structured_output(schema, include_raw=True, **kw), method
            except (NotImplementedError, ValueError, TypeError):
                continue
        return model, "prompt"

    @staticmethod
    def _prompt_messages(messages: Messages, schema: dict[str, Any]) -> Messages:
        note = ("Answer with one JSON object and nothing else. It must validate against this JSON schema:\n"
                + json.dumps(schema))
        out = [dict(m) for m in messages]
        if out and out[0]["role"] == "system":
            out[0]["content"] = out[0]["content"] + "\n\n" + note
        else:
            out.insert(0, {"role": "system", "content": note})
        return out

    async def _structured_reply(self, messages: Messages, schema: dict[str, Any], max_tokens: int) -> tuple[str, Any]:
        runnable, method = self._structured_runnable(schema, max_tokens)
        if method == "prompt":
            message = await self._invoke(runnable, self._prompt_messages(messages, schema))
            self._resolved_method = "prompt"
            return extract_json(_text_of(message)), message
        out = await self._invoke(runnable, messages)
        self._resolved_method = method
        message = out.get("raw") if isinstance(out, dict) else None
        calls = getattr(message, "tool_calls", None) or []
        if calls:
            return json.dumps(calls[0].get("args", {})), message
        if isinstance(out, dict) and out.get("parsed") is not None and not _text_of(message).strip():
            parsed = out["parsed"]
            return (parsed.model_dump_json() if isinstance(parsed, BaseModel) else json.dumps(parsed)), message
        return extract_json(_text_of(message)), message

    async def structured(self, messages: Messages, response_model: type[M], *,
                         context: dict[str, Any] | None = None, max_retries: int = 2,
                         max_tokens: int = 1024) -> tuple[M, ChatResult]:
        schema = response_model.model_json_schema()
        history = list(messages)
        attempts = max_retries + 1
        last_text: str | None = None
        budget, cuts, tries = await self.reply_budget(messages, max_tokens), 0, 0
        while tries < attempts:
            tries += 1
            try:
                text, message = await self._structured_reply(history, schema, budget)
                finish = _finish_reason(message)
                usage = _usage_of(message)
            except _ReplyCut as cut:
                text, finish, usage = cut.text, "length", cut.usage
            usage_meter.record(usage)
            last_text = text
            if finish == "length":
                # A cut reply is not a wrong one: re-asking with the validator's complaint cannot help.
                # One more try with twice the budget, then an error that names the cut.
                cuts += 1
                room = await self.reply_budget(history, 2 * budget)
                if cuts > 1 or tries >= attempts or room <= budget:
                    why = (f"; the server's context of {self._context} tokens leaves no more room after this prompt"
                           if room <= budget and self._context else "")
                    raise StructuredOutputError(
                        f"{self.name}: the {response_model.__name__} reply was cut off at max_tokens={budget} "
                        f"(finish_reason=length){why}; raise the model's context or shorten the input",
                        attempts=tries, last_completion=last_text)
                budget = room
                continue
            try:
                obj = response_model.model_validate_json(text, context=context)
            except ValidationError as exc:
                # Re-ask with the validator's own words, as instructor does.
                history = [*messages, {"role": "assistant", "content": text},
                           {"role": "user", "content": f"Your JSON did not validate:\n{exc}\nReply with a corrected JSON object only."}]
                continue
            return obj, ChatResult(text=text, finish_reason=finish or "stop", usage=usage)
        raise StructuredOutputError(f"no valid {response_model.__name__} from {self.name}",
                                    attempts=tries, last_completion=last_text)
