"""The decomposer interface and its registry (``method=`` names)."""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar

from factgrain.backends.base import Backend
from factgrain import progress
from factgrain.errors import ConfigurationError, FactgrainError
from factgrain.schemas.spans import Document, Sentence
from factgrain.schemas.units import Unit


class Decomposer(abc.ABC):
    """Turns a segmented document into units. Subclasses decompose one sentence (or one chunk)."""

    name: ClassVar[str] = "abstract"
    prompt_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, backend: Backend, **options: Any):
        self.backend = backend
        self.options = options
        self.warnings: list[str] = []
        self.failed_sentences: list[int] = []  # counted in the report, never silently dropped

    def prompt_versions(self) -> dict[str, str]:
        from factgrain.prompts import PROMPTS

        return {n: PROMPTS[n].version for n in self.prompt_names if n in PROMPTS}

    async def decompose(self, doc: Document) -> list[Unit]:
        """Decompose every sentence concurrently (bounded by the backend's connections)."""
        return await self._each(doc.sentences, "sentence", lambda s: [s.index],
                                lambda s: self.decompose_sentence(s, doc))

    async def _each(self, pieces: Sequence[Any], label: str, sentences_of: Callable[[Any], list[int]],
                    work: Callable[[Any], Awaitable[list[Unit]]]) -> list[Unit]:
        """Run ``work`` on every piece (sentence or chunk, each with an ``index``) concurrently and
        concatenate the units in order."""
        sem = asyncio.Semaphore(self.backend.max_connections)

        async def one(piece: Any) -> list[Unit]:
            async with sem:
                try:
                    return await work(piece)
                except FactgrainError as exc:
                    # One bad piece must not lose the others: record its sentences and go on.
                    from factgrain.agent import failures

                    self.warnings.append(f"{label} {piece.index}: decomposition failed "
                                         f"({failures.quote(getattr(piece, 'text', ''))}): {exc}")
                    self.failed_sentences.extend(sentences_of(piece))
                    failures.record("decompose", sentences_of(piece), exc)
                    return []
                finally:
                    progress.advance(f"decompose ({label}s)", len(pieces))

        per_piece = await asyncio.gather(*(one(p) for p in pieces))
        return [u for units in per_piece for u in units]

    @abc.abstractmethod
    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[Unit]:
        ...


def resolve_span_mode(span_mode: str, backend: Backend) -> str:
    """``parse`` (the offline reader) or ``free`` (the model writes the units). ``auto`` asks the
    model's tier (:mod:`factgrain.agent.tiers`): parse for no model or the bundled 135M, free for
    the rest. ``enum`` is the old name of ``parse``."""
    from factgrain.agent.tiers import choose

    return choose(backend, span_mode=span_mode).span_mode


_DECOMPOSERS: dict[str, Callable[..., Decomposer]] = {}


def register_decomposer(name: str) -> Callable[[type[Decomposer]], type[Decomposer]]:
    def deco(cls: type[Decomposer]) -> type[Decomposer]:
        _DECOMPOSERS[name] = cls
        return cls

    return deco


def register_decomposer_family(prefix: str, factory: Callable[..., Decomposer]) -> None:
    """Register ``prefix:<variant>`` methods (e.g. ``claims:factscore``) handled by one factory
    called as ``factory(variant, backend, **options)``."""
    _DECOMPOSERS[prefix + ":"] = factory


def available_methods() -> list[str]:
    _load_builtin()
    return sorted(_DECOMPOSERS)


def _load_builtin() -> None:
    # Importing registers them; kept lazy so that importing the package stays cheap.
    import importlib

    for mod in ("qasem", "triqua", "claims"):
        importlib.import_module(f"factgrain.agent.decompose.{mod}")


def get_decomposer(method: str, backend: Backend, **options: Any) -> Decomposer:
    _load_builtin()
    if method in _DECOMPOSERS:
        return _DECOMPOSERS[method](backend, **options)
    if ":" in method:
        prefix, variant = method.split(":", 1)
        factory = _DECOMPOSERS.get(prefix + ":")
        if factory is not None:
            return factory(variant, backend, **options)
    shown = [m + "<variant>" if m.endswith(":") else m for m in available_methods()]  # 'claims:<variant>'
    raise ConfigurationError(f"unknown method {method!r}; available: {', '.join(shown)}")
