"""Tests for factgrain.agent.retrieve: sources, packing, BM25 search, evidence text."""

from __future__ import annotations

import os
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

try:  # allow `pytest tests/agent/...` from a checkout without an install
    import factgrain  # noqa: F401
except ImportError:  # pragma: no cover
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from factgrain.agent.retrieve import (
    BM25Retriever,
    RetrievedPassage,
    Source,
    build_evidence,
    needs_retrieval,
    normalize_sources,
    pack_passages,
    split_sentences,
    tokenize,
)

ARTICLE = (
    "The river Ouse flows through York. It joins the Humber estuary further east.\n"
    "York Minster is a Gothic cathedral. Construction began in 1230 and ended in 1472.\n"
    "Thomas K. Arnold edits Media Play News. He joined Video Store Magazine in 1991.\n"
    "The railway museum holds more than a hundred locomotives!\n"
)


def _check_offsets(sources, passages):
    texts = {s.id: s.text for s in normalize_sources(sources)}
    for p in passages:
        assert p.source_id in texts
        assert 0 <= p.start < p.end <= len(texts[p.source_id])
        assert texts[p.source_id][p.start : p.end] == p.text


# ------------------------------------------------------------------ sources


def test_normalize_string_and_lists():
    assert normalize_sources("abc") == [Source(id="0", text="abc")]
    assert [s.id for s in normalize_sources(["a", "b", "c"])] == ["0", "1", "2"]
    got = normalize_sources([{"id": "doc-a", "text": "x"}, Source(id="doc-b", text="y")])
    assert [(s.id, s.text) for s in got] == [("doc-a", "x"), ("doc-b", "y")]
    assert normalize_sources({"id": 7, "text": "z"}) == [Source(id="7", text="z")]


@pytest.mark.parametrize(
    "bad, fragment",
    [
        ([], "empty list"),
        (None, "None"),
        ("   \n\t", "whitespace"),
        (["ok", "  "], "whitespace"),
        ([{"id": "a", "text": 3}], "text must be a string"),
        ([{"id": "a"}], "no 'text' key"),
        ([{"id": "a", "text": "x"}, {"id": "a", "text": "y"}], "duplicate source id"),
        (42, "reference must be"),
        ([1.5], "expected a string"),
        ([{"id": ["x"], "text": "y"}], "id must be a string"),
    ],
)
def test_normalize_rejects_bad_input(bad, fragment):
    with pytest.raises(ValueError, match=fragment):
        normalize_sources(bad)


def test_needs_retrieval():
    assert not needs_retrieval("short text", budget_chars=100)
    assert needs_retrieval("x" * 101, budget_chars=100)
    assert needs_retrieval(["a", "b"], budget_chars=10_000)
    with pytest.raises(ValueError):
        needs_retrieval("text", budget_chars=0)


# ------------------------------------------------------------------ splitting / packing


def test_split_sentences_respects_lines_and_initials():
    spans = split_sentences(ARTICLE)
    sents = [ARTICLE[s:e] for s, e in spans]
    assert sents[0] == "The river Ouse flows through York."
    assert "Thomas K. Arnold edits Media Play News." in sents  # not split after "K."
    assert sents[-1] == "The railway museum holds more than a hundred locomotives!"
    assert len(sents) == 7


def test_pack_offsets_and_sentence_ids():
    passages = pack_passages(ARTICLE, max_chars=120, overlap_sentences=1)
    _check_offsets(ARTICLE, passages)
    assert [p.index for p in passages] == list(range(len(passages)))
    assert all(p.end - p.start <= 120 for p in passages)
    covered = set().union(*(p.sentence_ids for p in passages))
    assert covered == set(range(len(split_sentences(ARTICLE))))
    # overlap: consecutive passages share a sentence
    assert any(set(a.sentence_ids) & set(b.sentence_ids) for a, b in zip(passages, passages[1:]))


def test_pack_one_sentence_per_passage():
    passages = pack_passages(ARTICLE, max_chars=1200, overlap_sentences=0, max_sentences=1)
    assert [p.sentence_ids for p in passages] == [[i] for i in range(7)]


def test_long_sentence_is_split_on_whitespace():
    words = [f"word{i}" for i in range(400)]
    text = " ".join(words)  # one sentence, ~3,600 chars, no punctuation
    passages = pack_passages(text, max_chars=200, overlap_sentences=0)
    _check_offsets(text, passages)
    assert len(passages) > 1
    assert all(len(p.text) <= 200 for p in passages)
    assert " ".join(p.text for p in passages).split() == words  # nothing lost, no word cut
    assert all(p.sentence_ids == [0] for p in passages)


def test_single_token_longer_than_budget():
    text = "a" * 50 + " tail."
    passages = pack_passages(text, max_chars=20, overlap_sentences=1)
    _check_offsets(text, passages)
    assert "".join(p.text for p in passages).replace(" ", "") == text.replace(" ", "")


