"""LangChain / LangSmith integration, offline: scripted backends, LangChain's fake chat models, and
the embedded llama.cpp server behind ChatOpenAI."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from unittest.mock import MagicMock

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langsmith")

from langchain_core.documents import Document  # noqa: E402
from langchain_core.language_models.fake_chat_models import FakeListChatModel  # noqa: E402
from langchain_core.runnables import RunnableLambda, RunnablePassthrough  # noqa: E402
from langsmith.evaluation import EvaluationResult  # noqa: E402
from langsmith.evaluation.evaluator import run_evaluator  # noqa: E402
from langsmith.schemas import Example, Run  # noqa: E402
from pydantic import BaseModel, ValidationInfo, field_validator  # noqa: E402

from factgrain.backends.langchain_chat import LangChainChatBackend  # noqa: E402
from factgrain.errors import InputError, StructuredOutputError  # noqa: E402
from factgrain.integrations.langchain import (  # noqa: E402
    FactgrainReviseRunnable,
    FactgrainRunEvaluator,
    FactgrainRunnable,
    create_async_factgrain_evaluator,
    create_factgrain_evaluator,
)
from factgrain.schemas import Report  # noqa: E402
from tests.scripted import QAS, REF, TEXT, qa_backend  # noqa: E402


@pytest.fixture(autouse=True)
def _no_tracing(monkeypatch):
    for name in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def backend():
    return qa_backend(QAS, support={"Annalong": 0.1})


def make_run(outputs, inputs=None) -> Run:
    now = datetime.now(timezone.utc)
    return Run(id=uuid.uuid4(), name="rag", start_time=now, end_time=now, run_type="chain",
               inputs=inputs or {"question": "What happened?"}, outputs=outputs, trace_id=uuid.uuid4())


def make_example(outputs, inputs=None) -> Example:
    return Example(id=uuid.uuid4(), dataset_id=uuid.uuid4(), inputs=inputs or {"question": "What happened?"},
                   outputs=outputs, created_at=datetime.now(timezone.utc))


def test_evaluator_called_the_way_langsmith_evaluate_calls_it():
    evaluator = create_factgrain_evaluator(model=backend(), verifier="llm", span_mode="free")
    # langsmith.evaluate() wraps plain functions with run_evaluator() and calls evaluate_run(run=, example=).
    wrapped = run_evaluator(evaluator)
    result = wrapped.evaluate_run(run=make_run({"output": TEXT}), example=make_example({"reference": REF}),
                                  evaluator_run_id=uuid.uuid4())
    assert isinstance(result, EvaluationResult) and result.key == "factgrain"
    assert result.score == pytest.approx(2 / 3)
    meta = result.metadata
    assert [u["status"] for u in meta["units"]] == ["supported", "unsupported", "supported"]
    assert meta["units"][1]["components"][0]["probability"] == pytest.approx(0.1)
    err = meta["errors"][0]
    assert err["text"] == "in the Annalong Valley" and TEXT[err["start"]:err["end"]] == err["text"]
    assert err["error_kind"] == "extrinsic" and meta["counts"]["unsupported"] == 1
    assert "'in the Annalong Valley'" in result.comment


def test_plain_call_with_configured_field_names_and_documents():
    evaluator = create_factgrain_evaluator(model=backend(), verifier="llm", span_mode="free", key="grounded",
                                           text_key="generation.text", reference_key="retrieved",
                                           question_key="q", score="label")
    out = evaluator(inputs={"q": "What happened?", "retrieved": [Document(page_content=REF, metadata={"source": "bbc"})]},
                    outputs={"generation": {"text": TEXT}})
    assert out["key"] == "grounded" and out["score"] is False  # harmonic aggregate of 0.1 fails
    assert set(out) == {"key", "score", "comment", "metadata"}
    with pytest.raises(InputError, match="no reference found"):
        evaluator(inputs={}, outputs={"generation": {"text": TEXT}})


async def test_async_evaluator_and_recorded_errors():
    evaluator = create_async_factgrain_evaluator(model=backend(), verifier="llm", span_mode="free")
    out = await evaluator(outputs=TEXT, reference_outputs={"context": REF})
    assert out["score"] == pytest.approx(2 / 3)
    recording = create_factgrain_evaluator(model=backend(), on_error="record")
    failed = recording(outputs={"output": ""}, reference_outputs={"reference": REF})
    assert failed["score"] is None and "could not check" in failed["comment"]


def test_lcel_chain_generate_then_factgrain():
    generate = RunnableLambda(lambda x: TEXT)  # stands in for prompt | llm | parser
    chain = RunnablePassthrough.assign(output=generate) | FactgrainRunnable(
        model=backend(), verifier="llm", span_mode="free")
    report = chain.invoke({"question": "What happened?", "context": REF})
    assert isinstance(report, Report) and report.question == "What happened?"
    assert report.scores.consistency == pytest.approx(2 / 3)
    # the text alone also works when the reference is fixed; batch keeps order
    texts = RunnableLambda(lambda x: x["draft"]) | FactgrainRunnable(
        model=backend(), verifier="llm", span_mode="free", reference=REF, output="evaluation")
    results = texts.batch([{"draft": TEXT}, {"draft": "He was airlifted to hospital."}])
    assert [r["score"] for r in results] == [pytest.approx(2 / 3), 1.0]


async def test_runnable_async_paths():
    runnable = FactgrainRunnable(model=backend(), verifier="llm", span_mode="free", output="assign")
    item = {"output": TEXT, "reference": REF}
    one = await runnable.ainvoke(item)
    assert one["output"] == TEXT and one["factgrain"].scores.consistency == pytest.approx(2 / 3)
    many = await runnable.abatch([item, {"output": "He was airlifted to hospital.", "reference": REF}])
    assert [m["factgrain"].scores.supported_units for m in many] == [2, 1]


def test_run_evaluator_adapter_returns_evaluation_result_and_feeds_the_callback_handler():
    from langchain_core.tracers.evaluation import EvaluatorCallbackHandler

    adapter = FactgrainRunEvaluator(model=backend(), verifier="llm", span_mode="free")
    result = adapter.evaluate_run(make_run({"output": TEXT}, inputs={"question": "q", "context": REF}))
    assert isinstance(result, EvaluationResult) and result.score == pytest.approx(2 / 3)
    assert result.metadata["errors"][0]["text"] == "in the Annalong Valley"
    assert adapter.feedback_keys == ["factgrain"]
    # online monitoring: the handler evaluates each finished run and logs feedback through its client
    client = MagicMock()
    handler = EvaluatorCallbackHandler(evaluators=[adapter], client=client, max_concurrency=0)
    chain = RunnablePassthrough.assign(output=RunnableLambda(lambda x: TEXT))
    chain.invoke({"question": "What happened?", "context": REF}, config={"callbacks": [handler]})
    feedback = [c for c in client.create_feedback.call_args_list if c.args[1] == "factgrain"]
    assert feedback and feedback[0].kwargs["score"] == pytest.approx(2 / 3)


def test_revise_runnable():
    import re

    from factgrain.agent.revise import RevisionEdits
    from factgrain.backends.scripted import ScriptedBackend

    def reply(req):
        if req.response_model is RevisionEdits:
            n = re.search(r"\[(\d+)\] span: \"in the Annalong Valley\"", req.last_user).group(1)
            return {"edits": [{"problem": int(n), "replacement": "at Slieve Gullion"}]}
        return backend()._handler(req)

    chain = FactgrainReviseRunnable(model=ScriptedBackend(handler=reply), verifier="llm", span_mode="free",
                                    output="text")
    QAS["A man fell at Slieve Gullion while walking."] = QAS["A man fell in the Annalong Valley while walking."][:1]
    try:
        assert chain.invoke({"output": TEXT, "reference": REF}) == TEXT.replace("in the Annalong Valley", "at Slieve Gullion")
    finally:
        del QAS["A man fell at Slieve Gullion while walking."]


class City(BaseModel):
    city: str

    @field_validator("city")
    @classmethod
    def in_text(cls, value: str, info: ValidationInfo) -> str:
        if value not in (info.context or {}).get("text", ""):
            raise ValueError(f"{value!r} is not in the text")
        return value


async def test_chat_model_without_structured_output_is_asked_for_json_and_re_asked():
    model = FakeListChatModel(responses=['{"city": "Rome"}', 'Sure! ```json\n{"city": "Paris"}\n```'])
    b = LangChainChatBackend(model)
    assert not b.supports_logprobs
    obj, result = await b.structured([{"role": "user", "content": "Where?"}], City, context={"text": "in Paris"})
    assert obj.city == "Paris" and b._resolved_method == "prompt"
    model = FakeListChatModel(responses=['{"city": "Rome"}'] * 3)
    with pytest.raises(StructuredOutputError) as info:
        await LangChainChatBackend(model).structured([{"role": "user", "content": "Where?"}], City,
                                                     context={"text": "in Paris"}, max_retries=1)
    assert info.value.attempts == 2 and "Rome" in info.value.last_completion


def test_chat_model_without_logprobs_gives_marked_hard_answers():
    model = FakeListChatModel(responses=["Yes"])
    report = __import__("factgrain").check("He was airlifted to hospital.", REF, model=model, verifier="llm",
                                            method="none")
    assert report.results[0].verdicts[0].hard_answer_only and report.scores.consistency == 1.0
    assert any("no logprobs" in w for w in report.warnings)


@pytest.mark.embedded
def test_chat_openai_on_the_embedded_server_is_a_backend(embedded_backend):
    from langchain_openai import ChatOpenAI

    chat = ChatOpenAI(base_url=embedded_backend.base_url, api_key="local", model="smollm2-135m")
    report = __import__("factgrain").check(TEXT, REF, model=chat, verifier="llm", method="none")
    verdict = report.results[0].verdicts[0]
    assert report.model == "langchain/smollm2-135m" and report.usage.calls == 1
    assert verdict.status.value == "scored" and not verdict.hard_answer_only  # logprobs came through
    assert 0.0 < verdict.probability < 1.0 and not report.warnings
    b = LangChainChatBackend(chat)
    obj, _ = __import__("asyncio").run(b.structured(
        [{"role": "user", "content": "The capital of France is Paris. Name the city as JSON."}], City,
        context={"text": "The capital of France is Paris."}))
    assert obj.city == "Paris" and b._resolved_method == "json_schema"


async def test_a_reply_cut_at_the_budget_is_retried_once_with_twice_the_budget_then_named():
    """A fault double: the provider says finish_reason=length (the real server does this below)."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    cut = AIMessage(content='{"city": "Par', response_metadata={"finish_reason": "length"})
    whole = AIMessage(content='{"city": "Paris"}', response_metadata={"finish_reason": "stop"})
    b = LangChainChatBackend(GenericFakeChatModel(messages=iter([cut, whole])))
    obj, result = await b.structured([{"role": "user", "content": "Where?"}], City, context={"text": "in Paris"})
    assert obj.city == "Paris" and result.finish_reason == "stop"
    b = LangChainChatBackend(GenericFakeChatModel(messages=iter([cut, cut, whole])))
    with pytest.raises(StructuredOutputError, match=r"cut off at max_tokens=2048 \(finish_reason=length\)") as info:
        await b.structured([{"role": "user", "content": "Where?"}], City, context={"text": "in Paris"})
    assert info.value.attempts == 2 and info.value.last_completion == '{"city": "Par'


