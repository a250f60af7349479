"""A learned filter of the offline reader's QA pairs, fitted and measured on dev (fifth round).

Negative result, not shipped (see "Fifth round (precision)" in ``docs/decomposition.md``): no
threshold of the out-of-fold scores gains F1 on dev or on any held-out half.

Every QA pair the offline reader (:mod:`factgrain.agent.decompose.qasem_parse`) writes on a dev
response is labelled 1 when it matches a gold QA (same predicate token, answer IOU >= 0.3, one to
one; :mod:`.measure_decomposer`) and described by :func:`features`: generic properties of its
predicate and answer in spaCy's parse (predicate type, role, wh-word, the answer head's dependency
label and part of speech, answer length, pronoun answer, clause depth, how many pairs the predicate
and the sentence have, how much of the answer the sentence's other pairs reach ...). An
L2-regularised logistic regression is fitted on them. A low-scoring pair is dropped only when
:func:`droppable` allows: the content it checks stays checked (it repeats a kept pair's predicate
and answer, or its answer words all lie in the answers and predicates of the sentence's other kept
pairs), so a sentence's only pair, or one whose answer nothing else reaches (``The vote was
unanimous.``), is never dropped.

Everything is measured out of sample, with responses grouped by their source article
(:func:`measure_decomposer.reference_group`):

* ``oof``: article-grouped k-fold over all dev (AUC, and P / R / F1 at each threshold, each fold
  scored by the model fitted on the others);
* halves: for each seeded half (``--halves-seed``, default 0 and 1) the model is fitted, and its
  threshold chosen by an inner grouped k-fold, on the *other* half only, then applied to this one.

    python -m factgrain.evals.fit_qa_filter

Dev only: the script has no ``--split`` option on purpose.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import math
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from factgrain.agent.decompose.qasem_parse import ParsedQA

_WH = ("what", "who", "when", "where", "why", "how", "whom", "which")
_ROLES = ("subject", "object", "agent", "complement", "clause", "adjunct", "prep-object")
_DEPS = ("nsubj", "nsubjpass", "dobj", "pobj", "prep", "advcl", "ccomp", "xcomp", "acomp", "attr", "conj",
         "relcl", "acl", "appos", "npadvmod", "advmod", "compound", "poss", "amod", "dative", "agent", "pcomp",
         "ROOT", "oprd", "csubj")
_POS = ("NOUN", "PROPN", "PRON", "VERB", "ADJ", "NUM", "ADV", "ADP", "DET", "AUX", "SCONJ")
_PRED_DEPS = ("ROOT", "conj", "relcl", "advcl", "xcomp", "ccomp", "acl", "amod", "pcomp", "pobj", "dobj",
              "nsubj", "compound", "attr", "appos")
_FUNCTION_POS = frozenset({"PUNCT", "DET", "ADP", "CCONJ", "SCONJ", "PART", "SPACE"})


def _tokens(doc: Any, start: int, end: int) -> list[Any]:
    return [t for t in doc if t.idx < end and t.idx + len(t.text) > start]


def _content(toks: list[Any]) -> set[int]:
    return {t.i for t in toks if t.pos_ not in _FUNCTION_POS}


def _span_head(toks: list[Any]) -> Any | None:
    inside = {t.i for t in toks}
    heads = [t for t in toks if t.head.i not in inside or t.head.i == t.i]
    return heads[0] if heads else None


def _depth(tok: Any) -> int:
    """How many verbs (clauses) stand above ``tok`` in the parse."""
    n, t = 0, tok
    while t.head.i != t.i and n < 20:
        t = t.head
        n += t.pos_ in ("VERB", "AUX")
    return n


def _wh(question: str) -> str:
    words = question.lower().split()
    if not words:
        return ""
    if words[0] == "how" and len(words) > 1 and words[1] in ("much", "many", "long"):
        return "how much"
    return words[0] if words[0] in _WH else "other"


def features(qas: list[ParsedQA], text: str) -> list[dict[str, float]]:
    """One feature dict per pair of ``qas`` (all read from ``text``, one sentence)."""
    from factgrain.agent.reader import parse, readable_copy

    doc = parse(readable_copy(text))
    spans = []
    for q in qas:
        a_toks = _tokens(doc, q.answer_start, q.answer_start + len(q.answer))
        p_toks = _tokens(doc, q.predicate_start, q.predicate_start + len(q.predicate))
        spans.append((a_toks, p_toks, _content(a_toks) or {t.i for t in a_toks}))
    by_pred: dict[int, int] = {}
    for q in qas:
        by_pred[q.predicate_start] = by_pred.get(q.predicate_start, 0) + 1
    out = []
    for k, q in enumerate(qas):
        a_toks, p_toks, a_set = spans[k]
        f: dict[str, float] = {"bias": 1.0}
        f[f"type={q.predicate_type}"] = 1.0
        role = q.role if q.role in _ROLES else "other"
        f[f"role={role}"] = 1.0
        wh = _wh(q.question)
        f[f"wh={wh}"] = 1.0
        f[f"type={q.predicate_type}:role={role}"] = 1.0
        head = _span_head(a_toks)
        if head is not None:
            dep = head.dep_ if head.dep_ in _DEPS else "other"
            f[f"adep={dep}"] = 1.0
            f[f"apos={head.pos_ if head.pos_ in _POS else 'other'}"] = 1.0
            f["answer_entity"] = float(bool(head.ent_type_))
        pred = p_toks[0] if p_toks else None
        if pred is not None:
            f[f"pdep={pred.dep_ if pred.dep_ in _PRED_DEPS else 'other'}"] = 1.0
            f["pred_depth"] = min(_depth(pred), 4) / 4
            f["pred_negated"] = float(any(c.dep_ == "neg" for c in pred.children))
            f["pred_aux_modal"] = float(any(c.tag_ == "MD" for c in pred.children))
            if a_toks:
                gap = a_toks[0].i - pred.i if a_toks[0].i > pred.i else pred.i - a_toks[-1].i
                f["answer_after"] = float(a_toks[0].i > pred.i)
                f["log_gap"] = math.log1p(max(0, gap)) / 3
        n = len(a_toks)
        f["log_len"] = math.log1p(n) / 3
        f["one_word"] = float(n == 1)
        f["long_answer"] = float(n > 12)
        f["pronoun"] = float(n == 1 and a_toks[0].pos_ == "PRON")
        f["starts_prep"] = float(bool(a_toks) and a_toks[0].pos_ in ("ADP", "SCONJ"))
        f["has_comma"] = float(any(t.text == "," for t in a_toks[1:-1]))
        f["has_verb"] = float(any(t.pos_ == "VERB" for t in a_toks))
        f["copula"] = float(q.predicate_type == "copular")
        f["log_pred_qas"] = math.log1p(by_pred[q.predicate_start]) / 2
        f["log_sent_qas"] = math.log1p(len(qas)) / 3
        f["log_sent_len"] = math.log1p(len(doc)) / 4
        same_pred = [j for j in range(len(qas)) if j != k and qas[j].predicate_start == q.predicate_start]
        f["same_role_twice"] = float(any(qas[j].role == q.role for j in same_pred))
        f["dup_answer_same_pred"] = float(any(spans[j][2] & a_set for j in same_pred))
        others: set[int] = set()
        for j in range(len(qas)):
            if j != k:
                others |= spans[j][2] | _content(spans[j][1])
        f["covered_share"] = len(a_set & others) / len(a_set) if a_set else 1.0
        out.append(f)
    return out


def score(f: dict[str, float], weights: dict[str, float]) -> float:
    z = sum(weights.get(k, 0.0) * v for k, v in f.items())
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def droppable(k: int, kept: set[int], qas: list[ParsedQA], spans: list[tuple[set[int], set[int]]]) -> bool:
    """Whether pair ``k`` may go while the pairs in ``kept`` (without ``k``) stay: it duplicates a kept
    pair's predicate and answer words, or its answer words all lie in kept pairs' answers and predicates."""
    others = [j for j in kept if j != k]
    if not others:
        return False
    a_set = spans[k][0]
    for j in others:
        if qas[j].predicate_start == qas[k].predicate_start and spans[j][0] == a_set:
            return True
    covered: set[int] = set()
    for j in others:
        covered |= spans[j][0] | spans[j][1]
    return bool(a_set) and a_set <= covered


def keep_indices(qas: list[ParsedQA], text: str, probs: list[float], threshold: float) -> set[int]:
    """The indices of ``qas`` that :func:`filter_qas` keeps, given each pair's score."""
    from factgrain.agent.reader import parse, readable_copy

    doc = parse(readable_copy(text))
    spans = []
    for q in qas:
        a_toks = _tokens(doc, q.answer_start, q.answer_start + len(q.answer))
        p_toks = _tokens(doc, q.predicate_start, q.predicate_start + len(q.predicate))
        spans.append((_content(a_toks) or {x.i for x in a_toks}, _content(p_toks) or {x.i for x in p_toks}))
    kept = set(range(len(qas)))
    for k in sorted(range(len(qas)), key=lambda i: probs[i]):
        if probs[k] >= threshold:
            break
        if droppable(k, kept, qas, spans):
            kept.discard(k)
    return kept


