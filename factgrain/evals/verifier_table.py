"""Compare verifiers on ``qasem_consistency_qa`` test, per subset, with article-level bootstrap
intervals: lexical alone, the LLM alone (at 0.5 and calibrated), and LLM + lexical fused.

    python -m factgrain.evals.verifier_table --model embedded/smollm2-135m \
        --dev-articles 3 --test-articles 5 --cache runs/verifier_signals.jsonl

LLM calls are expensive on CPU, so the LLM is scored on whole sampled articles (``N`` per subset
and split, seeded; all QAs of an article share its reference, which an LLM server's prefix cache
reuses). Signals are appended to ``--cache`` article by article, so an interrupted run resumes.
Profiles are fitted on the dev sample only (leakage-filtered: dev articles sharing word 8-grams
with a test article are dropped), then applied to the test sample.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

import numpy as np

from factgrain.calibration import CalibrationProfile, save_profile
from factgrain.evals import calibrate as C
from factgrain.evals.metrics import balanced_accuracy, bootstrap_ci, roc_auc

SUBSETS = ("cliff", "factscore", "verifiability")
COLUMNS = (*SUBSETS, "all")


def sample_articles(rows: list[dict], per_subset: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    keep: list[dict] = []
    for sub in SUBSETS:
        arts = sorted({str(r["source_id"]) for r in rows if r["subset"] == sub})
        picked = set(rng.permutation(arts)[:per_subset].tolist()) if per_subset < len(arts) else set(arts)
        keep += [r for r in rows if r["subset"] == sub and str(r["source_id"]) in picked]
    return keep


def _load_cache(path: Path) -> dict[str, dict]:
    out: dict[str, dict] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                out[rec["key"]] = rec["signals"]
    return out


async def score_llm(rows: list[dict], model: str, cache: Path) -> dict[str, dict]:
    """LLM signals for rows, article by article, appended to the cache file."""
    from factgrain.backends.registry import get_backend

    done = _load_cache(cache)
    todo = [r for r in rows if f"{model}|{r['id']}" not in done]
    if not todo:
        return done
    backend = get_backend(model)
    cache.parent.mkdir(parents=True, exist_ok=True)
    by_ref: dict[str, list[dict]] = {}
    for r in todo:
        by_ref.setdefault(r["reference"] or "", []).append(r)
    t0, n = time.perf_counter(), 0
    for group in by_ref.values():
        sig = await C.collect_signals(C.qa_items(group, C.evidence_selection(backend)), ["llm"], backend=backend)
        with cache.open("a", encoding="utf-8") as fh:
            for r, s in zip(group, sig):
                if s is not None:
                    done[f"{model}|{r['id']}"] = s
                    fh.write(json.dumps({"key": f"{model}|{r['id']}", "signals": s}) + "\n")
        n += len(group)
        print(f"  llm: {n}/{len(todo)} rows, {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    return done


def signals_for(rows: list[dict], llm: dict[str, dict] | None, model: str) -> list[dict | None]:
    lex = asyncio.run(C.collect_signals(C.qa_items(rows, C.evidence_selection(model=model)), ["lexical"]))
    out: list[dict | None] = []
    for r, s in zip(rows, lex):
        if llm is not None:
            extra = llm.get(f"{model}|{r['id']}")
            if extra is None:
                out.append(None)
                continue
            s = {**s, **extra}  # type: ignore[dict-item]
        out.append(s)
    return out


def _cell(y: np.ndarray, s: np.ndarray, thr: float, g: np.ndarray, n_boot: int) -> str:
    b = balanced_accuracy(y, (s >= thr).astype(int))
    lo, hi = bootstrap_ci(lambda a, c: balanced_accuracy(a, (c >= thr).astype(int)), y, s, n=n_boot, seed=0, groups=g)
    auc = roc_auc(y, s) if len(set(y.tolist())) == 2 else float("nan")
    alo, ahi = bootstrap_ci(roc_auc, y, s, n=n_boot, seed=0, groups=g)
    return f"{100 * b:.1f} [{100 * lo:.1f}, {100 * hi:.1f}] | {100 * auc:.1f} [{100 * alo:.1f}, {100 * ahi:.1f}]"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="embedded/smollm2-135m")
    ap.add_argument("--dev-articles", type=int, default=3, help="articles per subset scored by the LLM on dev")
    ap.add_argument("--test-articles", type=int, default=5, help="articles per subset scored by the LLM on test")
    ap.add_argument("--cache", type=Path, default=Path("runs/verifier_signals.jsonl"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-boot", type=int, default=1000)
    ap.add_argument("--collect-only", action="store_true")
    ap.add_argument("--save-fused", type=Path, help="write the fused (llm + lexscore) profile here "
                    "(factgrain/agent/verifiers/fused_embedded.json ships the embedded model's)")
    args = ap.parse_args(argv)

    dev_all, _ = C.task_rows("qasem-table4", "dev")
    test_all, _ = C.task_rows("qasem-table4", "test")
    dev = sample_articles(dev_all, args.dev_articles, args.seed)
    test = sample_articles(test_all, args.test_articles, args.seed)
    print(f"LLM sample: {len(dev)} dev rows, {len(test)} test rows", file=sys.stderr)
    llm = asyncio.run(score_llm(dev + test, args.model, args.cache))
    if args.collect_only:
        return 0

    def fit(rows: list[dict], families: list[str], use_llm: bool) -> tuple[CalibrationProfile, int]:
        sig = signals_for(rows, llm if use_llm else None, args.model)
        ok = [(r, s) for r, s in zip(rows, sig) if s is not None]
        prof = C.fit_profile([s for _, s in ok], [r["label"] for r, _ in ok], C.groups_of([r for r, _ in ok]),
                             name="+".join(families), families=families, model=args.model if use_llm else None)
        return prof, len(ok)

    profiles = {
        "lexical score recalibrated (lexscore)": (fit(dev, ["lexscore"], False), False),
        "LLM calibrated (llm)": (fit(dev, ["llm"], True), True),
        "fused (llm + lexscore)": (fit(dev, ["llm", "lexscore"], True), True),
        "fused (llm + 19 lexical features)": (fit(dev, ["llm", "lexical"], True), True),
    }
    if args.save_fused:
        prof = profiles["fused (llm + lexscore)"][0][0]
        save_profile(prof.model_copy(update={"name": "embedded-fused", "task": "qasem-table4", "split": "dev"}),
                       args.save_fused)
    from factgrain.agent.verifiers.lexical_features import load_default

    shipped = load_default()
    test_sig = signals_for(test, llm, args.model)
    keep = [i for i, s in enumerate(test_sig) if s is not None]
    rows_t = [test[i] for i in keep]
    sig_t = [test_sig[i] for i in keep]
    y = np.array([r["label"] for r in rows_t])
    g = np.array(C.groups_of(rows_t))
    sub = np.array([r["subset"] for r in rows_t])
    cols: dict[str, tuple[np.ndarray, float]] = {
        "lexical (shipped model, threshold tuned on full dev)": (
            np.array([shipped.prob({k[4:]: v for k, v in s.items() if k.startswith("lex.")}) for s in sig_t]),
            shipped.threshold),
        "LLM P(Yes) at 0.5": (np.array([1 / (1 + np.exp(-s["llm.logit"])) for s in sig_t]), 0.5),
    }
    for label, ((prof, n), _) in profiles.items():
        cols[label] = (np.array([prof.probability(s) for s in sig_t]), 0.5)
    print(f"# Verifiers on qasem_consistency_qa test — LLM: {args.model}\n")
    print(f"LLM-scored sample: {len(rows_t)} test QAs from {args.test_articles} articles per subset "
          f"(dev sample {len(dev)} QAs, {args.dev_articles} articles per subset, seed {args.seed}); "
          f"BAcc | AUC with 95% article-level bootstrap intervals (n={args.n_boot}).\n")
    for label, ((prof, n), _) in profiles.items():
        print(f"- {label}: fitted on {n} dev QAs; dev OOF AUC {prof.meta['dev_oof_auc']}, threshold {prof.threshold:.3f}")
    print()
    print("| verifier | " + " | ".join(f"{s} BAcc | {s} AUC" for s in COLUMNS) + " |")
    print("|---|" + "---|---|" * len(COLUMNS))
    for label, (s, thr) in cols.items():
        cells = []
        for name in COLUMNS:
            m = np.ones(len(sub), bool) if name == "all" else sub == name
            cells.append(_cell(y[m], s[m], thr, g[m], args.n_boot) if m.any() else "– | –")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("\n| subset | n | articles |")
    print("|---|---|---|")
    for name in COLUMNS:
        m = np.ones(len(sub), bool) if name == "all" else sub == name
        print(f"| {name} | {int(m.sum())} | {len(set(g[m].tolist()))} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
