"""QASemConsistency Table 4: verify the human-verified gold QA pairs of ``qasem_consistency_qa``.

Per subset (cliff, factscore, verifiability): balanced accuracy at P(supported) >= 0.5 and ROC AUC
of the verifier's raw probability, next to a calibrated balanced accuracy: the calibration
profile's (``--calibration NAME``) or, without one, the raw probability cut at the threshold tuned
on a sibling dev run of the same setup (``factgrain.evals.devrun``; left out when there is none).
The section 5.4 ablation verifies the same QA rewritten as an affirmative sentence ("Who fell? A
man" -> "A man fell."): the unit becomes a plain claim with that sentence, so an LLM verifier reads
the sentence as its statement and the lexical verifier scores the sentence as a whole.
"""

from __future__ import annotations

from typing import Any, ClassVar

from factgrain.evals.tasks.base import EvalContext, Job, Table, Task
from factgrain.evals.tasks.calibrated import calibration_of, dev_threshold, raw_of, raw_probability
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
    tunes_on_dev: ClassVar[bool] = True

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
        evidence = ev.evidence_for(p["reference"])(unit, comp, p["sentence"])
        [verdict] = await ev.verifier.verify_items([VerifyItem(unit, comp, p["sentence"], evidence)])
        scored = verdict.status.value == "scored" and verdict.probability is not None
        p_raw, raw_from = raw_probability(verdict, ev.verifier) if scored else (None, "")
        return {
            "example_id": p["example_id"], "instance_id": p["instance_id"], "subset": p["subset"],
            "style": p["style"], "label": p["label"], "statement": comp.statement,
            # calibrated when a profile is in use, else the same as p_raw
            "probability": verdict.probability if scored else None,
            "p_raw": p_raw, "raw_from": raw_from, **calibration_of(ev.verifier),
            "status": "scored" if scored else "unscored", "reason": verdict.reason, "threshold": ev.verifier.threshold,
            "n_units": 1, "prompt_versions": ev.verifier.prompt_versions(),
        }

    def _calibration(self, records: list[dict[str, Any]]) -> tuple[str, dict[str, Any], str]:
        """How the calibrated column is made: ("profile", {}, note), ("dev", {style: (t, n)}, note)
        or ("", {}, note) when there is no calibrated column."""
        split = next((r.get("run", {}).get("split") for r in records if r.get("run")), None)
        profile = next((r.get("calibration") for r in records if r.get("calibration")), None)
        if profile:
            fams = next(r.get("calibration_families") for r in records if r.get("calibration"))
            return "profile", {}, (f"BAcc cal: calibration profile `{profile}` ({'+'.join(fams or [])}), its "
                                   "probability cut at 0.5 (the dev-tuned cut-off is folded in); AUC cal from it"
                                   + (" (profiles are fitted on dev: on this dev run they are in-sample)."
                                      if split == "dev" else "."))
        if self.dev_run is None or split == "dev":
            return "", {}, ("No calibrated column: pass --calibration NAME, or run the same setup on --split dev "
                            "into a sibling folder to get a dev-tuned threshold.")
        folder, dev = self.dev_run
        tuned = {st: t for st in self.styles if (t := dev_threshold([r for r in dev if r.get("style") == st]))}
        if not tuned:
            return "", {}, f"No calibrated column: the dev run in {folder} has too few scored rows to tune on."
        desc = ", ".join(f"{st} {t:.3f} ({n} rows)" for st, (t, n) in tuned.items())
        return "dev", tuned, (f"BAcc cal: the raw probability cut at the threshold that maximises BAcc on the dev "
                              f"run in `{getattr(folder, 'name', folder)}` (one per style, over all subsets: {desc}).")

    def summarize(self, records: list[dict[str, Any]]) -> list[Table]:
        ok = [r for r in records if "error" not in r]
        mode, tuned, cal_note = self._calibration(ok)
        rows, data = [], {}
        for subset in (*SUBSETS, "all"):
            row: list[Any] = [subset]
            for style in self.styles:
                rs = [r for r in ok if r.get("style") == style and (subset == "all" or r.get("subset") == subset)]
                thr = float(rs[0].get("threshold", 0.5)) if rs else 0.5
                labels, groups = [r["label"] for r in rs], [r["instance_id"] for r in rs]
                f = binary_figures(labels, [raw_of(r) for r in rs], threshold=thr, groups=groups,
                                   bootstrap=0 if mode else 200)
                cal = None
                if mode == "profile":
                    cal = binary_figures(labels, [r.get("probability") for r in rs], threshold=0.5, groups=groups,
                                         bootstrap=200)
                elif style in tuned:
                    cal = binary_figures(labels, [raw_of(r) for r in rs], threshold=tuned[style][0], groups=groups,
                                         bootstrap=200)
                data[(subset, style)] = f
                row += [f["n"], pct(f["bacc"])]
                if mode:
                    data[(subset, style, "cal")] = cal
                    row.append(pct(cal["bacc"]) if cal else "-")
                row += [ci((cal or f)["bacc_ci"]), pct(f["auc"])]
                if mode == "profile":
                    row.append(pct(cal["auc"]))
                if style == "qa":
                    row.append(f["unscored"])
            rows.append(row)
        thr = float(ok[0].get("threshold", 0.5)) if ok else 0.5
        cols = ["subset"]
        for style in self.styles:
            tag = "QA" if style == "qa" else "affirmative"
            cols += [f"n ({tag})", f"BAcc@{thr:g} {tag}"] + ([f"BAcc cal {tag}"] if mode else [])
            cols += ["95% CI" + (" (cal)" if mode else ""), f"AUC {tag}"] + ([f"AUC cal {tag}"] if mode == "profile" else [])
            cols += ["unscored"] if style == "qa" else []
        errors = len(records) - len(ok)
        note = (f"BAcc@{thr:g}: the verifier's raw P(supported) (before any calibration profile) >= {thr:g}; AUC from "
                "the raw probabilities. " + cal_note + " 95% CI = cluster bootstrap over responses (200 draws)"
                + (", of the calibrated BAcc" if mode else "") + ". Unscored rows are left out of BAcc/AUC and counted.")
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
