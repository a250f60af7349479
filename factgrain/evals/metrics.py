"""Evaluation metrics for factgrain, written against numpy only.

Conventions shared by every function here:

* Inputs are 1-D array-likes (lists, tuples, numpy arrays). Paired inputs must
  have the same length; a mismatch raises ``ValueError``.
* **Empty input always raises ``ValueError``** -- a metric over zero examples is
  a bug in the caller, not a number.
* Input that is non-empty but *degenerate* for a particular metric (one class
  only for AUC, a constant vector for Spearman, ...) returns ``nan`` where the
  quantity is mathematically undefined. Each function's docstring says exactly
  which cases those are. ``nan`` rather than an exception keeps bootstrap
  resampling usable: :func:`bootstrap_ci` drops ``nan`` replicates.
* Scores / probabilities must be finite; ``nan`` or ``inf`` in them raises
  ``ValueError``.

Binary labels are expected as ``0``/``1`` (``bool`` also works). In factgrain
``1`` means *supported* and ``0`` *not supported*, but nothing here depends on
that reading.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

__all__ = [
    "balanced_accuracy",
    "roc_auc",
    "precision_recall_f1",
    "spearman",
    "rankdata",
    "bootstrap_ci",
    "best_threshold",
    "ReliabilityBin",
    "reliability_bins",
    "expected_calibration_error",
]


# --------------------------------------------------------------------------- #
# input validation helpers
# --------------------------------------------------------------------------- #


def _as_1d(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty; metrics are undefined on zero examples")
    return arr


def _as_finite_float(values: Any, name: str) -> np.ndarray:
    arr = _as_1d(values, name)
    try:
        arr = arr.astype(float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric: {exc}") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains nan or inf values")
    return arr


def _as_binary(values: Any, name: str) -> np.ndarray:
    arr = _as_1d(values, name)
    if arr.dtype == bool:
        return arr.astype(np.int64)
    try:
        as_float = arr.astype(float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must contain only 0/1 labels") from None
    if not np.all((as_float == 0) | (as_float == 1)):
        bad = sorted({v for v in arr.tolist() if v not in (0, 1)}, key=repr)[:5]
        raise ValueError(f"{name} must contain only 0/1 labels, found {bad!r}")
    return as_float.astype(np.int64)


def _same_length(**arrays: np.ndarray) -> None:
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"{k}={v}" for k, v in lengths.items())
        raise ValueError(f"inputs must have the same length, got {desc}")


# --------------------------------------------------------------------------- #
# classification metrics
# --------------------------------------------------------------------------- #


def balanced_accuracy(y_true: Sequence[Any], y_pred: Sequence[Any]) -> float:
    """Mean per-class recall, averaged over the classes present in ``y_true``.

    Works for any hashable/comparable labels (binary or multi-class). Predicted
    labels that never occur in ``y_true`` simply count as errors.

    Degenerate input: when ``y_true`` holds a single class the result is the
    recall of that class (i.e. plain accuracy), matching scikit-learn's value.
    Empty input or a length mismatch raises ``ValueError``.
    """
    t = _as_1d(y_true, "y_true")
    p = _as_1d(y_pred, "y_pred")
    _same_length(y_true=t, y_pred=p)
    classes, inverse = np.unique(t, return_inverse=True)
    correct = (t == p).astype(float)
    per_class_hits = np.bincount(inverse, weights=correct, minlength=len(classes))
    per_class_total = np.bincount(inverse, minlength=len(classes))
    return float(np.mean(per_class_hits / per_class_total))


def precision_recall_f1(
    y_true: Sequence[Any], y_pred: Sequence[Any], positive: Any = 1
) -> dict[str, float]:
    """Precision, recall and F1 of the ``positive`` class.

    Returns ``{"precision": ..., "recall": ..., "f1": ...}``.

    Degenerate input: a ratio whose denominator is zero (nothing predicted
    positive -> precision; no true positives in ``y_true`` -> recall;
    precision + recall == 0 -> F1) is reported as ``0.0``, the same convention
    scikit-learn uses by default. Empty input or a length mismatch raises
    ``ValueError``.
    """
    t = _as_1d(y_true, "y_true")
    p = _as_1d(y_pred, "y_pred")
    _same_length(y_true=t, y_pred=p)
    true_pos = t == positive
    pred_pos = p == positive
    tp = float(np.sum(true_pos & pred_pos))
    n_pred = float(np.sum(pred_pos))
    n_true = float(np.sum(true_pos))
    precision = tp / n_pred if n_pred else 0.0
    recall = tp / n_true if n_true else 0.0
    f1 = 2 * precision * recall / (precision + recall) if (precision + recall) else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


# --------------------------------------------------------------------------- #
# ranking metrics
# --------------------------------------------------------------------------- #


def rankdata(values: Sequence[float]) -> np.ndarray:
    """1-based ranks of ``values``; tied values all get their average rank.

    Empty input or non-finite values raise ``ValueError``.
    """
    x = _as_finite_float(values, "values")
    order = np.argsort(x, kind="mergesort")
    sorted_x = x[order]
    # start index of each run of equal values in the sorted order
    new_run = np.concatenate(([True], sorted_x[1:] != sorted_x[:-1]))
    run_id = np.cumsum(new_run) - 1
    run_starts = np.flatnonzero(new_run)
    run_ends = np.concatenate((run_starts[1:], [len(x)]))  # exclusive
    # ranks run_start+1 .. run_end averaged
    avg_rank = (run_starts + 1 + run_ends) / 2.0
    ranks = np.empty(len(x), dtype=float)
    ranks[order] = avg_rank[run_id]
    return ranks


def roc_auc(y_true: Sequence[Any], scores: Sequence[float]) -> float:
    """Area under the ROC curve for binary labels (positive class = ``1``).

    Computed from the Mann-Whitney U statistic on ranks, with tied scores
    sharing their average rank -- so a positive/negative pair with equal scores
    counts one half. Higher scores are taken to mean "more likely positive".

    Degenerate input: returns ``nan`` when ``y_true`` contains only one class.
    Empty input, a length mismatch, labels other than 0/1, or non-finite scores
    raise ``ValueError``.
    """
    t = _as_binary(y_true, "y_true")
    s = _as_finite_float(scores, "scores")
    _same_length(y_true=t, scores=s)
    n_pos = int(t.sum())
    n_neg = len(t) - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    ranks = rankdata(s)
    u = ranks[t == 1].sum() - n_pos * (n_pos + 1) / 2.0
    return float(u / (n_pos * n_neg))


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation, tie-aware (Pearson correlation of average ranks).

    Degenerate input: returns ``nan`` when either input is constant (its ranks
    have zero variance). Fewer than two points, a length mismatch or non-finite
    values raise ``ValueError``.
    """
    a = _as_finite_float(x, "x")
    b = _as_finite_float(y, "y")
    _same_length(x=a, y=b)
    if len(a) < 2:
        raise ValueError("spearman needs at least two points")
    ra = rankdata(a) - (len(a) + 1) / 2.0
    rb = rankdata(b) - (len(b) + 1) / 2.0
    denom = np.sqrt(np.sum(ra * ra) * np.sum(rb * rb))
    if denom == 0:
        return float("nan")
    return float(np.clip(np.sum(ra * rb) / denom, -1.0, 1.0))


