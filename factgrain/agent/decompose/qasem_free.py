"""Free-mode QA decomposition: the reply schema the model fills and the checks that tie each pair
to its sentence.

A small model gets three things wrong most often (counted on Qwen2.5-1.5B, issue 15): a predicate
in another form than the sentence's ('was released' for 'has been released'), an answer that is
not a phrase of the sentence, and an empty reply. So:

* the field descriptions give examples of forms, never a slashed alternative a model copies
  literally ('is/was');
* a predicate the sentence writes differently is repaired to the sentence's own word when one of
  its words is there (a deterministic fix needs no re-ask); a preposition or an adverb given as the
  predicate is refused;
* a pair that cannot be tied to the sentence is dropped, the others kept; only a reply with no
  usable pair is re-asked, with a message that lists the sentence's own predicates and phrases;
* an empty list for a sentence with content is a failure (re-asked), not a success;
* near-duplicates (the same predicate and answer span) are removed;
* the sentence's dependency parse (the offline reader's) vets each pair: the predicate must be a
  verb, a form of 'be' or a noun that names an event or its doer (not 'refugees', not an
  adjective), and the answer must be an argument of that predicate - tied to it in the parse
  directly, through its preposition, as the noun it modifies, or as a subject it shares with the
  verb it completes or is joined to. An answer that belongs to another verb is dropped (counted);
  the subject of a clause the predicate takes is widened to the whole clause.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, PrivateAttr, ValidationInfo, model_validator

from factgrain.agent.locate import locate, locate_word

MAX_QAS_PER_SENTENCE = 12
WH_WORDS = ("who", "what", "when", "where", "why", "how", "which", "whom", "whose", "to whom", "for whom")
_COPULA = {"is", "was", "are", "were", "be", "been", "being", "am", "'s", "'re"}
_NOT_PREDICATES = {"ADP", "ADV", "DET", "PRON", "CCONJ", "SCONJ", "PART", "PUNCT", "NUM", "SYM", "INTJ"}
MAX_LISTED_PROBLEMS = 4


class QADraft(BaseModel):
    """One predicate-argument relation of the sentence, as a question and its answer."""

    predicate: str = Field(
        max_length=60,
        description="The predicate, written exactly as in the sentence: a verb with its auxiliaries "
        "(e.g. 'has been released', 'won'), a noun naming an event or relation (e.g. 'election', "
        "'founder'), or for a description the sentence's own form of 'be' (e.g. 'is' or 'were').",
    )
    question: str = Field(
        max_length=120,
        description="A short question about one argument of the predicate, opening with who, what, "
        "when, where, why, how or how much, with 'someone' or 'something' for the other arguments, "
        "e.g. 'where did someone fall?'.",
    )
    answer: str = Field(
        max_length=160,
        description="The argument the question asks about: a short phrase copied word for word from "
        "the sentence; never the whole sentence, never the predicate itself.",
    )
    # Found while validating: the predicate's kind (from the parse, so the model need not write
    # it) and where the pair sits in the sentence (offsets within the sentence).
    _predicate_type: str = PrivateAttr(default="verbal")
    _predicate_at: int | None = PrivateAttr(default=None)
    _answer_at: int | None = PrivateAttr(default=None)


class QADecomposition(BaseModel):
    """All predicate-argument QA pairs of one sentence."""

    qas: list[QADraft] = Field(default_factory=list, max_length=MAX_QAS_PER_SENTENCE)

    @model_validator(mode="after")
    def _grounded(self, info: ValidationInfo) -> "QADecomposition":
        ctx = info.context if isinstance(info.context, dict) else {}
        sentence = ctx.get("sentence")
        if sentence is None:
            return self
        kept: list[QADraft] = []
        problems: list[str] = []
        seen: set[tuple[int | None, int | None]] = set()
        # The parse checks guard a small model's pairs; a capable model is trusted, and English
        # spaCy cannot judge a sentence in another script.
        parse_checks = bool(ctx.get("parse_checks", True))
        for qa in self.qas:
            problem = ground(qa, sentence, parse_checks=parse_checks)
            if problem:
                problems.append(problem)
                continue
            key = (qa._predicate_at, qa._answer_at)
            if key in seen:
                continue  # the same relation again adds nothing
            seen.add(key)
            kept.append(qa)
        if not kept and (self.qas or ctx.get("require")):
            raise ValueError(fix_message(sentence, problems))
        ctx.setdefault("dropped", []).extend(problems)
        self.qas = kept
        return self


def _tokens(sentence: str) -> list[Any]:
    from factgrain.agent.reader import parse

    return list(parse(sentence))


def sentence_predicates(sentence: str) -> list[str]:
    """The sentence's verbs (with their auxiliaries when they stand right before them) and main
    copulas, exactly as the sentence writes them."""
    out: list[str] = []
    for t in _tokens(sentence):
        if t.pos_ == "VERB" or (t.pos_ == "AUX" and t.dep_ == "ROOT"):
            aux = sorted((c for c in t.children if c.dep_ in ("aux", "auxpass") and c.i < t.i), key=lambda c: c.i)
            start = aux[0].idx if aux and all(b.i == a.i + 1 for a, b in zip(aux + [t], (aux + [t])[1:])) else t.idx
            out.append(sentence[start:t.idx + len(t.text)])
    return list(dict.fromkeys(out))


def sentence_phrases(sentence: str, limit: int = 8) -> list[str]:
    from factgrain.agent.reader import parse

    return list(dict.fromkeys(c.text for c in parse(sentence).noun_chunks))[:limit]


def _occurrences(phrase: str, sentence: str) -> list[int]:
    """Start offsets of ``phrase`` as whole words in the sentence (case-insensitive)."""
    words = phrase.split()
    if not words:
        return []
    pattern = re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)", re.IGNORECASE)
    return [m.start() for m in pattern.finditer(sentence)]


def _located_predicate(value: str, sentence: str) -> list[tuple[str, int]]:
    """Every place the predicate the model wrote can stand for: the whole phrase, one alternative of
    'is/was', else its longest word that the sentence has ('was released' -> 'released' in 'has
    been released')."""
    value = value.strip().strip("'\"")
    if not value:
        return []
    candidates = [value] + [p.strip() for p in re.split(r"\s*/\s*", value) if "/" in value]
    for c in candidates:
        hits = _occurrences(c, sentence)
        if hits:
            return [(sentence[h:h + len(c)], h) for h in hits]
    for w in sorted(set(re.findall(r"[\w'-]+", value)), key=len, reverse=True):
        if w.lower() in _COPULA and len(value.split()) > 1:
            continue  # 'was released': the copula is not the predicate, 'released' is
        hits = _occurrences(w, sentence)
        if hits:
            return [(sentence[h:h + len(w)], h) for h in hits]
    return []


def _verb_group(sentence: str, start: int, end: int) -> tuple[str, int]:
    """The predicate itself inside a phrase the model wrote: the main verb with the auxiliaries
    right before it ('could take up to six months' -> 'could take', 'to stay' -> 'stay'), the verb
    an auxiliary belongs to ('is' in 'is dynamically typed' -> 'typed'), else the last noun."""
    toks = [t for t in _tokens(sentence) if t.idx < end and t.idx + len(t.text) > start]
    verbs = [t for t in toks if t.pos_ == "VERB"]
    head = None
    if verbs:
        head = verbs[-1] if len(verbs) > 1 and toks[0].pos_ in ("ADP", "SCONJ") else verbs[0]
    elif len(toks) == 1 and toks[0].pos_ == "AUX" and toks[0].dep_ in ("aux", "auxpass") and toks[0].head.pos_ == "VERB":
        head = toks[0].head  # the auxiliary of a verb: the verb is the predicate
    elif len(toks) > 1:
        head = next((t for t in reversed(toks) if t.pos_ in ("NOUN", "PROPN", "AUX", "ADJ")), None)
    if head is None:
        return sentence[start:end], start
    first = head
    for t in reversed([t for t in toks if t.i < head.i]):
        if t.i == first.i - 1 and t.pos_ == "AUX":
            first = t
        else:
            break
    a, b = first.idx, head.idx + len(head.text)
    return sentence[a:b], a


def _pos_at(sentence: str, start: int, end: int) -> list[str]:
    return [t.pos_ for t in _tokens(sentence) if t.idx < end and t.idx + len(t.text) > start]


def _answer_span(answer: str, sentence: str):
    """The answer as whole words of the sentence ('you' must not match inside 'your')."""
    found = locate(answer, sentence)
    if found is None:
        return None
    edge_ok = (found.start == 0 or not sentence[found.start - 1].isalnum() or not found.text[:1].isalnum()) and \
        (found.end == len(sentence) or not sentence[found.end].isalnum() or not found.text[-1:].isalnum())
    if edge_ok:
        return found
    return locate_word(answer, sentence) if _occurrences(answer, sentence) else None


_META = re.compile(r"\b(?:the|this) (?:sentence|subject|object|predicate|text)\b")


def ground(qa: QADraft, sentence: str, *, parse_checks: bool = True) -> str | None:
    """Tie one pair to the sentence (repairing the predicate's form); the problem in words, or None."""
    answer = qa.answer.strip()
    found = _answer_span(answer, sentence)
    if found is None:
        return (f"the answer {answer!r} is not a phrase of the sentence; copy the answer exactly from the "
                "sentence text")
    if len(answer) >= 0.9 * len(sentence.strip()) and len(sentence.split()) > 4:
        return f"the answer {answer[:40]!r}... is the whole sentence; answer with the short phrase the question asks about"
    places = [_verb_group(sentence, at, at + len(t)) for t, at in _located_predicate(qa.predicate, sentence)]
    if not places:
        return (f"the predicate {qa.predicate!r} is not in the sentence; write the verb or noun exactly as the "
                "sentence does")
    # the occurrence outside the answer, nearest to it: an argument never holds its own predicate
    outside = [(t, at) for t, at in places if at + len(t) <= found.start or at >= found.end]
    if not outside:
        return f"the answer {answer!r} holds the predicate {places[0][0]!r}; answer with one of its arguments"
    text, at = min(outside, key=lambda p: abs(p[1] - found.start))
    pos = _pos_at(sentence, at, at + len(text))
    if pos and all(p in _NOT_PREDICATES for p in pos):
        return (f"{text!r} is not a predicate (it is a {pos[-1].lower()}); the predicate is the verb or noun the "
                "phrase belongs to")
    q = qa.question.strip().lower()
    if not any(re.match(rf"(?:\w+\s+){{0,2}}{w}\b", q) for w in WH_WORDS):
        return f"the question {qa.question!r} does not open with who, what, when, where, why or how"
    if _META.search(q):
        return f"the question {qa.question!r} asks about the sentence; ask about an argument of the predicate"
    from factgrain.agent.lint import _QUESTION_FILLER, content_words, words

    said = content_words(found.text)
    if said and set(said) <= set(content_words(q)):
        return (f"the question {qa.question!r} already holds its answer {found.text!r}; put 'someone' or "
                "'something' where the answer goes")

    asked = words(q)
    if not [w for w in asked if w not in _QUESTION_FILLER] and len(asked) < 3:
        return (f"the question {qa.question!r} names no predicate; ask about the predicate, e.g. 'where did someone "
                "fall?'")
    a0, a1 = found.start, found.end
    if parse_checks:
        kind = check_predicate(sentence, at, text)
        if kind:
            return kind
        checked = check_argument(sentence, at, text, found.start, found.end)
        if isinstance(checked, str):
            return checked
        a0, a1 = checked
    qa.predicate, qa.answer = text, sentence[a0:a1]
    found_start = a0
    last = text.split()[-1].lower()
    qa._predicate_type = "copular" if last in _COPULA else ("nominal" if pos and pos[-1] in ("NOUN", "PROPN") else "verbal")
    qa._predicate_at, qa._answer_at = at, found_start
    return None


def fix_message(sentence: str, problems: list[str]) -> str:
    """What was wrong and how to fix it, with the sentence's own predicates and phrases."""
    problems = list(dict.fromkeys(problems))  # the same mistake once
    lines = problems[:MAX_LISTED_PROBLEMS] or ["the reply lists no QA pair, but the sentence states something"]
    more = len(problems) - MAX_LISTED_PROBLEMS
    if more > 0:
        lines.append(f"({more} more pairs with the same kind of problem)")
    preds = sentence_predicates(sentence)
    phrases = sentence_phrases(sentence)
    hint = "Give at least one pair. Copy predicates and answers exactly from the sentence."
    if preds:
        hint += " Its predicates: " + ", ".join(repr(p) for p in preds[:8]) + "."
    if phrases:
        hint += " Phrases that can be answers: " + ", ".join(repr(p) for p in phrases) + "."
    return "; ".join(lines) + ". " + hint


# -- the answer as an argument of its predicate (from the dependency parse) ---------------------------

SUBJ = ("nsubj", "nsubjpass", "csubj", "csubjpass", "expl")
# dependents through which a verb shares its subject or object with another verb
_SHARING = ("xcomp", "conj", "advcl", "acl")
_CLAUSES = ("ccomp", "xcomp", "csubj", "csubjpass")
_MODIFIED = ("relcl", "acl", "amod", "compound", "appos", "nmod")
_COMPLEMENTS = ("attr", "acomp", "oprd")
_EDGE = ("punct", "cc")
_PARTS = ("nummod", "amod", "compound", "poss", "quantmod", "det", "nmod")
_BREAKS = (",", ";", ":", "(", ")", "—", "–", "--")


def _predicate_head(tokens: list[Any], at: int, text: str) -> Any | None:
    inside = [t for t in tokens if at <= t.idx < at + len(text)]
    return inside[-1] if inside else None


def _governors(pred: Any, depth: int = 3) -> list[tuple[Any, bool]]:
    """The verbs whose subject ``pred`` shares: the ones it is an open complement, conjunct or
    adverbial clause of, a few levels up ('wants to stay', 'attended ... and graduated', 'Born in
    Tehran, she is'), each with whether the governor's object is shared too (an open complement:
    'encourages young people to volunteer')."""
    out, cur = [], pred
    for step in range(depth):
        if cur.dep_ in _SHARING and cur.head.i != cur.i:
            nxt = cur.head
        elif cur.dep_ == "pcomp" and cur.head.dep_ == "prep":
            nxt = cur.head.head  # 'freed after being kidnapped'
        else:
            break
        out.append((nxt, step == 0 and cur.dep_ == "xcomp"))
        cur = nxt
    return out


def _attached(tok: Any, pred: Any) -> bool:
    """Whether a token (the top of an answer) is an argument of ``pred`` by the parse."""
    head = tok.head
    if head.i == pred.i:
        return True
    if head.head.i == pred.i and head.dep_ in ("prep", "agent", "dative") and head.i != tok.i:
        return True  # the object of the predicate's preposition, given without it
    if pred.head.i == tok.i and pred.dep_ in _MODIFIED:
        return True  # 'a man who died', 'the flood-hit ground', 'David, the founder'
    if pred.dep_ in _COMPLEMENTS and head.i == pred.head.i and tok.dep_ in SUBJ:
        return True  # 'She is a graduate': the subject of a predicate noun's copula
    for gov, objects_too in _governors(pred):
        if head.i == gov.i and (tok.dep_ in SUBJ or objects_too and tok.dep_ in ("dobj", "dative")):
            return True  # a subject (or an open complement's object) shared with another verb
    if head.dep_ == "conj" and head.head.i == pred.i and tok.dep_ in ("dobj", "attr") and tok.i > head.i:
        return True  # 'directed and produced films': the object of the last conjunct
    return False


def _names_an_event(noun: Any) -> bool:
    """A noun QANom treats as a predicate: one that names a verb's event ('examination', 'death') or
    its doer ('founder', 'director'); the offline reader's word lists decide."""
    from factgrain.agent.decompose.qasem_parse import agent_noun_verb, noun_verb

    return noun_verb(noun) is not None or agent_noun_verb(noun) is not None or (
        noun.dep_ == "compound" and noun.head.pos_ == "PROPN" and noun.lemma_.lower() in _verb_lemma_set())


def _verb_lemma_set() -> frozenset[str]:
    from factgrain.agent.decompose.qasem_parse import _verb_lemmas

    return _verb_lemmas()


def check_predicate(sentence: str, pred_at: int, pred_text: str) -> str | None:
    """Whether the parse reads the predicate as one: a verb, a form of 'be' with a complement, or
    a noun naming an event or its doer. Adjectives ('likely') and nouns naming things ('refugees',
    'actor') are refused, with a hint at the predicate nearby."""
    tokens = _tokens(sentence)
    pred = _predicate_head(tokens, pred_at, pred_text)
    if pred is None:
        return None
    if pred.pos_ == "ADJ" and pred.tag_ not in ("VBN", "VBG"):
        return (f"{pred.text!r} is an adjective, not a predicate; for a description ask about the sentence's "
                f"'be' ({_be_of(pred) or 'is'!r}), else about a verb")
    # a proper noun is left alone: the tagger takes many a sentence-initial verb ('Born in ...') for one
    if pred.pos_ == "NOUN" and not _names_an_event(pred) and not _misread_verb(pred):
        return (f"{pred.text!r} names a thing, not an event; use a verb, or a noun that names an action "
                "such as 'election' or 'founder'")
    return None


def _misread_verb(noun: Any) -> bool:
    """A noun with no determiner or possessor whose word is also a verb: most often an imperative
    the tagger took for a noun ('Talk to someone ...', '... and cut slits')."""
    bare = not any(c.dep_ in ("det", "poss", "nummod", "amod") for c in noun.children)
    return bare and noun.lower_ in _verb_lemma_set()


def _be_of(tok: Any) -> str | None:
    head = tok.head if tok.dep_ in _COMPLEMENTS else None
    return head.text if head is not None and head.lemma_ == "be" else None


def _part_of_argument(tok: Any, pred: Any, size: int, most_hops: int = 4) -> bool:
    """Whether an answer topped by ``tok`` is a good part of one argument of ``pred``: ``tok``
    hangs below one of ``pred``'s dependents through nouns and prepositions only (no other verb
    between), and the answer covers at least a third of that dependent's phrase ('11' of '11
    people', 'in Switzerland' of 'her education in Switzerland'; the parse often hangs a phrase on
    the predicate's object instead of the predicate)."""
    cur = tok
    for _ in range(most_hops):
        head = cur.head
        if head.i == cur.i:
            return False
        if head.i == pred.i:
            phrase = sum(1 for w in cur.subtree if not w.is_punct)
            return size >= phrase / 3
        if head.pos_ in ("VERB", "AUX") or cur.dep_ in ("relcl", "acl", "ccomp", "advcl", "xcomp", "conj") \
                and cur.pos_ in ("VERB", "AUX"):
            return False  # another predicate's argument
        cur = head
    return False


def check_argument(sentence: str, pred_at: int, pred_text: str, start: int, end: int) -> tuple[int, int] | str:
    """Whether the answer ``sentence[start:end]`` is an argument of the predicate by the parse.

    The answer's span as it should be, or the problem in words:

    * an answer whose top word is not tied to the predicate (a subject, object or phrase of another
      verb, or words of several phrases) is refused;
    * the subject or object of a clause the predicate takes ('remember that one exam does not
      define ...' -> 'one exam') is widened to the whole clause, which is the argument;
    """
    tokens = _tokens(sentence)
    pred = _predicate_head(tokens, pred_at, pred_text)
    ans = [t for t in tokens if t.idx < end and t.idx + len(t.text) > start and t.dep_ not in _EDGE]
    if pred is None or not ans:
        return start, end
    inside = {t.i for t in ans}
    tops = [t for t in ans if t.head.i not in inside or t.head.i == t.i]
    if any(_attached(t, pred) for t in tops):
        return start, end
    if len(tops) == 1 and _part_of_argument(tops[0], pred, len(ans)):
        return start, end
    for t in tops:
        clause = t.head
        if t.dep_ in SUBJ + ("dobj",) and clause.dep_ in _CLAUSES and clause.head.i == pred.i:
            # the clause up to the first break after the answer: a parse that hangs a trailing
            # aside on the clause ('..., the envoy has warned') must not drag it in
            sub = [w for w in clause.subtree]
            cut = next((k for k, w in enumerate(sub) if w.idx >= end and w.text in _BREAKS), len(sub))
            sub = sub[:cut]
            while len(sub) > 1 and (sub[0].is_punct or sub[0].dep_ == "cc"):
                sub.pop(0)
            while len(sub) > 1 and (sub[-1].is_punct or sub[-1].dep_ == "cc"):
                sub.pop()
            return sub[0].idx, sub[-1].idx + len(sub[-1].text)
    return (f"the answer {sentence[start:end]!r} is not an argument of {pred_text!r} (it belongs to "
            f"{tops[0].head.text!r}); answer with a phrase that {pred_text!r} governs")
