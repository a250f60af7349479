"""Decomposer quality against the gold QAs of ``qasem_consistency`` (whole responses).

Each response is checked end to end with the configured method (``qasem`` by default). Predicted
QAs are compared with the gold ones in token space (the gold indices count over the whole
response): the gold sentence tokens are located in the response text, a predicted answer covers the
tokens its character span overlaps, and a predicted QA matches a gold QA when their predicates are
the same token and the answer token sets have IOU >= 0.3 (the QASem parser's criterion), one to
one, best overlap first.

Figures: predicate recall, QA match precision / recall / F1, wh agreement (the share of matched
pairs whose questions open with the same wh-word; 'how much' counts as 'how'), QAs per sentence
(predicted and gold) and the response-level Spearman correlation between the predicted consistency score (share of
supported QAs) and the gold one (share of gold QAs labelled supported).
"""

from __future__ import annotations

from typing import Any, ClassVar

from factgrain.evals.tasks.base import EvalContext, Job, Table, Task
from factgrain.evals.tasks.common import pct

IOU_MIN = 0.3
SUBSETS = ("cliff", "factscore", "verifiability")
WH_WORDS = ("who", "what", "when", "where", "why", "how")


def wh_word(question: str) -> str:
    """The question's wh-word ('how much' / 'how long' count as 'how'); '' when there is none."""
    first = question.strip().lower().split()[:1]
    return first[0] if first and first[0] in WH_WORDS else ""

Tok = int  # index in the response's flat token list


def token_offsets(text: str, sentence_tokens: list[list[str]], *, max_gap: int = 40) -> dict[int, tuple[int, int]]:
    """Character span of every gold token (by its index in the response's flat token list) found
    in ``text``, searched left to right; a token not found within ``max_gap`` characters is skipped
    (tokenisers rewrite some characters)."""
    out: dict[int, tuple[int, int]] = {}
    pos = 0
    flat = [tok for toks in sentence_tokens for tok in toks]
    for i, tok in enumerate(flat):
        j = text.find(tok, pos)
        if j < 0 or j - pos > max_gap:
            continue
        out[i] = (j, j + len(tok))
        pos = j + len(tok)
    return out


def covered(span: tuple[int, int] | None, offsets: dict[Tok, tuple[int, int]]) -> set[Tok]:
    if span is None:
        return set()
    a, b = span
    return {t for t, (s, e) in offsets.items() if s < b and e > a}


