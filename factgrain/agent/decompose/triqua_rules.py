"""Deterministic hyper-relational facts of one sentence, for small models (TriQua ``enum`` mode).

A 135M model left free copies the sentence into every field. Here the sentence's shape does the
work: it is cut into pieces (noun phrases, verb groups, phrases opened by a qualifier word such
as 'as of', 'excluding', 'because of'); each verb group gives a fact whose subject is the noun
phrase before it and whose object is the phrase after it; the other phrases of its clause become
its qualifiers, typed by their opening word or their shape. Only qualifiers whose type neither
gives away are left for the model to label (one constrained choice each).

Every component is an exact character range of the sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from factgrain.agent.candidates import _AUX, _tokens, is_verb_like
from factgrain.schemas.units import QualifierType as Q

# Opening words -> qualifier type (None: the value's shape or the model decides). Longest first.
LEADS: dict[tuple[str, ...], Q | None] = {}
for _words, _type in [
    ("as of", Q.temporal), ("during", Q.temporal), ("since", Q.temporal), ("until", Q.temporal),
    ("till", Q.temporal), ("throughout", Q.temporal), ("by the end of", Q.temporal),
    ("at the time of", Q.temporal), ("when", Q.temporal),
    ("because of", Q.causal), ("because", Q.causal), ("due to", Q.causal), ("owing to", Q.causal),
    ("thanks to", Q.causal), ("as a result of", Q.causal), ("on account of", Q.causal),
    ("after", Q.sequential), ("before", Q.sequential), ("following", Q.sequential),
    ("prior to", Q.sequential), ("once", Q.sequential),
    ("according to", Q.source), ("as reported by", Q.source), ("as stated by", Q.source),
    ("citing", Q.source),
    ("excluding", Q.constraint), ("including", Q.constraint), ("except", Q.constraint),
    ("except for", Q.constraint), ("other than", Q.constraint), ("apart from", Q.constraint),
    ("aside from", Q.constraint), ("not counting", Q.constraint), ("not including", Q.constraint),
    ("with the exception of", Q.constraint),
    ("if", Q.condition), ("unless", Q.condition), ("provided that", Q.condition),
    ("as long as", Q.condition), ("in case of", Q.condition), ("whenever", Q.condition),
    ("in", None), ("on", None), ("at", None), ("by", None), ("for", None), ("with", None),
    ("from", None), ("to", None), ("into", None), ("as", None), ("near", None), ("across", None),
    ("within", None), ("through", None), ("against", None), ("despite", None), ("without", None),
    ("between", None), ("among", None),
]:
    LEADS[tuple(_words.split())] = _type
_MAX_LEAD = max(len(k) for k in LEADS)

# Leads that open a subordinate clause: their phrase runs on over verbs up to punctuation.
CLAUSAL = {("because",), ("if",), ("unless",), ("when",), ("whenever",), ("once",), ("after",),
           ("before",), ("since",), ("until",), ("provided", "that"), ("as", "long", "as")}
# A preposition right after the verb belongs to the relation ('was born in' Hawaii).
PREP_OBJECT = {"in", "on", "at", "by", "for", "with", "from", "to", "into", "as", "against", "through", "about"}
_PLACE_LEADS = {"in", "at", "near", "across", "within", "from", "to", "into", "through"}
_COORD = {"and", "but"}
_RELATIVE = {"which", "who", "that", "whose"}
_AMOUNT_PREFIX = {"about", "around", "over", "under", "nearly", "almost", "roughly", "some"}
_MONTHS = set("january february march april may june july august september october november december".split())
_TIME_WORDS = _MONTHS | set(
    "monday tuesday wednesday thursday friday saturday sunday yesterday today tomorrow year years "
    "month months week weeks day days decade decades century morning evening night spring summer "
    "autumn winter".split())
_YEAR = re.compile(r"^(1[0-9]{3}|20[0-9]{2})s?$")
_PUNCT_KEEP = set("%$€£-'")
# Frequent verbs that neither the shared list nor the -ed/-ing rule catches.
_EXTRA_VERBS = {"cost", "costs", "owns", "own", "contains", "contain", "includes", "employs", "produces",
                "produce", "remains", "remain", "lies", "lie", "means", "mean", "seems", "seem"}


@dataclass
class Piece:
    kind: str  # np | lead | verb | punct | coord | rel
    start: int
    end: int
    lead: tuple[str, ...] = ()
    lead_end: int = 0  # where the opening words end (lead pieces)
    words: list[str] = field(default_factory=list)


@dataclass
class RuleQualifier:
    type: Q | None
    start: int
    end: int


@dataclass
class RuleFact:
    """Offsets are into the sentence; ``relation`` may be an implied 'is' without a range."""

    subject: tuple[int, int]
    relation: tuple[int, int] | None
    object: tuple[int, int] | None
    qualifiers: list[RuleQualifier] = field(default_factory=list)
    subject_text: str | None = None  # set when the subject is cut out of a possessive


def shape_type(words: list[str], lead: tuple[str, ...]) -> Q | None:
    """The type a qualifier's own words give away: dates and time words, capitalised places."""
    low = [w.lower() for w in words]
    if any(_YEAR.match(w) or w in _TIME_WORDS for w in low):
        return Q.temporal
    if lead and lead[0] in _PLACE_LEADS and any(w[:1].isupper() for w in words[len(lead):]):
        return Q.spatial
    return None


