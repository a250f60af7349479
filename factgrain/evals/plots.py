"""PNG plots of evaluation results: ROC curves, reliability diagram, complexity heatmap.

matplotlib is optional (``pip install 'factgrain[plots]'``); every function returns ``None`` and
draws nothing when there is nothing to draw.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from factgrain.evals import metrics as M


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError as exc:
        from factgrain.errors import MissingExtraError

        raise MissingExtraError("plots", "matplotlib") from exc
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def roc_points(y_true: Sequence[int], scores: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """False- and true-positive rates at every distinct score threshold (from (0,0) to (1,1))."""
    y = np.asarray(y_true, dtype=int)
    s = np.asarray(scores, dtype=float)
    thresholds = np.concatenate(([np.inf], np.unique(s)[::-1]))
    n_pos, n_neg = max(int(y.sum()), 1), max(int((1 - y).sum()), 1)
    tpr = np.array([((s >= t) & (y == 1)).sum() / n_pos for t in thresholds])
    fpr = np.array([((s >= t) & (y == 0)).sum() / n_neg for t in thresholds])
    return fpr, tpr


def roc_curves(curves: dict[str, tuple[Sequence[int], Sequence[float]]], path: Path, *,
               title: str = "ROC") -> Path | None:
    curves = {k: v for k, v in curves.items() if len(set(v[0])) == 2}
    if not curves:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5, 5))
    for name, (y, s) in curves.items():
        fpr, tpr = roc_points(y, s)
        ax.plot(fpr, tpr, label=f"{name} (AUC {M.roc_auc(y, s):.2f})")
    ax.plot([0, 1], [0, 1], ls=":", color="grey")
    ax.set(xlabel="false positive rate", ylabel="true positive rate", title=title, xlim=(0, 1), ylim=(0, 1))
    ax.legend(fontsize=7, loc="lower right")
    return _save(fig, plt, path)


def reliability_diagram(series: dict[str, tuple[Sequence[int], Sequence[float]]], path: Path, *,
                        n_bins: int = 10, title: str = "Reliability") -> Path | None:
    series = {k: v for k, v in series.items() if len(v[0])}
    if not series:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], ls=":", color="grey", label="perfect calibration")
    for name, (y, p) in series.items():
        bins = [b for b in M.reliability_bins(y, p, n_bins) if b.count]
        ece = M.expected_calibration_error(y, p, n_bins)
        ax.plot([b.mean_prob for b in bins], [b.frac_positive for b in bins], marker="o",
                label=f"{name} (ECE {ece:.2f})")
    ax.set(xlabel="predicted P(supported)", ylabel="observed share supported", title=title, xlim=(0, 1), ylim=(0, 1))
    ax.legend(fontsize=7, loc="upper left")
    return _save(fig, plt, path)


def heatmap(values: dict[tuple[int, int], float | None], path: Path, *, xlabel: str, ylabel: str,
            title: str) -> Path | None:
    """``values[(row, col)]`` drawn as a grid (rows = y axis); missing or undefined cells stay blank."""
    if not values:
        return None
    plt = _plt()
    rows = sorted({r for r, _ in values})
    cols = sorted({c for _, c in values})
    grid = np.full((len(rows), len(cols)), np.nan)
    for (r, c), v in values.items():
        if v is not None and not math.isnan(v):
            grid[rows.index(r), cols.index(c)] = v
    fig, ax = plt.subplots(figsize=(max(6.0, 2 + 0.6 * len(cols)), max(4.5, 1.5 + 0.45 * len(rows))))
    im = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=1, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(cols)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7, color="white")
    ax.set_xticks(range(len(cols)), [str(c) for c in cols])
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    fig.colorbar(im, ax=ax)
    return _save(fig, plt, path)


def _save(fig: Any, plt: Any, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
