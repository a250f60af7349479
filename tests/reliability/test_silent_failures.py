"""Issue 14 item 2: nothing fails silently.

Each test names the bullet it covers. Faults come from real local HTTP servers
(``tests/reliability/httpserver.py``, answering with vLLM's error bodies) or from the
``httpx.MockTransport`` endpoint of ``fakeserver.py``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import factgrain
from factgrain.agent import aggregate as agg
from factgrain.agent.evaluator import Evaluator
from factgrain.backends import usage as usage_meter
from factgrain.backends.openai_compat import LlamaCppBackend, VLLMBackend
from factgrain.backends.retry import RetryPolicy
from factgrain.cli import main
from factgrain.errors import BackendError, ConfigurationError, StructuredOutputError
from factgrain.schemas.report import UnitResult
from factgrain.schemas.units import QAPair
from factgrain.schemas.verdicts import UnitVerdict
from tests.reliability.fakeserver import FakeEndpoint, always, backend_for, first
from tests.reliability.httpserver import LocalServer

REPO = Path(__file__).resolve().parents[2]
TEXT = "Ada visited Paris in 1850. Bob visited Rome in 1851."
REF = "Ada visited Paris in 1850. Bob visited Rome in 1851."


def free_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def files(tmp_path: Path, text: str = TEXT, ref: str = REF) -> tuple[str, str]:
    (tmp_path / "text.txt").write_text(text)
    (tmp_path / "ref.txt").write_text(ref)
    return str(tmp_path / "text.txt"), str(tmp_path / "ref.txt")


def subprocess_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "FACTGRAIN_PROGRESS": "0"}


# -- 1. a run where every sentence failed is an error carrying the server's message --------------
def test_check_against_a_dead_port_exits_4_with_no_report(tmp_path, capsys):
    text, ref = files(tmp_path)
    port = free_port()
    rc = main(["check", text, ref, "--model", "vllm/some-model", "--base-url", f"http://127.0.0.1:{port}/v1",
               "--verifier", "llm", "--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 4, (rc, out[:300], err)
    assert out == ""  # no empty report pretending to be a result
    assert f"127.0.0.1:{port}" in err and "Connection" in err


def test_check_with_a_model_the_server_does_not_serve_shows_the_servers_404(tmp_path, capsys):
    text, ref = files(tmp_path)
    with LocalServer(served_model="served-model") as srv:
        rc = main(["check", text, ref, "--model", "vllm/other-model", "--base-url", srv.base_url,
                   "--verifier", "llm", "--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 4 and out == ""
    assert "HTTP 404" in err and "The model `other-model` does not exist." in err


async def test_backend_error_keeps_the_body_of_a_vllm_400():
    with LocalServer(max_logprobs=5) as srv:
        backend = VLLMBackend("fake", base_url=srv.base_url, retry=RetryPolicy(attempts=1))
        with pytest.raises(BackendError) as info:
            await backend.chat([{"role": "user", "content": "Yes?"}], max_tokens=1, top_logprobs=20)
        await backend.aclose()
    assert "HTTP 400" in str(info.value) and "Requested top logprobs of 20 exceeds maximum of 5." in str(info.value)


def test_python_api_raises_on_a_dead_port():
    with pytest.raises(BackendError):
        factgrain.check(TEXT, REF, model="vllm/m", base_url=f"http://127.0.0.1:{free_port()}/v1", verifier="llm")


QAS = {
    "Ada visited Paris in 1850.": [
        {"predicate": "visited", "predicate_type": "verbal", "question": "who visited something?", "answer": "Ada"}],
    "Bob visited Rome in 1851.": [
        {"predicate": "visited", "predicate_type": "verbal", "question": "who visited something?", "answer": "Bob"}],
}


def on_sentence(fault: str, sentence: str, kind: str):
    return lambda n, k, body: fault if k == kind and sentence in json.dumps(body) else None


async def test_a_partial_decomposition_failure_warns_naming_the_sentence_and_the_servers_message():
    endpoint = FakeEndpoint(QAS, faults=on_sentence("400", "Bob visited Rome", "structured"))
    report = await Evaluator(backend_for(endpoint), verifier="llm").acheck(TEXT, REF)
    assert report.scores.failed_sentences == 1 and report.scores.units == 1
    warning = next(w for w in report.warnings if "Bob visited Rome" in w)
    assert "injected: this request was refused" in warning and "HTTP 400" in warning


async def test_a_partial_verification_failure_warns_naming_the_sentence_and_the_servers_message():
    endpoint = FakeEndpoint(QAS, faults=on_sentence("400", "something? Bob", "chat"))
    report = await Evaluator(backend_for(endpoint), verifier="llm").acheck(TEXT, REF)
    assert report.scores.unscored_units == 1 and report.scores.scored_units == 1
    warning = next(w for w in report.warnings if "Bob visited Rome" in w)
    assert "injected: this request was refused" in warning


@pytest.mark.parametrize("kind", ["structured", "chat"])
async def test_every_call_refused_is_an_error_not_an_empty_report(kind):
    endpoint = FakeEndpoint(QAS, faults=always("404", kind))
    with pytest.raises(BackendError) as info:
        await Evaluator(backend_for(endpoint), verifier="llm").acheck(TEXT, REF)
    assert "The model `fake-model` does not exist." in str(info.value)
    assert info.value.exit_code == 4


async def test_one_failed_sentence_beside_one_with_units_is_a_report_not_an_error():
    # (an empty reply for a sentence with content is itself a failure since issue 15, so the other
    # sentence here decomposes normally)
    endpoint = FakeEndpoint(QAS, faults=on_sentence("400", "Bob visited Rome", "structured"))
    report = await Evaluator(backend_for(endpoint), verifier="llm").acheck(TEXT, REF)
    assert report.scores.units > 0 and report.scores.failed_sentences == 1
    assert all(r.unit.sentence_index == 0 for r in report.results)
    assert any("Bob visited Rome" in w and "injected" in w for w in report.warnings)


# -- 2. request budgets sized to the server's context ------------------------------------------
async def test_structured_budget_is_capped_to_vllms_max_model_len():
    from factgrain.agent.decompose.triqua import TriQuaDecomposition

    with LocalServer(max_model_len=2048) as srv:
        backend = VLLMBackend("fake", base_url=srv.base_url, retry=RetryPolicy(attempts=1))
        messages = [{"role": "user", "content": "<text>\nAda visited Paris.\n</text>\n\nList the facts."}]
        obj, _ = await backend.structured(messages, TriQuaDecomposition, max_tokens=7200)
        await backend.chat(messages, max_tokens=4000)
        await backend.aclose()
        posts = srv.requests
        gets = [h for h in srv.handler.hits if h.startswith("GET")]
    assert obj.facts and obj.facts[0].object == "Paris"
    assert all(r["max_tokens"] < 2048 for r in posts)
    assert gets == ["GET /v1/models"]  # discovered once per backend


async def test_triqua_check_fits_a_short_context():
    with LocalServer(max_model_len=2048) as srv:
        ev = Evaluator("vllm/fake", base_url=srv.base_url, method="triqua", verifier="llm")
        report = await ev.acheck(TEXT, REF)
    assert report.scores.failed_sentences == 0 and report.scores.units >= 2, report.warnings
    assert not any("HTTP 400" in w for w in report.warnings)


async def test_llamacpp_context_comes_from_props():
    with LocalServer(n_ctx=1024) as srv:
        backend = LlamaCppBackend("fake", base_url=srv.base_url, retry=RetryPolicy(attempts=1))
        await backend.chat([{"role": "user", "content": "x" * 300}], max_tokens=4000)
        await backend.aclose()
        assert "GET /props" in srv.handler.hits
        assert srv.requests[0]["max_tokens"] <= 1024 - 100


def test_embedded_backend_knows_its_context_per_slot():
    from factgrain.backends.embedded import EmbeddedBackend

    backend = EmbeddedBackend(n_ctx=8192, n_parallel=2)
    assert backend.known_context_length() == 4096
    assert backend._server_url is None  # knowing it starts nothing


@pytest.mark.embedded
async def test_real_llamacpp_props_agree_with_what_the_embedded_backend_knows(embedded_backend):
    backend = LlamaCppBackend("smollm2", base_url=embedded_backend.base_url)
    try:
        assert await backend.context_length() == embedded_backend.known_context_length()
        # a budget far past the context is cut to it, and the real server answers
        result = await backend.chat([{"role": "user", "content": "Say yes."}], max_tokens=100_000)
        assert result.text
    finally:
        await backend.aclose()


async def test_a_reply_cut_off_at_the_context_cap_is_an_error_naming_it():
    from factgrain.agent.decompose.qasem import QADecomposition

    endpoint = FakeEndpoint(QAS, faults=always("truncated", "structured"), max_model_len=1000)
    backend = backend_for(endpoint, attempts=5)
    messages = [{"role": "user", "content": "<sentence>\nAda visited Paris in 1850.\n</sentence>"}]
    with pytest.raises(StructuredOutputError) as info:
        await backend.structured(messages, QADecomposition, max_tokens=7200)
    budgets = [c.body["max_tokens"] for c in endpoint.calls]
    assert max(budgets) < 1000  # never doubled past what the context holds
    assert "finish_reason=length" in str(info.value) and "1000" in str(info.value)


# -- 3. out-of-range options: one line, exit 3 --------------------------------------------------
@pytest.mark.parametrize("flag,value,name", [("--threshold", "2", "threshold"), ("--chunk-size", "0", "chunk_size"),
                                             ("--reflect-rounds", "-1", "reflect_rounds")])
def test_out_of_range_option_is_one_line_and_exit_3(flag, value, name):
    proc = subprocess.run([sys.executable, "-m", "factgrain", "check", "--example", "measles", flag, value],
                          capture_output=True, text=True, timeout=120, env=subprocess_env(), cwd=REPO)
    assert proc.returncode == 3, proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert flag in lines[0] and value in lines[0] and "allowed" in lines[0]


@pytest.mark.parametrize("options", [{"threshold": 2}, {"chunk_size": 0}, {"reflect_rounds": -1}])
def test_out_of_range_keyword_is_a_configuration_error(options):
    with pytest.raises(ConfigurationError) as info:
        factgrain.check(TEXT, REF, **options)
    assert next(iter(options)) in str(info.value)


def test_eval_validates_options_before_running(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"id": "a", "text": TEXT, "reference": REF}) + "\n")
    rc = main(["eval", "--task", "jsonl", "--input", str(rows), "--threshold", "2", "--out", str(tmp_path / "o")])
    assert rc == 3 and "--threshold" in capsys.readouterr().err
    assert not (tmp_path / "o" / "predictions.jsonl").exists()


# -- 4. check() in a plain loop: clients closed inside their own event loop ---------------------
LOOP = """
import sys, factgrain
from tests.reliability.httpserver import LocalServer
with LocalServer(keepalive=True) as srv:
    for i in range(20):
        r = factgrain.check("Ada visited Paris. Bob visited Rome. Carl visited Oslo.", "Ada visited Paris.",
                            model="openai/fake", base_url=srv.base_url, api_key="k", verifier="llm")
        assert r.scores.units == 6, r.scores
