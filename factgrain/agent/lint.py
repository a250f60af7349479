"""Deterministic lint of a decomposition, mapped to the four error categories.

Runs before any model is asked, costs nothing, and explains every finding in words, so it is
useful even when the reflecting model is weak. Each rule looks at the units of one *scope* (the
sentences the units came from) against the text:

* A ``missing_core_claim`` - a sentence without any unit, or content words no unit mentions.
* A ``missing_logical_relation`` - the text says *because / but / than ...* and no unit keeps it.
* B ``ambiguous_pronoun`` / ``vague_reference`` / ``incomplete_name`` - a unit that leans on a
  bare pronoun, on 'the X' where the text says which X, or on part of a longer name.
* C ``redundant_information`` - (near-)duplicate units.
* C ``excessive_fragmentation`` - a list split into one claim per item, or more units than the
  input's complexity warrants (the paper finds the best results with no more sub-claims than
  clauses of the input).
* D ``added_content`` - names, numbers or many words that are nowhere in the text.
* D ``contradiction`` - a negation the text does not have, or that the unit dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from factgrain.schemas.reflection import DecompositionError, ErrorCategory
from factgrain.schemas.spans import Document
from factgrain.schemas.units import Claim, HyperRelationalFact, QAPair, Unit

_WORD = re.compile(r"[A-Za-z0-9]+(?:[-'.][A-Za-z0-9]+)*")
STOPWORDS = frozenset("""
a an the this that these those of in on at by for with from to into during after before since until about
against between through over under without as near across within is was are were be been being am has have
had do does did will would can could shall should may might must and or but nor so yet if then than also
it its it's he she they them their his her him we us our you your i me my who whom whose which what when
where why how someone something somebody some any all each every one there here not no never n't cannot
include includes including s very more most less least such other another both either neither only just
""".split())
PRONOUNS = frozenset("he she it they him her them his hers its their theirs this that these those".split())
DEMONSTRATIVES = frozenset("this that these those".split())
NEGATIONS = frozenset("not no never cannot nor none neither nobody nothing".split())
# Markers of the logical relations of category A, and their kind.
RELATION_MARKERS: dict[str, str] = {
    "because": "causal", "due to": "causal", "since": "causal", "therefore": "causal", "thus": "causal",
    "as a result": "causal", "caused": "causal", "led to": "causal", "so that": "causal",
    "but": "contrastive", "although": "contrastive", "though": "contrastive", "however": "contrastive",
    "whereas": "contrastive", "despite": "contrastive", "while": "contrastive",
    "than": "comparative", "compared": "comparative", "unlike": "comparative",
}
_DEFINITE_TAIL = frozenset("that which who whom responsible of known called named behind".split())
COORDINATORS = re.compile(r"\b(?:and|but|or|while|whereas|although)\b|;", re.IGNORECASE)
DUPLICATE_JACCARD = 0.85
ADDED_SHARE = 0.34


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def norm(word: str) -> str:
    w = word.lower().strip("'.")
    if w.endswith("n't"):
        return "not"
    return w


def content_words(text: str) -> list[str]:
    return [norm(w) for w in words(text) if norm(w) not in STOPWORDS and len(w) > 1]


def _same_word(a: str, b: str) -> bool:
    """Equal, or sharing a long prefix (withdraw / withdrew, include / including)."""
    if a == b:
        return True
    if a.isdigit() or b.isdigit():
        return False
    n = min(len(a), len(b))
    k = 0
    while k < n and a[k] == b[k]:
        k += 1
    return k >= 5 or (k >= 4 and n <= 6 and k >= n - 2)


def _mentioned(word: str, vocab: Iterable[str]) -> bool:
    return any(_same_word(word, v) for v in vocab)


def unit_text(unit: Unit) -> str:
    """Everything the unit asserts, as plain text (for QA pairs: only the copied parts)."""
    if isinstance(unit, QAPair):
        return f"{unit.predicate} {unit.answer}"
    if isinstance(unit, HyperRelationalFact):
        return " ".join([unit.subject, unit.relation, unit.object] + [q.value for q in unit.qualifiers])
    return unit.statement()


def unit_full_text(unit: Unit) -> str:
    return unit.statement() if not isinstance(unit, QAPair) else f"{unit.question} {unit.answer}"


def heads(unit: Unit) -> list[str]:
    """The phrases that name what a unit is about: a QA's answer, a fact's subject and object,
    a claim's first words."""
    if isinstance(unit, QAPair):
        return [unit.answer]
    if isinstance(unit, HyperRelationalFact):
        return [unit.subject, unit.object]
    return [unit.text]


