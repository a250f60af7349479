"""``provider/model`` strings to backends, with lazy imports (heavy modules load only when chosen)."""

from __future__ import annotations

import importlib
from typing import Any

from factgrain.backends.base import Backend
from factgrain.errors import ConfigurationError

# provider -> "module:Class"; imported only when that provider is asked for.
_PROVIDERS: dict[str, str] = {
    "offline": "factgrain.backends.offline:OfflineBackend",
    "embedded": "factgrain.backends.embedded:EmbeddedBackend",
    "openai": "factgrain.backends.openai_compat:OpenAICompatBackend",
    "vllm": "factgrain.backends.openai_compat:VLLMBackend",
    "llamacpp": "factgrain.backends.openai_compat:LlamaCppBackend",
    "scripted": "factgrain.backends.scripted:ScriptedBackend",
    "langchain": "factgrain.backends.langchain_chat:LangChainChatBackend",
}

# No model configured: the offline path (spaCy reader + lexical verifier); nothing is called.
DEFAULT_MODEL = "offline"


def register_provider(name: str, target: str) -> None:
    """Register ``name`` -> ``"package.module:Class"`` (a Backend subclass)."""
    _PROVIDERS[name] = target


def providers() -> list[str]:
    return sorted(_PROVIDERS)


def split_model(spec: str) -> tuple[str, str]:
    if "/" not in spec:
        if spec in _PROVIDERS:
            return spec, ""
        raise ConfigurationError(
            f"model {spec!r} should look like <provider>/<model>, e.g. openai/gpt-4o-mini, "
            f"vllm/Qwen/Qwen2.5-7B-Instruct or embedded/smollm2-135m; providers: {', '.join(providers())}"
        )
    provider, model = spec.split("/", 1)
    if provider not in _PROVIDERS:
        raise ConfigurationError(f"unknown provider {provider!r} in {spec!r}; known: {', '.join(providers())}")
    return provider, model


def get_backend(spec: str | Backend | None = None, **options: Any) -> Backend:
    """Build a backend from ``provider/model`` (or pass a Backend through unchanged)."""
    if isinstance(spec, Backend):
        return spec
    if spec is not None and not isinstance(spec, str):
        from factgrain.backends.langchain_chat import LangChainChatBackend, is_chat_model

        if is_chat_model(spec):  # a LangChain chat model object
            return LangChainChatBackend(spec)
        raise ConfigurationError(f"model must be a provider/model string, a Backend or a LangChain chat model, "
                                 f"not {type(spec).__name__}")
    if spec is None:
        import os

        spec = os.environ.get("FACTGRAIN_MODEL") or DEFAULT_MODEL
    provider, model = split_model(spec)
    module_name, cls_name = _PROVIDERS[provider].split(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    options = {k: v for k, v in options.items() if v is not None}
    if provider in ("embedded", "offline"):
        options.pop("base_url", None)
        options.pop("api_key", None)
        return cls(model or None, **options)
    if not model:
        raise ConfigurationError(f"{spec!r} names no model; write {provider}/<model>")
    return cls(model, **options)
