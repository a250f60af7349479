"""The LangChain evaluator (as ``langsmith.evaluate`` calls it) and ChatOpenAI as a backend, and the Ray
engine with two actors on one server, against the real vLLM server."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

import pytest

from tests.vllm.reports import usage_delta

pytestmark = pytest.mark.vllm


def test_langsmith_evaluator_scores_a_run_against_vllm(vllm, case, metrics):
    pytest.importorskip("langsmith")
    from langsmith.evaluation import run_evaluator
    from langsmith.schemas import Example, Run

    from factgrain.integrations.langchain import create_factgrain_evaluator

    evaluator = create_factgrain_evaluator(model=vllm.spec, base_url=vllm.base_url, method="none", verifier="llm")
    wrapped = run_evaluator(evaluator)  # what langsmith.evaluate() does with a plain function
    now = datetime.now(timezone.utc)
    run = Run(id=uuid.uuid4(), name="generate", run_type="chain", inputs={"question": "What happened?"},
              outputs={"output": case["text"]}, start_time=now, trace_id=uuid.uuid4())
    example = Example(id=uuid.uuid4(), dataset_id=uuid.uuid4(), inputs={"question": "What happened?"},
                      outputs={"reference": case["reference"]}, created_at=now)
    before = metrics()
    result = wrapped.evaluate_run(run=run, example=example, evaluator_run_id=uuid.uuid4())
    server = usage_delta(before, metrics())
    assert result.key == "factgrain" and server["calls"] == 1
    meta = result.metadata
    assert meta["model"] == vllm.spec and meta["counts"]["units"] == 1 and meta["counts"]["scored"] == 1
    unit = meta["units"][0]
    p = unit["components"][0]["probability"]
    assert 0.0 <= p <= 1.0
    assert result.score == (1.0 if p >= meta["threshold"] else 0.0)
    for err in meta["errors"]:
        assert case["text"][err["start"]:err["end"]] == err["text"]


def test_chat_openai_on_vllm_is_a_backend_with_logprobs(vllm, case, metrics):
    pytest.importorskip("langchain_openai")
    from langchain_openai import ChatOpenAI

    import factgrain

    chat = ChatOpenAI(base_url=vllm.base_url, api_key="local", model=vllm.model, temperature=0)
    before = metrics()
    report = factgrain.check(case["text"], case["reference"], model=chat, verifier="llm", method="none")
    server = usage_delta(before, metrics())
    verdict = report.results[0].verdicts[0]
    assert report.model == f"langchain/{vllm.model}" and report.usage.calls == server["calls"] == 1
    assert verdict.status.value == "scored" and not verdict.hard_answer_only  # logprobs came through LangChain
    assert 0.0 <= verdict.probability <= 1.0
    assert report.usage.prompt_tokens == server["prompt_tokens"]


def test_chat_openai_on_vllm_learns_the_servers_max_model_len(vllm):
    pytest.importorskip("langchain_openai")
    import asyncio

    from langchain_openai import ChatOpenAI

    from factgrain.backends.langchain_chat import LangChainChatBackend
    from factgrain.backends.openai_compat import VLLMBackend

    async def both():
        lc = LangChainChatBackend(ChatOpenAI(base_url=vllm.base_url, api_key="local", model=vllm.model))
        own = VLLMBackend(vllm.model, base_url=vllm.base_url, api_key="local")
        try:
            return await lc.context_length(), await own.context_length()
        finally:
            await own.aclose()

    lc, own = asyncio.run(both())
    assert own and lc == own  # vLLM's max_model_len from /v1/models, as the vllm/ backend reads it


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.data")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield ray
    ray.shutdown()


def test_ray_engine_two_actors_on_one_server_match_the_local_engine(vllm, local_ray, tmp_path, data_dir, metrics):
    from factgrain.evals.runner import run_eval
    from factgrain.evals.tasks.base import EvalSettings

    settings = EvalSettings(model=vllm.spec, base_url=vllm.base_url, verifier="llm", cache=False)
    opts = {"styles": ("qa",)}
    local = run_eval("qasem-table4", split="dev", limit=8, out=tmp_path / "local", settings=settings,
                     task_options=opts, make_plots=False)
    before = metrics()
    remote = run_eval("qasem-table4", split="dev", limit=8, out=tmp_path / "ray", settings=settings,
                      task_options=opts, engine="ray", endpoints=[vllm.base_url], ray_actors=2, make_plots=False)
    server = usage_delta(before, metrics())
    assert local.new_records == remote.new_records == 8 and remote.errors == 0
    assert server["calls"] == 8, "every Ray prediction is one call to the server"

    def records(name):
        lines = (tmp_path / name / "predictions.jsonl").read_text().splitlines()
        return {r["id"]: r for r in map(json.loads, lines)}

    a, b = records("local"), records("ray")
    assert a.keys() == b.keys()
    for key, r in b.items():
        assert r["run"]["engine"] == "ray" and r["run"]["endpoint"] == vllm.base_url
        assert r["status"] == "scored" and 0.0 <= r["probability"] <= 1.0
        # The same request as the local engine's. Not the same probability: vLLM's numerics are not
        # batch-invariant (bf16 on CPU; measured 0.30 vs 0.25 for one QA), and the two runs batch differently.
        for field in ("statement", "label", "style", "prompt_versions", "n_units"):
            assert r[field] == a[key][field], (key, field)
