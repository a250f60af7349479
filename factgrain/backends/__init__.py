"""LLM access behind one async interface; see :func:`get_backend`."""

from factgrain.backends.base import Backend, ChatResult
from factgrain.backends.registry import DEFAULT_MODEL, get_backend, providers, register_provider
from factgrain.backends.scripted import ScriptedBackend, ScriptedRequest

__all__ = ["Backend", "ChatResult", "DEFAULT_MODEL", "get_backend", "providers", "register_provider",
           "ScriptedBackend", "ScriptedRequest"]
