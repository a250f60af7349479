"""Fit the lexical support model on QASemConsistency dev and report test.

    python -m factgrain.evals.train_lexical [--dev-only] [--nested-cv] [--procedure P] [--out PATH]

Steps:

1. load ``qasem_consistency_qa`` (one row per predicate-argument QA);
2. leakage filter: dev and test draw on overlapping source articles, so every
   dev row whose reference shares a word 8-gram with any *test* reference is
   dropped from fitting (8-grams that occur in many different references —
   boilerplate such as "media playback is not supported on this device" — do
   not count);
3. features from :mod:`factgrain.agent.verifiers.lexical_features`;
4. L2-regularised logistic regression by Newton's method (numpy, deterministic), by one of
   the procedures of :func:`fit_procedure`. The shipped one (``interact``, round 4) is ``monotone``
   refitted with the pairwise products of its eight strongest signed features added as inputs
   (sign +1: the parts of a unit found together). ``monotone`` fits every candidate
   feature with its coefficient held to the direction :data:`FEATURE_SIGNS` knows (more of the unit
   found never lowers support, a clash never raises it; a feature whose fit goes the other way is
   held at 0 and left out of the model) and weights the two classes equally, so that 0.5 on the
   fitted probability is the balanced cut-off; the penalty is picked by grouped (article) 5-fold
   cross-validated AUC. ``backward`` is the earlier fit (backward elimination of features by the
   same cross-validation, threshold for balanced accuracy on the out-of-fold probabilities). The
   veto features (``VETOES``: explicit contradictions, too rare on dev to fit a weight to) are not
   fitted; they cap the probability (see ``LexicalModel``);
5. the model is refitted on all kept dev rows and written as JSON (``--dev-only`` stops here);
   ``--nested-cv`` instead prints the per-subset nested grouped cross-validation table of the
   procedures on dev, every choice made inside the training folds, grouped by article; it writes
   nothing. That table is the evidence for the choice of procedure;
6. only then is test touched: per subset BAcc at the tuned threshold and ROC AUC,
   with 95% intervals from an article-level (``source_id``) cluster bootstrap,
   for the model and two baselines with their own thresholds tuned on dev: the
   single feature answer coverage (``ans_cov_max``) and plain word overlap (the
   share of the QA's content words found anywhere in the reference).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from factgrain.agent.verifiers.lexical_features import (
    FEATURE_NAMES,
    LexicalModel,
    content_tokens,
    lexical_features,
    normalize_tokens,
)
from factgrain.evals.metrics import balanced_accuracy, best_threshold, bootstrap_ci, roc_auc

DATA_DIR = Path("/work/shared/data")
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "agent" / "verifiers" / "lexical_model.json"
SUBSETS = ("cliff", "factscore", "verifiability")
BASELINE_FEATURE = "ans_cov_max"
NGRAM = 8
BOILERPLATE_MIN_REFS = 5  # an 8-gram in this many distinct references is boilerplate
LAMBDAS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0)
N_FOLDS = 5
SELECTION_SEEDS = (0, 1, 2)  # fold assignments averaged over during feature selection
SELECTION_LAMBDA = 30.0
MIN_GAIN = 0.0003
#: explicit contradictions, applied as caps rather than fitted (see LexicalModel)
VETOES = ("ans_doubted", "date_clash", "vote_clash", "qty_unit_clash", "polarity_clash", "agent_clash", "antonym_clash",
          "role_clash", "person_swap", "slot_clash")
#: the direction a feature can only push support in (the ``monotone`` procedure holds the fitted
#: coefficients to it): more of the unit found in the reference never means less support, a clash,
#: an absent name or a negation the other side lacks never means more. Features left out (answer
#: length, no content word) have no known direction.
FEATURE_SIGNS: dict[str, int] = {
    **{n: +1 for n in (
        "ans_cov_best", "ans_cov_max", "ans_cov_ref", "ans_bigram_ref", "qa_cov_best", "pred_in_best",
        "pred_in_ref", "pred_ans_joint", "sent_cov_best", "sent_cov_ref", "best_score", "num_agree",
        "lem_ans_cov_ref", "lem_ans_cov_sent", "lem_pred_ref", "lem_pred_ans_sent", "ans_head_in_ref",
        "ans_head_linked", "pred_ans_linked", "generic_ans_typed", "qty_agree", "copula_claim_cov",
        "lem_ans_cov_linked", "idf_ans_cov_sent")},
    **{n: -1 for n in ("num_clash", "sent_num_clash", "name_absent", "sent_name_absent", "qty_clash",
                       "qty_unit_clash", "neg_mismatch", "ans_name_missing")},
}
#: the ``interact`` procedure adds the pairwise products of this many of the monotone fit's strongest
#: signed features (round 4: the unit is supported when its parts are found *together*)
INTERACTION_TOP_K = 8
#: fitting procedures (``--procedure``); ``boosted`` is the shipped one (round 6)
PROCEDURES = ("boosted", "bagged", "interact", "monotone", "backward", "all", "overlap")
#: the ``boosted`` procedure's candidate settings of scikit-learn's HistGradientBoostingClassifier,
#: one picked by grouped CV inside the training rows. Depth 1 is an additive model of monotone step
#: functions, one per feature; depth 2 and 3 let two or three features act together.
BOOST_GRID: tuple[dict[str, Any], ...] = tuple(
    {"max_depth": d, "learning_rate": 0.05, "max_iter": it, "l2_regularization": 1.0, "min_samples_leaf": leaf}
    for d, it, leaf in ((1, 300, 20), (2, 100, 20), (2, 200, 20), (2, 300, 20), (2, 200, 40), (3, 150, 20)))


#: the ``bagged`` procedure (round 8): how many article-grouped bootstrap samples of the training rows
#: the chosen tree setting is refitted on; their logits are averaged
BAG_SIZE = 10

# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------


def _parse(v: Any) -> Any:
    if isinstance(v, str):
        s = v.strip()
        if s[:1] in "[{" or re.fullmatch(r"-?\d+(\.\d+)?", s):
            try:
                return json.loads(s)
            except json.JSONDecodeError:
                return v
    return v


def load_rows(name: str = "qasem_consistency_qa", data_dir: Path = DATA_DIR) -> list[dict]:
    rows = []
    with gzip.open(Path(data_dir) / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            for k in ("label", "annotations", "source_id", "qa_id", "sent_id", "predicate_idx"):
                if k in r:
                    r[k] = _parse(r[k])
            r["label"] = int(r["label"])
            rows.append(r)
    return rows


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", (text or "").lower())


def _ngrams(text: str, n: int = NGRAM) -> set[tuple[str, ...]]:
    w = _words(text)
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


def leakage_filter(dev: list[dict], test: list[dict], n: int = NGRAM) -> tuple[list[dict], dict]:
    """Drop dev rows whose reference shares a non-boilerplate word n-gram with a test reference."""
    refs = {r["reference"] for r in dev} | {r["reference"] for r in test}
    grams = {ref: _ngrams(ref, n) for ref in refs}
    freq: dict[tuple[str, ...], int] = {}
    for g in grams.values():
        for x in g:
            freq[x] = freq.get(x, 0) + 1
    boiler = {x for x, c in freq.items() if c >= BOILERPLATE_MIN_REFS}
    test_grams: set[tuple[str, ...]] = set()
    for ref in {r["reference"] for r in test}:
        test_grams |= grams[ref] - boiler
    leaky_refs = {ref for ref in {r["reference"] for r in dev} if grams[ref] & test_grams}
    kept = [r for r in dev if r["reference"] not in leaky_refs]
    info = {
        "ngram": n,
        "boilerplate_ngrams": len(boiler),
        "dev_refs": len({r["reference"] for r in dev}),
        "dropped_refs": len(leaky_refs),
        "dev_rows": len(dev),
        "dropped_rows": len(dev) - len(kept),
    }
    return kept, info


def featurize(rows: list[dict]) -> np.ndarray:
    X = np.empty((len(rows), len(FEATURE_NAMES)), dtype=float)
    for i, r in enumerate(rows):
        f = lexical_features(
            answer=r["answer"],
            question=r["question"],
            sentence=r["text"],
            reference=r["reference"] or "",
            predicate=r.get("predicate"),
        )
        X[i] = f.vector(FEATURE_NAMES)
    return X


def word_overlap(row: dict) -> float:
    """Plain baseline: share of the QA's content words (question + answer) found anywhere in the reference."""
    words = set(content_tokens(f"{row['question']} {row['answer']}"))
    if not words:
        return 1.0
    ref = set(normalize_tokens(row["reference"] or ""))
    return len(words & ref) / len(words)


