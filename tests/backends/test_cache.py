"""The LLM-call disk cache: key sensitivity, reruns without calls, no secrets, concurrency."""

from __future__ import annotations

import asyncio
import json
import threading

import httpx
import pytest
from pydantic import BaseModel, ValidationInfo, field_validator

from factgrain.backends import usage as usage_meter
from factgrain.backends.cache import CachedBackend, CallCache, key_material
from factgrain.backends.openai_compat import OpenAICompatBackend
from factgrain.backends.scripted import ScriptedBackend
from factgrain.errors import BackendError
from tests.scripted import qa_backend

MSG = [{"role": "system", "content": "judge"}, {"role": "user", "content": "Is the sky blue?"}]


class Answer(BaseModel):
    word: str


class Other(BaseModel):
    word: str
    extra: int = 0


def counting(model: str = "m") -> ScriptedBackend:
    def handler(req):
        if req.kind == "structured":
            return {"word": f"w{len(backend.requests)}"}
        return 0.8
    backend = ScriptedBackend(model, handler=handler)
    return backend


async def test_same_call_hits_and_records_a_hit(tmp_path):
    inner = counting()
    cached = CachedBackend(inner, CallCache(tmp_path))
    first = await cached.chat(MSG, max_tokens=1, top_logprobs=5, choices=["Yes", "No"])
    with usage_meter.metering() as usage:
        again = await cached.chat(MSG, max_tokens=1, top_logprobs=5, choices=["Yes", "No"])
    assert len(inner.requests) == 1
    assert again.cached and not first.cached
    assert again.text == first.text and again.top_logprobs == first.top_logprobs
    assert usage.cache_hits == 1 and usage.calls == 0 and usage.prompt_tokens == 0


@pytest.mark.parametrize("change", [
    {"messages": [{"role": "system", "content": "judge"}, {"role": "user", "content": "Is the sky green?"}]},
    {"max_tokens": 2},
    {"temperature": 0.7},
    {"top_logprobs": 20},
    {"choices": ["Yes", "No", "Maybe"]},
])
async def test_changing_any_chat_parameter_misses(tmp_path, change):
    inner = counting()
    cached = CachedBackend(inner, CallCache(tmp_path))
    base = dict(messages=MSG, max_tokens=1, temperature=0.0, top_logprobs=5, choices=["Yes", "No"])
    await cached.chat(**base)
    await cached.chat(**{**base, **change})
    assert len(inner.requests) == 2


async def test_changing_the_model_misses_and_the_cache_is_shared(tmp_path):
    store = CallCache(tmp_path)
    a, b = counting("model-a"), counting("model-b")
    await CachedBackend(a, store).chat(MSG)
    await CachedBackend(b, store).chat(MSG)
    await CachedBackend(counting("model-a"), CallCache(tmp_path)).chat(MSG)  # a fresh process, same model
    assert len(a.requests) == 1 and len(b.requests) == 1
    assert len(store) == 2


async def test_structured_keys_on_schema_context_and_retries(tmp_path):
    inner = counting()
    cached = CachedBackend(inner, CallCache(tmp_path))
    obj, _ = await cached.structured(MSG, Answer, context={"sentence": "a"})
    same, res = await cached.structured(MSG, Answer, context={"sentence": "a"})
    assert same == obj and res.cached and len(inner.requests) == 1
    await cached.structured(MSG, Other, context={"sentence": "a"})  # another schema
    await cached.structured(MSG, Answer, context={"sentence": "b"})  # another validation context
    await cached.structured(MSG, Answer, context={"sentence": "a"}, max_retries=0)
    await cached.structured(MSG, Answer, context={"sentence": "a"}, max_tokens=7)
    assert len(inner.requests) == 5


async def test_a_stored_object_the_validators_now_reject_is_a_miss(tmp_path):
    rules = {"banned": None}

    class Strict(BaseModel):
        word: str

        @field_validator("word")
        @classmethod
        def _allowed(cls, v: str, info: ValidationInfo) -> str:
            if v == rules["banned"]:
                raise ValueError("not allowed")
            return v

    inner = counting()
    cached = CachedBackend(inner, CallCache(tmp_path))
    first, _ = await cached.structured(MSG, Strict)
    # Same request, same schema, but the validators changed: the stored object is not trusted.
    rules["banned"] = first.word
    second, result = await cached.structured(MSG, Strict)
    assert len(inner.requests) == 2 and not result.cached and second.word != first.word


