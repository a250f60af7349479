"""Verification throughput with the embedded model: the prefix-cache-aware layout against a naive one.

Verifies N gold QA pairs (default 40) of one dev response against its ~1,300-token reference with
the LLM verifier, in one process and one server:

* raw       one long prompt with llama.cpp's prompt cache off: the server's prompt-processing rate
            (``timings.prompt_per_second``), i.e. the hardware limit on this machine; measured
            before and after the runs.
* naive     the unit first, the reference after it, ``cache_prompt=false``: every unit re-reads the
            whole reference (what serial per-claim pipelines pay).
* optimized the shipped prompt (system + reference first, unit last), prompt cache on, units of one
            reference routed to one server slot; run with routing off too, to measure it.

Each run tags the reference with its own first line, so no run profits from a previous run's cache.
Prints units/s, prompt tokens evaluated, cached tokens, the achieved prompt rate as a share of the raw
rate, and peak RSS. Run: ``python benchmarks/bench_verify.py [--units 40] [--threads 1] [--json out]``.
The bundled 135M model judges at chance: this measures speed, never quality.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import ServerTimings, load_case, machine, peak_rss_mb  # noqa: E402

from factgrain.agent.verifiers.base import VerifyItem  # noqa: E402
from factgrain.agent.verifiers.llm import LLMVerifier  # noqa: E402
from factgrain.backends import usage as usage_meter  # noqa: E402
from factgrain.prompts import VERIFY  # noqa: E402
from factgrain.schemas.units import QAPair  # noqa: E402
from factgrain.schemas.verdicts import Evidence  # noqa: E402

# The same words as the shipped prompt, with the unit moved before the reference.
NAIVE = dataclasses.replace(
    VERIFY, name="verify_naive", version="naive",
    user=("<statement>\n{statement}\n</statement>\n\n"
          "The statement comes from this generated sentence:\n<sentence>\n{sentence}\n</sentence>\n\n"
          "<reference>\n{reference}\n</reference>\n\n"
          "Does the reference support the statement? Answer Yes or No."),
)


def items_for(reference: str, qas: list[dict], n: int) -> list[VerifyItem]:
    evidence = [Evidence(source_id="reference", text=reference)]
    out = []
    for i, qa in enumerate(qas[:n]):
        unit = QAPair(id=f"q{i}", sentence_index=0, predicate=qa["predicate"], question=qa["question"],
                      answer=qa["answer"])
        out.append(VerifyItem(unit, unit.components()[0], qa["text"], evidence))
    return out


async def raw_rate(backend, timings: ServerTimings, reference: str, tag: str) -> dict:
    """One long prompt, nothing cached: the server's own prompt-processing rate."""
    backend.extra_body = {"cache_prompt": False}
    timings.reset()
    messages = VERIFY.render(reference=f"[{tag}]\n{reference}", sentence="-", statement="-")
    await backend.chat(messages, max_tokens=1)
    t = timings.rows[-1]
    return {"prompt_n": t["prompt_n"], "prompt_per_second": t["prompt_per_second"]}


async def run_layout(backend, timings: ServerTimings, name: str, items: list[VerifyItem], *, prompt,
                     cache_prompt: bool, route: bool) -> dict:
    backend.extra_body = {} if cache_prompt else {"cache_prompt": False}
    backend.route_slots = route
    verifier = LLMVerifier(backend, prompt=prompt, keep_prompts=False)
    timings.reset()
    with usage_meter.metering() as usage:
        t0 = time.perf_counter()
        verdicts = await verifier.verify_items(items)
        wall = time.perf_counter() - t0
    evaluated = usage.prompt_tokens - usage.cached_tokens
    return {
        "layout": name, "units": len(items), "wall_s": round(wall, 2), "units_per_s": round(len(items) / wall, 3),
        "prompt_tokens": usage.prompt_tokens, "cached_tokens": usage.cached_tokens, "evaluated_tokens": evaluated,
        "server_prompt_n": int(timings.total("prompt_n")), "server_prompt_s": round(timings.total("prompt_ms") / 1000, 2),
        "achieved_prompt_tok_s": round(evaluated / wall, 1),
        "scored": sum(v.status == "scored" for v in verdicts),
    }