def _match_lead(toks: list[tuple[str, int, int]], i: int) -> tuple[str, ...] | None:
    low = [t[0].lower() for t in toks[i:i + _MAX_LEAD]]
    for n in range(min(_MAX_LEAD, len(low)), 0, -1):
        key = tuple(low[:n])
        if key in LEADS:
            # 'about 300 people' is an amount, not a qualifier; a lead needs words after it.
            if n == 1 and key[0] in _AMOUNT_PREFIX and i + 1 < len(toks) and toks[i + 1][0][:1].isdigit():
                return None
            if i + n >= len(toks) or not toks[i + n][0][:1].isalnum() and toks[i + n][0] not in "$€£":
                return None
            return key
    return None


def _is_verb(word: str, first: bool = False) -> bool:
    if word[:1].isupper() and not first:
        return False  # 'United', 'Red Cross': names, not verbs
    return word.lower() in _AUX or word.lower() in _EXTRA_VERBS or is_verb_like(word)


def pieces(sentence: str) -> list[Piece]:
    toks = _tokens(sentence)
    out: list[Piece] = []
    cur: Piece | None = None

    def close() -> None:
        nonlocal cur
        if cur is not None and (cur.kind != "lead" or cur.end > cur.lead_end):
            out.append(cur)
        cur = None

    i = 0
    while i < len(toks):
        word, s, e = toks[i]
        low = word.lower()
        if not (word[0].isalnum() or word in _PUNCT_KEEP):
            close()
            out.append(Piece("punct", s, e, words=[word]))
            i += 1
            continue
        clausal = cur is not None and cur.kind == "lead" and cur.lead in CLAUSAL
        if low in _COORD | _RELATIVE and not clausal:
            if _verb_ahead(toks, i + 1):
                close()
                out.append(Piece("rel" if low in _RELATIVE else "coord", s, e, words=[word]))
                i += 1
                continue
        if clausal and low in _COORD:
            close()
            out.append(Piece("coord", s, e, words=[word]))
            i += 1
            continue
        lead = None if clausal else _match_lead(toks, i)
        if lead is not None and LEADS[lead] is None and cur is not None and cur.kind == "lead" \
                and LEADS.get(cur.lead) is not None and shape_type(_words_until_break(toks, i), lead) is None:
            lead = None  # 'because of her research on radioactivity': one phrase, not two qualifiers
        if lead is not None:
            close()
            end = toks[i + len(lead) - 1][2]
            cur = Piece("lead", s, end, lead=lead, lead_end=end, words=[t[0] for t in toks[i:i + len(lead)]])
            i += len(lead)
            continue
        if _is_verb(word, first=i == 0) and not clausal:
            if cur is None or cur.kind != "verb":
                close()
                cur = Piece("verb", s, e)
            cur.end = e
            cur.words.append(word)
            i += 1
            continue
        if cur is None or cur.kind == "verb":
            close()
            cur = Piece("np", s, e)
        cur.end = e
        cur.words.append(word)
        i += 1
    close()
    return out


def _words_until_break(toks: list[tuple[str, int, int]], i: int) -> list[str]:
    """The words from ``i`` up to the next punctuation or lead (what a lead at ``i`` would hold)."""
    out = [toks[i][0]]
    for j in range(i + 1, len(toks)):
        word = toks[j][0]
        if not word[0].isalnum() or _match_lead(toks, j) is not None:
            break
        out.append(word)
    return out


