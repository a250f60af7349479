"""acheck_stream: texts run side by side, so one text stuck in decomposition never holds back the
verification (and the report) of another."""

from __future__ import annotations

import asyncio

from factgrain.agent.evaluator import Evaluator
from factgrain.backends.scripted import ScriptedBackend
from tests.scripted import qa_backend

SLOW = "The slow text was written in Paris."
FAST = "The fast text was written in Rome."
REFERENCE = "Both texts were written in Rome."
QAS = {
    SLOW: [{"predicate": "written", "predicate_type": "verbal", "question": "where was something written?", "answer": "in Paris"}],
    FAST: [{"predicate": "written", "predicate_type": "verbal", "question": "where was something written?", "answer": "in Rome"}],
}


async def test_a_text_stuck_in_decomposition_does_not_block_another_texts_verification():
    gate = asyncio.Event()
    scripted = qa_backend(QAS)

    class Gated(ScriptedBackend):
        async def structured(self, messages, response_model, **kw):
            if SLOW in messages[-1]["content"]:
                await gate.wait()  # decomposition of the slow text hangs until released
            return await super().structured(messages, response_model, **kw)

    backend = Gated(handler=scripted._handler)
    ev = Evaluator(backend, verifier="llm")
    stream = ev.acheck_stream([{"text": SLOW, "reference": REFERENCE}, {"text": FAST, "reference": REFERENCE}],
                              concurrency=2)
    index, report = await asyncio.wait_for(stream.__anext__(), timeout=10)
    assert index == 1 and report.scores.units == 1
    assert not gate.is_set()
    verified = [r for r in backend.requests if r.kind == "chat"]
    assert verified and all(FAST in r.last_user for r in verified)
    gate.set()
    index, report = await asyncio.wait_for(stream.__anext__(), timeout=10)
    assert index == 0 and report.scores.units == 1