print("done")
"""


def test_check_in_a_plain_loop_leaves_no_task_on_a_closed_loop():
    proc = subprocess.run([sys.executable, "-c", LOOP], capture_output=True, text=True, timeout=300,
                          env=subprocess_env(), cwd=REPO)
    assert proc.returncode == 0 and proc.stdout.strip() == "done", proc.stderr[-3000:]
    assert "Event loop is closed" not in proc.stderr
    assert "Task exception was never retrieved" not in proc.stderr
    assert proc.stderr.strip() == ""


async def test_a_backend_passed_in_is_left_open(tmp_path):
    with LocalServer() as srv:
        backend = VLLMBackend("fake", base_url=srv.base_url)
        await factgrain.acheck(TEXT, REF, model=backend, verifier="llm")
        again = await factgrain.acheck(TEXT, REF, model=backend, verifier="llm")  # still usable
        await backend.aclose()
    assert again.scores.units == 4


# -- 5. eval without matplotlib: everything but the plots, one warning, exit 0 ------------------
NO_MPL = """
import sys
sys.modules["matplotlib"] = None  # as if it were not installed
from factgrain.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_eval_without_matplotlib_skips_the_plots_with_one_warning(tmp_path, data_dir):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-c", NO_MPL, "eval", "--task", "qasem-table4", "--limit", "3",
                           "--verifier", "lexical", "--styles", "qa", "--out", str(out), "--no-cache"],
                          capture_output=True, text=True, timeout=300,
                          env={**subprocess_env(), "FACTGRAIN_DATA_DIR": str(data_dir)}, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (out / "report.md").exists() and (out / "predictions.jsonl").exists()
    assert "BAcc" in proc.stdout
    warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "matplotlib" in warnings[0] and "plots skipped" in warnings[0], proc.stderr
    assert not list(out.glob("*.png"))


