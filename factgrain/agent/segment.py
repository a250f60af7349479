"""Text -> sentences and chunks with exact character offsets.

Long texts are cut with langchain-text-splitters' RecursiveCharacterTextSplitter on paragraph,
line and sentence boundaries; each sentence belongs to exactly one chunk, and every chunk is later
decomposed with the chunk before it as context (TriQua's document-level setup).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from factgrain.errors import InputError
from factgrain.schemas.spans import Chunk, Document, Sentence

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

DEFAULT_CHUNK_SIZE = 2000
DEFAULT_CHUNK_OVERLAP = 0

# One splitter for the whole package (segment, retrieve, the lexical verifier): the sentences of the
# spaCy parse that the reader and the verifier already make, so a unit's sentence, the decomposer's
# parse and the verifier's reference windows all agree on where sentences end. Line breaks stay hard
# boundaries (lists, headings and WiCE's one-sentence-per-line pages must not be glued together).
_LINE_BREAK = re.compile(r"\n")


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Character ranges ``(start, end)`` of the sentences of ``text`` (surrounding whitespace excluded).

    Boundaries are spaCy's where the sentence before ends in sentence-final punctuation, plus every
    line break. ``text[start:end]`` is never empty and never starts
    or ends with whitespace; ranges are ordered and disjoint, and only whitespace lies between them.
    """
    out: list[tuple[int, int]] = []
    for offset, doc in parsed_blocks(text):
        pieces, start = [], None
        for sent in doc.sents:
            a, b = offset + sent.start_char, offset + sent.end_char
            start = a if start is None else start
            # the small parser sometimes ends a sentence inside a long comma list ("..., and | Kent called
            # Lowe."): a boundary counts only after sentence-final punctuation (line breaks are cut below)
            if _SENTENCE_END.search(text, start, b):
                pieces.append((start, b))
                start = None
        if start is not None:
            pieces.append((start, offset + len(doc.text)))
        for a, b in pieces:
            cut = a
            for m in _LINE_BREAK.finditer(text, a, b):
                _append_stripped(out, text, cut, m.start())
                cut = m.end()
            _append_stripped(out, text, cut, b)
    return out


# sentence-final punctuation, then optional closing quotes / brackets, at the end of a piece
_SENTENCE_END = re.compile(r"""[.!?…:;]["'”’)\]]*\s*$|\n\s*$""")


_BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")


def parsed_blocks(text: str) -> list[tuple[int, Doc]]:
    """``(offset, doc)`` for each paragraph of ``text`` (pieces between blank lines), parsed by
    ``reader.parse``. Paragraphs are parsed one by one because the parse is cached per text: evidence
    made of retrieved passages joins different passages for every unit, and each passage is then read
    once instead of once per unit. No sentence crosses a blank line anyway. A paragraph longer than
    spaCy reads at once is cut at line breaks."""
    from factgrain.agent.reader import load_pipeline, parse

    if not text or not text.strip():
        return []
    limit = load_pipeline().max_length
    out, start = [], 0
    cuts = [m.end() for m in _BLANK_LINE.finditer(text)] + [len(text)]
    for end in cuts:
        while end - start > limit:
            nl = text.rfind("\n", start, start + limit)
            piece_end = nl + 1 if nl > start else start + limit
            out.append((start, parse(text[start:piece_end])))
            start = piece_end
        if text[start:end].strip():
            out.append((start, parse(text[start:end])))
        start = end
    return out


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
