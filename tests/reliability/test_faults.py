"""Fault injection through httpx.MockTransport into the real OpenAI-compatible backend.

Each test runs a whole check (decomposition over HTTP + LLM verification over HTTP) and asserts on
the final report: every unit is either scored with exactly the probability the server sent, or
unscored with a reason; nothing is dropped and no verdict is made up.
"""

from __future__ import annotations

import re

import time
from email.utils import formatdate

import httpx
import pytest

from factgrain.backends.retry import RetryPolicy, _retry_after

from factgrain.agent.evaluator import Evaluator
from factgrain.errors import BackendError, FactgrainError, StructuredOutputError
from factgrain.schemas.verdicts import VerdictStatus
from tests.reliability.fakeserver import (
    ALL_FAULTS,
    CONTENT_FAULTS,
    TRANSPORT_FAULTS,
    REAL_WAIT,
    FakeEndpoint,
    always,
    backend_for,
    first,
    mixed,
)

TEXT = "Marie Curie won the Nobel Prize in 1903. She was born in Warsaw."
REF = "Marie Curie won the Nobel Prize in Physics in 1903. She was born in Paris."
QAS = {
    "Marie Curie won the Nobel Prize in 1903.": [
        {"predicate": "won", "predicate_type": "verbal", "question": "who won something?", "answer": "Marie Curie"},
        {"predicate": "won", "predicate_type": "verbal", "question": "when did someone win something?", "answer": "in 1903"},
    ],
    "She was born in Warsaw.": [
        {"predicate": "born", "predicate_type": "verbal", "question": "where was someone born?", "answer": "in Warsaw"},
    ],
}
SUPPORT = {"Warsaw": 0.1}
N_SENTENCES, N_UNITS = 2, 3
ATTEMPTS = 3


async def run(faults, *, attempts: int = ATTEMPTS):
    endpoint = FakeEndpoint(QAS, support=SUPPORT, faults=faults)
    report = await Evaluator(backend_for(endpoint, attempts=attempts), verifier="llm").acheck(TEXT, REF)
    return report, endpoint


async def run_or_error(faults, *, attempts: int = ATTEMPTS):
    """A report, or the error of a check in which every call of a stage failed (issue 14: such a
    check has nothing to report and raises instead of returning an empty report)."""
    try:
        return await run(faults, attempts=attempts)
    except FactgrainError as exc:
        return exc, None


def assert_honest(report, endpoint) -> None:
    """The invariants every faulty run must keep."""
    if isinstance(report, FactgrainError):  # every call of one stage failed: an error, exit 4
        assert str(report).startswith(("every decomposition call failed", "every verification call failed"))
        assert report.exit_code == 4
        return
    s = report.scores
    # Nothing dropped: each sentence gave units or is counted (and named in a warning) as failed.
    covered = {r.unit.sentence_index for r in report.results}
    failed = {i for i in range(N_SENTENCES)
              if any(w.startswith(f"sentence {i}: decomposition failed") for w in report.warnings)}
    assert covered | failed == set(range(N_SENTENCES))
    assert s.failed_sentences == len(failed)
    # Counts add up and unscored units are in neither supported nor unsupported.
    assert s.units == len(report.results) == s.scored_units + s.unscored_units
    assert s.scored_units == s.supported_units + s.unsupported_units
    assert s.unscored_units == sum(r.status == "unscored" for r in report.results)
    if s.scored_units == 0:
        assert s.consistency is None and s.label is None and s.aggregate == {}
    for v in report.verdicts:
        if v.status is VerdictStatus.unscored:
            assert v.reason and v.probability is None and v.label is None
        else:  # the probability is the one the server sent, not a default
            statement = next(r.unit for r in report.results if r.unit.id == v.unit_id).statement()
            expected = endpoint.p_for(statement)
            if v.hard_answer_only:
                assert v.probability == float(expected >= 0.5)
            else:
                assert v.probability == pytest.approx(expected, abs=1e-6)


async def test_clean_run_baseline():
    report, endpoint = await run(None)
    assert_honest(report, endpoint)
    assert [r.status for r in report.results] == ["supported", "supported", "unsupported"]
    assert endpoint.count("structured") == N_SENTENCES and endpoint.count("chat") == N_UNITS


@pytest.mark.parametrize("fault", TRANSPORT_FAULTS)
async def test_one_transport_fault_is_retried_and_nothing_is_lost(fault):
    report, endpoint = await run(first(1, fault))
    assert_honest(report, endpoint)
    assert report.scores.scored_units == N_UNITS and not report.warnings
    assert endpoint.count() == N_SENTENCES + N_UNITS + 1  # exactly one extra call


