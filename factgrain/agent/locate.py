"""Find quoted phrases in the text and snap them to exact character offsets."""

from __future__ import annotations

import re

from factgrain.schemas.spans import Span

_EDGE = " \t\n\"'.,;:!?()[]"


def locate(needle: str, haystack: str, *, offset: int = 0, near: int | None = None) -> Span | None:
    """The span of ``needle`` in ``haystack`` (shifted by ``offset``), or None.

    Tries an exact match, then a case-insensitive one, then one that ignores whitespace runs and
    edge punctuation. With several matches, the one closest to ``near`` wins.
    """
    needle = needle.strip()
    if not needle:
        return None
    for pattern in _patterns(needle):
        matches = list(pattern.finditer(haystack))
        if matches:
            m = min(matches, key=lambda m: abs(m.start() - near)) if near is not None else matches[0]
            return Span(start=offset + m.start(), end=offset + m.end(), text=haystack[m.start() : m.end()])
    return None


def _patterns(needle: str) -> list[re.Pattern[str]]:
    pats = [re.compile(re.escape(needle)), re.compile(re.escape(needle), re.IGNORECASE)]
    core = needle.strip(_EDGE)
    if core:
        words = [re.escape(w) for w in core.split()]
        pats.append(re.compile(r"\s+".join(words), re.IGNORECASE))
    return pats


def locate_word(word: str, haystack: str, *, offset: int = 0, near: int | None = None) -> Span | None:
    """Like :func:`locate` but only whole-word matches (a predicate 'is' must not hit 'This')."""
    word = word.strip()
    if not word:
        return None
    pattern = re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in word.split()) + r"(?!\w)", re.IGNORECASE)
    matches = list(pattern.finditer(haystack))
    if not matches:
        return locate(word, haystack, offset=offset, near=near)
    m = min(matches, key=lambda m: abs(m.start() - near)) if near is not None else matches[0]
    return Span(start=offset + m.start(), end=offset + m.end(), text=haystack[m.start() : m.end()])