# -- 6. eval --task jsonl: no-unit rows counted and scored; --limit samples; control bytes --------
def write_rows(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_jsonl_rows_without_units_are_counted_and_scored_by_the_stated_policy(tmp_path):
    from factgrain.evals.runner import run_eval
    from factgrain.evals.tasks.base import EvalSettings

    rows = [{"id": "a", "text": "Ada visited Paris.", "reference": "Ada visited Paris.", "label": 1},
            {"id": "b", "text": "Bob visited Rome.", "reference": "Ada visited Paris.", "label": 0},
            {"id": "c", "text": "Thanks!", "reference": "Ada visited Paris.", "label": 1}]  # no content: no unit
    write_rows(tmp_path / "rows.jsonl", rows)
    with LocalServer() as srv:
        result = run_eval("jsonl", split="dev", out=tmp_path / "out",
                          settings=EvalSettings(model="openai/fake", base_url=srv.base_url, api_key="k",
                                                verifier="llm", cache=False),
                          task_options={"path": str(tmp_path / "rows.jsonl"), "method": "qasem"}, make_plots=False)
    table = dict((str(k), v) for k, v in result.tables[0].rows)
    assert table["rows"] == 3 and table["failed"] == 0
    assert table["no units"] == 1
    assert "no units" in result.markdown and "unsupported" in result.markdown  # the policy is printed
    # BAcc covers all 3 labelled rows: a, b predicted supported (P=0.8), c (no unit) unsupported.
    assert table["BAcc"] == "25.0"
    record = next(r for r in map(json.loads, (tmp_path / "out" / "predictions.jsonl").open()) if r["id"] == "c")
    assert record["score"] == 0.0 and record["status"] == "no_units"


def test_jsonl_limit_takes_a_seeded_random_sample(tmp_path):
    from factgrain.evals.tasks.jsonl_file import JsonlFile

    write_rows(tmp_path / "rows.jsonl", [{"id": f"r{i}", "text": "t", "reference": "r"} for i in range(50)])
    task = JsonlFile(path=str(tmp_path / "rows.jsonl"))
    ids = lambda seed: [j.id for j in task.jobs("dev", limit=5, seed=seed)]  # noqa: E731
    assert len(ids(0)) == 5 and ids(0) == ids(0)
    assert ids(0) != [f"r{i}" for i in range(5)]  # not the first five
    assert ids(0) != ids(1)
    assert ids(0) == sorted(ids(0), key=lambda s: int(s[1:]))  # file order kept
    assert len(task.jobs("dev", limit=None, seed=0)) == 50


async def test_control_bytes_in_a_reference_are_dropped_with_a_warning():
    endpoint = FakeEndpoint(QAS)
    ref = "Ada visited\x00 Paris in 1850.\x07 Bob visited Rome in 1851.\x0c"
    report = await Evaluator(backend_for(endpoint), verifier="llm").acheck(TEXT, ref)
    assert report.scores.scored_units == 2
    assert any("control" in w and "reference" in w for w in report.warnings)
    assert "\x00" not in json.dumps(report.reference) and "\\u0000" not in report.to_json()


# -- 7. the final label agrees with the unit verdicts it lists ----------------------------------
def _results(probs: list[float], threshold: float = 0.5) -> list[UnitResult]:
    out = []
    for i, p in enumerate(probs):
        u = QAPair(id=f"u{i}", sentence_index=0, predicate="won", question="who won?", answer="x")
        vs = [UnitVerdict(unit_id=u.id, component="unit", probability=p, label="supported" if p >= threshold
                          else "unsupported", verifier="t")]
        status, failing = agg.unit_status(u, vs)
        out.append(UnitResult(unit=u, verdicts=vs, status=status, failing_components=failing))
    return out


def test_label_never_reads_supported_while_a_unit_is_listed_unsupported():
    s = agg.score(_results([0.9, 0.9, 0.4]), threshold=0.5, aggregate="harmonic")
    assert s.aggregate["harmonic"] >= 0.5  # the paper's rule would say supported
    assert s.label == "unsupported"
    assert s.harmonic_label == "supported"  # still available, named for what it is


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=12),
       st.sampled_from(["mean", "min", "harmonic"]), st.floats(min_value=0.05, max_value=0.95))
