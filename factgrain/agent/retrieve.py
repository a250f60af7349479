"""Evidence retrieval for long or multi-source references.

A verifier prompt only has room for so much reference text. When the reference
is longer than that budget, or is made of several documents, we cut every source
into sentence-packed passages, rank them with BM25 against the unit being
verified, and hand the verifier only the best few.

Pipeline::

    sources = normalize_sources(reference)          # str | list[str] | list[dict|Source]
    if needs_retrieval(sources, budget_chars=4000):
        passages = pack_passages(sources)           # exact char offsets per source
        hits = BM25Retriever(passages).search(claim, k=3)
        evidence = build_evidence(hits)             # stable text for the prompt
    else:
        evidence = build_evidence(...)              # or just the single source text

Guarantees:

* ``Passage.start``/``Passage.end`` are offsets into the text of the source named
  by ``Passage.source_id`` and ``source.text[start:end] == passage.text``.
* Sentences come from the package's one splitter (``segment.split_sentences``:
  spaCy's boundaries, every newline a hard boundary);
  a sentence longer than ``max_chars`` is cut on whitespace (and, as a last
  resort, inside a token that is itself too long).
* Ranking is deterministic: ties are broken by passage order.
* ``build_evidence`` is a pure function of the *set* of selected passages: same
  passages, same bytes, whatever the order they came in.

Running ``python -m factgrain.agent.retrieve --measure-wice --split dev`` prints
recall@k of WiCE's gold ``supporting_sentences`` (see :func:`measure_wice_recall`).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Source",
    "Passage",
    "RetrievedPassage",
    "normalize_sources",
    "split_sentences",
    "pack_passages",
    "tokenize",
    "BM25Retriever",
    "needs_retrieval",
    "build_evidence",
    "measure_wice_recall",
    "format_recall_table",
]


# --------------------------------------------------------------------------- models


class Source(BaseModel):
    """One reference document."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str


class Passage(BaseModel):
    """A contiguous slice ``[start, end)`` of one source's text."""

    model_config = ConfigDict(frozen=True)

    source_id: str
    index: int = Field(description="Position in the list returned by pack_passages (document order).")
    start: int
    end: int
    text: str
    sentence_ids: list[int] = Field(description="0-based ids of the source's sentences this passage touches.")


class RetrievedPassage(BaseModel):
    """A passage with its BM25 score and 1-based rank (1 = best)."""

    model_config = ConfigDict(frozen=True)

    passage: Passage
    score: float
    rank: int


# --------------------------------------------------------------------------- sources


def _coerce_id(value: Any, position: int) -> str:
    if value is None:
        return str(position)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f"source #{position}: id must be a string, got {type(value).__name__}")
    sid = str(value)
    if not sid.strip():
        raise ValueError(f"source #{position}: id is empty")
    return sid