def iou(a: set[Tok], b: set[Tok]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def match(gold: list[dict[str, Any]], pred: list[dict[str, Any]]) -> list[tuple[int, int, float]]:
    """One-to-one (gold index, predicted index, IOU) pairs: same predicate token and IOU >= 0.3."""
    cands = []
    for gi, g in enumerate(gold):
        for pi, p in enumerate(pred):
            if g["predicate_tok"] in p["predicate_toks"] or (
                    not p["predicate_toks"] and p["predicate"].lower() == g["predicate"].lower()):
                score = iou(set(g["answer_toks"]), set(p["answer_toks"]))
                if score >= IOU_MIN:
                    cands.append((score, gi, pi))
    used_g, used_p, out = set(), set(), []
    for score, gi, pi in sorted(cands, key=lambda c: (-c[0], c[1], c[2])):
        if gi not in used_g and pi not in used_p:
            used_g.add(gi)
            used_p.add(pi)
            out.append((gi, pi, round(score, 4)))
    return out


class QasemDecomposer(Task):
    name: ClassVar[str] = "qasem-decomposer"
    dataset: ClassVar[str] = "qasem_consistency"
    description: ClassVar[str] = "decomposer vs gold QAs: predicate recall, QA match P/R, Spearman"

    def __init__(self, *, method: str = "qasem", **options: Any):
        super().__init__(method=method, **options)
        self.method = method

    def jobs(self, split: str, *, limit: int | None, seed: int) -> list[Job]:
        from factgrain.evals.datasets import load_responses

        return [Job(id=ex.id, payload=ex.model_dump(mode="json")) for ex in load_responses(split, limit=limit, seed=seed)]

    async def predict(self, job: Job, ctx: EvalContext) -> dict[str, Any]:
        from factgrain.schemas.units import QAPair

        p = job.payload
        ev = ctx.evaluator(method=self.method)
        report = await ev.acheck(p["text"], p["reference"], id=p["id"])
        offsets = token_offsets(p["text"], p["sentence_tokens"])
        gold = []
        for q in p["qas"]:
            # gold indices already count over the whole response, like ``offsets``
            a, b = q["answer_idx"]
            pa = q["predicate_idx"] if q["predicate_idx"] is not None else -1
            gold.append({"predicate": q["predicate"], "predicate_tok": pa, "answer_toks": list(range(a, b)),
                         "label": q.get("label"), "question": q["question"]})
        pred = []
        for r in report.results:
            u = r.unit
            if not isinstance(u, QAPair):
                continue
            ps = (u.predicate_span.start, u.predicate_span.end) if u.predicate_span else None
            ans = (u.answer_span.start, u.answer_span.end) if u.answer_span else None
            pred.append({"predicate": u.predicate, "question": u.question, "answer": u.answer,
                         "predicate_toks": sorted(covered(ps, offsets)), "answer_toks": sorted(covered(ans, offsets)),
                         "status": r.status})
        pairs = match(gold, pred)
        wh_same = sum(wh_word(gold[gi]["question"]) == wh_word(pred[pi]["question"]) for gi, pi, _ in pairs)
        gold_preds = {g["predicate_tok"] for g in gold}
        hit_preds = {g["predicate_tok"] for g in gold
                     if any(g["predicate_tok"] in q["predicate_toks"] for q in pred)}
        labelled = [g["label"] for g in gold if g["label"] is not None]
        return {
            "example_id": p["id"], "subset": p["subset"], "method": self.method,
            "n_sentences": len(p["sentences"]), "n_gold": len(gold), "n_pred": len(pred),
            "matched": len(pairs), "wh_same": wh_same, "gold_predicates": len(gold_preds), "hit_predicates": len(hit_preds),
            "gold_consistency": sum(labelled) / len(labelled) if labelled else None,
            "pred_consistency": report.scores.consistency, "n_units": report.scores.units,
            "pairs": pairs, "predicted": [{k: q[k] for k in ("predicate", "question", "answer", "status")} for q in pred],
            "token_coverage": round(len(offsets) / max(1, sum(len(t) for t in p["sentence_tokens"])), 4),
            "prompt_versions": report.prompt_versions, "warnings": report.warnings[:5],
        }

    def summarize(self, records: list[dict[str, Any]]) -> list[Table]:
        from factgrain.evals.metrics import spearman

        ok = [r for r in records if "error" not in r]
        rows, data = [], {}
        for subset in (*SUBSETS, "all"):
            rs = [r for r in ok if subset == "all" or r["subset"] == subset]
            if not rs:
                continue
            tot = {k: sum(r.get(k, 0) for r in rs) for k in ("n_sentences", "n_gold", "n_pred", "matched", "wh_same",
                                                             "gold_predicates", "hit_predicates")}
            prec = tot["matched"] / tot["n_pred"] if tot["n_pred"] else None
            rec = tot["matched"] / tot["n_gold"] if tot["n_gold"] else None
            f1 = 2 * prec * rec / (prec + rec) if prec and rec else (0.0 if prec is not None and rec is not None else None)
            pairs = [(r["pred_consistency"], r["gold_consistency"]) for r in rs
                     if r["pred_consistency"] is not None and r["gold_consistency"] is not None]
            rho = spearman([a for a, _ in pairs], [b for _, b in pairs]) if len(pairs) >= 2 else None
            f = {"predicate_recall": tot["hit_predicates"] / tot["gold_predicates"] if tot["gold_predicates"] else None,
                 "precision": prec, "recall": rec, "f1": f1,
                 "wh_agreement": tot["wh_same"] / tot["matched"] if tot["matched"] else None, "spearman": rho, "n": len(rs), "n_spearman": len(pairs),
                 "qas_per_sentence": tot["n_pred"] / tot["n_sentences"] if tot["n_sentences"] else None,
                 "gold_qas_per_sentence": tot["n_gold"] / tot["n_sentences"] if tot["n_sentences"] else None}
            data[subset] = f
            rows.append([subset, len(rs), pct(f["predicate_recall"]), pct(prec), pct(rec), pct(f1), pct(f["wh_agreement"]),
                         f"{f['qas_per_sentence']:.2f}", f"{f['gold_qas_per_sentence']:.2f}",
                         "-" if rho is None or rho != rho else f"{rho:.3f}", len(pairs)])
        errors = len(records) - len(ok)
        note = (f"QA match: same predicate token and answer-token IOU >= {IOU_MIN}, one to one; micro-averaged. "
                "Spearman between predicted and gold response consistency (responses where both exist).")
        if errors:
            note += f" {errors} response(s) failed and are left out."
        cols = ["subset", "responses", "predicate recall", "QA P", "QA R", "QA F1", "wh agree", "QAs/sent", "gold QAs/sent",
                "Spearman", "n (Spearman)"]
        return [Table(f"QA decomposer vs gold ({self.method})", cols, rows, note, data)]
