"""The boosted-trees support model: export from scikit-learn, evaluation, contributions, vetoes, JSON."""

import json
import math

import numpy as np
import pytest

from factgrain.agent.verifiers.lexical_boosted import BoostedModel, Tree, dumps, from_sklearn
from factgrain.agent.verifiers.lexical_features import model_from_dict

sklearn = pytest.importorskip("sklearn.ensemble", reason="scikit-learn fits the trees (the dev extra)")


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(600, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] - 0.3 * X[:, 2] + rng.normal(scale=0.3, size=600) > 0.6).astype(int)
    est = sklearn.HistGradientBoostingClassifier(max_depth=2, max_iter=40, monotonic_cst=[1, 1, -1], random_state=0)
    est.fit(X, y)
    return est, X


def test_exported_trees_give_scikit_learns_scores(fitted):
    est, X = fitted
    model = from_sklearn(est, ["a", "b", "c"])
    mine = np.array([model.raw_logit(dict(zip("abc", x))) for x in X])
    assert np.allclose(mine, est.decision_function(X), atol=1e-9)
    assert np.allclose([model.prob(dict(zip("abc", x))) for x in X[:50]], est.predict_proba(X[:50])[:, 1], atol=1e-9)


def test_contributions_add_up_to_the_logit(fitted):
    est, X = fitted
    model = from_sklearn(est, ["a", "b", "c"])
    for x in X[:40]:
        vals = dict(zip("abc", x))
        assert model.bias + sum(model.contributions(vals).values()) == pytest.approx(model.raw_logit(vals), abs=1e-9)
    # the feature the label depends on most moves the logit most, on average
    mean_abs = {n: np.mean([abs(model.contributions(dict(zip("abc", x))).get(n, 0.0)) for x in X]) for n in "abc"}
    assert max(mean_abs, key=mean_abs.get) == "a"


def test_a_veto_caps_the_probability_and_json_round_trips(fitted):
    est, X = fitted
    model = from_sklearn(est, ["a", "b", "c"], vetoes=["clash"], veto_probability=0.2)
    vals = {"a": 1.0, "b": 1.0, "c": 0.0, "clash": 0.0}
    assert model.prob(vals) > 0.8 and not model.vetoed(vals)
    assert model.vetoed({**vals, "clash": 1.0}) == ["clash"]
    assert model.prob({**vals, "clash": 1.0}) == pytest.approx(0.2)
    again = model_from_dict(json.loads(dumps(model)))
    assert isinstance(again, BoostedModel)
    for x in X[:30]:
        v = {**dict(zip("abc", x)), "clash": 0.0}
        assert again.prob(v) == pytest.approx(model.prob(v), abs=1e-7)


def test_bad_model_files_are_refused():
    with pytest.raises(ValueError, match="outside the 1 feature names"):
        BoostedModel(feature_names=["a"], base_logit=0.0,
                     trees=[Tree(feature=[3, -1, -1], threshold=[0.5, 0, 0], left=[1, 0, 0], right=[2, 0, 0],
                                 value=[0.0, -1.0, 1.0], is_leaf=[False, True, True])])
    with pytest.raises(ValueError, match="equal length"):
        Tree.from_dict({"feature": [0], "threshold": [0.5, 1], "left": [1], "right": [2], "value": [0.0], "is_leaf": [0]})
    with pytest.raises(ValueError, match="unknown lexical model kind"):
        model_from_dict({"kind": "forest"})


def test_a_single_tree_reads_like_its_rule():
    # x <= 0.5 -> -1, else +1, on top of base 0
    tree = Tree(feature=[0, -1, -1], threshold=[0.5, 0.0, 0.0], left=[1, 0, 0], right=[2, 0, 0],
                value=[0.0, -1.0, 1.0], is_leaf=[False, True, True])
    model = BoostedModel(feature_names=["cov"], trees=[tree], base_logit=0.0)
    assert model.prob({"cov": 0.2}) == pytest.approx(1 / (1 + math.e))
    assert model.predict({"cov": 0.9}) and not model.predict({"cov": 0.5})
    assert model.contributions({"cov": 0.9}) == {"cov": pytest.approx(1.0)}
