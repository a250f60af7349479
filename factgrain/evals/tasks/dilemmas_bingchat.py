"""Decomposition Dilemmas complexity scaling on ``bingchat_combination``: 1-14 Bing Chat sub-claims
joined in order (``combined_num`` = input complexity), label 0 if any constituent is refuted.
Besides the per-method table: BAcc / F1 by ``combined_num`` x number of units the decomposer made,
and a heatmap of F1 over that grid. Only a ``test`` split exists."""

from __future__ import annotations

from typing import Any, ClassVar

from factgrain.evals.tasks.base import Table
from factgrain.evals.tasks.common import binary_figures, pct
from factgrain.evals.tasks.dilemmas_common import DilemmasTask, sample, threshold_of

MAX_UNITS_BUCKET = 10  # n_units above this share one column ("10+")


def units_bucket(n: int) -> int:
    return min(int(n), MAX_UNITS_BUCKET)


class DilemmasBingchat(DilemmasTask):
    name: ClassVar[str] = "dilemmas-bingchat"
    dataset: ClassVar[str] = "bingchat_combination"

    def examples(self, split: str, *, limit: int | None, seed: int) -> list[Any]:
        from factgrain.evals.datasets import load

        rows = [ex for ex in load(self.dataset, split) if (ex.reference or "").strip() and ex.label is not None]
        return sample(rows, limit, seed)

    def extras(self, example: Any) -> dict[str, Any]:
        return {"combined_num": int(example.extras.get("combined_num") or 0)}

    def grid(self, rs: list[dict[str, Any]]) -> dict[tuple[int, int], dict[str, Any]]:
        cells: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for r in rs:
            cells.setdefault((r["combined_num"], units_bucket(r["n_units"])), []).append(r)
        return {k: binary_figures([r["label"] for r in v], [r.get("score") for r in v], threshold=threshold_of(v))
                for k, v in cells.items()}

    def summarize(self, records: list[dict[str, Any]]) -> list[Table]:
        tables = super().summarize(records)
        for (method, reflect), rs in self.rows(records).items():
            by_k: dict[int, list[dict[str, Any]]] = {}
            for r in rs:
                by_k.setdefault(r["combined_num"], []).append(r)
            rows = []
            for k in sorted(by_k):
                f = binary_figures([r["label"] for r in by_k[k]], [r.get("score") for r in by_k[k]],
                                   threshold=threshold_of(by_k[k]))
                avg = sum(r["n_units"] for r in by_k[k]) / len(by_k[k])
                rows.append([k, f["n"], f"{avg:.2f}", pct(f["bacc"]), pct(f["f1"]), f["unscored"]])
            tag = f"{method}{' +reflect' if reflect else ''}"
            tables.append(Table(f"Complexity scaling ({tag}): by combined_num",
                                ["combined_num", "n", "avg units", "BAcc", "F1", "unscored"], rows,
                                data={"grid": self.grid(rs)}))
        return tables

    def plots(self, records: list[dict[str, Any]], out_dir: Any) -> list[Any]:
        from factgrain.evals import plots

        out = super().plots(records, out_dir)
        for (method, reflect), rs in self.rows(records).items():
            grid = self.grid(rs)
            tag = f"{method}{'-reflect' if reflect else ''}".replace(":", "_")
            path = plots.heatmap({k: f["f1"] for k, f in grid.items()}, out_dir / f"heatmap-{tag}.png",
                                 xlabel=f"units produced ({MAX_UNITS_BUCKET} = {MAX_UNITS_BUCKET}+)",
                                 ylabel="combined_num", title=f"F1 by input complexity: {tag}")
            if path:
                out.append(path)
        return out
