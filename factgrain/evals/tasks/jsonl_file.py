"""Batch-check a JSONL file of your own: one ``{"id", "text", "reference", "question"?, "label"?}``
object a line (``.jsonl`` or ``.jsonl.gz``). Each record keeps the whole Report, so the run is a
resumable batch check; when rows carry a 0/1 ``label`` the summary adds BAcc / F1 / AUC.

Rows whose text yields no unit are counted ("no units") and scored P(supported) = 0, i.e. predicted
unsupported: the metrics cover every labelled row that ran, so a decomposer that finds nothing
cannot lift BAcc by dropping the rows it cannot read. Rows whose units were all left unscored are
counted too and left out of the metrics (no verdict was made). ``limit`` takes a seeded uniform
sample of the rows, kept in file order."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any, ClassVar

from factgrain.errors import InputError
from factgrain.evals.tasks.base import EvalContext, Job, Table, Task
from factgrain.evals.tasks.common import binary_figures, pct


class JsonlFile(Task):
    name: ClassVar[str] = "jsonl"
    description: ClassVar[str] = "check every row of a JSONL file (--input FILE)"

    def __init__(self, *, path: str | None = None, method: str = "qasem", **options: Any):
        if not path:
            raise InputError("the jsonl task needs an input file (--input FILE)")
        super().__init__(path=str(Path(path).resolve()), method=method, **options)
        self.path, self.method = Path(path), method

    def jobs(self, split: str, *, limit: int | None, seed: int) -> list[Job]:
        opener = gzip.open if self.path.suffix == ".gz" else open
        out, seen = [], set()
        with opener(self.path, "rt", encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(f"{self.path}: line {n} is not JSON ({exc})") from None
                if not isinstance(row, dict) or "text" not in row or "reference" not in row:
                    raise InputError(f"{self.path}: line {n} needs 'text' and 'reference'")
                rid = str(row.get("id", n))
                if rid in seen:
                    raise InputError(f"{self.path}: id {rid!r} appears twice (ids are the resume key)")
                seen.add(rid)
                out.append(Job(id=rid, payload={k: row.get(k) for k in ("text", "reference", "question", "label")}))
        if limit is not None and limit < len(out):
            # A seeded uniform sample (what --limit promises), in file order; the file is validated whole.
            keep = sorted(random.Random(seed).sample(range(len(out)), max(0, limit)))
            out = [out[i] for i in keep]
        return out

    async def predict(self, job: Job, ctx: EvalContext) -> dict[str, Any]:
        p = job.payload
        ev = ctx.evaluator(method=self.method)
        report = await ev.acheck(p["text"], p["reference"], question=p.get("question"), id=job.id)
        s = report.scores
        # The stated policy: no unit at all -> P(supported) = 0 (predicted unsupported), see the module notes.
        score = s.aggregate.get(ev.options.aggregate) if s.status == "ok" else (NO_UNIT_SCORE if s.status == "no_units" else None)
        return {"label": p.get("label"), "score": score,
                "consistency": s.consistency, "status": s.status, "n_units": s.units,
                "prompt_versions": report.prompt_versions, "report": report.model_dump(mode="json")}

    def summarize(self, records: list[dict[str, Any]]) -> list[Table]:
        ok = [r for r in records if "error" not in r]
        cons = [r["consistency"] for r in ok if r.get("consistency") is not None]
        no_units = sum(1 for r in ok if r.get("status") == "no_units")
        unscored = sum(1 for r in ok if r.get("status") == "no_scored_units")
        rows = [["rows", len(records)], ["failed", len(records) - len(ok)],
                ["no units", no_units], ["no scored units", unscored],
                ["mean consistency", f"{sum(cons) / len(cons):.3f}" if cons else "-"],
                ["avg units", f"{sum(r['n_units'] for r in ok) / len(ok):.2f}" if ok else "-"]]
        labelled = [r for r in ok if r.get("label") in (0, 1)]
        for r in labelled:  # records written before the policy existed
            if r.get("status") == "no_units" and r.get("score") is None:
                r["score"] = NO_UNIT_SCORE
        if labelled:
            f = binary_figures([r["label"] for r in labelled], [r.get("score") for r in labelled])
            rows += [["BAcc", pct(f["bacc"])], ["F1 (supported)", pct(f["f1"])], ["AUC", pct(f["auc"])],
                     ["labelled rows in the metrics", f"{f['scored']} of {len(labelled)}"]]
        note = (f"no units: {no_units} row(s) whose text gave no unit, scored as unsupported (P = {NO_UNIT_SCORE:g}) "
                f"and kept in BAcc / F1 / AUC; no scored units: {unscored} row(s), left out of the metrics; "
                f"failed: {len(records) - len(ok)} row(s), left out (see their error records).")
        return [Table(f"Batch check of {self.path.name}", ["figure", "value"], rows, note)]


#: P(supported) given to a row whose text yielded no unit (the policy in the module notes)
NO_UNIT_SCORE = 0.0
