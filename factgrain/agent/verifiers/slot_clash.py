"""Another filler for the same role: the reference gives the unit's predicate a different argument.

"She was born in Stockholm" against "born 4 May 1958 in Uppsala", "has written four books" against
"has written three books". The answer's words may well occur elsewhere in the reference (the
Stockholm Institute of Oceanography, three books and four articles), so overlap features find them; what a careful reader sees is that the reference fills
the predicate's role (the same preposition, the same object) with something else, and never with the
answer.

A unit clashes when

* its answer fills one role of its predicate in the generated sentence: the object of a preposition
  attached to the predicate (the role is the preposition: *in*, *at*, *from* ...), its direct
  object, attribute or dative, or (for counts only) its subject;
* the answer's filler is counted (one number before its head noun: "four books"), or, for a predicate
  whose role holds one filler (:data:`SINGLE_VALUED`: born, died, buried), named (a proper-noun head
  and its compounds), or, for any predicate, a named place in its *in* / *at* phrase ("run in
  Scotland" against "run in Birmingham"; session 20, from swapping places in dev sentences: 4 % of
  such swaps were caught before, 26 % after, and no dev Table 4 row changed), or the year of its
  *in* / *on* phrase ("received a degree in 1975" against "in 1972"; session 21: of the units touching
  a year swapped for another year of the same dev article, 4 % were caught before, 54 % after this
  rule, 75 % with ``date_clash``'s full dates);
* in the reference, some occurrence of the predicate's lemma fills that role with a phrase that
  counts the same head noun with another number, names another year, or is named too, with names that differ both ways
  from the answer's (neither contains the other: "Uppsala" against "Stockholm", not "Helen Morris"
  against "Morris");
* and no occurrence of the predicate in the reference fills that role with the answer, counting
  coordinated fillers ("in Paris, Berlin and London").

Named subjects and passive agents are left to ``agent_clash`` (:mod:`lexical_structure`).

A second kind of clash sits inside the answer's phrase: a name that modifies one of its nouns ("become
a Perth star", "serving as the Kedah attorney general") where the reference, in a sentence that uses
the predicate's lemma, puts another name of the same kind on that noun ("a Hollywood star", "the
United States attorney general") and nowhere puts the answer's name on it (:func:`_modifier_clash`;
session 21, from swapping places in dev sentences). People are one kind; places and organisations
another, since the small pipeline labels one town either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Span, Token

__all__ = ["slot_clash"]

# Predicates whose roles hold one filler each: a person is born in one place and dies in one.
# Elsewhere a role may take several (attended a high school and a college, won two prizes), so a
# different name there is no contradiction; a different count of the same thing is.
SINGLE_VALUED = frozenset({"bear", "born", "die", "bury"})
_OBJECT_ROLES = frozenset({"dobj", "attr", "dative", "oprd"})
_PLACE_ROLES = frozenset({"prep:in", "prep:at"})
# subjects are compared by count only ("Two men were arrested" against "three men were arrested"); a
# named doer is agent_clash's
_SUBJECT_ROLES = frozenset({"nsubj", "nsubjpass"})
# coarse entity groups: a place clashes with a place, an organisation with an organisation
_GROUPS = {"GPE": "place", "LOC": "place", "FAC": "place", "ORG": "org", "NORP": "org", "PERSON": "person"}


def _lemma(tok: Token) -> str:
    return tok.lemma_.lower()


def _role_of(filler: Token, pred: Token) -> str | None:
    """The role ``filler`` (a phrase head, or a preposition) plays for ``pred``, if it is one of its arguments."""
    if filler.dep_ == "prep" and filler.head.i == pred.i:
        return "prep:" + filler.lower_
    if filler.dep_ == "pobj" and filler.head.dep_ == "prep" and filler.head.head.i == pred.i:
        return "prep:" + filler.head.lower_
    if filler.dep_ in _OBJECT_ROLES | _SUBJECT_ROLES and filler.head.i == pred.i:
        return filler.dep_
    return None


def _phrase_head(tok: Token) -> Token | None:
    """The noun phrase a role token stands for (a preposition's object, else the token itself)."""
    if tok.dep_ == "prep" or tok.pos_ == "ADP":
        return next((c for c in tok.children if c.dep_ == "pobj"), None)
    return tok


def _names(head: Token) -> frozenset[str]:
    """The words of the name the phrase is (its proper-noun head and that head's compounds): "Lund
    University", not the titles inside "his roles in films such as The Ruins" (a list of names is
    no single filler to compare)."""
    if head.pos_ != "PROPN":
        return frozenset()
    return frozenset(t.lower_ for t in (head, *head.children) if t.pos_ == "PROPN"
                     and (t.i == head.i or t.dep_ in ("compound", "flat")))


def _group(head: Token) -> str | None:
    labels = {_GROUPS.get(t.ent_type_) for t in head.subtree if t.ent_type_} - {None}
    return next(iter(labels)) if len(labels) == 1 else None


def _count(head: Token) -> float | None:
    """The number counting a noun ("three books" -> 3), when the phrase has exactly one."""
    from factgrain.agent.verifiers.lexical_structure import _num_value

    if head.pos_ != "NOUN":
        return None  # "the 2018 Commonwealth Games" counts nothing
    nums = [c for c in head.children if c.dep_ == "nummod"]
    if len(nums) != 1 or nums[0].ent_type_ in ("DATE", "TIME") or any(
            c.dep_ in ("advmod", "quantmod") for c in nums[0].children):
        return None  # "about 80,000", "more than three": no exact count to compare
    return _num_value(nums[0].text)


_TIME_ROLES = frozenset({"prep:in", "prep:on"})


def _year(head: Token) -> str | None:
    """The year a time phrase names ("in 1975", "in March 2017"), when it names exactly one."""
    years = [t.text for t in (head, *head.children) if t.like_num and len(t.text) == 4 and t.text.isdigit()
             and t.text[:2] in ("18", "19", "20")]
    return years[0] if len(years) == 1 else None


def _fillers(pred: Token, role: str) -> list[Token]:
    """The reference's fillers of ``role`` for ``pred``. A preposition may hang one edge off (the
    small parser reads "(born 4 May 1958 in Uppsala)" with *in* under the date, not under *born*)."""
    if not role.startswith("prep:"):
        return [c for c in pred.children if c.dep_ == role]
    near = list(pred.children) + [c for c in pred.head.children if c.i != pred.i] + [
        g for c in pred.children for g in c.children]
    out = []
    # '... in Leeds on Friday and in York on Saturday': a coordinated phrase fills it too, whichever
    # phrase of the predicate the parser hangs it on
    preps = [c for c in near if c.dep_ == "prep"]
    preps += [x for c in preps for x in c.conjuncts if x.pos_ == "ADP"]
    for c in preps:
        if c.lower_ == role[5:] and c.sent.start == pred.sent.start:
            head = _phrase_head(c)
            if head is not None:
                out.append(head)
    return out


def _answer_span(answer: str, sent: Doc) -> Span | None:
    at = sent.text.find(answer)
    if at < 0:
        return None
    return sent.char_span(at, at + len(answer), alignment_mode="expand")


_MODIFIER_DEPS = frozenset({"compound", "amod", "nmod"})


def _named_modifier(noun: Token) -> tuple[frozenset[str], str | None]:
    """The words of the names that modify a common noun ("the United States attorney general" ->
    united, states), and their entity group when all share one."""
    if noun.pos_ != "NOUN":
        return frozenset(), None
    mods = [c for c in noun.children if c.dep_ in _MODIFIER_DEPS and c.i < noun.i
            and (c.pos_ == "PROPN" or c.ent_type_ in _GROUPS)]
    words = [t for m in mods for t in m.subtree if t.pos_ == "PROPN" or t.ent_type_ in _GROUPS]
    groups = {_GROUPS.get(t.ent_type_) for t in words}
    return frozenset(t.lower_ for t in words), (next(iter(groups)) if len(groups) == 1 else None)


def _modifier_clash(span: Span, pred: Token, reference: str) -> bool:
    from factgrain.agent.segment import parsed_blocks

    mine = [(t.lemma_.lower(), *_named_modifier(t)) for t in span]
    mine = [(lemma, names, group) for lemma, names, group in mine if names and group]
    if not mine:
        return False
    lemma_p = _lemma(pred)
    other = False
    for _, doc in parsed_blocks(reference):
        for sent in doc.sents:
            has_pred = any(t.pos_ == "VERB" and _lemma(t) == lemma_p for t in sent)
            for tok in sent:
                for lemma, names, group in mine:
                    if tok.lemma_.lower() != lemma:
                        continue
                    theirs, g = _named_modifier(tok)
                    if names & theirs:
                        return False  # the reference names the answer's modifier on this noun somewhere
                    # the small pipeline calls the same town a place here and an organisation there
                    if has_pred and theirs and g is not None and (g == "person") == (group == "person"):
                        other = True
    return other


def slot_clash(*, answer: str, sentence: str, predicate: str | None, reference: str) -> bool:
    """Whether the reference fills the unit's role with another named or counted argument, and
    never with the answer (see the module's docstring)."""
    from factgrain.agent.reader import parse
    from factgrain.agent.segment import parsed_blocks

    if not (answer and sentence and predicate and predicate.split() and reference):
        return False
    sent = parse(sentence)
    span = _answer_span(answer, sent)
    if span is None or not len(span):
        return False
    # a QA's predicate is one word; a TriQua relation may hold auxiliaries and a preposition ("was born in")
    words = {w.lower() for w in predicate.split()}
    pred = next((t for t in sent if t.lower_ in words and t.pos_ == "VERB"), None)
    if pred is None or any(t.i == pred.i for t in span):
        return False
    if _modifier_clash(span, pred, reference):
        return True
    role = _role_of(span.root, pred)
    head = _phrase_head(span.root) if role else None
    if head is None or not any(t.i == head.i for t in span):
        return False
    names, count = _names(head), _count(head)
    # the year of an event ('received a degree in 1975' against 'received a degree in 1972'; session
    # 21, from moving years in dev sentences: a year named elsewhere in the reference was found)
    year = _year(head) if role in _TIME_ROLES else None
    place_only = False
    if _lemma(pred) not in SINGLE_VALUED or role in _SUBJECT_ROLES:
        # a person attends several schools and wins several prizes; but the place an event happened
        # in is one: 'I'd like to run in Scotland' against 'I'd like to run in Birmingham'
        place_only = role in _PLACE_ROLES and _group(head) == "place"
        if not place_only:
            names = frozenset()
    if not names and count is None and year is None:
        return False
    group, lemma = _group(head), _lemma(pred)
    other = False
    for _, doc in parsed_blocks(reference):
        for tok in doc:
            if tok.pos_ != "VERB" or _lemma(tok) != lemma:
                continue
            # 'in Paris, Berlin and London': each conjunct fills the role
            for filler in (f for head in _fillers(tok, role) for f in (head, *head.conjuncts)):
                if year is not None:
                    theirs_year = _year(filler)
                    if theirs_year == year:
                        return False
                    other = other or theirs_year is not None
                elif names:
                    theirs = _names(filler)
                    if not theirs:
                        continue
                    if names <= theirs or theirs <= names:
                        return False  # the reference gives this role the answer (or part of it)
                    g = _group(filler)
                    if place_only and g != "place":
                        continue
                    if group is None or g is None or g == group:
                        other = True
                else:
                    theirs_count = _count(filler)
                    if theirs_count is None or _lemma(filler) != _lemma(head):
                        continue
                    if theirs_count == count:
                        return False
                    other = True
    return other
