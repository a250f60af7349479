"""Free decomposition that converges and stays grounded: repairs, re-asks, fall-backs, and no
sentence with content left without a unit in silence (issues 14 and 15)."""

from __future__ import annotations

import pytest

import factgrain
from factgrain.errors import FactgrainError
from factgrain.agent.decompose.base import get_decomposer
from factgrain.agent.decompose.claims import ClaimList, ungrounded
from factgrain.agent.decompose.qasem import QADecomposition, QASemDecomposer
from factgrain.agent.decompose.triqua import TriQuaDecomposer, TriQuaDecomposition
from factgrain.agent.decompose.triqua_free import fit_type
from factgrain.agent.segment import segment
from factgrain.backends.scripted import ScriptedBackend
from tests.scripted import sentence_of

SENT = "The album has been released by the band in Oslo since 2019."


def qa(predicate, question, answer):
    return {"predicate": predicate, "question": question, "answer": answer}


def test_predicate_forms_are_repaired_to_the_sentence_and_prepositions_refused():
    obj = QADecomposition.model_validate({"qas": [
        qa("was released", "what was released?", "The album"),           # another form: 'released' is there
        qa("since", "since when was something released?", "since 2019"),  # a preposition is no predicate
        qa("has been released", "who released something?", "the band"),
        qa("has been released", "who released something?", "the band"),  # duplicate
    ]}, context={"sentence": SENT})
    assert [(q.predicate, q.answer) for q in obj.qas] == [("released", "The album"), ("has been released", "the band")]
    copula = QADecomposition.model_validate({"qas": [qa("is/was", "what is someone?", "a singer")]},
                                            context={"sentence": "Ana is a singer."})
    assert copula.qas[0].predicate == "is" and copula.qas[0]._predicate_type == "copular"


def test_an_empty_or_unusable_reply_is_a_failure_that_says_how_to_fix():
    with pytest.raises(Exception) as err:
        QADecomposition.model_validate({"qas": []}, context={"sentence": SENT, "require": True})
    assert "at least one pair" in str(err.value) and "'has been released'" in str(err.value)
    with pytest.raises(Exception) as err:
        QADecomposition.model_validate({"qas": [qa("since", "when?", "2019")]}, context={"sentence": SENT})
    assert "is not a predicate" in str(err.value)


async def test_the_small_tier_falls_back_per_sentence_with_a_warning():
    text = "The album has been released by the band. A man fell in the Annalong Valley."

    def reply(req):
        if req.kind == "chat":
            return "what"
        if "album" in sentence_of(req):
            return {"qas": [qa("released", "what has been released?", "The album")]}
        return {"qas": []}  # never usable for the second sentence

    dec = QASemDecomposer(ScriptedBackend(handler=reply), span_mode="free", fallback=True)
    units = await dec.decompose(segment(text))
    assert dec.sentence_sources == {0: "model", 1: "fallback"}
    assert {u.sentence_index for u in units} == {0, 1}
    assert any(w.startswith("sentence 1 ('A man fell") and "offline reader gave" in w for w in dec.warnings)


def test_an_empty_model_is_never_silent():
    # issue 14: a model that returns empty lists gave 0 units and no warning
    empty = ScriptedBackend(handler=lambda req: {"qas": [], "claims": [], "facts": []} if req.kind == "structured" else 0.9)
    text = "The bridge opened in 1998. Thanks!"  # one sentence with content, one courtesy
    # VeriScore may find nothing verifiable in a sentence: a report with a warning naming it
    report = factgrain.check(text, "The bridge opened in 1998.", model=empty, method="claims:veriscore",
                             span_mode="free", verifier="llm")
    assert report.scores.units == 0 and any("sentence 0" in w for w in report.warnings), report.warnings
    for method in ("qasem", "claims:factscore", "triqua"):
        # the only sentence with content failed: that is an error naming it (issue 14), never an empty report
        with pytest.raises(FactgrainError, match=r"every decomposition call failed.*The bridge opened") as info:
            factgrain.check(text, "The bridge opened in 1998.", model=empty, method=method, span_mode="free",
                            verifier="llm")
        assert info.value.exit_code == 4, method


@pytest.mark.parametrize("claim", ["Tomas Rielo was a cellist.", "May is a month in the year.",
                                   "Ada Lovelace was an English mathematician."])
def test_claims_from_prompts_or_definitions_are_not_grounded(claim):
    assert ungrounded(claim, "In May the bridge opened to traffic.") is not None


def test_claims_are_grounded_deduplicated_and_pronouns_may_be_resolved():
    obj = ClaimList.model_validate(
        {"claims": ["Anna Keller won the race.", "Anna Keller won the race!", "May is a month in the year."]},
        context={"sentence": "She won the race in May.", "background": "Anna Keller trained for a year."})
    assert obj.claims == ["Anna Keller won the race."]


async def test_claim_fallback_keeps_the_sentence_with_a_warning():
    backend = ScriptedBackend(handler=lambda req: {"claims": ["Tomas Rielo was a cellist."]})
    dec = get_decomposer("claims:factscore", backend, fallback=True)
    (unit,) = await dec.decompose(segment("The bridge opened in 1998."))
    assert unit.text == "The bridge opened in 1998." and "the sentence itself is the claim" in dec.warnings[0]
    assert len(backend.requests) == 3  # re-asked before falling back


def test_triqua_circumstances_become_qualifiers_and_types_fit():
    text = "The mayor closed the harbour because of heavy rain. Marie Curie won the Nobel Prize in Physics."
    obj = TriQuaDecomposition.model_validate({"facts": [
        {"subject": "The mayor", "relation": "closed", "object": "the harbour"},
        {"subject": "The mayor", "relation": "because of", "object": "heavy rain"},
        {"subject": "Marie Curie", "relation": "won", "object": "the Nobel Prize",
         "qualifiers": [{"type": "spatial", "value": "in Physics"}]},
    ]}, context={"text": text, "background": ""})
    assert len(obj.facts) == 2
    assert [(q.type, q.value) for q in obj.facts[0].qualifiers] == [("causal", "because of heavy rain")]
    assert obj.facts[1].qualifiers[0].type == "attribute"
    assert fit_type("spatial", "in Oslo", "The band played in Oslo.") == "spatial"
    assert fit_type("spatial", "in 2019", "The band played in 2019.") == "temporal"


async def test_triqua_empty_reply_is_reasked_then_falls_back_per_sentence():
    backend = ScriptedBackend(handler=lambda req: {"facts": []} if req.kind == "structured" else "temporal")
    dec = TriQuaDecomposer(backend, span_mode="free", fallback=True)
    units = await dec.decompose(segment("As of 2026, France's population was 64.5 million."))
    assert [r.attempt for r in backend.requests if r.kind == "structured"] == [1, 2, 3]
    assert units and dec.sentence_sources[0] == "fallback" and "offline reader gave" in dec.warnings[0]
