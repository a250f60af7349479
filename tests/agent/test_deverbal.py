"""CatVar's deverbal-noun lexicon (package ``qanom``, resource file only) and its use for QANom
predicates in the offline reader. Sentences are written for these tests."""

import pytest

from factgrain.agent import deverbal
from factgrain.agent.decompose.qasem_parse import noun_verb, read_qas
from factgrain.agent.reader import parse
from factgrain.errors import ConfigurationError


def test_catvar_relates_nominalizations_to_their_verbs():
    assert deverbal.verb_of("examination") == "examine"
    assert deverbal.verb_of("death") == "die"  # the best-attested verb, not 'dying'
    assert deverbal.verb_of("arrest") == "arrest"
    assert deverbal.verb_of("proof") == "prove"
    assert deverbal.verb_of("xylophonist") is None
    assert len(deverbal.noun_verbs()) > 10000


def test_nomlex_marks_event_nominalizations_not_things():
    assert deverbal.nomlex_listed("examination") and deverbal.nomlex_listed("arrest")
    assert not deverbal.nomlex_listed("tower") and not deverbal.nomlex_listed("career")


def noun(sentence, word):
    return next(t for t in parse(sentence) if t.text == word)


def test_event_nouns_outside_any_word_list():
    # none of these nouns was in the hand-made noun->verb table the lexicon replaces
    assert noun_verb(noun("The abduction of the engineer shocked the town.", "abduction")) == "abduct"
    assert noun_verb(noun("Police confirmed the detention of two protesters.", "detention")) == "detain"
    assert noun_verb(noun("The evacuation of the village began at dawn.", "evacuation")) == "evacuate"


def test_things_and_plural_results_are_not_events():
    assert noun_verb(noun("The tower of the castle fell.", "tower")) is None
    assert noun_verb(noun("Emissions of the plant rose.", "Emissions")) is None  # a plural result noun
    assert noun_verb(noun("The minister of finance resigned.", "minister")) is None  # a person


def test_a_new_nominal_predicate_gets_its_qanom_question():
    got = [(q.predicate, q.question, q.answer) for q in read_qas("The abduction of the engineer shocked the town.")]
    assert ("abduction", "who was abducted?", "the engineer") in got


def test_missing_lexicon_is_a_clear_error(monkeypatch):
    deverbal._families.cache_clear()
    monkeypatch.setattr(deverbal, "CATVAR", ("resources", "catvar", "no-such-file"))
    try:
        with pytest.raises(ConfigurationError, match="requirements/qanom-lexicon.txt") as err:
            deverbal.noun_verbs()
        assert isinstance(err.value, deverbal.LexiconMissingError) and err.value.exit_code == 3
    finally:
        monkeypatch.undo()
        deverbal._families.cache_clear()
    assert deverbal.verb_of("examination") == "examine"


def test_a_nominalization_object_takes_the_verbs_subject_whatever_the_verb():
    # 'demand' and 'resume' are no light verbs; the nouns are NOMLEX nominalizations
    got = [(q.predicate, q.question, q.answer) for q in read_qas("The committee demanded an investigation of the accident.")]
    assert ("investigation", "who investigated something?", "The committee") in got
    assert ("investigation", "what was investigated?", "the accident") in got
    got = [(q.predicate, q.answer) for q in read_qas("The army resumed the evacuation of the city.")]
    assert ("evacuation", "The army") in got


def test_a_spelled_like_verb_object_of_an_ordinary_verb_borrows_no_subject():
    # 'tower' is no nominalization: 'The town painted the tower.' gives no nominal pair at all
    assert not [q for q in read_qas("The town painted the tower.") if q.predicate_type == "nominal"]


def test_an_agent_noun_after_as_or_in_apposition_is_asked_as_its_verb():
    got = [(q.predicate, q.question, q.answer) for q in read_qas("She joined the club as a defender in 2019.")]
    assert ("defender", "who defended something?", "She") in got
    got = [(q.predicate, q.question, q.answer) for q in read_qas("John Smith, a former teacher, won the seat.")]
    assert ("teacher", "who taught something?", "John Smith") in got
    # not an agent noun: no pair for 'tower'
    assert not [q for q in read_qas("She saw it as a tower.") if q.predicate == "tower"]


def test_british_spellings_find_their_american_catvar_entries():
    assert deverbal.spellings("defence") == ("defence", "defense")
    assert deverbal.verb_of("defence") == "defend" and deverbal.nomlex_listed("defence")
    assert deverbal.verb_of("behaviour") == "behave"
    assert deverbal.spellings("house") == ("house",)
    got = [(q.predicate, q.question, q.answer) for q in read_qas("The defence of the city lasted a week.")]
    assert ("defence", "what was defended?", "the city") in got

