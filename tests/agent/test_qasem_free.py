"""The free path's parse checks: a model's pair whose predicate the parse does not read as one, or
whose answer is not an argument of that predicate, is dropped (and counted); a clause argument
given by its subject alone is widened to the clause. Real spaCy; scripted model replies."""

import pytest

from factgrain.agent.decompose import qasem_free as qf
from factgrain.agent.decompose.qasem import QADecomposition, QASemDecomposer
from factgrain.agent.segment import segment
from factgrain.backends.scripted import ScriptedBackend


def arg(sentence: str, predicate: str, answer: str):
    """check_argument for the first occurrence of each, the widened answer as text."""
    at, start = sentence.index(predicate), sentence.index(answer)
    got = qf.check_argument(sentence, at, predicate, start, start + len(answer))
    return got if isinstance(got, str) else sentence[got[0]:got[1]]


SIDWELL = "Steve Sidwell says he wants to help the club stay in the Premier League."


def test_free_arguments_of_the_predicate_are_kept():
    assert arg(SIDWELL, "says", "Steve Sidwell") == "Steve Sidwell"
    assert arg(SIDWELL, "stay", "in the Premier League") == "in the Premier League"
    # the subject of 'wants' is also the one who helps (an open complement shares it)
    assert arg(SIDWELL, "help", "he") == "he"
    s = "He attended Columbia High School and graduated in 1988."
    assert arg(s, "graduated", "He") == "He"  # a subject shared by conjoined verbs
    assert arg(s, "graduated", "in 1988") == "in 1988"


def test_free_answer_of_another_predicate_is_refused():
    s = "He attended Columbia High School and graduated in 1988."
    # conjoined verbs share their subject, not their object
    assert "is not an argument of 'graduated'" in arg(s, "graduated", "Columbia High School")
    s = "Johan Gustafsson has been freed after being kidnapped in Mali in 2013."
    assert "is not an argument of 'freed'" in arg(s, "freed", "Mali")
    s = "Ask questions when you do not understand something."
    assert "is not an argument of 'Ask'" in arg(s, "Ask", "you")


def test_free_subject_of_a_clause_argument_is_widened_to_the_clause():
    s = "Remember that one exam does not define your future, whatever happens."
    assert arg(s, "Remember", "one exam") == "that one exam does not define your future"
    assert arg(SIDWELL, "help", "the club") == "the club stay in the Premier League"


@pytest.mark.parametrize("sentence,predicate,refused", [
    ("The influx of refugees from Syria will grow.", "refugees", True),
    ("Andrew Shue is an American actor.", "actor", True),
    ("The cost is likely to rise.", "likely", True),
    ("A post-mortem examination of the man failed.", "examination", False),
    ("Steve Jobs was the founder of Apple.", "founder", False),
    ("The cost is likely to rise.", "rise", False),
])
def test_free_predicate_must_be_a_verb_or_an_event_noun(sentence, predicate, refused):
    problem = qf.check_predicate(sentence, sentence.index(predicate), predicate)
    assert (problem is not None) is refused, problem


async def test_free_refused_pairs_are_dropped_and_counted():
    s = "Johan Gustafsson has been freed after being kidnapped in Mali in 2013."
    reply = {"qas": [
        {"predicate": "freed", "question": "who has been freed?", "answer": "Johan Gustafsson"},
        {"predicate": "freed", "question": "where was someone freed?", "answer": "Mali"},
    ]}
    backend = ScriptedBackend(responses=[reply])
    dec = QASemDecomposer(backend, span_mode="free", fallback=True)
    units = await dec.decompose(segment(s))
    assert [u.answer for u in units] == ["Johan Gustafsson"]
    assert len(dec.dropped) == 1 and "not an argument of 'freed'" in dec.dropped[0]
    assert dec.sentence_sources[0] == "model"


async def test_free_reply_with_only_refused_pairs_is_reasked_then_falls_back_with_a_warning():
    s = "Johan Gustafsson has been freed after being kidnapped in Mali in 2013."
    bad = {"qas": [{"predicate": "freed", "question": "where was someone freed?", "answer": "Mali"}]}
    backend = ScriptedBackend(handler=lambda req: bad)
    dec = QASemDecomposer(backend, span_mode="free", fallback=True)
    units = await dec.decompose(segment(s))
    assert backend.requests[-1].attempt > 1  # re-asked before giving up
    assert units and dec.sentence_sources[0] == "fallback"
    assert any("offline reader" in w for w in dec.warnings)


def test_free_validator_rejects_a_thing_noun_as_the_only_predicate():
    s = "The influx of refugees from Syria will grow."
    with pytest.raises(Exception) as err:
        QADecomposition.model_validate(
            {"qas": [{"predicate": "refugees", "question": "where are refugees from?", "answer": "from Syria"}]},
            context={"sentence": s, "require": True})
    assert "names a thing, not an event" in str(err.value)


def test_parse_checks_guard_small_models_only_and_english_text_only():
    """A capable model's pairs (no fall-back) and a sentence in another script skip the English parse
    checks; a small model's pair whose answer belongs to another verb is refused."""
    s = "Johan Gustafsson has been freed after being kidnapped in Mali in 2013."
    reply = {"qas": [{"predicate": "freed", "question": "where was someone freed?", "answer": "Mali"}]}
    with pytest.raises(ValueError, match="is not an argument of 'freed'"):
        QADecomposition.model_validate(reply, context={"sentence": s, "require": True, "parse_checks": True})
    ok = QADecomposition.model_validate(reply, context={"sentence": s, "require": True, "parse_checks": False})
    assert [qa.answer for qa in ok.qas] == ["Mali"]
    seen = []

    def handler(req):
        seen.append(req.context.get("parse_checks"))
        return reply

    for fallback, text in ((True, s), (False, s), (True, "ماري كوري حصلت على جائزة نوبل عام 1903.")):
        dec = QASemDecomposer(ScriptedBackend(handler=handler), span_mode="free", fallback=fallback)
        import asyncio
        asyncio.run(dec.decompose(segment(text)))
    assert seen[0] is True and seen[-1] is False and False in seen
