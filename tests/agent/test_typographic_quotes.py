"""Typographic quotes and apostrophes (fifth round, found on unseen claims): the offline reader sees
them as ASCII ones, and the inflection table's markup never reaches a question."""

import pytest

from factgrain.agent import verbforms as vf
from factgrain.agent.decompose.qasem import QASemDecomposer
from factgrain.agent.reader import plain_quotes, readable_copy
from factgrain.agent.segment import segment
from factgrain.backends.scripted import ScriptedBackend

pytest.importorskip("spacy")


async def decompose(text):
    dec = QASemDecomposer(ScriptedBackend(handler=lambda req: pytest.fail("model call")), span_mode="parse")
    units = await dec.decompose(segment(text))
    for u in units:  # answers and predicates are spans of the original text, curly marks and all
        assert text[u.answer_span.start:u.answer_span.end] == u.answer
        assert text[u.predicate_span.start:u.predicate_span.end] == u.predicate
    return [(u.predicate, u.question, u.answer) for u in units]


def test_plain_quotes_keeps_every_offset():
    text = "They’re ‘right’, she said: “no”."
    assert plain_quotes(text) == "They're 'right', she said: \"no\"."
    assert len(readable_copy(text)) == len(text) and "’" not in readable_copy(text)


@pytest.mark.parametrize("text,question", [
    ("They’re not meeting their targets.", "who isn't meeting something?"),  # was: who ’ren't meeting
    ("Now we’re winning a lot of cases.", "who is winning something?"),      # was: who ’re winning
    ("I’m running for the Senate.", "who is running?"),
    ("If you’ve had it, you know.", "who has had something?"),
])
async def test_curly_clitics_are_written_out_in_questions(text, question):
    got = await decompose(text)
    assert question in {q for _, q, _ in got}, got
    assert not any("’" in q for _, q, _ in got)


async def test_an_answer_ends_before_a_curly_quotation_mark_as_before_a_straight_one():
    straight = await decompose('The minister said the plan was "a total failure" in May.')
    curly = await decompose("The minister said the plan was “a total failure” in May.")
    assert [(p, q) for p, q, _ in straight] == [(p, q) for p, q, _ in curly]
    assert not any("“" in a or "”" in a for _, _, a in curly)


def test_inflection_table_markup_and_gaps_never_reach_a_question():
    assert vf.past("rid") == "rid"                      # the table's cell is "rid'''"
    assert vf.past("standby") == "standbyed"            # "'''standbyed'''"
    assert vf.past("consarn") == "consarned"            # '-' (missing): the spelling rules
    assert vf.third_person("awrath") == "awraths"       # '*awraths' (nonstandard)
    bad = [(k, v) for k, v in vf.table().items() if any("'''" in f or f.startswith(("*", " ")) or f == "-" for f in v)]
    assert not bad


def test_an_answer_cut_before_a_quotation_mark_drops_the_comma_left_before_it():
    from factgrain.agent.decompose.qasem_parse import _before_trailing_comma

    def cut(answer: str) -> str | None:
        end = _before_trailing_comma(answer, 0, len(answer))
        return None if end is None else answer[:end]

    assert cut("her daily SiriusXM show,") == "her daily SiriusXM show"
    assert cut("Joe Biden said, ") == "Joe Biden said"
    assert cut("in May, 2019") == "in May, 2019"
    assert cut(",") is None


async def test_no_decomposed_answer_ends_on_a_comma():
    got = await decompose('In 2018 she began her daily SiriusXM show, "The Michelle Collins Show".')
    assert ("began", "what did someone begin?", "her daily SiriusXM show") in got, got
    assert not any(a.endswith(",") for _, _, a in got)
