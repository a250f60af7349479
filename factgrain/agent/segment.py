"""Text -> sentences and chunks with exact character offsets.

Long texts are cut with langchain-text-splitters' RecursiveCharacterTextSplitter on paragraph,
line and sentence boundaries; each sentence belongs to exactly one chunk, and every chunk is later
decomposed with the chunk before it as context (TriQua's document-level setup).
"""

from __future__ import annotations

import bisect
import re
from collections import OrderedDict
from typing import TYPE_CHECKING, Iterable

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
    from factgrain.agent.reader import load_pipeline

    if not text or not text.strip():
        return []
    limit = load_pipeline().max_length
    out = []
    for start, end in _block_ranges(text, limit):
        out.append(_parsed_block(text, start, end))
    return out


def _block_ranges(text: str, limit: int) -> list[tuple[int, int]]:
    """The paragraphs of ``text`` that :func:`parsed_blocks` parses one by one (blank lines end them)."""
    out, start = [], 0
    cuts = [m.end() for m in _BLANK_LINE.finditer(text)] + [len(text)]
    for end in cuts:
        while end - start > limit:
            nl = text.rfind("\n", start, start + limit)
            piece_end = nl + 1 if nl > start else start + limit
            out.append((start, piece_end))
            start = piece_end
        if text[start:end].strip():
            out.append((start, end))
        start = end
    return out


def _parsed_block(text: str, start: int, end: int) -> tuple[int, Doc]:
    from factgrain.agent.reader import parse

    piece = text[start:end]
    head = _SOURCE_HEADER.match(piece)  # VerifyItem.evidence_text puts "[source <id>] " before each passage
    for skip in ((0, head.end()) if head else (0,)):
        for key in dict.fromkeys((piece[skip:], piece[skip:].rstrip())):  # evidence blocks end in a blank line
            doc = _slice(key)
            if doc is not None:
                return start + skip, doc
    return start, parse(piece)


# Retrieved passages are slices of a source that passage packing has already parsed. Parsing each one
# again as a new text (for the verifier's windows and parse features) costs as much as the source did;
# instead ``remember_slices`` notes where each passage's paragraphs lie in their source, and the first
# time one is read its parse is cut out of the source's parse. Bounded like the parse cache.
_slice_of: "OrderedDict[str, tuple[str, int, int]]" = OrderedDict()  # paragraph -> (source, start, end)
_slices: "OrderedDict[str, Doc]" = OrderedDict()
_SLICES_MAX = 4096
_SOURCE_HEADER = re.compile(r"\[source [^\]\n]*\] ")
_SLICE_ATTRS = ["TAG", "POS", "MORPH", "LEMMA", "DEP", "HEAD", "ENT_IOB", "ENT_TYPE", "NORM"]


def _bounded_put(cache: OrderedDict, key: str, value) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > _SLICES_MAX:
        cache.popitem(last=False)


def remember_slices(text: str, ranges: "Iterable[tuple[int, int]]") -> None:
    """Note that each ``text[start:end]`` (a passage of ``text``) is a slice of ``text``, so that
    :func:`parsed_blocks` of the passage (alone, or behind a ``[source <id>]`` header) cuts its
    paragraphs out of ``text``'s parse instead of parsing them again."""
    for s, e in ranges:
        passage = text[s:e]
        for a, b in _block_ranges(passage, len(passage) + 1):
            if passage[a:b] not in _slice_of:
                _bounded_put(_slice_of, passage[a:b], (text, s + a, s + b))


def _slice(piece: str) -> "Doc | None":
    """The parse of ``piece`` cut out of its source's parse, or None (not a remembered slice, or the
    cut does not reproduce the text exactly)."""
    doc = _slices.get(piece)
    if doc is not None or piece not in _slice_of:
        return doc
    from spacy.tokens import Doc as _Doc

    from factgrain.agent.reader import load_pipeline, parse

    text, a, b = _slice_of[piece]
    blocks = _block_ranges(text, load_pipeline().max_length)  # the source's own parse, never a slice
    k = bisect.bisect_right([s for s, _ in blocks], a) - 1
    if k < 0 or b > blocks[k][1]:
        return None
    off = blocks[k][0]
    src = parse(text[off:blocks[k][1]])
    if (a, b) == blocks[k]:
        return src
    span = src.char_span(a - off, b - off, alignment_mode="expand")
    if span is None or len(span) == 0:
        return None
    words, spaces = [t.text for t in span], [bool(t.whitespace_) for t in span]
    for spaces[-1] in (False, True):  # the piece may or may not keep the last token's space
        sub = _Doc(src.vocab, words=words, spaces=spaces)
        if sub.text == piece:
            break
    else:
        return None
    sub.from_array(_SLICE_ATTRS, span.as_doc().to_array(_SLICE_ATTRS))
    _bounded_put(_slices, piece, sub)
    return sub


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