@pytest.mark.parametrize("fault", TRANSPORT_FAULTS)
@pytest.mark.parametrize("kind", ["structured", "chat"])
async def test_persistent_transport_fault_is_an_error_naming_the_cause(fault, kind):
    # Behaviour changed on purpose (issue 14): when every call of a stage fails there is nothing
    # to report, so the check raises the endpoint's error (exit 4) instead of an empty report.
    endpoint = FakeEndpoint(QAS, support=SUPPORT, faults=always(fault, kind))
    with pytest.raises(BackendError) as info:
        await Evaluator(backend_for(endpoint), verifier="llm").acheck(TEXT, REF)
    expected = {"429": "HTTP 429: injected", "429-retry-after": "HTTP 429: injected", "500": "HTTP 500: injected",
                "502": "HTTP 502: injected", "503": "HTTP 503: injected", "reset": "APIConnectionError",
                "connect": "APIConnectionError", "timeout": "APITimeoutError"}[fault]
    message = str(info.value)
    assert f"endpoint http://fake.invalid/v1 failed after {ATTEMPTS} attempt(s): {expected}" in message
    if kind == "structured":  # no unit can exist: every sentence's decomposition failed
        assert message.startswith(f"every decomposition call failed ({N_SENTENCES} of {N_SENTENCES} sentences)")
        assert endpoint.count("structured") == N_SENTENCES * ATTEMPTS
    else:
        assert message.startswith(f"every verification call failed ({N_UNITS} of {N_UNITS} components)")
        assert endpoint.count("chat") == N_UNITS * ATTEMPTS


@pytest.mark.parametrize("fault", TRANSPORT_FAULTS)
async def test_transport_fault_on_one_sentence_gives_unscored_with_reason(fault):
    plan = lambda n, k, body: fault if k == "chat" and "Warsaw" in str(body) else None  # noqa: E731
    report, endpoint = await run(plan)
    assert_honest(report, endpoint)
    assert report.scores.unscored_units == 1 and report.scores.scored_units == N_UNITS - 1
    (reason,) = {v.reason for v in report.verdicts if v.reason}
    assert reason.startswith(f"endpoint http://fake.invalid/v1 failed after {ATTEMPTS} attempt(s): ")
    assert any(w.startswith("sentence 1: verification failed") and reason in w for w in report.warnings)


async def test_retry_after_is_honoured(no_backoff):
    await run(first(1, "429-retry-after"))
    assert no_backoff == [7.0]  # the server's hint, not the jittered back-off


class _Exc(Exception):
    def __init__(self, headers):
        self.response = httpx.Response(429, headers=headers)


def _state(exc, attempt=1):
    outcome = type("Outcome", (), {"exception": lambda self: exc})()
    return type("State", (), {"attempt_number": attempt, "outcome": outcome})()


def test_retry_after_forms_and_cap():
    assert _retry_after(_Exc({"retry-after": "3"})) == 3.0
    assert _retry_after(_Exc({"retry-after-ms": "250"})) == 0.25
    assert _retry_after(_Exc({"retry-after": "soon"})) is None
    assert 50 < _retry_after(_Exc({"retry-after": formatdate(time.time() + 60, usegmt=True)})) <= 61
    policy = RetryPolicy(base_delay=0.5, max_delay=20.0)
    assert REAL_WAIT(policy, _state(_Exc({"retry-after": "3600"}))) == 20.0  # capped
    waits = [REAL_WAIT(policy, _state(_Exc({}), attempt=a)) for a in range(1, 12) for _ in range(20)]
    assert min(waits) >= 0.0 and max(waits) <= 20.0 and len(set(waits)) > 100  # jittered, bounded


async def test_bounded_backoff_without_hint(no_backoff):
    await run_or_error(always("500", "chat"))
    # tenacity asks for a wait after every failed attempt, the last one included (then stops).
    assert len(no_backoff) == N_UNITS * ATTEMPTS
    assert all(0.0 <= w <= 20.0 for w in no_backoff)


@pytest.mark.parametrize("fault", ["malformed", "schema", "garbage", "truncated"])
async def test_one_bad_structured_reply_is_reasked(fault):
    report, endpoint = await run(first(1, fault, "structured"))
    assert_honest(report, endpoint)
    assert report.scores.scored_units == N_UNITS and report.scores.failed_sentences == 0
    assert endpoint.count("structured") == N_SENTENCES + 1


async def test_truncated_reply_is_retried_once_with_a_larger_budget():
    report, endpoint = await run(first(1, "truncated", "structured"))
    budgets = [c.body["max_tokens"] for c in endpoint.calls if c.kind == "structured"]
    # budgets are sized to each sentence; the truncated one is retried once with twice its budget
    assert len(budgets) == 3 and any(2 * b in budgets for b in budgets)
    endpoint = FakeEndpoint(QAS, support=SUPPORT, faults=always("truncated", "structured"))
    with pytest.raises(StructuredOutputError) as info:
        await Evaluator(backend_for(endpoint, attempts=5), verifier="llm").acheck(TEXT, REF)
    assert endpoint.count("structured") == 2 * N_SENTENCES  # one larger try, then give up
    assert re.search(r"cut off at max_tokens=\d+ \(finish_reason=length\)", str(info.value))


