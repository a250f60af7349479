"""Word-level normalisation shared by the lexical verifier's overlap features
(:mod:`lexical_features`) and its parse features (:mod:`lexical_structure`): stop words,
negations, light stemming, number normalisation. A module of its own so that the two feature
modules both read it and neither has to import the other back."""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------
# Normalisation
# ---------------------------------------------------------------------------

# Function words plus the placeholder words QA-SRL questions are built from
# ("who did someone do something?").
STOPWORDS: frozenset[str] = frozenset(
    """
    a an the and or but if then else so than that this these those there here
    of in on at by for with from to into onto upon over under about above below
    between through during before after since until while as like via per
    is am are was were be been being do does did doing done have has had having
    will would shall should can could may might must ought
    i me my mine myself we us our ours you your yours he him his himself she her
    hers herself it its itself they them their theirs themselves one ones
    who whom whose what which when where why how whether
    someone somebody something somewhere somehow sometime anyone anything
    some any each every all both either neither such own same other another
    also just only very too quite rather really even still yet already ever
    s t d ll re ve m o y
    up down out off again further once
    """.split()
)

NEGATIONS: frozenset[str] = frozenset(
    "not no never none nobody nothing nowhere neither nor without cannot".split()
)

_WORD_NUMBERS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
    "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
    "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14",
    "fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18",
    "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40",
    "fifty": "50", "hundred": "100", "thousand": "1000",
    "first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th",
    "fifth": "5th", "sixth": "6th", "seventh": "7th", "eighth": "8th",
    "ninth": "9th", "tenth": "10th",
}
# "one" is far more often a pronoun than a count; "second" often a time unit.
_NUMBER_WORDS_AS_NUMBERS = {k: v for k, v in _WORD_NUMBERS.items() if k not in {"one", "second"}}

_TOKEN_RE = re.compile(r"(?<![a-z0-9])[0-9]+(?:[.,][0-9]+)+|[a-z0-9]+", re.IGNORECASE)
_NUM_RE = re.compile(r"^[0-9]+(?:\.[0-9]+)?(?:st|nd|rd|th|s)?$")
_ORDINAL_RE = re.compile(r"^([0-9]+)(st|nd|rd|th)$")


def _stem(tok: str) -> str:
    """Very light suffix stripping; the same function is applied to both sides."""
    if tok.isdigit() or len(tok) <= 3:
        return tok
    if tok.endswith("'s"):
        tok = tok[:-2]
    for suf, rep, min_len in (
        ("ies", "y", 5),
        ("sses", "ss", 5),
        ("ness", "", 7),
        ("ing", "", 6),
        ("ied", "y", 5),
        ("ed", "", 5),
        ("es", "", 6),
        ("s", "", 4),
    ):
        if tok.endswith(suf) and len(tok) >= min_len:
            if suf == "s" and tok.endswith(("ss", "us", "is")):
                continue
            tok = tok[: len(tok) - len(suf)] + rep
            break
    # doubled consonant after -ing/-ed removal ("stopped" -> "stopp" -> "stop")
    if len(tok) > 4 and tok[-1] == tok[-2] and tok[-1] not in "aeiouls":
        tok = tok[:-1]
    if len(tok) > 4 and tok.endswith("e"):
        tok = tok[:-1]
    return tok


def _norm_token(raw: str) -> str:
    tok = raw.lower()
    if any(ch.isdigit() for ch in tok):
        if re.fullmatch(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?", tok):
            tok = tok.replace(",", "")
        m = re.fullmatch(r"([0-9]+)\.0+", tok)
        if m:
            tok = m.group(1)
        return tok
    if tok in _NUMBER_WORDS_AS_NUMBERS:
        return _NUMBER_WORDS_AS_NUMBERS[tok]
    return _stem(tok)


def _prep(text: str) -> str:
    text = text or ""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"(?i)n't\b", " not", text)
    text = re.sub(r"(?i)'s\b", "", text)
    return text


def normalize_tokens(text: str) -> list[str]:
    """Lowercased, punctuation-free, lightly stemmed tokens (stopwords kept).

    Numbers lose thousands separators ("5,000" -> "5000"), small number words
    become digits ("three" -> "3", "third" -> "3rd").
    """
    return [_norm_token(m.group(0)) for m in _TOKEN_RE.finditer(_prep(text))]


def content_tokens(text: str) -> list[str]:
    """:func:`normalize_tokens` without stopwords (negations are dropped too)."""
    out = []
    for m in _TOKEN_RE.finditer(_prep(text)):
        low = m.group(0).lower()
        if low in STOPWORDS or low in NEGATIONS:
            continue
        out.append(_norm_token(m.group(0)))
    return out


def extract_numbers(text: str) -> list[str]:
    """Normalised numeric tokens ("5,000" -> "5000", "3rd" -> "3"), years included."""
    nums = []
    for tok in normalize_tokens(text):
        if _NUM_RE.match(tok) and any(ch.isdigit() for ch in tok):
            m = _ORDINAL_RE.match(tok)
            nums.append(m.group(1) if m else tok.rstrip("s") if tok.endswith("0s") else tok)
    return nums
