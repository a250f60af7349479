"""Each lint rule fires on a planted case (appendix C of Decomposition Dilemmas, reworded) and stays
silent on a clean decomposition."""

from __future__ import annotations

import pytest

from factgrain.agent.lint import content_words, lint, scopes
from factgrain.agent.locate import locate, locate_word
from factgrain.agent.segment import segment
from factgrain.schemas import Claim, HyperRelationalFact, QAPair, Qualifier


def claims(text, items):
    doc = segment(text)
    units = []
    for k, c in enumerate(items):
        words = set(content_words(c))
        best = max(doc.sentences, key=lambda s: len(words & set(content_words(s.text))))
        units.append(Claim(id=f"c{k}", sentence_index=best.index, text=c))
    return doc, units


def found(text, items):
    doc, units = claims(text, items)
    return {(e.label(), tuple(e.unit_ids)) for e in lint(units, doc)}


PLANTED = [
    # A: the cause that ties the two actions to the minister is dropped
    ("A/missing_logical_relation", None,
     "Because the minister criticised the treaty, the border agency revoked 40 work permits and expelled 12 diplomats.",
     ["The border agency revoked 40 work permits.", "The border agency expelled 12 diplomats."]),
    # A: the core claim (the regulator was wrong) is in no sub-claim
    ("A/missing_core_claim", None,
     "Independent labs have shown that the regulator was wrong to ban the sweetener aspartame.",
     ["Independent labs have shown something.", "The regulator banned the sweetener aspartame."]),
    # B: 'the enzyme' no longer says which enzyme
    ("B/vague_reference", ("c0",),
     "The enzyme responsible for breaking down lactose was identified by Swiss biochemist Anna Keller in 1961.",
     ["The enzyme breaks down lactose.", "Anna Keller identified the lactose enzyme in 1961."]),
    ("B/ambiguous_pronoun", ("c1",), "Maria Lopez founded the observatory. She later sold it.",
     ["Maria Lopez founded the observatory.", "She later sold the observatory."]),
    ("B/incomplete_name", ("c0",), "Maria Lopez founded the observatory in Santiago.",
     ["Lopez founded the observatory in Santiago."]),
    # C: the same statement twice
    ("C/redundant_information", ("c0", "c1"), "The bridge opened in 1932 and carries six lanes.",
     ["The bridge opened in 1932.", "The bridge was opened in 1932.", "The bridge carries six lanes."]),
    # C: one statement about a list split into one claim per item
    ("C/excessive_fragmentation", ("c0", "c1", "c2"), "Lake Victoria is bordered by Kenya, Uganda and Tanzania.",
     ["Lake Victoria is bordered by Kenya.", "Lake Victoria is bordered by Uganda.", "Lake Victoria is bordered by Tanzania."]),
    # C: more sub-claims than the one clause warrants
    ("C/excessive_fragmentation", ("c0", "c1", "c2"), "The museum in Lyon opened in 1990.",
     ["The museum is in Lyon.", "The museum opened.", "The opening happened in 1990."]),
    # D: the founders are negated
    ("D/contradiction", ("c0",), "Alice Park and Tom Reyes founded the Red Cross.",
     ["Alice Park did not found the Red Cross.", "Tom Reyes founded the Red Cross."]),
    # D: the text dropped a negation the source has
    ("D/contradiction", ("c0",), "The trial did not find any benefit of the drug.", ["The trial found a benefit of the drug."]),
    # D: a place the text never mentions
    ("D/added_content", ("c0",), "The museum opened in 1990.", ["The museum in Berlin opened in 1990."]),
]


@pytest.mark.parametrize("label,ids,text,items", PLANTED, ids=[p[0] + ":" + p[2][:20] for p in PLANTED])
def test_rule_fires_on_planted_case(label, ids, text, items):
    hits = found(text, items)
    assert any(lab == label and (ids is None or got == ids) for lab, got in hits), hits


CLEAN = [
    ("The smallest ocean is the Arctic Ocean. It lies in the far north of the Earth and is ringed by North America, "
     "Europe and Asia. The Arctic Ocean covers about 14 million square kilometres.",
     ["The smallest ocean is the Arctic Ocean.", "The Arctic Ocean lies in the far north of the Earth.",
      "The Arctic Ocean is ringed by North America, Europe and Asia.",
      "The Arctic Ocean covers about 14 million square kilometres."]),
    ("Because the minister criticised the treaty, the border agency revoked 40 work permits.",
     ["Because the minister criticised the treaty, the border agency revoked 40 work permits."]),
    ("The trial did not find any benefit of the drug.", ["The trial did not find any benefit of the drug."]),
]


@pytest.mark.parametrize("text,items", CLEAN)
def test_silent_on_clean_claims(text, items):
    assert found(text, items) == set()


def test_silent_on_clean_qa_pairs_and_facts_and_fires_on_their_errors():
    t = "The city council approved the new budget on Tuesday after a long debate."
    doc = segment(t)

    def qa(i, p, q, a):
        return QAPair(id=f"q{i}", sentence_index=0, predicate=p, question=q, answer=a,
                      answer_span=locate(a, t), predicate_span=locate_word(p, t))

    qas = [qa(0, "approved", "who approved something?", "The city council"),
           qa(1, "approved", "what did someone approve?", "the new budget"),
           qa(2, "approved", "when did someone approve something?", "on Tuesday"),
           qa(3, "approved", "after what did someone approve something?", "after a long debate")]
    assert lint(qas, doc) == []
    dup = lint(qas + [qa(4, "approved", "who approved?", "the city council")], doc)
    assert [(e.label(), e.unit_ids) for e in dup] == [("C/redundant_information", ["q0", "q4"])]
    fact = HyperRelationalFact(id="f0", sentence_index=0, subject="The city council", relation="approved",
                               object="the new budget", qualifiers=[Qualifier(type="temporal", value="on Tuesday"),
                                                                    Qualifier(type="sequential", value="after a long debate")])
    assert lint([fact], doc) == []
    negated = fact.model_copy(update={"id": "f1", "relation": "did not approve"})
    assert [e.label() for e in lint([negated], doc)] == ["D/contradiction"]
    pronoun = fact.model_copy(update={"id": "f2", "subject": "They"})
    assert "B/ambiguous_pronoun" in [e.label() for e in lint([pronoun], doc)]


def test_sentence_without_units_is_an_omission_and_scopes_merge_multi_sentence_units():
    text = "Anna Keller won. She trained in Paris. The race was long."
    doc = segment(text)
    whole = Claim(id="all", sentence_index=0, text="x", span=locate("Anna Keller won. She trained in Paris.", text))
    sc = scopes([whole], doc)
    assert [s.sentence_indices for s in sc] == [[0, 1], [2]] and sc[1].units == []
    errs = lint([whole], doc)
    assert any(e.label() == "A/missing_core_claim" and "no unit covers" in e.explanation for e in errs)
