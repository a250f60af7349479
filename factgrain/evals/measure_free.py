"""Measure free-mode QA decomposition (the model writes the pairs) on ``qasem_consistency``.

Beside the figures of :mod:`factgrain.evals.measure_decomposer` it counts where each sentence's
units came from, the figures issue 15 sets targets for:

* sentences with content (``context.has_content``) that got units, from the model itself or from
  the per-sentence fall-back to the offline reader, and those left without any;
* the QA precision of the model's own pairs (pairs of fall-back sentences left out);
* seconds per sentence.

    python -m factgrain.evals.measure_free --split dev --limit 20 --model embedded/<path.gguf> --cache
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any


async def measure(split: str, model: str, *, limit: int | None, cache: bool, fallback: bool = True) -> tuple[dict, list]:
    from factgrain.agent.decompose.context import has_content
    from factgrain.agent.decompose.qasem import QASemDecomposer
    from factgrain.agent.segment import segment
    from factgrain.evals.datasets import load_responses
    from factgrain.evals.measure_decomposer import build_backend, gold_of, predicted_qas
    from factgrain.evals.tasks.qasem_decomposer import match, token_offsets

    if model.startswith("scripted/"):
        backend = build_backend(model)
    else:  # a loaded 2-core machine answers a long reply slowly: wait, rather than fail the call
        from factgrain.backends.registry import get_backend

        backend = get_backend(model, timeout=600.0)
    if cache:
        from factgrain.backends.cache import CachedBackend, CallCache

        backend = CachedBackend(backend, CallCache(None))
    records = []
    try:
        for ex in load_responses(split, limit=limit):
            dec = QASemDecomposer(backend, span_mode="free", fallback=fallback)
            doc = segment(ex.text)
            t0 = time.perf_counter()
            units = await dec.decompose(doc)
            seconds = time.perf_counter() - t0
            offsets = token_offsets(ex.text, ex.sentence_tokens)
            gold = gold_of(ex)
            pred = [{**qa, "source": dec.sentence_sources.get(qa["sentence"], "?")}
                    for qa in predicted_qas(units, offsets)]
            pairs = match(gold, pred)
            content = [s.index for s in doc.sentences if has_content(s.text)]
            with_units = {u.sentence_index for u in units}
            records.append({
                "id": ex.id, "seconds": round(seconds, 1), "sentences": len(doc.sentences), "content": len(content),
                "from_model": sum(1 for i in content if i in with_units and dec.sentence_sources.get(i) == "model"),
                "from_fallback": sum(1 for i in content if i in with_units and dec.sentence_sources.get(i) == "fallback"),
                "without_units": sum(1 for i in content if i not in with_units),
                "n_gold": len(gold), "n_pred": len(pred), "matched": len(pairs),
                "model_pred": sum(1 for p in pred if p["source"] == "model"),
                "model_matched": sum(1 for _, pi, _ in pairs if pred[pi]["source"] == "model"),
                "dropped_pairs": len(dec.dropped), "warnings": dec.warnings,
                "predicted": [{k: p[k] for k in ("sentence", "source", "predicate", "question", "answer")} for p in pred],
            })
            print(json.dumps({k: records[-1][k] for k in ("id", "seconds", "content", "from_model", "from_fallback",
                                                         "without_units", "model_pred", "model_matched")}), flush=True)
    finally:
        close = getattr(backend, "aclose", None)
        if close is not None:
            await close()
    return summarize(records), records


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    t = {k: sum(r[k] for r in records) for k in ("sentences", "content", "from_model", "from_fallback", "without_units",
                                                  "n_gold", "n_pred", "matched", "model_pred", "model_matched",
                                                  "dropped_pairs", "seconds")}
    p = t["matched"] / t["n_pred"] if t["n_pred"] else 0.0
    r = t["matched"] / t["n_gold"] if t["n_gold"] else 0.0
    got = t["from_model"] + t["from_fallback"]
    return {
        "responses": len(records), "sentences": t["sentences"], "sentences_with_content": t["content"],
        "with_units_pct": 100 * got / max(1, t["content"]),
        "from_model_pct": 100 * t["from_model"] / max(1, got),
        "from_fallback": t["from_fallback"], "without_units": t["without_units"],
        "model_qa_precision": 100 * t["model_matched"] / max(1, t["model_pred"]),
        "qa_precision": 100 * p, "qa_recall": 100 * r, "qa_f1": 100 * (2 * p * r / (p + r) if p + r else 0.0),
        "model_pairs": t["model_pred"], "dropped_pairs": t["dropped_pairs"],
        "seconds_per_sentence": t["seconds"] / max(1, t["sentences"]),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="dev", choices=["dev", "test"])
    ap.add_argument("--model", required=True)
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--cache", action="store_true", help="answer repeated calls from the disk cache")
    ap.add_argument("--no-fallback", action="store_true", help="no per-sentence fall-back to the offline reader")
    ap.add_argument("--records", help="write one JSON line per response here")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    summary, records = asyncio.run(measure(args.split, args.model, limit=args.limit, cache=args.cache,
                                           fallback=not args.no_fallback))
    summary.update(split=args.split, model=args.model, seconds=round(time.perf_counter() - t0, 1))
    if args.records:
        with open(args.records, "w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec) + "\n")
    print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in summary.items()}, indent=1))


if __name__ == "__main__":
    main()
