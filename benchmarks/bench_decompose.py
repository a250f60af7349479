"""Speed of the offline decomposition (span mode ``parse``: spaCy's parse, no model call).

Decomposes the responses of ``qasem_consistency`` (dev split by default) with the QA decomposer
(``qasem``) and the TriQua decomposer, sentence by sentence, and prints sentences per second; then
runs the whole offline check (``qasem`` decomposition + the lexical verifier against each response's
reference, as ``factgrain check`` does with no model) and prints sentences and units per second.
Every cache (the parses, and the lexical verifier's reading of each reference) is cleared before each
timed pass, so every sentence and reference is parsed afresh; the check is then timed once more with
the references already read. (Until session 19 only the parse cache was cleared, so the check's best
of several passes was this second, warm figure.) The pipeline is loaded once before timing (its load
time is printed on its own).

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


def _forget_everything(reader) -> None:
    """Clear the parse cache and the caches built on it (the lexical verifier's reading of each
    reference), so that a pass parses and reads every text afresh."""
    from factgrain.agent.verifiers import lexical_features, lexical_structure

    reader.clear_cache()
    lexical_features._index.cache_clear()
    lexical_structure.read_reference.cache_clear()


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
            _forget_everything(reader)  # parse every sentence afresh
            t = time.perf_counter()
            units = asyncio.run(decompose_all(method, docs))
            dt = time.perf_counter() - t
            best = dt if best is None else min(best, dt)
        out[method] = {"seconds": round(best, 3), "sentences_per_s": round(sentences / best, 1),
                       "words_per_s": round(words / best), "units": units}
    # cold: every text and reference parsed afresh (what one `factgrain check` per response costs);
    # warm: the same check again in the same process, references already read (a self-critique loop
    # re-checking drafts against the same sources). Each pass of the cold figure clears every cache.
    best = warm = None
    for _ in range(max(1, args.repeat)):
        _forget_everything(reader)
        t = time.perf_counter()
        units, unscored = check_all(examples)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
        t = time.perf_counter()
        check_all(examples)
        dt = time.perf_counter() - t
        warm = dt if warm is None else min(warm, dt)
    out["check"] = {"seconds": round(best, 3), "sentences_per_s": round(sentences / best, 1),
                    "units_per_s": round(units / best, 1), "units": units, "unscored": unscored,
                    "reference_words": sum(len((ex.reference or "").split()) for ex in examples),
                    "warm_seconds": round(warm, 3), "warm_sentences_per_s": round(sentences / warm, 1),
                    "warm_units_per_s": round(units / warm, 1)}
    for method in ("qasem", "triqua"):
        f = out[method]
        print(f"{method:7s} {sentences} sentences in {f['seconds']:.2f} s: {f['sentences_per_s']:.1f} sentences/s, "
              f"{f['words_per_s']} words/s, {f['units']} units (no model call)")
    c = out["check"]
    print(f"check   {sentences} sentences in {c['seconds']:.2f} s: {c['sentences_per_s']:.1f} sentences/s, "
          f"{c['units_per_s']:.1f} units/s ({c['units']} units verified, {c['unscored']} unscored, against "
          f"{c['reference_words']} reference words parsed afresh; qasem + lexical verifier, no model call)")
    print(f"  again, references already read: {c['warm_seconds']:.2f} s: {c['warm_sentences_per_s']:.1f} "
          f"sentences/s, {c['warm_units_per_s']:.1f} units/s")
    print(f"pipeline {out['pipeline']} loaded in {out['pipeline_load_s']:.2f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
