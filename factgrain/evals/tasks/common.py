"""Figures shared by the tasks: binary-classification metrics over records, and cell formatting."""

from __future__ import annotations

import math
from typing import Any

from factgrain.evals import metrics as M


def pct(x: float | None) -> str:
    """A [0, 1] figure as a percentage with one decimal, '-' when undefined."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{100 * x:.1f}"


def ci(interval: tuple[float, float] | None) -> str:
    if interval is None or any(math.isnan(v) for v in interval):
        return "-"
    return f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"


def binary_figures(labels: list[int], probs: list[float | None], *, threshold: float = 0.5,
                   groups: list[Any] | None = None, bootstrap: int = 0) -> dict[str, Any]:
    """BAcc (at ``threshold``), AUC, precision / recall / F1 of the supported class (1) over the
    rows that have a probability; rows without one are counted as ``unscored``, never guessed."""
    keep = [i for i, p in enumerate(probs) if p is not None]
    out: dict[str, Any] = {"n": len(labels), "scored": len(keep), "unscored": len(labels) - len(keep),
                           "bacc": None, "auc": None, "precision": None, "recall": None, "f1": None,
                           "bacc_ci": None}
    if not keep:
        return out
    y = [int(labels[i]) for i in keep]
    s = [float(probs[i]) for i in keep]
    pred = [int(p >= threshold) for p in s]
    out["bacc"] = M.balanced_accuracy(y, pred)
    out["auc"] = M.roc_auc(y, s)
    out.update(M.precision_recall_f1(y, pred, positive=1))
    if bootstrap and len(keep) > 1:
        g = [groups[i] for i in keep] if groups is not None else None
        out["bacc_ci"] = M.bootstrap_ci(lambda a, b: M.balanced_accuracy(a, (b >= threshold).astype(int)),
                                        y, s, n=bootstrap, seed=0, groups=g)
    return out
