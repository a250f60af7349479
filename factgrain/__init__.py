"""factgrain: find where generated text is not supported by its sources.

    import factgrain
    report = factgrain.check(text, reference)          # embedded model by default
    report = await factgrain.acheck(text, reference, method="triqua", model="vllm/Qwen/Qwen2.5-7B-Instruct")
"""

from __future__ import annotations

from typing import Any

from factgrain._version import __version__
from factgrain.errors import (
    BackendError,
    ConfigurationError,
    FactgrainError,
    InputError,
    MissingExtraError,
    StructuredOutputError,
)


async def acheck(text: str, reference: Any, *, question: str | None = None, model: Any = None, **options: Any):
    """Check ``text`` against ``reference`` and return a :class:`factgrain.schemas.Report`.

    ``reference`` is a string, a list of strings or a list of ``{"id", "text"}`` sources.
    ``options`` are the Evaluator's: ``method``, ``verifier``, ``threshold``, ``aggregate``,
    ``reflect``, ``base_url``, ``decomposer_model`` ...
    """
    from factgrain.agent.evaluator import Evaluator

    async with Evaluator(model, **options) as evaluator:  # clients closed in this event loop
        return await evaluator.acheck(text, reference, question=question)


def check(text: str, reference: Any, *, question: str | None = None, model: Any = None, **options: Any):
    """Synchronous :func:`acheck`."""
    from factgrain.agent.evaluator import run_sync

    return run_sync(acheck(text, reference, question=question, model=model, **options))


def check_many(items: list[dict[str, Any]], *, model: Any = None, concurrency: int = 4, **options: Any) -> list[Any]:
    """Check many ``{"text", "reference", "question"?, "id"?}`` items with bounded concurrency.

    Returns one entry per item, in order: a Report, or the FactgrainError that item raised.
    """
    from factgrain.agent.evaluator import Evaluator, run_sync

    async def go() -> list[Any]:
        out: list[Any] = [None] * len(items)
        async with Evaluator(model, **options) as ev:
            async for i, result in ev.acheck_stream(items, concurrency=concurrency):
                out[i] = result
        return out

    return run_sync(go())


async def arevise(text: str, reference: Any, **kwargs: Any):
    """Check, rewrite the unsupported spans, re-check, repeat; see :func:`factgrain.agent.revise.arevise`."""
    from factgrain.agent.revise import arevise as _arevise

    return await _arevise(text, reference, **kwargs)


def revise(text: str, reference: Any, **kwargs: Any):
    """Synchronous :func:`arevise`: returns a Revision with every round (text, score, errors, diff)."""
    from factgrain.agent.evaluator import run_sync

    return run_sync(arevise(text, reference, **kwargs))


def __getattr__(name: str) -> Any:  # lazy, so `import factgrain` stays light
    if name == "Evaluator":
        from factgrain.agent.evaluator import Evaluator

        return Evaluator
    if name == "Report":
        from factgrain.schemas import Report

        return Report
    raise AttributeError(name)


__all__ = ["__version__", "check", "acheck", "check_many", "revise", "arevise", "Evaluator", "Report", "FactgrainError",
           "InputError", "ConfigurationError", "MissingExtraError", "BackendError", "StructuredOutputError"]
