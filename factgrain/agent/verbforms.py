"""Verb inflection for writing QA-SRL questions: the past and participle of a lemma.

spaCy tells which words are verbs and gives their lemma; it does not inflect. A question about a
gerund or an infinitive needs the past form ("after finishing third" -> "who finished
something?"), and a QANom question about a noun needs its verb's participle ("the examination of
a man" -> "who was examined?"). The forms come from the Wiktionary inflection table that QA-SRL's
own question templates use (21,970 verbs; shipped in the package ``qanom``, read through
:func:`factgrain.agent.deverbal.resource_text`); a verb missing from it is inflected by the usual
spelling rules.
"""

from __future__ import annotations

from functools import lru_cache

INFLECTIONS = ("resources", "wiktionary", "en_verb_inflections.txt")
# Where the table's form is not the one questions about events want: 'borne' is the table's
# participle of 'bear', but a birth is asked as 'who was born?'; the table's past of 'let' is the
# archaic 'letted'.
OVERRIDES = {"bear": ("bore", "born"), "be": ("was", "been"), "let": ("let", "let")}  # "be" is not in the table
_VOWELS = set("aeiou")
# Stems whose final consonant doubles although they are longer than the short-word rule allows
# (only for verbs the table lacks).
_DOUBLING = {"kidnap", "admit", "commit", "submit", "permit", "omit", "transfer", "refer", "prefer", "occur",
             "control", "patrol", "compel", "expel", "propel", "equip", "regret", "upset", "forget", "begin"}


@lru_cache(maxsize=1)
def _raw_rows() -> dict[str, str]:
    """Lemma -> its row's four form cells, still tab-separated and uncleaned; the first row of a
    lemma listed twice wins. Cells are cleaned per lookup (:func:`row`): cleaning all 88,000 of
    them up front took a quarter of a second of every offline check."""
    from factgrain.agent.deverbal import resource_text

    out: dict[str, str] = {}
    for line in resource_text(*INFLECTIONS).splitlines():
        lemma, _, rest = line.strip().partition("\t")
        lemma = lemma.lower()
        if rest.count("\t") == 3 and lemma not in out:
            out[lemma] = rest
    return out


@lru_cache(maxsize=4096)
def row(base: str) -> tuple[str, str, str, str] | None:
    """(third person, -ing form, past, past participle) of a lemma, lowercase and cleaned of the
    table's markup (:func:`_clean`; '' where it has no usable form), or None when the table lacks
    the lemma."""
    raw = _raw_rows().get(base)
    return tuple(_clean(c) for c in raw.split("\t")) if raw is not None else None  # type: ignore[return-value]


def table() -> dict[str, tuple[str, str, str, str]]:
    """The whole table as :func:`row` gives it, lemma by lemma (for inspection and tests)."""
    return {lemma: row(lemma) for lemma in _raw_rows()}  # type: ignore[misc]


def _clean(form: str) -> str:
    """A table cell as a word: Wiktionary's bold markup and spaces dropped (``rid'''`` -> ``rid``,
    ``'''toled'''`` -> ``toled``); '' where the table marks the form missing (``-``) or nonstandard
    (``*awrathed``), so that the spelling rules give it."""
    form = form.replace("'''", "").strip().lower()
    return "" if form in ("", "-") or form.startswith("*") else form


def _forms(base: str) -> tuple[str, str] | None:
    if base in OVERRIDES:
        return OVERRIDES[base]
    forms = row(base)
    if not forms:
        return None
    past = forms[2] or regular_past(base)
    return past, forms[3] or past


def _doubles(base: str) -> bool:
    """stop -> stopped, but visit -> visited: short consonant-vowel-consonant stems (and a few
    longer ones stressed on the last syllable)."""
    if base in _DOUBLING:
        return True
    return (3 <= len(base) <= 4 and base[-1] not in _VOWELS | {"w", "x", "y"}
            and base[-2] in _VOWELS and base[-3] not in _VOWELS)


def regular_past(base: str) -> str:
    if base.endswith("e"):
        return base + "d"
    if base.endswith("y") and base[-2:-1] not in _VOWELS:
        return base[:-1] + "ied"
    if _doubles(base):
        return base + base[-1] + "ed"
    return base + "ed"


def past(base: str) -> str:
    """The simple past of a lemma ('find' -> 'found', 'establish' -> 'established')."""
    base = base.lower()
    forms = _forms(base)
    return forms[0] if forms else regular_past(base)


def participle(base: str) -> str:
    """The past participle of a lemma ('give' -> 'given', 'examine' -> 'examined')."""
    base = base.lower()
    forms = _forms(base)
    return forms[1] if forms else regular_past(base)


def third_person(base: str) -> str:
    base = base.lower()
    forms = row(base)
    if forms and forms[0]:
        return forms[0]
    if base in ("have", "be", "do", "go"):
        return {"have": "has", "be": "is", "do": "does", "go": "goes"}[base]
    if base.endswith(("s", "sh", "ch", "x", "z", "o")):
        return base + "es"
    if base.endswith("y") and base[-2:-1] not in _VOWELS:
        return base[:-1] + "ies"
    return base + "s"