THRESHOLDS = (0.0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)


async def collect() -> list[dict[str, Any]]:
    """One record per dev response: its gold, and per sentence the reader's pairs with their
    features, the predicted-QA dict each becomes (None when it cannot be located) and label."""
    from factgrain.agent.decompose import parse_mode, qasem_parse
    from factgrain.agent.decompose.qasem import QASemDecomposer
    from factgrain.agent.segment import segment
    from factgrain.evals.datasets import load_responses
    from factgrain.evals.measure_decomposer import (
        gold_of,
        no_call_backend,
        predicted_qas,
        reference_group,
    )
    from factgrain.evals.tasks.qasem_decomposer import match, token_offsets

    dec = QASemDecomposer(no_call_backend(), span_mode="parse")
    out = []
    for ex in load_responses("dev"):
        doc = segment(ex.text)
        parse_mode.parse_sentences(doc)
        offsets = token_offsets(ex.text, ex.sentence_tokens)
        sentences = []
        for s in doc.sentences:
            qas = qasem_parse.read_qas(s.text)
            feats = features(qas, s.text)
            seen: set[tuple] = set()
            preds = []
            for q in qas:
                key = (q.predicate.lower(), q.question.lower(), q.answer.lower(), q.predicate_start, q.answer_start)
                units = [] if key in seen else dec._to_units(s, [(q.predicate, q.predicate_type, q.question, q.answer,
                                                                 q.predicate_start, q.answer_start)])
                seen.add(key)
                preds.append(predicted_qas(units, offsets)[0] if units else None)
            sentences.append({"text": s.text, "qas": qas, "features": feats, "pred": preds})
        gold = gold_of(ex)
        flat = [(si, k) for si, s in enumerate(sentences) for k, p in enumerate(s["pred"]) if p is not None]
        pairs = match(gold, [sentences[si]["pred"][k] for si, k in flat])
        hit = {flat[pi] for _, pi, _ in pairs}
        for si, s in enumerate(sentences):
            s["label"] = [int((si, k) in hit) for k in range(len(s["qas"]))]
        out.append({"id": ex.id, "subset": ex.subset, "group": reference_group(ex.reference), "gold": gold,
                    "sentences": sentences})
    return out


