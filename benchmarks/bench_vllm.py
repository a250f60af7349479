"""Verification throughput on a real vLLM server: the prefix-cache-aware layout against a naive one, and
joint checking, in one run against one server.

The same 40 gold QA pairs and ~1,300-token reference as ``bench_verify.py`` (dev response
``qasem-dev-40``), verified with the LLM verifier through factgrain's ``vllm`` backend:

* raw       one long prompt that nothing can be cached for (a fresh ``cache_salt``): the server's own
            prompt-processing rate, from ``/metrics`` (prompt tokens computed / prefill seconds); measured
            before and after the runs.
* naive     the unit first, the reference after it, and every request with its own ``cache_salt``, so
            vLLM's prefix cache never serves it: every unit re-reads the whole reference.
* optimized the shipped prompt (system + reference first, unit last); vLLM's automatic prefix caching
            computes the reference once for all units.
* joint     K units per request (reference first), one ``n: Yes|No`` line each forced by a regex
            (``structured_outputs.regex``), P(Yes) read from each answer token's logprobs. Measured only.

Each run tags the reference with its own first line, so no run profits from another's cache. Reported per
run: wall time, units/s, prompt / cached / evaluated tokens from factgrain's ``usage`` (filled by
``--enable-prompt-tokens-details``) and from vLLM's ``/metrics`` (prompt tokens, cache hits, tokens computed,
prefill seconds summed over requests, which overlap when vLLM batches them), and the evaluated tokens per wall second as a share of the raw rate.

Run against a server you started (``factgrain serve-vllm MODEL`` prints the command)::

    python benchmarks/bench_vllm.py --base-url http://127.0.0.1:8000/v1 --model NAME [--json out]

or let it start the local CPU server of the vLLM tier (``scripts/setup-vllm.sh``) and stop it afterwards::

    python benchmarks/bench_vllm.py --start [--units 40] [--naive-units 20] [--joint 5] [--json out]

SmolLM2-135M judges at chance: this measures speed, never quality.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(REPO))

from bench_verify import NAIVE, ServerTimings, items_for, run_joint, tagged  # noqa: E402
from common import load_case, machine, peak_rss_mb  # noqa: E402

from factgrain.agent.verifiers.llm import LLMVerifier  # noqa: E402
from factgrain.backends import usage as usage_meter  # noqa: E402
from factgrain.backends.openai_compat import VLLMBackend  # noqa: E402
from factgrain.prompts import VERIFY  # noqa: E402

COUNTERS = {
    "prompt_tokens": "vllm:prompt_tokens_total",
    "cached_tokens": "vllm:prompt_tokens_cached_total",
    "computed_tokens": 'vllm:prompt_tokens_by_source_total{source="local_compute"}',
    "prefill_s": "vllm:request_prefill_time_seconds_sum",
    "requests": "vllm:request_success_total",
}


class SaltedVLLM(VLLMBackend):
    """The vLLM backend; with ``salted`` on, every request carries its own ``cache_salt``, so the prefix
    cache can serve no request from another (vLLM keys its cached blocks on the salt)."""

    salted = False

    def request_extras(self, messages):
        extra = super().request_extras(messages)
        if self.salted:
            extra["cache_salt"] = uuid.uuid4().hex
        return extra


def joint_regex(k: int) -> dict:
    return {"structured_outputs": {"regex": "".join(f"{i}: (Yes|No)\\n" for i in range(1, k + 1))}}


class Metrics:
    """Deltas of vLLM's own counters between two scrapes of ``/metrics``."""

    def __init__(self, base_url: str):
        from tests.vllm.server import metrics

        self.scrape = lambda: metrics(base_url)
        self.before: dict[str, float] = {}

    def start(self) -> None:
        self.before = self.scrape()

    def delta(self) -> dict[str, float]:
        after = self.scrape()
        return {k: round(after.get(name, 0.0) - self.before.get(name, 0.0), 3) for k, name in COUNTERS.items()}


