"""What the spaCy parse adds to the lexical verifier's evidence.

The overlap features of :mod:`lexical_features` see words; these see the structure the reader's
parse (``reader.parse``, cached, so a reference is parsed once however many units it is checked
against) gives the same text:

* **lemmas** - "approved" and "voted to approve" share ``approve``;
* **entity types** - a generic answer ("a man", "someone", "a company") matches a reference
  token of the entity type it stands for (PERSON, ORG, GPE...), so "who died? a man" is found in a
  reference that names the man;
* **quantities** - numbers with their scale and unit ("4.2 million dollars" is 4,200,000 ``$``),
  vote tallies ("7 to 2" is not unanimous) and weekday / month names, which can clash with the
  answer's;
* **doubt scope** - whether a reference token lies under a negation or a hedge ("unable to establish
  whether measles was the main cause": ``measles`` is under ``unable`` and ``whether``), read from the
  dependency path from the token to its sentence root;
* **predicate-argument links** - whether a reference sentence holds the predicate's lemma and the
  answer close to each other in its dependency tree;
* **copular claims** - when the predicate is a copula ("Who is a director? -> David Wenham"), the
  answer is usually found whatever the truth; the claim is in the question's other words
  ("director"), which must be in the reference too;
* **roles and persons** (round 8) - a definite role ("the museum's director") the reference gives to
  another name, a gendered person noun swapped for its opposite ("two women" / "two men"), and a
  neutral person noun found as the predicate's agent noun ("people visit" / "visitors").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable

STRUCTURE_FEATURES: tuple[str, ...] = (
    "lem_ans_cov_ref",  # answer content lemmas (or the entity type a generic answer stands for) in the reference
    "lem_ans_cov_sent",  # ... in the one reference sentence that holds most of them
    "lem_pred_ref",  # the predicate's lemma in the reference
    "lem_pred_ans_sent",  # best answer coverage over reference sentences that hold the predicate's lemma
    "ans_head_in_ref",  # the answer's syntactic head (its lemma, or the entity type of a generic head) in the reference
    "ans_head_linked",  # ... within three dependency edges of the predicate's lemma in one reference sentence
    "pred_ans_linked",  # a reference sentence relates the predicate's lemma and the answer (dependency path <= 3)
    "generic_ans_typed",  # the answer is a generic noun ("a man") and the reference names an entity of its type
    "ans_doubted",  # the answer's best reference sentence denies or hedges it (or the predicate); the unit does not
    "qty_clash",  # the answer has a quantity whose value the reference never gives
    "qty_unit_clash",  # ... stated exactly, and a related reference sentence gives another value of the same unit
    "vote_clash",  # "unanimous" against a split count in the reference ("7 to 2"), or a split count against "unanimous"
    "qty_agree",  # the answer's quantities are all in the reference with the same value
    "date_clash",  # the answer names a weekday / month; the reference names others of that kind but not it
    "copula_claim_cov",  # a copular unit's claim words (its question's, not the answer's) found in the reference
    "polarity_clash",  # the reference relates predicate and answer only with the opposite polarity ("won" / "did not win")
    # round 7
    "lem_ans_cov_linked",  # share of the answer's lemmas found within three dependency edges of the predicate's lemma
    "ans_name_missing",  # an answer word that is a proper noun or a number in the unit's sentence is not in the reference
    "idf_ans_cov_sent",  # lem_ans_cov_sent with each answer word weighted by its idf over the reference's sentences
    "agent_clash",  # the answer, a named doer (or passive subject), is never related to the predicate; the reference names another
    "antonym_clash",  # the reference relates the answer only to the predicate's opposite ("rose" / "fell")
    # round 8
    "role_clash",  # "X is the R": the reference gives the definite role R to another named holder, never to X
    "person_swap",  # the answer's gendered person noun ("two women") where the reference relates the opposite one
    "slot_clash",  # the reference fills the answer's slot with another count or birthplace (slot_clash.py)
)

from factgrain.agent.verifiers import lexical_tokens as _lf

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Span, Token

__all__ = [
    "STRUCTURE_FEATURES",
    "RefStructure",
    "UnitReading",
    "read_reference",
    "read_unit",
    "structure_features",
    "support_sentence",
]

# Generic nouns that stand for an entity the reference may name; the value is the spaCy entity
# labels that satisfy them. Pronouns are left out: the overlap features already treat them as
# "no content word", and the model learned what that means.
GENERIC_ENTITY: dict[str, frozenset[str]] = {
    **{w: frozenset({"PERSON"}) for w in (
        "man woman men women person people boy girl child children someone somebody individual "
        "guy lady gentleman resident victim teenager youngster pensioner").split()},
    **{w: frozenset({"ORG"}) for w in "company firm organisation organization group business".split()},
    **{w: frozenset({"GPE", "LOC"}) for w in "city town country nation village region place".split()},
}
_TYPE_KEY = "<{}>"  # a reference token inside an entity gets the key "<PERSON>", "<ORG>", ...

# Words whose dependency subtree the reference does not assert: it denies, doubts or leaves open
# what they govern ("unable to establish whether ...", "failed to determine how ...").
HEDGE_LEMMAS: frozenset[str] = frozenset(
    """unable fail failure unclear unknown uncertain unsure unconfirmed unproven unverified doubt
    doubtful deny dispute question speculate speculation rumour rumor allege alleged allegedly
    reportedly possibly perhaps maybe probably suspect suspected claim investigate""".split()
)
# Knowing-words that, when negated, leave what they govern open ("did not establish", "no idea how").
# Plain negation and modals are not doubt here: a negated or "may" unit is compared with the reference by
# neg_mismatch, and on dev modals and "if" were as common in supported units as in unsupported ones.
_EPISTEMIC = frozenset("know establish confirm determine prove verify clear sure certain idea evidence proof "
                       # reporting: "has not announced any plans to go public" leaves the plans open
                       "announce disclose reveal".split())
_OPEN_MARKS = frozenset({"whether"})

_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9,
          "b": 1e9, "trillion": 1e12, "tn": 1e12, "hundred": 1e2}
_UNIT_ALIASES = {"$": "$", "dollar": "$", "usd": "$", "us$": "$", "£": "£", "pound": "£", "gbp": "£",
                 "€": "€", "euro": "€", "eur": "€", "%": "%", "percent": "%", "per cent": "%"}
# a number with an inch or foot mark glued to it ('a 3″ circle', "6′ 2″"), as web pages write sizes
_PRIMED = re.compile(r"(\d+(?:\.\d+)?)(″|′|\"|'')")
_PRIME_UNITS = {"″": "inch", '"': "inch", "''": "inch", "′": "foot"}
_WORD_VALUES = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
                "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
                "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
                "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12}
_NUMBER = r"(?:\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# "7 to 2", "7-2", "seven votes to two": a split vote
_TALLY_RE = re.compile(rf"\b({_NUMBER})(?:\s+votes?)?\s*(?:-|–|to)\s*({_NUMBER})\b", re.IGNORECASE)
_VOTE_RE = re.compile(r"\b(?:vot\w*|ballot\w*|jur\w*|council\w*|judges?|panel|members?|mps?|senat\w*)\b", re.I)
_UNANIMOUS_RE = re.compile(r"\bunanimous(?:ly)?\b|\bwithout (?:a )?dissent", re.IGNORECASE)
_WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
_MONTHS = frozenset("january february march april may june july august september october november december".split())



def _keys(tok: "Token") -> tuple[str, ...]:
    """Match keys of a token: its normalised lemma and its normalised surface form."""
    text, lemma = tok.lower_, tok.lemma_.lower()
    if len(text) > 2 and text.endswith(".") and text[:-1].isalpha():
        # a sentence's last word with its full stop glued on ('played by Joan Van Ark.'): the word
        text, lemma = text[:-1], lemma.rstrip(".")
    elif (m := _PRIMED.fullmatch(text)) is not None:
        text = lemma = m.group(1)  # '3″' is the number 3 (of inches)
    lemma, low = _lf._norm_token(lemma), _lf._norm_token(text)
    return (lemma,) if lemma == low else (lemma, low)


def _is_content(tok: "Token") -> bool:
    low = tok.lower_
    return (not tok.is_punct and not tok.is_space and (tok.is_alpha or tok.like_num or any(c.isalnum() for c in low))
            and low not in _lf.STOPWORDS and low not in _lf.NEGATIONS and tok.lemma_.lower() not in _lf.STOPWORDS)


# verbs spelled like stopwords: 'like' (a preposition), 'own' ('his own'), 'mine' (a pronoun)
_STOPWORD_VERBS = frozenset({"like", "own", "mine"})


# a title before a name says nothing of who is meant: in "Mr Thneibat is working" against "Mr Fletcher is
# working" the shared "Mr" linked the answer to the predicate and matched the other doer's name
_TITLES = frozenset("mr mrs ms miss dr prof professor sir dame lord lady rev st".split())


def _title(tok: "Token") -> bool:
    return tok.lower_.rstrip(".") in _TITLES and tok.i + 1 < len(tok.doc) and tok.nbor(1).pos_ == "PROPN"


def _content_predicate(tok: "Token") -> bool:
    """Whether the token relates something itself. The verbs of :data:`_STOPWORD_VERBS` do ('she
    liked my writings', 'he owns a restaurant'): read as a copula, their claim was looked for in the
    question's other words, and a sentence checked against itself scored 0.39."""
    return _is_content(tok) or (tok.pos_ == "VERB" and tok.lemma_.lower() in _STOPWORD_VERBS)


def _local_doubt(tok: "Token") -> bool:
    if tok.lemma_.lower() in HEDGE_LEMMAS or tok.lower_ in HEDGE_LEMMAS:
        return True
    for child in tok.children:
        if child.dep_ == "mark" and child.lower_ in _OPEN_MARKS:
            return True
        negated = child.dep_ == "neg" or (child.lower_ in _lf.NEGATIONS and child.dep_ in ("det", "advmod"))
        if negated and tok.lemma_.lower() in _EPISTEMIC:
            return True
    return False


# A hedge reaches the clause it governs and that clause's own arguments, two dependency edges down
# at most ("unable to establish whether measles was the cause": measles -nsubj-> was <-mark- whether).
# Not through a preposition, a relative clause, an apposition or another conjunct: "unable to cope with
# the water coming in" still says that water came in, "a man who died of measles" is asserted.
_SCOPE_EDGES = frozenset({"nsubj", "nsubjpass", "dobj", "attr", "ccomp", "xcomp", "acomp", "oprd"})
_SCOPE_DEPTH = 2


def _doubt_flags(doc: "Doc") -> list[bool]:
    """Per token: does a word at most two clausal edges above it deny or hedge it?"""
    local = [_local_doubt(t) for t in doc]
    out = []
    for t in doc:
        cur, depth, flag = t, 0, local[t.i]
        while not flag and depth < _SCOPE_DEPTH and cur.head.i != cur.i and cur.dep_ in _SCOPE_EDGES:
            cur, depth = cur.head, depth + 1
            flag = local[cur.i]
        out.append(flag)
    return out


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str  # "$", "%", a noun lemma ("case", "vote"), or "" when none follows
    sent: int  # sentence index (reference) or -1
    approx: bool = False  # bounded or approximate ("more than £2m", "about 40"): no exact value to clash with


def _num_value(text: str) -> float | None:
    low = text.lower().replace(",", "")
    if low in _WORD_VALUES:
        return float(_WORD_VALUES[low])
    try:
        return float(low)
    except ValueError:
        return None


def _quantities(tokens: "Iterable[Token]", sent_of) -> list[Quantity]:
    toks = list(tokens)
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if (m := _PRIMED.fullmatch(t.text)) is not None:
            # '3″', "6′": the tokenizer keeps the inch or foot mark on the number
            out.append(Quantity(value=float(m.group(1)), unit=_PRIME_UNITS[m.group(2)], sent=sent_of(t),
                                approx=_approximate(t)))
            i += 1
            continue
        value = _num_value(t.text) if (t.like_num or t.lower_ in _WORD_VALUES) else None
        if value is None or t.lower_ in _SCALE:
            i += 1
            continue
        j = i + 1
        while j < len(toks) and toks[j].lower_ in _SCALE:
            value *= _SCALE[toks[j].lower_]
            j += 1
        unit = ""
        prev = toks[i - 1].lower_ if i > 0 else ""
        if prev in _UNIT_ALIASES:
            unit = _UNIT_ALIASES[prev]
        elif j < len(toks):
            nxt = toks[j]
            if nxt.text == "-" and j + 1 < len(toks) and toks[j + 1].pos_ == "NOUN":
                nxt = toks[j + 1]  # 'a 3-inch circle': the unit is after the hyphen
            lemma = nxt.lemma_.lower()
            if lemma in _UNIT_ALIASES or nxt.lower_ in _UNIT_ALIASES:
                unit = _UNIT_ALIASES.get(lemma, _UNIT_ALIASES.get(nxt.lower_, ""))
            elif nxt.pos_ == "NOUN" and nxt.lower_ not in _lf.STOPWORDS:
                unit = lemma
        out.append(Quantity(value=value, unit=unit, sent=sent_of(t), approx=_approximate(t)))
        i = j
    return out


_APPROX_ONE = frozenset({"about", "around", "approximately", "roughly", "nearly", "almost", "over", "under",
                         "some", "circa", "c.", "up", "least", "most", "than", "estimated", "~"})


def _approximate(t: "Token") -> bool:
    """The number is bounded or approximate: 'more than', 'about', 'nearly', 'up to', 'at least' before it
    (a currency sign between them is skipped)."""
    i = t.i - 1
    while i >= 0 and t.doc[i].lower_ in _UNIT_ALIASES and not t.doc[i].is_alpha:
        i -= 1
    if i < 0:
        return False
    w = t.doc[i].lower_
    if w == "to":  # "up to 40"
        return i > 0 and t.doc[i - 1].lower_ == "up"
    return w in _APPROX_ONE


def _tallies(text: str) -> list[tuple[float, float]]:
    out = []
    for m in _TALLY_RE.finditer(text):
        a, b = _num_value(m.group(1)), _num_value(m.group(2))
        if a is not None and b is not None:
            out.append((a, b))
    return out


def _split_vote(text: str) -> bool:
    """A vote count that is not unanimous ("7 to 2") in a sentence about a vote."""
    return bool(_VOTE_RE.search(text)) and any(b > 0 and a > 0 for a, b in _tallies(text))


def _date_words(tokens: "Iterable[Token]") -> set[str]:
    return {t.lower_ for t in tokens if t.lower_ in _WEEKDAYS or (t.lower_ in _MONTHS and t.pos_ == "PROPN")}


_MONTH_RE = "(january|february|march|april|may|june|july|august|september|october|november|december)"
_YEAR_RE = r"(1[6-9]\d\d|20\d\d)"
_DATE_RES = (
    re.compile(rf"\b{_MONTH_RE}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+{_YEAR_RE}\b", re.I),  # May 18, 2007
    re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH_RE},?\s+{_YEAR_RE}\b", re.I),  # 18 May 2007
    re.compile(rf"\b{_MONTH_RE},?\s+{_YEAR_RE}\b", re.I),  # May 2007
)


