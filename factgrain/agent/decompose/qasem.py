"""QA-pair decomposition (QASemConsistency): one question-answer pair per predicate-argument
relation, for verbal, nominal and copular predicates. Answers are spans of the sentence.

Two ways of asking:

* ``span_mode="free"`` - the model writes predicate, question and answer; validators locate the
  answer and predicate in the sentence and re-ask when they are not there.
* ``span_mode="enum"`` - for small local models, which otherwise copy the whole sentence into
  every field: the sentence's candidate phrases are enumerated deterministically, each attached to
  its nearest predicate; times, places and amounts get their wh-slot from the phrase itself and
  the model only chooses who / what / how / why for the rest (one grammar-constrained token).

``auto`` picks ``enum`` for the embedded backend and ``free`` for everything else.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from factgrain.agent.candidates import candidate_answers, candidate_predicates
from factgrain.agent.decompose import context as ctx
from factgrain.agent.decompose.base import Decomposer, register_decomposer
from factgrain.agent.locate import locate, locate_word
from factgrain.prompts import DECOMPOSE_QASEM, QASEM_SLOT, defuse
from factgrain.schemas.spans import Document, Sentence
from factgrain.schemas.units import PredicateType, QAPair

MAX_QAS_PER_SENTENCE = 12


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


SLOT_CHOICES = ("who", "what", "how", "why")
_MONTHS = "january february march april may june july august september october november december".split()
_DAYS = "monday tuesday wednesday thursday friday saturday sunday yesterday today tomorrow".split()
_TIME_PREPS = {"during", "after", "before", "since", "until"}
_PLACE_PREPS = {"in", "at", "near", "from", "to", "into", "across", "within"}


def heuristic_slot(phrase: str) -> str | None:
    """The wh-slot that the phrase's own shape gives away (time words, places, amounts), else None."""
    words = phrase.split()
    low = [w.lower().strip(".,") for w in words]
    if any(w in _MONTHS or w in _DAYS or (w.isdigit() and len(w) == 4) for w in low) or low[0] in _TIME_PREPS:
        return "when"
    if any(ch.isdigit() for ch in phrase):
        return "how much"
    if low[0] in _PLACE_PREPS and len(words) > 1 and any(w[:1].isupper() for w in words[1:]):
        return "where"
    if low[0] in {"because", "due"}:
        return "why"
    return None
MAX_SLOT_PHRASES = 10


def attach_predicate(phrase_start: int, predicates: list[tuple[str, int]]) -> str:
    """The predicate a phrase most likely belongs to: the nearest one before it, else after."""
    before = [p for p in predicates if p[1] < phrase_start]
    if before:
        return before[-1][0]
    return min(predicates, key=lambda p: abs(p[1] - phrase_start))[0]


def slot_question(wh: str, predicate: str) -> str:
    """The question of a slot-labelled pair: the wh-slot and the predicate (compact QA-SRL form)."""
    return f"{wh} {predicate}?"


def _predicate_type(word: str, declared: str | None = None) -> PredicateType:
    if declared in PredicateType.__members__:
        return PredicateType(declared)
    if word.lower() in {"is", "was", "are", "were", "be", "been"}:
        return PredicateType.copular
    from factgrain.agent.candidates import is_verb_like

    return PredicateType.verbal if is_verb_like(word) else PredicateType.nominal


@register_decomposer("qasem")
class QASemDecomposer(Decomposer):
    name: ClassVar[str] = "qasem"
    prompt_names: ClassVar[tuple[str, ...]] = ("decompose_qasem", "qasem_slot")

    def __init__(self, backend: Any, *, span_mode: str = "auto", prompt: Any = None, slot_prompt: Any = None,
                 max_qas_per_sentence: int = MAX_QAS_PER_SENTENCE, **options: Any):
        super().__init__(backend, **options)
        if span_mode == "auto":
            span_mode = "enum" if backend.provider == "embedded" else "free"
        if span_mode not in ("enum", "free"):
            from factgrain.errors import ConfigurationError

            raise ConfigurationError(f"span_mode must be auto, enum or free, not {span_mode!r}")
        self.span_mode = span_mode
        self.prompt = prompt or DECOMPOSE_QASEM
        self.slot_prompt = slot_prompt or QASEM_SLOT
        self.max_qas = max_qas_per_sentence

    def _messages(self, sentence: Sentence, doc: Document) -> list[dict[str, str]]:
        return self.prompt.render(question_block=ctx.question_block(doc),
                                  context_block=ctx.context_block(ctx.sentence_context(doc, sentence)),
                                  sentence=defuse(sentence.text))

    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[QAPair]:
        messages = self._messages(sentence, doc)
        drafts: list[tuple[str, str | None, str, str]] = []  # predicate, type, question, answer
        if self.span_mode == "enum":
            drafts = await self._slot_drafts(sentence)
        else:
            obj, _ = await self.backend.structured(
                messages, QADecomposition, context={"sentence": sentence.text}, max_tokens=80 * self.max_qas
            )
            for qa in obj.qas:
                drafts.append((qa.predicate, qa.predicate_type, qa.question.strip(), qa.answer.strip()))
        return self._to_units(sentence, drafts)

    async def _slot_drafts(self, sentence: Sentence) -> list[tuple[str, str | None, str, str]]:
        """Small-model path: candidate phrases come from the sentence, each is attached to its
        nearest predicate, and the model only picks the wh-slot (one constrained token each)."""
        text = sentence.text
        preds = [(p, span.start) for p in candidate_predicates(text) if (span := locate_word(p, text))]
        if not preds:
            return []
        phrases = [p for p in candidate_answers(text, bare_variants=False)
                   if p.lower() not in {w.lower() for w, _ in preds}][:MAX_SLOT_PHRASES]
        drafts = []
        for phrase in phrases:
            span = locate(phrase, text)
            if span is None:
                continue
            predicate = attach_predicate(span.start, preds)
            wh = heuristic_slot(phrase)
            if wh is None:
                messages = self.slot_prompt.render(sentence=defuse(text), predicate=defuse(predicate), phrase=defuse(phrase))
                result = await self.backend.chat(messages, max_tokens=3, choices=list(SLOT_CHOICES))
                wh = result.text.strip().lower()
                if wh not in SLOT_CHOICES:
                    continue
            drafts.append((predicate, None, slot_question(wh, predicate), phrase))
        return drafts

    def _to_units(self, sentence: Sentence, drafts: list[tuple[str, str | None, str, str]]) -> list[QAPair]:
        units: list[QAPair] = []
        seen: set[tuple[str, str, str]] = set()
        for predicate, ptype, question, answer in drafts:
            key = (predicate.lower(), question.lower(), answer.lower())
            if key in seen:
                continue  # the same relation twice adds nothing
            seen.add(key)
            answer_span = locate(answer, sentence.text, offset=sentence.start)
            if answer_span is None:
                continue
            pred_span = locate_word(predicate, sentence.text, offset=sentence.start,
                                    near=answer_span.start - sentence.start)
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
