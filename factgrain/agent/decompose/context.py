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