def _full_dates(text: str) -> frozenset[tuple[str, int, str]]:
    """The dates a text writes with a month and a year: (month, day or 0, year)."""
    out = set()
    for n, rx in enumerate(_DATE_RES):
        for m in rx.finditer(text):
            g = m.groups()
            if n == 0:
                out.add((g[0].lower(), int(g[1]), g[2]))
            elif n == 1:
                out.add((g[1].lower(), int(g[0]), g[2]))
            elif not any(d[0] == g[0].lower() and d[2] == g[1] for d in out):
                out.add((g[0].lower(), 0, g[1]))
    return frozenset(out)


def _date_clash(mine: frozenset[tuple[str, int, str]], ref: frozenset[tuple[str, int, str]]) -> bool:
    """A date of the unit's that the reference writes with the same month (and day) but another year,
    and never as the unit does ('born April 27, 1997' against 'born April 27, 1949')."""
    for month, day, year in mine:
        if any(m == month and y == year and (not day or not d or d == day) for m, d, y in ref):
            continue
        if any(m == month and d == day and y != year for m, d, y in ref):
            return True
    return False


def _tree_distance(a: "Token", b: "Token", limit: int) -> int:
    """Edges between two tokens of one sentence (``limit + 1`` when further)."""
    up_a = {a.i: 0}
    cur, d = a, 0
    while cur.head.i != cur.i and d < limit:
        cur, d = cur.head, d + 1
        up_a[cur.i] = d
    cur, d = b, 0
    while True:
        if cur.i in up_a:
            return up_a[cur.i] + d
        if cur.head.i == cur.i or d >= limit:
            return limit + 1
        cur, d = cur.head, d + 1


