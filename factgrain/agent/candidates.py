"""Predicate-argument candidates of a sentence, for small models.

A weak model left free copies the whole sentence into every field. Here a small rule-based reader
(coarse tags from word lists and a verb lexicon, then subjects, objects and modifiers read off each
predicate's neighbourhood) finds the predicates and their arguments as exact character ranges, and
the model is left only the choices that need judgement. ``_tokens``, ``_AUX`` and
``is_verb_like`` are shared with the TriQua rules (``decompose/triqua_rules.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from factgrain.agent import verbforms as vf

_TOKEN = re.compile(r"\w+(?:[-'.,]\w+)*|[^\w\s]")
_PREPOSITIONS = {
    "in", "on", "at", "by", "for", "with", "from", "to", "into", "during", "after", "before",
    "since", "until", "about", "against", "between", "through", "over", "under", "without",
    "of", "as", "near", "across", "despite", "following", "amid", "within", "toward", "towards",
}
_AUX = {
    "is", "was", "are", "were", "be", "been", "being", "am", "has", "have", "had", "do", "does",
    "did", "will", "would", "can", "could", "shall", "should", "may", "might", "must", "not", "n't",
}
_COMMON_VERBS = {
    "said", "says", "say", "told", "tells", "made", "makes", "went", "goes", "took", "takes", "gave",
    "gives", "won", "wins", "lost", "loses", "fell", "falls", "found", "finds", "left", "leaves",
    "became", "becomes", "began", "begins", "came", "comes", "got", "gets", "held", "holds", "led",
    "leads", "met", "meets", "paid", "pays", "ran", "runs", "saw", "sees", "sold", "sells", "sent",
    "sends", "set", "sets", "spent", "spends", "stood", "stands", "thought", "thinks", "wrote",
    "writes", "born", "died", "dies", "plays", "played", "lives", "lived", "knew", "knows", "built",
    "brought", "bought", "caught", "chose", "drove", "flew", "grew", "hit", "kept", "let", "put",
    "rose", "shot", "struck", "taught", "threw", "wore", "miss", "missed", "taken", "given", "driven", "written", "beaten", "chosen", "fallen", "known", "shown", "spoken", "stolen", "thrown", "seen", "done", "gone", "begun", "risen", "grown",
}


def _tokens(sentence: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(sentence)]


def is_verb_like(word: str) -> bool:
    w = word.lower()
    if w in _COMMON_VERBS:
        return True
    return len(w) > 4 and (w.endswith("ed") or w.endswith("ing")) and w not in {"during", "thing", "nothing", "something", "morning", "evening", "king", "ring", "spring", "string", "building"}


# --- Predicate-argument frames -----------------------------------------------------------------
# A small rule-based reading of one sentence: every token gets a coarse tag from closed word lists,
# the verb lexicon and its neighbours; verb groups, copulas and event nouns become predicates; each
# predicate collects its subject (the noun phrase before it, found across relative clauses), its
# object (the phrase right after it) and the prepositional phrases / subordinate clauses of its
# clause. Every argument is an exact character range of the sentence.


# coarse tags
DET, PREP, AUX, NEG, VERB, CONJ, REL, SUB, TO, WH, PRON, COMMA, PUNCT, CONTENT, ADV, QUOTE = (
    "D", "P", "A", "N", "V", "C", "R", "S", "T", "W", "O", ",", ".", "X", "Y", "Q")
_NP = {DET, PRON, CONTENT, QUOTE}

_DETS = {"the", "a", "an", "this", "these", "those", "each", "every", "some", "any", "no", "its", "his",
         "her", "their", "my", "our", "your", "another", "all", "both", "several", "many", "much", "most",
         "few", "such", "one", "two", "three"}
_PRONOUNS = {"he", "she", "it", "they", "i", "we", "you", "him", "them", "us", "me", "himself",
             "herself", "themselves", "itself", "someone", "something", "everyone", "nobody"}
_PERSON_PRONOUNS = {"he", "she", "they", "i", "we", "you", "him", "her", "them", "us", "me", "himself",
                    "herself", "themselves", "someone", "everyone", "nobody"}
_THING_PRONOUNS = {"it", "this", "that", "itself", "something"}
_FRAME_PREPS = (_PREPOSITIONS - {"to"}) | {"regarding", "like", "upon",
                                           "throughout", "onto", "among", "behind", "beyond", "off"}
_SUBORDINATORS = {"because", "although", "though", "while", "when", "whereas", "unless", "if", "once",
                  "whenever", "where"}
_CONJ = {"and", "or", "but", "nor", "yet"}
_RELATIVES = {"who", "whom", "which", "whose"}
_WH_CLAUSE = {"how", "why", "what", "whether"}
_NEGATIONS = {"not", "n't", "never"}
_ADVERBS = {"also", "often", "currently", "still", "just", "already", "now", "then", "later", "soon",
            "recently", "again", "even", "ever", "very", "too", "here", "there", "once", "first",
            "previously", "further", "finally", "only", "eventually", "subsequently", "later"}
_LY_NOT_ADVERB = {"family", "july", "italy", "supply", "reply", "rely", "apply", "fly", "ally", "belly",
                  "holy", "early", "only", "daily", "weekly", "monthly", "friendly", "likely", "lonely"}
_NOT_VERB = {"during", "thing", "nothing", "something", "anything", "everything", "morning", "evening",
             "king", "ring", "spring", "string", "building", "ceiling", "wedding", "feeling", "hundred",
             "red", "bed", "seed", "speed", "sacred", "naked", "wicked", "kindred", "sibling",
             "darling", "pudding", "clothing", "regarding", "concerning", "united", "limited", "beloved",
             "pending", "ongoing", "wing", "sterling", "viking", "rugged", "hatred"}
_EVENT_NOUNS = {"death", "birth", "attack", "war", "election", "murder", "arrest", "trial", "visit",
                "crash", "fire", "injury", "win", "defeat", "loss", "victory", "release", "support",
                "cause", "inquest", "funeral", "marriage", "wedding", "arrival", "approval", "refusal",
                "burial", "removal", "proposal", "survival", "withdrawal", "dismissal", "denial",
                "failure", "departure", "closure", "seizure", "growth", "flood", "rescue", "sale",
                "purchase", "escape", "collapse", "launch", "return", "benefit", "treatment", "study",
                "promotion", "appointment", "career", "debut", "decision", "investigation"}
_EVENT_SUFFIXES = ("tion", "sion", "ment", "ance", "ence")
_MAX_ADJUNCTS = 4


@dataclass(frozen=True)
class Tok:
    text: str
    start: int
    end: int
    tag: str


@dataclass
class Arg:
    """One argument of a frame: an exact character range of the sentence and its role.

    ``wh`` is the question word when the structure decides it; otherwise the model chooses one of
    ``choices``."""

    role: str  # subject | object | agent | complement | clause | adjunct | noun-arg
    start: int
    end: int
    text: str
    wh: str | None = None
    choices: tuple[str, ...] = ()


@dataclass
class Frame:
    """A predicate of the sentence with the arguments read off its neighbourhood."""

    predicate: str
    start: int
    end: int
    kind: str  # verbal | nominal | copular
    base: str = ""
    form: str = ""  # base | s | past | pp | ing | inf | gerund
    aux: list[str] = field(default_factory=list)
    passive: bool = False
    descriptions: list[str] = field(default_factory=list)  # copular: one per subject argument
    args: list[Arg] = field(default_factory=list)


def _closed_tag(word: str, prev: str | None, nxt: str | None) -> str | None:
    lw = word.lower()
    if not (word[0].isalnum() or word in "%$€£&"):
        if word in ('"', "'", "`", "``", "''"):
            return QUOTE
        return COMMA if word == "," else PUNCT
    if lw == "'s":
        return CONTENT  # possessive of a tokenised text ("year 's")
    if lw == "to":
        return TO
    if lw == "that":
        if prev in (VERB, CONTENT, PRON) or prev is None:
            return REL if prev in (CONTENT, PRON) else SUB
        return DET
    if lw in _NEGATIONS:
        return NEG
    if vf.is_aux(lw) or (lw.endswith("n't") and vf.is_aux(lw[:-3] if lw != "won't" else "will")):
        return AUX  # "doesn't" is one token here
    if lw in ("best", "well", "widely", "most") and nxt is not None and (
            nxt.lower().endswith("ed") or "pp" in vf.kinds(nxt)):
        return ADV  # 'best known', 'widely used'
    if lw == "since" and prev == AUX:
        return ADV  # 'has since gone'
    if lw in ("including", "according", "following") and nxt is not None and nxt.lower() not in ("to",) \
            and lw != "according":
        return PREP
    if lw in _RELATIVES:
        return REL
    if lw in _DETS:
        return DET
    if lw in _PRONOUNS:
        return PRON
    if lw in _CONJ:
        return CONJ
    if lw in _WH_CLAUSE:
        return WH
    if lw in _SUBORDINATORS:
        return SUB
    if lw in _FRAME_PREPS or lw in {"after", "before", "since", "until"}:
        return PREP
    if lw in _ADVERBS or (lw.endswith("ly") and len(lw) > 4 and lw not in _LY_NOT_ADVERB and word[0].islower()):
        return ADV
    return None


def _verb_here(word: str, index: int, tags: list[str], words: list[str]) -> bool:
    """Whether an open-class word is a verb, from its form and the tags before it."""
    lw = word.lower()
    if lw in _NOT_VERB or not word[0].isalpha():
        return False
    if index > 0 and word[0].isupper():
        return False  # a capitalised word inside a sentence is a name
    j = index - 1
    while j >= 0 and tags[j] in (ADV, NEG):
        j -= 1
    prev = tags[j] if j >= 0 else None
    info = vf.lookup(lw)
    forms = vf.kinds(lw)
    suffix = "pp" if lw.endswith("ed") and len(lw) > 4 else "ing" if lw.endswith("ing") and len(lw) > 4 else None
    kind = info[1] if info else suffix
    nxt = tags_after(index, words)
    if index == 0 or prev in (PUNCT,):
        # sentence start: an imperative ('Fold the circle') or a participle ('Born in ...')
        return bool(forms & {"base"} and nxt in (DET, PRON, PREP, CONTENT, ADV, TO)) or kind in ("pp", "ing") and lw != "having"
    if prev == AUX:
        aux = words[j].lower()
        if aux in vf.MODALS or aux.startswith(("do", "did")) or aux.endswith("n't"):
            return word[0].islower()
        return bool(forms & {"pp", "ing"}) or kind in ("pp", "ing")  # be / have + participle; be + other is a copula
    if prev == TO:
        k = j - 1
        return "base" in forms or (kind is None and k >= 0 and tags[k] == VERB) or lw.endswith(("ize", "ise", "ify", "ate"))
    if prev == DET or (prev == CONTENT and j >= 0 and words[j].lower() == "'s"):
        return False  # 'the injured man', 'a building'
    if prev == PREP:
        return kind == "ing"  # 'after finishing'
    if kind in ("past", "pp", "ing"):
        return True
    # a present form after its subject, when what follows reads like an object or a clause
    follows = nxt in (DET, PRON, TO, SUB, REL, WH, ADV, PREP) or (nxt == CONTENT and prev == CONJ)
    if forms & {"s", "base"} and prev in (CONTENT, PRON, REL, CONJ, ADV) and follows:
        if "s" in forms or prev in (PRON, REL, CONJ, CONTENT):
            return j < 0 or words[j].lower() not in ("it", "this") or "s" in forms
    if kind == "s":
        return prev in (PRON, REL)
    if kind == "base":
        return prev in (PRON, REL) and (j < 0 or words[j].lower() not in ("it", "this"))
    return False


def tags_after(index: int, words: list[str]) -> str | None:
    """The closed-class tag of the next word, if it has one (content otherwise; None at the end)."""
    if index + 1 >= len(words):
        return None
    return _closed_tag(words[index + 1], None, words[index + 2] if index + 2 < len(words) else None) or CONTENT


def tag(sentence: str) -> list[Tok]:
    toks = _tokens(sentence)
    words = [t[0] for t in toks]
    tags: list[str] = []
    for i, (word, _, _) in enumerate(toks):
        prev = tags[i - 1] if i else None
        nxt = words[i + 1] if i + 1 < len(words) else None
        t = _closed_tag(word, prev, nxt)
        if t is None:
            t = VERB if _verb_here(word, i, tags, words) else CONTENT
        tags.append(t)
    # an auxiliary with no verb after it is a main verb (has a car) - or a copula, decided later
    return [Tok(w, s, e, t) for (w, s, e), t in zip(toks, tags)]


class _Reader:
    """Builds frames over one tagged sentence (index arithmetic kept in one place)."""

    def __init__(self, sentence: str):
        self.s = sentence
        self.t = tag(sentence)
        self.tags = [t.tag for t in self.t]
        self.low = [t.text.lower() for t in self.t]
        self.n = len(self.t)

    # spans ------------------------------------------------------------------------------------
    def text(self, a: int, b: int) -> tuple[int, int, str] | None:
        """Characters of tokens [a, b), trimmed of quotes and punctuation at the edges."""
        while a < b and self.tags[a] in (QUOTE, COMMA, PUNCT):
            a += 1
        while b > a and self.tags[b - 1] in (QUOTE, COMMA, PUNCT):
            b -= 1
        if a >= b:
            return None
        s, e = self.t[a].start, self.t[b - 1].end
        return s, e, self.s[s:e]

    def np_end(self, j: int, *, of: bool = True) -> int:
        """End of the noun phrase starting at ``j`` ('of' phrases and 'more than' included)."""
        k = j
        while k < self.n:
            tg, w = self.tags[k], self.low[k]
            if tg in _NP or (tg == ADV and k + 1 < self.n and self.tags[k + 1] == CONTENT):
                k += 1
            elif of and w == "of" and k + 1 < self.n and self.tags[k + 1] in _NP and k > j:
                k += 1
            elif w == "than" and k > j:
                k += 1
            elif tg == CONJ and w == "and" and k > j and k + 1 < self.n and self.tags[k + 1] in (CONTENT,) \
                    and self.t[k + 1].text[:1].isupper() and self.t[k - 1].text[:1].isupper():
                k += 1  # 'Brighton & Hove', 'Romeo and Juliet'
            elif w == "&" and k > j:
                k += 1
            elif tg == COMMA and k > j and self.t[k - 1].text.isdigit() and k + 1 < self.n \
                    and self.t[k + 1].text.isdigit() and len(self.t[k + 1].text) == 4:
                k += 1  # 'September 21, 1965'
            else:
                break
        while k > j and self.tags[k - 1] == QUOTE:
            k -= 1
        return k

    def clause_end(self, j: int) -> int:
        """End of the clause that starts at ``j``: the next comma, semicolon or sentence end, or
        the verb of an enclosing clause ('... to pray for a teenager who has been diagnosed with
        cancer | has gone viral'): a second finite verb after a noun, once this clause and its
        relative clauses have their verbs."""
        k, has_verb, pending_rel = j, False, False
        while k < self.n and self.tags[k] not in (COMMA, PUNCT):
            tg, prev = self.tags[k], self.tags[k - 1] if k > j else None
            if tg == REL:
                pending_rel = True
            elif tg == WH or (tg == SUB and k > j):
                has_verb = False  # an embedded clause ('how he got the illness') has its own verb
            elif tg == TO and has_verb and prev != VERB and k + 1 < self.n and self.tags[k + 1] == VERB:
                break  # 'to stay at Brighton | to help the club'
            elif tg == VERB and prev == TO:
                has_verb = True
            elif tg in (AUX, VERB) and prev not in (AUX, NEG, ADV, TO, PREP, QUOTE):
                if pending_rel:
                    pending_rel = False
                elif has_verb and prev in _NP:
                    break
                has_verb = True
            k += 1
        return k

    def group_start(self, i: int) -> int:
        """First token of the verb group ending at ``i`` (auxiliaries, negation, adverbs)."""
        g = i
        while g > 0 and self.tags[g - 1] in (AUX, NEG, ADV, QUOTE):
            g -= 1
        while g < i and self.tags[g] in (ADV, QUOTE):
            g += 1
        return g

    # subjects ---------------------------------------------------------------------------------
    def antecedent(self, r: int) -> tuple[int, int] | None:
        """The noun phrase a relative pronoun at ``r`` refers to ('a man who ...' -> 'a man')."""
        e = r
        if e > 0 and self.tags[e - 1] == COMMA:
            e -= 1
        b = e
        while b > 0 and (self.tags[b - 1] in _NP):
            b -= 1
        return (b, e) if b < e else None

    def subject(self, g: int) -> tuple[int, int] | None:
        """The noun phrase before the verb group starting at ``g``: walk left over noun phrases and
        prepositional phrases, jumping over relative clauses, reduced relatives and infinitives,
        and stop at any other verb, conjunction or clause break."""
        j, cut = g - 1, g
        if j >= 0 and self.tags[j] == COMMA:
            j -= 1  # 'X, who ..., has been released'
        while j >= 0:
            tg = self.tags[j]
            if tg in _NP or tg == ADV or (tg == PREP and self.low[j] != "after"):
                j -= 1
                continue
            if tg == VERB:
                k = self.group_start(j)
                before = self.tags[k - 1] if k > 0 else None
                reduced = (k == j and self.low[j].endswith(("ing", "ed", "en")) and before in _NP)
                if before in (REL, TO) or reduced:
                    start = k - 1 if before in (REL, TO) else k
                    if before == TO:  # 'asking people to pray': keep walking to the participle
                        start = k - 1
                    if start > 0 and self.tags[start - 1] == COMMA:
                        start -= 1
                    cut, j = start, start - 1
                    continue
            if tg == TO:
                cut, j = j, j - 1
                continue
            break
        a = j + 1
        # a leading prepositional phrase is not part of the subject ('In 2013 he ...')
        while a < cut and self.tags[a] == PREP:
            nxt = self.np_end(a + 1, of=False)
            if nxt >= cut:
                break
            a = nxt
        while a < cut and self.tags[a] == ADV:
            a += 1
        while cut > a and self.tags[cut - 1] in (ADV, COMMA):
            cut -= 1  # 'He currently stars'
        return (a, cut) if a < cut and any(self.tags[x] in (CONTENT, PRON) for x in range(a, cut)) else None

    # frames -----------------------------------------------------------------------------------
    def frames(self) -> list[Frame]:
        frames: list[Frame] = []
        for i, tg in enumerate(self.tags):
            if tg == VERB:
                fr = self.verbal(i, frames)
            elif tg == AUX and vf.is_be(self.low[i]) and self._no_verb_after(i):
                fr = self.copular(i)
            elif tg == AUX and self.low[i] in ("have", "has", "had") and self._no_verb_after(i) \
                    and i + 1 < self.n and self.tags[i + 1] in _NP:
                fr = self.verbal(i, frames)  # 'They have two daughters'
            elif tg == CONTENT and self._event_noun(i):
                fr = self.nominal(i)
            else:
                continue
            if fr is not None and (fr.args or fr.kind != "nominal"):
                frames.append(fr)
        self._leading_adjuncts(frames)
        self._share_conjoined(frames)
        return frames

    def _share_conjoined(self, frames: list[Frame]) -> None:
        """'X has been opened and adjourned after Y': a verb directly followed by 'and' + verb
        takes the second verb's objects and modifiers when it has none of its own."""
        for a, b in zip(frames, frames[1:]):
            if a.kind != "verbal" or b.kind != "verbal" or any(x.role != "subject" for x in a.args):
                continue
            between = [t for t in self.t if a.end <= t.start < b.start]
            if [t.tag for t in between if t.tag not in (ADV,)] == [CONJ]:
                a.args.extend(x for x in b.args if x.role not in ("subject",))

    def _no_verb_after(self, i: int) -> bool:
        k = i + 1
        while k < self.n and self.tags[k] in (ADV, NEG, QUOTE):
            k += 1
        return not (k < self.n and self.tags[k] in (VERB, AUX))

    def _event_noun(self, i: int) -> bool:
        w = self.low[i]
        if not self.t[i].text[0].islower():
            return False
        if not (w in _EVENT_NOUNS or (w.endswith(_EVENT_SUFFIXES) and len(w) > 6)):
            return False
        return i + 2 < self.n and self.low[i + 1] == "of" and self.tags[i + 2] in _NP

    def _arg(self, role: str, a: int, b: int, wh: str | None = None, choices: tuple[str, ...] = ()) -> Arg | None:
        span = self.text(a, b)
        if span is None:
            return None
        s, e, text = span
        if wh is None and not choices:
            wh, choices = entity_slot(text)
        return Arg(role, s, e, text, wh, choices)

    def verbal(self, i: int, frames: list[Frame]) -> Frame | None:
        word = self.t[i].text
        g = self.group_start(i)
        aux = [self.t[k].text for k in range(g, i) if self.tags[k] in (AUX, NEG)]
        info = vf.lookup(word)
        base = info[0] if info else vf.guess_base(word)
        form = info[1] if info else ("ing" if self.low[i].endswith("ing") else "pp" if self.low[i].endswith("ed") else "base")
        before = self.tags[g - 1] if g > 0 else None
        if before == TO:
            form = "inf"
        elif before in (PREP, SUB) and form == "ing":
            form = "gerund"  # 'after finishing', 'while walking'
        be_aux = [a for a in aux if vf.is_be(a)]
        passive = bool(be_aux) and form in ("pp", "past") and self.low[i] not in ("gone",)
        participle = form == "pp" or (form == "past" and vf.participle(base) == self.low[i])
        reduced = not aux and participle and before in (_NP | {COMMA}) and g > 0 and (
            self.low[i] == "born" or (i + 1 < self.n and self.tags[i + 1] == PREP and self._finite_later(i)))
        by_next = not aux and participle and i + 1 < self.n and self.low[i + 1] == "by"
        passive = passive or reduced or by_next or (not aux and self.low[i] == "born")
        fr = Frame(word, self.t[i].start, self.t[i].end, "verbal", base, form, aux, passive)
        # conjoined verb with no subject of its own shares the previous verb's subject and auxiliaries
        prev_frame = frames[-1] if frames else None
        conj = g > 0 and self.tags[g - 1] == CONJ and g > 1 and self.tags[g - 2] in (VERB, CONTENT, PRON, QUOTE)
        subj: tuple[int, int] | None = None
        shared: Arg | None = None
        if before == REL:
            subj = self.antecedent(g - 1)
            if prev_frame is not None and prev_frame.kind == "copular" and prev_frame.args \
                    and self._same_clause(prev_frame.end, g - 1):
                subj, shared = None, prev_frame.args[0]  # 'X was a consul who lived ...': X lived
        elif conj and prev_frame is not None and prev_frame.kind != "nominal" and not aux:
            shared = next((a for a in prev_frame.args if a.role == "subject"), None)
            if prev_frame.aux and form in ("pp", "past"):
                fr.aux, fr.passive = list(prev_frame.aux), prev_frame.passive or bool([a for a in prev_frame.aux if vf.is_be(a)])
        elif form in ("inf", "gerund"):
            # 'failed to establish' / 'after finishing': the governing clause's subject, unless
            # an object stands between ('asking people to pray')
            if before == TO and g > 1 and self.tags[g - 2] in _NP and g > 2:
                b = g - 2
                while b > 0 and self.tags[b - 1] in _NP:
                    b -= 1
                if b > 0 and self.tags[b - 1] == VERB:
                    subj = (b, g - 1)
            if subj is None and prev_frame is not None:
                shared = next((a for a in prev_frame.args if a.role == "subject"), None)
        elif passive and not aux and prev_frame is not None and prev_frame.kind == "copular" \
                and prev_frame.args and self._same_clause(prev_frame.end, g):
            shared = prev_frame.args[0]  # 'X is an actor born in 1965': X was born
        else:
            subj = self.subject(g)
            if subj is None and prev_frame is not None and g > 0 and self.tags[g - 1] in (COMMA, CONJ):
                shared = next((a for a in prev_frame.args if a.role == "subject"), None)
        if subj is not None:
            arg = self._arg("subject", *subj)
            if arg:
                fr.args.append(arg)
        elif shared is not None:
            fr.args.append(Arg("subject", shared.start, shared.end, shared.text, shared.wh, shared.choices))
        self._after_verb(fr, i + 1)
        # object relative: 'the book that he wrote' -> the book is what he wrote
        if before != REL and not any(a.role in ("object", "clause", "complement") for a in fr.args):
            r = g - 1
            while r >= 0 and self.tags[r] in _NP:
                r -= 1
            if r >= 0 and self.tags[r] == REL and self.low[r] in ("that", "which", "whom") and r < g - 1:
                ante = self.antecedent(r)
                if ante:
                    arg = self._arg("object", *ante)
                    if arg:
                        fr.args.append(arg)
        return fr

    def _same_clause(self, char_start: int, g: int) -> bool:
        """No verb or clause break between a character offset and token ``g``."""
        return not any(t.start >= char_start and t.tag in (VERB, AUX, PUNCT, REL, SUB) for t in self.t[:g])

    def _finite_later(self, i: int) -> bool:
        k = i + 1
        while k < self.n and self.tags[k] not in (COMMA, PUNCT, CONJ):
            if self.tags[k] in (SUB, REL, WH):
                return False
            if self.tags[k] in (AUX,) or (self.tags[k] == VERB and self.tags[k - 1] not in (TO, PREP, AUX)):
                return True
            k += 1
        return False

    def _after_verb(self, fr: Frame, k: int) -> None:
        while k < self.n and self.tags[k] in (ADV, QUOTE):
            k += 1
        if k >= self.n:
            return
        tg = self.tags[k]
        if tg == TO and k + 1 < self.n and self.tags[k + 1] in (VERB, ADV):
            arg = self._arg("complement", k, self.clause_end(k), "what")
            if arg:
                fr.args.append(arg)
            return
        if tg in (WH, SUB) and self.low[k] in _WH_CLAUSE | {"that", "if"} or (
                tg == PRON and k + 1 < self.n and self.tags[k + 1] in (AUX, VERB)):
            if not fr.passive or tg != PRON:
                arg = self._arg("clause", k, self.clause_end(k), "what")
                if arg:
                    fr.args.append(arg)
            return
        if tg in _NP and not (fr.passive and tg == PRON):
            end = self.np_end(k)
            arg = self._arg("object", k, end)
            if arg:
                fr.args.append(arg)
            k = end
        adjuncts = 0
        while k < self.n and adjuncts < _MAX_ADJUNCTS:
            tg, w = self.tags[k], self.low[k]
            if tg in (ADV, QUOTE):
                k += 1
                continue
            if tg == COMMA and k + 1 < self.n and (self.tags[k + 1] == PREP or self.t[k + 1].text[:1].isdigit()):
                k += 1
                continue
            if tg == PREP and k + 1 < self.n:
                nxt = self.tags[k + 1]
                if nxt == VERB or (nxt in _NP and w in _TIME_PREPS | {"as"} and self._clause_follows(k + 1)):
                    end = self.clause_end(k)  # 'after finishing third', 'after a post-mortem failed ...'
                    arg = self._arg("adjunct", k, end, *adjunct_slot(self.s[self.t[k].start:self.t[end - 1].end]))
                    if arg:
                        fr.args.append(arg)
                    return
                if nxt not in _NP:
                    return
                end = self.np_end(k + 1)
                if w == "by" and fr.passive:
                    arg = self._arg("agent", k + 1, end)
                else:
                    arg = self._arg("adjunct", k, end, *adjunct_slot(self.s[self.t[k].start:self.t[end - 1].end]))
                if arg:
                    fr.args.append(arg)
                    adjuncts += 1
                k = end
                continue
            if tg == TO and k + 1 < self.n:
                if self.tags[k + 1] == VERB:  # purpose: 'to allow further tests'
                    arg = self._arg("adjunct", k, self.clause_end(k), "why")
                    if arg:
                        fr.args.append(arg)
                    return
                if self.tags[k + 1] in _NP:
                    end = self.np_end(k + 1)
                    arg = self._arg("adjunct", k, end, *adjunct_slot(self.s[self.t[k].start:self.t[end - 1].end]))
                    if arg:
                        fr.args.append(arg)
                        adjuncts += 1
                    k = end
                    continue
                return
            if tg == SUB and w != "where":
                end = self.clause_end(k)
                wh = "why" if w in ("because", "as") else "when" if w in ("when", "while", "once", "whenever") else None
                if wh:
                    arg = self._arg("adjunct", k, end, wh)
                    if arg:
                        fr.args.append(arg)
                return
            if tg in _NP:  # 'last week', 'this year'
                end = self.np_end(k)
                span = self.s[self.t[k].start:self.t[end - 1].end]
                if heuristic_when(span):
                    arg = self._arg("adjunct", k, end, "when")
                    if arg:
                        fr.args.append(arg)
                        adjuncts += 1
                    k = end
                    continue
            return

    def _clause_follows(self, k: int) -> bool:
        """Whether a noun phrase at ``k`` is the subject of a clause ('after a man died')."""
        end = self.np_end(k, of=False)
        while end < self.n and self.tags[end] in (ADV,):
            end += 1
        return end < self.n and self.tags[end] in (VERB, AUX) and not (
            self.tags[end] == VERB and self.low[end].endswith("ing"))

    def copular(self, i: int) -> Frame | None:
        g = self.group_start(i)
        aux = [self.t[k].text for k in range(g, i + 1) if self.tags[k] in (AUX, NEG)]
        fr = Frame(self.t[i].text, self.t[i].start, self.t[i].end, "copular", "be", "", aux)
        before = self.tags[g - 1] if g > 0 else None
        subj = self.antecedent(g - 1) if before == REL else self.subject(g)
        if subj is None:
            return None
        k = i + 1
        while k < self.n and self.tags[k] in (ADV, NEG):
            k += 1
        # the description, split at commas and 'and' into one description each (as QASem does)
        items: list[tuple[int, int]] = []
        a = k
        while k < self.n:
            tg = self.tags[k]
            if tg in (COMMA, CONJ):
                if a < k:
                    items.append((a, k))
                nxt = k + 1
                while nxt < self.n and self.tags[nxt] in (COMMA, CONJ, ADV):
                    nxt += 1
                if nxt >= self.n or self.tags[nxt] in (VERB, AUX, PRON, PUNCT, REL, SUB):
                    a = self.n
                    break
                a = k = nxt
                continue
            if tg in (PUNCT, REL, SUB, VERB, AUX):
                break
            k += 1
        if a < k:
            items.append((a, k))
        subj_arg = self._arg("subject", *subj)
        if subj_arg is None or not items:
            return None
        out = []
        for a, b in items[:4]:
            span = self.text(a, b)
            if span:
                out.append(span[2])
                adj = [x for x in range(a, b) if self.tags[x] == CONTENT and self.t[x].text[:1].isupper()
                       and x + 1 < b and self.t[x + 1].text[:1].islower() and self.tags[x + 1] == CONTENT]
                if adj and self.tags[a] == DET:  # 'an American actor' is also 'American'
                    out.append(self.t[adj[0]].text)
        fr.args = [Arg("subject", subj_arg.start, subj_arg.end, subj_arg.text, subj_arg.wh, subj_arg.choices)
                   for _ in out]
        fr.descriptions = out
        return fr

    def nominal(self, i: int) -> Frame | None:
        fr = Frame(self.t[i].text, self.t[i].start, self.t[i].end, "nominal", self.low[i])
        end = self.np_end(i + 2)
        arg = self._arg("noun-arg", i + 2, end)
        if arg:
            fr.args.append(arg)
        return fr

    def _leading_adjuncts(self, frames: list[Frame]) -> None:
        """Prepositional phrases before the first comma ('In 2013, ...') belong to the predicate
        that follows the comma."""
        if not self.n or self.tags[0] != PREP or COMMA not in self.tags:
            return
        comma = self.tags.index(COMMA)
        target = next((f for f in frames if f.start > self.t[comma].start), None)
        if target is None or any(self.t[k].tag in (VERB,) for k in range(comma)):
            return
        k = 0
        while k < comma and self.tags[k] == PREP:
            end = min(self.np_end(k + 1), comma)
            arg = self._arg("adjunct", k, end, *adjunct_slot(self.s[self.t[k].start:self.t[end - 1].end]))
            if arg:
                target.args.append(arg)
            k = end


_MONTHS = set("january february march april may june july august september october november december".split())
_DAYS = set("monday tuesday wednesday thursday friday saturday sunday yesterday today tomorrow".split())
_TIME_WORDS = {"year", "years", "week", "weeks", "month", "months", "day", "days", "season", "century",
               "decade", "night", "morning", "evening", "afternoon", "time", "hours", "minutes", "spring",
               "summer", "autumn", "winter", "weekend", "age"}
_TIME_PREPS = {"during", "after", "before", "since", "until", "throughout"}
_PLACE_PREPS = {"in", "at", "near", "from", "to", "into", "across", "within", "throughout", "outside", "inside"}


def heuristic_when(phrase: str) -> bool:
    low = [w.lower().strip(".,") for w in phrase.split()]
    return any(w in _MONTHS or w in _DAYS or (w.isdigit() and len(w) == 4) for w in low) or (
        len(low) <= 3 and low[-1] in _TIME_WORDS and low[0] in {"last", "next", "this", "that", "each", "every"})


def adjunct_slot(phrase: str) -> tuple[str | None, tuple[str, ...]]:
    """(wh, choices) of a prepositional phrase or subordinate clause: decided by its shape when
    it gives itself away (times, amounts, reasons, places), else left to the model."""
    words = phrase.split()
    low = [w.lower().strip(".,") for w in words]
    if not low:
        return None, ()
    head = low[0]
    if head in _TIME_PREPS or heuristic_when(phrase) or (head in ("in", "on", "at", "by") and low[-1] in _TIME_WORDS):
        return "when", ()
    if head in ("because", "due"):
        return "why", ()
    if any(ch.isdigit() for ch in phrase) and head not in _PLACE_PREPS:
        return "how much", ()
    if head in _PLACE_PREPS and len(words) > 1 and any(w[:1].isupper() for w in words[1:]):
        return "where", ()
    if head == "with" or head == "by":
        return "how", ()
    return None, ("where", "when", "how", "why", "what")


_PERSON_NOUNS = set("""man men woman women boy boys girl girls child children people person persons teenager
player players minister president actor actress singer father mother son daughter wife husband brother
sister family fans students student teacher doctor doctors police officer officers driver mayor
farmer workers worker donor victim victims parents athletes residents friends patient patients
critics advocates experts users someone everyone""".split())


def entity_slot(phrase: str) -> tuple[str | None, tuple[str, ...]]:
    """(wh, choices) of a noun phrase: pronouns and person nouns ('a man', 'the police officers')
    decide who / what; names and other phrases go to the model."""
    low = phrase.lower().split()
    if len(low) == 1 and low[0] in _PERSON_PRONOUNS:
        return "who", ()
    if low and low[-1] in _PERSON_NOUNS and not any(w[:1].isupper() for w in phrase.split()[1:]):
        return "who", ()
    if len(low) == 1 and low[0] in _THING_PRONOUNS:
        return "what", ()
    if low and low[0] in ("to", "how", "why", "whether", "that") or any(c.isdigit() for c in phrase) and len(low) <= 3:
        return "what", ()
    return None, ("who", "what")


def frames(sentence: str) -> list[Frame]:
    """The predicate-argument frames of one sentence, in sentence order."""
    if not sentence.strip():
        return []
    return _Reader(sentence).frames()
