"""Claim decomposition strategies: none, factscore / veriscore / wice, exactly N, decontextualization."""

from __future__ import annotations

import pytest

from factgrain.agent.decompose.base import available_methods, get_decomposer
from factgrain.agent.segment import segment
from factgrain.backends.scripted import ScriptedBackend
from factgrain.errors import ConfigurationError
from tests.scripted import sentence_of

TEXT = "Ada Lovelace wrote the first algorithm. She worked with Charles Babbage."


def sentence_backend(claims_by_sentence):
    return ScriptedBackend(handler=lambda req: {"claims": claims_by_sentence.get(sentence_of(req), [])})


async def test_none_is_the_text_itself_without_any_call():
    backend = ScriptedBackend(responses=[])
    doc = segment("  " + TEXT + "\n")
    for method in ("none", "claims:none"):
        (unit,) = await get_decomposer(method, backend).decompose(doc)
        assert unit.text == TEXT and doc.text[unit.span.start:unit.span.end] == TEXT
    assert backend.requests == []
    assert "none" in available_methods() and "claims:" in available_methods()


async def test_claims_none_decontextualizes_against_the_question_keeping_the_span():
    backend = ScriptedBackend(responses=[{"text": "Ada Lovelace wrote the first algorithm in 1843."}])
    doc = segment("She wrote it in 1843.", question="Who wrote the first algorithm?")
    (unit,) = await get_decomposer("claims:none", backend).decompose(doc)
    assert unit.text == "Ada Lovelace wrote the first algorithm in 1843."
    assert unit.span.text == "She wrote it in 1843."
    assert "Who wrote the first algorithm?" in backend.requests[0].last_user
    # the plain baseline never rewrites
    (plain,) = await get_decomposer("none", backend).decompose(doc)
    assert plain.text == "She wrote it in 1843." and len(backend.requests) == 1


@pytest.mark.parametrize("style,marker", [("factscore", "atomic"), ("veriscore", "verifiable"), ("wice", "individual facts")])
async def test_sentence_styles_use_their_own_prompt_and_snap_spans(style, marker):
    backend = sentence_backend({
        "Ada Lovelace wrote the first algorithm.": ["Ada Lovelace wrote the first algorithm."],
        "She worked with Charles Babbage.": ["Ada Lovelace worked with Charles Babbage.",
                                             "Ada Lovelace worked with Charles Babbage."],
    })
    dec = get_decomposer(f"claims:{style}", backend, span_mode="auto")
    units = await dec.decompose(segment(TEXT, question="Who was Ada Lovelace?"))
    assert [u.text for u in units] == ["Ada Lovelace wrote the first algorithm.", "Ada Lovelace worked with Charles Babbage."]
    assert units[0].span.text == "Ada Lovelace wrote the first algorithm."  # its own words
    assert units[1].span.text == "She worked with Charles Babbage."  # rewritten: its sentence
    assert units[1].sentence_index == 1 and len({u.id for u in units}) == 2
    assert marker in backend.requests[0].messages[0]["content"]
    second = backend.requests[-1].last_user
    assert "<question>\nWho was Ada Lovelace?" in second and "<context>\nAda Lovelace wrote" in second
    assert list(dec.prompt_versions()) == [f"claims_{style}"]


async def test_veriscore_reads_the_following_sentence_too():
    backend = sentence_backend({})
    await get_decomposer("claims:veriscore", backend).decompose(segment(TEXT))
    first = backend.requests[0].last_user
    assert "She worked with Charles Babbage." in first.split("<sentence>")[0]


async def test_exactly_n_claims_is_enforced_with_a_reask():
    replies = [{"claims": ["Ada Lovelace wrote the first algorithm."]},
               {"claims": ["Ada Lovelace wrote the first algorithm.", "Ada Lovelace worked with Charles Babbage."]}]
    backend = ScriptedBackend(responses=replies)
    units = await get_decomposer("claims:n=2", backend).decompose(segment(TEXT))
    assert len(units) == 2 and [u.sentence_index for u in units] == [0, 1]
    assert backend.requests[1].attempt == 2 and "exactly 2 claims" in backend.requests[0].last_user


@pytest.mark.parametrize("method", ["claims:n=0", "claims:n=x", "claims:atomic"])
def test_bad_variants_are_configuration_errors(method):
    with pytest.raises(ConfigurationError):
        get_decomposer(method, ScriptedBackend(responses=[]))


async def test_failures_become_warnings_not_lost_checks():
    from factgrain.errors import BackendError

    dec = get_decomposer("claims:n=2", ScriptedBackend(responses=[{"claims": ["one"]}] * 3))
    assert await dec.decompose(segment(TEXT)) == [] and "2 claims failed" in dec.warnings[0]
    dec = get_decomposer("claims:none", ScriptedBackend(responses=[BackendError("down")]))
    (unit,) = await dec.decompose(segment("She wrote it.", question="Who wrote the algorithm?"))
    assert unit.text == "She wrote it." and "decontextualization failed" in dec.warnings[0]
