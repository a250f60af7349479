"""Measure free-mode QA decomposition (the model writes the pairs) on ``qasem_consistency``.

Beside the figures of :mod:`factgrain.evals.measure_decomposer` it counts where each sentence's
units came from, the figures issue 15 sets targets for:

* sentences with content (``context.has_content``) that got units, from the model itself or from
  the per-sentence fall-back to the offline reader, and those left without any;
* the QA precision of the model's own pairs (pairs of fall-back sentences left out);
* seconds per sentence.

    python -m factgrain.evals.measure_free --split dev --limit 20 --model embedded/<path.gguf> --cache

``--limit 20`` is the standard (reported) sample, drawn with seed 0. Tune on another one:
``--tuning`` draws ``--limit`` responses with ``--seed`` (default 1) from the dev responses *outside*
the standard sample, so that what is tuned on is never what is reported.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any


STANDARD_SEED = 0


def sample(split: str, limit: int | None, *, seed: int = STANDARD_SEED, tuning: bool = False) -> list[Any]:
    """The responses measured: the standard seeded sample, or with ``tuning`` a sample of the
    responses outside it (drawn with ``seed``)."""
    from factgrain.evals.datasets import load_responses

    if not tuning:
        return load_responses(split, limit=limit, seed=seed)
    if seed == STANDARD_SEED:
        raise ValueError("a tuning sample needs a seed other than the standard sample's (0)")
    standard = {ex.id for ex in load_responses(split, limit=limit, seed=STANDARD_SEED)}
    rest = [ex for ex in load_responses(split) if ex.id not in standard]
    if limit is None or limit >= len(rest):
        return rest
    import numpy as np

    keep = set(np.random.default_rng(seed).choice(len(rest), size=limit, replace=False).tolist())
    return [ex for i, ex in enumerate(rest) if i in keep]


async def measure(split: str, model: str, *, limit: int | None, cache: bool, fallback: bool = True,
                  seed: int = STANDARD_SEED, tuning: bool = False, cache_dir: str | None = None) -> tuple[dict, list]:
    from factgrain.agent.decompose.context import has_content
    from factgrain.agent.decompose.qasem import QASemDecomposer
    from factgrain.agent.segment import segment
    from factgrain.evals.measure_decomposer import build_backend, gold_of, predicted_qas
    from factgrain.evals.tasks.qasem_decomposer import match, token_offsets

    if model.startswith("scripted/"):
        backend = build_backend(model)
    else:  # a loaded 2-core machine answers a long reply slowly: wait, rather than fail the call
        from factgrain.backends.registry import get_backend

        backend = get_backend(model, timeout=600.0)
    if cache:
        from factgrain.backends.cache import CachedBackend, CallCache

        backend = CachedBackend(backend, CallCache(cache_dir))
    records = []
    try:
        for ex in sample(split, limit, seed=seed, tuning=tuning):
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
                "dropped_pairs": len(dec.dropped), "dropped": dec.dropped, "warnings": dec.warnings,
                "predicted": [{**{k: p[k] for k in ("sentence", "source", "predicate", "question", "answer")},
                               "matched": any(pi == i for _, pi, _ in pairs)} for i, p in enumerate(pred)],
                "gold": [{k: g[k] for k in ("predicate", "question", "answer")} for g in gold],
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
    ap.add_argument("--seed", type=int, default=None, help="sample seed (0 = the standard sample; --tuning: 1)")
    ap.add_argument("--tuning", action="store_true", help="sample from the responses outside the standard sample")
    ap.add_argument("--cache", action="store_true", help="answer repeated calls from the disk cache")
    ap.add_argument("--cache-dir", help="the cache's folder (default: factgrain's cache folder)")
    ap.add_argument("--no-fallback", action="store_true", help="no per-sentence fall-back to the offline reader")
    ap.add_argument("--records", help="write one JSON line per response here")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    seed = args.seed if args.seed is not None else (1 if args.tuning else STANDARD_SEED)
    summary, records = asyncio.run(measure(args.split, args.model, limit=args.limit, cache=args.cache,
                                           fallback=not args.no_fallback, seed=seed, tuning=args.tuning,
                                           cache_dir=args.cache_dir))
    summary.update(split=args.split, model=args.model, sample="tuning" if args.tuning else "standard", seed=seed,
                   seconds=round(time.perf_counter() - t0, 1))
    if args.records:
        with open(args.records, "w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec) + "\n")
    print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in summary.items()}, indent=1))


if __name__ == "__main__":
    main()
