"""The rule-based predicate-argument reader behind the small-model QA decomposer.

Sentences here are written for the tests (none comes from a benchmark split)."""

import pytest

from factgrain.agent import verbforms as vf
from factgrain.agent.candidates import adjunct_slot, entity_slot, frames, tag


def _args(sentence):
    """{predicate: [(role, answer), ...]} for a sentence."""
    out = {}
    for fr in frames(sentence):
        out.setdefault(fr.predicate, []).extend((a.role, a.text) for a in fr.args)
    return out


def test_verb_forms_and_bases():
    assert vf.lookup("arrested") == ("arrest", "past") and vf.guess_base("kidnapped") == "kidnap"
    assert vf.kinds("found") >= {"past", "pp", "base"}  # find -> found, and the verb 'found'
    assert vf.guess_base("diagnosed") == "diagnose" and vf.guess_base("planned") == "plan"
    assert vf.guess_past("fall") == "fell" and vf.guess_past("establish") == "established"
    assert vf.third_person("try") == "tries" and vf.gerund("stop") == "stopping"


@pytest.mark.parametrize("sentence, verbs", [
    ("The council will approve the plan.", ["approve"]),                      # after a modal
    ("The bridge has been closed since May.", ["closed"]),                   # be/have + participle
    ("Engineers say the bridge is safe.", ["say"]),                          # present form after a subject
    ("She wanted to establish a school.", ["wanted", "establish"]),          # 'to' + verb
    ("The injured driver doesn't remember the crash.", ["remember"]),        # adjective participle, n't
    ("Fold the paper twice.", ["Fold"]),                                      # imperative
])
def test_tagger_finds_verbs(sentence, verbs):
    assert [t.text for t in tag(sentence) if t.tag == "V"] == verbs


def test_subject_crosses_a_relative_clause_and_is_shared_by_conjoined_verbs():
    s = "A report into the collapse of a bridge that crossed the river was published and debated after the mayor resigned."
    a = _args(s)
    assert ("subject", "A report into the collapse of a bridge") in a["published"]
    assert ("subject", "A report into the collapse of a bridge") in a["debated"]
    assert ("subject", "a bridge") in a["crossed"] and ("object", "the river") in a["crossed"]
    # the first of two conjoined verbs takes the modifier that follows the second
    assert ("adjunct", "after the mayor resigned") in a["published"]
    assert ("subject", "the mayor") in a["resigned"]


def test_passive_agent_places_times_and_infinitive_subject():
    a = _args("The painter, who was hired by the museum in Oslo in 2019, failed to finish the mural.")
    assert ("subject", "The painter") in a["hired"] and ("agent", "the museum") in a["hired"]
    assert ("adjunct", "in Oslo") in a["hired"] and ("adjunct", "in 2019") in a["hired"]
    assert ("subject", "The painter") in a["failed"]
    assert ("complement", "to finish the mural") in a["failed"]
    assert ("subject", "The painter") in a["finish"] and ("object", "the mural") in a["finish"]


def test_copula_gives_one_description_each():
    frs = [f for f in frames("Maria Lopez is a Spanish singer, songwriter and producer.") if f.kind == "copular"]
    assert len(frs) == 1
    fr = frs[0]
    assert fr.descriptions == ["a Spanish singer", "Spanish", "songwriter", "producer"]
    assert {a.text for a in fr.args} == {"Maria Lopez"} and len(fr.args) == 4


def test_event_noun_with_of_argument():
    fr = next(f for f in frames("The closure of the factory shocked the town.") if f.kind == "nominal")
    assert fr.predicate == "closure" and [a.text for a in fr.args] == ["the factory"]


def test_spans_are_exact_offsets():
    s = "Yesterday  the  old ferry sank near Dover, and nobody was hurt."
    for fr in frames(s):
        assert s[fr.start:fr.end] == fr.predicate
        for a in fr.args:
            assert s[a.start:a.end] == a.text


def test_slot_shapes():
    assert adjunct_slot("in 2013")[0] == "when"
    assert adjunct_slot("in Mali")[0] == "where"
    assert adjunct_slot("because it rained")[0] == "why"
    assert adjunct_slot("for a teenager") == (None, ("where", "when", "how", "why", "what"))
    assert entity_slot("she") == ("who", ())
    assert entity_slot("the new budget") == (None, ("who", "what"))


def test_empty_and_verbless_sentences():
    assert frames("") == [] and frames("   ") == []
    assert frames("Tea, coffee, juice.") == []