@dataclass
class RefStructure:
    tokens: list["Token"]  # every token of the reference, over its parsed paragraphs
    sent_spans: list[tuple[int, int]]
    tok_sent: list[int]  # sentence index of each token (-1 for whitespace between sentences)
    tok_keys: list[tuple[str, ...]]
    doubt: list[bool]
    sent_keys: list[frozenset[str]]
    sent_tokens: list[list[int]]
    all_keys: frozenset[str]
    prefixes: frozenset[str]
    quantities: list[Quantity]
    sent_split_vote: list[bool]
    unanimous: bool
    date_words: frozenset[str]
    #: the full dates it writes, as (month, day or 0, year)
    dates: frozenset[tuple[str, int, str]] = frozenset()
    #: in how many sentences each key occurs (for idf weights)
    key_df: dict[str, int] = field(default_factory=dict)
    #: the tokens carrying each key, and each key's first five letters (keys of five or more)
    key_tokens: dict[str, frozenset[int]] = field(default_factory=dict)
    prefix_tokens: dict[str, frozenset[int]] = field(default_factory=dict)

    def tokens_with(self, keys: Iterable[str], prefixes: Iterable[str] = ()) -> frozenset[int]:
        """The tokens with any of ``keys``, or with a key whose first five letters are in ``prefixes``."""
        out: set[int] = set()
        for k in keys:
            out |= self.key_tokens.get(k, frozenset())
        for p in prefixes:
            out |= self.prefix_tokens.get(p, frozenset())
        return frozenset(out)


@lru_cache(maxsize=256)
def read_reference(reference: str) -> RefStructure:
    """The parse-derived view of a reference (cached; its paragraphs' parses are cached too)."""
    import bisect

    from factgrain.agent.segment import parsed_blocks, split_sentences

    spans = split_sentences(reference) or [(0, len(reference))]
    starts = [s for s, _ in spans]

    def sent_of_char(c: int) -> int:
        k = bisect.bisect_right(starts, c) - 1
        return k if k >= 0 and c < spans[k][1] else -1

    tokens: list["Token"] = []
    tok_sent: list[int] = []
    doubt: list[bool] = []
    quantities: list[Quantity] = []
    for offset, doc in parsed_blocks(reference):
        base = len(tokens)
        tokens.extend(doc)
        tok_sent.extend(sent_of_char(offset + t.idx) for t in doc)
        doubt.extend(_doubt_flags(doc))
        quantities.extend(_quantities(doc, lambda t, base=base: tok_sent[base + t.i]))
    tok_keys: list[tuple[str, ...]] = []
    sent_sets: list[set[str]] = [set() for _ in spans]
    sent_tokens: list[list[int]] = [[] for _ in spans]
    for j, t in enumerate(tokens):
        keys = _keys(t) if _content_predicate(t) else ()
        keys = keys + _agent_noun_keys(t)
        if t.ent_type_:
            keys = keys + (_TYPE_KEY.format(t.ent_type_),)
        tok_keys.append(keys)
        if tok_sent[j] >= 0:
            sent_sets[tok_sent[j]].update(keys)
            sent_tokens[tok_sent[j]].append(j)
    all_keys = frozenset().union(*sent_sets) if sent_sets else frozenset()
    key_df: dict[str, int] = {}
    for keys in sent_sets:
        for k in keys:
            key_df[k] = key_df.get(k, 0) + 1
    # an index from key to tokens, so that a unit looks up its predicate and answer words once
    key_tokens: dict[str, set[int]] = {}
    prefix_tokens: dict[str, set[int]] = {}
    for j, keys in enumerate(tok_keys):
        for k in keys:
            key_tokens.setdefault(k, set()).add(j)
            if len(k) >= 5:
                prefix_tokens.setdefault(k[:5], set()).add(j)
    return RefStructure(
        tokens=tokens, sent_spans=spans, tok_sent=tok_sent, tok_keys=tok_keys, doubt=doubt,
        sent_keys=[frozenset(s) for s in sent_sets], sent_tokens=sent_tokens, all_keys=all_keys,
        prefixes=frozenset(k[:5] for k in all_keys if len(k) >= 5 and not k.startswith("<")),
        quantities=quantities,
        sent_split_vote=[_split_vote(reference[a:b]) for a, b in spans],
        unanimous=bool(_UNANIMOUS_RE.search(reference)),
        date_words=frozenset(_date_words(tokens)), dates=_full_dates(reference),
        key_df=key_df, key_tokens={k: frozenset(v) for k, v in key_tokens.items()},
        prefix_tokens={k: frozenset(v) for k, v in prefix_tokens.items()},
    )