@dataclass
class Scope:
    """Consecutive sentences and the span of text they cover."""

    sentence_indices: list[int]
    start: int
    end: int
    text: str
    units: list[Unit] = field(default_factory=list)


def unit_sentences(unit: Unit, doc: Document) -> list[int]:
    """The sentences a unit's spans touch (its own sentence when it has no span)."""
    spans = unit.spans()
    hit = {s.index for s in doc.sentences for sp in spans if sp.start < s.end and sp.end > s.start}
    return sorted(hit) or [min(unit.sentence_index, max(len(doc.sentences) - 1, 0))]


def scopes(units: list[Unit], doc: Document) -> list[Scope]:
    """Group units by the sentences they cover, merging overlapping groups; sentences with no
    unit become scopes of their own (so an omitted sentence is still looked at)."""
    n = len(doc.sentences)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: list[int] = []
    for u in units:
        idx = unit_sentences(u, doc) if n else [0]
        for a, b in zip(idx, idx[1:]):
            for k in range(a, b):
                parent[find(k + 1)] = find(k)
        owner.append(idx[0])
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    out: dict[int, Scope] = {}
    for root, members in sorted(groups.items(), key=lambda kv: kv[1][0]):
        first, last = doc.sentences[members[0]], doc.sentences[members[-1]]
        out[root] = Scope(members, first.start, last.end, doc.text[first.start:last.end])
    for u, first in zip(units, owner):
        if n:
            out[find(first)].units.append(u)
    return list(out.values())


def complexity(text: str) -> int:
    """Clauses, approximated as sentences plus clause-joining conjunctions."""
    from factgrain.agent.segment import split_sentences

    return max(1, len(split_sentences(text)) + len(COORDINATORS.findall(text)))


def _err(cat: ErrorCategory, subtype: str, ids: list[str], why: str) -> DecompositionError:
    return DecompositionError(category=cat, subtype=subtype, unit_ids=ids, explanation=why)


# -- A. omission ---------------------------------------------------------------------------------
def missing_content(scope: Scope, doc: Document) -> list[DecompositionError]:
    if not scope.units:
        return [_err(ErrorCategory.omission, "missing_core_claim", [],
                     f"no unit covers the sentence: {scope.text[:80]!r}")]
    said = {w for u in scope.units for w in content_words(unit_full_text(u))}
    missing = [w for w in dict.fromkeys(content_words(scope.text)) if not _mentioned(w, said)]
    if not missing:
        return []
    return [_err(ErrorCategory.omission, "missing_core_claim", [],
                 f"no unit mentions {', '.join(repr(w) for w in missing[:6])} from the text")]


def missing_relations(scope: Scope, doc: Document) -> list[DecompositionError]:
    out = []
    low = scope.text.lower()
    unit_texts = [unit_full_text(u).lower() for u in scope.units]
    for marker, kind in RELATION_MARKERS.items():
        if not re.search(rf"\b{re.escape(marker)}\b", low):
            continue
        if any(re.search(rf"\b{re.escape(marker)}\b", t) for t in unit_texts):
            continue
        if kind == "causal" and any(_keeps_cause(u) for u in scope.units):
            continue
        out.append(_err(ErrorCategory.omission, "missing_logical_relation", [],
                        f"the text links its parts with {marker!r} ({kind}); no unit keeps that link"))
    return out


def _keeps_cause(unit: Unit) -> bool:
    if isinstance(unit, QAPair):
        return unit.question.lower().startswith("why")
    if isinstance(unit, HyperRelationalFact):
        return any(q.type.value == "causal" for q in unit.qualifiers)
    return False


# -- B. ambiguity --------------------------------------------------------------------------------
def vague_language(scope: Scope, doc: Document) -> list[DecompositionError]:
    out = []
    names = proper_names(doc.text + " " + (doc.question or ""))
    for u in scope.units:
        for phrase in heads(u):
            ws = [w.lower() for w in words(phrase)]
            if not ws:
                continue
            if isinstance(u, Claim):
                if ws[0] in PRONOUNS - DEMONSTRATIVES or (ws[0] in DEMONSTRATIVES and len(ws) > 1 and ws[1] in {"is", "was", "are", "were"}):
                    out.append(_err(ErrorCategory.ambiguity, "ambiguous_pronoun", [u.id],
                                    f"the claim starts with {words(phrase)[0]!r}, which has no referent inside it"))
                    break
            elif len(ws) == 1 and ws[0] in PRONOUNS:
                out.append(_err(ErrorCategory.ambiguity, "ambiguous_pronoun", [u.id],
                                f"{phrase!r} is a bare pronoun; name who or what it refers to"))
                break
            vague = _vague_definite(phrase, scope, doc)
            if vague:
                out.append(_err(ErrorCategory.ambiguity, "vague_reference", [u.id], vague))
                break
            partial = _partial_name(u, names)
            if partial:
                out.append(_err(ErrorCategory.ambiguity, "incomplete_name", [u.id], partial))
                break
    return out


