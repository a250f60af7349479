"""The lexical model's fitting procedures (train_lexical) on real dev rows of qasem_consistency_qa."""

from __future__ import annotations

import io

import numpy as np
import pytest

from factgrain.agent.verifiers.lexical_features import FEATURE_NAMES, load_default
from factgrain.evals import train_lexical as T


@pytest.fixture(scope="module")
def dev_slice():
    rows = [r for r in T.load_rows() if r["split"] == "dev"]
    # whole articles, all three subsets: every 4th article group
    groups = T.article_groups(rows)
    keep = [i for i, g in enumerate(groups) if g % 4 == 0]
    part = [rows[i] for i in keep]
    X = T.featurize(part)
    y = np.array([r["label"] for r in part], dtype=float)
    return part, X, y, T.article_groups(part)


def test_sign_constraints_hold_a_wrong_signed_coefficient_at_zero():
    rng = np.random.default_rng(0)
    a = rng.normal(size=400)
    b = a + 0.5 * rng.normal(size=400)
    X = np.stack([a, b], axis=1)
    y = (2 * a - b + 0.3 * rng.normal(size=400) > 0).astype(float)  # the second column pushes the wrong way
    w_free, _ = T.fit_logistic(X, y, 0.01)
    assert w_free[0] > 0 and w_free[1] < 0
    w, _ = T.fit_logistic(X, y, 0.01, signs=np.array([+1, +1]))
    assert w[0] > 0 and w[1] == 0.0
    w_one, _ = T.fit_logistic(X[:, :1], y, 0.01)
    assert w[0] == pytest.approx(w_one[0])  # the same as fitting without the held column


def test_balanced_weights_put_the_cut_off_at_one_half():
    y = np.array([1.0] * 75 + [0.0] * 25)
    w = T.balanced_weights(y)
    assert w[y == 1].sum() == pytest.approx(w[y == 0].sum()) and w.mean() == pytest.approx(1.0)
    # with no feature, the weighted fit predicts 0.5 for every row, not the 75 % share
    coef, b = T.fit_logistic(np.zeros((100, 1)), y, 1.0, weights=w)
    assert 1 / (1 + np.exp(-b)) == pytest.approx(0.5, abs=1e-6)
    coef, b = T.fit_logistic(np.zeros((100, 1)), y, 1.0)
    assert 1 / (1 + np.exp(-b)) == pytest.approx(0.75, abs=1e-6)


def test_monotone_procedure_on_real_rows_obeys_its_signs(dev_slice):
    _, X, y, g = dev_slice
    chosen = T.fit_procedure("monotone", X, y, g)
    w, b, mu, sd = T.apply_fit(chosen, X, y)
    names = [FEATURE_NAMES[i] for i in chosen["cols"]]
    signs = T.feature_signs(names)
    assert not any(n in T.VETOES for n in names)
    assert ((signs == 0) | (w * signs >= 0)).all()
    assert chosen["threshold"] == 0.5 and chosen["lam"] in T.LAMBDAS
    p = 1 / (1 + np.exp(-(((X[:, chosen["cols"]] - mu) / sd) @ w + b)))
    # in-sample the model must rank supported units above unsupported ones, and 0.5 must split both classes
    from factgrain.evals.metrics import roc_auc

    assert roc_auc(y, p) > 0.8
    assert 0.2 < (p[y == 1] >= 0.5).mean() and (p[y == 0] < 0.5).mean() > 0.5


