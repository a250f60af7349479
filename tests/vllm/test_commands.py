"""``revise``, ``calibrate``, ``eval`` and ``backends --probe`` against the real vLLM server, through the CLI."""

from __future__ import annotations

import json

import pytest

from tests.vllm.conftest import backend_args, read_json
from tests.vllm.reports import (
    assert_units_index_the_text,
    assert_verdicts_scored_from_logprobs,
    usage_delta,
)

pytestmark = pytest.mark.vllm

REVISE_STOPS = {"target_reached", "no_errors", "max_rounds", "no_improvement", "no_edits", "reviser_failed"}


@pytest.fixture
def files(case, tmp_path):
    (tmp_path / "text.txt").write_text(case["text"])
    (tmp_path / "ref.txt").write_text(case["reference"])
    return tmp_path


def test_revise_asks_the_model_to_rewrite_unsupported_spans(vllm, cli, files, metrics):
    before = metrics()
    proc = cli("revise", "text.txt", "ref.txt", *backend_args(vllm), "--method", "none", "--verifier", "llm",
               "--max-rounds", "1", "--format", "json", "-o", "rev.json")
    server = usage_delta(before, metrics())
    assert proc.returncode == 0, proc.stderr[-2000:]
    rev = read_json(files / "rev.json")
    first = rev["rounds"][0]
    report = first["report"]
    assert_units_index_the_text(report)
    assert_verdicts_scored_from_logprobs(report)
    assert first["score"] == report["scores"]["consistency"]
    assert rev["stop_reason"] in REVISE_STOPS, rev["stop_reason"]
    if any(r["status"] in ("unsupported", "partial") for r in report["results"]):
        # something to fix: the reviser was asked (one more call than the check), whatever it answered
        assert rev["stop_reason"] not in ("no_errors", "target_reached")
        assert server["calls"] > report["usage"]["calls"]
        if rev["stop_reason"] == "reviser_failed":
            assert rev["error"]
        for later in rev["rounds"][1:]:
            assert later["text"] != first["text"] and later["diff"] and later["edits"]
    else:
        assert rev["stop_reason"] in ("no_errors", "target_reached")


def test_calibrate_fits_a_profile_on_dev_that_check_then_uses(vllm, cli, files, metrics):
    before = metrics()
    proc = cli("calibrate", "--task", "qasem-table4", "--split", "dev", "--model", vllm.spec, "--verifier", "llm",
               "--limit", "24", "--name", "vllm-tier", "--out", "profile.json",
               env={"FACTGRAIN_BASE_URL": vllm.base_url})
    server = usage_delta(before, metrics())
    assert proc.returncode == 0, proc.stderr[-2000:]
    profile = read_json(files / "profile.json")
    assert profile["model"] == vllm.spec and profile["families"] == ["llm"] and profile["split"] == "dev"
    assert profile["meta"]["n"] + profile["meta"]["dropped_unscored"] == 24 and profile["meta"]["dropped_unscored"] == 0
    assert 0.0 < profile["threshold"] < 1.0
    assert server["calls"] >= 24, "every calibration row is one verification by the server"
    proc = cli("check", "text.txt", "ref.txt", *backend_args(vllm), "--method", "none", "--calibration",
               "profile.json", "--format", "json", "-o", "r.json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = read_json(files / "r.json")
    v = report["results"][0]["verdicts"][0]
    # an llm-only profile recalibrates P(Yes) ("llm:calibrated"); with more signals it is the fused verifier
    assert v["verifier"] == "llm:calibrated" or v["verifier"].startswith("fused"), v["verifier"]
    assert v["status"] == "scored" and 0.0 <= v["probability"] <= 1.0


def test_eval_predicts_with_the_server_and_a_rerun_calls_nothing(vllm, cli, tmp_path, metrics):
    args = ["eval", "--task", "qasem-table4", "--split", "dev", "--limit", "6", *backend_args(vllm),
            "--verifier", "llm", "--no-plots", "--out", "out"]
    before = metrics()
    proc = cli(*args)
    server = usage_delta(before, metrics())
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in (tmp_path / "out" / "predictions.jsonl").read_text().splitlines()]
    assert len(rows) == 12  # 6 QA rows in both styles (question and affirmative statement)
    for r in rows:
        assert r["status"] == "scored" and 0.0 <= r["probability"] <= 1.0 and r["label"] in (0, 1)
        assert r["run"]["model"] == vllm.spec and r["run"]["engine"] == "local"
    assert server["calls"] == 12
    table = (tmp_path / "out" / "report.md").read_text()
    assert "| all | 6 |" in table
    before = metrics()
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert usage_delta(before, metrics())["calls"] == 0, "a rerun of an unchanged eval calls no model"


def test_probe_reports_the_server_reachable_with_logprobs(vllm, cli):
    proc = cli("backends", *backend_args(vllm), "--probe", "--format", "json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    info = json.loads(proc.stdout)
    assert {r["role"] for r in info["rows"]} >= {"decomposition", "verification"}
    for row in info["rows"]:
        assert row["model"] == vllm.spec and row["endpoint"] == vllm.base_url
        assert row["reachable_ok"] and row["logprobs_ok"], row
    assert not info["warnings"]


def test_probe_fails_for_a_model_the_server_does_not_serve(vllm, cli):
    proc = cli("backends", "--model", "vllm/not-served", "--base-url", vllm.base_url, "--probe", "--format", "json")
    assert proc.returncode != 0
    assert "not-served" in proc.stdout + proc.stderr


def test_check_with_a_model_the_server_does_not_serve_is_exit_4_with_the_servers_message(vllm, cli, files):
    proc = cli("check", "text.txt", "ref.txt", "--model", "vllm/not-served", "--base-url", vllm.base_url,
               "--method", "none", "--verifier", "llm", "--format", "json")
    assert proc.returncode == 4, (proc.returncode, proc.stderr[-1000:])
    assert "does not exist" in proc.stderr  # vLLM: "The model `not-served` does not exist."