def group_ids(rows: list[dict]) -> np.ndarray:
    return np.array([f"{r['subset']}:{r['source_id']}" for r in rows])


# ---------------------------------------------------------------------------
# logistic regression
# ---------------------------------------------------------------------------


def fit_logistic(X: np.ndarray, y: np.ndarray, lam: float, iters: int = 50, *,
                 weights: np.ndarray | None = None, signs: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """L2 logistic regression (intercept unpenalised) by Newton's method.

    Minimises ``sum weight * log-loss + lam/2 * ||w||^2`` on already-standardised ``X``. With
    ``signs`` (+1 / -1 / 0 per column), a coefficient whose sign contradicts a known direction is
    fixed at 0 and the rest refitted, the largest offender first, until every coefficient agrees
    (an active-set fit of the sign-constrained problem; 0 leaves a column free).
    """
    if signs is None:
        return _newton(X, y, lam, iters, weights)
    signs = np.asarray(signs)
    active = np.ones(X.shape[1], bool)
    while True:
        w_active, b = _newton(X[:, active], y, lam, iters, weights)
        w = np.zeros(X.shape[1])
        w[active] = w_active
        wrong = (signs != 0) & (w != 0) & (np.sign(w) != signs)
        if not wrong.any():
            return w, b
        active[int(np.argmax(np.where(wrong, np.abs(w), -1.0)))] = False


def _newton(X: np.ndarray, y: np.ndarray, lam: float, iters: int, weights: np.ndarray | None) -> tuple[np.ndarray, float]:
    n, d = X.shape
    sw = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    A = np.hstack([np.ones((n, 1)), X])
    w = np.zeros(d + 1)
    reg = np.full(d + 1, lam)
    reg[0] = 0.0
    for _ in range(iters):
        z = A @ w
        p = 1.0 / (1.0 + np.exp(-z))
        g = A.T @ (sw * (p - y)) + reg * w
        h = (A * (sw * p * (1 - p))[:, None]).T @ A + np.diag(reg) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w[1:], float(w[0])


def balanced_weights(y: np.ndarray) -> np.ndarray:
    """Row weights that give both classes the same total weight (mean 1), so that 0.5 on the fitted
    probability is the cut-off for balanced accuracy whatever the share of supported units."""
    pi = float(np.mean(y))
    if pi in (0.0, 1.0):
        return np.ones(len(y))
    return np.where(y == 1, 0.5 / pi, 0.5 / (1 - pi))


def feature_signs(names: list[str] | tuple[str, ...]) -> np.ndarray:
    """+1 / -1 / 0 per feature name from :data:`FEATURE_SIGNS`; an interaction (``"a*b"``, its factors
    oriented so that more means more support, see :func:`interaction_names`) is +1."""
    return np.array([+1 if "*" in n else FEATURE_SIGNS.get(n, 0) for n in names])


def interaction_names(features: list[str]) -> list[str]:
    """The pairwise products of signed features, each factor oriented towards support: a feature that
    counts against it (sign -1, e.g. ``name_absent``) enters as ``~name_absent`` (1 - its value)."""
    oriented = [f"~{n}" if FEATURE_SIGNS.get(n, 0) < 0 else n for n in features]
    return [f"{a}*{b}" for i, a in enumerate(oriented) for b in oriented[i + 1:]]


def design_matrix(X: np.ndarray, names: list[str] | tuple[str, ...]) -> np.ndarray:
    """The model inputs ``names`` (features of :data:`FEATURE_NAMES` or interactions ``"a*b"``) from the
    feature matrix ``X``; the same values as ``lexical_features.feature_value`` gives one row."""
    cols = []
    for name in names:
        col = np.ones(len(X))
        for part in name.split("*"):
            if part.startswith("~"):
                col = col * (1.0 - np.clip(X[:, FEATURE_NAMES.index(part[1:])], 0.0, 1.0))
            else:
                col = col * X[:, FEATURE_NAMES.index(part)]
        cols.append(col)
    return np.column_stack(cols) if cols else np.empty((len(X), 0))


def standardise(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd < 1e-9] = 1.0
    return mu, sd


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def grouped_folds(groups: np.ndarray, k: int = N_FOLDS, seed: int = 0) -> np.ndarray:
    """Deterministic fold id per row; all rows of a group share a fold."""
    uniq = np.unique(groups)
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(uniq))
    fold_of = {g: int(perm[i] % k) for i, g in enumerate(uniq)}
    return np.array([fold_of[g] for g in groups])


