"""The slot-clash check on made-up biographies (no dataset text)."""

import pytest

from factgrain.agent.verifiers.slot_clash import slot_clash

REFERENCE = (
    "Maria Lindqvist (born 4 May 1958 in Uppsala) is a Swedish marine biologist. She studied zoology at "
    "Lund University. From 1990 to 2012 she led the coral reef programme at the Stockholm Institute of "
    "Oceanography. Lindqvist has written three books on reef ecology. She died in Gothenburg in 2020. "
    "Police said three men were arrested. Two firefighters treated the victims."
)


@pytest.mark.parametrize(("answer", "sentence", "predicate", "expected"), [
    # another place of birth, although "Stockholm" is in the reference
    ("in Stockholm", "Maria Lindqvist, born in 1958 in Stockholm, is a biologist.", "born", True),
    ("in Uppsala", "She was born in Uppsala.", "born", False),
    ("in Malmo", "She died in Malmo.", "died", True),
    # a TriQua relation with its auxiliary
    ("in Stockholm", "She was born in Stockholm.", "was born", True),
    ("in Gothenburg", "She died in Gothenburg.", "died", False),
    # another count of the same thing
    ("four books", "She has written four books.", "written", True),
    ("three books", "She has written three books.", "written", False),
    # a subject's count ("two men" for "three men")
    ("Two men", "Two men were arrested.", "arrested", True),
    ("Three men", "Three men were arrested.", "arrested", False),
    ("Three firefighters", "Three firefighters treated the victims.", "treated", True),
    # an approximate count is not compared
    ("about four books", "She has written about four books.", "written", False),
    # a role that may hold several fillers: another university is not a contradiction
    ("at Uppsala University", "She studied zoology at Uppsala University.", "studied", False),
    # the reference says nothing of the role
    ("in Oslo", "She worked in Oslo.", "worked", False),
])
def test_slot_clash(answer, sentence, predicate, expected):
    assert slot_clash(answer=answer, sentence=sentence, predicate=predicate, reference=REFERENCE) is expected


@pytest.mark.parametrize("answer, sentence, predicate, reference, expected", [
    # another place of the same article in the event's 'in' phrase (an intrinsic swap)
    ("Scotland", "I'd like to run in Scotland.", "run", "I'd like to run in Birmingham. Scotland's team is strong.", True),
    ("Birmingham", "I'd like to run in Birmingham.", "run", "I'd like to run in Birmingham. Scotland's team is strong.",
     False),
    # a coordinated place fills the role as well, however the parser hangs it
    ("London", "She has performed in London.", "performed", "She has performed in Paris and London over the years.",
     False),
    ("York", "The band played in York.", "played", "The band played in Leeds on Friday and in York on Saturday.", False),
    # places only: another kind of filler of 'in' is no clash for a predicate with several
    ("Leeds", "The firm invested in Leeds.", "invested", "The firm invested in Acme Robotics last year.", False),
])
def test_another_place_in_the_events_place_slot_is_a_clash(answer, sentence, predicate, reference, expected):
    assert slot_clash(answer=answer, sentence=sentence, predicate=predicate, reference=reference) is expected


STAR_REF = ("At school his classmates voted him the student most likely to become a Hollywood star. "
            "He later moved to Boston, where he taught drama.")


@pytest.mark.parametrize("answer, sentence, predicate, reference, expected", [
    # another name on the noun the answer's name modifies, in a sentence with the predicate
    ("a Boston star", "He was voted most likely to become a Boston star.", "become", STAR_REF, True),
    ("a Hollywood star", "He was voted most likely to become a Hollywood star.", "become", STAR_REF, False),
    # no other name on that noun: nothing to compare
    ("a Boston teacher", "He became a Boston teacher.", "became", STAR_REF, False),
    # the reference puts the answer's name on the noun somewhere: no clash
    ("the Kenyan coach", "She thanked the Kenyan coach.", "thanked",
     "She thanked the British coach and the Kenyan coach after the race.", False),
    ("the Kenyan coach", "She thanked the Kenyan coach.", "thanked",
     "She thanked the British coach after the race.", True),
])
def test_another_name_on_the_answers_noun_is_a_clash(answer, sentence, predicate, reference, expected):
    assert slot_clash(answer=answer, sentence=sentence, predicate=predicate, reference=reference) is expected


DEGREE_REF = ("Omondi received a degree in law in 1972 from the University of Nairobi. "
              "In 1975, he was appointed director of the legal aid bureau. He received an award in 1990.")


@pytest.mark.parametrize("answer, sentence, expected", [
    # the year is in the reference, on another event; the predicate's own time slot holds another year
    ("in 1975", "Omondi received a degree in law in 1975.", True),
    ("in 1972", "Omondi received a degree in law in 1972.", False),
    # a year the reference gives any occurrence of the predicate is no clash
    ("in 1990", "Omondi received a degree in law in 1990.", False),
    ("In 1972", "In 1972, he received a degree.", False),
])
def test_another_year_in_the_events_time_slot_is_a_clash(answer, sentence, expected):
    assert slot_clash(answer=answer, sentence=sentence, predicate="received", reference=DEGREE_REF) is expected