@pytest.mark.embedded
def test_chat_openai_reply_cut_by_a_tiny_budget_is_an_error_naming_the_cut(embedded_backend):
    from langchain_openai import ChatOpenAI

    chat = ChatOpenAI(base_url=embedded_backend.base_url, api_key="local", model="smollm2-135m")
    b = LangChainChatBackend(chat)
    with pytest.raises(StructuredOutputError, match=r"cut off at max_tokens=4 \(finish_reason=length\)"):
        __import__("asyncio").run(b.structured(
            [{"role": "user", "content": "The capital of France is Paris. Name the city as JSON."}], City,
            context={"text": "The capital of France is Paris."}, max_tokens=2))


@pytest.mark.embedded
def test_chat_openai_budgets_are_capped_to_the_servers_context(embedded_backend):
    import asyncio

    from langchain_openai import ChatOpenAI

    from factgrain.backends.openai_compat import estimate_prompt_tokens

    async def budgets():
        b = LangChainChatBackend(ChatOpenAI(base_url=embedded_backend.base_url, api_key="local", model="smollm2-135m"))
        context = await b.context_length()  # llama.cpp says n_ctx per slot in /props
        return context, await b.reply_budget(messages, 10**6), await b.reply_budget(messages, 50)

    messages = [{"role": "user", "content": "Name the capital of France as JSON."}]
    context, capped, small = asyncio.run(budgets())
    assert context == embedded_backend.known_context_length()
    assert capped == context - estimate_prompt_tokens(messages) and small == 50
    # a model that is not behind an OpenAI-compatible URL keeps the budget it was asked for
    assert asyncio.run(LangChainChatBackend(FakeListChatModel(responses=["{}"])).reply_budget(messages, 10**6)) == 10**6