def _coerce_text(value: Any, position: int) -> str:
    if not isinstance(value, str):
        raise ValueError(f"source #{position}: text must be a string, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"source #{position}: text is empty or whitespace only")
    return value


def normalize_sources(reference: Any) -> list[Source]:
    """Turn the accepted reference shapes into a list of :class:`Source`.

    Accepted: a string (one source with id ``"0"``); a :class:`Source`; a mapping
    with ``text`` (and optionally ``id``); or a list/tuple of strings, mappings
    and Sources. Items without an id get their position (``"0"``, ``"1"``, ...).

    Raises ``ValueError`` for ``None``, an empty list, non-string text, text that
    is only whitespace, and duplicate ids.
    """
    if reference is None:
        raise ValueError("reference is None; expected a string, a list of strings, or a list of {id, text}")
    if isinstance(reference, (str, Source, Mapping)):
        items: Sequence[Any] = [reference]
    elif isinstance(reference, (list, tuple)):
        items = reference
    else:
        raise ValueError(
            f"reference must be a string, a Source, a mapping or a list of those, got {type(reference).__name__}"
        )
    if len(items) == 0:
        raise ValueError("reference is an empty list; need at least one source")

    out: list[Source] = []
    for pos, item in enumerate(items):
        if isinstance(item, Source):
            sid, text = _coerce_id(item.id, pos), _coerce_text(item.text, pos)
        elif isinstance(item, str):
            sid, text = str(pos), _coerce_text(item, pos)
        elif isinstance(item, Mapping):
            if "text" not in item:
                raise ValueError(f"source #{pos}: mapping has no 'text' key (keys: {sorted(map(str, item))})")
            sid, text = _coerce_id(item.get("id"), pos), _coerce_text(item["text"], pos)
        else:
            raise ValueError(
                f"source #{pos}: expected a string, a Source or a mapping with 'text', got {type(item).__name__}"
            )
        out.append(Source(id=sid, text=text))

    seen: set[str] = set()
    for s in out:
        if s.id in seen:
            raise ValueError(f"duplicate source id {s.id!r}")
        seen.add(s.id)
    return out


# --------------------------------------------------------------------------- sentences

# The package's one sentence splitter (spaCy's sentence boundaries plus line breaks as hard
# boundaries; see agent/segment.py), re-exported here for the packing code and its callers.
from factgrain.agent.segment import remember_slices, split_sentences  # noqa: E402


def _split_long(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` into pieces of at most ``max_chars`` on whitespace."""
    if end - start <= max_chars:
        return [(start, end)]
    pieces: list[tuple[int, int]] = []
    cur_s: int | None = None
    cur_e = start
    for m in re.finditer(r"\S+", text[start:end]):
        ts, te = start + m.start(), start + m.end()
        while te - ts > max_chars:  # a single token longer than the budget
            if cur_s is not None:
                pieces.append((cur_s, cur_e))
                cur_s = None
            pieces.append((ts, ts + max_chars))
            ts += max_chars
        if cur_s is None:
            cur_s, cur_e = ts, te
        elif te - cur_s <= max_chars:
            cur_e = te
        else:
            pieces.append((cur_s, cur_e))
            cur_s, cur_e = ts, te
    if cur_s is not None:
        pieces.append((cur_s, cur_e))
    return pieces


# --------------------------------------------------------------------------- packing


def pack_passages(
    sources: Any,
    max_chars: int = 1200,
    overlap_sentences: int = 1,
    *,
    max_sentences: int | None = None,
) -> list[Passage]:
    """Pack each source's sentences greedily into passages of at most ``max_chars``.

    ``sources`` is anything :func:`normalize_sources` accepts. A passage spans from
    the start of its first sentence piece to the end of its last one (the
    whitespace between sentences is included, so ``text == source.text[start:end]``).
    Consecutive passages of a source share their last/first ``overlap_sentences``
    pieces when that still leaves room for new text; every passage contains at
    least one piece that the previous passage did not. ``max_sentences`` caps the
    number of sentences per passage (``max_sentences=1, overlap_sentences=0``
    gives one passage per sentence). Passages never cross sources. ``index`` is
    the position in the returned list, which is in document order (source order,
    then offset).
    """
    if not isinstance(max_chars, int) or isinstance(max_chars, bool) or max_chars < 1:
        raise ValueError(f"max_chars must be a positive int, got {max_chars!r}")
    if not isinstance(overlap_sentences, int) or overlap_sentences < 0:
        raise ValueError(f"overlap_sentences must be an int >= 0, got {overlap_sentences!r}")
    if max_sentences is not None and (not isinstance(max_sentences, int) or max_sentences < 1):
        raise ValueError(f"max_sentences must be None or an int >= 1, got {max_sentences!r}")
    srcs = normalize_sources(sources)

    passages: list[Passage] = []
    for src in srcs:
        text = src.text
        src_first = len(passages)
        units: list[tuple[int, int, int]] = []  # (start, end, sentence_id)
        for sid, (s, e) in enumerate(split_sentences(text)):
            units.extend((a, b, sid) for a, b in _split_long(text, s, e, max_chars))
        if not units:
            continue
        first = 0
        while first < len(units):
            # take as many units as fit, starting at `first`
            last = first
            while (
                last + 1 < len(units)
                and units[last + 1][1] - units[first][0] <= max_chars
                and (max_sentences is None or units[last + 1][2] - units[first][2] < max_sentences)
            ):
                last += 1
            s, e = units[first][0], units[last][1]
            passages.append(
                Passage(
                    source_id=src.id,
                    index=len(passages),
                    start=s,
                    end=e,
                    text=text[s:e],
                    sentence_ids=sorted({u[2] for u in units[first : last + 1]}),
                )
            )
            if last + 1 >= len(units):
                break
            nxt = last + 1
            # step back for overlap, but only while the next passage still gets new text
            back = nxt
            for _ in range(overlap_sentences):
                cand = back - 1
                if cand <= first:
                    break
                if units[nxt][1] - units[cand][0] > max_chars:
                    break
                if max_sentences is not None and units[nxt][2] - units[cand][2] >= max_sentences:
                    break
                back = cand
            first = back
        # the verifier reads each retrieved passage with the parser: hand it slices of this source's parse
        remember_slices(text, [(p.start, p.end) for p in passages[src_first:]])
    return passages


# --------------------------------------------------------------------------- BM25

_STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me more
    most my myself nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with
    would you your yours yourself yourselves s t also""".split()
)
_TOKEN = re.compile(r"\w+", re.UNICODE)


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens without English stopwords or one-letter words (digits kept)."""
    return [
        t
        for t in _TOKEN.findall(text.lower())
        if t not in _STOPWORDS and (len(t) > 1 or t.isdigit())
    ]


class BM25Retriever:
    """BM25 (bm25s, Lucene variant) over a fixed list of passages.

    Scores are exact BM25 over every passage; ties (including the all-zero case)
    keep document order, so results are deterministic.
    """

    def __init__(self, passages: Sequence[Passage], *, k1: float = 1.5, b: float = 0.75) -> None:
        import bm25s  # imported lazily: only retrieval needs it

        self.passages: list[Passage] = list(passages)
        self._model = None
        if self.passages:
            corpus = [tokenize(p.text) for p in self.passages]
            self._model = bm25s.BM25(k1=k1, b=b)
            self._model.index(corpus, show_progress=False)

    def __len__(self) -> int:
        return len(self.passages)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every passage for ``query`` (zeros when no query term is indexed)."""
        n = len(self.passages)
        if self._model is None:
            return np.zeros(0, dtype=np.float64)
        vocab = self._model.vocab_dict
        ids = [vocab[t] for t in tokenize(query or "") if t in vocab]
        if not ids:
            return np.zeros(n, dtype=np.float64)
        return np.asarray(self._model.get_scores_from_ids(ids), dtype=np.float64)

    def search(self, query: str, k: int = 3) -> list[RetrievedPassage]:
        """Top ``min(k, len(passages))`` passages for ``query``, best first.

        An empty query, or one none of whose terms occurs in the passages, returns
        the first ``k`` passages in document order with score 0.0. ``k`` larger than
        the number of passages returns all of them. ``k < 1`` raises ``ValueError``.
        """
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise ValueError(f"k must be a positive int, got {k!r}")
        if query is not None and not isinstance(query, str):
            raise ValueError(f"query must be a string, got {type(query).__name__}")
        scores = self.scores(query or "")
        k = min(k, len(self.passages))
        # stable sort on -score keeps document order among ties
        order = np.argsort(-scores, kind="stable")[:k]
        return [
            RetrievedPassage(passage=self.passages[int(i)], score=float(scores[int(i)]), rank=r + 1)
            for r, i in enumerate(order)
        ]


# --------------------------------------------------------------------------- prompt side


def needs_retrieval(sources: Any, budget_chars: int) -> bool:
    """True when the reference does not fit the verifier as-is.

    That is: there are several sources, or the (single) source text is longer
    than ``budget_chars``.
    """
    if not isinstance(budget_chars, int) or isinstance(budget_chars, bool) or budget_chars < 1:
        raise ValueError(f"budget_chars must be a positive int, got {budget_chars!r}")
    srcs = normalize_sources(sources)
    return len(srcs) > 1 or sum(len(s.text) for s in srcs) > budget_chars


def build_evidence(passages: Iterable[RetrievedPassage | Passage]) -> str:
    """Format selected passages as verifier evidence.

    Passages are put in document order (``index``, then source id and offsets),
    duplicates are dropped, and overlapping passages of the same source are merged
    into one block so no sentence is shown twice. Each block reads::

        [source <id>, chars <start>-<end>]
        <text>

    and blocks are separated by a blank line. Scores and ranks are not printed, so
    the output depends only on which passages were selected: identical selections
    give byte-identical strings (good for prompt-prefix caching).
    """
    plist: list[Passage] = []
    for item in passages:
        if isinstance(item, RetrievedPassage):
            plist.append(item.passage)
        elif isinstance(item, Passage):
            plist.append(item)
        else:
            raise ValueError(f"build_evidence expects RetrievedPassage or Passage, got {type(item).__name__}")
    if not plist:
        return ""
    # document order: pack order first, then source/offsets as tie-breakers
    plist = sorted(_unique(plist), key=lambda p: (p.index, p.source_id, p.start, p.end))

    blocks: list[list[Any]] = []  # [source_id, start, end, text]
    for p in plist:
        if blocks and blocks[-1][0] == p.source_id and blocks[-1][1] <= p.start <= blocks[-1][2]:
            cur = blocks[-1]
            if p.end > cur[2]:
                cur[3] = cur[3] + p.text[cur[2] - p.start :]
                cur[2] = p.end
            continue
        blocks.append([p.source_id, p.start, p.end, p.text])
    return "\n\n".join(f"[source {sid}, chars {s}-{e}]\n{t}" for sid, s, e, t in blocks)


def _unique(plist: list[Passage]) -> list[Passage]:
    """Drop passages repeated with the same (source_id, start, end), keeping the first."""
    seen: set[tuple[str, int, int]] = set()
    out = []
    for p in plist:
        key = (p.source_id, p.start, p.end)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


# --------------------------------------------------------------------------- WiCE measurement
#
# What WiCE's `supporting_sentences` ids are (checked on all 707 rows of the shared file):
# the `reference` is the cited web page(s) pre-split one sentence per line; an id is the
# 0-based index into `reference.split("\n")`. Every id is in range and none points at a
# blank line; the text of line `id` overlaps the claim far more than lines id-1 or id+1.
# `supporting_sentences` is a list of alternative evidence sets: the claim is supported
# by the sentences of any one set. Some sets are empty (`[[]]`, mostly not_supported
# claims with no evidence at all); empty sets are ignored, and claims without a
# non-empty set are left out of the recall denominators (30 of 349 on dev).
# A few references hold more than one page ("(meta data) TITLE:" repeats); the ids
# still run over the concatenated lines. The splitter cuts some of the 1,466
# gold lines on dev into more than one sentence, so sentence-level retrieval can
# cover a gold line only partly; that counts as not retrieved. On dev only 132 of
# 319 claims have a one-sentence evidence set, which caps sentence-level full@1 at 0.41.

DEFAULT_DATA_DIR = "/work/shared/data"


def _line_spans(text: str) -> list[tuple[int, int]]:
    """Stripped char span of every line of ``text`` (index = WiCE sentence id)."""
    spans = []
    pos = 0
    for line in text.split("\n"):
        lead = len(line) - len(line.lstrip())
        body = line.strip()
        spans.append((pos + lead, pos + lead + len(body)))
        pos += len(line) + 1
    return spans


def _covered_lines(text: str, line_spans: list[tuple[int, int]], segments: list[tuple[int, int]]) -> set[int]:
    """Lines whose whole (stripped, non-empty) span lies inside the union of ``segments``.

    Segments separated only by whitespace are joined first, so a long line that was
    cut into pieces counts as covered when all its pieces were retrieved.
    """
    merged: list[list[int]] = []
    for s, e in sorted(segments):
        if merged and (s <= merged[-1][1] or not text[merged[-1][1] : s].strip()):
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    starts = [m[0] for m in merged]
    import bisect

    out = set()
    for i, (s, e) in enumerate(line_spans):
        if e <= s:
            continue
        j = bisect.bisect_right(starts, s) - 1
        if j >= 0 and merged[j][1] >= e:
            out.add(i)
    return out


def _load_rows(path: str, split: str) -> list[dict]:
    rows = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r.get("split") == split:
                rows.append(r)
    return rows


def _evidence_sets(value: Any) -> list[set[int]]:
    if isinstance(value, str):
        value = json.loads(value) if value.strip() else []
    return [set(int(i) for i in s) for s in (value or []) if s]


def measure_wice_recall(
    split: str = "dev",
    ks: Sequence[int] = (1, 3, 5),
    *,
    path: str | None = None,
    max_chars: int = 1200,
    overlap_sentences: int = 1,
) -> list[dict[str, Any]]:
    """Recall@k of WiCE gold evidence for BM25 retrieval with the claim as query.

    Two granularities (one passage per sentence; the packed-passage default) and
    two queries (claim; claim + its Wikipedia ``context``). For each claim with at
    least one non-empty evidence set:

    * ``full@k``: the top-k passages cover every sentence of at least one set;
    * ``any@k``: the top-k passages cover at least one gold sentence.

    A WiCE sentence (a line of the reference) counts as covered when the union of
    the retrieved passages' spans contains all of it. Returns one dict per
    (granularity, query) row with the rates, the claim count and the mean number
    of characters retrieved at each k.
    """
    path = path or os.path.join(os.environ.get("FACTGRAIN_DATA_DIR", DEFAULT_DATA_DIR), "wice.jsonl.gz")
    ks = sorted(set(int(k) for k in ks))
    rows = _load_rows(path, split)
    if not rows:
        raise ValueError(f"no rows with split={split!r} in {path}")
    configs = [
        ("sentence", dict(max_chars=max_chars, overlap_sentences=0, max_sentences=1)),
        (f"passage ({max_chars} chars, overlap {overlap_sentences})",
         dict(max_chars=max_chars, overlap_sentences=overlap_sentences)),
    ]
    queries = ["claim", "claim+context"]
    acc = {
        (g, q): {"full": [0] * len(ks), "any": [0] * len(ks), "chars": [0] * len(ks), "n": 0}
        for g, _ in configs
        for q in queries
    }
    skipped = 0
    n_passages = {g: 0 for g, _ in configs}
    for r in rows:
        sets = _evidence_sets(r.get("supporting_sentences"))
        if not sets or not r.get("reference"):
            skipped += 1
            continue
        ref = r["reference"]
        gold_any = set().union(*sets)
        lines = _line_spans(ref)
        for gname, kw in configs:
            passages = pack_passages(ref, **kw)
            n_passages[gname] += len(passages)
            retriever = BM25Retriever(passages)
            for q in queries:
                query = r["text"] if q == "claim" else f"{r['text']} {r.get('context') or ''}"
                hits = retriever.search(query, k=max(ks))
                a = acc[(gname, q)]
                a["n"] += 1
                for i, k in enumerate(ks):
                    segs = [(h.passage.start, h.passage.end) for h in hits[:k]]
                    cov = _covered_lines(ref, lines, segs)
                    a["full"][i] += any(s <= cov for s in sets)
                    a["any"][i] += bool(gold_any & cov)
                    a["chars"][i] += sum(e - s for s, e in segs)
    results = []
    for (g, q), a in acc.items():
        n = a["n"]
        results.append(
            {
                "granularity": g,
                "query": q,
                "n_claims": n,
                "skipped_no_evidence": skipped,
                "mean_passages": n_passages[g] / max(1, n),
                "ks": ks,
                "full": [x / n for x in a["full"]],
                "any": [x / n for x in a["any"]],
                "mean_chars": [x / n for x in a["chars"]],
            }
        )
    return results


def format_recall_table(results: list[dict[str, Any]]) -> str:
    """Markdown table of :func:`measure_wice_recall` output."""
    ks = results[0]["ks"]
    head = ["granularity", "query"] + [f"full@{k}" for k in ks] + [f"any@{k}" for k in ks]
    head += [f"chars@{k}" for k in ks]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        cells = [r["granularity"], r["query"]]
        cells += [f"{x:.3f}" for x in r["full"]] + [f"{x:.3f}" for x in r["any"]]
        cells += [f"{x:.0f}" for x in r["mean_chars"]]
        lines.append("| " + " | ".join(cells) + " |")
    r0 = results[0]
    lines.append("")
    lines.append(
        f"{r0['n_claims']} claims scored; {r0['skipped_no_evidence']} without a non-empty evidence set skipped. "
        "full@k: top-k cover a whole gold evidence set; any@k: at least one gold sentence; "
        "chars@k: mean characters retrieved."
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m factgrain.agent.retrieve", description=__doc__.split("\n")[0])
    parser.add_argument("--measure-wice", action="store_true", help="print recall@k of WiCE supporting sentences")
    parser.add_argument("--split", default="dev", choices=["dev", "test"])
    parser.add_argument("--ks", default="1,3,5", help="comma-separated k values")
    parser.add_argument("--data", default=None, help="path to wice.jsonl.gz")
    parser.add_argument("--max-chars", type=int, default=1200)
    args = parser.parse_args(argv)
    if not args.measure_wice:
        parser.print_help()
        return 2
    ks = [int(x) for x in args.ks.split(",") if x.strip()]
    res = measure_wice_recall(args.split, ks, path=args.data, max_chars=args.max_chars)
    print(f"WiCE {args.split}: BM25 recall of supporting_sentences\n")
    print(format_recall_table(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
