"""Evidence for long and multi-source references: every verdict cites its source and passage,
source ids survive, entities absent from the sources are extrinsic, and the coverage gate skips
the verifier for them."""

from __future__ import annotations

import gzip
import json

import pytest

import factgrain
from factgrain.backends.scripted import ScriptedBackend
from tests.scripted import qa_backend, sentence_of


def auto_backend(per_sentence: int = 1, p: float = 0.9) -> ScriptedBackend:
    """Decomposes any sentence into the first ``per_sentence`` QAs the offline reader finds in it:
    pairs the free path's parse checks accept (agent/decompose/qasem_free.py refuses an answer that
    is not an argument of its predicate), so every sentence gets units without the fall-back."""

    def handler(req):
        if req.kind != "structured":
            return p
        from factgrain.agent.decompose.qasem_parse import read_qas

        qas, seen = [], set()
        for qa in read_qas(sentence_of(req)):
            if (qa.predicate, qa.answer) in seen:  # the same relation twice is one unit (deduplicated)
                continue
            seen.add((qa.predicate, qa.answer))
            qas.append({"predicate": qa.predicate, "predicate_type": qa.predicate_type, "question": qa.question,
                        "answer": qa.answer})
        return {"qas": qas[:per_sentence]}

    return ScriptedBackend(handler=handler)


def _qa(question, answer, predicate="is"):
    return {"predicate": predicate, "predicate_type": "verbal", "question": question, "answer": answer}


@pytest.fixture(scope="module")
def long_reference(data_dir):
    """Real WiCE dev articles concatenated to at least 20,000 words."""
    seen, parts, words = set(), [], 0
    with gzip.open(data_dir / "wice.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            ref = row["reference"]
            if row["split"] != "dev" or ref in seen:
                continue
            seen.add(ref)
            parts.append(ref)
            words += len(ref.split())
            if words >= 20_000:
                break
    return "\n\n".join(parts)


@pytest.mark.parametrize("verifier", ["lexical", "llm"])
def test_20000_word_reference_every_verdict_cites_a_passage(long_reference, verifier):
    ref = long_reference
    assert len(ref.split()) >= 20_000
    # sentences lifted from far apart in the reference, so retrieval has to find them
    lines = [ln for ln in ref.split("\n") if 60 < len(ln) < 200 and ln.count(".") == 1 and ln.endswith(".")]
    picked = [lines[len(lines) // 10], lines[len(lines) // 2], lines[-5]]
    text = " ".join(picked)
    report = factgrain.check(text, ref, model=auto_backend(), verifier=verifier, span_mode="free")
    assert len(report.verdicts) >= 3
    for result in report.results:
        for v in result.verdicts:
            assert v.evidence, v
            for ev in v.evidence:
                assert ev.passage_index is not None and ev.source_id == "0"
                assert ref[ev.start:ev.end] == ev.text and len(ev.text) < 6000
    # retrieval finds the passage that holds each sentence, far apart in the 20,000 words
    for sentence in picked:
        assert any(sentence[:40] in ev.text for v in report.verdicts for ev in v.evidence)


def test_multiple_sources_keep_their_ids():
    sources = [
        {"id": "bbc-2019", "text": "The council met on Monday. It approved the new budget for schools."},
        {"id": "wiki/Laura_Muir", "text": "Laura Muir is a Scottish middle-distance runner. She won the 1500 metres in Glasgow."},
    ]
    text = "Laura Muir won the 1500 metres in Glasgow."
    qas = {text: [_qa("who won something?", "Laura Muir", "won"), _qa("where did someone win something?", "in Glasgow", "won")]}
    for verifier in ("lexical", "llm"):
        report = factgrain.check(text, sources, model=qa_backend(qas), verifier=verifier, span_mode="free")
        for v in report.verdicts:
            ids = {ev.source_id for ev in v.evidence}
            assert ids <= {"bbc-2019", "wiki/Laura_Muir"} and ids
            for ev in v.evidence:
                src = next(s["text"] for s in sources if s["id"] == ev.source_id)
                assert src[ev.start:ev.end] == ev.text
        if verifier == "lexical":  # the lexical window sits in the source that says it
            assert all(v.evidence[0].source_id == "wiki/Laura_Muir" for v in report.verdicts)


SUMMARY = "Laura Muir won the race in Glasgow. Her coach Andy Young praised her."
SOURCE = "Laura Muir won the 1500 metres race in Glasgow on Sunday, finishing ahead of the field."
SUMMARY_QAS = {
    "Laura Muir won the race in Glasgow.": [_qa("who won something?", "Laura Muir", "won"),
                                            _qa("where did someone win something?", "in Glasgow", "won")],
    "Her coach Andy Young praised her.": [_qa("who praised someone?", "Her coach Andy Young", "praised")],
}


def test_entity_absent_from_the_source_is_extrinsic():
    report = factgrain.check(SUMMARY, SOURCE, model=qa_backend(SUMMARY_QAS), verifier="lexical", span_mode="free")
    kinds = {r.unit.answer: [v.error_kind for v in r.verdicts] for r in report.results}
    assert kinds["Her coach Andy Young"] == ["extrinsic"]
    assert report.results[2].status == "unsupported"
    assert kinds["Laura Muir"] == [None]


def test_skip_uncovered_saves_the_llm_call():
    backend = qa_backend(SUMMARY_QAS, default_p=0.9)
    report = factgrain.check(SUMMARY, SOURCE, model=backend, verifier="llm", span_mode="free", skip_uncovered=True)
    andy = next(r for r in report.results if r.unit.answer == "Her coach Andy Young")
    (v,) = andy.verdicts
    assert v.verifier == "coverage" and v.error_kind == "extrinsic" and v.label == "unsupported"
    assert "andy" in v.reason.lower() and andy.status == "unsupported"
    verify_calls = [r for r in backend.requests if r.kind != "structured"]
    assert len(verify_calls) == 2  # the two covered QAs only
    assert {r.unit.answer: r.status for r in report.results}["Laura Muir"] == "supported"


def test_lexical_verification_of_about_40_units_makes_no_model_call(data_dir):
    """About 40 units verified by the lexical verifier: no verification request reaches the backend (its
    speed is measured by benchmarks/bench_verify.py, not asserted here)."""
    with gzip.open(data_dir / "wice.jsonl.gz", "rt", encoding="utf-8") as fh:
        ref = json.loads(next(fh))["reference"]
    sents = [ln for ln in ref.split("\n") if 80 < len(ln) < 300 and ln.endswith(".") and ln.count(".") == 1][:10]
    backend = auto_backend(per_sentence=4)
    report = factgrain.check(" ".join(sents), ref, model=backend, verifier="lexical", span_mode="free")
    # up to 4 reader pairs a sentence, less the few the free path's parse checks refuse
    assert len(report.verdicts) == len(report.units) >= 30 and all(v.verifier == "lexical" for v in report.verdicts)
    assert all(r.kind == "structured" for r in backend.requests)  # decomposition only