# --------------------------------------------------------------------------- #
# bootstrap confidence intervals
# --------------------------------------------------------------------------- #


def bootstrap_ci(
    metric_fn: Callable[..., float],
    *arrays: Sequence[Any],
    n: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
    groups: Sequence[Any] | None = None,
) -> tuple[float, float]:
    """Percentile bootstrap ``(low, high)`` interval for ``metric_fn(*arrays)``.

    Every replicate resamples the *rows* of all ``arrays`` jointly (the same
    indices for each array) and calls ``metric_fn`` on the resampled arrays.
    The interval is the ``alpha/2`` and ``1 - alpha/2`` percentiles of the
    replicate values.

    ``groups``, when given, is one group id per row (e.g. the article a claim
    comes from). Then whole groups are resampled with replacement -- a cluster
    bootstrap -- so that correlated rows of one group stay together; a group
    drawn twice contributes all its rows twice.

    The result is deterministic for a fixed ``seed``.

    Degenerate cases: replicates where ``metric_fn`` returns ``nan`` (e.g. an
    AUC on a one-class resample) are dropped; if every replicate is ``nan`` the
    result is ``(nan, nan)``. No arrays, empty arrays, a length mismatch,
    ``n < 1`` or ``alpha`` outside (0, 1) raise ``ValueError``.
    """
    if not arrays:
        raise ValueError("bootstrap_ci needs at least one array to resample")
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    arrs = [np.asarray(a) for a in arrays]
    for i, a in enumerate(arrs):
        if a.ndim == 0 or len(a) == 0:
            raise ValueError(f"array #{i} is empty; nothing to resample")
    _same_length(**{f"array{i}": a for i, a in enumerate(arrs)})
    n_rows = len(arrs[0])
    rng = np.random.default_rng(seed)

    if groups is None:
        def draw() -> np.ndarray:
            return rng.integers(0, n_rows, size=n_rows)
    else:
        g = np.asarray(groups)
        if g.ndim != 1 or len(g) != n_rows:
            raise ValueError(
                f"groups must be 1-D with one id per row ({n_rows}), got shape {g.shape}"
            )
        _, group_index = np.unique(g, return_inverse=True)
        order = np.argsort(group_index, kind="mergesort")
        counts = np.bincount(group_index)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        members = [order[s : s + c] for s, c in zip(starts, counts)]
        n_groups = len(members)

        def draw() -> np.ndarray:
            picked = rng.integers(0, n_groups, size=n_groups)
            return np.concatenate([members[j] for j in picked])

    values = np.empty(n, dtype=float)
    for i in range(n):
        idx = draw()
        values[i] = float(metric_fn(*(a[idx] for a in arrs)))
    values = values[~np.isnan(values)]
    if values.size == 0:
        return (float("nan"), float("nan"))
    low, high = np.quantile(values, [alpha / 2.0, 1.0 - alpha / 2.0])
    return (float(low), float(high))