def select_features(X: np.ndarray, y: np.ndarray, groups: np.ndarray, candidates: list[int]) -> tuple[list[int], list[tuple[str, float]]]:
    """Backward elimination by grouped cross-validated AUC (see the module docstring)."""

    def cv(cols: list[int]) -> float:
        return float(np.mean([roc_auc(y, oof_probs(X[:, cols], y, grouped_folds(groups, seed=s), SELECTION_LAMBDA))
                              for s in SELECTION_SEEDS]))

    kept = list(candidates)
    best = cv(kept)
    trace = [("(all)", round(best, 4))]
    while len(kept) > 1:
        score, drop = max((cv([c for c in kept if c != j]), j) for j in kept)
        if score < best + MIN_GAIN:
            break
        best = score
        kept.remove(drop)
        trace.append((FEATURE_NAMES[drop], round(score, 4)))
    return kept, trace


def veto_mask(X: np.ndarray) -> np.ndarray:
    cols = [FEATURE_NAMES.index(v) for v in VETOES]
    return (X[:, cols] >= 0.5).any(axis=1)


def oof_probs(X: np.ndarray, y: np.ndarray, folds: np.ndarray, lam: float, *, balanced: bool = False,
              signs: np.ndarray | None = None) -> np.ndarray:
    out = np.empty(len(y))
    for f in np.unique(folds):
        tr, te = folds != f, folds == f
        mu, sd = standardise(X[tr])
        w, b = fit_logistic((X[tr] - mu) / sd, y[tr], lam, weights=balanced_weights(y[tr]) if balanced else None,
                            signs=signs)
        out[te] = _sigmoid(((X[te] - mu) / sd) @ w + b)
    return out


def pick_lambda(X: np.ndarray, y: np.ndarray, folds: np.ndarray, **fit: Any) -> tuple[float, dict[float, float]]:
    """The penalty with the best grouped cross-validated AUC (ties: the stronger penalty)."""
    scores = {lam: roc_auc(y, oof_probs(X, y, folds, lam, **fit)) for lam in LAMBDAS}
    return max(LAMBDAS, key=lambda l: (round(scores[l], 4), l)), scores


# ---------------------------------------------------------------------------
# nested grouped cross-validation of the fitting procedures (dev only)
# ---------------------------------------------------------------------------


def article_groups(rows: list[dict], n: int = NGRAM) -> np.ndarray:
    """One group per article: rows of one ``source_id`` and rows whose references share a word n-gram
    (the same article under another id) are joined, so no fold sees another part of a held-out article."""
    parent: dict[Any, Any] = {}

    def find(a: Any) -> Any:
        while parent.setdefault(a, a) != a:
            a = parent[a]
        return a

    refs = sorted({r["reference"] or "" for r in rows})
    grams = {ref: _ngrams(ref, n) for ref in refs}
    for r in rows:
        parent[find(("source", r["subset"], r["source_id"]))] = find(("ref", r["reference"] or ""))
    owner: dict[tuple[str, ...], str] = {}
    for ref in refs:
        for gram in grams[ref]:
            if gram in owner:
                parent[find(("ref", ref))] = find(("ref", owner[gram]))
            else:
                owner[gram] = ref
    ids: dict[Any, int] = {}
    return np.array([ids.setdefault(find(("ref", r["reference"] or "")), len(ids)) for r in rows])