@dataclass
class UnitReading:
    ans_keys: list[tuple[str, ...]]  # one tuple of alternative keys per answer content word
    head_keys: tuple[str, ...]  # keys of the answer's syntactic head (empty when it is not a content word)
    generic_types: frozenset[str]  # entity labels a generic answer stands for (empty otherwise)
    pred_keys: tuple[str, ...]
    context_keys: frozenset[str]  # question + generated sentence content lemmas
    doubted: bool  # the unit's own sentence denies or hedges its answer / predicate
    quantities: list[Quantity]
    unanimous: bool
    split_vote: bool
    date_words: frozenset[str]
    dates: frozenset[tuple[str, int, str]] = frozenset()  # the answer's full dates (see _full_dates)
    #: question words that carry a copular unit's claim (not the answer's words); empty when the predicate
    #: relates something by itself
    claim_keys: frozenset[str] = frozenset()
    negated: bool = False  # the unit's predicate is negated in its sentence ("did not win", "never won")
    copular: bool = False  # the predicate is a copula of the unit's sentence ("is not the director")
    #: per answer content word (aligned with ``ans_keys``): a proper noun or a number
    ans_named: tuple[bool, ...] = ()
    #: keys of the answer's proper-name words when the answer is the predicate's doer (its active subject
    #: or passive by-agent) and a named person or organisation; empty otherwise
    agent_name_keys: frozenset[str] = frozenset()
    #: which side of the verb the named answer is: its doer ("agent") or, as the subject of a passive,
    #: who it is done to ("patient")
    agent_side: str = "agent"
    pred_is_verb: bool = False  # the predicate is a verb in the unit's sentence (not an event noun)
    #: "X is the R" / "the R, X": keys of the definite role noun R the answer is said to hold, and of the
    #: answer's proper-name words (both empty otherwise)
    role_keys: tuple[str, ...] = ()
    role_name_keys: frozenset[str] = frozenset()
    #: keys of the answer's gendered person noun ("women" in "two women"), when it has one
    gender_keys: tuple[str, ...] = ()


def _answer_tokens(answer: str, sentence_doc: "Doc") -> "Span | Doc":
    """The answer's tokens in the parsed sentence (answers are spans of it), else the answer parsed alone."""
    from factgrain.agent.reader import parse

    text = sentence_doc.text
    at, end = text.find(answer), -1
    if at >= 0:
        end = at + len(answer)
    else:
        # gold answers are often re-tokenised ("Sweden 's", "do n't"): match ignoring whitespace and case
        positions = [i for i, ch in enumerate(text) if not ch.isspace()]
        squeezed = "".join(text[i] for i in positions).lower()
        needle = "".join(answer.split()).lower()
        k = squeezed.find(needle) if needle else -1
        if k >= 0:
            at, end = positions[k], positions[k + len(needle) - 1] + 1
    if at >= 0:
        span = sentence_doc.char_span(at, end, alignment_mode="expand")
        if span is not None and len(span):
            return span
    return parse(answer)


def read_unit(*, answer: str, question: str, sentence: str, predicate: str | None) -> UnitReading:
    from factgrain.agent.reader import parse

    sent_doc = parse(sentence or "")
    ans = _answer_tokens(answer or "", sent_doc) if answer else parse("")
    # "around 400,000": the number is the claim (compared by value); the approximation word is not
    content = [t for t in ans if _is_content(t) and not _approx_word(t) and not _title(t)]
    generic: frozenset[str] = frozenset()
    if not any(t.pos_ == "PROPN" or t.ent_type_ for t in ans):
        heads = [t for t in ans if t.pos_ in ("NOUN", "PRON") and t.lemma_.lower() in GENERIC_ENTITY]
        if heads and all(t.lemma_.lower() in GENERIC_ENTITY or not _is_content(t) or t.pos_ in ("ADJ", "NUM")
                         for t in ans):
            generic = GENERIC_ENTITY[heads[-1].lemma_.lower()]
    if generic:
        # the entity type it stands for, or the word itself ("the man" when the reference names nobody)
        ans_keys = [tuple(_TYPE_KEY.format(label) for label in sorted(generic)) + _keys(heads[-1])]
        ans_named: tuple[bool, ...] = (False,)
    else:
        ans_keys = [_keys(t) for t in content]
        ans_named = tuple(t.pos_ in ("PROPN", "NUM") for t in content)
    pred_tok = _predicate_token(predicate, sent_doc)
    if pred_tok is not None and _content_predicate(pred_tok):
        # "who visits? -> 400,000 people" against "400,000 visitors": a neutral person noun is also found as
        # the agent noun the reference derives from the predicate (visit / visitor, vote / voter)
        agent = _agent_noun_key(_keys(pred_tok)[0])
        neutral = _neutral_person()
        ans_keys = [k + (agent,) if any(x in neutral for x in k) else k for k in ans_keys]
    root = ans.root if hasattr(ans, "root") else next((t for t in ans if t.head.i == t.i), None)
    if generic:
        head_keys = ans_keys[0]
    elif root is not None and _is_content(root):
        head_keys = _keys(root)
    else:
        head_keys = ()
    # a copula or auxiliary ("was") relates nothing by itself: the complement carries the unit
    pred_keys = _keys(pred_tok) if pred_tok is not None and _content_predicate(pred_tok) else ()
    # the question is not parsed (one parse per unit would double the cost); its normalised words match the
    # surface keys every reference token also carries
    context = {k for t in sent_doc if _is_content(t) for k in _keys(t)} | set(_lf.content_tokens(question or ""))
    claim: frozenset[str] = frozenset()
    if not pred_keys:
        claim = frozenset(_lf.content_tokens(question or "")) - frozenset(_lf.content_tokens(answer or ""))
    flags = _doubt_flags(sent_doc)
    ans_in_sent = ans.doc is sent_doc
    quantities = _quantities(ans, lambda t: -1)
    if not pred_keys:
        # a copular unit's claim may be a quantity in its question ("what was 5 million dollars? -> The
        # budget"): read it from the sentence's own tokens outside the answer that the question repeats
        in_answer = {t.i for t in ans} if ans_in_sent else set()
        asked = set(re.findall(r"[\w$£€%]+", (question or "").lower()))
        quantities += _quantities((t for t in sent_doc if t.i not in in_answer and t.lower_ in asked), lambda t: -1)
    doubted = (ans_in_sent and any(flags[t.i] for t in ans)) or (pred_tok is not None and pred_tok.doc is sent_doc
                                                                 and flags[pred_tok.i])
    agent_keys, agent_side = _agent_name_keys(ans, pred_tok) if ans_in_sent and pred_keys else (frozenset(), "agent")
    return UnitReading(
        ans_keys=ans_keys, head_keys=head_keys, generic_types=generic, pred_keys=pred_keys, context_keys=frozenset(context),
        doubted=bool(doubted), quantities=quantities,
        unanimous=bool(_UNANIMOUS_RE.search(answer or "")), split_vote=bool(_tallies(answer or "")
                                                                           and any(b > 0 for _, b in _tallies(answer or ""))),
        date_words=frozenset(_date_words(ans)), dates=_full_dates(answer or ""), claim_keys=claim,
        negated=pred_tok is not None and pred_tok.doc is sent_doc and _negated(pred_tok),
        copular=pred_tok is not None and pred_tok.doc is sent_doc and pred_tok.lemma_ == "be"
        and any(c.dep_ in ("attr", "acomp") for c in pred_tok.children),
        ans_named=ans_named,
        agent_name_keys=agent_keys, agent_side=agent_side,
        pred_is_verb=pred_tok is not None and pred_tok.doc is sent_doc and pred_tok.pos_ == "VERB",
        **_role_of(ans, pred_tok, sent_doc) if ans_in_sent else {},
        gender_keys=next((k for t in content for k in [_keys(t)] if _gendered(k)), ()),
    )


