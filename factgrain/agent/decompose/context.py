"""The background blocks a decomposition prompt gets: the user's question and the text before
the part being decomposed. Shared by every decomposer so that the four prompt modes (question
yes/no x chunked yes/no) mean the same thing everywhere."""

from __future__ import annotations

from factgrain.prompts import defuse
from factgrain.schemas.spans import Document, Sentence

PREVIOUS_SENTENCES = 3


def is_chunked(doc: Document) -> bool:
    return len(doc.chunks) > 1


def question_block(doc: Document) -> str:
    return f"<question>\n{defuse(doc.question)}\n</question>\n\n" if doc.question else ""


def previous_chunk(doc: Document, chunk_index: int) -> str:
    """The text of the chunk right before ``chunk_index`` ('' for the first chunk)."""
    return doc.chunks[chunk_index - 1].text if is_chunked(doc) and chunk_index > 0 else ""


def context_block(text: str) -> str:
    return f"<context>\n{defuse(text)}\n</context>\n\n" if text else ""


def sentence_context(doc: Document, sentence: Sentence) -> str:
    """Background for one sentence: the previous chunk when the text is chunked and the sentence
    is past the first chunk, else the few sentences before it (pronouns, references)."""
    if is_chunked(doc) and sentence.chunk_index > 0:
        return previous_chunk(doc, sentence.chunk_index)
    if len(doc.sentences) > 1:
        return " ".join(s.text for s in doc.sentences[: sentence.index][-PREVIOUS_SENTENCES:])
    return ""


# -- sentences that gave nothing ------------------------------------------------------------------
# Words that make a sentence a courtesy or a reply marker, not a statement.
_DISCOURSE = frozenset("sure thanks thank yes okay ok hello hi hey great certainly absolutely welcome please sorry "
                       "well note course happy glad help helps hope".split())


def has_content(text: str) -> bool:
    """Whether a sentence states something a unit could carry: a content word that is not a
    courtesy ('Sure!', 'Thanks.' and 'I hope this helps.' do not; 'It rained.' does)."""
    from factgrain.agent.lint import content_words

    return any(w not in _DISCOURSE for w in content_words(text))


def flag_empty_sentences(doc: Document, units: list, decomposer: object) -> list[int]:
    """Warn about every sentence with content that no unit covers, naming it and saying why
    (the decomposer's ``empty_reasons[index]`` when it knows), and count it in the decomposer's
    ``failed_sentences`` (the report's ``scores.failed_sentences``). Sentences already recorded as
    failed were warned about when they failed. Returns the newly flagged indices."""
    from factgrain.agent.lint import unit_sentences

    covered = {i for u in units for i in unit_sentences(u, doc)}
    failed = getattr(decomposer, "failed_sentences", None)
    if failed is None:
        return []
    reasons = getattr(decomposer, "empty_reasons", {}) or {}
    flagged = []
    for s in doc.sentences:
        if s.index in covered or s.index in failed or not has_content(s.text):
            continue
        why = reasons.get(s.index, "the decomposer returned no unit for it")
        decomposer.warnings.append(f"sentence {s.index} ({_quote(s.text)}) has no unit: {why}")  # type: ignore[attr-defined]
        failed.append(s.index)
        flagged.append(s.index)
    return flagged


def _quote(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
