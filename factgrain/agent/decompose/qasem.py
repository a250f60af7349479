"""QA-pair decomposition (QASemConsistency): one question-answer pair per predicate-argument
relation, for verbal, nominal and copular predicates. Answers are spans of the sentence.

Two ways of asking:

* ``span_mode="free"`` - the model writes predicate, question and answer; validators locate the
  answer and predicate in the sentence and re-ask when they are not there.
* ``span_mode="enum"`` - for small local models, which otherwise copy the whole sentence into
  every field: a rule-based reader (``factgrain.agent.candidates.frames``) finds the predicates and
  their subjects, objects and modifiers as exact spans; the phrase's shape gives the wh-word where
  it can, and the model chooses the rest from a closed list per role (who/what for participants,
  where/when/how/why/what for modifiers: one grammar-constrained token, at most MAX_SLOT_CALLS per
  sentence). See docs/decomposition.md.

``auto`` asks the model's tier (``factgrain.agent.tiers``): the offline path (``parse``; ``enum`` is
its old name) with no model or the bundled 135M, ``free`` otherwise; for a small model a sentence
the model cannot decompose validly falls back to the offline reader, with a warning. The free
path's schema and checks are in :mod:`.qasem_free`.
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar

from factgrain.agent import verbforms as vf
from factgrain.agent.candidates import Arg, Frame, frames
from factgrain.agent.decompose import context as ctx
from factgrain.agent.decompose.base import Decomposer, register_decomposer, resolve_span_mode
from factgrain.agent.decompose.qasem_free import MAX_QAS_PER_SENTENCE, QADecomposition, QADraft  # noqa: F401
from factgrain.agent.locate import locate, locate_word
from factgrain.errors import StructuredOutputError
from factgrain.prompts import DECOMPOSE_QASEM, QASEM_SLOT, defuse
from factgrain.schemas.spans import Document, Sentence
from factgrain.schemas.units import PredicateType, QAPair

# predicate, predicate type, question, answer[, predicate offset, answer offset in the sentence]
Draft = tuple


ROLE_WORDS = {"subject": "subject (who or what does it / is it)", "object": "object (who or what it is done to)",
              "agent": "agent (who or what did it)", "noun-arg": "participant", "adjunct": "modifier",
              "complement": "complement", "clause": "complement"}
MAX_SLOT_CALLS = 10  # model calls per sentence; phrases past this take their role's default word


def _placeholder(wh: str | None) -> str:
    return "someone" if wh == "who" else "something"


def _inverted(frame: Frame, subj: str) -> str:
    """The verb group with the subject placeholder moved after the first auxiliary, the way a
    QA-SRL question asks about a non-subject argument: 'will someone miss', 'did someone fail'."""
    aux = [a.lower() for a in frame.aux]
    verb = frame.predicate.lower()
    if aux:
        return " ".join([aux[0], subj, *aux[1:], verb])
    if frame.passive:
        return f"was {subj} {verb}"
    if frame.form == "ing":
        return f"is {subj} {verb}"
    if frame.form == "s":
        return f"does {subj} {frame.base}"
    if frame.form == "base":
        return f"do {subj} {frame.base}"
    return f"did {subj} {frame.base}"


def slot_question(wh: str, frame: Frame, arg: Arg, *, subject_wh: str | None = None,
                  description: str = "") -> str:
    """A QA-SRL style question for one argument of a frame ('who died?', 'what did someone fail to
    do?', 'where was someone kidnapped?'), built from the sentence's own verb group."""
    subj = _placeholder(subject_wh)
    if frame.kind == "copular":
        return f"{wh} {' '.join(a.lower() for a in frame.aux)} {description}?"
    if frame.kind == "nominal":
        return f"{wh} is involved in the {frame.predicate.lower()}?"
    has_object = any(a.role in ("object", "complement", "clause") for a in frame.args)
    verb = frame.predicate.lower()
    aux = " ".join(a.lower() for a in frame.aux)
    if arg.role == "subject":
        if frame.passive:
            return f"{wh} {aux or 'was'} {verb}?"
        if aux:
            head = f"{aux} {verb}"
        elif frame.form == "ing" and arg.start < frame.start:
            head = f"is {verb}"
        elif frame.form in ("inf", "ing", "gerund"):
            head = vf.guess_past(frame.base)
        else:
            head = verb
        obj = " to do something" if any(a.role == "complement" for a in frame.args) else (" something" if has_object else "")
        return f"{wh} {head}{obj}?"
    if arg.role == "agent":
        return f"{wh} {vf.guess_past(frame.base)} {subj}?"
    if arg.role == "complement":
        return f"{wh} {_inverted(frame, subj)} to do?"
    tail = " something" if arg.role == "adjunct" and has_object else ""
    return f"{wh} {_inverted(frame, subj)}{tail}?"


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
                 max_qas_per_sentence: int = MAX_QAS_PER_SENTENCE, fallback: bool | None = None, **options: Any):
        super().__init__(backend, **options)
        self.span_mode = resolve_span_mode(span_mode, backend)
        self.prompt = prompt or DECOMPOSE_QASEM
        self.slot_prompt = slot_prompt or QASEM_SLOT
        self.max_qas = max_qas_per_sentence
        # free mode: a sentence the model cannot decompose validly goes to the offline reader
        # (None = the model's tier decides: small models yes, capable ones no)
        if fallback is None:
            from factgrain.agent.tiers import choose

            fallback = choose(backend, span_mode=self.span_mode).fallback
        self.fallback = fallback
        self.sentence_sources: dict[int, str] = {}  # sentence index -> model | fallback | none | no content
        self.empty_reasons: dict[int, str] = {}
        self.dropped: list[str] = []  # pairs the model wrote that could not be tied to their sentence

    def _messages(self, sentence: Sentence, doc: Document) -> list[dict[str, str]]:
        return self.prompt.render(question_block=ctx.question_block(doc),
                                  context_block=ctx.context_block(ctx.sentence_context(doc, sentence)),
                                  sentence=defuse(sentence.text))

    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[QAPair]:
        if self.span_mode != "free":
            return self._to_units(sentence, await self._offline_drafts(sentence))
        if not ctx.has_content(sentence.text):
            self.sentence_sources[sentence.index] = "no content"
            return []
        context: dict[str, Any] = {"sentence": sentence.text, "require": True}
        words = len(sentence.text.split())
        try:
            obj, _ = await self.backend.structured(
                self._messages(sentence, doc), QADecomposition, context=context,
                max_tokens=min(80 * self.max_qas, 240 + 30 * words))
        except StructuredOutputError as exc:
            if not self.fallback:
                raise
            units = self._to_units(sentence, await self._offline_drafts(sentence))
            self.sentence_sources[sentence.index] = "fallback" if units else "none"
            why = f"the model gave no valid QA pair ({_short(exc)})"
            self.warnings.append(f"sentence {sentence.index} ({ctx._quote(sentence.text)}): {why}; "
                                 f"the offline reader gave {len(units)} pair(s) instead")
            self.empty_reasons[sentence.index] = why + "; the offline reader found none either"
            return units
        self.dropped.extend(context.get("dropped", []))
        drafts: list[Draft] = [(qa.predicate, qa._predicate_type, qa.question.strip(), qa.answer.strip(),
                                qa._predicate_at, qa._answer_at) for qa in obj.qas]
        units = self._to_units(sentence, drafts)
        self.sentence_sources[sentence.index] = "model" if units else "none"
        return units

    async def _offline_drafts(self, sentence: Sentence) -> list[Draft]:
        """The offline reader's pairs: ``_parse_drafts`` (the spaCy reader) where this build has
        it, else the rule reader with constrained slot choices."""
        reader = getattr(self, "_parse_drafts", None) or self._slot_drafts
        drafts = reader(sentence)
        return list(await drafts) if inspect.isawaitable(drafts) else list(drafts)

    async def _slot_drafts(self, sentence: Sentence) -> list[Draft]:
        """Small-model path: the deterministic reader finds each predicate and its arguments
        (exact spans); the model only picks the question word where the structure leaves a
        choice (one constrained token, at most MAX_SLOT_CALLS per sentence, each phrase once)."""
        text = sentence.text
        chosen: dict[tuple[str, tuple[str, ...], str], str] = {}
        drafts: list[Draft] = []
        for frame in frames(text):
            descriptions = frame.descriptions
            subject_wh = None
            for i, arg in enumerate(frame.args):
                wh = arg.wh or await self._choose(text, frame, arg, chosen)
                if wh is None:
                    continue
                if arg.role == "subject":
                    subject_wh = subject_wh or wh
                q = slot_question(wh, frame, arg, subject_wh=subject_wh,
                                  description=descriptions[i] if i < len(descriptions) else "")
                drafts.append((frame.predicate, frame.kind, q, arg.text, frame.start, arg.start))
        return drafts

    async def _choose(self, text: str, frame: Frame, arg: Arg, chosen: dict) -> str | None:
        role = "modifier" if arg.role == "adjunct" else "entity"
        key = (arg.text, arg.choices, role)
        if key in chosen:
            return chosen[key]
        if sum(1 for k in chosen if k[0] != "#default") >= MAX_SLOT_CALLS:
            return "what" if "what" in arg.choices else arg.choices[0]
        messages = self.slot_prompt.render(sentence=defuse(text), predicate=defuse(frame.predicate),
                                           phrase=defuse(arg.text), role=ROLE_WORDS.get(arg.role, arg.role),
                                           choices=", ".join(arg.choices))
        result = await self.backend.chat(messages, max_tokens=3, choices=list(arg.choices))
        wh = result.text.strip().lower()
        if wh not in arg.choices:
            return None
        chosen[key] = wh
        return wh

    def _to_units(self, sentence: Sentence, drafts: list[Draft]) -> list[QAPair]:
        units: list[QAPair] = []
        seen: set[tuple] = set()
        for predicate, ptype, question, answer, *hints in drafts:
            key = (predicate.lower(), question.lower(), answer.lower(), *hints)
            if key in seen:
                continue  # the same relation twice adds nothing
            seen.add(key)
            # the enum path knows where its predicate and answer are; the free path does not
            pred_at, answer_at = hints if hints else (None, None)
            answer_span = locate(answer, sentence.text, offset=sentence.start, near=answer_at)
            if answer_span is None:
                continue
            pred_span = locate_word(predicate, sentence.text, offset=sentence.start,
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


def _short(exc: Exception, limit: int = 160) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
