"""Reflect and refine (Decomposition Dilemmas, section 5.3).

For every *scope* - the sentences a group of units came from - the lint runs first; then the
model reviews the units: errors by category, a judgment (Good / Problematic / No need for
decomposition) and, when problematic, a refined decomposition. A refinement replaces the units
only if it validates and does not make the lint worse; "No need for decomposition" collapses the
scope to one claim covering its text. Later rounds revisit only scopes that changed. Every
reflection is recorded as a :class:`ReflectionRound`.

Two paths:

* ``full`` (default for real models): one structured call per scope - reasoning, errors,
  judgment and refinement together.
* ``light`` (default for the bundled 135M model): only scopes the lint flagged are reviewed, at
  most ``max_scopes`` per round; the judgment is one grammar-constrained choice and a refinement
  (units only, no reasoning) is asked for only after a "Problematic".
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationInfo, create_model, field_validator

from factgrain.agent.lint import Scope, lint_scope, scopes
from factgrain.agent.locate import locate, locate_word
from factgrain.backends.base import Backend
from factgrain.errors import ConfigurationError, FactgrainError
from factgrain.prompts import defuse
from factgrain.prompts.reflect import REFLECT, REFLECT_JUDGE
from factgrain.schemas.reflection import JUDGMENTS, SUBTYPES, DecompositionError, ErrorCategory, ReflectionRound, Subtype
from factgrain.schemas.spans import Document, Sentence, Span
from factgrain.schemas.units import Claim, HyperRelationalFact, PredicateType, QAPair, Qualifier, QualifierType, Unit

Kind = Literal["qa", "fact", "claim"]
MAX_REFINED = 12
LIGHT_MAX_SCOPES = 8


# -- what the model returns ----------------------------------------------------------------------
class FoundError(BaseModel):
    """One decomposition error."""

    category: Literal["omission", "ambiguity", "over_decomposition", "alteration"]
    subtype: Subtype
    units: list[int] = Field(default_factory=list, description="Numbers of the units involved, as listed.")
    explanation: str = Field(max_length=300)


class RefinedQA(BaseModel):
    """A predicate-argument relation as a question and an answer copied from the text."""

    predicate: str = Field(max_length=60, description="The predicate word, copied from the text.")
    question: str = Field(max_length=120, description="A short question about one argument of the predicate.")
    answer: str = Field(max_length=160, description="The answer, copied word for word from the text.")

    @field_validator("answer")
    @classmethod
    def _in_text(cls, value: str, info: ValidationInfo) -> str:
        text = (info.context or {}).get("scope")
        if text is not None and locate(value, text) is None:
            raise ValueError(f"the answer {value!r} is not in the text; copy the answer exactly from the text")
        return value


class RefinedQualifier(BaseModel):
    type: QualifierType
    value: str = Field(max_length=120)


class RefinedFact(BaseModel):
    """A base triple and the qualifiers that hold only together with it."""

    subject: str = Field(max_length=120)
    relation: str = Field(max_length=80)
    object: str = Field(max_length=160)
    qualifiers: list[RefinedQualifier] = Field(default_factory=list, max_length=6)


_REFINED_TYPE: dict[str, Any] = {"claim": str, "qa": RefinedQA, "fact": RefinedFact}
KIND_HELP = {
    "claim": "each refined unit is one complete claim sentence that makes sense on its own.",
    "qa": "each refined unit is a predicate copied from the text, a short question about one of its "
          "arguments ('who won something?'), and the answer copied word for word from the text.",
    "fact": "each refined unit is a subject, a relation and an object, plus typed qualifiers (temporal, "
            "spatial, causal, sequential, source, constraint, attribute, condition) that restrict it.",
}


def reply_model(kind: str, *, full: bool = True) -> type[BaseModel]:
    """The reply schema, fields in the order the model should think: reasoning, errors, judgment,
    refinement (``full=False``: the refinement only)."""
    refined = (list[_REFINED_TYPE[kind]], Field(default_factory=list, max_length=MAX_REFINED,
                                                description="The refined decomposition; empty unless Problematic."))
    if not full:
        return create_model(f"{kind.title()}Refinement", refined=refined)
    return create_model(
        f"{kind.title()}Reflection",
        reasoning=(str, Field(max_length=1500, description="Step-by-step review of the units against the text.")),
        errors=(list[FoundError], Field(default_factory=list, max_length=8,
                                        description="Every error found, including each automatic finding you agree "
                                        "with; empty only when the decomposition has none.")),
        judgment=(Literal["Good", "Problematic", "No need for decomposition"], ...),
        refined=refined,
    )


# -- rendering the units for the prompt ----------------------------------------------------------
def describe_unit(unit: Unit) -> str:
    if isinstance(unit, QAPair):
        return f"{unit.question} -> {unit.answer}"
    if isinstance(unit, HyperRelationalFact):
        quals = "; ".join(f"{q.type.value}: {q.value}" for q in unit.qualifiers)
        return unit.triple() + (f" [{quals}]" if quals else "")
    return unit.statement()


def _findings_text(errors: list[DecompositionError], numbers: dict[str, int]) -> str:
    if not errors:
        return ""
    lines = []
    for e in errors:
        which = [numbers[i] for i in e.unit_ids if i in numbers]
        lines.append(f"- {e.category.value} / {e.subtype}" + (f" (units {which})" if which else "") + f": {e.explanation}")
    return "Automatic checks flagged (they can be wrong):\n" + defuse("\n".join(lines)) + "\n\n"


def unit_kind(units: list[Unit], method: str) -> Kind:
    if units:
        return units[0].kind  # type: ignore[return-value]
    if method.startswith("triqua"):
        return "fact"
    if method.startswith("qasem"):
        return "qa"
    return "claim"


# -- turning drafts into units with spans --------------------------------------------------------
def _sentence_at(doc: Document, pos: int, scope: Scope) -> Sentence:
    for i in scope.sentence_indices:
        s = doc.sentences[i]
        if s.start <= pos < s.end:
            return s
    return doc.sentences[scope.sentence_indices[0]]


def _find(phrase: str, scope: Scope) -> Span | None:
    return locate(phrase, scope.text, offset=scope.start) if phrase.strip() else None


def build_units(drafts: list[Any], kind: str, scope: Scope, doc: Document, prefix: str) -> list[Unit]:
    """Units with spans snapped into the scope's text; drafts whose quoted parts cannot be found
    there are dropped (QA answers), or kept without that span (fact parts)."""
    out: list[Unit] = []
    for draft in drafts:
        uid = f"{prefix}{len(out)}"
        if kind == "claim":
            text = str(draft).strip()
            if not text:
                continue
            from factgrain.agent.decompose.claims import best_sentence

            local = Document(text=doc.text, sentences=[doc.sentences[i] for i in scope.sentence_indices], chunks=doc.chunks)
            sent = best_sentence(text, local)
            span = locate(text, sent.text, offset=sent.start) or Span(start=sent.start, end=sent.end, text=sent.text)
            out.append(Claim(id=uid, sentence_index=sent.index, chunk_index=sent.chunk_index, text=text, span=span))
        elif kind == "qa":
            answer = _find(draft.answer, scope)
            if answer is None:
                continue
            sent = _sentence_at(doc, answer.start, scope)
            pred = locate_word(draft.predicate, sent.text, offset=sent.start, near=answer.start - sent.start)
            ptype = PredicateType.copular if draft.predicate.lower() in {"is", "was", "are", "were"} else PredicateType.verbal
            out.append(QAPair(id=uid, sentence_index=sent.index, chunk_index=sent.chunk_index,
                              predicate=pred.text if pred else draft.predicate, predicate_type=ptype,
                              question=draft.question.strip(), answer=answer.text, predicate_span=pred,
                              answer_span=answer))
        else:
            spans = {name: _find(getattr(draft, name), scope) for name in ("subject", "relation", "object")}
            first = next((s for s in spans.values() if s), None)
            sent = _sentence_at(doc, first.start, scope) if first else doc.sentences[scope.sentence_indices[0]]
            quals = [Qualifier(type=q.type, value=q.value, span=_find(q.value, scope)) for q in draft.qualifiers]
            out.append(HyperRelationalFact(id=uid, sentence_index=sent.index, chunk_index=sent.chunk_index,
                                           subject=draft.subject, relation=draft.relation, object=draft.object,
                                           qualifiers=quals, subject_span=spans["subject"],
                                           relation_span=spans["relation"], object_span=spans["object"]))
    return out


def collapse(scope: Scope, doc: Document, uid: str) -> Claim:
    """'No need for decomposition': the scope's text as one claim."""
    sent = doc.sentences[scope.sentence_indices[0]]
    return Claim(id=uid, sentence_index=sent.index, chunk_index=sent.chunk_index, text=scope.text,
                 span=Span(start=scope.start, end=scope.end, text=scope.text))


