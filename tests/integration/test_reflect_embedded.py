"""`factgrain check --reflect` against the bundled SmolLM2-135M model (light reflection path)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.embedded


def test_cli_reflect_json_includes_the_trace(tmp_path):
    out = tmp_path / "r.json"
    env = {**os.environ, "FACTGRAIN_EMBEDDED_THREADS": os.environ.get("FACTGRAIN_EMBEDDED_THREADS", "1")}
    proc = subprocess.run([sys.executable, "-m", "factgrain", "check", "--example", "measles", "--reflect",
                           "--reflect-rounds", "1", "--format", "json", "--output", str(out)],
                          capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    trace = report["reflection"]
    assert trace, "the lint flags the measles decomposition, so the light path reviews it"
    for rnd in trace:
        assert rnd["round"] == 1 and rnd["input_units"] and rnd["lint"]
        assert rnd["action"] in ("kept", "refined", "collapsed", "rejected", "failed")
        assert rnd["judgment"] in ("Good", "Problematic", "No need for decomposition") or rnd["action"] == "failed"
    text = report["text"]
    ids = [r["unit"]["id"] for r in report["results"]]
    assert len(ids) == len(set(ids))
    for r in report["results"]:
        for key in ("span", "answer_span"):
            span = r["unit"].get(key)
            if span:
                assert text[span["start"]:span["end"]] == span["text"]
    assert report["timings"]["reflect_s"] >= 0