async def test_failures_are_not_stored(tmp_path):
    calls = []

    def handler(req):
        calls.append(req)
        return BackendError("down") if len(calls) == 1 else 0.9

    cached = CachedBackend(ScriptedBackend(handler=handler), CallCache(tmp_path))
    with pytest.raises(BackendError):
        await cached.chat(MSG)
    ok = await cached.chat(MSG)
    assert not ok.cached and len(calls) == 2


async def test_concurrent_identical_calls_share_one_backend_call(tmp_path):
    gate = asyncio.Event()

    class Slow(ScriptedBackend):
        async def chat(self, messages, **kw):
            await gate.wait()
            return await super().chat(messages, **kw)

    inner = Slow(handler=lambda req: 0.7)
    cached = CachedBackend(inner, CallCache(tmp_path))
    tasks = [asyncio.ensure_future(cached.chat(MSG)) for _ in range(5)]
    await asyncio.sleep(0)
    gate.set()
    results = await asyncio.gather(*tasks)
    assert len(inner.requests) == 1
    assert sum(r.cached for r in results) == 4


def test_threads_and_instances_write_one_file_safely(tmp_path):
    errors = []

    def writer(n: int) -> None:
        try:
            store = CallCache(tmp_path)
            for i in range(50):
                store.put(f"{n}-{i}", {"text": str(i)})
                assert store.get(f"{n}-{i}") == {"text": str(i)}
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(CallCache(tmp_path)) == 200


def _completion(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={
        "id": "c1", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Yes"}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11},
    })


async def test_keys_and_rows_never_hold_secrets(tmp_path):
    secret, password, query = "sk-very-secret-123", "hunter2pw", "qsecret456"
    backend = OpenAICompatBackend(
        "gpt-x", base_url=f"http://alice:{password}@llm.example:8000/v1?token={query}", api_key=secret,
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(_completion)),
    )
    cached = CachedBackend(backend, CallCache(tmp_path))
    result = await cached.chat(MSG)
    assert result.text == "Yes"
    identity = cached.cache_identity()
    assert identity["endpoint"] == "http://llm.example:8000/v1"
    material = key_material("chat", identity, MSG, {})
    for s in (secret, password, query, "alice"):
        assert s not in material
        for f in tmp_path.iterdir():
            assert s.encode() not in f.read_bytes()
    # The endpoint is part of the identity: another server is another key.
    other = OpenAICompatBackend("gpt-x", base_url="http://other:8000/v1", api_key=secret)
    assert other.cache_identity() != identity


async def test_rerun_of_an_unchanged_check_makes_no_backend_call(tmp_path):
    from factgrain.agent.evaluator import Evaluator

    qas = {"Marie Curie won the Nobel Prize in 1903.": [
        {"predicate": "won", "predicate_type": "verbal", "question": "who won something?", "answer": "Marie Curie"},
        {"predicate": "won", "predicate_type": "verbal", "question": "when did someone win something?", "answer": "in 1903"},
    ]}
    text = "Marie Curie won the Nobel Prize in 1903."
    reference = "Marie Curie shared the 1903 Nobel Prize in Physics."

    def run(backend):
        ev = Evaluator(backend, verifier="llm", cache=True, cache_dir=str(tmp_path))
        return asyncio.get_running_loop(), ev

    first_backend = qa_backend(qas, support={"1903": 0.2})
    _, ev1 = run(first_backend)
    cold = await ev1.acheck(text, reference)
    assert len(first_backend.requests) > 0 and cold.usage.calls == len(first_backend.requests)

    second_backend = qa_backend(qas, support={"1903": 0.2})
    _, ev2 = run(second_backend)
    warm = await ev2.acheck(text, reference)
    assert second_backend.requests == []
    assert warm.usage.calls == 0 and warm.usage.cache_hits == cold.usage.calls
    assert json.dumps([r.model_dump(mode="json") for r in warm.results]) == \
        json.dumps([r.model_dump(mode="json") for r in cold.results])
    assert warm.model == cold.model == "scripted/scripted"


def test_cache_is_off_unless_asked():
    from factgrain.agent.evaluator import Evaluator

    backend = qa_backend({})
    assert Evaluator(backend, verifier="llm").backend is backend
