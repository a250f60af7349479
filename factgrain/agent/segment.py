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

# A sentence ends at . ! ? (optionally followed by closing quotes/brackets) before whitespace and
# an opening capital/digit/quote, or at a blank line / line break.
_BOUNDARY = re.compile(r"""(?<=[.!?])(["')\]]*)\s+(?=["'(\[]?[A-Z0-9])|\n\s*""")
_ABBREV = re.compile(r"(?:\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|vs|etc|e\.g|i\.e|Inc|Ltd|Co|No|U\.S|U\.K)\.|\b[A-Z]\.)$")


# retrieve.py and verifiers/lexical_features.py keep their own splitters on purpose (see the notes there).
def split_sentences(text: str) -> list[tuple[int, int]]:
    """Character ranges of the sentences of ``text`` (surrounding whitespace excluded)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        end = m.start() + len(m.group(1) or "")
        candidate = text[start:end]
        if _ABBREV.search(candidate.rstrip("\"')]")):
            continue  # "Dr. Smith" is not a sentence end
        spans.append((start, end))
        start = m.end()
    spans.append((start, len(text)))
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


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