def vocabulary(records: list[dict[str, Any]]) -> list[str]:
    return sorted({k for r in records for s in r["sentences"] for f in s["features"] for k in f})


def matrix(records: list[dict[str, Any]], names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    col = {n: i for i, n in enumerate(names)}
    rows, ys = [], []
    for r in records:
        for s in r["sentences"]:
            for f, y, p in zip(s["features"], s["label"], s["pred"]):
                if p is None:
                    continue
                x = np.zeros(len(names))
                for k, v in f.items():
                    if k in col:
                        x[col[k]] = v
                rows.append(x)
                ys.append(y)
    return np.array(rows), np.array(ys, dtype=float)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method, L2 on every weight but the bias (column named 'bias')."""
    w = np.zeros(x.shape[1])
    reg = np.full(x.shape[1], l2)
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ (p - y) + reg * w
        h = (x * (p * (1 - p))[:, None]).T @ x + np.diag(reg)
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def auc(scores: list[float], labels: list[int]) -> float:
    pos = [s for s, y in zip(scores, labels) if y]
    neg = [s for s, y in zip(scores, labels) if not y]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def fit_records(records: list[dict[str, Any]], l2: float) -> dict[str, float]:
    names = vocabulary(records)
    x, y = matrix(records, names)
    return dict(zip(names, fit(x, y, l2).tolist()))


def evaluate(records: list[dict[str, Any]], weights: dict[str, float] | None, threshold: float) -> dict[str, float]:
    """P / R / F1 of the reader's pairs after the filter (None: no filter)."""
    from factgrain.evals.tasks.qasem_decomposer import match

    n_pred = n_gold = matched = dropped = 0
    for r in records:
        pred = []
        for s in r["sentences"]:
            if weights is None:
                kept = set(range(len(s["qas"])))
            else:
                probs = [score(f, weights) for f in s["features"]]
                kept = keep_indices(s["qas"], s["text"], probs, threshold) if len(s["qas"]) > 1 \
                    else set(range(len(s["qas"])))
            dropped += sum(1 for k, p in enumerate(s["pred"]) if p is not None and k not in kept)
            pred.extend(p for k, p in enumerate(s["pred"]) if p is not None and k in kept)
        n_pred += len(pred)
        n_gold += len(r["gold"])
        matched += len(match(r["gold"], pred))
    p = matched / n_pred if n_pred else 0.0
    rc = matched / n_gold if n_gold else 0.0
    return {"P": 100 * p, "R": 100 * rc, "F1": 100 * (2 * p * rc / (p + rc) if p + rc else 0.0), "dropped": dropped}


def folds(records: list[dict[str, Any]], k: int, salt: str = "") -> list[list[dict[str, Any]]]:
    groups = sorted({r["group"] for r in records}, key=lambda g: hashlib.md5((salt + g).encode()).hexdigest())
    which = {g: i % k for i, g in enumerate(groups)}
    return [[r for r in records if which[r["group"]] == i] for i in range(k)]


def choose_threshold(train: list[dict[str, Any]], l2: float, k: int = 4) -> float:
    """The threshold with the best mean F1 over an inner article-grouped k-fold of ``train`` (0.0:
    drop nothing, when no threshold gains)."""
    parts = folds(train, k, salt="inner")
    models = [fit_records([r for j, p in enumerate(parts) if j != i for r in p], l2) for i in range(k)]
    best, best_f1 = 0.0, -1.0
    for t in THRESHOLDS:
        f1 = sum(evaluate(parts[i], models[i], t)["F1"] for i in range(k)) / k
        if f1 > best_f1 + 1e-9:
            best, best_f1 = t, f1
    return best


def main(argv: list[str] | None = None) -> None:
    from factgrain.evals.measure_decomposer import halves_of

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--l2", type=float, default=2.0)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--halves-seed", type=int, action="append", dest="seeds")
    args = ap.parse_args(argv)
    records = asyncio.run(collect())
    report: dict[str, Any] = {"before": {k: round(v, 2) for k, v in evaluate(records, None, 0.0).items()}}

    # out of fold over all dev: each response scored by the model fitted on the other folds
    parts = folds(records, args.folds)
    oof: list[tuple[dict[str, Any], dict[str, float]]] = []
    for i, test in enumerate(parts):
        w = fit_records([r for j, p in enumerate(parts) if j != i for r in p], args.l2)
        oof.extend((r, w) for r in test)
    scores = [(score(f, w), y) for r, w in oof for s in r["sentences"]
              for f, y, p in zip(s["features"], s["label"], s["pred"]) if p is not None]
    report["oof_auc"] = round(auc([x for x, _ in scores], [y for _, y in scores]), 4)
    report["oof_by_threshold"] = {str(t): pooled([(r, w, t) for r, w in oof]) for t in THRESHOLDS[1:]}

    # halves: fitted and threshold chosen on one half only, applied to the other
    for seed in args.seeds or [0, 1]:
        which = halves_of([{"id": r["id"], "subset": r["subset"], "group": r["group"]} for r in records], seed)
        for h, other in (("A", "B"), ("B", "A")):
            held = [r for r in records if which[r["id"]] == h]
            train = [r for r in records if which[r["id"]] == other]
            w = fit_records(train, args.l2)
            t = choose_threshold(train, args.l2)
            report[f"s{seed}_{h}"] = {"threshold": t,
                                      "before": {k: round(v, 2) for k, v in evaluate(held, None, 0.0).items()},
                                      "after": {k: round(v, 2) for k, v in evaluate(held, w, t).items()}}
    print(json.dumps(report))


def pooled(oof_records: list[tuple[dict[str, Any], dict[str, float], float]]) -> dict[str, float]:
    """P / R / F1 over all responses, each filtered by its own fold's model and threshold."""
    from factgrain.evals.tasks.qasem_decomposer import match

    n_pred = n_gold = matched = dropped = 0
    for r, w, t in oof_records:
        pred = []
        for s in r["sentences"]:
            probs = [score(f, w) for f in s["features"]]
            kept = keep_indices(s["qas"], s["text"], probs, t) if len(s["qas"]) > 1 else set(range(len(s["qas"])))
            dropped += sum(1 for k, p in enumerate(s["pred"]) if p is not None and k not in kept)
            pred.extend(p for k, p in enumerate(s["pred"]) if p is not None and k in kept)
        n_pred += len(pred)
        n_gold += len(r["gold"])
        matched += len(match(r["gold"], pred))
    p, rc = matched / n_pred, matched / n_gold
    return {"P": round(100 * p, 2), "R": round(100 * rc, 2), "F1": round(100 * 2 * p * rc / (p + rc), 2), "dropped": dropped}


if __name__ == "__main__":
    main()
