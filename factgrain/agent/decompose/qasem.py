"""QA-pair decomposition (QASemConsistency): one question-answer pair per predicate-argument
relation, for verbal, nominal and copular predicates. Answers are spans of the sentence.

Two ways of reading a sentence:

* ``span_mode="parse"`` - offline, no model call: the predicates, their arguments and the
  question words come from spaCy's dependency parse (:mod:`.qasem_parse`). Answers and predicates
  are the parse's own character offsets. ``enum`` is a deprecated alias.
* ``span_mode="free"`` - the model writes predicate, question and answer; validators locate the
  answer and predicate in the sentence and re-ask when they are not there.

``auto`` asks the model's tier (``factgrain.agent.tiers``): the offline path (``parse``; ``enum`` is
its old name) with no model or the bundled 135M, ``free`` otherwise; for a small model a sentence
the model cannot decompose validly falls back to the offline reader, with a warning. The free
path's schema and checks are in :mod:`.qasem_free`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from factgrain.agent.decompose import context as ctx
from factgrain.agent.decompose import parse_mode, qasem_parse
from factgrain.agent.decompose.base import Decomposer, register_decomposer
from factgrain.agent.decompose.qasem_free import MAX_QAS_PER_SENTENCE, QADecomposition, QADraft  # noqa: F401
from factgrain.agent.locate import locate, locate_word
from factgrain.agent.reader import plain_quotes
from factgrain.errors import StructuredOutputError
from factgrain.prompts import DECOMPOSE_QASEM, defuse
from factgrain.schemas.spans import Document, Sentence, Span
from factgrain.schemas.units import PredicateType, QAPair

# predicate, predicate type, question, answer[, predicate offset, answer offset in the sentence]
Draft = tuple




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
                 max_qas_per_sentence: int = MAX_QAS_PER_SENTENCE, fallback: bool | None = None, **options: Any):
        super().__init__(backend, **options)
        self.span_mode = parse_mode.span_mode_of(span_mode, backend)
        self.prompt = prompt or DECOMPOSE_QASEM
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

    def prompt_versions(self) -> dict[str, str]:
        return {} if self.span_mode == "parse" else super().prompt_versions()  # no prompt is used offline

    def _messages(self, sentence: Sentence, doc: Document) -> list[dict[str, str]]:
        return self.prompt.render(question_block=ctx.question_block(doc),
                                  context_block=ctx.context_block(ctx.sentence_context(doc, sentence)),
                                  sentence=defuse(sentence.text))

    async def decompose(self, doc: Document) -> list[QAPair]:
        if self.span_mode == "parse":
            if parse_mode.skip_foreign_text(self, doc):
                return []
            parse_mode.parse_sentences(doc)  # one batched parse of every sentence, then cached
        return await super().decompose(doc)

    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[QAPair]:
        if self.span_mode != "free":
            return self._to_units(sentence, self._parse_drafts(sentence))
        if not ctx.has_content(sentence.text):
            self.sentence_sources[sentence.index] = "no content"
            return []
        from factgrain.agent.reader import foreign_script

        context: dict[str, Any] = {"sentence": sentence.text, "require": True,
                                   "parse_checks": self.fallback and foreign_script(sentence.text) is None}
        words = len(sentence.text.split())
        try:
            obj, _ = await self.backend.structured(
                self._messages(sentence, doc), QADecomposition, context=context,
                max_tokens=min(80 * self.max_qas, 240 + 30 * words))
        except StructuredOutputError as exc:
            if not self.fallback:
                raise
            units = self._to_units(sentence, self._parse_drafts(sentence))
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

    def _parse_drafts(self, sentence: Sentence) -> list[Draft]:
        """The offline reader (no model call): one draft per predicate-argument relation of the
        sentence's dependency parse, as (predicate, type, question, answer, predicate offset,
        answer offset), offsets counted in the sentence. A sentence written mostly in a script the
        English pipeline cannot read gets a warning naming it (only its Latin-script words are read)."""
        script = parse_mode.unreadable(sentence.text)
        if script is not None:
            self.warnings.append(parse_mode.unreadable_warning(sentence, script))
        # read with ASCII quotes (so the reader's quote and clitic rules see them), words taken
        # back from the sentence itself: same length, same offsets
        text = sentence.text
        drafts: list[Draft] = []
        for q in qasem_parse.read_qas(plain_quotes(text)):
            answer = text[q.answer_start:q.answer_start + len(q.answer)]  # the reader drops a trailing comma
            if answer:
                drafts.append((text[q.predicate_start:q.predicate_start + len(q.predicate)], q.predicate_type,
                               q.question, answer, q.predicate_start, q.answer_start))
        return drafts

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


def _short(exc: Exception, limit: int = 160) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
