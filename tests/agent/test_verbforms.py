"""Verb inflection from the Wiktionary table QA-SRL's question templates use (package qanom)."""

from factgrain.agent import verbforms as vf
from factgrain.agent.decompose.qasem_parse import read_qas


def test_irregular_verbs_come_from_the_table():
    assert (vf.past("overthrow"), vf.participle("overthrow")) == ("overthrew", "overthrown")
    assert (vf.past("foresee"), vf.participle("foresee")) == ("foresaw", "foreseen")
    assert (vf.past("slay"), vf.participle("slay")) == ("slew", "slain")
    assert vf.past("kidnap") == "kidnapped" and vf.third_person("go") == "goes"


def test_overrides_and_the_spelling_rules_for_verbs_the_table_lacks():
    assert vf.participle("bear") == "born"  # a birth, not 'borne'
    assert (vf.past("be"), vf.participle("be")) == ("was", "been")
    assert (vf.past("let"), vf.participle("let")) == ("let", "let")  # the table's past is 'letted'
    assert "zorble" not in vf.table()
    assert (vf.past("zorble"), vf.past("blip"), vf.past("fizzify")) == ("zorbled", "blipped", "fizzified")
    assert len(vf.table()) > 20000


def test_questions_use_the_table():
    got = [(q.predicate, q.question, q.answer) for q in read_qas("After foreseeing the crisis, the minister resigned.")]
    assert ("foreseeing", "who foresaw something?", "the minister") in got
    got = [(q.predicate, q.question, q.answer) for q in read_qas("The overthrow of the king shocked Europe.")]
    assert ("overthrow", "who was overthrown?", "the king") in got