def fit_procedure(procedure: str, X: np.ndarray, y: np.ndarray, groups: np.ndarray, seed: int = 0) -> dict:
    """Every choice a fitting procedure makes, on the rows given (grouped CV with fold seed ``seed``):
    the feature columns, the penalty, the fit options and the decision threshold on the raw probability.

    * ``boosted`` (shipped since round 6): monotone boosted trees, the :data:`BOOST_GRID` setting picked
      by grouped CV AUC; ``bagged`` (round 8, not shipped): the same choice, then refitted on
      :data:`BAG_SIZE` article-grouped bootstrap samples with their logits averaged;
    * ``interact`` (rounds 4-5): ``monotone`` first; then the pairwise products of its
      :data:`INTERACTION_TOP_K` largest signed coefficients (per SD; answer length and "no content word"
      have no sign and are not used) are added as inputs with sign +1 and the same fit is repeated, λ
      picked again;
    * ``monotone``: every candidate feature, coefficients held to :data:`FEATURE_SIGNS`,
      classes weighted to equal total weight, so the threshold is 0.5 (nothing tuned but λ);
    * ``backward``: backward elimination of features (the earlier shipped fit), threshold for balanced
      accuracy on the out-of-fold probabilities;
    * ``all``: every candidate, free signs, threshold as ``backward``;
    * ``overlap``: the overlap features of :mod:`lexical_features` alone, threshold as ``backward``.
    """
    from factgrain.agent.verifiers.lexical_features import _OVERLAP_FEATURES

    candidates = [i for i, n in enumerate(FEATURE_NAMES) if n not in VETOES]
    if procedure in ("boosted", "bagged"):
        return {**fit_boosted(X, y, groups, candidates, seed=seed), "procedure": procedure}
    if procedure == "interact":
        first = fit_procedure("monotone", X, y, groups, seed=seed)
        w = apply_fit(first, X, y)[0]
        signed = [(abs(c), FEATURE_NAMES[i]) for c, i in zip(w, first["cols"]) if c != 0 and FEATURE_SIGNS.get(FEATURE_NAMES[i])]
        top = [n for _, n in sorted(signed, key=lambda t: (-t[0], t[1]))[:INTERACTION_TOP_K]]
        names = [FEATURE_NAMES[i] for i in candidates] + interaction_names(top)
        fit = {"balanced": True, "signs": feature_signs(names)}
        folds = grouped_folds(groups, seed=seed)
        Xd = design_matrix(X, names)
        lam, scores = pick_lambda(Xd, y, folds, **fit)
        oof = np.where(veto_mask(X), 0.0, oof_probs(Xd, y, folds, lam, **fit))
        return {"procedure": procedure, "cols": candidates, "names": names, "interacting": top, "lam": lam,
                "cv_auc_by_lambda": scores, "fit": fit, "threshold": 0.5, "oof": oof}
    if procedure == "monotone":
        cols = candidates
        fit = {"balanced": True, "signs": feature_signs([FEATURE_NAMES[i] for i in cols])}
    elif procedure == "backward":
        cols, fit = select_features(X, y, groups, candidates)[0], {}
    elif procedure == "all":
        cols, fit = candidates, {}
    elif procedure == "overlap":
        cols, fit = [FEATURE_NAMES.index(n) for n in _OVERLAP_FEATURES], {}
    else:
        raise ValueError(f"unknown procedure {procedure!r}; known: {', '.join(PROCEDURES)}")
    folds = grouped_folds(groups, seed=seed)
    lam, scores = pick_lambda(X[:, cols], y, folds, **fit)
    oof = np.where(veto_mask(X), 0.0, oof_probs(X[:, cols], y, folds, lam, **fit))
    threshold = 0.5 if fit.get("balanced") else float(best_threshold(y, oof)[0])
    return {"procedure": procedure, "cols": cols, "names": [FEATURE_NAMES[i] for i in cols], "lam": lam, "cv_auc_by_lambda": scores, "fit": fit,
            "threshold": threshold, "oof": oof}


def boosted_estimator(config: dict[str, Any], cols: list[int], seed: int = 0) -> Any:
    """An unfitted monotone HistGradientBoostingClassifier (scikit-learn: needed to fit only)."""
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
    except ImportError as exc:
        raise SystemExit("the boosted procedure fits with scikit-learn: pip install -e '.[dev]'") from exc
    signs = [FEATURE_SIGNS.get(FEATURE_NAMES[i], 0) for i in cols]
    return HistGradientBoostingClassifier(monotonic_cst=signs, random_state=seed, **config)


def fit_boosted_estimator(config: dict[str, Any], cols: list[int], X: np.ndarray, y: np.ndarray, seed: int = 0) -> Any:
    """Fitted on the columns ``cols`` with the two classes weighted equally (so 0.5 is the balanced cut-off)."""
    return boosted_estimator(config, cols, seed).fit(X[:, cols], y, sample_weight=balanced_weights(y))


def fit_boosted(X: np.ndarray, y: np.ndarray, groups: np.ndarray, candidates: list[int], seed: int = 0) -> dict:
    """The ``boosted`` procedure: the :data:`BOOST_GRID` setting with the best grouped-CV AUC on these rows
    (vetoes applied to the out-of-fold probabilities), threshold 0.5."""
    folds = grouped_folds(groups, seed=seed)
    vetoed = veto_mask(X)
    scores, oofs = [], []
    for config in BOOST_GRID:
        oof = np.empty(len(y))
        for f in range(N_FOLDS):
            tr, te = folds != f, folds == f
            oof[te] = fit_boosted_estimator(config, candidates, X[tr], y[tr], seed).predict_proba(X[te][:, candidates])[:, 1]
        oof = np.where(vetoed, 0.0, oof)
        scores.append(roc_auc(y, oof))
        oofs.append(oof)
    best = int(np.argmax(scores))
    return {"procedure": "boosted", "cols": candidates, "names": [FEATURE_NAMES[i] for i in candidates],
            "config": BOOST_GRID[best], "cv_auc_by_config": {json.dumps(c, sort_keys=True): round(a, 4) for c, a in zip(BOOST_GRID, scores)},
            "lam": None, "fit": {"balanced": True}, "threshold": 0.5, "oof": oofs[best]}


def grouped_bootstrap(groups: np.ndarray, n: int, seed: int = 0) -> list[np.ndarray]:
    """``n`` row weights (how often each row is drawn) from bootstrap samples of whole article groups:
    as many groups as there are, drawn with replacement."""
    rng = np.random.default_rng(seed)
    names = np.unique(groups)
    out = []
    for _ in range(n):
        drawn, counts = np.unique(rng.choice(names, size=len(names), replace=True), return_counts=True)
        per = dict(zip(drawn, counts))
        out.append(np.array([per.get(g, 0) for g in groups], dtype=float))
    return out