def _predicate_token(predicate: str | None, sent_doc: "Doc") -> "Token | None":
    from factgrain.agent.reader import parse

    if not (predicate and predicate.split()):
        return None
    # a TriQua relation is a verb group ('was not convicted', "wasn't held in"): its verb is the
    # predicate, not the auxiliary in front (which hid the negation from every polarity check); a
    # copular one ('is the director of') keeps its copula
    words = [t.lower_ for t in parse(predicate)] if len(predicate.split()) > 1 or "'" in predicate \
        else [predicate.lower()]
    lead = 0
    while lead < len(words) - 1 and (words[lead] in _RELATION_AUX or words[lead] in _lf.NEGATIONS
                                     or words[lead] == "n't"):
        lead += 1
    skipped = words[lead] in _lf.STOPWORDS or words[lead] in _lf.NEGATIONS or words[lead] == "n't"
    word = words[lead] if lead and not skipped else words[0]
    tok = next((t for t in sent_doc if t.lower_ == word), None)
    if tok is None:
        p = parse(predicate)
        tok = next((t for t in p if t.lower_ == word), p[0] if len(p) else None)
    return tok


# the auxiliaries a verb group may open with
_RELATION_AUX = frozenset("""is are was were be been being am has have had having do does did will would shall should
can could may might must get gets got getting""".split())


# approximation words before a number ("around 400,000", "about 40"): left out of the answer's words
_APPROX_WORDS = frozenset({"about", "around", "approximately", "roughly", "circa", "some", "nearly", "almost"})


def _approx_word(t: "Token") -> bool:
    if t.lower_ not in _APPROX_WORDS:
        return False
    nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    return (t.head.like_num or (nxt is not None and (nxt.like_num or nxt.lower_ in _UNIT_ALIASES))) and t.head.i != t.i


#: person nouns that say nothing of who the person is: also found as the predicate's agent noun
_NEUTRAL_PERSON = frozenset({"people", "person", "persons", "someone", "somebody", "individual", "individuals"})


@lru_cache(maxsize=1)
def _neutral_person() -> frozenset[str]:
    return frozenset(_lf._norm_token(w) for w in _NEUTRAL_PERSON)


_AGENT_SUFFIXES = ("er", "or", "ar", "ant", "ent", "ist", "ee")


def _agent_noun_key(pred_key: str) -> str:
    return "<AGENT:{}>".format(pred_key[:5])


def _agent_noun_keys(tok: "Token") -> tuple[str, ...]:
    """A reference noun that names the doer of a verb ("visitors", "voters", "residents"): a key
    its verb's :func:`_agent_noun_key` matches (the first five letters, or fewer for a short verb)."""
    if tok.pos_ != "NOUN":
        return ()
    lemma = _lf._norm_token(tok.lemma_.lower())
    for suf in _AGENT_SUFFIXES:
        if lemma.endswith(suf) and len(lemma) - len(suf) >= 3:
            stem = lemma[: len(lemma) - len(suf)]
            out = {_agent_noun_key(lemma[:5])}
            if len(stem) < 5:  # vote / voter, sing / singer, run / runner
                out |= {_agent_noun_key(stem), _agent_noun_key(stem + "e")}
                if len(stem) >= 4 and stem[-1] == stem[-2]:
                    out.add(_agent_noun_key(stem[:-1]))
            return tuple(sorted(out))
    return ()


def _definite(tok: "Token") -> bool:
    return any((c.dep_ == "det" and c.lower_ == "the") or c.dep_ == "poss" for c in tok.children)


def _role_of(ans: "Span | Doc", pred: "Token | None", sent_doc: "Doc") -> dict:
    """Whether the unit says a named answer holds a definite role ("Helen Park is the museum's director",
    "the director, Helen Park"): the role noun's keys and the answer's name keys."""
    names = frozenset(k for t in ans if _name_word(t) for k in _keys(t))
    if not names or pred is None or pred.doc is not sent_doc:
        return {}
    in_ans = {t.i for t in ans}
    role = None
    # the answer itself pairs a person's role with its holder: "who owns something? -> His son, Tami"
    # (a person only: "in the movie The Boys" against "films ... include The Boys" is no clash)
    from factgrain.agent.decompose.qasem_parse import is_person

    for t in ans:
        holder = [a for a in t.children if a.dep_ == "appos" and a.i in in_ans]
        if t.pos_ == "NOUN" and holder and _definite(t) and _is_content(t) and is_person(t):
            own = frozenset(k for a in holder for x in a.subtree if _name_word(x) for k in _keys(x))
            if own:
                return {"role_keys": _keys(t), "role_name_keys": own}
    if pred.pos_ == "AUX" or pred.lemma_ == "be":
        subj = next((c for c in pred.children if c.dep_ == "nsubj"), None)
        attr = next((c for c in pred.children if c.dep_ == "attr"), None)
        if subj is not None and attr is not None:
            if subj.i in in_ans and attr.i not in in_ans:
                role = attr
            elif attr.i in in_ans and subj.i not in in_ans:
                role = subj
    elif pred.pos_ == "NOUN" and pred.i not in in_ans:
        holder = _role_holders(pred)
        if holder and any(t.i in in_ans for t in holder):
            role = pred
    if role is None or role.pos_ != "NOUN" or not _definite(role) or not _is_content(role):
        return {}
    return {"role_keys": _keys(role), "role_name_keys": names}


def _role_holders(role: "Token") -> list["Token"]:
    """The tokens that name who holds a role noun in its sentence: its apposition ("the director, Tom
    Reed"), the phrase it is in apposition to ("Tom Reed, the director"), the other side of a copula
    ("the director is Tom Reed", "Tom Reed is the director"), the name it is a title of ("Director Tom Reed")."""
    out: list["Token"] = []
    for c in role.children:
        if c.dep_ == "appos":
            out.extend(c.subtree)
    head = role.head
    if head.i != role.i:
        skip = {t.i for t in role.subtree}
        if role.dep_ in ("appos", "compound") and head.pos_ == "PROPN":
            out.extend(t for t in head.subtree if t.i not in skip)
        elif role.dep_ in ("attr", "nsubj") and (head.pos_ == "AUX" or head.lemma_ == "be"):
            other = "nsubj" if role.dep_ == "attr" else "attr"
            for c in head.children:
                if c.dep_ == other:
                    out.extend(c.subtree)
    return [t for t in out if _name_word(t)]


