"""QA-pair decomposition (QASemConsistency): one question-answer pair per predicate-argument
relation, for verbal, nominal and copular predicates. Answers are spans of the sentence.

Two ways of reading a sentence:

* ``span_mode="parse"`` - offline, no model call: the predicates, their arguments and the
  question words come from spaCy's dependency parse (:mod:`.qasem_parse`). Answers and predicates
  are the parse's own character offsets. ``enum`` is a deprecated alias.
* ``span_mode="free"`` - the model writes predicate, question and answer; validators locate the
  answer and predicate in the sentence and re-ask when they are not there.

``auto`` is decided by :func:`factgrain.agent.decompose.base.resolve_span_mode` (the tier table).
See docs/decomposition.md.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from factgrain.agent.decompose import context as ctx
from factgrain.agent.decompose import parse_mode, qasem_parse
from factgrain.agent.decompose.base import Decomposer, register_decomposer
from factgrain.agent.locate import locate, locate_word
from factgrain.prompts import DECOMPOSE_QASEM, defuse
from factgrain.schemas.spans import Document, Sentence, Span
from factgrain.schemas.units import PredicateType, QAPair

MAX_QAS_PER_SENTENCE = 12
# predicate, predicate type, question, answer[, predicate offset, answer offset in the sentence]
Draft = tuple


class QADraft(BaseModel):
    """One predicate-argument relation of the sentence, as a question and its answer."""

    predicate: str = Field(
        max_length=60,
        description="The predicate word copied from the sentence: a verb, an event/relation noun, "
        "or the copula 'is/was' for descriptions.",
    )
    predicate_type: Literal["verbal", "nominal", "copular"] = Field(
        description="verbal for verbs, nominal for nouns, copular for 'is/was' + description."
    )
    question: str = Field(
        max_length=120,
        description="A short QA-SRL style question about one argument of the predicate, using "
        "'someone'/'something' for the other arguments, e.g. 'where did someone fall?'.",
    )
    answer: str = Field(
        max_length=160,
        description="The answer: a short phrase copied word for word from the sentence, never the "
        "whole sentence.",
    )

    @field_validator("answer")
    @classmethod
    def _answer_in_sentence(cls, value: str, info: ValidationInfo) -> str:
        sentence = (info.context or {}).get("sentence")
        if sentence is None:
            return value
        if locate(value, sentence) is None:
            raise ValueError(
                f"the answer {value!r} is not a phrase of the sentence; copy the answer exactly "
                "from the sentence text"
            )
        if len(value.strip()) >= 0.9 * len(sentence.strip()) and len(sentence.split()) > 4:
            raise ValueError("the answer must be a short phrase, not the whole sentence")
        return value

    @field_validator("predicate")
    @classmethod
    def _predicate_in_sentence(cls, value: str, info: ValidationInfo) -> str:
        sentence = (info.context or {}).get("sentence")
        if sentence is not None and locate_word(value, sentence) is None:
            raise ValueError(f"the predicate {value!r} does not occur in the sentence; copy it exactly")
        return value


class QADecomposition(BaseModel):
    """All predicate-argument QA pairs of one sentence."""

    qas: list[QADraft] = Field(default_factory=list, max_length=MAX_QAS_PER_SENTENCE)


def _predicate_type(word: str, declared: str | None = None) -> PredicateType:
    if declared in PredicateType.__members__:
        return PredicateType(declared)
    if word.lower() in {"is", "was", "are", "were", "be", "been"}:
        return PredicateType.copular
    return PredicateType.verbal


@register_decomposer("qasem")
class QASemDecomposer(Decomposer):
    name: ClassVar[str] = "qasem"
    prompt_names: ClassVar[tuple[str, ...]] = ("decompose_qasem",)

    def __init__(self, backend: Any, *, span_mode: str = "auto", prompt: Any = None,
                 max_qas_per_sentence: int = MAX_QAS_PER_SENTENCE, **options: Any):
        super().__init__(backend, **options)
        self.span_mode = parse_mode.span_mode_of(span_mode, backend)
        self.prompt = prompt or DECOMPOSE_QASEM
        self.max_qas = max_qas_per_sentence

    def prompt_versions(self) -> dict[str, str]:
        return {} if self.span_mode == "parse" else super().prompt_versions()  # no prompt is used offline

    def _messages(self, sentence: Sentence, doc: Document) -> list[dict[str, str]]:
        return self.prompt.render(question_block=ctx.question_block(doc),
                                  context_block=ctx.context_block(ctx.sentence_context(doc, sentence)),
                                  sentence=defuse(sentence.text))

    async def decompose(self, doc: Document) -> list[QAPair]:
        if self.span_mode == "parse":
            parse_mode.parse_sentences(doc)  # one batched parse of every sentence, then cached
        return await super().decompose(doc)

    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[QAPair]:
        if self.span_mode == "parse":
            return self._to_units(sentence, self._parse_drafts(sentence))
        messages = self._messages(sentence, doc)
        drafts: list[Draft] = []
        obj, _ = await self.backend.structured(
            messages, QADecomposition, context={"sentence": sentence.text}, max_tokens=80 * self.max_qas
        )
        for qa in obj.qas:
            drafts.append((qa.predicate, qa.predicate_type, qa.question.strip(), qa.answer.strip()))
        return self._to_units(sentence, drafts)

    def _parse_drafts(self, sentence: Sentence) -> list[Draft]:
        """The offline reader (no model call): one draft per predicate-argument relation of the
        sentence's dependency parse, as (predicate, type, question, answer, predicate offset,
        answer offset), offsets counted in the sentence. A sentence written mostly in a script the
        English pipeline cannot read gets a warning naming it (only its Latin-script words are read)."""
        script = parse_mode.unreadable(sentence.text)
        if script is not None:
            self.warnings.append(parse_mode.unreadable_warning(sentence, script))
        return [(q.predicate, q.predicate_type, q.question, q.answer, q.predicate_start, q.answer_start)
                for q in qasem_parse.read_qas(sentence.text)]

    def _to_units(self, sentence: Sentence, drafts: list[Draft]) -> list[QAPair]:
        units: list[QAPair] = []
        seen: set[tuple] = set()
        for predicate, ptype, question, answer, *hints in drafts:
            key = (predicate.lower(), question.lower(), answer.lower(), *hints)
            if key in seen:
                continue  # the same relation twice adds nothing
            seen.add(key)
            # the parse path knows where its predicate and answer are; the free path does not
            pred_at, answer_at = hints if hints else (None, None)
            answer_span = _exact(answer, sentence, answer_at) or locate(
                answer, sentence.text, offset=sentence.start, near=answer_at)
            if answer_span is None:
                continue
            pred_span = _exact(predicate, sentence, pred_at) or locate_word(
                predicate, sentence.text, offset=sentence.start,
                near=pred_at if pred_at is not None else answer_span.start - sentence.start)
            units.append(
                QAPair(
                    id=f"s{sentence.index}.u{len(units)}",
                    sentence_index=sentence.index,
                    chunk_index=sentence.chunk_index,
                    predicate=pred_span.text if pred_span else predicate,
                    predicate_type=_predicate_type(predicate, ptype),
                    question=question,
                    answer=answer_span.text,
                    predicate_span=pred_span,
                    answer_span=answer_span,
                )
            )
        return units


def _exact(words: str, sentence: Sentence, at: int | None) -> Span | None:
    """The span of ``words`` at offset ``at`` of the sentence, when they are there."""
    if at is None or sentence.text[at:at + len(words)] != words or not words:
        return None
    return Span(start=sentence.start + at, end=sentence.start + at + len(words), text=words)