def fit_bagged_estimators(config: dict[str, Any], cols: list[int], X: np.ndarray, y: np.ndarray, groups: np.ndarray,
                          n: int = BAG_SIZE, seed: int = 0) -> list[Any]:
    """The chosen tree setting fitted on ``n`` article-grouped bootstrap samples (classes weighted equally
    in each); the bag's logit is the mean of theirs."""
    ests = []
    for k, w in enumerate(grouped_bootstrap(groups, n, seed=seed)):
        keep = w > 0
        sw = balanced_weights(y[keep]) * w[keep]
        ests.append(boosted_estimator(config, cols, k).fit(X[keep][:, cols], y[keep], sample_weight=sw))
    return ests


def _bag_logit(ests: list[Any], Xs: np.ndarray) -> np.ndarray:
    return np.mean([e.decision_function(Xs) for e in ests], axis=0)


def fitted_predictor(chosen: dict, X_train: np.ndarray, y_train: np.ndarray,
                     groups_train: np.ndarray | None = None) -> tuple[Any, int]:
    """A function from feature rows to probabilities (vetoes not applied) for the procedure's choice
    refitted on the given rows, and how many inputs it reads (non-zero coefficients; features split on)."""
    if chosen["procedure"] == "bagged":
        if groups_train is None:
            raise ValueError("the bagged procedure draws article groups: pass groups_train")
        ests = fit_bagged_estimators(chosen["config"], chosen["cols"], X_train, y_train, groups_train)
        used = {int(f) for est in ests for (p,) in est._predictors
                for f, leaf in zip(p.nodes["feature_idx"], p.nodes["is_leaf"]) if not leaf}
        return (lambda Xs: _sigmoid(_bag_logit(ests, Xs[:, chosen["cols"]]))), len(used)
    if chosen["procedure"] == "boosted":
        est = fit_boosted_estimator(chosen["config"], chosen["cols"], X_train, y_train)
        used = {int(f) for (p,) in est._predictors for f, leaf in zip(p.nodes["feature_idx"], p.nodes["is_leaf"]) if not leaf}
        return (lambda Xs: est.predict_proba(Xs[:, chosen["cols"]])[:, 1]), len(used)
    w, b, mu, sd = apply_fit(chosen, X_train, y_train)
    return (lambda Xs: _sigmoid(((design_matrix(Xs, chosen["names"]) - mu) / sd) @ w + b)), int(np.count_nonzero(w))


def apply_fit(chosen: dict, X_train: np.ndarray, y_train: np.ndarray) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """Coefficients, intercept, means and scales of the procedure's choice refitted on the given rows."""
    Xc = design_matrix(X_train, chosen["names"])
    mu, sd = standardise(Xc)
    fit = chosen["fit"]
    w, b = fit_logistic((Xc - mu) / sd, y_train, chosen["lam"],
                        weights=balanced_weights(y_train) if fit.get("balanced") else None, signs=fit.get("signs"))
    return w, b, mu, sd


def nested_cv(X: np.ndarray, y: np.ndarray, groups: np.ndarray, subsets: np.ndarray,
              seeds: tuple[int, ...] = (0, 1, 2, 3, 4), procedures: tuple[str, ...] = PROCEDURES) -> dict:
    """Honest dev estimate of each fitting procedure: outer grouped 5-fold CV (fold assignments
    ``seeds``), every choice (features, λ, threshold) made on the outer training folds only by inner
    grouped CV (:func:`fit_procedure`). Vetoes are applied to every out-of-fold probability. Returns per
    procedure the per-subset AUC and BAcc at the procedure's own threshold (what the shipped
    verifier's 0.5 is), averaged over ``seeds``, with the λ and number of non-zero coefficients chosen
    per fold."""
    vetoed = veto_mask(X)
    names = (*SUBSETS, "all")
    masks = [subsets == s for s in SUBSETS] + [np.ones(len(y), bool)]
    out: dict[str, dict[str, list]] = {k: {"auc": [], "bacc": [], "features": [], "lambdas": []} for k in procedures}
    for seed in seeds:
        folds = grouped_folds(groups, seed=seed)
        for k in procedures:
            p, thr = np.empty(len(y)), np.empty(len(y))
            for f in range(N_FOLDS):
                tr, te = folds != f, folds == f
                chosen = fit_procedure(k, X[tr], y[tr], groups[tr], seed=100 + seed)
                predict, n_inputs = fitted_predictor(chosen, X[tr], y[tr], groups[tr])
                p[te] = predict(X[te])
                thr[te] = chosen["threshold"]
                out[k]["features"].append(n_inputs)
                out[k]["lambdas"].append(chosen["lam"] if chosen["lam"] is not None
                                         else "depth {max_depth}, {max_iter} trees".format(**chosen["config"]))
            p = np.where(vetoed, 0.0, p)
            out[k]["auc"].append([roc_auc(y[m], p[m]) for m in masks])
            out[k]["bacc"].append([balanced_accuracy(y[m], (p[m] >= thr[m]).astype(int)) for m in masks])
    return {k: {"subsets": names, "auc": np.mean(v["auc"], axis=0).tolist(), "bacc": np.mean(v["bacc"], axis=0).tolist(),
                "auc_sd_over_seeds": np.std(v["auc"], axis=0).tolist(),
                "features_per_fold": v["features"], "lambdas": v["lambdas"]} for k, v in out.items()}


