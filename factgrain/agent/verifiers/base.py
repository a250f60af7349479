"""The verifier interface: P(supported) for every component of every unit."""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from factgrain import progress
from factgrain.errors import ConfigurationError, FactgrainError
from factgrain.schemas.spans import Document
from factgrain.schemas.units import Component, Unit
from factgrain.schemas.verdicts import Evidence, UnitVerdict


@dataclass
class VerifyItem:
    """One thing to verify: a component of a unit, with its sentence and chosen evidence."""

    unit: Unit
    component: Component
    sentence: str
    evidence: list[Evidence]

    @property
    def evidence_text(self) -> str:
        if len(self.evidence) == 1:
            return self.evidence[0].text
        return "\n\n".join(f"[source {e.source_id}] {e.text}" for e in self.evidence)

    def locate(self, start: int, end: int, score: float | None = None) -> Evidence:
        """The evidence passage holding ``evidence_text[start:end]``, with offsets into its source."""
        if len(self.evidence) == 1:
            ev = self.evidence[0]
            off = ev.start or 0
            return Evidence(source_id=ev.source_id, passage_index=ev.passage_index, start=off + start,
                            end=off + end, text=ev.text[start:end], score=score)
        pos = 0
        for ev in self.evidence:
            head = len(f"[source {ev.source_id}] ")
            lo, hi = pos + head, pos + head + len(ev.text)
            if start < hi:  # the window starts in this passage (or in its header)
                a, b = max(start, lo) - lo, min(max(end, lo), hi) - lo
                off = ev.start or 0
                return Evidence(source_id=ev.source_id, passage_index=ev.passage_index, start=off + a,
                                end=off + b, text=ev.text[a:b], score=score)
            pos = hi + 2  # the "\n\n" separator
        return self.evidence[-1].model_copy(update={"score": score}) if self.evidence else Evidence(score=score)


EvidenceFn = Callable[[Unit, Component, str], list[Evidence]]


class Verifier(abc.ABC):
    """Subclasses implement :meth:`verify_item`; batching verifiers may override :meth:`verify_items`."""

    name: ClassVar[str] = "abstract"
    prompt_names: ClassVar[tuple[str, ...]] = ()
    # reads references with the English pipeline only (the check then warns about a reference in
    # another language instead of reporting every unit of it unsupported)
    english_only: ClassVar[bool] = False
    # the longest single reference given whole, without retrieval (CheckOptions.retrieval_budget_chars
    # overrides): what fits a model's prompt with room to spare
    evidence_budget_chars: ClassVar[int] = 6000

    def __init__(self, *, threshold: float = 0.5, max_connections: int = 4, **options: Any):
        if not 0.0 <= threshold <= 1.0:
            raise ConfigurationError(f"threshold must be in [0, 1], got {threshold}")
        self.threshold = threshold
        self.max_connections = max_connections
        self.options = options

    def describe(self) -> str:
        return self.name

    def prompt_versions(self) -> dict[str, str]:
        from factgrain.prompts import PROMPTS

        return {n: PROMPTS[n].version for n in self.prompt_names if n in PROMPTS}

    def label(self, probability: float) -> str:
        return "supported" if probability >= self.threshold else "unsupported"

    async def verify_items(self, items: list[VerifyItem]) -> list[UnitVerdict]:
        sem = asyncio.Semaphore(self.max_connections)

        async def one(item: VerifyItem) -> UnitVerdict:
            async with sem:
                try:
                    return await self.verify_item(item)
                except FactgrainError as exc:
                    # A failed call is its own status, never a verdict.
                    from factgrain.agent import failures

                    failures.record("verify", [item.unit.sentence_index], exc)
                    return UnitVerdict.unscored_because(item.unit.id, item.component.name, str(exc),
                                                        verifier=self.name)
                finally:
                    progress.advance("verify", len(items))

        return list(await asyncio.gather(*(one(i) for i in items)))

    @abc.abstractmethod
    async def verify_item(self, item: VerifyItem) -> UnitVerdict:
        ...


def build_items(units: list[Unit], doc: Document, evidence_for: EvidenceFn) -> list[VerifyItem]:
    items = []
    for unit in units:
        sentence = doc.sentences[unit.sentence_index].text if unit.sentence_index < len(doc.sentences) else ""
        for comp in unit.components():
            items.append(VerifyItem(unit, comp, sentence, evidence_for(unit, comp, sentence)))
    return items


_VERIFIERS: dict[str, str] = {
    "llm": "factgrain.agent.verifiers.llm:LLMVerifier",
    "lexical": "factgrain.agent.verifiers.lexical:LexicalVerifier",
    "nli": "factgrain.agent.verifiers.nli:NLIVerifier",
    "fused": "factgrain.agent.verifiers.fused:FusedVerifier",
}


def register_verifier(name: str, target: str) -> None:
    _VERIFIERS[name] = target


def verifier_class(name: str) -> type[Verifier]:
    import importlib

    if name not in _VERIFIERS:
        raise ConfigurationError(f"unknown verifier {name!r}; available: {', '.join(sorted(_VERIFIERS))}")
    module, cls = _VERIFIERS[name].split(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            raise ConfigurationError(f"verifier {name!r} is not available in this build") from None
        raise
    return getattr(mod, cls)
