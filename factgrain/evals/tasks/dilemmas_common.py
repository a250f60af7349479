"""Decomposition Dilemmas tables: decompose -> verify -> aggregate (harmonic mean, 0.5 threshold).

Rows are the decomposition methods available in this build (``none``, ``claims:<style>``, ``qasem``,
``triqua``...), each with and (with ``reflect=True``) without reflect-and-refine; columns are the
average number of units, BAcc, and F1 / precision / recall of the *supported* class (label 1).
A text whose check produced no scored unit has no prediction: it is counted, never guessed.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, ClassVar

import numpy as np

from factgrain.errors import ConfigurationError
from factgrain.evals.tasks.base import EvalContext, Job, Table, Task
from factgrain.evals.tasks.common import binary_figures, pct


def expand_methods(methods: list[str] | None = None) -> list[str]:
    """The given methods, or every registered one with families (``claims:``) expanded into their
    styles as the family module lists them (``STYLES`` / ``VARIANTS``)."""
    from factgrain.agent.decompose.base import available_methods

    if methods:
        return list(methods)
    out = []
    for name in available_methods():
        if not name.endswith(":"):
            out.append(name)
            continue
        prefix = name[:-1]
        try:
            module = importlib.import_module(f"factgrain.agent.decompose.{prefix}")
        except ModuleNotFoundError:  # a family registered from outside this package
            continue
        variants = getattr(module, "STYLES", None) or getattr(module, "VARIANTS", None) or {}
        out += [f"{prefix}:{v}" for v in variants]
    # the undecomposed baseline first, as in the paper's tables
    return sorted(out, key=lambda m: m != "none")


def threshold_of(records: list[dict[str, Any]]) -> float:
    """The decision threshold the records were made with (0.5 unless --threshold changed it)."""
    return float(records[0].get("threshold", 0.5)) if records else 0.5


def sample(rows: list[Any], limit: int | None, seed: int) -> list[Any]:
    """A seeded sample of ``limit`` rows kept in their original order (after filtering)."""
    if limit is None or limit >= len(rows):
        return rows
    idx = np.sort(np.random.default_rng(seed).choice(len(rows), size=limit, replace=False))
    return [rows[i] for i in idx]


class DilemmasTask(Task):
    """Subclasses choose the rows (``examples``) and may add per-row extras to the payload."""

    description: ClassVar[str] = "decompose-verify-aggregate per decomposition method"

    def __init__(self, *, methods: list[str] | None = None, reflect: bool = False, **options: Any):
        self.methods = expand_methods(methods)
        super().__init__(methods=self.methods, reflect=bool(reflect), **options)
        self.reflect_modes = [False, True] if reflect else [False]

    def examples(self, split: str, *, limit: int | None, seed: int) -> list[Any]:
        from factgrain.evals.datasets import load

        return load(self.dataset, split, limit=limit, seed=seed)

    def extras(self, example: Any) -> dict[str, Any]:
        return {}

    def jobs(self, split: str, *, limit: int | None, seed: int) -> list[Job]:
        if True in self.reflect_modes and importlib.util.find_spec("factgrain.agent.reflect") is None:
            raise ConfigurationError("reflection (factgrain.agent.reflect) is not available in this build")
        if not self.methods:
            raise ConfigurationError("no decomposition method is available")
        out = []
        for ex in self.examples(split, limit=limit, seed=seed):
            base = {"example_id": ex.id, "text": ex.text, "reference": ex.reference, "label": ex.label,
                    **self.extras(ex)}
            for method in self.methods:
                for reflect in self.reflect_modes:
                    tag = f"{method}{'+reflect' if reflect else ''}"
                    out.append(Job(id=f"{ex.id}#{tag}", payload={**base, "method": method, "reflect": reflect}))
        return out

    async def predict(self, job: Job, ctx: EvalContext) -> dict[str, Any]:
        p = job.payload
        ev = ctx.evaluator(method=p["method"], reflect=p["reflect"])
        report = await ev.acheck(p["text"], p["reference"], question=p.get("question"), id=p["example_id"])
        s = report.scores
        score = s.aggregate.get(ev.options.aggregate) if s.status == "ok" else None
        extra = {k: v for k, v in p.items() if k not in ("text", "reference", "question")}
        return {
            **extra, "score": score, "threshold": ev.options.threshold, "status": s.status, "n_units": s.units, "scored_units": s.scored_units,
            "prompt_versions": report.prompt_versions, "usage": report.usage.model_dump(),
            "timings": report.timings, "warnings": report.warnings[:5],
        }

    def rows(self, records: list[dict[str, Any]]) -> dict[tuple[str, bool], list[dict[str, Any]]]:
        """Records grouped by (method, reflect), in the order the methods were asked for."""
        groups: dict[tuple[str, bool], list[dict[str, Any]]] = {}
        for r in records:
            if "error" not in r:
                groups.setdefault((r["method"], bool(r["reflect"])), []).append(r)
        order = {m: i for i, m in enumerate(self.methods)}
        return dict(sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], len(order)), kv[0][0], kv[0][1])))

    def summarize(self, records: list[dict[str, Any]]) -> list[Table]:
        rows, data = [], {}
        for (method, reflect), rs in self.rows(records).items():
            f = binary_figures([r["label"] for r in rs], [r.get("score") for r in rs], threshold=threshold_of(rs))
            f["avg_units"] = float(np.mean([r["n_units"] for r in rs])) if rs else None
            data[(method, reflect)] = f
            rows.append([method, "yes" if reflect else "no", f["n"], f"{f['avg_units']:.2f}", pct(f["bacc"]),
                         pct(f["f1"]), pct(f["precision"]), pct(f["recall"]), f["unscored"]])
        errors = sum(1 for r in records if "error" in r)
        note = ("Harmonic mean of unit P(supported), supported at >= 0.5; F1 / P / R of the supported class; "
                "texts without a scored unit are counted as unscored and left out.")
        if errors:
            note += f" {errors} prediction(s) failed and are left out."
        cols = ["method", "reflect", "n", "avg units", "BAcc", "F1", "P", "R", "unscored"]
        return [Table(f"Decomposition Dilemmas: {self.dataset}", cols, rows, note, data)]

    def plots(self, records: list[dict[str, Any]], out_dir: Any) -> list[Any]:
        from factgrain.evals import plots

        curves = {f"{m}{' +reflect' if rf else ''}": ([r["label"] for r in rs if r.get("score") is not None],
                                                      [r["score"] for r in rs if r.get("score") is not None])
                  for (m, rf), rs in self.rows(records).items()}
        path = plots.roc_curves(curves, out_dir / "roc.png", title=f"{self.dataset}: ROC per method")
        return [path] if path else []