JOINT_USER = ("<reference>\n{reference}\n</reference>\n\n{statements}\n\n"
              "For each numbered statement, does the reference support it? Answer every number, one per "
              "line, as '<number>: Yes' or '<number>: No'.")


def joint_grammar(k: int) -> str:
    lines = " ".join(f'"{i}: " ans "\\n"' for i in range(1, k + 1))
    return f'root ::= {lines}\nans ::= "Yes" | "No"'


def llamacpp_joint_constraint(k: int) -> dict:
    return {"grammar": joint_grammar(k)}


async def run_joint(backend, timings: ServerTimings, items: list[VerifyItem], k: int,
                    constraint=llamacpp_joint_constraint) -> dict:
    """Joint checking: k units per request (reference first), one Yes/No line each, read from the
    logprobs of the answer tokens. Measured only; the shipped verifier asks one unit per call.
    ``constraint(k)`` gives the server's request fields that force the k-line reply."""
    from factgrain.agent.verifiers.llm import p_yes

    backend.route_slots = True
    timings.reset()
    parsed = 0

    async def group(chunk: list[VerifyItem]) -> int:
        statements = "\n".join(f"{i}. {it.component.statement}" for i, it in enumerate(chunk, 1))
        messages = [{"role": "system", "content": VERIFY.system},
                    {"role": "user", "content": JOINT_USER.format(reference=chunk[0].evidence_text, statements=statements)}]
        backend.extra_body = constraint(len(chunk))
        result = await backend.chat(messages, max_tokens=6 * len(chunk), top_logprobs=20)
        probs = [p for top in (result.top_logprobs or []) if (p := p_yes(top)) is not None]
        return min(len(probs), len(chunk))

    sem = asyncio.Semaphore(backend.max_connections)

    async def bounded(chunk: list[VerifyItem]) -> int:
        async with sem:
            return await group(chunk)

    with usage_meter.metering() as usage:
        t0 = time.perf_counter()
        counts = await asyncio.gather(*(bounded(items[i:i + k]) for i in range(0, len(items), k)))
        wall = time.perf_counter() - t0
    parsed = sum(counts)
    evaluated = usage.prompt_tokens - usage.cached_tokens
    backend.extra_body = {}
    return {
        "layout": f"joint, {k} per call", "units": len(items), "wall_s": round(wall, 2),
        "units_per_s": round(len(items) / wall, 3), "prompt_tokens": usage.prompt_tokens,
        "cached_tokens": usage.cached_tokens, "evaluated_tokens": evaluated,
        "server_prompt_n": int(timings.total("prompt_n")), "server_prompt_s": round(timings.total("prompt_ms") / 1000, 2),
        "completion_tokens": usage.completion_tokens, "achieved_prompt_tok_s": round(evaluated / wall, 1),
        "scored": parsed,
    }


def tagged(items: list[VerifyItem], tag: str) -> list[VerifyItem]:
    """The same items against the reference with a run-specific first line (a cold cache per run)."""
    out = []
    for it in items:
        ev = [e.model_copy(update={"text": f"[{tag}]\n{e.text}"}) for e in it.evidence]
        out.append(VerifyItem(it.unit, it.component, it.sentence, ev))
    return out