# --------------------------------------------------------------------------- #
# threshold search
# --------------------------------------------------------------------------- #


def _bacc_all_thresholds(t: np.ndarray, s: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """Balanced accuracy of ``s >= thr`` for every threshold, vectorised."""
    pos_sorted = np.sort(s[t == 1])
    neg_sorted = np.sort(s[t == 0])
    n_pos, n_neg = len(pos_sorted), len(neg_sorted)
    # rows predicted positive = score >= thr
    tp = n_pos - np.searchsorted(pos_sorted, thresholds, side="left")
    fp = n_neg - np.searchsorted(neg_sorted, thresholds, side="left")
    recalls = []
    if n_pos:
        recalls.append(tp / n_pos)
    if n_neg:
        recalls.append((n_neg - fp) / n_neg)
    return np.mean(recalls, axis=0)


def best_threshold(
    y_true: Sequence[Any],
    scores: Sequence[float],
    metric: Callable[[Any, Any], float] = balanced_accuracy,
) -> tuple[float, float]:
    """Threshold on ``scores`` that maximises ``metric(y_true, scores >= thr)``.

    Candidate thresholds are the midpoints between consecutive sorted unique
    scores, plus ``-inf`` (predict everything 1) and ``+inf`` (predict
    everything 0) so that the search is well defined even with a single unique
    score. Predictions passed to ``metric`` are ``int`` 0/1 arrays, with
    ``score >= threshold`` -> 1.

    Returns ``(threshold, metric_value)``. On ties the lowest midpoint wins,
    and midpoints are preferred over the two infinite extremes.

    Degenerate input: empty input, a length mismatch, labels other than 0/1 or
    non-finite scores raise ``ValueError``. The default ``balanced_accuracy``
    uses a vectorised O(n log n) path; any other metric is evaluated once per
    candidate.
    """
    t = _as_binary(y_true, "y_true")
    s = _as_finite_float(scores, "scores")
    _same_length(y_true=t, scores=s)
    uniq = np.unique(s)
    mids = (uniq[:-1] + uniq[1:]) / 2.0
    candidates = np.concatenate((mids, [-np.inf, np.inf]))
    if metric is balanced_accuracy:
        values = _bacc_all_thresholds(t, s, candidates)
    else:
        values = np.array(
            [float(metric(t, (s >= thr).astype(np.int64))) for thr in candidates]
        )
    if np.all(np.isnan(values)):
        raise ValueError("metric returned nan for every candidate threshold")
    best = int(np.nanargmax(values))
    return (float(candidates[best]), float(values[best]))


# --------------------------------------------------------------------------- #
# calibration
# --------------------------------------------------------------------------- #


class ReliabilityBin(NamedTuple):
    """One bin of a reliability diagram."""

    mean_prob: float  # mean predicted probability in the bin (nan if empty)
    frac_positive: float  # observed fraction of label 1 in the bin (nan if empty)
    count: int  # number of examples in the bin


def _bin_index(p: np.ndarray, n_bins: int) -> np.ndarray:
    # equal-width bins over [0, 1]; bin k holds [k/n, (k+1)/n), the last one
    # also holds exactly 1.0
    return np.minimum((p * n_bins).astype(np.int64), n_bins - 1)


def _check_probs(y_true: Any, probs: Any, n_bins: int) -> tuple[np.ndarray, np.ndarray]:
    if int(n_bins) != n_bins or n_bins < 1:
        raise ValueError(f"n_bins must be a positive integer, got {n_bins!r}")
    t = _as_binary(y_true, "y_true")
    p = _as_finite_float(probs, "probs")
    _same_length(y_true=t, probs=p)
    if np.any((p < 0) | (p > 1)):
        raise ValueError("probs must lie in [0, 1]")
    return t, p


def reliability_bins(
    y_true: Sequence[Any], probs: Sequence[float], n_bins: int = 10
) -> list[ReliabilityBin]:
    """Per-bin ``(mean_prob, frac_positive, count)`` for a reliability diagram.

    ``probs`` is the predicted probability of label ``1``. The ``[0, 1]`` range
    is split into ``n_bins`` equal-width bins (the last one closed on the
    right). Always returns exactly ``n_bins`` entries, in increasing order of
    probability; an empty bin is ``(nan, nan, 0)``.

    Degenerate input: empty input, a length mismatch, labels other than 0/1,
    probabilities outside [0, 1] or ``n_bins < 1`` raise ``ValueError``.
    """
    t, p = _check_probs(y_true, probs, n_bins)
    idx = _bin_index(p, n_bins)
    counts = np.bincount(idx, minlength=n_bins)
    prob_sums = np.bincount(idx, weights=p, minlength=n_bins)
    pos_sums = np.bincount(idx, weights=t.astype(float), minlength=n_bins)
    out = []
    for k in range(n_bins):
        c = int(counts[k])
        if c == 0:
            out.append(ReliabilityBin(float("nan"), float("nan"), 0))
        else:
            out.append(ReliabilityBin(float(prob_sums[k] / c), float(pos_sums[k] / c), c))
    return out


def expected_calibration_error(
    y_true: Sequence[Any], probs: Sequence[float], n_bins: int = 10
) -> float:
    """Expected calibration error over equal-width bins.

    ``sum_k (count_k / N) * |frac_positive_k - mean_prob_k|`` using the bins of
    :func:`reliability_bins`; empty bins contribute nothing. The result lies in
    ``[0, 1]``. Degenerate input raises ``ValueError`` exactly as in
    :func:`reliability_bins`.
    """
    bins = reliability_bins(y_true, probs, n_bins)
    total = sum(b.count for b in bins)
    return float(
        sum(b.count / total * abs(b.frac_positive - b.mean_prob) for b in bins if b.count)
    )