def _vague_definite(phrase: str, scope: Scope, doc: Document) -> str | None:
    """'this X' always; 'the X' when the text goes on to say which X ('the bacterium responsible
    for ...') and the unit leaves that out."""
    m = re.match(r"\s*(the|this|that|these|those)\s+([a-z][a-z-]+)\b", phrase, re.IGNORECASE)
    if not m:
        return None
    det, noun = m.group(1).lower(), m.group(2)
    if det in DEMONSTRATIVES:
        return f"{m.group(0).strip()!r} refers to something the unit does not name"
    if noun.lower() in STOPWORDS or noun[0].isupper():
        return None
    tail = re.search(rf"\bthe\s+{re.escape(noun)}\s+([A-Za-z]+)", doc.text, re.IGNORECASE)
    if tail and tail.group(1).lower() in _DEFINITE_TAIL and tail.group(1).lower() not in phrase.lower():
        return f"{m.group(0).strip()!r} is vague; the text specifies it as 'the {noun} {tail.group(1)} ...'"
    return None


def proper_names(text: str) -> list[list[str]]:
    """Runs of two or more capitalised words (a leading capitalised function word dropped)."""
    out = []
    for piece in re.split(r"[,;:.!?()\[\]\"]\s|[;:()\[\]\"]", text):  # a name never spans punctuation
        run: list[str] = []
        for w in words(piece) + [""]:
            if w[:1].isupper() and w.lower() not in {"i"}:
                run.append(w)
                continue
            while run and run[0].lower() in STOPWORDS:
                run.pop(0)
            if len(run) >= 2:
                out.append(run)
            run = []
    return out


def _partial_name(unit: Unit, names: list[list[str]]) -> str | None:
    text = unit_text(unit) if not isinstance(unit, QAPair) else unit.answer
    ws = words(text)
    runs: list[list[str]] = []
    run: list[str] = []
    for w in ws + [""]:
        if w[:1].isupper():
            run.append(w)
        else:
            if run:
                runs.append(run)
            run = []
    for r in runs:
        core = [w for w in r if w.lower() not in STOPWORDS]
        if len(core) != 1:
            continue
        w = core[0]
        full = next((n for n in names if w in n and len(n) >= 2), None)
        if full and not any(set(full) <= set(r2) for r2 in runs):
            return f"{w!r} is part of the name {' '.join(full)!r}; use the full name"
    return None


# -- C. over-decomposition -----------------------------------------------------------------------
def redundancy(scope: Scope, doc: Document) -> list[DecompositionError]:
    out = []
    bags = [(u, set(content_words(unit_full_text(u)))) for u in scope.units]
    seen: set[str] = set()
    for i, (a, wa) in enumerate(bags):
        for b, wb in bags[i + 1:]:
            if b.id in seen or not wa or not wb:
                continue
            jac = len(wa & wb) / len(wa | wb)
            if jac >= DUPLICATE_JACCARD or (wa <= wb or wb <= wa) and isinstance(a, Claim) and min(len(wa), len(wb)) >= 2:
                seen.add(b.id)
                out.append(_err(ErrorCategory.over_decomposition, "redundant_information", [a.id, b.id],
                                f"{b.id} repeats what {a.id} says"))
    return out


def fragmentation(scope: Scope, doc: Document) -> list[DecompositionError]:
    out = []
    claims = [u for u in scope.units if isinstance(u, Claim)]
    # One claim per list item: claims that say the same thing except for a short slot.
    words_of = {c.id: content_words(c.text) for c in claims}
    groups: list[list[str]] = []
    for i, a in enumerate(claims):
        for b in claims[i + 1:]:
            if _one_slot_apart(words_of[a.id], words_of[b.id]):
                g = next((g for g in groups if a.id in g or b.id in g), None)
                if g is None:
                    groups.append([a.id, b.id])
                else:
                    g.extend(x for x in (a.id, b.id) if x not in g)
    for ids in groups:
        out.append(_err(ErrorCategory.over_decomposition, "excessive_fragmentation", ids,
                        "these claims split one statement into one claim per item or variant"))
    # More units than the input's complexity warrants.
    if claims:
        budget = complexity(scope.text)
        if len(claims) > budget:
            out.append(_err(ErrorCategory.over_decomposition, "excessive_fragmentation", [c.id for c in claims],
                            f"{len(claims)} claims for a text of about {budget} clause(s); more sub-claims "
                            "than clauses adds noise"))
    else:
        budget = len(set(content_words(scope.text)))
        if len(scope.units) > max(budget, 1):
            out.append(_err(ErrorCategory.over_decomposition, "excessive_fragmentation", [u.id for u in scope.units],
                            f"{len(scope.units)} units for {budget} content word(s)"))
    return out


