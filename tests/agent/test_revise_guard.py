"""The self-critique loop cannot be gamed: a planted wrong year, and revisers that repeat the
wrong sentence, pad the text, or delete supported content along with the error (made-up example)."""

from __future__ import annotations

import re

import pytest

import factgrain
from factgrain.agent.revise import MAX_GROWTH, RevisionEdits
from factgrain.backends.scripted import ScriptedBackend, ScriptedRequest
from tests.scripted import sentence_of, statement_of

SUMMARY = "The Lumiere festival in Lyon was first held in 1987. It screens classic films every October."
SOURCE = ("The Lumiere festival in Lyon was first held in 2009. Every October it screens classic films, "
          "restored prints included, in the city's cinemas.")
YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")


def decompose(sentence: str) -> dict:
    qas = []
    for m in re.finditer(r"in (\d{4})", sentence):
        qas.append({"predicate": "held", "question": "when was something first held?", "answer": m.group(0)})
    if "festival" in sentence:
        qas.append({"predicate": "held", "question": "what was first held?", "answer": "The Lumiere festival in Lyon"})
    if "screens" in sentence:
        qas.append({"predicate": "screens", "question": "what does something screen?", "answer": "classic films"})
    return {"qas": qas}


def backend_with(reviser):
    def reply(req: ScriptedRequest):
        if req.kind == "structured" and req.response_model is RevisionEdits:
            return reviser(req)
        if req.kind == "structured":
            return decompose(sentence_of(req))
        years = YEAR.findall(statement_of(req))
        return 0.95 if all(y in SOURCE for y in years) else 0.03

    return ScriptedBackend(handler=reply)


def revise(reviser, **kw):
    return factgrain.revise(SUMMARY, SOURCE, model=backend_with(reviser), verifier="llm", span_mode="free",
                            max_rounds=3, **kw)


def test_a_real_fix_is_accepted_on_the_original_units():
    rev = revise(lambda req: {"edits": [{"problem": 1, "replacement": "in 2009"}]})
    assert "1987" not in rev.text and "in 2009" in rev.text
    one = rev.rounds[1]
    assert one.accepted and one.outcomes["s0.u0"] == "fixed" and one.like_score == pytest.approx(1.0)
    assert set(one.outcomes.values()) == {"fixed", "kept"} and rev.stop_reason == "target_reached"


def test_repeating_the_wrong_sentence_stops_with_could_not_fix():
    # the failure seen with Qwen2.5-1.5B: the whole original sentence as the 'fix', wrong year included
    rev = revise(lambda req: {"edits": [{"problem": 1,
                                         "replacement": "The Lumiere festival in Lyon was first held in 1987."}]})
    assert rev.stop_reason == "could_not_fix" and "'in 1987'" in rev.note and "survive" in rev.note
    assert rev.best_round == 0 and len(rev.rounds) == 1 and rev.text == SUMMARY


def test_padding_the_text_cannot_raise_the_score():
    padding = " It screens classic films every October." * 6
    rev = revise(lambda req: {"edits": [{"problem": 1, "replacement": "in 2009." + padding}]})
    assert rev.stop_reason == "could_not_fix" and f"bound {MAX_GROWTH}x" in rev.note
    assert rev.text == SUMMARY


def test_deleting_supported_units_with_the_error_is_rejected():
    rev = revise(lambda req: {"edits": [{"problem": 1, "scope": "sentence", "replacement": ""}]})
    two = rev.rounds[1]
    assert not two.accepted and "supported before and are lost" in two.reason
    assert two.outcomes["s0.u0"] == "removed" and two.outcomes["s0.u1"] == "lost"
    assert rev.stop_reason == "no_improvement" and rev.text == SUMMARY and rev.note.startswith("could not fix")


def test_a_still_wrong_year_never_scores_higher():
    rev = revise(lambda req: {"edits": [{"problem": 1, "replacement": "in 1988"}]})
    two = rev.rounds[1]
    assert not two.accepted and two.outcomes["s0.u0"] == "still_unsupported"
    assert rev.best_round == 0 and "1987" in rev.text and rev.score == rev.rounds[0].score


def test_a_reviser_that_changes_nothing_says_so():
    rev = revise(lambda req: {"edits": [{"problem": 1, "scope": "sentence",
                                         "replacement": "The Lumiere festival in Lyon was first held in 1987."}]})
    assert rev.stop_reason == "no_edits" and rev.note.startswith("could not fix") and rev.text == SUMMARY