async def raw_rate(backend: SaltedVLLM, meter: Metrics, reference: str, tag: str) -> dict:
    """One long prompt, nothing cached: the server's own prefill rate (tokens computed / prefill seconds)."""
    backend.salted = True
    meter.start()
    await backend.chat(VERIFY.render(reference=f"[{tag}]\n{reference}", sentence="-", statement="-"), max_tokens=1)
    d = meter.delta()
    backend.salted = False
    return {"prompt_n": int(d["prompt_tokens"]), "computed": int(d["computed_tokens"]), "prefill_s": d["prefill_s"],
            "prompt_per_second": round(d["computed_tokens"] / d["prefill_s"], 1) if d["prefill_s"] else None}


def summarize(name: str, n: int, wall: float, usage: Any, server: dict, scored: int) -> dict:
    evaluated = usage.prompt_tokens - usage.cached_tokens
    return {
        "layout": name, "units": n, "wall_s": round(wall, 2), "units_per_s": round(n / wall, 3),
        "calls": usage.calls, "prompt_tokens": usage.prompt_tokens, "cached_tokens": usage.cached_tokens,
        "evaluated_tokens": evaluated, "achieved_prompt_tok_s": round(evaluated / wall, 1),
        "server": server, "scored": scored,
    }


async def run_layout(backend: SaltedVLLM, meter: Metrics, name: str, items, *, prompt, salted: bool) -> dict:
    backend.salted = salted
    verifier = LLMVerifier(backend, prompt=prompt, keep_prompts=False)
    meter.start()
    with usage_meter.metering() as usage:
        t0 = time.perf_counter()
        verdicts = await verifier.verify_items(items)
        wall = time.perf_counter() - t0
    backend.salted = False
    return summarize(name, len(items), wall, usage, meter.delta(), sum(v.status == "scored" for v in verdicts))


async def joint(backend: SaltedVLLM, meter: Metrics, items, k: int) -> dict:
    meter.start()
    out = await run_joint(backend, ServerTimings(backend), items, k, constraint=joint_regex)
    out["server"] = meter.delta()
    return out


async def main(args: argparse.Namespace, base_url: str, model: str) -> dict:
    reference, _, qas = load_case()
    items = items_for(reference, qas, args.units)
    backend = SaltedVLLM(model, base_url=base_url, max_connections=args.connections)
    meter = Metrics(base_url)
    await backend.chat(VERIFY.render(reference="warm-up", sentence="-", statement="-"), max_tokens=1)
    out: dict = {"machine_before": machine(), "model": backend.name, "base_url": base_url,
                 "connections": args.connections, "runs": []}
    out["raw_before"] = await raw_rate(backend, meter, reference, "raw-1")
    runs = []
    if args.naive_units:
        runs.append(await run_layout(backend, meter, "naive", tagged(items[: args.naive_units], "naive"),
                                     prompt=NAIVE, salted=True))
    runs.append(await run_layout(backend, meter, "optimized", tagged(items, "opt"), prompt=VERIFY, salted=False))
    if args.joint > 1:
        runs.append(await joint(backend, meter, tagged(items, "joint"), args.joint))
    out["raw_after"] = await raw_rate(backend, meter, reference, "raw-2")
    rates = [r["prompt_per_second"] for r in (out["raw_before"], out["raw_after"]) if r["prompt_per_second"]]
    raw = sum(rates) / len(rates)
    for r in runs:
        r["share_of_raw_rate"] = round(r["achieved_prompt_tok_s"] / raw, 3)
    out["runs"] = runs
    out["raw_prompt_tok_s"] = round(raw, 1)
    by = {r["layout"]: r for r in runs}
    if "naive" in by:
        naive, opt = by["naive"], by["optimized"]
        out["speedup"] = round(opt["units_per_s"] / naive["units_per_s"], 2)
        out["token_reduction"] = round((naive["evaluated_tokens"] / naive["units"])
                                       / max(1, opt["evaluated_tokens"] / opt["units"]), 2)
        out["evaluated_per_unit"] = {"naive": round(naive["evaluated_tokens"] / naive["units"], 1),
                                     "optimized": round(opt["evaluated_tokens"] / opt["units"], 1)}
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    out["machine_after"] = machine()
    await backend.aclose()
    return out