def _llm_errors(found: list[FoundError], units: list[Unit]) -> list[DecompositionError]:
    out = []
    for f in found:
        category = ErrorCategory(f.category)
        if f.subtype not in SUBTYPES[category]:  # trust the more specific subtype
            category = next(c for c, subs in SUBTYPES.items() if f.subtype in subs)
        ids = [units[i - 1].id for i in f.units if 1 <= i <= len(units)]
        out.append(DecompositionError(category=category, subtype=f.subtype, unit_ids=ids,
                                      explanation=f.explanation, source="llm"))
    return out


# -- one scope -----------------------------------------------------------------------------------
class _ScopeReflector:
    def __init__(self, backend: Backend, doc: Document, method: str, light: bool):
        self.backend, self.doc, self.method, self.light = backend, doc, method, light

    def _blocks(self, scope: Scope, errors: list[DecompositionError]) -> dict[str, str]:
        numbers = {u.id: i + 1 for i, u in enumerate(scope.units)}
        listing = "\n".join(f"[{i + 1}] {describe_unit(u)}" for i, u in enumerate(scope.units)) or "(no units)"
        return {"text": defuse(scope.text), "units": defuse(listing), "findings": _findings_text(errors, numbers)}

    async def _refine_anyway(self, scope: Scope, kind: str, blocks: dict[str, str], context: dict[str, Any],
                             drafts: list[Any]) -> list[Any]:
        """Units for a scope that has none, asked for after a Good judgment (the lint's omission
        finding is certain there); the full path's own refinement is used when it gave one."""
        if drafts:
            return drafts
        try:
            refine_msgs = REFLECT.render(question_block="", kind_help=KIND_HELP[kind], **blocks)
            obj, _ = await self.backend.structured(refine_msgs, reply_model(kind, full=False), context=context,
                                                   max_retries=1, max_tokens=400)
        except FactgrainError:
            return []
        return list(obj.refined)

    async def reflect(self, scope: Scope, round_no: int) -> ReflectionRound:
        kind = unit_kind(scope.units, self.method)
        before = lint_scope(scope, self.doc)
        record = dict(round=round_no, sentence_indices=scope.sentence_indices, scope_text=scope.text,
                      input_units=scope.units, lint=before)
        prefix = f"s{scope.sentence_indices[0]}.r{round_no}."
        blocks = self._blocks(scope, before)
        context = {"scope": scope.text}
        try:
            if self.light:
                messages = REFLECT_JUDGE.render(**blocks)
                reply = await self.backend.chat(messages, max_tokens=8, choices=list(JUDGMENTS))
                judgment = reply.text.strip()
                if judgment not in JUDGMENTS:
                    return ReflectionRound(**record, output_units=scope.units, action="failed",
                                           reason=f"judgment was not one of the choices: {judgment[:40]!r}",
                                           prompt_version=REFLECT_JUDGE.version)
                reasoning, llm_errors, drafts = None, [], []
                if judgment == "Problematic":
                    refine_msgs = REFLECT.render(question_block="", kind_help=KIND_HELP[kind], **blocks)
                    obj, _ = await self.backend.structured(refine_msgs, reply_model(kind, full=False),
                                                           context=context, max_retries=1, max_tokens=400)
                    drafts = obj.refined
                version = REFLECT_JUDGE.version
            else:
                question = f"<question>\n{defuse(self.doc.question)}\n</question>\n\n" if self.doc.question else ""
                messages = REFLECT.render(question_block=question, kind_help=KIND_HELP[kind], **blocks)
                obj, _ = await self.backend.structured(messages, reply_model(kind), context=context, max_tokens=2000)
                judgment, reasoning, drafts = obj.judgment, obj.reasoning, obj.refined
                llm_errors = _llm_errors(obj.errors, scope.units)
                version = REFLECT.version
        except FactgrainError as exc:
            return ReflectionRound(**record, output_units=scope.units, action="failed",
                                   reason=f"reflection call failed: {exc}", prompt_version=None)
        record.update(judgment=judgment, reasoning=reasoning, llm_errors=llm_errors, prompt_version=version,
                      **_errors_of(llm_errors, before, judgment, self.light))
        if judgment == "Good" and before:
            record["disagreement"] = (f"judged Good against {len(before)} lint finding(s): "
                                      + ", ".join(sorted({e.label() for e in before})))
        certain = not scope.units  # a sentence with content and no unit is an omission whatever the judgment
        if judgment == "Good" and certain:
            drafts = await self._refine_anyway(scope, kind, blocks, context, drafts)
            if not drafts:
                return ReflectionRound(**record, output_units=scope.units, action="kept",
                                       reason="judged Good, although no unit covers the text; asked for units "
                                       "anyway, none usable came back")
        elif judgment == "Good":
            return ReflectionRound(**record, output_units=scope.units, action="kept", reason="judged Good")
        if judgment == "No need for decomposition":
            one = collapse(scope, self.doc, prefix + "0")
            return ReflectionRound(**record, proposed_units=[one], output_units=[one], action="collapsed",
                                   reason="judged No need for decomposition: the text is the unit")
        proposed = build_units(drafts, kind, scope, self.doc, prefix)
        if not proposed and certain and judgment == "Good":
            return ReflectionRound(**record, output_units=scope.units, action="kept",
                                   reason="judged Good, although no unit covers the text; the units asked for anyway "
                                   "could not be tied to the text")
        if not proposed:
            return ReflectionRound(**record, output_units=scope.units, action="rejected",
                                   reason="judged Problematic but no usable refinement was given")
        after = lint_scope(Scope(scope.sentence_indices, scope.start, scope.end, scope.text, proposed), self.doc)
        if len(after) > len(before):
            return ReflectionRound(**record, proposed_units=proposed, output_units=scope.units, action="rejected",
                                   reason=f"refinement makes the lint worse ({len(before)} -> {len(after)} findings)")
        return ReflectionRound(**record, proposed_units=proposed, output_units=proposed, action="refined",
                               reason=f"refinement accepted (lint {len(before)} -> {len(after)} findings)")


