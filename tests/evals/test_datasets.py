"""Tests for factgrain.evals.datasets, mostly against the real shared data files."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from factgrain.evals import datasets as ds
from factgrain.evals.datasets import (
    ENV_VAR,
    DataDirNotFoundError,
    Example,
    QAExample,
    ResponseExample,
    data_dir,
    list_datasets,
    load,
    load_qa,
    load_responses,
    parse_token_span,
    parse_value,
    splits,
)

try:
    REAL_DIR = data_dir()
except DataDirNotFoundError:  # pragma: no cover - only without the shared data
    REAL_DIR = None

needs_data = pytest.mark.skipif(REAL_DIR is None, reason="shared benchmark data not found")


def write_jsonl_gz(path: Path, rows: list[dict]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")


# --------------------------------------------------------------------------- #
# real files: counts, splits, labels
# --------------------------------------------------------------------------- #

README_COUNTS = {
    "qasem_consistency_qa": {"dev": 1542, "test": 1556},
    "qasem_consistency": {"dev": 148, "test": 151},
    "wice": {"dev": 349, "test": 358},
    "claimdecomp": {"dev": 200, "test": 200},
    "felm": {"test": 4426},
    "bingcheck": {"test": 3642},
}


@needs_data
def test_list_datasets_has_the_readme_files():
    names = list_datasets()
    assert names == sorted(names)
    for expected in [
        "qasem_consistency_qa",
        "qasem_consistency",
        "wice",
        "claimdecomp",
        "felm",
        "bingcheck",
        "bingchat_combination",
        "factscore",
        "refchecker",
    ]:
        assert expected in names


@needs_data
@pytest.mark.parametrize("name", sorted(README_COUNTS))
def test_row_counts_match_readme(name):
    expected = README_COUNTS[name]
    assert splits(name) == sorted(expected)
    for split, n in expected.items():
        rows = load(name, split)
        assert len(rows) == n
        assert {r.split for r in rows} == {split}
        assert {r.dataset for r in rows} == {name}
    assert len(load(name)) == sum(expected.values())


@needs_data
def test_labels_are_parsed_ints_and_rates_match_readme():
    wice = load("wice")
    assert all(isinstance(r.label, int) and r.label in (0, 1) for r in wice)
    assert all(r.label_lenient in (0, 1) for r in wice)
    strict = sum(r.label for r in wice) / len(wice)
    lenient = sum(r.label_lenient for r in wice) / len(wice)
    assert strict == pytest.approx(0.32, abs=0.01)
    assert lenient == pytest.approx(0.89, abs=0.01)
    # strict support implies lenient support
    assert all(r.label_lenient >= r.label for r in wice)

    qa = load("qasem_consistency_qa")
    assert sum(r.label for r in qa) / len(qa) == pytest.approx(0.66, abs=0.01)
    # datasets without graded labels have no lenient label
    assert all(r.label_lenient is None for r in qa)


@needs_data
def test_reference_null_and_extras_parsed_on_real_rows():
    refchecker = load("refchecker", limit=50)
    assert all(r.reference is None for r in refchecker)
    assert all(isinstance(r.extras["triplet"], list) and len(r.extras["triplet"]) == 3 for r in refchecker)
    wice = load("wice", "dev", limit=20)
    assert all(isinstance(r.extras["supporting_sentences"], list) for r in wice)
    assert all(isinstance(r.reference, str) and r.reference for r in wice)
    for core in ("id", "label", "text", "reference", "split", "dataset"):
        assert core not in wice[0].extras


@needs_data
def test_felm_missing_response_becomes_none_and_free_text_stays_text():
    felm = load("felm")
    responses = [r.extras["response"] for r in felm]
    assert any(v is None for v in responses)
    assert not any(isinstance(v, float) for v in responses)
    # math comments hold answers as text; they must not turn into numbers
    assert all(isinstance(r.extras["comment"], str) for r in felm)


# --------------------------------------------------------------------------- #
# limit / seed
# --------------------------------------------------------------------------- #


@needs_data
def test_limit_is_deterministic_and_in_file_order():
    full_ids = [r.id for r in load("qasem_consistency_qa", "dev")]
    position = {id_: i for i, id_ in enumerate(full_ids)}
    a = [r.id for r in load("qasem_consistency_qa", "dev", limit=25, seed=7)]
    b = [r.id for r in load("qasem_consistency_qa", "dev", limit=25, seed=7)]
    c = [r.id for r in load("qasem_consistency_qa", "dev", limit=25, seed=8)]
    assert a == b
    assert len(a) == 25 and len(set(a)) == 25
    assert set(a) != set(c)
    assert all(i in position for i in a)
    assert [position[i] for i in a] == sorted(position[i] for i in a)
    # a random sample, not just the head of the file
    assert max(position[i] for i in a) > 100


@needs_data
def test_limit_edge_cases():
    dev = load("claimdecomp", "dev")
    assert [r.id for r in load("claimdecomp", "dev", limit=10_000)] == [r.id for r in dev]
    assert load("claimdecomp", "dev", limit=0) == []
    with pytest.raises(ValueError, match="limit"):
        load("claimdecomp", "dev", limit=-1)
    sample = load("claimdecomp", "test", limit=5, seed=1)
    assert {r.split for r in sample} == {"test"}


@needs_data
def test_limit_sample_is_roughly_uniform():
    # how often each row position is picked over many seeds: every decile of the
    # file must be hit, and the first rows must not dominate
    ids = [r.id for r in load("claimdecomp", "dev")]
    pos = {id_: i for i, id_ in enumerate(ids)}
    hits = [0] * 10
    for seed in range(60):
        for r in load("claimdecomp", "dev", limit=10, seed=seed):
            hits[pos[r.id] * 10 // len(ids)] += 1
    assert sum(hits) == 600
    assert min(hits) > 25 and max(hits) < 100


# --------------------------------------------------------------------------- #
# errors
# --------------------------------------------------------------------------- #


@needs_data
def test_unknown_dataset_and_split_list_the_valid_ones():
    with pytest.raises(ValueError, match="unknown dataset 'nope'") as info:
        load("nope")
    assert "qasem_consistency_qa" in str(info.value) and "wice" in str(info.value)
    with pytest.raises(ValueError, match="valid datasets"):
        splits("../data/wice")
    with pytest.raises(ValueError, match="unknown split 'train'") as info:
        load("wice", "train")
    assert "dev, test" in str(info.value)


def test_data_dir_missing_everywhere_names_env_var(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setattr(ds, "_default_candidates", lambda: [tmp_path / "nowhere"])
    with pytest.raises(DataDirNotFoundError, match=ENV_VAR) as info:
        data_dir()
    assert isinstance(info.value, FileNotFoundError)
    with pytest.raises(FileNotFoundError, match=ENV_VAR):
        list_datasets()


def test_data_dir_resolution_order(monkeypatch, tmp_path):
    explicit = tmp_path / "explicit"
    env = tmp_path / "env"
    shared = tmp_path / "shared" / "data"
    cwd = tmp_path / "repo"
    for p in (explicit, env, shared, cwd):
        p.mkdir(parents=True)
    monkeypatch.chdir(cwd)
    monkeypatch.setenv(ENV_VAR, str(env))
    assert data_dir(explicit) == explicit.resolve()
    assert data_dir() == env.resolve()
    monkeypatch.delenv(ENV_VAR)
    # cwd/../shared/data is the first default
    assert data_dir() == shared.resolve()
    # a set but wrong env var is an error, not a silent fallback
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "missing"))
    with pytest.raises(DataDirNotFoundError, match=ENV_VAR):
        data_dir()
    with pytest.raises(DataDirNotFoundError, match="does not exist"):
        data_dir(tmp_path / "also-missing")


def test_data_dir_falls_back_to_repo_relative_default(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)  # tmp_path/../shared/data does not exist
    if (tmp_path / ".." / "shared" / "data").is_dir():
        pytest.skip("unexpected shared/data next to tmp_path")
    repo_default = Path(ds.__file__).resolve().parents[2] / ".." / "shared" / "data"
    if not repo_default.is_dir():
        pytest.skip("no shared data next to the repository")
    assert data_dir() == repo_default.resolve()


# --------------------------------------------------------------------------- #
# string-encoded rows (synthetic file)
# --------------------------------------------------------------------------- #


def test_string_encoded_fields_are_parsed(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    rows = [
        {
            "id": "q-0",
            "dataset": "qasem_consistency_qa",
            "split": "dev",
            "reference": "Source text.",
            "text": "Laura Muir says hi.",
            "label": "0",
            "instance_id": "r-0",
            "subset": "cliff",
            "source_id": 132,
            "qa_id": "3",
            "sent_id": 0,
            "predicate": "says",
            "predicate_idx": 2,
            "predicate_pos": "VERB",
            "question": "who says something?",
            "answer": "Laura Muir",
            "answer_idx": "0-2",
            "annotations": "[1, 1, 0]",
            "comment": "(25 + 35) * 0.7 = 42",
            "note": "76537610772",
            "broken": "[1, 2",
        },
        {
            "id": "q-1",
            "dataset": "qasem_consistency_qa",
            "split": "test",
            "reference": None,
            "text": "x",
            "label": 1,
            "label_lenient": "1",
            "instance_id": "r-1",
            "subset": "cliff",
            "qa_id": 0,
            "sent_id": 0,
            "predicate": "p",
            "question": "q?",
            "answer": "a",
            "answer_idx": "[4, 6]",
            "annotations": [0, 0, 0],
        },
    ]
    write_jsonl_gz(tmp_path / "qasem_consistency_qa.jsonl.gz", rows)
    assert list_datasets() == ["qasem_consistency_qa"]
    assert splits("qasem_consistency_qa") == ["dev", "test"]
    ex = load("qasem_consistency_qa", "dev")[0]
    assert ex.label == 0 and ex.label_lenient is None
    assert ex.extras["annotations"] == [1, 1, 0]
    assert ex.extras["comment"] == "(25 + 35) * 0.7 = 42"
    assert ex.extras["note"] == "76537610772"
    assert ex.extras["broken"] == "[1, 2"
    qa = QAExample.from_example(ex)
    assert qa.answer_idx == (0, 2)
    assert qa.qa_id == 3 and qa.label == 0 and qa.source_id == "132"
    second = load_qa("test")[0]
    assert second.answer_idx == (4, 6)
    assert second.reference is None and second.label == 1
    assert load("qasem_consistency_qa", "test")[0].label_lenient == 1


def test_string_encoded_response_row(tmp_path):
    qas = [
        {
            "qa_id": 0,
            "sent_id": 0,
            "predicate": "says",
            "predicate_idx": 2,
            "predicate_pos": "VERB",
            "question": "who says something?",
            "answer": "Laura Muir",
            "answer_idx": "0-2",
            "annotations": [0, 0, 1],
            "label": 1,
        }
    ]
    row = {
        "id": "r-0",
        "dataset": "qasem_consistency",
        "split": "dev",
        "reference": "src",
        "text": "Laura Muir says hi.",
        "label": "1",
        "subset": "cliff",
        "sentences": repr(["Laura Muir says hi."]),
        "sentence_tokens": repr([["Laura", "Muir", "says", "hi", "."]]),
        "qas": repr(qas),  # Python literal, not JSON: needs the literal_eval fallback
        "spans": json.dumps([{"id": 0, "start": 0, "end": 2, "qaIds": [0], "annotations": [1, 1, 1]}]),
    }
    write_jsonl_gz(tmp_path / "qasem_consistency.jsonl.gz", [row])
    (resp,) = load_responses(data_dir=tmp_path)
    assert isinstance(resp, ResponseExample)
    assert resp.label == 1
    assert resp.qas[0].answer_idx == (0, 2) and resp.qas[0].annotations == [0, 0, 1]
    assert resp.spans[0].qa_ids == [0] and resp.spans[0].annotations == [1, 1, 1]
    assert resp.span_tokens(resp.qas[0].answer_idx) == ["Laura", "Muir"]


# --------------------------------------------------------------------------- #
# QASem typed views on the real files
# --------------------------------------------------------------------------- #


@needs_data
def test_qa_view_on_real_file():
    qa = load_qa("dev")
    assert len(qa) == 1542
    first = qa[0]
    assert isinstance(first.answer_idx, tuple) and len(first.answer_idx) == 2
    assert {q.subset for q in load_qa()} == {"cliff", "factscore", "verifiability"}
    for q in qa:
        assert 0 <= q.answer_idx[0] < q.answer_idx[1]
        assert len(q.annotations) == 3
        # label (1 = supported) is the majority of "not supported" votes being absent
        assert q.label == int(sum(q.annotations) < 2)
        assert q.question and q.answer and q.predicate


@needs_data
def test_response_view_on_real_file_links_to_qa_file():
    responses = load_responses()
    qa = load_qa()
    assert len(responses) == 299
    assert sum(len(r.qas) for r in responses) == len(qa)
    by_id = {r.id: r for r in responses}
    assert all(q.instance_id in by_id for q in qa)
    for r in responses:
        assert len(r.sentences) == len(r.sentence_tokens) >= 1
        assert all(isinstance(t, str) for toks in r.sentence_tokens for t in toks)
        assert all(s.annotations is not None and s.start <= s.end for s in r.spans)
        # a response is supported exactly when all its gold QAs are
        assert r.label == int(all(g.label == 1 for g in r.qas))


@needs_data
def test_gold_token_indices_count_over_the_whole_response():
    """answer_idx / predicate_idx are response-level: in the second sentence of qasem-dev-38 the
    answer "He" is token 29 of the response (the first sentence has 29 tokens), token 0 locally."""
    by_id = {r.id: r for r in load_responses("dev")}
    r = by_id["qasem-dev-38"]
    q = next(q for q in r.qas if q.qa_id == 3)
    assert (q.sent_id, q.answer_idx, q.answer, q.predicate) == (1, (29, 30), "He", "starred")
    assert len(r.sentence_tokens[0]) == 29
    assert r.span_tokens(q.answer_idx) == ["He"]
    assert r.local_span(q.answer_idx) == (1, (0, 1))
    assert r.locate_token(q.predicate_idx) == (1, 2) and r.sentence_tokens[1][2] == "starred"
    assert r.sentence_tokens[1][29:30] == []  # the sentence-local reading finds nothing
    with pytest.raises(IndexError):
        r.locate_token(len(r.flat_tokens))
    # on every real row the response-level reading gives the answer and the predicate back
    squash = lambda s: s.replace(" ", "")  # noqa: E731
    responses = load_responses()
    qas = [(r, q) for r in responses for q in r.qas]
    answers = sum(squash("".join(r.span_tokens(q.answer_idx))) == squash(q.answer) for r, q in qas)
    predicates = sum(r.flat_tokens[q.predicate_idx] == q.predicate for r, q in qas)
    same_sentence = sum(r.local_span(q.answer_idx)[0] == q.sent_id for r, q in qas)
    assert len(qas) == 3098
    assert answers >= len(qas) - 3  # three answers differ only by accents (Sánchez / Sanchez)
    assert predicates == len(qas)
    assert same_sentence == len(qas) - 8  # the 8 QAs of qasem-dev-63, whose only sentence is numbered 1


def test_views_reject_other_datasets():
    ex = Example(id="x", dataset="wice", split="dev", text="t", label=1)
    with pytest.raises(ValueError, match="qasem_consistency_qa"):
        QAExample.from_example(ex)
    with pytest.raises(ValueError, match="qasem_consistency"):
        ResponseExample.from_example(ex)


# --------------------------------------------------------------------------- #
# parsing helpers
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    "raw, expected",
    [(1, 1), (0, 0), ("1", 1), (" 0 ", 0), ("1.0", 1), (True, 1), (None, None), ("None", None), ("", None)],
)
def test_label_coercion(raw, expected):
    ex = Example.from_row({"id": "a", "dataset": "d", "split": "s", "text": "t", "label": raw})
    assert ex.label == expected


@pytest.mark.parametrize("raw", ["0.5", "yes", 0.5, [1]])
def test_label_coercion_rejects_garbage(raw):
    with pytest.raises(ValidationError):
        Example.from_row({"id": "a", "dataset": "d", "split": "s", "text": "t", "label": raw})


def test_parse_value_and_token_span():
    assert parse_value('{"a": [1, 2]}') == {"a": [1, 2]}
    assert parse_value("[{'qa_id': 0, 'ok': True}]") == [{"qa_id": 0, "ok": True}]
    assert parse_value("(1, 2)") == (1, 2)
    assert parse_value("True") == "True"
    assert parse_value("[not a literal") == "[not a literal"
    assert parse_value(3) == 3
    assert parse_value(float("nan")) is None
    assert parse_value(1.5) == 1.5
    assert parse_token_span("3-7") == (3, 7)
    assert parse_token_span([3, 7]) == (3, 7)
    assert parse_token_span("(3, 7)") == (3, 7)
    for bad in ["3", "7-3", "a-b", [1, 2, 3]]:
        with pytest.raises(ValueError):
            parse_token_span(bad)