def show(out: dict) -> None:
    print(f"model {out['model']} at {out['base_url']}  connections {out['connections']}")
    if "server_startup_s" in out:
        print(f"server started in {out['server_startup_s']} s")
    print(f"machine before: {out['machine_before']}\nmachine after:  {out['machine_after']}")
    rb, ra = out["raw_before"], out["raw_after"]
    print(f"raw prefill (server): {rb['prompt_per_second']} tok/s before, {ra['prompt_per_second']} tok/s after "
          f"({rb['computed']} of {rb['prompt_n']} prompt tokens computed, {rb['prefill_s']} s)")
    head = (f"{'layout':<18}{'units':>6}{'wall s':>8}{'units/s':>9}{'prompt':>8}{'cached':>8}{'evald':>7}"
            f"{'tok/s':>7}{'of raw':>7} | {'srv prompt':>10}{'srv cached':>11}{'srv computed':>13}{'prefill s':>10}")
    print(head)
    for r in out["runs"]:
        s = r["server"]
        print(f"{r['layout']:<18}{r['units']:>6}{r['wall_s']:>8.2f}{r['units_per_s']:>9.2f}{r['prompt_tokens']:>8}"
              f"{r['cached_tokens']:>8}{r['evaluated_tokens']:>7}{r['achieved_prompt_tok_s']:>7.0f}"
              f"{r['share_of_raw_rate']:>7.0%} | {s['prompt_tokens']:>10.0f}{s['cached_tokens']:>11.0f}"
              f"{s['computed_tokens']:>13.0f}{s['prefill_s']:>10.2f}")
    if "speedup" in out:
        e = out["evaluated_per_unit"]
        print(f"optimized vs naive: {out['speedup']}x units/s, {out['token_reduction']}x fewer prompt tokens "
              f"evaluated per unit ({e['optimized']} vs {e['naive']})")
    print(f"peak RSS of this process {out['peak_rss_mb']} MB")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base-url", help="a running vLLM server's OpenAI base URL (…/v1)")
    p.add_argument("--model", help="the served model name (with --base-url)")
    p.add_argument("--start", action="store_true",
                   help="start the local CPU server of the vLLM tier (scripts/setup-vllm.sh) and stop it at the end")
    p.add_argument("--vllm-args", default="", metavar="FLAGS",
                   help='with --start: more server flags, e.g. --vllm-args="--block-size 32"')
    p.add_argument("--units", type=int, default=40)
    p.add_argument("--naive-units", type=int, default=20, help="units for the naive layout (0 skips it)")
    p.add_argument("--joint", type=int, default=5, help="also measure joint checking of K units per call (0/1 skips)")
    p.add_argument("--connections", type=int, default=8, help="requests in flight (the backend's max_connections)")
    p.add_argument("--json", help="also write the figures here")
    args = p.parse_args()
    if args.start == bool(args.base_url):
        p.error("give either --base-url URL --model NAME, or --start")
    server = None
    try:
        if args.start:
            from tests.vllm import server as vllm_server

            why = vllm_server.missing_setup()
            if why:
                raise SystemExit(f"cannot start the local vLLM server: {why}; run scripts/setup-vllm.sh")
            log = Path(tempfile.mkdtemp(prefix="bench-vllm-")) / "server.log"
            server = vllm_server.start(log, vllm_args=args.vllm_args)
            base_url, model = server.base_url, server.model
        else:
            if not args.model:
                p.error("--base-url needs --model NAME (the served model name)")
            base_url, model = args.base_url.rstrip("/"), args.model
        result = asyncio.run(main(args, base_url, model))
        if server is not None:
            result["server_startup_s"] = server.startup_s
            result["server_command"] = server.printed_command
    finally:
        if server is not None:
            vllm_server.stop(server)
    show(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