def test_interact_procedure_adds_products_of_the_strongest_signed_features(dev_slice):
    _, X, y, g = dev_slice
    chosen = T.fit_procedure("interact", X, y, g)
    top = chosen["interacting"]
    assert len(top) == T.INTERACTION_TOP_K and all(T.FEATURE_SIGNS.get(n) for n in top)
    products = [n for n in chosen["names"] if "*" in n]
    assert products == T.interaction_names(top) and len(products) == len(top) * (len(top) - 1) // 2
    assert chosen["names"][: len(chosen["cols"])] == [FEATURE_NAMES[i] for i in chosen["cols"]]
    # a factor that counts against support enters oriented: ~name_absent
    assert all(not p.startswith("name_absent") and "*name_absent" not in p for p in products)
    w = T.apply_fit(chosen, X, y)[0]
    signs = T.feature_signs(chosen["names"])
    assert ((signs == 0) | (w * signs >= 0)).all() and chosen["threshold"] == 0.5
    # the design matrix gives what the shipped model computes from one row's features
    from factgrain.agent.verifiers.lexical_features import feature_value

    row = dict(zip(FEATURE_NAMES, X[0]))
    D = T.design_matrix(X[:1], chosen["names"])
    assert D[0] == pytest.approx([feature_value(row, n) for n in chosen["names"]])


def test_nested_cv_table_reports_every_subset(dev_slice):
    part, X, y, g = dev_slice
    subsets = np.array([r["subset"] for r in part])
    res = T.nested_cv(X, y, g, subsets, seeds=(0,), procedures=("monotone", "overlap"))
    for k in ("monotone", "overlap"):
        assert res[k]["subsets"] == (*T.SUBSETS, "all")
        assert all(0.5 < a <= 1.0 for a in res[k]["auc"]), res[k]["auc"]
        assert all(0.0 <= b <= 1.0 for b in res[k]["bacc"])
    out = io.StringIO()
    T.print_nested_table(res, file=out)
    lines = out.getvalue().splitlines()
    assert lines[2].startswith("| monotone |") and lines[3].startswith("| overlap |")


def test_shipped_model_is_the_boosted_fit_and_monotone_in_every_signed_feature():
    """The shipped trees keep FEATURE_SIGNS: raising a +1 feature never lowers the logit, raising a -1
    feature never raises it, on real feature rows of dev QAs."""
    model = load_default()
    assert model.meta["procedure"] == "boosted" and model.threshold == 0.5
    assert model.meta["training_command"] == "python -m factgrain.evals.train_lexical"
    rows = [r for r in T.load_rows("qasem_consistency_qa") if r["split"] == "dev"][:60]
    X = T.featurize(rows)
    signed = [n for n in model.feature_names if T.FEATURE_SIGNS.get(n)]
    assert len(signed) >= 10
    checked = 0
    for x in X:
        vals = dict(zip(T.FEATURE_NAMES, x))
        z = model.raw_logit(vals)
        for n in signed:
            for step in (0.1, 0.5, 1.0):
                z2 = model.raw_logit({**vals, n: vals[n] + step})
                assert (z2 - z) * T.FEATURE_SIGNS[n] >= -1e-9, (n, step, z, z2)
                checked += 1
    assert checked == len(X) * len(signed) * 3

def test_grouped_bootstrap_draws_whole_articles(dev_slice):
    _, _, _, g = dev_slice
    for w in T.grouped_bootstrap(g, 3, seed=1):
        for group in np.unique(g):
            assert len(set(w[g == group])) == 1  # every row of an article drawn as often as the others
        assert 0 < (w > 0).mean() < 1


def test_a_bag_of_trees_exports_to_one_model_with_the_mean_logit(dev_slice):
    from factgrain.agent.verifiers.lexical_boosted import from_sklearn

    _, X, y, g = dev_slice
    cols = [i for i, n in enumerate(FEATURE_NAMES) if n not in T.VETOES]
    config = {**T.BOOST_GRID[0], "max_iter": 20}
    ests = T.fit_bagged_estimators(config, cols, X, y, g, n=3)
    model = T.bag_model([from_sklearn(e, [FEATURE_NAMES[i] for i in cols]) for e in ests], vetoes=list(T.VETOES))
    mine = np.array([model.raw_logit(dict(zip(FEATURE_NAMES, x))) for x in X[:40]])
    assert mine == pytest.approx(T._bag_logit(ests, X[:40][:, cols]), abs=1e-6)
    assert len(model.trees) == 3 * 20


def test_the_shipped_model_applies_every_veto():
    assert set(load_default().vetoes) == set(T.VETOES) >= {"role_clash", "person_swap", "agent_clash", "antonym_clash"}
