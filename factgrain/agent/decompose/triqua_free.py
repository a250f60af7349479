"""Free-mode TriQua: the reply schema the model fills and the checks that tie each fact to the text.

What a small model got wrong (issue 15): an empty reply, circumstances written as facts of their
own (``('mayor'; 'because of'; 'heavy rain')``), and qualifier types that do not fit the value
("in Physics" typed spatial). So:

* a fact whose relation is only a qualifier's opening word ("because of", "after", "according
  to" ...) becomes a qualifier of the fact before it, typed by that word;
* a spatial qualifier must name a place (a place entity of the parse, or a place noun), a
  temporal one a time; one that does not is retyped (a time -> temporal, a place -> spatial,
  otherwise attribute);
* a fact that cannot be tied to the text is dropped, the others kept; only a reply with no usable
  fact is re-asked, with a message that says what to copy; an empty reply for a text with content
  is a failure (re-asked);
* the same fact twice is kept once.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field, ValidationInfo, model_validator

from factgrain.agent.locate import locate, locate_word

MAX_FACTS_PER_PASSAGE = 60
MAX_QUALIFIERS = 6
_STOP = {"a", "an", "the", "of", "is", "was", "are", "were", "has", "have", "had", "be", "been", "to", "in", "on", "at",
         "by", "for"}
_PLACE_ENTS = {"GPE", "LOC", "FAC"}
_TIME_ENTS = {"DATE", "TIME"}
_PLACE_NOUNS = set("city town village country state province region county district street road avenue square park "
                   "river lake sea ocean island mountain valley coast border capital area airport station harbour "
                   "harbor port hospital school university campus building house home church stadium field".split())
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})s?\b")
MAX_LISTED_PROBLEMS = 4
QualifierKind = Literal["temporal", "spatial", "condition", "causal", "sequential", "source", "constraint", "attribute"]


class QualifierDraft(BaseModel):
    """One qualifier of a fact: what kind of circumstance it adds, and its words from the text."""

    type: QualifierKind = Field(
        description="temporal: when (a date or time); spatial: where (a place); condition: only if / unless; "
        "causal: why, because of what; sequential: after or before which event; source: according to whom; "
        "constraint: a restriction of the scope (excluding, only); attribute: any other property of the "
        "assertion, such as a role, a manner or a field ('in Physics')."
    )
    value: str = Field(max_length=200, description="The qualifier's words, copied exactly from the text.")


class FactDraft(BaseModel):
    """One fact of the text: a base triple, plus qualifiers only when the text restricts it."""

    subject: str = Field(max_length=120, description="Who or what the fact is about, as named in the text "
                         "(a pronoun replaced by the entity it refers to).")
    relation: str = Field(max_length=80, description="The relation, in the text's own words: a verb with what "
                          "belongs to it, e.g. 'was born in', 'won', 'population'.")
    object: str = Field(default="", max_length=200, description="The object, copied exactly from the text; "
                        "empty only when the relation takes none.")
    qualifiers: list[QualifierDraft] = Field(
        default_factory=list, max_length=MAX_QUALIFIERS,
        description="The circumstances the text states for this fact (when, where, why, after what, "
        "according to whom...). A circumstance is a qualifier here, never a fact of its own.")


class TriQuaDecomposition(BaseModel):
    """All facts of the text, in the order of the text."""

    facts: list[FactDraft] = Field(default_factory=list, max_length=MAX_FACTS_PER_PASSAGE)

    @model_validator(mode="after")
    def _grounded(self, info: ValidationInfo) -> "TriQuaDecomposition":
        c = info.context if isinstance(info.context, dict) else {}
        text = c.get("text")
        if text is None:
            return self
        background = c.get("background", "") or ""
        kept: list[FactDraft] = []
        problems: list[str] = []
        seen: set[tuple] = set()
        for fact in self.facts:
            lead = qualifier_lead(fact.relation)
            if lead is not None and kept:
                value = f"{fact.relation.strip()} {fact.object.strip()}".strip()
                span = locate(value, text) or locate(fact.object, text)
                if span is not None and len(kept[-1].qualifiers) < MAX_QUALIFIERS:
                    kept[-1].qualifiers.append(QualifierDraft(type=lead, value=span.text))
                    continue
            problem = ground_fact(fact, text, background)
            if problem:
                problems.append(problem)
                continue
            key = (fact.subject.lower(), fact.relation.lower(), fact.object.lower(),
                   tuple((q.type, q.value.lower()) for q in fact.qualifiers))
            if key in seen:
                continue
            seen.add(key)
            kept.append(fact)
        for fact in kept:
            for q in fact.qualifiers:
                q.type = fit_type(q.type, q.value, text)  # type: ignore[assignment]
        if not kept and (self.facts or c.get("require")):
            lines = list(dict.fromkeys(problems))[:MAX_LISTED_PROBLEMS] or ["the reply lists no fact, but the text states something"]
            raise ValueError("; ".join(lines) + ". Give at least one fact; copy the object and every qualifier "
                             "value word for word from the text, and put circumstances (when, where, why) in "
                             "qualifiers of the fact they belong to.")
        c.setdefault("dropped", []).extend(problems)
        self.facts = kept
        return self


def qualifier_lead(relation: str) -> QualifierKind | None:
    """The qualifier type when a relation is nothing but a qualifier's opening word ('because of',
    'according to', 'after'); None for a real relation."""
    from factgrain.agent.decompose.triqua_parse import LEADS

    words = tuple(relation.lower().split())
    kind = LEADS.get(words)
    return kind.value if kind is not None else None  # type: ignore[return-value]


def relation_words(relation: str, text: str) -> list:
    """Spans of the relation's content words in ``text``, longest word first."""
    words = re.findall(r"\w+", relation)
    content = [w for w in words if w.lower() not in _STOP] or words  # 'had', 'is' are relations too
    words = sorted(set(content), key=len, reverse=True)
    return [s for w in words if (s := locate_word(w, text))]


