"""QASemConsistency Table 4: verify the human-verified gold QA pairs of ``qasem_consistency_qa``.

Per subset (cliff, factscore, verifiability): balanced accuracy at P(supported) >= 0.5 and ROC AUC.
The section 5.4 ablation verifies the same QA rewritten as an affirmative sentence ("Who fell? A
man" -> "A man fell."): the unit becomes a plain claim with that sentence, so an LLM verifier reads
the sentence as its statement and the lexical verifier scores the sentence as a whole.
"""

from __future__ import annotations

from typing import Any, ClassVar

from factgrain.evals.tasks.base import EvalContext, Job, Table, Task
from factgrain.evals.tasks.common import binary_figures, ci, pct

STYLES = ("qa", "affirmative")
SUBSETS = ("cliff", "factscore", "verifiability")
_POS_TYPE = {"VERB": "verbal", "NOUN": "nominal", "PROPN": "nominal", "AUX": "copular"}


def affirmative(question: str, answer: str) -> str:
    from factgrain.agent.verifiers.nli_model import hypothesis_for_qa

    return hypothesis_for_qa(question, answer, style="affirmative")


class QasemTable4(Task):
    name: ClassVar[str] = "qasem-table4"
    dataset: ClassVar[str] = "qasem_consistency_qa"
    description: ClassVar[str] = "verify gold QA pairs: BAcc / AUC per subset, QA vs affirmative"

    def __init__(self, *, styles: tuple[str, ...] = STYLES, **options: Any):
        bad = [s for s in styles if s not in STYLES]
        if bad:
            raise ValueError(f"unknown style(s) {bad}; choose from {STYLES}")
        super().__init__(styles=list(styles), **options)
        self.styles = tuple(styles)

    def jobs(self, split: str, *, limit: int | None, seed: int) -> list[Job]:
        from factgrain.evals.datasets import load_qa

        out = []
        for ex in load_qa(split, limit=limit, seed=seed):
            base = dict(example_id=ex.id, instance_id=ex.instance_id, subset=ex.subset, label=ex.label,
                        sentence=ex.text, reference=ex.reference, question=ex.question, answer=ex.answer,
                        predicate=ex.predicate, predicate_pos=ex.predicate_pos)
            for style in self.styles:
                out.append(Job(id=f"{ex.id}#{style}", payload={**base, "style": style}))
        return out

    async def predict(self, job: Job, ctx: EvalContext) -> dict[str, Any]:
        from factgrain.agent.inputs import normalize_reference
        from factgrain.agent.verifiers.base import VerifyItem
        from factgrain.schemas.units import Claim, QAPair

        p = job.payload
        ev = ctx.evaluator()
        if p["style"] == "qa":
            unit = QAPair(id="s0.u0", sentence_index=0, predicate=p["predicate"], question=p["question"],
                          answer=p["answer"], predicate_type=_POS_TYPE.get(p.get("predicate_pos") or "", "verbal"))
        else:
            unit = Claim(id="s0.u0", sentence_index=0, text=affirmative(p["question"], p["answer"]))
        comp = unit.components()[0]
        # the same evidence selection as a full check (whole reference, or BM25 passages when long)
        evidence = ev._evidence_fn(normalize_reference(p["reference"]))(unit, comp, p["sentence"])
        [verdict] = await ev.verifier.verify_items([VerifyItem(unit, comp, p["sentence"], evidence)])
        scored = verdict.status.value == "scored" and verdict.probability is not None
        return {
            "example_id": p["example_id"], "instance_id": p["instance_id"], "subset": p["subset"],
            "style": p["style"], "label": p["label"], "statement": comp.statement,
            "probability": verdict.probability if scored else None,
            "status": "scored" if scored else "unscored", "reason": verdict.reason, "threshold": ev.verifier.threshold,
            "n_units": 1, "prompt_versions": ev.verifier.prompt_versions(),
        }

    def summarize(self, records: list[dict[str, Any]]) -> list[Table]:
        rows, data = [], {}
        for subset in (*SUBSETS, "all"):
            row: list[Any] = [subset]
            for style in self.styles:
                rs = [r for r in records if r.get("style") == style and (subset == "all" or r.get("subset") == subset)
                      and "error" not in r]
                thr = float(rs[0].get("threshold", 0.5)) if rs else 0.5
                f = binary_figures([r["label"] for r in rs], [r.get("probability") for r in rs], threshold=thr,
                                   groups=[r["instance_id"] for r in rs], bootstrap=200)
                data[(subset, style)] = f
                row += [f["n"], pct(f["bacc"]), ci(f["bacc_ci"]), pct(f["auc"])]
                if style == "qa":
                    row.append(f["unscored"])
            rows.append(row)
        cols = ["subset"]
        for style in self.styles:
            tag = "QA" if style == "qa" else "affirmative"
            cols += [f"n ({tag})", f"BAcc {tag}", "95% CI", f"AUC {tag}"] + (["unscored"] if style == "qa" else [])
        errors = sum(1 for r in records if "error" in r)
        note = ("BAcc at P(supported) >= the threshold (0.5 unless --threshold), AUC from the probabilities; "
                "95% CI = cluster bootstrap over responses (200 draws). Unscored rows are left out of BAcc/AUC and counted.")
        if errors:
            note += f" {errors} prediction(s) failed and are left out."
        return [Table("QASemConsistency Table 4 (gold QA verification)", cols, rows, note, data)]

    def plots(self, records: list[dict[str, Any]], out_dir: Any) -> list[Any]:
        from factgrain.evals import plots

        curves = {}
        for style in self.styles:
            for subset in SUBSETS:
                rs = [r for r in records if r.get("style") == style and r.get("subset") == subset
                      and r.get("probability") is not None]
                if rs:
                    curves[f"{subset} ({style})"] = ([r["label"] for r in rs], [r["probability"] for r in rs])
        out = [plots.roc_curves(curves, out_dir / "roc.png", title="QA verification ROC")]
        by_style = {}
        for style in self.styles:
            rs = [r for r in records if r.get("style") == style and r.get("probability") is not None]
            if rs:
                by_style[style] = ([r["label"] for r in rs], [r["probability"] for r in rs])
        out.append(plots.reliability_diagram(by_style, out_dir / "reliability.png"))
        return [p for p in out if p is not None]