def test_label_agrees_with_the_listed_units(probs, aggregate, threshold):
    results = _results(probs, threshold)
    s = agg.score(results, threshold=threshold, aggregate=aggregate)
    listed_unsupported = any(r.status in ("unsupported", "partial") for r in results)
    assert s.label == ("unsupported" if listed_unsupported else "supported")


# -- 8. backends --probe ------------------------------------------------------------------------
def test_probe_asks_for_as_many_logprobs_as_verification(capsys):
    with LocalServer(max_logprobs=5) as srv:
        rc = main(["backends", "--probe", "--model", "vllm/fake", "--base-url", srv.base_url, "--format", "json"])
        asked = {r.get("top_logprobs") for r in srv.requests}
    info = json.loads(capsys.readouterr().out)
    assert asked == {20}
    assert rc != 0 and info["rows"][-1]["logprobs_ok"] is False
    assert "exceeds maximum of 5" in info["rows"][-1]["logprobs"]


def test_probe_checks_that_the_model_is_served(capsys):
    with LocalServer(served_model="served-model") as srv:
        rc = main(["backends", "--model", "vllm/other-model", "--base-url", srv.base_url, "--format", "json"])
    info = json.loads(capsys.readouterr().out)
    assert rc != 0
    assert all(r["reachable_ok"] is False and "not served" in r["reachable"] for r in info["rows"])
    assert "served-model" in info["rows"][0]["reachable"]