def ground_fact(fact: FactDraft, text: str, background: str) -> str | None:
    """The first problem of a fact in words (what to fix), or None when every part is tied to the text."""
    if not fact.subject.strip():
        return "the subject is empty; name who or what the fact is about"
    if not any(locate(fact.subject, t) for t in (text, background) if t):
        return (f"the subject {fact.subject!r} is neither in the text nor in its context; use the name as the "
                "text gives it")
    if not relation_words(fact.relation, text):
        return f"the relation {fact.relation!r} uses none of the text's words; use the verb or noun the text uses"
    if fact.object.strip() and locate(fact.object, text) is None:
        return f"the object {fact.object!r} is not in the text; copy the object word for word from the text"
    for q in fact.qualifiers:
        if locate(q.value, text) is None:
            return f"the qualifier value {q.value!r} is not in the text; copy it word for word from the text"
    return None


def fit_type(kind: str, value: str, text: str) -> str:
    """A qualifier type that fits its value: spatial only for a place, temporal only for a time;
    otherwise the type the value's words show (time, place), else attribute."""
    if kind not in ("spatial", "temporal"):
        return kind
    place, time = _shows(value, text)
    if kind == "spatial" and not place:
        return "temporal" if time else "attribute"
    if kind == "temporal" and not time and place:
        return "spatial"
    return kind


def _shows(value: str, text: str) -> tuple[bool, bool]:
    """(names a place, names a time) for a phrase of ``text``, from the parse's entities where the
    phrase sits in the text, a year, or a place noun."""
    from factgrain.agent.reader import parse

    span = locate(value, text)
    place = time = False
    if span is not None:
        for ent in parse(text).ents:
            if ent.start_char < span.end and ent.end_char > span.start:
                place |= ent.label_ in _PLACE_ENTS
                time |= ent.label_ in _TIME_ENTS
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", value)}
    place |= bool(words & _PLACE_NOUNS)
    time |= bool(_YEAR.search(value))
    return place, time
