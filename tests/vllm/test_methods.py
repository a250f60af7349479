"""Every decomposition method, both QA span modes and ``--reflect`` against the real vLLM server, through
the CLI as the README shows it (``check TEXT REFERENCE --model vllm/... --base-url ...``)."""

from __future__ import annotations

import pytest

from tests.vllm.conftest import backend_args, read_json, run_factgrain
from tests.vllm.reports import (
    assert_units_index_the_text,
    assert_verdicts_scored_from_logprobs,
    mentions,
    spans,
    uncovered_sentences,
    usage_delta,
)
from tests.vllm.server import metrics as scrape

pytestmark = pytest.mark.vllm

METHODS = ["qasem", "triqua", "claims:factscore", "claims:veriscore", "claims:wice", "claims:n=5", "claims:none",
           "none"]
# SmolLM2-135M cannot always write a claim that is grounded in its sentence; the grounding checks then
# refuse every claim and the check fails loudly (exit 4, naming the sentence) instead of reporting
# nothing. That is the honest outcome for such a model, so these methods accept it.
MAY_FAIL_LOUDLY = ("claims:factscore", "claims:veriscore", "claims:wice")


def failed_loudly(proc, method: str) -> bool:
    """True when the check refused to report because every sentence's decomposition failed, and said
    so with the sentence and the model's reason; any other non-zero exit fails the test."""
    if proc.returncode == 0:
        return False
    assert method in MAY_FAIL_LOUDLY, proc.stderr[-2000:]
    assert proc.returncode == 4, proc.stderr[-2000:]
    assert "every decomposition call failed" in proc.stderr and "sentence 0" in proc.stderr, proc.stderr[-2000:]
    return True


@pytest.fixture(scope="module")
def checked(vllm, case, tmp_path_factory):
    """``checked(method, *flags)`` -> (process, report, what the server counted meanwhile); each run once."""
    runs: dict = {}

    def get(method: str, *flags: str):
        key = (method, flags)
        if key not in runs:
            d = tmp_path_factory.mktemp("check")
            (d / "text.txt").write_text(case["text"])
            (d / "ref.txt").write_text(case["reference"])
            before = scrape(vllm.base_url)
            proc = run_factgrain(["check", "text.txt", "ref.txt", *backend_args(vllm), "--method", method,
                                  "--verifier", "llm", "--format", "json", "-o", "r.json", *flags], d)
            server = usage_delta(before, scrape(vllm.base_url))
            report = read_json(d / "r.json") if proc.returncode == 0 else None
            runs[key] = (proc, report, server)
        return runs[key]

    return get


@pytest.mark.parametrize("method", METHODS)
def test_check_runs_every_method_against_vllm(checked, vllm, method):
    proc, report, server = checked(method)
    if failed_loudly(proc, method):
        assert server["calls"] >= 1, "the method made no call to the server"
        return
    assert report["method"] == method and report["model"] == vllm.spec
    assert report["verifier"].startswith(f"llm:{vllm.spec}")
    assert server["calls"] >= 1, "the method made no call to the server"
    assert_units_index_the_text(report)
    assert_verdicts_scored_from_logprobs(report)
    if method in ("none", "claims:none"):  # the text itself is the unit: always one, always verified
        assert len(report["results"]) == 1 and report["results"][0]["verdicts"]


@pytest.mark.parametrize("method", METHODS)
def test_a_sentence_without_units_is_never_silent(checked, method):
    proc, report, _ = checked(method)
    if failed_loudly(proc, method):
        return
    for sentence in uncovered_sentences(report):
        assert any(mentions(w, sentence) for w in report["warnings"]), (
            f"{method}: sentence {sentence['index']} has no unit and no warning names it: {report['warnings']}")


@pytest.mark.parametrize("method", METHODS)
def test_report_usage_is_what_the_server_counted(checked, method):
    """Report.usage against vLLM's own counters over the same run: every call, prompt and cached token."""
    proc, report, server = checked(method)
    if failed_loudly(proc, method):  # no report to compare; the server still counted the refused attempts
        assert server["calls"] >= 3
        return
    usage = report["usage"]
    assert usage["calls"] == server["calls"]
    assert usage["prompt_tokens"] == server["prompt_tokens"] > 0
    assert usage["completion_tokens"] == server["completion_tokens"]
    assert usage["cached_tokens"] == server["cached_tokens"]