def _errors_of(llm_errors: list[DecompositionError], lint: list[DecompositionError], judgment: str,
               light: bool) -> dict[str, Any]:
    """The errors a round stands on and a note saying where they come from (or why there are none)."""
    if llm_errors:
        return {"errors": llm_errors, "errors_note": f"{len(llm_errors)} error(s) listed by the model"}
    if light and lint:
        return {"errors": lint, "errors_note": "light reflection asks the model for a judgment only; these are the "
                                               "lint findings it was shown"}
    if lint:
        return {"errors": lint, "errors_note": f"the model judged {judgment} but listed no error; these are the lint "
                                               "findings it was shown"}
    if judgment == "Problematic":
        return {"errors": [], "errors_note": "the model judged Problematic but named no error, and the lint found none"}
    return {"errors": [], "errors_note": f"no error: judged {judgment} and the lint found none"}


# -- the loop ------------------------------------------------------------------------------------
def _unique_ids(units: list[Unit]) -> list[Unit]:
    seen: set[str] = set()
    out = []
    for u in units:
        uid, k = u.id, 1
        while uid in seen:
            uid, k = f"{u.id}~{k}", k + 1
        seen.add(uid)
        out.append(u if uid == u.id else u.model_copy(update={"id": uid}))
    return out


async def reflect_and_refine(
    units: list[Unit],
    doc: Document,
    backend: Backend,
    *,
    rounds: int = 1,
    method: str = "qasem",
    mode: Literal["auto", "full", "light"] = "auto",
    max_scopes: int | None = None,
) -> tuple[list[Unit], list[ReflectionRound]]:
    """Review and repair a decomposition; returns the new units and the trace of every reflection."""
    if mode == "auto":
        mode = "light" if backend.provider == "embedded" else "full"
    if mode not in ("full", "light"):
        raise ConfigurationError(f"reflection mode must be auto, full or light, not {mode!r}")
    light = mode == "light"
    if max_scopes is None and light:
        max_scopes = LIGHT_MAX_SCOPES
    reflector = _ScopeReflector(backend, doc, method, light)
    sem = asyncio.Semaphore(backend.max_connections)
    trace: list[ReflectionRound] = []
    changed: set[int] | None = None  # first sentence of scopes to revisit; None = every scope

    async def one(scope: Scope, r: int) -> ReflectionRound:
        async with sem:
            return await reflector.reflect(scope, r)

    for r in range(1, rounds + 1):
        all_scopes = scopes(units, doc)
        todo = [s for s in all_scopes if changed is None or s.sentence_indices[0] in changed]
        if light:  # only what the lint flagged, most findings first
            flagged = [(len(lint_scope(s, doc)), s) for s in todo]
            todo = [s for n, s in sorted(flagged, key=lambda x: -x[0]) if n > 0]
        if max_scopes is not None:
            todo = todo[:max_scopes]
        if not todo:
            break
        results = await asyncio.gather(*(one(s, r) for s in todo))
        trace.extend(results)
        by_first = {res.sentence_indices[0]: res for res in results}
        units = _unique_ids([u for s in all_scopes
                             for u in (by_first[s.sentence_indices[0]].output_units
                                       if s.sentence_indices[0] in by_first else s.units)])
        changed = {res.sentence_indices[0] for res in results if res.changed}
        if not changed:
            break
    return units, trace
