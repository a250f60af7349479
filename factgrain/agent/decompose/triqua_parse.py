"""Hyper-relational facts read off spaCy's dependency parse (TriQua span mode ``parse``, no model call).

Each predicate of the sentence gives one fact:

* the **base triple** - subject, relation and object. A verb's relation is its verb group (with
  the preposition of a prepositional object: ``was born in`` Warsaw; with ``by`` for a passive's
  agent); a copula's is the copula itself (``is``) and its complement is the object. An apposition
  (``Paris, the capital of France, ...``) is a fact of its own with the relation ``is``.
* **qualifiers** - the verb's other modifiers, typed by their opening words first (``because of``
  -> causal, ``according to`` -> source, ``if`` -> condition, ``after`` -> sequential,
  ``excluding`` -> constraint, ``as of`` -> temporal) and then by what the parse found in them:
  a DATE or TIME entity -> temporal, a GPE, LOC or FAC place after a place preposition -> spatial,
  anything else -> attribute (``in Physics`` is a field, not a place).

Every component is a character range of the text that was read (markup blanked, offsets kept).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from factgrain.agent.decompose import qasem_parse as qp
from factgrain.agent.reader import parse, readable_copy
from factgrain.schemas.units import QualifierType as Q

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Token

Range = tuple[int, int]  # character offsets [start, end) in the text

# Opening words -> qualifier type, longest first when matched.
LEADS: dict[tuple[str, ...], Q] = {tuple(k.split()): v for k, v in [
    ("as of", Q.temporal), ("during", Q.temporal), ("since", Q.temporal), ("until", Q.temporal),
    ("till", Q.temporal), ("throughout", Q.temporal), ("by the end of", Q.temporal), ("when", Q.temporal),
    ("while", Q.temporal), ("at the time of", Q.temporal),
    ("because of", Q.causal), ("because", Q.causal), ("due to", Q.causal), ("owing to", Q.causal),
    ("thanks to", Q.causal), ("as a result of", Q.causal), ("on account of", Q.causal),
    ("after", Q.sequential), ("before", Q.sequential), ("following", Q.sequential), ("prior to", Q.sequential),
    ("then", Q.sequential), ("once", Q.sequential), ("afterwards", Q.sequential), ("later", Q.sequential),
    ("according to", Q.source), ("as reported by", Q.source), ("reported by", Q.source),
    ("as stated by", Q.source), ("citing", Q.source), ("as announced by", Q.source),
    ("excluding", Q.constraint), ("including", Q.constraint), ("except", Q.constraint),
    ("except for", Q.constraint), ("other than", Q.constraint), ("apart from", Q.constraint),
    ("aside from", Q.constraint), ("not counting", Q.constraint), ("not including", Q.constraint),
    ("with the exception of", Q.constraint), ("only", Q.constraint),
    ("if", Q.condition), ("unless", Q.condition), ("provided that", Q.condition), ("providing", Q.condition),
    ("as long as", Q.condition), ("in case of", Q.condition), ("in case", Q.condition), ("whenever", Q.condition),
]}
_MAX_LEAD = max(len(k) for k in LEADS)
PLACE_PREPS = frozenset(["in", "at", "on", "near", "from", "to", "into", "across", "within", "through", "around", "inside", "outside", "off", "along", "throughout"])
# Prepositions that, right after the verb, belong to the relation ('was born in', 'lives with').
RELATION_PREPS = frozenset(["in", "on", "at", "by", "for", "with", "from", "to", "into", "as", "about", "against", "through", "of"])
MAX_QUALIFIERS = 6


@dataclass
class ParsedQualifier:
    type: Q
    range: Range


@dataclass
class ParsedFact:
    subject: Range
    relation: Range | None  # None: an apposition's implicit 'is'
    relation_text: str
    object: Range | None
    qualifiers: list[ParsedQualifier] = field(default_factory=list)


def _chars(doc, rng: tuple[int, int] | None) -> Range | None:
    if rng is None:
        return None
    a, b = doc[rng[0]], doc[rng[1]]
    return a.idx, b.idx + len(b.text)


def qualifier_type(tokens: list[Token]) -> Q:
    """The type of a modifier phrase: its opening words, else the entities in it."""
    words = [t.lower_ for t in tokens[:_MAX_LEAD]]
    for n in range(min(_MAX_LEAD, len(words)), 0, -1):
        if tuple(words[:n]) in LEADS:
            return LEADS[tuple(words[:n])]
    if any(t.ent_type_ in ("DATE", "TIME") for t in tokens) or any(qp._YEAR.match(t.text) for t in tokens[1:2]):
        return Q.temporal
    if words and words[0] in PLACE_PREPS and any(t.ent_type_ in ("GPE", "LOC", "FAC") for t in tokens):
        return Q.spatial
    if words and words[0] in PLACE_PREPS and len(tokens) > 1 and tokens[-1].lemma_.lower() in qp.PLACE_NOUNS:
        return Q.spatial
    return Q.attribute


def _modifiers(verb: Token) -> list[Token]:
    """The children of ``verb`` that modify the whole assertion."""
    out = []
    for c in verb.children:
        if c.dep_ in ("prep", "advcl", "npadvmod", "tmod") or (c.dep_ == "advmod" and c.lower_ in ("then", "later", "afterwards", "only")) or c.dep_ in ("acl", "xcomp") and c.tag_ == "VBG" and c.lower_ in ("excluding", "including", "citing", "following"):
            out.append(c)
    return out


def _verb_fact(verb: Token, doc) -> ParsedFact | None:
    subj = qp._subject_of(verb)
    if subj is None or subj[1] is None:
        return None
    aux_toks = [c for c in verb.children if c.dep_ in ("aux", "auxpass", "neg") and c.i < verb.i and c.lower_ != "to"]
    rel_start = min([t.i for t in aux_toks] + [verb.i])
    rel_end = verb.i
    prt = [c for c in verb.children if c.dep_ == "prt"]
    if prt:
        rel_end = max(rel_end, max(p.i for p in prt))
    obj_rng = None
    used: set[int] = set()
    for c in verb.children:
        if c.i == subj[0].i:
            continue  # 'It is recommended to avoid caffeine': the clause is the subject (see qp._extraposed)
        if c.dep_ in ("dobj", "attr", "oprd", "acomp", "xcomp", "ccomp", "dative"):
            obj_rng = qp._phrase(c) if c.dep_ in ("dobj", "attr", "oprd", "dative") else qp._edges(list(c.subtree))
            used.add(c.i)
            break
    if obj_rng is None:
        rel_obj = qp._object_of_relative(verb)
        if rel_obj is not None:
            obj_rng = rel_obj[1]
    if obj_rng is None:
        for c in sorted(verb.children, key=lambda t: t.i):
            if c.dep_ == "agent" or (c.dep_ == "prep" and c.lower_ in RELATION_PREPS and c.i == rel_end + 1
                                     and qualifier_type(list(c.subtree)) in (Q.attribute, Q.spatial)
                                     and not qp._is_time(next((x for x in c.children if x.dep_ == "pobj"), c))):
                pobj = next((x for x in c.children if x.dep_ == "pobj"), None)
                if pobj is None:
                    continue
                obj_rng = qp._phrase(pobj)
                rel_end = c.i  # the preposition joins the relation: 'was born in'
                used.add(c.i)
                break
    quals = []
    for m in _modifiers(verb):
        if m.i in used:
            continue
        toks = list(m.subtree)
        rng = qp._edges(toks)
        if rng is None:
            continue
        quals.append(ParsedQualifier(qualifier_type(toks), _chars(doc, rng)))
    relation = _chars(doc, (rel_start, rel_end))
    return ParsedFact(_chars(doc, subj[1]), relation, doc.text[relation[0]:relation[1]], _chars(doc, obj_rng),
                      quals[:MAX_QUALIFIERS])


def _copula_fact(be: Token, doc) -> ParsedFact | None:
    subj = qp._subject_of(be)
    if subj is None or subj[1] is None or subj[0].dep_ == "expl":
        return None
    head, srng = subj
    comps = [c for c in be.children if c.dep_ in ("attr", "acomp") and c.i > be.i]
    if not comps:
        return None
    aux = [c for c in be.children if c.dep_ in ("aux", "neg") and c.i < be.i and c.lower_ != "to"]
    rel_start = min([t.i for t in aux] + [be.i])
    obj = qp._phrase(comps[0], drop=("prep",) if any(qualifier_type(list(p.subtree)) != Q.attribute
                                                       for p in comps[0].children if p.dep_ == "prep") else ())
    clause = _own_fact_clause(comps[0], doc)
    if obj is not None and clause is not None and clause.left_edge.i > obj[0]:
        # 'is a biologist best known for her research': the clause is a fact of its own (facts() reads
        # it with the same subject), so the base triple stops before it and neither is judged twice
        obj = qp._edges([t for t in comps[0].subtree if obj[0] <= t.i < clause.left_edge.i]) or obj
    poss = next((c for c in head.children if c.dep_ == "poss"), None)
    if poss is not None and not any(c.dep_ == "det" for c in head.children) and head.i + 1 <= be.i:
        # "France's population was 64.5 million": France is the subject, 'population was' the relation
        srng = qp._phrase(poss, drop=("case",))
        rel_start = head.i
    quals = []
    for m in _modifiers(be) + [p for p in comps[0].children if p.dep_ == "prep"
                               and qualifier_type(list(p.subtree)) != Q.attribute]:
        toks = list(m.subtree)
        rng = qp._edges(toks)
        if rng is not None:
            quals.append(ParsedQualifier(qualifier_type(toks), _chars(doc, rng)))
    quals.sort(key=lambda q: q.range[0])
    # 'is not the director': the negation follows the copula, and belongs in the relation
    rel_end = max([c.i for c in be.children if c.dep_ == "neg" and c.i > be.i and (obj is None or c.i < obj[0])]
                  + [be.i])
    relation = _chars(doc, (rel_start, rel_end))
    return ParsedFact(_chars(doc, srng), relation, doc.text[relation[0]:relation[1]], _chars(doc, obj),
                      quals[:MAX_QUALIFIERS])


def _own_fact_clause(noun: Token, doc) -> Token | None:
    """A participle or a who/which/that clause after ``noun`` (a copula's complement) that
    :func:`facts` turns into a fact of its own: 'a biologist best known for ...', 'a lawyer accused of
    fraud', 'a player who now coaches the team'. Infinitives ('the first person to climb it') and
    clauses with a subject of their own ('the city where she lives') stay in the complement."""
    for c in noun.children:
        if c.i < noun.i:
            continue
        participle = c.dep_ == "acl" and c.tag_ in ("VBN", "VBG")
        relative = c.dep_ == "relcl" and any(g.dep_ in ("nsubj", "nsubjpass") and g.tag_ in ("WP", "WDT")
                                             for g in c.children)
        if (participle or relative) and qp._is_predicate_verb(c) and _verb_fact(c, doc) is not None:
            return c
    return None


def _appositions(doc) -> list[ParsedFact]:
    out = []
    for tok in doc:
        if tok.dep_ == "appos" and tok.head.pos_ in ("PROPN", "NOUN") and tok.i > tok.head.i \
                and doc[tok.left_edge.i - 1].text in (",", "("):
            head_rng = qp._phrase(tok.head)
            rng = qp._phrase(tok)
            if head_rng and rng:
                out.append(ParsedFact(_chars(doc, head_rng), None, "is", _chars(doc, rng)))
    return out


def _conditional(tok: Token) -> bool:
    """Whether ``tok`` sits in an if / unless clause."""
    node = tok
    while node.dep_ != "ROOT" and node.head.i != node.i:
        if node.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether")
                                        for c in node.children):
            return True
        node = node.head
    return False


def facts(text: str, max_facts: int = 8) -> list[ParsedFact]:
    """The facts of ``text`` (a sentence), in the order of their predicates."""
    doc = parse(readable_copy(text))  # same length as ``text``: every range indexes it
    out: list[ParsedFact] = []
    for tok in doc:
        fact = None
        if _conditional(tok):
            continue  # 'If it rains, ...' is the condition of the fact, not a fact
        if qp._is_copula(tok):
            fact = _copula_fact(tok, doc)
        elif qp._is_predicate_verb(tok):
            fact = _verb_fact(tok, doc)
        if fact is not None:
            out.append(fact)
    out.extend(_appositions(doc))
    for fact in out:  # a verb prefix the reader blanked ('co-founded') belongs to the relation
        if fact.relation is not None:
            a, b = fact.relation
            start = qp._with_prefix(text, a)
            if start != a:
                fact.relation_text = text[start:a] + fact.relation_text
                fact.relation = (start, b)
            elif fact.relation_text == doc.text[a:b] and "-" in text[a:b] and fact.relation_text != text[a:b]:
                fact.relation_text = text[a:b]  # 'was re-elected', read back from the original
    return out[:max_facts]