def test_reflect_reviews_the_decomposition_with_the_model(checked, vllm):
    proc, report, server = checked("claims:n=5", "--reflect")
    assert proc.returncode == 0, proc.stderr[-2000:]
    rounds = report["reflection"]
    assert rounds, "--reflect ran no reflection round"
    _, plain, plain_server = checked("claims:n=5")
    # calls that were not verifications: decomposition alone without --reflect, plus reflection with it
    other = server["calls"] - sum(len(r["verdicts"]) for r in report["results"])
    plain_other = plain_server["calls"] - sum(len(r["verdicts"]) for r in plain["results"])
    assert other > plain_other, "reflection made no model call of its own"
    assert {u["id"] for u in rounds[0]["input_units"]} == {r["unit"]["id"] for r in plain["results"]}
    final_ids = {r["unit"]["id"] for r in report["results"]}
    for rnd in rounds:
        assert rnd["judgment"] in ("Good", "Problematic", "No need for decomposition") or rnd["action"], rnd
        for u in rnd["output_units"]:
            for s in spans(u):
                assert report["text"][s["start"]:s["end"]] == s["text"]
    last = rounds[-1]
    assert {u["id"] for u in last["output_units"]} == final_ids, "the report verifies what reflection kept"
    assert_units_index_the_text(report)
    assert_verdicts_scored_from_logprobs(report)


def _parse_mode() -> str:
    """The offline reader's span mode."""
    return "parse"


# triqua's free mode is the CLI test above (one sentence: SmolLM2 fills its whole budget on two)
@pytest.mark.parametrize(("method", "span_mode"), [("qasem", "parse"), ("qasem", "free"), ("triqua", "parse")])
async def test_span_modes_against_vllm(vllm, case, method, span_mode):
    """Both span modes on a two-sentence real text, in Python: parse (the offline reader: no model
    call in decomposition) must give units for every sentence; free (the model writes the units) must give
    units or say why not."""
    import factgrain

    mode = _parse_mode() if span_mode == "parse" else "free"
    before = scrape(vllm.base_url)
    report = await factgrain.acheck(case["two_sentences"], case["reference"], model=vllm.spec,
                                    base_url=vllm.base_url, method=method, span_mode=mode, verifier="llm")
    server = usage_delta(before, scrape(vllm.base_url))
    data = report.model_dump(mode="json")
    assert server["calls"] >= 1
    assert_units_index_the_text(data)
    n = assert_verdicts_scored_from_logprobs(data)
    if span_mode == "parse":
        assert n > 0 and not uncovered_sentences(data), "the parse mode left a sentence without units"
        assert report.usage.prompt_tokens == server["prompt_tokens"]
        # every verification prompt opens with the same system text and reference: the prefix cache serves it
        assert report.usage.cached_tokens == server["cached_tokens"] > 0
    else:
        for sentence in uncovered_sentences(data):  # a sentence left without units is always named
            assert any(mentions(w, sentence) for w in report.warnings), (sentence, report.warnings)


async def test_failed_structured_attempts_are_counted_in_usage(vllm, metrics):
    """A reply that never validates: every attempt the server answered is in the usage meter."""
    from pydantic import BaseModel, field_validator

    from factgrain.backends import usage as usage_meter
    from factgrain.backends.registry import get_backend
    from factgrain.errors import StructuredOutputError

    class Rejected(BaseModel):
        answer: str

        @field_validator("answer")
        @classmethod
        def _never(cls, value: str) -> str:
            raise ValueError("rejected on purpose")

    backend = get_backend(vllm.spec, base_url=vllm.base_url)
    before = metrics()
    with usage_meter.metering() as usage, pytest.raises(StructuredOutputError):
        await backend.structured([{"role": "user", "content": "Answer as JSON: what colour is the sky?"}],
                                 Rejected, max_retries=1, max_tokens=48)
    server = usage_delta(before, metrics())
    assert server["calls"] >= 2, "instructor re-asks once after the rejected reply"
    assert usage.calls == server["calls"] and usage.prompt_tokens == server["prompt_tokens"]
