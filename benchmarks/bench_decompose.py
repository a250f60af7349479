"""Speed of the offline decomposition (span mode ``parse``: spaCy's parse, no model call).

Decomposes the responses of ``qasem_consistency`` (dev split by default) with the QA decomposer
(``qasem``) and the TriQua decomposer, sentence by sentence, and prints sentences per second.
The parse cache is cleared before each timed pass, so every sentence is parsed afresh; the
pipeline is loaded once before timing (its load time is printed on its own).

Run: ``python benchmarks/bench_decompose.py [--split dev] [--limit N] [--repeat 3] [--json out]``.
Prints figures only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time


def no_call_backend():
    from factgrain.backends.scripted import ScriptedBackend

    def refuse(req):
        raise AssertionError(f"the offline path made a model call ({req.kind})")

    return ScriptedBackend(handler=refuse)


async def decompose_all(method: str, docs: list) -> int:
    from factgrain.agent.decompose.base import get_decomposer

    units = 0
    backend = no_call_backend()
    for doc in docs:
        dec = get_decomposer(method, backend, span_mode="parse")
        units += len(await dec.decompose(doc))
    assert not backend.requests, "the offline path made model calls"
    return units


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="dev", choices=["dev", "test"])
    ap.add_argument("--limit", type=int)
    ap.add_argument("--repeat", type=int, default=3, help="timed passes per method (the best is reported)")
    ap.add_argument("--json", help="write the figures here as JSON")
    args = ap.parse_args(argv)

    from factgrain.agent import reader
    from factgrain.agent.segment import segment
    from factgrain.evals.datasets import load_responses

    t0 = time.perf_counter()
    nlp = reader.load_pipeline()
    load_s = time.perf_counter() - t0
    docs = [segment(ex.text) for ex in load_responses(args.split, limit=args.limit)]
    sentences = sum(len(d.sentences) for d in docs)
    words = sum(len(d.text.split()) for d in docs)
    out = {"pipeline": f"{nlp.meta.get('name')} {nlp.meta.get('version')}", "pipeline_load_s": round(load_s, 2),
           "responses": len(docs), "sentences": sentences, "words": words}
    for method in ("qasem", "triqua"):
        best = None
        for _ in range(max(1, args.repeat)):
            reader.clear_cache()  # parse every sentence afresh
            t = time.perf_counter()
            units = asyncio.run(decompose_all(method, docs))
            dt = time.perf_counter() - t
            best = dt if best is None else min(best, dt)
        out[method] = {"seconds": round(best, 3), "sentences_per_s": round(sentences / best, 1),
                       "words_per_s": round(words / best), "units": units}
    for method in ("qasem", "triqua"):
        f = out[method]
        print(f"{method:7s} {sentences} sentences in {f['seconds']:.2f} s: {f['sentences_per_s']:.1f} sentences/s, "
              f"{f['words_per_s']} words/s, {f['units']} units (no model call)")
    print(f"pipeline {out['pipeline']} loaded in {out['pipeline_load_s']:.2f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
