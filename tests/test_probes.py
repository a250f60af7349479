"""The behavioural probes of benchmarks/probe_offline.py: well-formed, and the script runs end to end."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBES = ROOT / "benchmarks" / "data" / "probes.jsonl"


def test_every_probe_has_a_text_a_reference_a_label_and_a_kind():
    probes = [json.loads(line) for line in PROBES.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(probes) >= 40 and len({p["id"] for p in probes}) == len(probes)
    assert {p["label"] for p in probes} == {"supported", "unsupported"}
    assert all(p["text"].strip() and p["reference"].strip() and p["kind"] for p in probes)


def test_the_probe_script_prints_a_table_per_kind():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "probe_offline.py")], capture_output=True,
                         text=True, check=True, timeout=300, cwd=ROOT).stdout
    rows = [line for line in out.splitlines() if line.startswith("| ") and not line.startswith("| kind")]
    kinds = {line.split("|")[1].strip() for line in rows}
    assert {"faithful", "negation", "number", "all"} <= kinds
    total = next(line for line in rows if line.startswith("| all"))
    assert int(total.split("|")[3]) == len(PROBES.read_text(encoding="utf-8").splitlines())
