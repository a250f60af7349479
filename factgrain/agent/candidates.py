"""Candidate predicates and argument spans of a sentence, for schema-constrained decoding.

A weak model left free copies the whole sentence into every field. Offering it the sentence's own
phrases as an enum makes every answer a real span and leaves the model only the choice.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\w+(?:[-'.,]\w+)*|[^\w\s]")
_PREPOSITIONS = {
    "in", "on", "at", "by", "for", "with", "from", "to", "into", "during", "after", "before",
    "since", "until", "about", "against", "between", "through", "over", "under", "without",
    "of", "as", "near", "across", "despite", "following", "amid", "within", "toward", "towards",
}
_BREAKERS = {
    "and", "but", "or", "nor", "so", "yet", "because", "although", "though", "while", "when",
    "where", "which", "who", "whom", "whose", "that", "if", "unless", "whereas", "than",
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
_NOMINAL_SUFFIXES = ("tion", "sion", "ment", "ance", "ence", "ure", "ship", "al")
_STOP = _PREPOSITIONS | _BREAKERS | _AUX | {"the", "a", "an", "this", "these", "those", "its", "his", "her", "their"}


def _tokens(sentence: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(sentence)]


def is_verb_like(word: str) -> bool:
    w = word.lower()
    if w in _COMMON_VERBS:
        return True
    return len(w) > 4 and (w.endswith("ed") or w.endswith("ing")) and w not in {"during", "thing", "nothing", "something", "morning", "evening", "king", "ring", "spring", "string", "building"}


def candidate_predicates(sentence: str, limit: int = 24) -> list[str]:
    """Verb-like words first, then event nouns and the copula, each once, in sentence order."""
    verbs, nouns, copula = [], [], []
    for word, _, _ in _tokens(sentence):
        lw = word.lower()
        if not word[0].isalpha():
            continue
        if is_verb_like(word):
            verbs.append(word)
        elif lw in {"is", "was", "are", "were"}:
            copula.append(word)
        elif lw.endswith(_NOMINAL_SUFFIXES) and lw not in _STOP and len(lw) > 5:
            nouns.append(word)
    out: list[str] = []
    for w in verbs + nouns + copula:
        if w not in out:
            out.append(w)
    if not out:  # no cue at all: offer the content words
        out = [w for w, _, _ in _tokens(sentence) if w[0].isalpha() and w.lower() not in _STOP]
    return out[:limit] or [sentence.split()[0] if sentence.split() else "is"]


def candidate_answers(sentence: str, limit: int = 40, *, bare_variants: bool = True) -> list[str]:
    """Argument-like phrases: stretches between clause breakers, verbs and punctuation; a
    prepositional phrase is offered with and without its preposition."""
    toks = _tokens(sentence)
    phrases: list[tuple[int, int]] = []
    cur: list[tuple[str, int, int]] = []

    def flush() -> None:
        content = [t for t in cur if t[0].lower() not in _STOP]
        if content:
            phrases.append((cur[0][1], cur[-1][2]))
            # also without a leading preposition / article run
            i = 0
            while i < len(cur) and cur[i][0].lower() in (_PREPOSITIONS | {"the", "a", "an"}):
                i += 1
            if bare_variants and 0 < i < len(cur):
                phrases.append((cur[i][1], cur[-1][2]))
        cur.clear()

    for tok in toks:
        word, s, e = tok
        lw = word.lower()
        if not (word[0].isalnum() or word in "%$€£-'"):
            flush()
        elif lw in _BREAKERS or lw in _AUX or is_verb_like(word):
            flush()
        elif lw in _PREPOSITIONS and cur and lw != "of":
            flush()
            cur.append(tok)
        else:
            cur.append(tok)
    flush()
    out: list[str] = []
    for s, e in phrases:
        text = sentence[s:e]
        if text not in out and text.strip() != sentence.strip():
            out.append(text)
    if not out:
        out = [sentence.strip()]
    return out[:limit]
