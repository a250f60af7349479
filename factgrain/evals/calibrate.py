"""Fitting calibration profiles (``factgrain calibrate``): the harness's side of calibration.

A profile (:class:`factgrain.calibration.CalibrationProfile`) is fitted here on a dev split of a
benchmark, with the harness's metrics and folds; the fused verifier only loads and applies it. The
units are verified on the same evidence as a check and ``eval`` (:meth:`Evaluator.evidence_for`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from factgrain.agent.verifiers.fused import lexical_signals
from factgrain.calibration import _EPS, FAMILIES, CalibrationProfile, _logit
from factgrain.errors import ConfigurationError

TASKS = {"qasem-table4": "qasem_consistency_qa"}
LAMBDAS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0)

EvidenceFor = Callable[[Any], Callable[..., list[Any]]]


def signal_names(families: Sequence[str]) -> list[str]:
    from factgrain.agent.verifiers.lexical_features import FEATURE_NAMES

    names: list[str] = []
    for fam in families:
        if fam not in FAMILIES:
            raise ConfigurationError(f"unknown signal family {fam!r}; use {', '.join(FAMILIES)}")
        names += [f"lex.{n}" for n in FEATURE_NAMES] if fam == "lexical" else [f"{fam}.logit"]
    return names


def qa_items(rows: Sequence[dict], evidence_for: EvidenceFor) -> list[Any]:
    """VerifyItems for gold QA rows (``qasem_consistency_qa``): the unit is given, not decomposed.

    ``evidence_for`` is :meth:`Evaluator.evidence_for`, the evidence selection of a check and of
    ``eval`` (the whole reference when short, BM25 passages when long), so a profile is fitted on
    the prompts it will be applied to."""
    from factgrain.agent.verifiers.base import VerifyItem
    from factgrain.schemas.units import QAPair

    items = []
    pickers: dict[str, Any] = {}  # one retriever per reference (rows of one article share it)
    for i, r in enumerate(rows):
        unit = QAPair(id=str(r.get("id", i)), sentence_index=0, predicate=str(r.get("predicate") or ""),
                      question=r["question"], answer=r["answer"])
        comp = unit.components()[0]
        reference = r.get("reference") or ""
        if reference not in pickers:
            pickers[reference] = evidence_for(reference)
        items.append(VerifyItem(unit, comp, r["text"], pickers[reference](unit, comp, r["text"])))
    return items


def evidence_selection(backend: Any = None, model: str | None = None) -> EvidenceFor:
    """The evidence selection of an Evaluator for this model (its retrieval options included)."""
    from factgrain.agent.evaluator import Evaluator
    from factgrain.agent.verifiers.base import Verifier

    # a profile is applied by a model's verifier (llm, fused), so the evidence is what fits its prompt,
    # not the whole long reference the lexical verifier alone reads
    return Evaluator(backend if backend is not None else model, verifier="lexical", cache=False,
                     retrieval_budget_chars=Verifier.evidence_budget_chars).evidence_for


async def collect_signals(items: Sequence[Any], families: Sequence[str], *, backend: Any = None,
                          nli_verifier: Any = None) -> list[dict[str, float] | None]:
    """Signals per item; ``None`` where a needed signal is missing (e.g. an unscored LLM reply)."""
    out: list[dict[str, float] | None] = [{} for _ in items]
    if "lexical" in families or "lexscore" in families:
        for i, item in enumerate(items):
            out[i].update(lexical_signals(item)[0])  # type: ignore[union-attr]
    for fam, verifier in (("llm", _llm(backend) if "llm" in families else None), ("nli", nli_verifier)):
        if fam not in families:
            continue
        if verifier is None:
            raise ConfigurationError(f"signal family {fam!r} needs a {'backend' if fam == 'llm' else 'NLI model'}")
        verdicts = await verifier.verify_items(list(items))
        for i, v in enumerate(verdicts):
            if out[i] is None or v.probability is None:
                out[i] = None
            else:
                out[i][f"{fam}.logit"] = _logit(v.probability)  # type: ignore[index]
    return out


def _llm(backend: Any) -> Any:
    if backend is None:
        return None
    from factgrain.agent.verifiers.llm import LLMVerifier

    return LLMVerifier(backend, keep_prompts=False)


# --------------------------------------------------------------------------- fitting


def fit_profile(signals: Sequence[dict[str, float]], labels: Sequence[int], groups: Sequence[str], *,
                name: str, families: Sequence[str], **fields: Any) -> CalibrationProfile:
    """L2 logistic fusion (penalty by grouped 5-fold CV AUC) and a threshold that maximises
    balanced accuracy on the out-of-fold dev probabilities; refitted on all rows."""
    from factgrain.evals.metrics import best_threshold, roc_auc
    from factgrain.evals.train_lexical import fit_logistic, grouped_folds, oof_probs, standardise

    names = signal_names(families)
    X = np.array([[s[n] for n in names] for s in signals], dtype=float)
    y = np.asarray(labels, dtype=float)
    if len(y) < 10 or len(set(y.tolist())) < 2:
        raise ConfigurationError(f"calibration needs at least 10 rows with both labels; got {len(y)}")
    g = np.asarray(groups)
    folds = grouped_folds(g, k=min(5, len(set(g.tolist()))))
    cv = {lam: roc_auc(y, oof_probs(X, y, folds, lam)) for lam in LAMBDAS}
    lam = max(LAMBDAS, key=lambda l: (round(cv[l], 4), l))
    oof = oof_probs(X, y, folds, lam)
    thr, dev_bacc = best_threshold(y, oof)
    # an uninformative signal can make "all supported" / "all unsupported" (+-inf) the best cut
    thr = min(max(thr, _EPS), 1 - _EPS)
    mu, sd = standardise(X)
    w, b = fit_logistic((X - mu) / sd, y, lam)
    meta = dict(fields.pop("meta", {}) or {})
    meta.update({"n": int(len(y)), "l2_lambda": lam, "dev_oof_auc": round(cv[lam], 4),
                 "dev_oof_bacc": round(float(dev_bacc), 4), "fitted_at": time.strftime("%Y-%m-%d %H:%M:%S")})
    return CalibrationProfile(name=name, families=list(families), signals=names, coefficients=[float(c) for c in w],
                              intercept=float(b), means=[float(m) for m in mu], scales=[float(s) for s in sd],
                              threshold=float(thr), meta=meta, **fields)


def task_rows(task: str, split: str, *, limit: int | None = None, seed: int = 0,
              leakage_filter: bool = True) -> tuple[list[dict], dict]:
    """Rows of a calibration task. For dev, rows whose article also appears in test (shared word
    8-grams) are dropped first, so a profile fitted here can be reported on test honestly."""
    from factgrain.evals.train_lexical import leakage_filter as _filter
    from factgrain.evals.train_lexical import load_rows

    if task not in TASKS:
        raise ConfigurationError(f"unknown calibration task {task!r}; known: {', '.join(TASKS)}")
    rows = load_rows(TASKS[task])
    if split not in {r["split"] for r in rows}:
        raise ConfigurationError(f"unknown split {split!r} for {task}")
    chosen = [r for r in rows if r["split"] == split]
    info: dict = {}
    if leakage_filter and split != "test":
        chosen, info = _filter(chosen, [r for r in rows if r["split"] == "test"])
    if limit is not None and limit < len(chosen):
        keep = np.sort(np.random.default_rng(seed).choice(len(chosen), size=limit, replace=False))
        chosen = [chosen[i] for i in keep]
    # group rows by article so an LLM server's prefix cache reuses the reference
    chosen.sort(key=lambda r: (r["reference"] or "", r.get("id", "")))
    return chosen, info


def groups_of(rows: Sequence[dict]) -> list[str]:
    return [f"{r.get('subset')}:{r.get('source_id')}" for r in rows]


def families_for(verifier: str | None, *, signals: str | None = None, nli_model: str | None = None) -> list[str]:
    """Signal families a calibration fits: one verifier's own signal, or a fusion."""
    if signals:
        fams = [s.strip() for s in signals.split(",") if s.strip()]
    elif verifier in ("llm", "nli", "lexical"):
        fams = [verifier]
    elif verifier in (None, "fused"):
        fams = ["llm", "lexical"] + (["nli"] if nli_model else [])
    else:
        raise ConfigurationError(f"unknown verifier {verifier!r}; use llm, nli, lexical or fused")
    signal_names(fams)  # validates the names
    return fams


