"""The units a text is decomposed into: a tagged union keyed by ``kind``.

Every unit keeps the index of its sentence (and chunk) and character spans into the evaluated
text, so a verdict can always be shown where it belongs.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field

from factgrain.schemas.spans import Span


class _UnitBase(BaseModel):
    id: str = Field(description="Stable id within one report, e.g. 's0.u2'.")
    sentence_index: int = Field(ge=0)
    chunk_index: int = Field(default=0, ge=0)

    def statement(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def components(self) -> list["Component"]:
        """What gets verified separately. Most units are one component; a fact is several."""
        return [Component(name="unit", statement=self.statement(), span=self.main_span())]

    def main_span(self) -> Span | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def spans(self) -> list[Span]:
        span = self.main_span()
        return [span] if span else []


class PredicateType(str, Enum):
    verbal = "verbal"
    nominal = "nominal"
    copular = "copular"


class QAPair(_UnitBase):
    """One predicate-argument relation of a sentence, phrased as a question and its answer
    (QASemConsistency). The answer is a span of the sentence."""

    kind: Literal["qa"] = "qa"
    predicate: str
    predicate_type: PredicateType = PredicateType.verbal
    question: str
    answer: str
    predicate_span: Span | None = None
    answer_span: Span | None = None

    def statement(self) -> str:
        return f"{self.question} {self.answer}"

    def main_span(self) -> Span | None:
        return self.answer_span

    def spans(self) -> list[Span]:
        return [s for s in (self.predicate_span, self.answer_span) if s is not None]


class QualifierType(str, Enum):
    """Qualifier classes of TriQua: context that makes a fact true only under a condition."""

    temporal = "temporal"
    spatial = "spatial"
    causal = "causal"
    sequential = "sequential"
    source = "source"
    constraint = "constraint"
    attribute = "attribute"
    condition = "condition"


# The paper's top-level qualifier classes: verifying context (time, place - and conditions, which
# likewise restrict when the fact holds), causal, sequential, source, annotation (constraints,
# attributes).
QUALIFIER_CLASS: dict[QualifierType, str] = {
    QualifierType.temporal: "context",
    QualifierType.spatial: "context",
    QualifierType.condition: "context",
    QualifierType.causal: "causal",
    QualifierType.sequential: "sequential",
    QualifierType.source: "source",
    QualifierType.constraint: "annotation",
    QualifierType.attribute: "annotation",
}


class Qualifier(BaseModel):
    """A typed qualifier-value pair that modifies the base triple (never another qualifier)."""

    type: QualifierType
    value: str
    span: Span | None = None

    @property
    def category(self) -> str:
        """The paper's class of this qualifier: context, causal, sequential, source, annotation."""
        return QUALIFIER_CLASS[self.type]


class HyperRelationalFact(_UnitBase):
    """A base triple (subject, relation, object) plus independent qualifiers (TriQua)."""

    kind: Literal["fact"] = "fact"
    subject: str
    relation: str
    object: str
    qualifiers: list[Qualifier] = Field(default_factory=list)
    subject_span: Span | None = None
    relation_span: Span | None = None
    object_span: Span | None = None

    def base_statement(self) -> str:
        return f"{self.subject} {self.relation} {self.object}".strip()

    def parts(self) -> list[str]:
        """Subject, relation and object, without an empty object (an intransitive 'died')."""
        return [self.subject, self.relation] + ([self.object] if self.object.strip() else [])

    def triple(self) -> str:
        """'(subject; relation; object)', or '(subject; relation)' when the object is empty."""
        return "(" + "; ".join(self.parts()) + ")"

    def statement(self) -> str:
        quals = "; ".join(f"{q.type.value}: {q.value}" for q in self.qualifiers)
        return self.base_statement() + (f" ({quals})" if quals else "")

    def main_span(self) -> Span | None:
        return self.object_span or self.relation_span or self.subject_span

    def spans(self) -> list[Span]:
        out = [s for s in (self.subject_span, self.relation_span, self.object_span) if s]
        out += [q.span for q in self.qualifiers if q.span]
        return out

    def components(self) -> list["Component"]:
        comps = [Component(name="base", statement=self.base_statement(), span=self.main_span())]
        for i, q in enumerate(self.qualifiers):
            comps.append(
                Component(
                    name=f"qualifier:{i}",
                    statement=f"{self.base_statement()} ({q.type.value}: {q.value})",
                    span=q.span,
                )
            )
        return comps


class Claim(_UnitBase):
    """A self-contained sentence-level claim (FActScore / VeriScore / WiCE styles, or the text)."""

    kind: Literal["claim"] = "claim"
    text: str
    span: Span | None = None

    def statement(self) -> str:
        return self.text

    def main_span(self) -> Span | None:
        return self.span


class Component(BaseModel):
    """One separately verified part of a unit: ``unit``, ``base`` or ``qualifier:<i>``."""

    name: str
    statement: str
    span: Span | None = None


Unit = Annotated[Union[QAPair, HyperRelationalFact, Claim], Field(discriminator="kind")]
