import pytest

from factgrain.agent.decompose.qasem import QADecomposition, QASemDecomposer
from factgrain.agent.segment import segment
from factgrain.backends.scripted import ScriptedBackend
from factgrain.errors import StructuredOutputError

SENT = "A man fell in the Annalong Valley while walking."


async def test_free_mode_snaps_spans_and_reasks_on_invented_answer():
    bad = {"qas": [{"predicate": "fell", "predicate_type": "verbal", "question": "where did someone fall?", "answer": "in County Antrim"}]}
    good = {"qas": [
        {"predicate": "fell", "predicate_type": "verbal", "question": "who fell?", "answer": "a man"},
        {"predicate": "fell", "predicate_type": "verbal", "question": "where did someone fall?", "answer": "in the Annalong Valley"},
        {"predicate": "fell", "predicate_type": "verbal", "question": "who fell?", "answer": "a man"},  # duplicate
    ]}
    backend = ScriptedBackend(responses=[bad, good])
    doc = segment(SENT)
    units = await QASemDecomposer(backend, span_mode="free").decompose(doc)
    assert len(backend.requests) == 2  # the invented answer was re-asked
    assert [u.answer for u in units] == ["A man", "in the Annalong Valley"]
    for u in units:
        assert SENT[u.answer_span.start:u.answer_span.end] == u.answer
        assert SENT[u.predicate_span.start:u.predicate_span.end] == "fell"


def test_validator_message_tells_the_model_how_to_fix():
    with pytest.raises(Exception) as err:
        QADecomposition.model_validate(
            {"qas": [{"predicate": "fell", "predicate_type": "verbal", "question": "q", "answer": "Belfast"}]},
            context={"sentence": SENT})
    assert "copy the answer exactly" in str(err.value)


async def test_failed_sentence_is_recorded_not_fatal():
    backend = ScriptedBackend(handler=lambda req: {"qas": [{"predicate": "x", "predicate_type": "verbal", "question": "q", "answer": "nope"}]})
    dec = QASemDecomposer(backend, span_mode="free")
    units = await dec.decompose(segment(SENT + " It rained."))
    assert units == [] and len(dec.warnings) == 2 and "decomposition failed" in dec.warnings[0]


def no_call_backend():
    return ScriptedBackend(handler=lambda req: pytest.fail(f"the offline reader made a model call ({req.kind})"))


async def test_parse_mode_reads_the_sentence_without_a_model_call():
    sentence = "Old Tom fell in the Annalong Valley while walking."
    backend = no_call_backend()
    dec = QASemDecomposer(backend, span_mode="parse")
    units = await dec.decompose(segment(sentence))
    got = {(u.predicate, u.question, u.answer) for u in units}
    assert ("fell", "who fell?", "Old Tom") in got
    assert ("fell", "where did someone fall?", "in the Annalong Valley") in got
    assert backend.requests == [] and dec.prompt_versions() == {}
    for u in units:
        assert sentence[u.answer_span.start:u.answer_span.end] == u.answer
        assert sentence[u.predicate_span.start:u.predicate_span.end] == u.predicate


async def test_enum_is_a_deprecated_alias_of_parse():
    with pytest.warns(DeprecationWarning, match="enum"):
        dec = QASemDecomposer(no_call_backend(), span_mode="enum")
    assert dec.span_mode == "parse"
    assert await dec.decompose(segment(SENT))


async def test_offsets_count_from_the_sentence_start():
    text = "It rained. The press publishes books."
    units = await QASemDecomposer(no_call_backend(), span_mode="parse").decompose(segment(text))
    books = next(u for u in units if u.answer == "books")
    assert books.sentence_index == 1 and text[books.answer_span.start:books.answer_span.end] == "books"
    assert books.question == "what does something publish?"


def test_structured_failure_is_typed():
    backend = ScriptedBackend(responses=["not json"] * 3)

    async def go():
        await backend.structured([{"role": "user", "content": "x"}], QADecomposition, max_retries=2)

    import asyncio

    with pytest.raises(StructuredOutputError) as err:
        asyncio.run(go())
    assert err.value.attempts == 3 and err.value.last_completion == "not json"