# Gendered person nouns that a sentence swaps ("two women" for "two men"): symmetric; lemmas.
_GENDER_PAIRS = (
    ("man", "woman"), ("boy", "girl"), ("son", "daughter"), ("brother", "sister"), ("husband", "wife"),
    ("father", "mother"), ("king", "queen"), ("uncle", "aunt"), ("nephew", "niece"), ("prince", "princess"),
    ("grandfather", "grandmother"), ("grandson", "granddaughter"), ("boyfriend", "girlfriend"),
    ("gentleman", "lady"), ("actor", "actress"), ("widower", "widow"), ("male", "female"),
)


@lru_cache(maxsize=1)
def _gender_opposites() -> dict[str, str]:
    out = {}
    for a, b in _GENDER_PAIRS:
        a, b = _lf._norm_token(a), _lf._norm_token(b)
        out[a], out[b] = b, a
    return out


def _gendered(keys: tuple[str, ...]) -> bool:
    return bool(keys) and keys[0] in _gender_opposites()


_AGENT_ENTS = frozenset({"PERSON", "ORG"})


def _agent_of(pred: "Token", depth: int = 0) -> "Token | None":
    """The doer of a verb: its active subject, or the object of its passive ``by``. A verb with no
    subject of its own that continues another ('upset the champion to win gold', 'rose and then
    fell', 'left, helping the team') has that verb's doer (found by checking unseen sentences with
    another runner's name put in: 'who won? -> Muir' passed where the reference's winner was Obiri)."""
    for c in pred.children:
        if c.dep_ == "nsubj":
            return c
        if c.dep_ == "agent":
            return next((g for g in c.children if g.dep_ == "pobj"), None)
    if any(c.dep_ in ("nsubjpass", "csubj", "expl") for c in pred.children):
        return None
    if depth < 2 and pred.head.i != pred.i and pred.head.pos_ == "VERB" and (
            pred.dep_ in ("xcomp", "conj")
            or (pred.dep_ == "advcl" and (pred.tag_ == "VBG" or any(c.dep_ == "aux" and c.lower_ == "to"
                                                                     for c in pred.children)))):
        return _agent_of(pred.head, depth + 1)
    return None


def _name_keys(tok: "Token") -> frozenset[str]:
    """Keys of the proper-name words of the phrase headed by ``tok`` ("the architect Helen Park" ->
    helen, park; the small pipeline's entity labels are too unreliable to ask for PERSON here)."""
    return frozenset(k for t in tok.subtree if _name_word(t) for k in _keys(t))


def _name_word(t: "Token") -> bool:
    # the small tagger calls some names nouns ("Apandi received ...": NNS) but still finds the entity
    return (t.pos_ == "PROPN" or (t.ent_type_ in _AGENT_ENTS and t.text[:1].isupper())) and not _title(t)


def _patient_of(pred: "Token") -> "Token | None":
    """Who a verb is done to, when the sentence makes them its subject ("Matt Downie was referred").
    Not a direct object: a verb takes several of those over time ("attended Columbia High School",
    "attended Dartmouth College": one supported dev QA fell to 0.2 when objects were compared)."""
    return next((c for c in pred.children if c.dep_ == "nsubjpass"), None)


_SIDES = {"agent": _agent_of, "patient": _patient_of}


def _agent_name_keys(ans: "Span | Doc", pred: "Token | None") -> tuple[frozenset[str], str]:
    """The name keys of a named answer that is the doer or the patient of the unit's verb, and which."""
    if pred is None or pred.pos_ != "VERB":
        return frozenset(), "agent"
    for side, find in _SIDES.items():
        holder = find(pred)
        ents = _AGENT_ENTS if side == "agent" else ("PERSON",)
        if holder is not None and holder.ent_type_ in ents and any(t.i == holder.i for t in ans):
            return _name_keys(holder), side
    return frozenset(), "agent"


_NEGATIVE_PRONOUNS = frozenset({"nobody", "nothing", "none", "noone", "neither"})
_CORE_ARGUMENTS = frozenset({"nsubj", "nsubjpass", "dobj", "attr", "expl"})


def _negated(tok: "Token") -> bool:
    """The predicate is denied: a negation of its own ("did not win", "never won"), or a core
    argument that is a negative pronoun or has the determiner *no* ("no contractor has been
    chosen", "nobody was hurt", "reported no side effects")."""
    for c in tok.children:
        if c.dep_ == "neg":
            return True
        if c.dep_ in _CORE_ARGUMENTS and (c.lower_ in _NEGATIVE_PRONOUNS or any(
                d.dep_ == "det" and d.lower_ == "no" for d in c.children)):
            return True
    return False


# Verbs of opposite meaning that news and biographies swap ("rose" for "fell", "rejected" for
# "approved"): a closed list rather than WordNet, whose antonym links are few and which costs most of
# an offline check's time budget to load (round 4, above). Symmetric; lemmas.
_OPPOSITE_PAIRS = (
    ("rise", "fall"), ("rise", "drop"), ("climb", "fall"), ("climb", "drop"), ("gain", "lose"), ("gain", "fall"),
    ("increase", "decrease"), ("increase", "cut"), ("increase", "reduce"), ("raise", "cut"), ("raise", "lower"),
    ("raise", "reduce"), ("grow", "shrink"), ("expand", "shrink"), ("expand", "cut"), ("surge", "plunge"),
    ("win", "lose"), ("open", "close"), ("approve", "reject"), ("accept", "reject"), ("accept", "refuse"),
    ("accept", "decline"), ("allow", "ban"), ("allow", "forbid"), ("permit", "ban"), ("lift", "impose"),
    ("buy", "sell"), ("confirm", "deny"), ("admit", "deny"), ("acquit", "convict"), ("hire", "fire"),
    ("appoint", "dismiss"), ("join", "leave"), ("enter", "leave"), ("arrive", "depart"), ("pass", "fail"),
    ("succeed", "fail"), ("support", "oppose"), ("back", "oppose"), ("add", "remove"), ("start", "end"),
    ("start", "finish"), ("begin", "end"), ("begin", "finish"), ("open", "shut"), ("praise", "criticise"),
    ("praise", "criticize"), ("strengthen", "weaken"), ("improve", "worsen"), ("survive", "die"),
)


@lru_cache(maxsize=1)
def _opposites() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for a, b in _OPPOSITE_PAIRS:
        a, b = _lf._norm_token(a), _lf._norm_token(b)
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


