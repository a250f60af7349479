import pytest

import factgrain
from factgrain.agent.evaluator import Evaluator
from factgrain.agent.verifiers.llm import p_yes
from factgrain.backends.scripted import ScriptedBackend
from factgrain.errors import ConfigurationError, InputError, StructuredOutputError
from tests.scripted import QAS, REF, TEXT, qa_backend


def test_check_end_to_end_with_scripted_llm_verifier():
    backend = qa_backend(QAS, support={"Annalong": 0.1})
    report = factgrain.check(TEXT, REF, model=backend, verifier="llm", span_mode="free")
    assert [r.status for r in report.results] == ["supported", "unsupported", "supported"]
    assert report.scores.consistency == pytest.approx(2 / 3)
    bad = report.unsupported()[0]
    assert bad.unit.answer == "in the Annalong Valley"
    assert TEXT[bad.unit.answer_span.start:bad.unit.answer_span.end] == bad.unit.answer
    v = bad.verdicts[0]
    assert v.prompt[1]["content"].startswith("<reference>") and v.raw_reply == "No"
    assert v.error_kind == "extrinsic"  # "Annalong Valley" is nowhere in the reference
    assert report.prompt_versions["verify"] and report.schema_version
    assert report.usage.calls == 5  # 2 decompositions + 3 verifications, no retries
    # JSON round trip
    again = factgrain.Report.model_validate_json(report.to_json())
    assert again.scores == report.scores


def test_reference_comes_before_the_unit_for_prefix_caching():
    backend = qa_backend(QAS)
    report = factgrain.check(TEXT, REF, model=backend, verifier="llm", span_mode="free")
    prompts = [v.prompt[1]["content"] for v in report.verdicts]
    prefix = prompts[0].split("</reference>")[0]
    assert all(p.startswith(prefix) for p in prompts) and REF in prefix


def test_a_model_that_never_gives_a_unit_is_an_error_naming_the_sentence():
    # an empty reply for a sentence with content is re-asked, then a failure; all sentences failing is an error
    backend = qa_backend({})
    with pytest.raises(StructuredOutputError, match=r"every decomposition call failed .*sentence 0"):
        factgrain.check(TEXT, REF, model=backend, verifier="llm", span_mode="free")


def test_no_units_is_explicit():
    # the offline reader finds no predicate in a courtesy: a report that says so, not a silent score
    report = factgrain.check("Thanks!", REF, verifier="lexical", span_mode="parse")
    assert report.scores.status == "no_units" and report.scores.consistency is None


def test_missing_logprobs_fall_back_to_hard_answer():
    def handler(req):
        if req.kind == "structured":
            return {"qas": QAS.get(req.last_user.split("<sentence>\n")[1].split("\n</sentence>")[0], [])}
        return "Yes"

    backend = ScriptedBackend(handler=handler, logprobs=False)
    report = factgrain.check(TEXT, REF, model=backend, verifier="llm", span_mode="free")
    assert all(v.hard_answer_only and v.probability == 1.0 for v in report.verdicts)


def test_unparseable_verdict_is_unscored_and_left_out():
    def handler(req):
        if req.kind == "structured":
            return {"qas": QAS["A man fell in the Annalong Valley while walking."]} if "fell" in req.last_user.split("<sentence>")[1] else {"qas": []}
        return "Maybe" if "Annalong" in req.last_user.split("<statement>")[1] else 0.8

    backend = ScriptedBackend(handler=handler, logprobs=False)
    report = factgrain.check(TEXT, REF, model=backend, verifier="llm", span_mode="free")
    statuses = {r.unit.answer: r.status for r in report.results}
    assert statuses == {"A man": "supported", "in the Annalong Valley": "unscored"}
    assert report.scores.unscored_units == 1 and report.scores.consistency == 1.0
    assert "Yes/No" in report.results[1].verdicts[0].reason


def test_p_yes_normalises_over_variants():
    import math

    top = {"Yes": math.log(0.3), " yes": math.log(0.1), "No": math.log(0.2), "The": math.log(0.4)}
    assert p_yes(top) == pytest.approx(0.4 / 0.6)
    assert p_yes({"The": 0.0}) is None


@pytest.mark.parametrize("text,ref,msg", [
    ("", REF, "text is empty"),
    ("   \n\t", REF, "text is empty"),
    (TEXT, "", "reference is empty"),
    (TEXT, [], "empty list"),
    (TEXT, [{"id": 1}], r"reference\[0\]"),
    ("x" * 1_048_576, REF, "the limit is"),
    (TEXT, None, "reference is missing"),
])
def test_bad_input_is_a_clear_error(text, ref, msg):
    with pytest.raises(InputError, match=msg):
        factgrain.check(text, ref, model=qa_backend(QAS))


def test_bad_model_string():
    with pytest.raises(ConfigurationError, match="provider"):
        Evaluator("gpt4")
    with pytest.raises(ConfigurationError, match="unknown provider"):
        Evaluator("foo/bar")


def test_check_many_isolates_bad_items():
    backend = qa_backend(QAS)
    out = factgrain.check_many([{"text": TEXT, "reference": REF}, {"text": "", "reference": REF}], model=backend,
                               verifier="llm", span_mode="free")
    assert isinstance(out[0], factgrain.Report) and isinstance(out[1], InputError)
