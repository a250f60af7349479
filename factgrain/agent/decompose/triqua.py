"""Hyper-relational decomposition (TriQua): simple facts as (subject, relation, object) triples,
complex facts as a base triple plus typed qualifiers that each modify the base only.

Two ways of asking:

* ``span_mode="free"`` - the paper's setup: few-shot open information extraction over the whole
  text, or chunk by chunk for long texts with the chunk before as context; the prompt is one of four
  modes (question yes/no x chunked yes/no). Validators check that the object and every qualifier
  value are copied from the text and re-ask when they are not; every component is then snapped to
  its character span and each fact to the sentence that holds it.
* ``span_mode="parse"`` - offline, no model call: the facts of each sentence come from spaCy's
  dependency parse (:mod:`.triqua_parse`): the base triple from subject, verb group and object,
  qualifiers typed by their opening words and entities. ``enum`` is a deprecated alias.

``auto`` is decided by :func:`factgrain.agent.decompose.base.resolve_span_mode` (the tier table).
"""

from __future__ import annotations

from typing import Any, ClassVar

from factgrain.agent.decompose import context as ctx
from factgrain.agent.decompose import parse_mode, triqua_parse
from factgrain.agent.decompose.base import Decomposer, register_decomposer
from factgrain.agent.decompose.triqua_free import (  # noqa: F401 - the free path's schema, re-exported
    MAX_FACTS_PER_PASSAGE,
    MAX_QUALIFIERS,
    FactDraft,
    QualifierDraft,
    TriQuaDecomposition,
    relation_words,
)
from factgrain.agent.locate import locate, locate_word
from factgrain.errors import StructuredOutputError
from factgrain.prompts import TRIQUA_MODES, defuse
from factgrain.schemas.spans import Document, Sentence, Span
from factgrain.schemas.units import HyperRelationalFact, Qualifier, QualifierType

_relation_words = relation_words


