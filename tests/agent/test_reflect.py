"""Reflect and refine with the scripted backend: judgments, refinements, the lint guard, the trace."""

from __future__ import annotations

import json


import factgrain
from factgrain.agent.locate import locate
from factgrain.agent.reflect import reflect_and_refine, reply_model
from factgrain.agent.segment import segment
from factgrain.backends.scripted import ScriptedBackend
from factgrain.schemas import Claim, HyperRelationalFact, QAPair, Report

TEXT = "Because the minister criticised the treaty, the border agency revoked 40 work permits."
SPLIT = ["The border agency revoked 40 work permits."]
FIXED = ["Because the minister criticised the treaty, the border agency revoked 40 work permits."]


def claims(text, items):
    doc = segment(text)
    return doc, [Claim(id=f"s0.u{i}", sentence_index=0, text=c, span=locate(c, text)) for i, c in enumerate(items)]


def reflection(judgment, refined=(), errors=()):
    return {"reasoning": "checked each unit against the text", "errors": list(errors), "judgment": judgment,
            "refined": list(refined)}


async def test_problematic_refinement_replaces_units_and_trace_shows_both():
    doc, units = claims(TEXT, SPLIT)
    err = {"category": "omission", "subtype": "missing_logical_relation", "units": [1], "explanation": "the cause is lost"}
    backend = ScriptedBackend(responses=[reflection("Problematic", FIXED, [err])])
    new, trace = await reflect_and_refine(units, doc, backend, method="claims:factscore")
    assert [u.text for u in new] == FIXED
    assert new[0].span is not None and TEXT[new[0].span.start:new[0].span.end] == new[0].text
    (rnd,) = trace
    assert rnd.action == "refined" and rnd.judgment == "Problematic"
    assert [u.text for u in rnd.input_units] == SPLIT and [u.text for u in rnd.output_units] == FIXED
    assert {e.subtype for e in rnd.lint} >= {"missing_logical_relation"}
    assert rnd.llm_errors[0].unit_ids == ["s0.u0"] and rnd.llm_errors[0].source == "llm"
    # the prompt carries the text, the numbered units and the lint findings
    prompt = backend.requests[0].last_user
    assert "[1] The border agency revoked 40 work permits." in prompt and "missing_logical_relation" in prompt


async def test_no_need_collapses_to_one_claim_covering_the_sentence():
    text = "Lake Victoria is bordered by Kenya, Uganda and Tanzania."
    doc, units = claims(text, ["Lake Victoria is bordered by Kenya.", "Lake Victoria is bordered by Uganda.",
                               "Lake Victoria is bordered by Tanzania."])
    backend = ScriptedBackend(responses=[reflection("No need for decomposition")])
    new, trace = await reflect_and_refine(units, doc, backend, method="claims:factscore")
    assert len(new) == 1 and isinstance(new[0], Claim) and new[0].text == text
    assert (new[0].span.start, new[0].span.end) == (0, len(text))
    assert trace[0].action == "collapsed" and len(trace[0].input_units) == 3


async def test_good_keeps_units_and_refinement_that_worsens_lint_is_rejected():
    doc, units = claims(TEXT, FIXED)
    new, trace = await reflect_and_refine(units, doc, ScriptedBackend(responses=[reflection("Good")]), method="claims:wice")
    assert new == units and trace[0].action == "kept"
    worse = ["He did something.", "The agency revoked permits in Paris."]  # pronoun, added content
    new, trace = await reflect_and_refine(units, doc, ScriptedBackend(responses=[reflection("Problematic", worse)]),
                                          method="claims:wice")
    assert new == units and trace[0].action == "rejected" and "lint" in trace[0].reason
    assert [u.text for u in trace[0].proposed_units] == worse


async def test_qa_pairs_refined_with_spans_and_invalid_answers_reasked():
    text = "He won the race in Paris. Anna Keller trained for a year."
    doc = segment(text)
    units = [QAPair(id="s0.u0", sentence_index=0, predicate="won", question="who won something?", answer="He",
                    answer_span=locate("He", text)),
             QAPair(id="s0.u1", sentence_index=0, predicate="won", question="what did someone win?", answer="the race",
                    answer_span=locate("the race", text))]
    bad = {"predicate": "won", "question": "where did someone win?", "answer": "in London"}
    good = [{"predicate": "won", "question": "what did someone win?", "answer": "the race"},
            {"predicate": "won", "question": "where did someone win something?", "answer": "in Paris"}]
    replies = [reflection("Problematic", [bad]), reflection("Problematic", good), reflection("Good")]
    backend = ScriptedBackend(responses=replies)
    new, trace = await reflect_and_refine(units, doc, backend, method="qasem", mode="full")
    assert backend.requests[1].attempt == 2  # the answer not in the text was re-asked
    refined = [u for u in new if u.sentence_index == 0]
    assert [u.answer for u in refined] == ["the race", "in Paris"]
    for u in refined:
        assert text[u.answer_span.start:u.answer_span.end] == u.answer
        assert text[u.predicate_span.start:u.predicate_span.end] == "won"
    assert len({u.id for u in new}) == len(new)
    # the second sentence had no unit: it is reviewed too (an omission the lint reports)
    assert [r.sentence_indices for r in trace] == [[0], [1]]
    assert any(e.subtype == "missing_core_claim" for e in trace[1].lint)


