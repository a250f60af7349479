"""The report: everything one check produced, JSON-serialisable."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, computed_field

from factgrain.schemas.reflection import ReflectionRound
from factgrain.schemas.spans import Document, Span
from factgrain.schemas.units import HyperRelationalFact, Unit
from factgrain.schemas.verdicts import UnitVerdict, VerdictStatus

SCHEMA_VERSION = "1.0"


class Usage(BaseModel):
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    cache_hits: int = 0

    def add(self, other: "Usage") -> None:
        for name in type(self).model_fields:
            setattr(self, name, getattr(self, name) + getattr(other, name))


class Scores(BaseModel):
    """Aggregate scores. ``consistency`` is ``None`` when no unit could be scored (never a silent
    0 or 1); ``status`` says why."""

    status: str = Field(description="'ok', 'no_units' or 'no_scored_units'")
    consistency: float | None = None
    units: int = 0
    scored_units: int = 0
    supported_units: int = 0
    unsupported_units: int = 0
    unscored_units: int = 0
    failed_sentences: int = Field(default=0, description="sentences whose decomposition failed (no units, see warnings)")
    triqua: float | None = None
    aggregate: dict[str, float | None] = Field(default_factory=dict)
    label: str | None = Field(default=None, description="'supported' when every scored unit is supported, else "
                              "'unsupported' (never contradicts the unit verdicts); None with no scored unit")
    harmonic_label: str | None = Field(default=None, description="the paper's label: the harmonic mean of unit "
                                       "probabilities against the threshold (can disagree with the unit verdicts)")


class Failure(BaseModel):
    """A failing component of a fact, named: the base triple or one qualifier (class and value)."""

    component: str
    part: str = Field(description="'base' or 'qualifier'")
    text: str = Field(description="the base triple, or the qualifier's value")
    qualifier_type: str | None = None
    qualifier_class: str | None = Field(default=None, description="context, causal, sequential, source or annotation")
    span: Span | None = None


class UnitResult(BaseModel):
    """One unit with its verdicts and the resulting status."""

    unit: Unit
    verdicts: list[UnitVerdict]
    status: str = Field(description="'supported', 'unsupported', 'partial' or 'unscored'")
    failing_components: list[str] = Field(default_factory=list)

    @computed_field  # derived from the unit, so it can never disagree with failing_components
    @property
    def failures(self) -> list[Failure]:
        u = self.unit
        if not isinstance(u, HyperRelationalFact):
            return []
        out = []
        for name in self.failing_components:
            if name == "base":
                out.append(Failure(component=name, part="base", text=u.base_statement(), span=u.main_span()))
            elif name.startswith("qualifier:") and int(name.split(":")[1]) < len(u.qualifiers):
                q = u.qualifiers[int(name.split(":")[1])]
                out.append(Failure(component=name, part="qualifier", text=q.value, qualifier_type=q.type.value,
                                   qualifier_class=q.category, span=q.span))
        return out

    @property
    def probability(self) -> float | None:
        probs = [v.probability for v in self.verdicts if v.status is VerdictStatus.scored and v.probability is not None]
        return min(probs) if probs else None


class Report(BaseModel):
    """The result of one check."""

    schema_version: str = SCHEMA_VERSION
    id: str | None = None
    text: str
    question: str | None = None
    reference: str | list[dict[str, str]]
    method: str
    document: Document
    results: list[UnitResult]
    scores: Scores
    threshold: float = 0.5
    backend: str
    model: str
    verifier: str
    prompt_versions: dict[str, str] = Field(default_factory=dict)
    usage: Usage = Field(default_factory=Usage)
    timings: dict[str, float] = Field(default_factory=dict)
    reflection: list[ReflectionRound] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    tier: dict[str, str] = Field(default_factory=dict, description="the model's tier and the paths it chose, with why "
                                 "(factgrain.agent.tiers)")

    @property
    def units(self) -> list[Unit]:
        return [r.unit for r in self.results]

    @property
    def verdicts(self) -> list[UnitVerdict]:
        return [v for r in self.results for v in r.verdicts]

    def unsupported(self) -> list[UnitResult]:
        return [r for r in self.results if r.status in ("unsupported", "partial")]

    def to_json(self, **kw: Any) -> str:
        """The report as JSON (its own serialisation; the views - Markdown, HTML, the terminal table -
        are functions over a Report in ``factgrain.render``)."""
        return self.model_dump_json(indent=kw.pop("indent", 2), **kw)
