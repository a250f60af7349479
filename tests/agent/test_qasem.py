import pytest

from factgrain.agent.decompose.qasem import MAX_SLOT_CALLS, QADecomposition, QASemDecomposer
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


async def test_enum_mode_only_chooses_slots():
    sentence = "Old Tom fell in the Annalong Valley while walking."
    replies = {"Old Tom": "who", "in the Annalong Valley": "what"}  # the place is decided without the model

    def handler(req):
        phrase = req.last_user.split("Phrase: ")[1].split("\n")[0]
        return replies.get(phrase, "none")

    backend = ScriptedBackend(handler=handler)
    units = await QASemDecomposer(backend, span_mode="enum").decompose(segment(sentence))
    assert [(u.predicate, u.question, u.answer) for u in units] == [
        ("fell", "who fell?", "Old Tom"), ("fell", "where did someone fall?", "in the Annalong Valley"),
        ("fell", "when did someone fall?", "while walking"),
        ("walking", "who walked?", "Old Tom")]  # 'while walking' shares the subject, asked about once
    assert [r.kind for r in backend.requests] == ["chat"]
    for u in units:
        assert sentence[u.answer_span.start:u.answer_span.end] == u.answer
        assert sentence[u.predicate_span.start:u.predicate_span.end] == u.predicate
    # a person noun or a pronoun needs no model call at all
    backend = ScriptedBackend(handler=handler)
    units = await QASemDecomposer(backend, span_mode="enum").decompose(segment(SENT))
    assert units[0].question == "who fell?" and units[0].answer == "A man" and backend.requests == []


async def test_enum_mode_offers_role_choices_and_caps_model_calls():
    seen = []

    def handler(req):
        seen.append(req.last_user)
        return "what"

    sentence = "Acme thanked Bolt, Cole praised Dana, Evans hired Ford, Gray paid Hale, Irwin met Jones, and Kent called Lowe."
    backend = ScriptedBackend(handler=handler)
    await QASemDecomposer(backend, span_mode="enum").decompose(segment(sentence))
    assert "(who, what)" in seen[0] and "Role: subject" in seen[0]
    assert len(backend.requests) == MAX_SLOT_CALLS  # more phrases than that, but the calls are capped


def test_structured_failure_is_typed():
    backend = ScriptedBackend(responses=["not json"] * 3)

    async def go():
        await backend.structured([{"role": "user", "content": "x"}], QADecomposition, max_retries=2)

    import asyncio

    with pytest.raises(StructuredOutputError) as err:
        asyncio.run(go())
    assert err.value.attempts == 3 and err.value.last_completion == "not json"