async def test_facts_are_refined_with_qualifiers_and_spans():
    text = "Anna Keller won the Paris marathon in 2019."
    doc = segment(text)
    fact = HyperRelationalFact(id="s0.u0", sentence_index=0, subject="She", relation="won", object="the marathon")
    refined = [{"subject": "Anna Keller", "relation": "won", "object": "the Paris marathon",
                "qualifiers": [{"type": "temporal", "value": "in 2019"}]}]
    backend = ScriptedBackend(responses=[reflection("Problematic", refined)])
    new, trace = await reflect_and_refine([fact], doc, backend, method="triqua", mode="full")
    (f,) = new
    assert isinstance(f, HyperRelationalFact) and f.subject_span.text == "Anna Keller"
    assert f.qualifiers[0].span.text == "in 2019" and trace[0].action == "refined"
    assert backend.requests[0].response_model.model_fields["refined"].annotation.__args__[0].__name__ == "RefinedFact"


async def test_rounds_are_bounded_and_revisit_only_changed_scopes():
    doc, units = claims(TEXT, SPLIT)
    backend = ScriptedBackend(responses=[reflection("Problematic", FIXED), reflection("Good")])
    new, trace = await reflect_and_refine(units, doc, backend, rounds=3, method="claims:factscore")
    assert [r.round for r in trace] == [1, 2] and len(backend.requests) == 2  # round 2 found it Good: stop
    assert [u.text for u in new] == FIXED


async def test_light_path_asks_a_choice_only_where_the_lint_flags_something():
    text = "Anna Keller won the race. He won the race."
    doc = segment(text)
    units = [Claim(id="s0.u0", sentence_index=0, text="Anna Keller won the race.", span=locate("Anna Keller won the race.", text)),
             Claim(id="s1.u0", sentence_index=1, text="He won the race.", span=locate("He won the race.", text, near=20))]

    def handler(req):
        if req.kind == "chat":
            return "Problematic"
        return {"refined": ["Anna Keller won the race again."]}

    backend = ScriptedBackend(handler=handler)
    new, trace = await reflect_and_refine(units, doc, backend, method="claims:wice", mode="light")
    assert [r.sentence_indices for r in trace] == [[1]]  # the clean first sentence costs nothing
    assert [q.kind for q in backend.requests] == ["chat", "structured"]
    assert trace[0].judgment == "Problematic" and trace[0].reasoning is None
    assert backend.requests[1].response_model.model_fields.keys() == {"refined"}


async def test_failed_call_keeps_units_and_is_recorded():
    from factgrain.errors import BackendError

    doc, units = claims(TEXT, SPLIT)
    new, trace = await reflect_and_refine(units, doc, ScriptedBackend(responses=[BackendError("down")]),
                                          method="claims:factscore")
    assert new == units and trace[0].action == "failed" and "down" in trace[0].reason


def test_reply_model_field_order_puts_reasoning_first():
    assert list(reply_model("claim").model_fields) == ["reasoning", "errors", "judgment", "refined"]


def test_evaluator_reflect_end_to_end_and_json_round_trip():
    text = "He won the race. Anna Keller trained in Paris."
    ref = "Anna Keller won the race after training in Paris."

    def handler(req):
        if req.kind == "structured" and req.response_model.__name__ == "ClaimList":
            sentence = req.last_user.split("<sentence>\n")[1].split("\n</sentence>")[0]
            return {"claims": [sentence]}
        if req.kind == "structured":
            if "He won the race." in req.last_user.split("<text>")[1].split("</text>")[0]:
                return reflection("Problematic", ["Anna Keller won the race."])
            return reflection("Good")
        return 0.9

    report = factgrain.check(text, ref, model=ScriptedBackend(handler=handler), method="claims:wice",
                             verifier="llm", reflect=True)
    assert [r.unit.text for r in report.results] == ["Anna Keller won the race.", "Anna Keller trained in Paris."]
    assert [r.action for r in report.reflection] == ["refined", "kept"]
    again = Report.model_validate_json(report.to_json())
    assert again.reflection == report.reflection
    assert json.loads(report.to_json())["reflection"][0]["input_units"][0]["text"] == "He won the race."
    assert "reflect" in report.prompt_versions or report.reflection[0].prompt_version
    from factgrain.render.markdown import render_markdown
    from factgrain.render.table import table_text

    assert "refined" in render_markdown(report) and "refined" in table_text(report)