def test_multiple_sources_keep_ids():
    srcs = [{"id": "wiki", "text": ARTICLE}, {"id": "news", "text": "Local news. York won the cup."}]
    passages = pack_passages(srcs, max_chars=100)
    _check_offsets(srcs, passages)
    assert {p.source_id for p in passages} == {"wiki", "news"}
    # document order: all of the first source before the second
    ids = [p.source_id for p in passages]
    assert ids == sorted(ids, key=["wiki", "news"].index)


_texts = st.lists(
    st.one_of(
        st.text(alphabet="abcXYZ019 .!?\n\t'\"", min_size=0, max_size=60),
        st.sampled_from(["Dr. Who.", "U.S. Army. ", "\n\n", "A.", "Hi! There? Yes.", "é ü ß. Ok"]),
    ),
    min_size=1,
    max_size=30,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(
    texts=st.lists(_texts.filter(lambda t: t.strip()), min_size=1, max_size=3),
    max_chars=st.integers(min_value=1, max_value=80),
    overlap=st.integers(min_value=0, max_value=3),
)
def test_property_offsets_index_sources_exactly(texts, max_chars, overlap):
    srcs = [{"id": f"s{i}", "text": t} for i, t in enumerate(texts)]
    passages = pack_passages(srcs, max_chars=max_chars, overlap_sentences=overlap)
    _check_offsets(srcs, passages)
    assert all(p.end - p.start <= max_chars for p in passages)
    # every non-whitespace character of every source lands in some passage
    for s in normalize_sources(srcs):
        mask = [False] * len(s.text)
        for p in passages:
            if p.source_id == s.id:
                for i in range(p.start, p.end):
                    mask[i] = True
        assert all(mask[i] or s.text[i].isspace() for i in range(len(s.text)))
    # passages of a source advance monotonically
    for s in normalize_sources(srcs):
        own = [p for p in passages if p.source_id == s.id]
        assert all(a.start < b.start and a.end < b.end for a, b in zip(own, own[1:]))


# ------------------------------------------------------------------ search


def test_search_ranks_matching_passage_first():
    passages = pack_passages(ARTICLE, max_chars=1200, overlap_sentences=0, max_sentences=1)
    r = BM25Retriever(passages)
    hits = r.search("When did construction of the Gothic cathedral begin?", k=3)
    assert hits[0].passage.text.startswith("York Minster is a Gothic cathedral")
    assert [h.rank for h in hits] == [1, 2, 3]
    assert hits[0].score > 0
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:]))
    top = r.search("locomotives railway museum", k=1)[0]
    assert "locomotives" in top.passage.text


def test_search_k_larger_than_corpus():
    passages = pack_passages(ARTICLE, max_chars=1200, overlap_sentences=0, max_sentences=1)
    hits = BM25Retriever(passages).search("York", k=50)
    assert len(hits) == len(passages)
    assert len({h.passage.index for h in hits}) == len(passages)


@pytest.mark.parametrize("query", ["", "   ", "the of and", "zzzunknownterm"])
def test_empty_or_unmatched_query_returns_first_k_with_zero(query):
    passages = pack_passages(ARTICLE, max_chars=1200, overlap_sentences=0, max_sentences=1)
    hits = BM25Retriever(passages).search(query, k=3)
    assert [h.passage.index for h in hits] == [0, 1, 2]
    assert all(h.score == 0.0 for h in hits)


def test_search_rejects_bad_k_and_empty_index():
    r = BM25Retriever(pack_passages(ARTICLE))
    with pytest.raises(ValueError):
        r.search("York", k=0)
    assert BM25Retriever([]).search("York", k=3) == []


def test_tokenize():
    assert tokenize("The Minster was built in 1230, and IS tall.") == ["minster", "built", "1230", "tall"]


# ------------------------------------------------------------------ evidence


def test_build_evidence_deterministic_and_document_ordered():
    srcs = [{"id": "wiki", "text": ARTICLE}, {"id": "news", "text": "Local news. York won the cup."}]
    passages = pack_passages(srcs, max_chars=1200, overlap_sentences=0, max_sentences=1)
    hits = BM25Retriever(passages).search("York cup Gothic cathedral", k=3)
    ev1 = build_evidence(hits)
    ev2 = build_evidence(list(reversed(hits)))
    ev3 = build_evidence([RetrievedPassage(**h.model_dump()) for h in hits])
    assert ev1 == ev2 == ev3
    assert ev1.encode() == build_evidence(hits).encode()
    # document order, source ids shown
    positions = [ev1.index(f"[source {h.passage.source_id}, chars {h.passage.start}-") for h in
                 sorted(hits, key=lambda h: h.passage.index)]
    assert positions == sorted(positions)
    assert "[source news," in ev1 and "[source wiki," in ev1
    for h in hits:
        assert h.passage.text in ev1
    assert build_evidence([]) == ""


