"""Measure the QA decomposer alone against the gold QAs of ``qasem_consistency``.

The ``qasem-decomposer`` benchmark task checks whole responses (decomposition *and* verification);
this script runs only the decomposer, so a change to the reader can be measured in seconds. It
reuses that task's token alignment and matching, so the figures are the same kind: a predicted QA
matches a gold QA of the same response when the predicate is the same token and the answer-token
IOU is >= 0.3, one to one (the QASem parser's scoring).

Figures: predicate recall, QA precision / recall / F1, QAs per sentence, the wh-word agreement on
matched pairs, and decomposition speed (sentences per second); then the same per subset (and, with
``--halves``, per fixed half of the split).

    python -m factgrain.evals.measure_decomposer --split dev                     # offline spaCy reader
    python -m factgrain.evals.measure_decomposer --split dev --span-mode free --model openai/...

In ``parse`` mode the backend is one that fails on any call: the offline path must make none.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from factgrain.evals.tasks.qasem_decomposer import covered, iou, match, token_offsets, wh_word


def no_call_backend() -> Any:
    """A backend that fails the run on any model call (for the offline ``parse`` mode)."""
    from factgrain.backends.scripted import ScriptedBackend

    def refuse(req: Any) -> Any:
        raise AssertionError(f"the offline reader made a model call ({req.kind})")

    return ScriptedBackend(handler=refuse)


def build_backend(spec: str | None) -> Any:
    """A backend from ``provider/model``; ``scripted/<word>`` answers every call with <word>;
    None: :func:`no_call_backend`."""
    if spec is None:
        return no_call_backend()
    if spec.startswith("scripted/"):
        from factgrain.backends.scripted import ScriptedBackend

        word = spec.split("/", 1)[1]
        return ScriptedBackend(handler=lambda req: word)
    from factgrain.backends.registry import get_backend

    return get_backend(spec)


def gold_of(ex: Any) -> list[dict[str, Any]]:
    out = []
    for q in ex.qas:  # gold indices count over the whole response, like token_offsets
        a, b = q.answer_idx
        pa = q.predicate_idx if q.predicate_idx is not None else -1
        out.append({"predicate": q.predicate, "predicate_tok": pa, "answer_toks": list(range(a, b)),
                    "question": q.question, "answer": q.answer})
    return out


def predicted_qas(units: list[Any], offsets: Any) -> list[dict[str, Any]]:
    """The decomposer's QA units in the shape ``match`` compares with the gold: predicate and answer as
    the response tokens their spans cover."""
    pred = []
    for u in units:
        ps = (u.predicate_span.start, u.predicate_span.end) if u.predicate_span else None
        ans = (u.answer_span.start, u.answer_span.end) if u.answer_span else None
        pred.append({"predicate": u.predicate, "type": u.predicate_type.value, "question": u.question, "answer": u.answer,
                     "sentence": u.sentence_index, "predicate_toks": sorted(covered(ps, offsets)),
                     "answer_toks": sorted(covered(ans, offsets))})
    return pred


def reference_group(reference: str | None) -> str:
    """A key shared by the responses written from the same source text (dev's 148 responses come
    from 101 references: several systems summarised the same article)."""
    import hashlib

    return hashlib.md5((reference or "").encode()).hexdigest()[:12]


async def score_response(ex: Any, decomposer: Any) -> dict[str, Any]:
    """Decompose one response and compare its QAs with the gold ones."""
    from factgrain.agent.segment import segment

    doc = segment(ex.text)
    units = await decomposer.decompose(doc)
    offsets = token_offsets(ex.text, ex.sentence_tokens)
    gold = gold_of(ex)
    pred = predicted_qas(units, offsets)
    pairs = match(gold, pred)
    gold_preds = {g["predicate_tok"] for g in gold}
    hit = {t for t in gold_preds if any(t in p["predicate_toks"] for p in pred)}
    wh_same = sum(wh_word(gold[gi]["question"]) == wh_word(pred[pi]["question"]) for gi, pi, _ in pairs)
    pos = {g["predicate_tok"]: q.predicate_pos or "?" for g, q in zip(gold, ex.qas)}
    return {"id": ex.id, "subset": ex.subset, "group": reference_group(ex.reference), "n_sentences": len(ex.sentences), "n_gold": len(gold),
            "n_pred": len(pred), "matched": len(pairs), "wh_same": wh_same,
            "gold_predicates": len(gold_preds), "hit_predicates": len(hit),
            "errors": error_categories(gold, pred, pairs, pos),
            "predicted": [{k: p[k] for k in ("predicate", "type", "question", "answer")} for p in pred],
            "pairs": pairs, "warnings": list(getattr(decomposer, "warnings", []))[:3]}


def error_categories(gold: list[dict[str, Any]], pred: list[dict[str, Any]], pairs: list[tuple[int, int, float]],
                     gold_pos: dict[int, str]) -> dict[str, int]:
    """Counts of what went wrong, by kind. A gold QA left unmatched is ``missed predicate`` (no
    predicted QA has its predicate; by the gold predicate's part of speech), ``missed argument``
    (the predicate is there but no predicted answer overlaps this one), or ``span too long`` /
    ``too short`` / ``shifted`` (the best-overlapping answer of that predicate has IOU < 0.3). A
    predicted QA left unmatched is a ``spurious predicate`` (its predicate is no gold predicate)
    or an ``extra argument`` (of a gold predicate), by predicate type."""
    from collections import Counter

    out: Counter[str] = Counter()
    matched_g = {g for g, _, _ in pairs}
    matched_p = {p for _, p, _ in pairs}
    for gi, g in enumerate(gold):
        if gi in matched_g:
            continue
        same = [p for p in pred if g["predicate_tok"] in p["predicate_toks"]]
        if not same:
            out[f"missed predicate ({gold_pos.get(g['predicate_tok'], '?')})"] += 1
            continue
        ga = set(g["answer_toks"])
        best = max(same, key=lambda p: iou(ga, set(p["answer_toks"])))
        pa = set(best["answer_toks"])
        if not ga & pa:
            out[f"missed argument ({gold_pos.get(g['predicate_tok'], '?')})"] += 1
        else:
            out["span too long" if ga < pa else "span too short" if pa < ga else "span shifted"] += 1
    gold_preds = {g["predicate_tok"] for g in gold}
    for pi, p in enumerate(pred):
        if pi not in matched_p:
            kind = "extra argument" if gold_preds & set(p["predicate_toks"]) else "spurious predicate"
            out[f"{kind} ({p['type']})"] += 1
    return dict(out)


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    t = {k: sum(r[k] for r in records) for k in ("n_sentences", "n_gold", "n_pred", "matched", "wh_same",
                                                  "gold_predicates", "hit_predicates")}
    p = t["matched"] / t["n_pred"] if t["n_pred"] else 0.0
    r = t["matched"] / t["n_gold"] if t["n_gold"] else 0.0
    return {"responses": len(records), "sentences": t["n_sentences"],
            "predicate_recall": t["hit_predicates"] / max(1, t["gold_predicates"]),
            "qa_precision": p, "qa_recall": r, "qa_f1": 2 * p * r / (p + r) if p + r else 0.0,
            "qas_per_sentence": t["n_pred"] / max(1, t["n_sentences"]),
            "gold_qas_per_sentence": t["n_gold"] / max(1, t["n_sentences"]),
            "wh_agreement": t["wh_same"] / t["matched"] if t["matched"] else None}


async def measure(split: str, model: str | None = None, *, limit: int | None = None,
                  span_mode: str = "parse") -> tuple[dict, list]:
    from factgrain.agent.decompose.qasem import QASemDecomposer
    from factgrain.evals.datasets import load_responses

    backend = build_backend(model)
    records = []
    try:
        for ex in load_responses(split, limit=limit):
            dec = QASemDecomposer(backend, span_mode=span_mode)
            records.append(await score_response(ex, dec))
        if span_mode == "parse" and getattr(backend, "requests", None):
            raise AssertionError("the offline reader made model calls")
    finally:
        close = getattr(backend, "aclose", None)
        if close is not None:
            await close()
    return summarize(records), records


def half_of(group: str, subset: str, groups_by_subset: dict[str, list[str]]) -> str:
    """'A' or 'B': a fixed split of a split's responses, stratified by subset and grouped by source
    text (each subset's references ordered by a hash, dealt alternately; every response goes with
    its reference). Rules are developed on one half and checked not to drop on the other, a
    held-out check inside dev. Grouping matters: responses of the same article share its words, so
    a word list fitted on one half would otherwise be rewarded on the other (test has other
    articles)."""
    return "AB"[groups_by_subset[subset].index(group) % 2]


def half_order(key: str, seed: int = 0) -> str:
    """The key that orders a subset's references before they are dealt into halves: a hash,
    salted by ``seed`` (0: unsalted)."""
    import hashlib

    return hashlib.md5((key if seed == 0 else f"{seed}:{key}").encode()).hexdigest()


def halves_of(records: list[dict[str, Any]], seed: int = 0) -> dict[str, str]:
    """Response id -> 'A' / 'B' (see :func:`half_of`), for the split dealt with ``seed``; a record
    without a ``group`` is its own group."""
    groups: dict[str, list[str]] = {}
    for r in records:
        g = groups.setdefault(r["subset"], [])
        if r.get("group", r["id"]) not in g:
            g.append(r.get("group", r["id"]))
    for sub in groups:
        groups[sub].sort(key=lambda k: half_order(k, seed))
    return {r["id"]: half_of(r.get("group", r["id"]), r["subset"], groups) for r in records}


def breakdown(records: list[dict[str, Any]], *, halves: bool = False, seeds: tuple[int, ...] = (0,)) -> dict[str, Any]:
    """Figures per subset and, with ``halves``, per half of each seeded split (see :func:`half_of`;
    the keys are ``half_A`` / ``half_B`` for seed 0, ``s<seed>_A`` / ``s<seed>_B`` for the others)."""

    def short(s: dict[str, Any]) -> dict[str, Any]:
        return {k: round(s[k], 4) if isinstance(s[k], float) else s[k]
                for k in ("responses", "predicate_recall", "qa_precision", "qa_recall", "qa_f1", "wh_agreement")}

    out: dict[str, Any] = {}
    for sub in sorted({r["subset"] for r in records}):
        out[sub] = short(summarize([r for r in records if r["subset"] == sub]))
    if halves:
        for seed in seeds:
            which = halves_of(records, seed)
            for h in "AB":
                key = f"half_{h}" if seed == 0 else f"s{seed}_{h}"
                out[key] = short(summarize([r for r in records if which[r["id"]] == h]))
    return out


def error_breakdown(records: list[dict[str, Any]], *, halves: bool = False,
                    seeds: tuple[int, ...] = (0,)) -> dict[str, dict[str, int]]:
    """:func:`error_categories` summed over all records and, with ``halves``, per half (keys as in
    :func:`breakdown`), most frequent first."""
    from collections import Counter

    def total(rs: list[dict[str, Any]]) -> dict[str, int]:
        c: Counter[str] = Counter()
        for r in rs:
            c.update(r.get("errors", {}))
        return dict(c.most_common())

    out = {"all": total(records)}
    if halves:
        for seed in seeds:
            which = halves_of(records, seed)
            for h in "AB":
                out[f"half_{h}" if seed == 0 else f"s{seed}_{h}"] = total([r for r in records if which[r["id"]] == h])
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="dev", choices=["dev", "test"])
    ap.add_argument("--model", default=None, help="provider/model for --span-mode free (parse mode calls none)")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--span-mode", default="parse", choices=["parse", "free", "enum"])
    ap.add_argument("--records", help="write one JSON line per response here")
    ap.add_argument("--halves", action="store_true",
                    help="also print two fixed halves of the split (stratified by subset), to check that a rule "
                         "developed on one half does not lose on the other")
    ap.add_argument("--errors", action="store_true",
                    help="also print the unmatched gold and predicted QAs by kind (see error_categories), overall and "
                         "per half when halves are asked for")
    ap.add_argument("--halves-seed", type=int, action="append", dest="halves_seeds",
                    help="deal the halves with this seed (repeatable; default 0, the unsalted split)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    summary, records = asyncio.run(measure(args.split, args.model, limit=args.limit, span_mode=args.span_mode))
    seconds = time.perf_counter() - t0
    summary.update(split=args.split, span_mode=args.span_mode, model=args.model, seconds=round(seconds, 1),
                   sentences_per_second=round(summary["sentences"] / seconds, 1) if seconds else None)
    if args.records:
        with open(args.records, "w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec) + "\n")
    print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in summary.items()}, indent=1))
    print(json.dumps({"by_subset": breakdown(records, halves=args.halves or bool(args.halves_seeds),
                                                        seeds=tuple(args.halves_seeds or (0,)))}))
    if args.errors:
        print(json.dumps({"errors": error_breakdown(records, halves=args.halves or bool(args.halves_seeds),
                                                    seeds=tuple(args.halves_seeds or (0,)))}))


if __name__ == "__main__":
    main()
