"""Tests for factgrain.evals.metrics: hand-computed cases plus property tests."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factgrain.evals.metrics import (
    ReliabilityBin,
    balanced_accuracy,
    best_threshold,
    bootstrap_ci,
    expected_calibration_error,
    precision_recall_f1,
    rankdata,
    reliability_bins,
    roc_auc,
    spearman,
)

# --------------------------------------------------------------------------- #
# reference implementations used only by the tests
# --------------------------------------------------------------------------- #


def pairwise_auc(y, s):
    """O(n^2) AUC: P(score_pos > score_neg) + 0.5 * P(tie)."""
    pos = [b for a, b in zip(y, s) if a == 1]
    neg = [b for a, b in zip(y, s) if a == 0]
    total = 0.0
    for p in pos:
        for q in neg:
            total += 1.0 if p > q else 0.5 if p == q else 0.0
    return total / (len(pos) * len(neg))


# --------------------------------------------------------------------------- #
# balanced accuracy
# --------------------------------------------------------------------------- #


def test_balanced_accuracy_by_hand():
    # class 1: 2 of 3 right; class 0: 1 of 2 right -> (2/3 + 1/2) / 2 = 7/12
    y = [1, 1, 1, 0, 0]
    p = [1, 0, 1, 0, 1]
    assert balanced_accuracy(y, p) == pytest.approx(7 / 12)


def test_balanced_accuracy_differs_from_accuracy_on_imbalance():
    y = [1] * 9 + [0]
    p = [1] * 10  # accuracy 0.9, but class 0 recall is 0
    assert balanced_accuracy(y, p) == pytest.approx(0.5)


def test_balanced_accuracy_multiclass_and_strings():
    y = ["a", "a", "b", "c", "c", "c"]
    p = ["a", "b", "b", "c", "a", "c"]
    # a: 1/2, b: 1/1, c: 2/3
    assert balanced_accuracy(y, p) == pytest.approx((0.5 + 1 + 2 / 3) / 3)


def test_balanced_accuracy_single_class_is_recall():
    assert balanced_accuracy([1, 1, 1, 1], [1, 0, 1, 1]) == pytest.approx(0.75)


def test_balanced_accuracy_errors():
    with pytest.raises(ValueError, match="empty"):
        balanced_accuracy([], [])
    with pytest.raises(ValueError, match="same length"):
        balanced_accuracy([1, 0], [1])


@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=60),
    st.randoms(use_true_random=False),
)
def test_balanced_accuracy_permutation_and_relabel_invariance(pairs, rnd):
    y = [a for a, _ in pairs]
    p = [b for _, b in pairs]
    base = balanced_accuracy(y, p)
    assert 0.0 <= base <= 1.0
    order = list(range(len(y)))
    rnd.shuffle(order)
    assert balanced_accuracy([y[i] for i in order], [p[i] for i in order]) == pytest.approx(base)
    # renaming the classes consistently in both vectors changes nothing
    assert balanced_accuracy([1 - v for v in y], [1 - v for v in p]) == pytest.approx(base)


@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=40),
    st.integers(2, 5),
)
def test_balanced_accuracy_invariant_to_class_reweighting(pairs, k):
    # duplicating every row of class 1 k times changes accuracy, not balanced accuracy
    y = [a for a, _ in pairs]
    p = [b for _, b in pairs]
    y2, p2 = [], []
    for a, b in pairs:
        reps = k if a == 1 else 1
        y2 += [a] * reps
        p2 += [b] * reps
    assert balanced_accuracy(y2, p2) == pytest.approx(balanced_accuracy(y, p))


# --------------------------------------------------------------------------- #
# precision / recall / F1
# --------------------------------------------------------------------------- #


def test_precision_recall_f1_by_hand():
    # tp = 1, predicted positives = 2, actual positives = 3
    out = precision_recall_f1([1, 1, 1, 0], [1, 0, 0, 1])
    assert out["precision"] == pytest.approx(0.5)
    assert out["recall"] == pytest.approx(1 / 3)
    assert out["f1"] == pytest.approx(2 * 0.5 * (1 / 3) / (0.5 + 1 / 3))  # 0.4
    assert out["f1"] == pytest.approx(0.4)


def test_precision_recall_f1_positive_zero():
    # scoring the "not supported" class: tp = 1 (index 3), predicted 0s = 3, true 0s = 1
    out = precision_recall_f1([1, 1, 1, 0], [1, 0, 0, 0], positive=0)
    assert out["precision"] == pytest.approx(1 / 3)
    assert out["recall"] == pytest.approx(1.0)
    assert out["f1"] == pytest.approx(0.5)


def test_precision_recall_f1_zero_division_is_zero():
    out = precision_recall_f1([1, 0, 1], [0, 0, 0])
    assert out == {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    with pytest.raises(ValueError, match="empty"):
        precision_recall_f1([], [])


# --------------------------------------------------------------------------- #
# ROC AUC
# --------------------------------------------------------------------------- #


def test_roc_auc_by_hand_no_ties():
    # pairs (pos, neg): 0.35>0.1, 0.35<0.4, 0.8>0.1, 0.8>0.4 -> 3/4
    assert roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == pytest.approx(0.75)


def test_roc_auc_by_hand_with_ties():
    # pos {0.5, 0.9}, neg {0.5, 0.2}: 0.5 vs 0.5 tie = 0.5, the other 3 pairs win
    assert roc_auc([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9]) == pytest.approx(3.5 / 4)
    # all scores tied -> chance
    assert roc_auc([0, 1, 1, 0, 1], [2, 2, 2, 2, 2]) == pytest.approx(0.5)


def test_roc_auc_perfect_and_inverted():
    assert roc_auc([0, 0, 1, 1], [1, 2, 3, 4]) == 1.0
    assert roc_auc([1, 1, 0, 0], [1, 2, 3, 4]) == 0.0


def test_roc_auc_single_class_is_nan_and_errors():
    assert math.isnan(roc_auc([1, 1, 1], [0.1, 0.2, 0.3]))
    assert math.isnan(roc_auc([0], [0.1]))
    with pytest.raises(ValueError, match="empty"):
        roc_auc([], [])
    with pytest.raises(ValueError, match="0/1"):
        roc_auc([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="nan"):
        roc_auc([0, 1], [0.1, float("nan")])


two_class_data = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < len(y)),
        # small integer scores force plenty of ties
        st.lists(st.integers(-5, 5), min_size=n, max_size=n),
    )
)


@given(two_class_data)
def test_roc_auc_properties(data):
    y, s = data
    auc = roc_auc(y, s)
    assert 0.0 <= auc <= 1.0
    assert roc_auc(y, [-v for v in s]) == pytest.approx(1.0 - auc)
    assert auc == pytest.approx(pairwise_auc(y, s))
    # swapping which class is positive is the same as negating scores
    assert roc_auc([1 - v for v in y], s) == pytest.approx(1.0 - auc)


@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=50),
)
def test_rankdata_sums_and_ties(values):
    r = rankdata(values)
    n = len(values)
    assert r.sum() == pytest.approx(n * (n + 1) / 2)
    for i in range(n):
        for j in range(n):
            if values[i] == values[j]:
                assert r[i] == r[j]
            elif values[i] < values[j]:
                assert r[i] < r[j]


# --------------------------------------------------------------------------- #
# Spearman
# --------------------------------------------------------------------------- #


def test_spearman_with_ties_by_hand():
    # ranks x = [1, 2.5, 2.5, 4], y = [1, 3, 2, 4]; centred at 2.5:
    # x' = [-1.5, 0, 0, 1.5], y' = [-1.5, .5, -.5, 1.5]
    # sum x'y' = 4.5, sum x'^2 = 4.5, sum y'^2 = 5 -> 4.5 / sqrt(22.5) = 3 / sqrt(10)
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(3 / math.sqrt(10))


def test_spearman_without_ties_matches_textbook_formula():
    x = [10, 20, 30, 40, 50]
    y = [3, 1, 4, 5, 2]
    # 1 - 6 * sum d^2 / (n (n^2 - 1)); ranks y = [3, 1, 4, 5, 2], d = [-2, 1, -1, -1, 3]
    d2 = 4 + 1 + 1 + 1 + 9
    assert spearman(x, y) == pytest.approx(1 - 6 * d2 / (5 * 24))


def test_spearman_degenerate():
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    with pytest.raises(ValueError, match="two points"):
        spearman([1], [2])
    with pytest.raises(ValueError, match="empty"):
        spearman([], [])


@given(
    st.integers(2, 30).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(-10, 10), min_size=n, max_size=n),
            st.lists(st.integers(-10, 10), min_size=n, max_size=n),
        )
    )
)
def test_spearman_properties(data):
    x, y = data
    rho = spearman(x, y)
    if math.isnan(rho):
        assert len(set(x)) == 1 or len(set(y)) == 1
        return
    assert -1.0 <= rho <= 1.0
    assert spearman(y, x) == pytest.approx(rho)
    # a strictly increasing transform keeps ranks, a decreasing one flips the sign
    assert spearman([v**3 + 7 for v in x], y) == pytest.approx(rho)
    assert spearman([-v for v in x], y) == pytest.approx(-rho)


# --------------------------------------------------------------------------- #
# bootstrap
# --------------------------------------------------------------------------- #


def _toy_classification(n=200, seed=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=n)
    flip = rng.random(n) < 0.25
    p = np.where(flip, 1 - y, y)
    return y, p


def test_bootstrap_ci_contains_point_and_is_deterministic():
    y, p = _toy_classification()
    point = balanced_accuracy(y, p)
    low, high = bootstrap_ci(balanced_accuracy, y, p, n=300, seed=3)
    assert low < point < high
    assert high - low < 0.3
    assert bootstrap_ci(balanced_accuracy, y, p, n=300, seed=3) == (low, high)
    assert bootstrap_ci(balanced_accuracy, y, p, n=300, seed=4) != (low, high)


def test_bootstrap_ci_narrows_with_alpha():
    y, p = _toy_classification()
    lo95, hi95 = bootstrap_ci(balanced_accuracy, y, p, n=300, alpha=0.05)
    lo50, hi50 = bootstrap_ci(balanced_accuracy, y, p, n=300, alpha=0.5)
    assert lo95 <= lo50 <= hi50 <= hi95
    assert hi50 - lo50 < hi95 - lo95


def test_bootstrap_ci_constant_metric_and_nan_replicates():
    y = np.array([1, 1, 1, 0])
    assert bootstrap_ci(lambda a: 0.7, y, n=20) == (0.7, 0.7)
    # AUC on a resample with one class is nan; those replicates are dropped
    low, high = bootstrap_ci(roc_auc, y, np.array([0.9, 0.8, 0.7, 0.1]), n=100)
    assert low == high == 1.0
    assert all(math.isnan(v) for v in bootstrap_ci(lambda a: float("nan"), y, n=5))


def test_bootstrap_ci_errors():
    with pytest.raises(ValueError, match="at least one array"):
        bootstrap_ci(np.mean)
    with pytest.raises(ValueError, match="empty"):
        bootstrap_ci(np.mean, [])
    with pytest.raises(ValueError, match="same length"):
        bootstrap_ci(balanced_accuracy, [1, 0], [1])
    with pytest.raises(ValueError, match="alpha"):
        bootstrap_ci(np.mean, [1, 2], alpha=1.5)
    with pytest.raises(ValueError, match="groups"):
        bootstrap_ci(np.mean, [1, 2], groups=[1])


def test_cluster_bootstrap_keeps_groups_whole():
    group_sizes = {"a": 1, "b": 2, "c": 3, "d": 4}
    groups = np.array([g for g, k in group_sizes.items() for _ in range(k)])
    values = np.arange(len(groups), dtype=float)
    seen_sizes = []

    def check(vals, grp):
        # every group drawn m times must contribute exactly m * size rows,
        # and all of the group's distinct rows each time
        for g, k in group_sizes.items():
            rows = vals[grp == g]
            assert len(rows) % k == 0
            m = len(rows) // k
            expected = np.repeat(values[groups == g], m)
            assert sorted(rows) == sorted(expected)
        seen_sizes.append(len(vals))
        return float(vals.mean())

    bootstrap_ci(check, values, groups, n=50, seed=0, groups=groups)
    assert len(seen_sizes) == 50
    # resample sizes vary because groups differ in size -> proof that whole groups are drawn
    assert len(set(seen_sizes)) > 1


def test_cluster_bootstrap_wider_for_clustered_data():
    # 10 groups of 20 identical rows: the effective sample size is 10, not 200
    rng = np.random.default_rng(0)
    group_vals = rng.integers(0, 2, size=10).astype(float)
    group_vals[:2] = [0.0, 1.0]
    x = np.repeat(group_vals, 20)
    groups = np.repeat(np.arange(10), 20)
    lo_iid, hi_iid = bootstrap_ci(np.mean, x, n=500, seed=1)
    lo_cl, hi_cl = bootstrap_ci(np.mean, x, n=500, seed=1, groups=groups)
    assert (hi_cl - lo_cl) > 1.5 * (hi_iid - lo_iid)
    assert lo_cl <= x.mean() <= hi_cl
    # deterministic with a seed
    assert bootstrap_ci(np.mean, x, n=500, seed=1, groups=groups) == (lo_cl, hi_cl)


# --------------------------------------------------------------------------- #
# best threshold
# --------------------------------------------------------------------------- #


def test_best_threshold_separable():
    thr, val = best_threshold([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4])
    assert thr == pytest.approx(0.25)
    assert val == 1.0


def test_best_threshold_by_hand_not_separable():
    y = [0, 1, 0, 1, 1]
    s = [0.1, 0.2, 0.3, 0.4, 0.5]
    # candidates 0.15 -> TPR 1, TNR 1/2 -> 0.75; 0.35 -> TPR 2/3, TNR 1 -> 0.8333
    thr, val = best_threshold(y, s)
    assert thr == pytest.approx(0.35)
    assert val == pytest.approx((2 / 3 + 1) / 2)


def test_best_threshold_single_unique_score_and_custom_metric():
    thr, val = best_threshold([0, 1, 1], [0.5, 0.5, 0.5])
    assert val == pytest.approx(0.5)
    assert math.isinf(thr)

    def f1(y, p):
        return precision_recall_f1(y, p)["f1"]

    # candidates: -inf -> P 1/2, R 1, F1 2/3; 0.15 -> P 3/5, R 1, F1 3/4;
    # 0.25 -> P 3/4, R 1, F1 6/7; 0.325 -> P 2/3, R 2/3, F1 2/3; 0.475 -> P 1, R 2/3, F1 4/5
    thr, val = best_threshold([0, 0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.35, 0.6, 0.9], metric=f1)
    assert thr == pytest.approx(0.25)
    assert val == pytest.approx(6 / 7)


@settings(max_examples=60)
@given(two_class_data)
def test_best_threshold_fast_path_matches_generic(data):
    y, s = data
    thr_fast, val_fast = best_threshold(y, s)
    thr_slow, val_slow = best_threshold(y, s, metric=lambda a, b: balanced_accuracy(a, b))
    assert val_fast == pytest.approx(val_slow)
    assert thr_fast == thr_slow
    # the reported value is what the threshold actually achieves
    pred = (np.asarray(s, dtype=float) >= thr_fast).astype(int)
    assert balanced_accuracy(y, pred) == pytest.approx(val_fast)


# --------------------------------------------------------------------------- #
# calibration
# --------------------------------------------------------------------------- #


def test_reliability_bins_by_hand():
    y = [0, 1, 1, 1, 0]
    p = [0.1, 0.2, 0.8, 0.9, 1.0]
    bins = reliability_bins(y, p, n_bins=2)
    assert len(bins) == 2
    lo, hi = bins
    assert isinstance(lo, ReliabilityBin)
    assert lo.count == 2 and lo.mean_prob == pytest.approx(0.15) and lo.frac_positive == 0.5
    # 1.0 falls in the last bin
    assert hi.count == 3 and hi.mean_prob == pytest.approx(0.9)
    assert hi.frac_positive == pytest.approx(2 / 3)
    # ECE = 2/5 * |0.5 - 0.15| + 3/5 * |2/3 - 0.9|
    expected = 0.4 * 0.35 + 0.6 * abs(2 / 3 - 0.9)
    assert expected_calibration_error(y, p, n_bins=2) == pytest.approx(expected)


def test_reliability_bins_empty_bins_and_errors():
    bins = reliability_bins([1, 0], [0.05, 0.06], n_bins=4)
    assert [b.count for b in bins] == [2, 0, 0, 0]
    assert math.isnan(bins[1].mean_prob) and math.isnan(bins[1].frac_positive)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        reliability_bins([1], [1.5])
    with pytest.raises(ValueError, match="n_bins"):
        reliability_bins([1], [0.5], n_bins=0)
    with pytest.raises(ValueError, match="empty"):
        expected_calibration_error([], [])


def test_ece_perfectly_calibrated_is_zero():
    # bin [0.2, 0.3): prob 0.25 with 1 of 4 positive; bin [0.7, 0.8): 0.75 with 3 of 4
    y = [1, 0, 0, 0, 1, 1, 1, 0]
    p = [0.25] * 4 + [0.75] * 4
    assert expected_calibration_error(y, p) == pytest.approx(0.0)


@given(
    st.integers(1, 40).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 1), min_size=n, max_size=n),
            st.lists(st.floats(0, 1), min_size=n, max_size=n),
        )
    ),
    st.integers(1, 15),
)
def test_reliability_bins_properties(data, n_bins):
    y, p = data
    bins = reliability_bins(y, p, n_bins=n_bins)
    assert len(bins) == n_bins
    assert sum(b.count for b in bins) == len(y)
    for k, b in enumerate(bins):
        if b.count:
            assert k / n_bins - 1e-12 <= b.mean_prob <= (k + 1) / n_bins + 1e-12
    assert 0.0 <= expected_calibration_error(y, p, n_bins=n_bins) <= 1.0
