"""Shared pieces of the benchmarks: the fixed test case (a dev example of qasem_consistency), server
timings capture, memory and machine load."""

from __future__ import annotations

import gzip
import json
import os
import platform
import resource
from pathlib import Path
from typing import Any

DATA = Path(os.environ.get("FACTGRAIN_DATA_DIR", Path(__file__).resolve().parents[2] / "shared" / "data"))
# One dev response (David Wenham biography, ~5,300-character reference) with 42 gold QA pairs, and a
# second response about the same reference: together 10 sentences.
CASE_IDS = ("qasem-dev-40", "qasem-dev-41")


def _rows(name: str) -> list[dict[str, Any]]:
    path = DATA / f"{name}.jsonl.gz"
    if not path.exists():
        raise SystemExit(f"benchmark data not found: {path} (set FACTGRAIN_DATA_DIR)")
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def load_case() -> tuple[str, str, list[dict[str, Any]]]:
    """(reference, 10-sentence text, gold QA rows of both responses)."""
    responses = {r["id"]: r for r in _rows("qasem_consistency") if r["id"] in CASE_IDS}
    reference = responses[CASE_IDS[0]]["reference"]
    assert all(responses[i]["reference"] == reference for i in CASE_IDS)
    text = " ".join(responses[i]["text"] for i in CASE_IDS)
    qas = [r for r in _rows("qasem_consistency_qa") if r.get("instance_id") in CASE_IDS]
    qas.sort(key=lambda r: (CASE_IDS.index(r["instance_id"]), r["qa_id"]))
    return reference, text, qas


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM; ru_maxrss as a fallback off Linux)."""
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux units: KiB


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load average {load}"


class ServerTimings:
    """Collects llama.cpp's per-request ``timings`` (prompt_n, cache_n, prompt_ms) from an
    OpenAI-compatible backend's completions, which the openai client keeps as extra fields."""

    def __init__(self, backend: Any):
        self.rows: list[dict[str, float]] = []
        original = backend._to_result

        def capture(completion: Any) -> Any:
            extra = getattr(completion, "model_extra", None) or {}
            if "timings" in extra:
                self.rows.append(extra["timings"])
            return original(completion)

        backend._to_result = capture

    def reset(self) -> None:
        self.rows.clear()

    def total(self, key: str) -> float:
        return float(sum(r.get(key, 0) or 0 for r in self.rows))