def test_build_evidence_merges_overlaps_without_repeating_text():
    passages = pack_passages(ARTICLE, max_chars=120, overlap_sentences=1)
    assert len(passages) >= 3
    ev = build_evidence(passages)
    assert ev.count("\n\n") == 0  # one merged block
    body = ev.split("\n", 1)[1]
    assert body == ARTICLE[passages[0].start : passages[-1].end]
    # duplicates are dropped
    assert build_evidence(passages[:2] + passages[:2]) == build_evidence(passages[:2])


def test_build_evidence_rejects_other_types():
    with pytest.raises(ValueError):
        build_evidence(["not a passage"])


# ------------------------------------------------------------------ scale


def test_large_reference_is_packed_and_searched():
    rng = random.Random(0)
    vocab = [f"w{i}" for i in range(3000)]
    sentences = []
    while sum(len(s.split()) for s in sentences) < 20_000:
        n = rng.randint(8, 25)
        sentences.append("Alpha " + " ".join(rng.choice(vocab) for _ in range(n)) + ".")
    needle_at = len(sentences) * 2 // 3
    sentences[needle_at] = "The zephyrine quokka migrated across Tasmania in 1874."
    text = " ".join(sentences)
    assert len(text.split()) >= 20_000

    passages = pack_passages(text)
    _check_offsets(text, passages)
    assert len(passages) > 50
    hits = BM25Retriever(passages).search("quokka migration Tasmania zephyrine", k=3)
    assert "zephyrine quokka" in hits[0].passage.text
    assert needs_retrieval(text, budget_chars=4000)


# ------------------------------------------------------------------ WiCE measurement


def test_measure_wice_recall_on_tiny_file(tmp_path):
    import gzip
    import json

    from factgrain.agent.retrieve import format_recall_table, measure_wice_recall

    ref = "\n".join(
        [
            "Harbour records list ships.",  # 0
            "The lighthouse keeper counted seabirds every dawn.",  # 1
            "A storm destroyed the pier in 1908.",  # 2
            "Fishing boats left before sunrise.",  # 3
            "Tide tables were printed. Nobody read them.",  # 4: two sentences for our splitter
        ]
    )
    rows = [
        # single-sentence evidence that BM25 finds first: full@1 and any@1
        {"split": "dev", "reference": ref, "text": "The storm destroyed the pier in 1908.",
         "supporting_sentences": "[[2]]", "context": ""},
        # two-sentence evidence; the claim only matches line 1: any@1 but not full@1
        {"split": "dev", "reference": ref, "text": "The lighthouse keeper counted seabirds.",
         "supporting_sentences": [[1, 3]], "context": ""},
        # the gold line is only half retrieved at k=1: not covered, neither full nor any
        {"split": "dev", "reference": ref, "text": "Tide tables were printed.",
         "supporting_sentences": [[4]], "context": ""},
        # no evidence at all: skipped
        {"split": "dev", "reference": ref, "text": "Whales sing.", "supporting_sentences": [[]], "context": ""},
        # other split: ignored
        {"split": "test", "reference": ref, "text": "x", "supporting_sentences": [[0]], "context": ""},
    ]
    path = tmp_path / "wice.jsonl.gz"
    with gzip.open(path, "wt") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")

    res = measure_wice_recall("dev", ks=(1, 6), path=str(path))
    sent = next(r for r in res if r["granularity"] == "sentence" and r["query"] == "claim")
    assert sent["n_claims"] == 3 and sent["skipped_no_evidence"] == 1
    assert sent["full"] == pytest.approx([1 / 3, 1.0])
    assert sent["any"] == pytest.approx([2 / 3, 1.0])
    packed = next(r for r in res if r["granularity"].startswith("passage") and r["query"] == "claim")
    assert packed["full"][0] == 1.0  # the whole 4-line reference fits one passage
    table = format_recall_table(res)
    assert table.startswith("| granularity | query | full@1 | full@6 |")


def test_retrieved_passages_reuse_the_source_parse():
    """A passage is cut out of its source's parse, not parsed again: the verifier reads the passage
    (alone or behind a "[source <id>]" header) with the same tokens, sentences and entities."""
    from factgrain.agent import reader, segment

    source = " ".join(f"Report {i} was written by Anna Lee in Paris on Monday." for i in range(60))
    source += "\n\nA second paragraph follows. It names Berlin."
    passages = pack_passages(source, max_chars=300)
    assert len(passages) > 3
    for p in passages[1:3] + passages[-1:]:
        for evidence_text, shift in ((p.text, 0), (f"[source 0] {p.text}\n\n", len("[source 0] "))):
            blocks = segment.parsed_blocks(evidence_text)
            assert p.text not in reader._cache  # never parsed as a text of its own
            assert blocks[0][0] == shift
            assert all(evidence_text[off:off + len(doc.text)] == doc.text for off, doc in blocks)
            spans = segment.split_sentences(evidence_text)
            assert [evidence_text[a:b] for a, b in spans] == [p.text[a:b] for a, b in segment.split_sentences(p.text)]
    doc = segment.parsed_blocks(passages[1].text)[0][1]
    assert {e.text for e in doc.ents} >= {"Anna Lee", "Paris"} and all(t.lemma_ for t in doc)