@pytest.mark.parametrize("fault", ["malformed", "schema", "garbage"])
async def test_structured_reply_that_never_validates(fault):
    endpoint = FakeEndpoint(QAS, support=SUPPORT, faults=always(fault, "structured"))
    with pytest.raises(StructuredOutputError) as info:
        await Evaluator(backend_for(endpoint), verifier="llm").acheck(TEXT, REF)
    assert "every decomposition call failed" in str(info.value) and "no valid QADecomposition" in str(info.value)
    assert info.value.exit_code == 4
    # one sentence only: a report, the other sentence counted and named
    plan = lambda n, k, body: fault if k == "structured" and "Warsaw" in str(body) else None  # noqa: E731
    report, endpoint = await run(plan)
    assert_honest(report, endpoint)
    assert report.scores.failed_sentences == 1 and any("no valid QADecomposition" in w for w in report.warnings)


async def test_structured_output_error_carries_attempts_and_last_completion():
    from factgrain.errors import StructuredOutputError
    from factgrain.agent.decompose.qasem import QADecomposition

    endpoint = FakeEndpoint(QAS, faults=always("schema", "structured"))
    backend = backend_for(endpoint)
    with pytest.raises(StructuredOutputError) as info:
        await backend.structured([{"role": "user", "content": "<sentence>\nx\n</sentence>"}], QADecomposition,
                                 max_retries=2)
    assert info.value.attempts == 3 and '"adverbial"' in info.value.last_completion


@pytest.mark.parametrize("fault", ["schema", "garbage", "truncated"])
async def test_bad_verifier_replies_are_unscored_never_guessed(fault):
    report, endpoint = await run(always(fault, "chat"))
    assert_honest(report, endpoint)
    assert report.scores.unscored_units == N_UNITS and report.scores.supported_units == 0
    assert report.scores.unsupported_units == 0


@pytest.mark.parametrize("fault", ["nochoices", "malformed"])
async def test_failed_verifier_calls_everywhere_are_an_error(fault):
    report, _ = await run_or_error(always(fault, "chat"))
    assert isinstance(report, BackendError) and str(report).startswith("every verification call failed")


async def test_fake_json_verdict_in_reply_is_not_accepted():
    report, _ = await run(always("schema", "chat"))
    assert all(v.raw_reply == '{"verdict": "Yes"}' and v.status is VerdictStatus.unscored for v in report.verdicts)


async def test_missing_logprobs_fall_back_to_the_hard_answer_and_say_so():
    report, endpoint = await run(always("nologprobs", "chat"))
    assert_honest(report, endpoint)
    assert all(v.hard_answer_only for v in report.verdicts)
    assert [v.probability for v in report.verdicts] == [1.0, 1.0, 0.0]
    assert any("no logprobs" in w for w in report.warnings)


MIXED_SEEDS = range(10)


@pytest.mark.parametrize("seed", MIXED_SEEDS)
async def test_mixed_faults(seed):
    report, endpoint = await run_or_error(mixed(0.4, ALL_FAULTS, seed=seed), attempts=4)
    assert_honest(report, endpoint)


async def test_mixed_runs_inject_every_fault_kind():
    injected = set()
    for seed in range(100, 140):
        endpoint = FakeEndpoint(QAS, support=SUPPORT, faults=mixed(0.4, ALL_FAULTS, seed=seed))
        try:
            report = await Evaluator(backend_for(endpoint, attempts=4), verifier="llm").acheck(TEXT, REF)
        except FactgrainError as exc:
            report = exc
        assert_honest(report, endpoint)
        injected |= {c.fault for c in endpoint.calls if c.fault}
    assert injected == set(ALL_FAULTS)


async def test_mixed_transport_faults_at_a_high_rate_still_finish_everything():
    report, endpoint = await run(mixed(0.5, TRANSPORT_FAULTS, seed=11), attempts=8)
    assert_honest(report, endpoint)
    # 8 attempts at a 50% fault rate: all of these calls got through.
    assert report.scores.scored_units == N_UNITS and report.scores.failed_sentences == 0


async def test_every_fault_kind_is_exercised():
    assert set(ALL_FAULTS) == set(TRANSPORT_FAULTS) | set(CONTENT_FAULTS)
    for fault in ALL_FAULTS:
        _, endpoint = await run(first(1, fault))
        assert endpoint.calls[0].fault == fault