@register_decomposer("triqua")
class TriQuaDecomposer(Decomposer):
    name: ClassVar[str] = "triqua"
    prompt_names: ClassVar[tuple[str, ...]] = tuple(p.name for p in TRIQUA_MODES.values())

    def __init__(self, backend: Any, *, span_mode: str = "auto", prompts: dict[tuple[bool, bool], Any] | None = None,
                 max_facts: int = MAX_FACTS_PER_PASSAGE, fallback: bool | None = None, **options: Any):
        super().__init__(backend, **options)
        self.span_mode = parse_mode.span_mode_of(span_mode, backend)
        self.prompts = {**TRIQUA_MODES, **(prompts or {})}
        self.max_facts = max_facts
        if fallback is None:  # free mode: sentences the model leaves without a fact go to the offline reader
            from factgrain.agent.tiers import choose

            fallback = choose(backend, span_mode=self.span_mode).fallback
        self.fallback = fallback
        self.sentence_sources: dict[int, str] = {}  # sentence index -> model | fallback | none | no content
        self.empty_reasons: dict[int, str] = {}
        self.dropped: list[str] = []

    def prompt_versions(self) -> dict[str, str]:
        return {} if self.span_mode == "parse" else super().prompt_versions()  # no prompt is used offline

    # -- free mode: the paper's passage-level extraction -----------------------------------------
    async def decompose(self, doc: Document) -> list[HyperRelationalFact]:
        if self.span_mode == "parse":
            if parse_mode.skip_foreign_text(self, doc):
                return []
            parse_mode.parse_sentences(doc)  # one batched parse of every sentence, then cached
            return _resolve_pronouns(await super().decompose(doc))  # sentence by sentence
        return await self._each([c for c in doc.chunks if c.sentence_indices], "chunk",
                                lambda c: list(c.sentence_indices), lambda c: self.decompose_chunk(c.index, doc))

    def messages(self, doc: Document, passage: str, context: str) -> list[dict[str, str]]:
        """The prompt of the mode this passage is in: question yes/no x context (chunk) yes/no."""
        prompt = self.prompts[(bool(doc.question), bool(context))]
        values = {"text": defuse(passage)}
        if doc.question:
            values["question"] = defuse(doc.question)
        if context:
            values["context"] = defuse(context)
        return prompt.render(**values)

    async def decompose_chunk(self, chunk_index: int, doc: Document) -> list[HyperRelationalFact]:
        """One chunk (the whole text when it is not chunked), with the chunk before as context.
        The passage is the chunk's own sentences, so overlapping chunks never repeat a fact."""
        sentences = [doc.sentences[i] for i in doc.chunks[chunk_index].sentence_indices]
        return await self._free(doc, sentences, ctx.previous_chunk(doc, chunk_index))

    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[HyperRelationalFact]:
        """One sentence alone (parse mode's unit of work; also used to redo a single sentence)."""
        if self.span_mode == "parse":
            return self._parse_facts(sentence)
        return await self._free(doc, [sentence], ctx.sentence_context(doc, sentence))

    async def _free(self, doc: Document, sentences: list[Sentence], context: str) -> list[HyperRelationalFact]:
        start, end = sentences[0].start, sentences[-1].end
        passage = doc.text[start:end]
        content = [s for s in sentences if ctx.has_content(s.text)]
        for s in sentences:
            if s not in content:
                self.sentence_sources[s.index] = "no content"
        if not content:
            return []
        background = "\n".join(t for t in (context, doc.question or "") if t)
        check: dict[str, Any] = {"text": passage, "background": background, "require": True}
        try:
            obj, _ = await self.backend.structured(
                self.messages(doc, passage, context), TriQuaDecomposition, context=check,
                max_tokens=min(8192, 120 * self.max_facts, 300 + 6 * len(passage.split()) * 4),
            )
        except StructuredOutputError as exc:
            if not self.fallback:
                raise
            return await self._fall_back(content, f"the model gave no valid fact ({_short(exc)})")
        self.dropped.extend(check.get("dropped", []))
        units = self._snap(doc, sentences, obj.facts[: self.max_facts])
        covered = {u.sentence_index for u in units}
        for s in content:
            if s.index in covered:
                self.sentence_sources[s.index] = "model"
        missing = [s for s in content if s.index not in covered]
        if missing and self.fallback:
            units += await self._fall_back(missing, "the model's facts left it out")
        elif missing:
            for s in missing:
                self.sentence_sources[s.index] = "none"
                self.empty_reasons[s.index] = "the model's facts left it out"
        return sorted(units, key=lambda u: u.sentence_index)  # stable: each sentence keeps its facts' order

    async def _fall_back(self, sentences: list[Sentence], why: str) -> list[HyperRelationalFact]:
        """The offline reader for sentences the model could not decompose, each with a warning."""
        units: list[HyperRelationalFact] = []
        for s in sentences:
            facts = self._parse_facts(s)
            self.sentence_sources[s.index] = "fallback" if facts else "none"
            self.warnings.append(f"sentence {s.index} ({ctx._quote(s.text)}): {why}; the offline reader gave "
                                 f"{len(facts)} fact(s) instead")
            if not facts:
                self.empty_reasons[s.index] = why + "; the offline reader found none either"
            units += facts
        return units

    def _snap(self, doc: Document, sentences: list[Sentence], drafts: list[FactDraft]) -> list[HyperRelationalFact]:
        """Give every fact the sentence its object (else relation, else first qualifier) sits in,
        and every component its span. Facts follow the text, so each search prefers the match
        nearest the previous fact."""
        base = sentences[0].start
        passage = doc.text[base:sentences[-1].end]
        units: list[HyperRelationalFact] = []
        seen: set[tuple] = set()
        cursor = 0
        counters: dict[int, int] = {}
        for d in drafts:
            key = (d.subject.lower(), d.relation.lower(), d.object.lower(),
                   tuple((q.type, q.value.lower()) for q in d.qualifiers))
            if key in seen:
                continue  # the same fact twice adds nothing
            seen.add(key)
            anchor = locate(d.object, passage, near=cursor) if d.object.strip() else None
            anchor = anchor or next(iter(_relation_words(d.relation, passage)), None)
            if anchor is None and d.qualifiers:
                anchor = locate(d.qualifiers[0].value, passage, near=cursor)
            if anchor is None:
                self.warnings.append(f"fact {d.subject!r} {d.relation!r} {d.object!r} not found in the text; dropped")
                continue
            cursor = anchor.start
            sent = next((s for s in reversed(sentences) if s.start <= base + anchor.start), sentences[0])
            units.append(self._fact(sent, d, passage, base, counters))
        return units

    def _fact(self, sent: Sentence, d: FactDraft, passage: str, base: int,
              counters: dict[int, int]) -> HyperRelationalFact:
        """A fact's spans: searched in its sentence first, then in the whole passage (a subject
        resolved from an earlier sentence, a qualifier stated once for several facts)."""
        text, off = sent.text, sent.start

        def find(value: str, near: int | None = None, word: bool = False) -> Span | None:
            if not value.strip():
                return None
            how = locate_word if word else locate
            return how(value, text, offset=off, near=near) or how(value, passage, offset=base, near=off - base)

        obj_span = find(d.object)
        near = obj_span.start - off if obj_span else None
        rel_span = locate_word(d.relation, text, offset=off, near=near) or next(
            (s.shifted(off) for s in _relation_words(d.relation, text)), None)
        subj_span = find(d.subject, word=True)
        quals = []
        for q in d.qualifiers:
            span = find(q.value, near)
            quals.append(Qualifier(type=QualifierType(q.type), value=span.text if span else q.value.strip(), span=span))
        n = counters.get(sent.index, 0)
        counters[sent.index] = n + 1
        return HyperRelationalFact(
            id=f"s{sent.index}.u{n}", sentence_index=sent.index, chunk_index=sent.chunk_index,
            subject=subj_span.text if subj_span else d.subject.strip(), relation=d.relation.strip(),
            object=obj_span.text if obj_span else d.object.strip(), qualifiers=quals,
            subject_span=subj_span, relation_span=rel_span, object_span=obj_span,
        )

    # -- parse mode: the facts come from the dependency parse, no model call ----------------------
    def _parse_facts(self, sentence: Sentence) -> list[HyperRelationalFact]:
        """The facts of one sentence from spaCy's parse (exact spans). A sentence written mostly in a script
        the English pipeline cannot read gets a warning naming it (only its Latin-script words are read)."""
        script = parse_mode.unreadable(sentence.text)
        if script is not None:
            self.warnings.append(parse_mode.unreadable_warning(sentence, script))
        text, off = sentence.text, sentence.start
        units = []
        for found in triqua_parse.facts(text):
            quals = [Qualifier(type=q.type, value=text[q.range[0]:q.range[1]], span=_span(text, off, q.range))
                     for q in found.qualifiers[:MAX_QUALIFIERS]]
            subj = _span(text, off, found.subject)
            obj = _span(text, off, found.object)
            units.append(HyperRelationalFact(
                id=f"s{sentence.index}.u{len(units)}", sentence_index=sentence.index, chunk_index=sentence.chunk_index,
                subject=subj.text, relation=found.relation_text, object=obj.text if obj else "", qualifiers=quals,
                subject_span=subj, relation_span=_span(text, off, found.relation), object_span=obj,
            ))
        return units


_PRONOUNS = {"it", "he", "she", "they"}


def _resolve_pronouns(units: list[HyperRelationalFact]) -> list[HyperRelationalFact]:
    """Parse mode's stand-in for the model's decontextualisation: a pronoun subject becomes the
    subject of the previous sentence's first fact (its span points at that mention)."""
    first: dict[int, HyperRelationalFact] = {}
    for u in units:
        first.setdefault(u.sentence_index, u)
    for u in units:
        prev = first.get(u.sentence_index - 1)
        if u.subject.lower() in _PRONOUNS and prev is not None and prev.subject.lower() not in _PRONOUNS:
            u.subject, u.subject_span = prev.subject, prev.subject_span
    return units


def _span(text: str, offset: int, rng: tuple[int, int] | None) -> Span | None:
    if rng is None:
        return None
    return Span(start=offset + rng[0], end=offset + rng[1], text=text[rng[0]:rng[1]])


def _short(exc: Exception, limit: int = 160) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