def _verb_ahead(toks: list[tuple[str, int, int]], i: int) -> bool:
    """Whether a verb follows before the next punctuation: 'and' joins clauses, not nouns."""
    for word, _, _ in toks[i:]:
        if not word[0].isalnum():
            return False
        if _is_verb(word):
            return True
    return False


def facts(sentence: str, max_facts: int = 8) -> list[RuleFact]:
    """The facts of one sentence as character ranges; qualifier types may be None (ask the model)."""
    ps = pieces(sentence)
    out: list[RuleFact] = []
    pending: list[Piece] = []  # qualifier phrases seen before this clause's first verb
    clause_subject: tuple[int, int] | None = None
    inherited: tuple[int, int] | None = None
    last_np: Piece | None = None
    current: RuleFact | None = None
    appositive_of: dict[int, Piece] = {}

    for k, p in enumerate(ps):
        if p.kind in ("coord", "rel"):
            # A new clause: 'and' keeps the subject, 'which/who' takes the phrase before it.
            inherited = (last_np.start, last_np.end) if p.kind == "rel" and last_np else (
                current.subject if current else clause_subject)
            clause_subject, current = None, None
            continue
        if p.kind == "np":
            if _appositive(ps, k):
                appositive_of[k] = ps[k - 2]
                continue
            last_np = p
            if current is None:
                clause_subject = (p.start, p.end)
            elif current.object is None and ps[k - 1].kind == "verb":
                current.object = (p.start, p.end)
            continue
        if p.kind == "lead":
            target = current
            if target is not None and target.object is None and ps[k - 1].kind == "verb" and p.lead[0] in PREP_OBJECT \
                    and not shape_type(p.words, p.lead) == Q.temporal:
                # 'was born in Hawaii': the preposition joins the relation, the rest is the object.
                target.relation = (target.relation[0], p.lead_end) if target.relation else None
                target.object = (_skip_space(sentence, p.lead_end), p.end)
                continue
            if target is None:
                pending.append(p)
            else:
                target.qualifiers.append(_qualifier(p))
            continue
        if p.kind == "verb":
            subject = clause_subject or inherited
            if subject is None or len(out) >= max_facts:
                current = None
                continue
            current = RuleFact(subject=subject, relation=(p.start, p.end), object=None)
            current.qualifiers += [_qualifier(q) for q in pending]
            pending.clear()
            _split_possessive(sentence, current)
            out.append(current)
            clause_subject = None
    for k, head in appositive_of.items():
        if len(out) < max_facts:
            start = _skip_space(sentence, head.lead_end) if head.kind == "lead" else head.start
            out.append(RuleFact(subject=(start, head.end), relation=None, object=(ps[k].start, ps[k].end)))
    if pending and out:  # trailing qualifiers of a sentence that ended without a new clause
        out[-1].qualifiers += [_qualifier(q) for q in pending]
    return out


def _appositive(ps: list[Piece], k: int) -> bool:
    """'Ana Ortiz, a Chilean engineer, ...': a noun phrase set off by commas after another one,
    opening with an article."""
    return (k >= 2 and ps[k - 1].kind == "punct" and ps[k - 1].words == [","] and ps[k - 2].kind in ("np", "lead")
            and k + 1 < len(ps) and ps[k + 1].kind == "punct" and ps[k].words[0].lower() in {"a", "an", "the"})


def _qualifier(p: Piece) -> RuleQualifier:
    declared = LEADS.get(p.lead)
    return RuleQualifier(type=declared or shape_type(p.words, p.lead), start=p.start, end=p.end)


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _split_possessive(sentence: str, fact: RuleFact) -> None:
    """'France's population was X' -> (France; population was; X), for copulas only."""
    s, e = fact.subject
    if fact.relation is None or sentence[fact.relation[0]:fact.relation[1]].lower() not in {"is", "was", "are", "were"}:
        return
    m = re.search(r"(\w)'s\s+(?=\w)", sentence[s:e])
    if m is None:
        return
    owner_end = s + m.start(1) + 1
    fact.relation = (s + m.end(), fact.relation[1])
    fact.subject = (s, owner_end)