async def main(args: argparse.Namespace) -> dict:
    from factgrain.backends.embedded import EmbeddedBackend

    reference, _, qas = load_case()
    items = items_for(reference, qas, args.units)
    start = time.perf_counter()
    backend = EmbeddedBackend(threads=args.threads, n_parallel=args.slots)
    load_s = time.perf_counter() - start
    timings = ServerTimings(backend)
    await backend.chat(VERIFY.render(reference="warm-up", sentence="-", statement="-"), max_tokens=1)

    out: dict = {"machine_before": machine(), "threads": args.threads, "slots": args.slots,
                 "model": backend.name, "server_start_s": round(load_s, 2), "runs": []}
    out["raw_before"] = await raw_rate(backend, timings, reference, "raw-1")
    if args.raw_only:  # e.g. to compare thread counts
        out["raw_more"] = [(await raw_rate(backend, timings, reference, f"raw-{i}"))["prompt_per_second"]
                           for i in range(3, 3 + args.raw_only)]
        out["peak_rss_mb"] = round(peak_rss_mb(), 1)
        out["machine_after"] = machine()
        return out
    runs = []
    if args.naive_units:
        runs.append(await run_layout(backend, timings, "naive", tagged(items[: args.naive_units], "naive"),
                                     prompt=NAIVE, cache_prompt=False, route=False))
    if not args.skip_unrouted:
        runs.append(await run_layout(backend, timings, "optimized (no routing)", tagged(items, "opt-a"),
                                     prompt=VERIFY, cache_prompt=True, route=False))
    runs.append(await run_layout(backend, timings, "optimized", tagged(items, "opt-b"),
                                 prompt=VERIFY, cache_prompt=True, route=True))
    if args.joint > 1:
        runs.append(await run_joint(backend, timings, tagged(items, "joint"), args.joint))
    out["raw_after"] = await raw_rate(backend, timings, reference, "raw-2")
    raw = (out["raw_before"]["prompt_per_second"] + out["raw_after"]["prompt_per_second"]) / 2
    for r in runs:
        r["share_of_raw_rate"] = round(r["achieved_prompt_tok_s"] / raw, 3)
    out["runs"] = runs
    out["raw_prompt_tok_s"] = round(raw, 1)
    by = {r["layout"]: r for r in runs}
    if "naive" in by:
        naive, opt = by["naive"], by["optimized"]
        # Per unit, so a shorter naive run (--naive-units) still compares fairly.
        out["speedup"] = round(opt["units_per_s"] / naive["units_per_s"], 2)
        out["token_reduction"] = round((naive["evaluated_tokens"] / naive["units"])
                                       / max(1, opt["evaluated_tokens"] / opt["units"]), 2)
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    out["machine_after"] = machine()
    await backend.aclose()
    return out


def show(out: dict) -> None:
    print(f"model {out['model']}  threads {out['threads']}  slots {out['slots']}")
    if "raw_more" in out:
        rates = [out["raw_before"]["prompt_per_second"], *out["raw_more"]]
        print(f"machine before: {out['machine_before']}\nmachine after:  {out['machine_after']}")
        print("raw prompt processing (tok/s): " + ", ".join(f"{r:.1f}" for r in rates))
        return
    print(f"machine before: {out['machine_before']}\nmachine after:  {out['machine_after']}")
    print(f"raw prompt processing: {out['raw_before']['prompt_per_second']:.1f} tok/s before, "
          f"{out['raw_after']['prompt_per_second']:.1f} tok/s after ({out['raw_before']['prompt_n']} tokens, uncached)")
    head = f"{'layout':<24}{'units':>6}{'wall s':>9}{'units/s':>9}{'prompt tok':>11}{'cached':>9}{'evaluated':>10}{'tok/s':>8}{'of raw':>8}"
    print(head)
    for r in out["runs"]:
        print(f"{r['layout']:<24}{r['units']:>6}{r['wall_s']:>9.2f}{r['units_per_s']:>9.2f}{r['prompt_tokens']:>11}"
              f"{r['cached_tokens']:>9}{r['evaluated_tokens']:>10}{r['achieved_prompt_tok_s']:>8.0f}{r['share_of_raw_rate']:>8.0%}")
    if "speedup" in out:
        print(f"optimized vs naive: {out['speedup']}x units/s, {out['token_reduction']}x fewer prompt tokens per unit")
    print(f"peak RSS {out['peak_rss_mb']} MB")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--units", type=int, default=40)
    p.add_argument("--naive-units", type=int, default=40, help="units for the naive layout (0 skips it)")
    p.add_argument("--threads", type=int, default=int(os.environ.get("FACTGRAIN_EMBEDDED_THREADS", "1")))
    p.add_argument("--slots", type=int, default=2)
    p.add_argument("--joint", type=int, default=5, help="also measure joint checking of K units per call (0/1 skips)")
    p.add_argument("--raw-only", type=int, default=0, metavar="N",
                   help="only measure the raw prompt rate, N more times (for thread-count comparisons)")
    p.add_argument("--skip-unrouted", action="store_true", help="skip the optimized run without slot routing")
    p.add_argument("--json", help="also write the figures here")
    args = p.parse_args()
    result = asyncio.run(main(args))
    show(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
