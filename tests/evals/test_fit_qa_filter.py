"""The fifth round's QA filter experiment (factgrain.evals.fit_qa_filter): features, the rule that
keeps every checked fact, and the logistic regression."""

import numpy as np
import pytest

from factgrain.agent.decompose.qasem_parse import ParsedQA, read_qas
from factgrain.evals import fit_qa_filter as F

pytest.importorskip("spacy")


def test_a_sentence_with_one_pair_keeps_it_whatever_its_score():
    text = "The vote was unanimous."
    qas = read_qas(text)
    assert len(qas) == 1
    assert F.keep_indices(qas, text, [0.0], threshold=1.0) == {0}


def test_a_pair_whose_answer_nothing_else_reaches_is_kept():
    text = "The council approved the plan in March."
    qas = read_qas(text)
    assert len(qas) >= 3
    kept = F.keep_indices(qas, text, [0.0] * len(qas), threshold=1.0)
    answers = {qas[k].answer for k in kept}
    assert any("plan" in a for a in answers) and any("March" in a for a in answers)
    assert any("council" in a for a in answers)


def test_a_pair_repeating_a_kept_predicate_and_answer_may_go():
    text = "The council approved the plan."
    base = read_qas(text)
    obj = next(q for q in base if "plan" in q.answer)
    twin = ParsedQA(obj.predicate, obj.predicate_type, "what did someone approve again?", obj.answer,
                    obj.predicate_start, obj.answer_start, obj.role)
    qas = [*base, twin]
    probs = [0.9] * len(base) + [0.1]
    assert F.keep_indices(qas, text, probs, threshold=0.5) == set(range(len(base)))


def test_features_describe_each_pair():
    text = "He said that the plan failed."
    qas = read_qas(text)
    feats = F.features(qas, text)
    assert len(feats) == len(qas)
    for q, f in zip(qas, feats):
        assert f["bias"] == 1.0 and f[f"type={q.predicate_type}"] == 1.0
        assert 0.0 <= f["covered_share"] <= 1.0
    he = next(f for q, f in zip(qas, feats) if q.answer == "He")
    assert he["pronoun"] == 1.0 and he["one_word"] == 1.0


def test_logistic_regression_separates_and_auc():
    rng = np.random.default_rng(0)
    x = np.c_[np.ones(200), rng.normal(size=200)]
    y = (x[:, 1] + 0.3 * rng.normal(size=200) > 0).astype(float)
    w = F.fit(x, y, l2=0.1)
    assert w[1] > 1.0
    assert F.auc(list(x @ w), list(y.astype(int))) > 0.9
    assert F.auc([0.1, 0.9], [0, 1]) == 1.0