def _opposite_linked(unit: UnitReading, ref: RefStructure) -> bool:
    """Whether a reference sentence relates the answer to a verb of the opposite meaning of the
    unit's predicate ("Shares rose" against "Shares fell"), within three dependency edges."""
    table = _opposites()
    opposite = tuple(o for k in unit.pred_keys for o in table.get(k, ()))
    if not opposite:
        return False
    for toks in ref.sent_tokens:
        verbs = [ref.tokens[j] for j in toks if ref.tokens[j].pos_ == "VERB" and _hit(opposite, frozenset(ref.tok_keys[j]))]
        if not verbs:
            continue
        args = [ref.tokens[j] for j in toks if any(_hit(k, frozenset(ref.tok_keys[j])) for k in unit.ans_keys)]
        if any(_tree_distance(a, v, 3) <= 3 for a in args for v in verbs):
            return True
    return False


def _restated_with_other_polarity(unit: UnitReading, ref: RefStructure, pred_sents: list[int],
                                  pred_prefix: frozenset[str]) -> bool:
    """For a unit whose answer has no content word ('who was not convicted? -> he'), or a copular
    one: whether the reference sentence that restates the unit's sentence (most of its content
    words, and the predicate) has the predicate (the copula) only with the other polarity ('he was
    convicted of assault'). Found by putting a 'not' into unseen sentences: the pronoun's unit
    passed at 0.95, and a TriQua fact from a negated sentence always passed."""
    if not unit.context_keys:
        return False

    def overlap(i: int) -> float:
        return len(unit.context_keys & ref.sent_keys[i]) / len(unit.context_keys)

    if not pred_sents:
        return False
    best = max(pred_sents, key=lambda i: (overlap(i), -i))
    if overlap(best) < _RESTATED:
        return False
    if unit.pred_keys:
        preds = [ref.tokens[j] for j in ref.sent_tokens[best] if ref.tokens[j].pos_ in ("VERB", "AUX")
                 and (_hit(unit.pred_keys, frozenset(ref.tok_keys[j]))
                      or any(k[:5] in pred_prefix for k in ref.tok_keys[j] if len(k) >= 5))]
    else:  # a copular unit: the sentence's copulas ('Tom Reed is the director' against 'is not')
        preds = [ref.tokens[j] for j in ref.sent_tokens[best] if ref.tokens[j].lemma_ == "be"
                 and any(c.dep_ in ("attr", "acomp") for c in ref.tokens[j].children)]
    return bool(preds) and all(_negated(p) != unit.negated for p in preds)


# share of a unit's sentence words that a reference sentence must hold to count as its restatement
_RESTATED = 0.6


def _other_agent(unit: UnitReading, ref: RefStructure) -> bool:
    """Whether the reference names another person or organisation as the doer of the unit's
    predicate ("designed by the architect Helen Park" against "designed by Tom Reed")."""
    for j, tok in enumerate(ref.tokens):
        if tok.pos_ != "VERB" or not _hit(unit.pred_keys, frozenset(ref.tok_keys[j])):
            continue
        agent = _SIDES[unit.agent_side](tok)
        if agent is None:
            continue
        names = _name_keys(agent)
        if names and not names & unit.agent_name_keys:
            return True
    return False


def _role_clash(unit: UnitReading, ref: RefStructure) -> bool:
    """The reference gives the unit's definite role to another named holder ("the museum's director, Tom
    Reed" against "Helen Park is the museum's director"), never to the answer, and never puts the
    answer's name within two dependency edges of the role."""
    if not unit.role_keys or not unit.role_name_keys:
        return False
    other = False
    for j, tok in enumerate(ref.tokens):
        if not _hit(unit.role_keys[:1], frozenset(ref.tok_keys[j])):
            continue
        names = frozenset(k for t in _role_holders(tok) for k in _keys(t))
        if names & unit.role_name_keys:
            return False
        for toks in (ref.sent_tokens[ref.tok_sent[j]],) if ref.tok_sent[j] >= 0 else ():
            if any(_tree_distance(ref.tokens[i], tok, 2) <= 2 for i in toks
                   if _name_word(ref.tokens[i]) and _hit(tuple(unit.role_name_keys), frozenset(ref.tok_keys[i]))):
                return False
        other = other or bool(names)
    return other


def _person_swap(unit: UnitReading, ref: RefStructure) -> bool:
    """The answer's gendered person noun is never related to the predicate's lemma in the reference, and
    its opposite is ("arrested two women" against "arrested two men"), within three dependency edges. The
    answer's own noun anywhere in a sentence with the predicate rules it out: "males ... wander widely in
    search of females" puts 'females' four edges from 'wander' and 'males' one."""
    if not unit.gender_keys or not unit.pred_keys:
        return False
    opposite = (_gender_opposites()[unit.gender_keys[0]],)
    pred_prefix = frozenset(k[:5] for k in unit.pred_keys if len(k) >= 5)
    swapped = False
    for toks in ref.sent_tokens:
        preds = [ref.tokens[j] for j in toks if _hit(unit.pred_keys, frozenset(ref.tok_keys[j]))
                 or any(k[:5] in pred_prefix for k in ref.tok_keys[j] if len(k) >= 5)]
        if not preds:
            continue
        if any(_hit(unit.gender_keys, frozenset(ref.tok_keys[j])) for j in toks):
            return False
        swapped = swapped or any(_hit(opposite, frozenset(ref.tok_keys[j]))
                                 and any(_tree_distance(ref.tokens[j], p, 3) <= 3 for p in preds) for j in toks)
    return swapped


def _hit(keys: tuple[str, ...], pool: frozenset[str]) -> bool:
    return any(k in pool for k in keys)


def _pred_hit(pred_keys: tuple[str, ...], pool: frozenset[str], prefixes: frozenset[str] | None = None) -> bool:
    if _hit(pred_keys, pool):
        return True
    # derivations share a stem: approve / approval, elect / election, invest / investment
    return prefixes is not None and any(len(k) >= 5 and k[:5] in prefixes for k in pred_keys)