def print_nested_table(results: dict, file: Any = sys.stdout) -> None:
    """The per-subset nested-CV table (percentages; the sd is over fold assignments)."""
    print("| procedure | AUC cliff / factscore / verifiability / all | BAcc at its threshold | AUC sd | "
          "inputs read | λ or trees chosen |", file=file)
    print("|---|---|---|---|---|---|", file=file)
    fmt = lambda v: " / ".join(f"{100 * x:.1f}" for x in v)  # noqa: E731
    for k, r in results.items():
        lams = sorted(set(r["lambdas"]), key=str)
        print(f"| {k} | {fmt(r['auc'])} | {fmt(r['bacc'])} | {fmt(r['auc_sd_over_seeds'])} | "
              f"{min(r['features_per_fold'])}-{max(r['features_per_fold'])} | "
              f"{', '.join(f'{l:g}' if isinstance(l, float) else str(l) for l in lams)} |",
              file=file)


# ---------------------------------------------------------------------------
# reporting
# ---------------------------------------------------------------------------


def _ci_str(value: float, ci: tuple[float, float]) -> str:
    return f"{100 * value:.1f} [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def evaluate(y: np.ndarray, s: np.ndarray, thr: float, groups: np.ndarray, n_boot: int) -> dict:
    pred = (s >= thr).astype(int)
    bacc = balanced_accuracy(y, pred)
    auc = roc_auc(y, s)
    bacc_ci = bootstrap_ci(lambda a, b: balanced_accuracy(a, (b >= thr).astype(int)), y, s, n=n_boot, seed=0, groups=groups)
    auc_ci = bootstrap_ci(roc_auc, y, s, n=n_boot, seed=0, groups=groups)
    return {"bacc": bacc, "bacc_ci": bacc_ci, "auc": auc, "auc_ci": auc_ci, "n": int(len(y))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the fitted model JSON")
    ap.add_argument("--data", type=Path, default=DATA_DIR)
    ap.add_argument("--n-boot", type=int, default=1000)
    ap.add_argument("--dev-only", action="store_true",
                    help="fit and print the dev cross-validation figures; do not touch test (for development)")
    ap.add_argument("--procedure", choices=PROCEDURES, default="boosted",
                    help="fitting procedure (see fit_procedure); boosted is the shipped one")
    ap.add_argument("--all-features", action="store_true", help="same as --procedure all")
    ap.add_argument("--nested-cv", action="store_true",
                    help="print the per-subset nested grouped (article) cross-validation of the fitting procedures "
                         "on dev and exit; writes nothing, does not touch test")
    ap.add_argument("--procedures", default=",".join(PROCEDURES),
                    help="with --nested-cv: which procedures, comma-separated (backward is the slow one)")
    args = ap.parse_args(argv)
    procedure = "all" if args.all_features else args.procedure
    t0 = time.perf_counter()

    rows = load_rows("qasem_consistency_qa", args.data)
    dev_all = [r for r in rows if r["split"] == "dev"]
    test = [r for r in rows if r["split"] == "test"]
    dev, leak = leakage_filter(dev_all, test)
    print(
        f"leakage filter: dropped {leak['dropped_rows']} of {leak['dev_rows']} dev rows "
        f"({leak['dropped_refs']} of {leak['dev_refs']} references share a {NGRAM}-gram with test)",
        file=sys.stderr,
    )

    # ---- fit on dev only ---------------------------------------------------
    X_all = featurize(dev)
    y = np.array([r["label"] for r in dev], dtype=float)
    ga = article_groups(dev)
    if args.nested_cv:
        procs = tuple(p.strip() for p in args.procedures.split(",") if p.strip())
        unknown = [p for p in procs if p not in PROCEDURES]
        if unknown:
            ap.error(f"unknown procedure(s) {unknown}; known: {', '.join(PROCEDURES)}")
        print(f"nested grouped CV on {len(y)} dev rows, {len(np.unique(ga))} article groups "
              f"(outer 5 folds x 5 fold assignments; inner grouped CV for every choice; vetoes applied)\n")
        print_nested_table(nested_cv(X_all, y, ga, np.array([row["subset"] for row in dev]), procedures=procs))
        print(f"\n{time.perf_counter() - t0:.0f}s", file=sys.stderr)
        return 0
    chosen = fit_procedure(procedure, X_all, y, ga, seed=0)
    base_col = FEATURE_NAMES.index(BASELINE_FEATURE)
    base_thr, base_dev_bacc = best_threshold(y, X_all[:, base_col])
    ov_dev = np.array([word_overlap(r) for r in dev])
    ov_thr, ov_dev_bacc = best_threshold(y, ov_dev)
    def finish(text: str, model: Any, summary: str, header: str, weights: tuple[str, list[str]], oof: np.ndarray,
               thr: float) -> int:
        """Write the model, print the dev summary, and (unless --dev-only) score test."""
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        print(f"{summary}; baselines dev BAcc: `{BASELINE_FEATURE}` {base_dev_bacc:.4f}, word overlap "
              f"{ov_dev_bacc:.4f}; fit {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        if args.dev_only:
            print_dev_subsets(dev, y, oof, thr, ov_dev)
            return 0
        return report_test(model, test, thr, header, weights, base_col, base_thr, base_dev_bacc, ov_thr, ov_dev_bacc,
                           args.n_boot, t0, args.out)

    if procedure in ("boosted", "bagged"):
        from factgrain.agent.verifiers.lexical_boosted import dumps

        model = boosted_model(chosen, X_all, y, leak, ga)
        oof = chosen["oof"]
        summary = (f"dev ({procedure}): {model.meta['config']}, {len(model.trees)} trees splitting on "
                   f"{len(model.meta['features_split_on'])} of {len(chosen['names'])} features; grouped {N_FOLDS}-fold CV AUC "
                   f"by setting {chosen['cv_auc_by_config']}; out-of-fold AUC (with vetoes) {roc_auc(y, oof):.4f}, BAcc "
                   f"{model.meta['dev_oof_bacc']:.4f} at 0.5")
        header = (f"Fitted on {len(y)} dev QAs (dropped {leak['dropped_rows']} by the {NGRAM}-gram leakage filter): "
                  f"monotone boosted trees, {model.meta['config']} (picked by grouped {N_FOLDS}-fold CV AUC on dev); "
                  f"threshold 0.5 (balanced class weights; out-of-fold dev BAcc {model.meta['dev_oof_bacc']:.3f}).")
        splits = model.meta["features_split_on"]
        weights = ("| feature | splits |", [f"| {n_} | {c} |" for n_, c in sorted(splits.items(), key=lambda x: -x[1])])
        return finish(dumps(model), model, summary, header, weights, oof, 0.5)

    w_all, b, mu_all, sd_all = apply_fit(chosen, X_all, y)
    # a coefficient held at 0 by its sign constraint reads nothing: the model lists only the others
    keep = [j for j, c in enumerate(w_all) if c != 0.0]
    names = [chosen["names"][j] for j in keep]
    w, mu, sd = w_all[keep], mu_all[keep], sd_all[keep]
    lam, cv, thr = chosen["lam"], chosen["cv_auc_by_lambda"], chosen["threshold"]
    vetoed = veto_mask(X_all)
    oof = chosen["oof"]  # vetoes applied
    oof_lr_auc = cv[lam]
    dev_bacc = balanced_accuracy(y, (oof >= thr).astype(int))
    candidates = [i for i, n in enumerate(FEATURE_NAMES) if n not in VETOES]
    dropped = [n for n in chosen["names"] if n not in names]

    model = LexicalModel(
        feature_names=names,
        vetoes=list(VETOES),
        coefficients=[float(c) for c in w],
        intercept=b,
        threshold=float(thr),
        means=[float(m) for m in mu],
        scales=[float(s) for s in sd],
        meta={
            "trained_on": "qasem_consistency_qa dev (leakage-filtered)",
            "n_train": int(len(y)),
            "leakage_filter": leak,
            "l2_lambda": lam,
            "cv_auc_by_lambda": {str(k): round(v, 4) for k, v in cv.items()},
            "procedure": procedure,
            "interacting_features": chosen.get("interacting"),
            "fit_options": {"balanced_class_weights": bool(chosen["fit"].get("balanced")),
                            "sign_constraints": {n: int(s) for n, s in zip(names, feature_signs(names)) if s}
                            if chosen["fit"].get("signs") is not None else None},
            "groups": "articles (source_id joined over shared word 8-grams), grouped 5-fold CV, fold seed 0",
            "dropped_candidates": dropped,
            "dev_oof_auc_with_vetoes": round(roc_auc(y, oof), 4),
            "training_command": "python -m factgrain.evals.train_lexical" + ("" if procedure == "interact"
                                                                             else f" --procedure {procedure}"),
            "dev_vetoed_rows": int(vetoed.sum()),
            "dev_vetoed_supported": int(y[vetoed].sum()),
            "threshold_source": "0.5: balanced class weights" if chosen["fit"].get("balanced")
            else "balanced accuracy on out-of-fold dev probabilities",
            "dev_oof_bacc": round(dev_bacc, 4),
            "dev_oof_auc": round(oof_lr_auc, 4),
            "coefficients_are_on": "standardised features: (x - mean) / scale",
        },
    )
    summary = (f"dev ({procedure}): {len(names)} of {len(chosen['names'])} inputs with a non-zero coefficient (not used: "
               f"{dropped}); grouped {N_FOLDS}-fold CV AUC by lambda {model.meta['cv_auc_by_lambda']}; lambda={lam}; "
               f"out-of-fold AUC {oof_lr_auc:.4f} (with vetoes {roc_auc(y, oof):.4f}), BAcc {dev_bacc:.4f} at threshold "
               f"{thr:.3f}; vetoes fired on {int(vetoed.sum())} rows ({int(y[vetoed].sum())} labelled supported)")
    header = (f"Fitted on {len(y)} dev QAs (dropped {leak['dropped_rows']} by the {NGRAM}-gram leakage filter); "
              f"L2 lambda={lam} (grouped {N_FOLDS}-fold CV AUC {cv[lam]:.3f}); threshold {thr:.3f} "
              f"(out-of-fold dev BAcc {dev_bacc:.3f}). Features kept: {len(names)} of {len(candidates)}.")
    weights = ("| feature | coefficient (per SD) |",
               [f"| {n_} | {c:+.3f} |" for n_, c in sorted(zip(names, w), key=lambda x: -abs(x[1]))] + [f"\nintercept {b:+.3f}"])
    return finish(json.dumps(model.to_dict(), indent=2) + "\n", model, summary, header, weights, oof, thr)


def print_dev_subsets(dev: list[dict], y: np.ndarray, oof: np.ndarray, thr: float, ov_dev: np.ndarray) -> None:
    oof_sub = np.array([r["subset"] for r in dev])
    for name in SUBSETS:
        m = oof_sub == name
        print(f"dev out-of-fold {name}: n={int(m.sum())} AUC {100 * roc_auc(y[m], oof[m]):.1f} "
              f"BAcc {100 * balanced_accuracy(y[m], (oof[m] >= thr).astype(int)):.1f}; word overlap AUC "
              f"{100 * roc_auc(y[m], ov_dev[m]):.1f}", file=sys.stderr)


def bag_model(models: list[Any], **kwargs: Any) -> Any:
    """One :class:`BoostedModel` whose logit is the mean of ``models``' logits: every tree kept, its
    outputs divided by the bag's size, the base logits averaged."""
    from factgrain.agent.verifiers.lexical_boosted import BoostedModel, Tree

    n = len(models)
    trees = [Tree(feature=t.feature, threshold=t.threshold, left=t.left, right=t.right,
                  value=[v / n for v in t.value], is_leaf=t.is_leaf) for m in models for t in m.trees]
    return BoostedModel(feature_names=list(models[0].feature_names), trees=trees,
                        base_logit=sum(m.base_logit for m in models) / n, **kwargs)


def boosted_model(chosen: dict, X: np.ndarray, y: np.ndarray, leak: dict, groups: np.ndarray | None = None) -> Any:
    """The ``boosted`` choice refitted on all kept dev rows, exported to a :class:`BoostedModel`; the
    export must reproduce scikit-learn's own scores on those rows."""
    from collections import Counter

    from factgrain.agent.verifiers.lexical_boosted import from_sklearn

    if chosen["procedure"] == "bagged":
        ests = fit_bagged_estimators(chosen["config"], chosen["cols"], X, y, groups)
        model = bag_model([from_sklearn(e, chosen["names"]) for e in ests], threshold=0.5, vetoes=list(VETOES))
        theirs = _bag_logit(ests, X[:, chosen["cols"]])
    else:
        est = fit_boosted_estimator(chosen["config"], chosen["cols"], X, y)
        model = from_sklearn(est, chosen["names"], threshold=0.5, vetoes=list(VETOES))
        theirs = est.decision_function(X[:, chosen["cols"]])
    rows = [dict(zip(FEATURE_NAMES, x)) for x in X]
    mine = np.array([model.raw_logit(r) for r in rows])
    if not np.allclose(mine, theirs, atol=1e-6):
        raise AssertionError(f"exported trees disagree with scikit-learn (max diff {np.abs(mine - theirs).max():.2e})")
    splits = Counter(model.feature_names[f] for t in model.trees for f, leaf in zip(t.feature, t.is_leaf) if not leaf)
    vetoed = veto_mask(X)
    model.meta = {
        "trained_on": "qasem_consistency_qa dev (leakage-filtered)", "n_train": len(y), "leakage_filter": leak,
        "procedure": chosen["procedure"], "config": chosen["config"],
        **({"bag": f"{BAG_SIZE} article-grouped bootstrap samples, logits averaged"} if chosen["procedure"] == "bagged" else {}), "cv_auc_by_config": chosen["cv_auc_by_config"],
        "fitter": "sklearn.ensemble.HistGradientBoostingClassifier, monotonic_cst from FEATURE_SIGNS, balanced sample weights",
        "sign_constraints": {n: FEATURE_SIGNS[n] for n in chosen["names"] if FEATURE_SIGNS.get(n)},
        "features_split_on": dict(splits.most_common()),
        "groups": "articles (source_id joined over shared word 8-grams), grouped 5-fold CV, fold seed 0",
        "dev_oof_auc_with_vetoes": round(roc_auc(y, chosen["oof"]), 4),
        "dev_oof_bacc": round(balanced_accuracy(y, (chosen["oof"] >= 0.5).astype(int)), 4),
        "dev_vetoed_rows": int(vetoed.sum()), "dev_vetoed_supported": int(y[vetoed].sum()),
        "training_command": "python -m factgrain.evals.train_lexical",
        "threshold_source": "0.5: balanced class weights",
    }
    return model


def report_test(model: Any, test: list[dict], thr: float, header: str, weights: tuple[str, list[str]], base_col: int,
                base_thr: float, base_dev_bacc: float, ov_thr: float, ov_dev_bacc: float, n_boot: int, t0: float,
                out: Path) -> int:
    """Test, touched only here: per subset BAcc and AUC with cluster-bootstrap intervals, for the model
    and the two baselines (their thresholds from dev)."""
    Xt = featurize(test)
    yt = np.array([r["label"] for r in test], dtype=int)
    gt = group_ids(test)
    st = np.array([model.prob(dict(zip(FEATURE_NAMES, x))) for x in Xt])
    bt = Xt[:, base_col]
    ot = np.array([word_overlap(r) for r in test])
    sub = np.array([r["subset"] for r in test])

    print("# Lexical verifier — qasem_consistency_qa test\n")
    print(
        f"{header} Baseline `{BASELINE_FEATURE}` threshold {base_thr:.3f} "
        f"(dev BAcc {base_dev_bacc:.3f}); word overlap threshold {ov_thr:.3f} (dev BAcc {ov_dev_bacc:.3f}). "
        f"Vetoes {list(VETOES)}. 95% intervals: cluster bootstrap over source articles, n={n_boot}.\n"
    )
    print("| subset | n | model BAcc | model AUC | answer coverage BAcc | AUC | word overlap BAcc | AUC |")
    print("|---|---|---|---|---|---|---|---|")
    results = {}
    for name in (*SUBSETS, "all"):
        m = np.ones(len(yt), bool) if name == "all" else sub == name
        rm = evaluate(yt[m], st[m], thr, gt[m], n_boot)
        rb = evaluate(yt[m], bt[m], base_thr, gt[m], n_boot)
        ro = evaluate(yt[m], ot[m], ov_thr, gt[m], n_boot)
        results[name] = {"model": rm, "baseline": rb, "word_overlap": ro}
        print(
            f"| {name} | {rm['n']} | {_ci_str(rm['bacc'], rm['bacc_ci'])} | {_ci_str(rm['auc'], rm['auc_ci'])} "
            f"| {_ci_str(rb['bacc'], rb['bacc_ci'])} | {_ci_str(rb['auc'], rb['auc_ci'])} "
            f"| {_ci_str(ro['bacc'], ro['bacc_ci'])} | {_ci_str(ro['auc'], ro['auc_ci'])} |"
        )
    print(f"\n{weights[0]}")
    print("|---|---|")
    for line in weights[1]:
        print(line)
    print(f"\ntotal {time.perf_counter() - t0:.1f}s; model written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