def _one_slot_apart(a: list[str], b: list[str], *, slot: int = 2, frame: int = 3) -> bool:
    """Same words before and after one differing stretch of at most ``slot`` words."""
    if a == b:
        return False
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    q = 0
    while q < min(len(a), len(b)) - p and a[-1 - q] == b[-1 - q]:
        q += 1
    return p + q >= frame and len(a) - p - q <= slot and len(b) - p - q <= slot


# -- D. alteration -------------------------------------------------------------------------------
def added_content(scope: Scope, doc: Document) -> list[DecompositionError]:
    out = []
    vocab = set(content_words(doc.text + " " + (doc.question or "")))
    for u in scope.units:
        ws = list(dict.fromkeys(content_words(unit_text(u))))
        if not ws:
            continue
        novel = [w for w in ws if not _mentioned(w, vocab)]
        names = [w for w in novel if w[0].isdigit() or _capitalised(w, unit_text(u))]
        if names or len(novel) / len(ws) > ADDED_SHARE:
            shown = names or novel
            out.append(_err(ErrorCategory.alteration, "added_content", [u.id],
                            f"{', '.join(repr(w) for w in shown[:5])} not found in the text"))
    return out


def _capitalised(word: str, text: str) -> bool:
    return any(w.lower() == word and w[:1].isupper() and i > 0 for i, w in enumerate(words(text)))


def flipped_negation(scope: Scope, doc: Document) -> list[DecompositionError]:
    out = []
    src_neg = _negated(scope.text)
    for u in scope.units:
        text = unit_text(u) if not isinstance(u, QAPair) else unit_full_text(u)
        if _negated(text) and not src_neg:
            out.append(_err(ErrorCategory.alteration, "contradiction", [u.id],
                            "the unit is negated but the text it comes from is not"))
        elif isinstance(u, Claim) and src_neg and not _negated(text) and _shares_negated_word(scope.text, text):
            out.append(_err(ErrorCategory.alteration, "contradiction", [u.id],
                            "the text negates this statement but the claim drops the negation"))
    return out


def _negated(text: str) -> bool:
    return any(norm(w) in NEGATIONS for w in words(text))


def _shares_negated_word(source: str, claim: str) -> bool:
    ws = [norm(w) for w in words(source)]
    cw = set(content_words(claim))
    for i, w in enumerate(ws):
        if w in NEGATIONS:
            nxt = [x for x in ws[i + 1:i + 4] if x not in STOPWORDS]
            if any(_mentioned(x, cw) for x in nxt):
                return True
    return False


_QUESTION_FILLER = frozenset("who what when where why how which whom whose much many long is was are were be been do does "
                             "did has have had someone something somebody somewhere to".split())


def malformed_qa(scope: Scope, doc: Document) -> list[DecompositionError]:
    """A QA pair that asks nothing or answers with nothing: a question of one or two words, none
    beyond a wh-word and an auxiliary ('where was ?'), or an answer of function words only
    ('As'). Such a pair means nothing on its own, so the scope is flagged (and reviewed)."""
    out = []
    for u in scope.units:
        if not isinstance(u, QAPair):
            continue
        said = words(u.question)
        asked = [w for w in said if w.lower() not in _QUESTION_FILLER]
        if not asked and len(said) < 3 and u.predicate.lower() not in u.question.lower():
            out.append(_err(ErrorCategory.ambiguity, "vague_reference", [u.id],
                            f"the question {u.question!r} names no predicate; it cannot be read on its own"))
        elif not content_words(u.answer) and not any(w[:1].isdigit() or w[:1].isupper() and w.lower() not in STOPWORDS
                                                     for w in words(u.answer)) and u.answer.lower() not in PRONOUNS:
            out.append(_err(ErrorCategory.ambiguity, "vague_reference", [u.id],
                            f"the answer {u.answer!r} holds no content word"))
    return out


RULES = (missing_content, missing_relations, vague_language, malformed_qa, redundancy, fragmentation, added_content,
         flipped_negation)


def lint_scope(scope: Scope, doc: Document) -> list[DecompositionError]:
    return [e for rule in RULES for e in rule(scope, doc)]


def lint(units: list[Unit], doc: Document) -> list[DecompositionError]:
    """Every lint finding for a whole decomposition."""
    return [e for sc in scopes(units, doc) for e in lint_scope(sc, doc)]