def _same_value(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def structure_features(unit: UnitReading, ref: RefStructure) -> dict[str, float]:
    """The values of :data:`STRUCTURE_FEATURES` (see :func:`support_sentence` for the sentence they rest on)."""
    return _structure(unit, ref)[0]


def support_sentence(unit: UnitReading, ref: RefStructure) -> tuple[int, int] | None:
    """Character span of the reference sentence the unit most likely rests on (None when the answer is absent)."""
    return _structure(unit, ref)[1]


def _structure(unit: UnitReading, ref: RefStructure) -> tuple[dict[str, float], tuple[int, int] | None]:
    n_ans = len(unit.ans_keys)

    def share(pool: frozenset[str]) -> float:
        return 1.0 if not n_ans else sum(_hit(k, pool) for k in unit.ans_keys) / n_ans

    cov_ref = share(ref.all_keys)
    sent_cov = [share(keys) for keys in ref.sent_keys]
    pred_sents = [i for i, keys in enumerate(ref.sent_keys) if unit.pred_keys and _pred_hit(unit.pred_keys, keys)]
    pred_prefix = frozenset(k[:5] for k in unit.pred_keys if len(k) >= 5)

    # the predicate's lemma (or a derivation sharing its first five letters) related to the answer in one sentence
    linked_sents: set[int] = set()
    same_polarity: set[int] = set()  # linked sentences where a linked predicate has the unit's polarity
    head_linked = 0.0
    linked_cov = 0.0  # the most answer words found near the predicate's lemma in one sentence (share)
    if unit.pred_keys and n_ans:
        pred_ids = ref.tokens_with(unit.pred_keys, pred_prefix)
        ans_ids = ref.tokens_with(k for keys in unit.ans_keys for k in keys)
        for i in range(len(ref.sent_keys)):
            toks = ref.sent_tokens[i]
            preds = [ref.tokens[j] for j in toks if j in pred_ids]
            if not preds:
                continue
            if sent_cov[i] > 0:
                arg_ids = [j for j in toks if j in ans_ids]
                args = [ref.tokens[j] for j in arg_ids]
                near = [p for p in preds if any(_tree_distance(a, p, 3) <= 3 for a in args)]
                if near:
                    # which of the answer's words are themselves that close to the predicate
                    close = frozenset(k for j in arg_ids if any(_tree_distance(ref.tokens[j], p, 3) <= 3 for p in near)
                                      for k in ref.tok_keys[j])
                    linked_cov = max(linked_cov, sum(_hit(k, close) for k in unit.ans_keys) / n_ans)
                    linked_sents.add(i)
                    # the polarity of the occurrence closest to the answer: in "does not update the
                    # firmware; updates are installed ..." the noun three edges away says nothing of it
                    dist = {p.i: min(_tree_distance(a, p, 3) for a in args) for p in near}
                    closest = min(dist.values())
                    if any(_negated(p) == unit.negated for p in near if dist[p.i] == closest):
                        same_polarity.add(i)
                    if not head_linked and unit.head_keys:
                        heads = [ref.tokens[j] for j in toks if _hit(unit.head_keys, frozenset(ref.tok_keys[j]))]
                        head_linked = float(any(_tree_distance(a, p, 3) <= 3 for a in heads for p in preds))
    linked = float(bool(linked_sents))
    polarity_clash = bool(linked_sents) and not same_polarity
    if unit.pred_keys and not n_ans and pred_sents:
        polarity_clash = _restated_with_other_polarity(unit, ref, pred_sents, pred_prefix)
    elif unit.copular and not unit.pred_keys:
        polarity_clash = _restated_with_other_polarity(unit, ref, list(range(len(ref.sent_keys))), frozenset())

    # the sentence the unit most likely rests on: answer first, then predicate, then context words
    doubted = 0.0
    support: tuple[int, int] | None = None
    if ref.sent_keys and n_ans:
        def fit(i: int) -> float:
            keys = ref.sent_keys[i]
            ctx = len(unit.context_keys & keys) / max(1, len(unit.context_keys))
            return 2 * sent_cov[i] + 1.5 * float(i in pred_sents) + float(i in linked_sents) + ctx

        best = max(range(len(ref.sent_keys)), key=lambda i: (fit(i), -i))
        if sent_cov[best] > 0:
            support = ref.sent_spans[best]
            toks = ref.sent_tokens[best]
            in_doubt = any(ref.doubt[j] for j in toks
                           if any(_hit(k, frozenset(ref.tok_keys[j])) for k in unit.ans_keys)
                           or (unit.pred_keys and _pred_hit(unit.pred_keys, frozenset(ref.tok_keys[j]))))
            doubted = float(in_doubt and not unit.doubted)

    # quantities: value clash, and a clash with a value of the same unit in a related sentence
    ref_values = [q.value for q in ref.quantities]
    related = set(pred_sents) | {i for i, keys in enumerate(ref.sent_keys) if unit.context_keys & keys}
    qty_clash = qty_unit_clash = 0.0
    missing = [q for q in unit.quantities if not any(_same_value(q.value, v) for v in ref_values)]
    if missing:
        qty_clash = 1.0
        for q in missing:
            if q.approx:  # "more than £2m" against "£2.1m": no clash to call
                continue
            if any(r.sent in related and (r.unit == q.unit or not r.unit or not q.unit) for r in ref.quantities):
                qty_unit_clash = 1.0
    vote_clash = float((unit.unanimous and any(ref.sent_split_vote) and not ref.unanimous)
                       or (unit.split_vote and ref.unanimous))
    qty_agree = float(bool(unit.quantities) and not missing)

    date_clash = float(_date_clash(unit.dates, ref.dates))
    for w in unit.date_words:
        kind = _WEEKDAYS if w in _WEEKDAYS else _MONTHS
        if w not in ref.date_words and ref.date_words & kind:
            date_clash = 1.0

    return {
        "lem_ans_cov_ref": cov_ref,
        "lem_ans_cov_sent": max(sent_cov, default=cov_ref),
        "lem_pred_ref": float(_pred_hit(unit.pred_keys, ref.all_keys, ref.prefixes)) if unit.pred_keys else 1.0,
        "lem_pred_ans_sent": max((sent_cov[i] for i in pred_sents), default=0.0),
        "ans_head_in_ref": float(_hit(unit.head_keys, ref.all_keys)) if unit.head_keys else 1.0,
        "ans_head_linked": head_linked,
        "pred_ans_linked": linked,
        "generic_ans_typed": float(bool(unit.generic_types) and cov_ref > 0),
        "ans_doubted": doubted,
        "qty_clash": qty_clash,
        "qty_unit_clash": qty_unit_clash,
        "vote_clash": vote_clash,
        "qty_agree": qty_agree,
        "date_clash": date_clash,
        "copula_claim_cov": (sum(k in ref.all_keys for k in unit.claim_keys) / len(unit.claim_keys)
                             if unit.claim_keys else 1.0),
        "polarity_clash": float(polarity_clash),
        # a copular unit relates nothing by its predicate: its best sentence stands in
        "lem_ans_cov_linked": (linked_cov if unit.pred_keys else max(sent_cov, default=cov_ref)) if n_ans else 1.0,
        "ans_name_missing": float(any(named and not _hit(k, ref.all_keys)
                                      for k, named in zip(unit.ans_keys, unit.ans_named))),
        "idf_ans_cov_sent": max((_weighted_share(unit.ans_keys, keys, ref) for keys in ref.sent_keys),
                                default=cov_ref) if n_ans else 1.0,
        "agent_clash": float(bool(unit.agent_name_keys) and not linked_sents and _other_agent(unit, ref)),
        "antonym_clash": float(unit.pred_is_verb and bool(n_ans) and not linked_sents and _opposite_linked(unit, ref)),
        "role_clash": float(_role_clash(unit, ref)),
        "person_swap": float(_person_swap(unit, ref)),
    }, support


def _weighted_share(ans_keys: list[tuple[str, ...]], pool: frozenset[str], ref: RefStructure) -> float:
    """The share of the answer's words in ``pool``, each weighted by its idf over the reference's sentences
    (a word the reference never uses gets the highest weight): a missing rare word counts for more than a
    missing common one."""
    n = max(1, len(ref.sent_keys))
    top = math.log(1.0 + n)

    def idf(keys: tuple[str, ...]) -> float:
        return max((math.log(1.0 + n / ref.key_df[k]) for k in keys if k in ref.key_df), default=top)

    weights = [idf(k) for k in ans_keys]
    total = sum(weights)
    return sum(w for k, w in zip(ans_keys, weights) if _hit(k, pool)) / total if total else 1.0
