"""Speed of the offline decomposition (span mode ``parse``: spaCy's parse, no model call).

Decomposes the responses of ``qasem_consistency`` (dev split by default) with the QA decomposer
(``qasem``) and the TriQua decomposer, sentence by sentence, and prints sentences per second; then
runs the whole offline check (``qasem`` decomposition + the lexical verifier against each response's
reference, as ``factgrain check`` does with no model) and prints sentences and units per second.
The parse cache is cleared before each timed pass, so every sentence and reference is parsed afresh;
the pipeline is loaded once before timing (its load time is printed on its own).

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


def check_all(examples: list) -> tuple[int, int]:
    """The offline check of every response against its reference: (units verified, unscored)."""
    import factgrain

    units = unscored = 0
    for ex in examples:
        report = factgrain.check(ex.text, ex.reference or "")
        assert report.tier["tier"] == "offline", report.tier
        units += len(report.results)
        unscored += sum(r.status == "unscored" for r in report.results)
    return units, unscored


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
    examples = list(load_responses(args.split, limit=args.limit))
    docs = [segment(ex.text) for ex in examples]
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
    best = None
    for _ in range(max(1, args.repeat)):
        reader.clear_cache()
        t = time.perf_counter()
        units, unscored = check_all(examples)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    out["check"] = {"seconds": round(best, 3), "sentences_per_s": round(sentences / best, 1),
                    "units_per_s": round(units / best, 1), "units": units, "unscored": unscored,
                    "reference_words": sum(len((ex.reference or "").split()) for ex in examples)}
    for method in ("qasem", "triqua"):
        f = out[method]
        print(f"{method:7s} {sentences} sentences in {f['seconds']:.2f} s: {f['sentences_per_s']:.1f} sentences/s, "
              f"{f['words_per_s']} words/s, {f['units']} units (no model call)")
    c = out["check"]
    print(f"check   {sentences} sentences in {c['seconds']:.2f} s: {c['sentences_per_s']:.1f} sentences/s, "
          f"{c['units_per_s']:.1f} units/s ({c['units']} units verified, {c['unscored']} unscored, against "
          f"{c['reference_words']} reference words; qasem + lexical verifier, no model call)")
    print(f"pipeline {out['pipeline']} loaded in {out['pipeline_load_s']:.2f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
