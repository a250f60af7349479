"""What the offline (``parse``) span mode shares between the QA and TriQua decomposers: the mode
name itself, and the checks that a text is in a language and script the English reader can read."""

from __future__ import annotations

import warnings
from typing import Any

from factgrain.agent.decompose.base import resolve_span_mode
from factgrain.agent.reader import (
    foreign_language,
    foreign_script,
    parse_many,
    readable_copy,
)
from factgrain.schemas.spans import Document, Sentence

OFFLINE_MODES = ("parse", "enum")  # 'enum' is the old name of 'parse'


def span_mode_of(span_mode: str, backend: Any) -> str:
    """``parse`` or ``free``: ``parse`` (and its deprecated alias ``enum``) as given; anything
    else through the tier table (``resolve_span_mode``), whose offline answer is read as ``parse``."""
    if span_mode == "enum":
        warnings.warn("span_mode='enum' is deprecated; it now means 'parse' (the offline spaCy reader)",
                      DeprecationWarning, stacklevel=3)
    if span_mode in OFFLINE_MODES:
        return "parse"
    mode = resolve_span_mode(span_mode, backend)
    return "parse" if mode in OFFLINE_MODES else mode


def unreadable(text: str) -> str | None:
    """The script that keeps the English pipeline from reading ``text``, or None."""
    return foreign_script(text)


def unreadable_warning(sentence: Sentence, script: str) -> str:
    snippet = sentence.text if len(sentence.text) <= 60 else sentence.text[:57] + "..."
    return (f"sentence {sentence.index}: written largely in {script} script, which the English reader "
            f"(spaCy en_core_web_sm) does not handle; only its Latin-script words were read: {snippet!r}. "
            "Use a model that reads this language (span_mode='free').")


def parse_sentences(doc: Document) -> None:
    """Parse every sentence of ``doc`` in one batch (the per-sentence readers then hit the cache)."""
    parse_many(readable_copy(s.text) for s in doc.sentences)


def skip_foreign_text(decomposer: Any, doc: Document) -> bool:
    """True, with one warning naming the language and the sentences, when ``doc`` is written in a
    Latin-script language other than English (:func:`factgrain.agent.reader.foreign_language`).

    The English pipeline parses German or Spanish into confident nonsense (*Der Hund schläft im
    Garten* gave ``who ms? → i``), so no sentence of such a text is read: each is counted as failed
    (``scores.failed_sentences``) instead of yielding units nobody should verify. The check is made
    on the whole text, where it is reliable; a single foreign sentence in an English text is read."""
    found = foreign_language(doc.text)
    if found is None:
        return False
    from factgrain.agent.decompose.context import has_content

    language, probability = found
    skipped = [s.index for s in doc.sentences if has_content(s.text)]
    decomposer.failed_sentences.extend(skipped)
    decomposer.warnings.append(
        f"the text reads as {language} (language identifier: p={probability:.2f}; sentences "
        f"{', '.join(map(str, skipped))}), and the offline reader (spaCy en_core_web_sm) reads English only: "
        f"no unit was read from it. Use a model that reads {language} (span_mode='free').")
    return True
