"""End-to-end ``check`` of a 10-sentence text with the embedded model (decompose + verify), with a cold
and then a warm LLM-call cache, and the peak RSS of a plain ``factgrain check``.

* cold  a fresh cache directory: every call goes to the model (and is stored);
* warm  a new Evaluator on the same directory: the rerun should make no model call at all;
* rss   ``factgrain check`` with default settings in a child process, its peak resident memory.

Run: ``python benchmarks/bench_check.py [--verifier llm] [--threads 1] [--json out]``.
The bundled 135M model judges at chance: this measures speed, never quality.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import load_case, machine, peak_rss_mb  # noqa: E402


async def one(text: str, reference: str, cache_dir: str, verifier: str) -> dict:
    from factgrain.agent.evaluator import Evaluator

    ev = Evaluator("embedded/smollm2-135m", verifier=verifier, cache=True, cache_dir=cache_dir)
    t0 = time.perf_counter()
    report = await ev.acheck(text, reference)
    wall = time.perf_counter() - t0
    u = report.usage
    return {"wall_s": round(wall, 3), "sentences": len(report.document.sentences), "units": report.scores.units,
            "calls": u.calls, "cache_hits": u.cache_hits, "prompt_tokens": u.prompt_tokens,
            "cached_tokens": u.cached_tokens, "timings": {k: round(v, 3) for k, v in report.timings.items()},
            "consistency": report.scores.consistency}


def check_rss(text: str, reference: str) -> dict:
    """Peak RSS of ``factgrain check`` (default settings, no cache) in a child process."""
    with tempfile.TemporaryDirectory() as d:
        tp, rp = Path(d, "text.txt"), Path(d, "reference.txt")
        tp.write_text(text)
        rp.write_text(reference)
        # VmHWM, not ru_maxrss: a forked child's ru_maxrss starts from the parent's peak.
        code = ("import re, sys; from factgrain.cli import main; rc = main(sys.argv[1:]); "
                "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1), file=sys.stderr); "
                "sys.exit(rc)")
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code, "check", str(tp), str(rp), "--format", "json",
                               "-o", str(Path(d, "r.json"))], capture_output=True, text=True)
        wall = time.perf_counter() - t0
    if proc.returncode != 0:
        return {"error": proc.stderr[-500:]}
    kib = int(proc.stderr.strip().splitlines()[-1])
    return {"peak_rss_mb": round(kib / 1024, 1), "wall_s": round(wall, 2)}


def main(args: argparse.Namespace) -> dict:
    os.environ["FACTGRAIN_EMBEDDED_THREADS"] = str(args.threads)
    reference, text, _ = load_case()
    out: dict = {"machine_before": machine(), "threads": args.threads, "verifier": args.verifier}
    with tempfile.TemporaryDirectory() as cache_dir:
        out["cold"] = asyncio.run(one(text, reference, cache_dir, args.verifier))
        out["warm"] = asyncio.run(one(text, reference, cache_dir, args.verifier))
    out["warm_speedup"] = round(out["cold"]["wall_s"] / max(out["warm"]["wall_s"], 1e-6), 1)
    out["bench_peak_rss_mb"] = round(peak_rss_mb(), 1)
    if not args.no_rss:
        out["check_default"] = check_rss(text, reference)
    out["machine_after"] = machine()
    return out


def show(out: dict) -> None:
    print(f"machine before: {out['machine_before']}\nmachine after:  {out['machine_after']}")
    print(f"threads {out['threads']}, verifier {out['verifier']}")
    for name in ("cold", "warm"):
        r = out[name]
        print(f"{name:<5} {r['wall_s']:>8.2f} s  sentences {r['sentences']}  units {r['units']}  calls {r['calls']}  "
              f"cache hits {r['cache_hits']}  prompt tokens {r['prompt_tokens']} (cached {r['cached_tokens']})  "
              f"stages {r['timings']}")
    print(f"warm rerun {out['warm_speedup']}x faster than cold")
    print(f"peak RSS of this benchmark process {out['bench_peak_rss_mb']} MB")
    if "check_default" in out:
        print(f"factgrain check (defaults, child process): {out['check_default']}")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--verifier", default="llm", help="llm (default here: both stages use the model) or lexical")
    p.add_argument("--threads", type=int, default=int(os.environ.get("FACTGRAIN_EMBEDDED_THREADS", "1")))
    p.add_argument("--no-rss", action="store_true", help="skip the child-process RSS measurement")
    p.add_argument("--json", help="also write the figures here")
    args = p.parse_args()
    result = main(args)
    show(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
