"""Text -> sentences and chunks with exact character offsets.

Long texts are cut with langchain-text-splitters' RecursiveCharacterTextSplitter on paragraph,
line and sentence boundaries; each sentence belongs to exactly one chunk, and every chunk is later
decomposed with the chunk before it as context (TriQua's document-level setup).
"""

from __future__ import annotations

import re

from factgrain.errors import InputError
from factgrain.schemas.spans import Chunk, Document, Sentence

DEFAULT_CHUNK_SIZE = 2000
DEFAULT_CHUNK_OVERLAP = 0

# One splitter for the whole package (segment, retrieve, the lexical verifier): the sentences of the
# spaCy parse that the reader and the verifier already make, so a unit's sentence, the decomposer's
# parse and the verifier's reference windows all agree on where sentences end. Line breaks stay hard
# boundaries (lists, headings and WiCE's one-sentence-per-line pages must not be glued together).
_LINE_BREAK = re.compile(r"\n")


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Character ranges ``(start, end)`` of the sentences of ``text`` (surrounding whitespace excluded).

    Boundaries are spaCy's (``reader.parse``, cached, so the parse is shared with whoever reads the
    same text next) plus every line break. ``text[start:end]`` is never empty and never starts or ends
    with whitespace; ranges are ordered and disjoint, and only whitespace lies between them.
    """
    if not text or not text.strip():
        return []
    out: list[tuple[int, int]] = []
    for block_start, block_end in _parse_blocks(text):
        from factgrain.agent.reader import parse

        doc = parse(text[block_start:block_end])
        for sent in doc.sents:
            a, b = block_start + sent.start_char, block_start + sent.end_char
            cut = a
            for m in _LINE_BREAK.finditer(text, a, b):
                _append_stripped(out, text, cut, m.start())
                cut = m.end()
            _append_stripped(out, text, cut, b)
    return out


def _parse_blocks(text: str) -> list[tuple[int, int]]:
    """The whole text, or line-aligned pieces of it when it is longer than spaCy reads at once."""
    from factgrain.agent.reader import load_pipeline

    limit = load_pipeline().max_length
    if len(text) <= limit:
        return [(0, len(text))]
    blocks, start = [], 0
    while start < len(text):
        end = min(len(text), start + limit)
        if end < len(text):
            nl = text.rfind("\n", start, end)
            end = nl + 1 if nl > start else end
        blocks.append((start, end))
        start = end
    return blocks


def _append_stripped(out: list[tuple[int, int]], text: str, s: int, e: int) -> None:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    if e > s:
        out.append((s, e))


def _chunk_ranges(text: str, chunk_size: int, chunk_overlap: int) -> list[tuple[int, int]]:
    if len(text) <= chunk_size:
        return [(0, len(text))]
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
        separators=["\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ", ""],
        keep_separator="end",
        add_start_index=True,
        strip_whitespace=False,
    )
    ranges = []
    for doc in splitter.create_documents([text]):
        start = doc.metadata["start_index"]
        ranges.append((start, start + len(doc.page_content)))
    return ranges


def segment(
    text: str,
    *,
    question: str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    chunk_overlap: int = DEFAULT_CHUNK_OVERLAP,
) -> Document:
    if chunk_overlap >= chunk_size:
        raise InputError(f"chunk_overlap ({chunk_overlap}) must be smaller than chunk_size ({chunk_size})")
    sent_ranges = split_sentences(text)
    chunk_ranges = _chunk_ranges(text, chunk_size, chunk_overlap)
    sentences: list[Sentence] = []
    chunk_members: dict[int, list[int]] = {i: [] for i in range(len(chunk_ranges))}
    c = 0
    for i, (s, e) in enumerate(sent_ranges):
        # The first chunk that contains the sentence start owns the sentence.
        while c + 1 < len(chunk_ranges) and s >= chunk_ranges[c][1]:
            c += 1
        sentences.append(Sentence(index=i, start=s, end=e, text=text[s:e], chunk_index=c))
        chunk_members[c].append(i)
    chunks = []
    for i, (s, e) in enumerate(chunk_ranges):
        members = chunk_members[i]
        if members:  # a chunk's extent covers its sentences fully
            s = min(s, sentences[members[0]].start)
            e = max(e, sentences[members[-1]].end)
        chunks.append(Chunk(index=i, start=s, end=e, text=text[s:e], sentence_indices=members))
    return Document(text=text, question=question, sentences=sentences, chunks=chunks)