async def calibrate(task: str, split: str, *, name: str, families: Sequence[str], model: str | None = None,
                    backend: Any = None, nli_model: str | None = None, nli_verifier: Any = None,
                    limit: int | None = None, seed: int = 0) -> CalibrationProfile:
    """Fit a profile on ``split`` of ``task`` (never test: profiles are reported on test)."""
    if split == "test":
        raise ConfigurationError("calibration never fits on test: use --split dev (test is for reporting)")
    rows, leak = task_rows(task, split, limit=limit, seed=seed)
    if "llm" in families and backend is None:
        from factgrain.backends.registry import get_backend

        backend = get_backend(model)
    if "nli" in families and nli_verifier is None:
        if not nli_model:
            raise ConfigurationError("the nli signal needs a model directory (--nli-model DIR or --model nli/DIR)")
        from factgrain.agent.verifiers.nli import NLIVerifier

        nli_verifier = NLIVerifier(nli_model)
    items = qa_items(rows, evidence_selection(backend, model))
    signals = await collect_signals(items, families, backend=backend, nli_verifier=nli_verifier)
    ok = [(r, s) for r, s in zip(rows, signals) if s is not None]
    if "llm" in families and backend is not None:
        model = model or backend.name
    return fit_profile([s for _, s in ok], [r["label"] for r, _ in ok], groups_of([r for r, _ in ok]), name=name,
                       families=list(families), model=model if "llm" in families else None,
                       nli_model=str(nli_model) if "nli" in families and nli_model else None, task=task, split=split,
                       meta={"rows": len(rows), "dropped_unscored": len(rows) - len(ok), "limit": limit, "seed": seed,
                             "leakage_filter": leak})