def test_probe_sends_one_request_per_distinct_endpoint(capsys):
    with LocalServer() as srv:
        rc = main(["backends", "--probe", "--model", "vllm/fake", "--base-url", srv.base_url])
        posts = [h for h in srv.handler.hits if not h.startswith("GET")]
    assert rc == 0 and len(posts) == 1


def test_probe_of_a_dead_endpoint_is_not_retried():
    # 4 roles x 5 attempts with back-off took 19 s; the probe now tries each distinct endpoint once
    proc = subprocess.run([sys.executable, "-m", "factgrain", "backends", "--probe", "--model", "vllm/m",
                           "--base-url", f"http://127.0.0.1:{free_port()}/v1"],
                          capture_output=True, text=True, timeout=120, env=subprocess_env(), cwd=REPO)
    assert proc.returncode != 0 and "Connect" in proc.stdout + proc.stderr
    assert "attempt" not in proc.stdout + proc.stderr  # a retried call would say "after N attempt(s)"


# -- 9. vLLM: every attempt in usage; structured_outputs only -------------------------------------
async def test_vllm_choice_constraint_is_structured_outputs_only():
    with LocalServer() as srv:
        backend = VLLMBackend("fake", base_url=srv.base_url)
        await backend.chat([{"role": "user", "content": "Yes?"}], max_tokens=1, choices=["Yes", "No"])
        llama = LlamaCppBackend("fake", base_url=srv.base_url)
        await llama.chat([{"role": "user", "content": "Yes?"}], max_tokens=1, choices=["Yes", "No"])
        await backend.aclose()
        await llama.aclose()
        vllm_body, llama_body = srv.requests
    assert vllm_body["structured_outputs"] == {"choice": ["Yes", "No"]} and "guided_choice" not in vllm_body
    assert "grammar" in llama_body and "structured_outputs" not in llama_body


async def test_usage_counts_every_structured_attempt():
    from factgrain.agent.decompose.qasem import QADecomposition

    messages = [{"role": "user", "content": "<sentence>\nAda visited Paris in 1850.\n</sentence>"}]
    endpoint = FakeEndpoint(QAS, faults=first(2, "schema", "structured"))
    with usage_meter.metering() as used:
        await backend_for(endpoint).structured(messages, QADecomposition, max_retries=2)
    assert endpoint.count("structured") == 3
    assert used.calls == 3 and used.prompt_tokens == 60 and used.completion_tokens == 9

    endpoint = FakeEndpoint(QAS, faults=always("schema", "structured"))
    with usage_meter.metering() as used, pytest.raises(StructuredOutputError):
        await backend_for(endpoint).structured(messages, QADecomposition, max_retries=2)
    assert used.calls == 3 and used.prompt_tokens == 60


async def test_usage_counts_a_truncated_attempt():
    from factgrain.agent.decompose.qasem import QADecomposition

    messages = [{"role": "user", "content": "<sentence>\nAda visited Paris in 1850.\n</sentence>"}]
    endpoint = FakeEndpoint(QAS, faults=first(1, "truncated", "structured"))
    with usage_meter.metering() as used:
        await backend_for(endpoint).structured(messages, QADecomposition)
    assert endpoint.count("structured") == 2 and used.calls == 2 and used.prompt_tokens == 40
