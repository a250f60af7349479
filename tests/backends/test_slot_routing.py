"""Embedded-server slot routing: prompts that open with the same reference go to one slot."""

from __future__ import annotations

import pytest

from factgrain.agent.verifiers.base import VerifyItem
from factgrain.agent.verifiers.llm import LLMVerifier
from factgrain.backends.embedded import prefix_slot
from factgrain.backends.scripted import ScriptedBackend
from factgrain.schemas.units import Claim, Component
from factgrain.schemas.verdicts import Evidence

REFERENCE = " ".join(f"Sentence {i} of the reference says that item {i} weighs {i * 3} kilograms." for i in range(80))


def verify_messages(reference: str, statements: list[str]) -> list[list[dict[str, str]]]:
    verifier = LLMVerifier(ScriptedBackend(handler=lambda r: 0.5))
    out = []
    for i, s in enumerate(statements):
        unit = Claim(id=f"u{i}", sentence_index=0, text=s)
        item = VerifyItem(unit, Component(name="unit", statement=s), s, [Evidence(source_id="r", text=reference)])
        out.append(verifier.messages(item))
    return out


@pytest.mark.parametrize("n_slots", [2, 3, 4])
def test_every_unit_of_one_reference_goes_to_one_slot(n_slots):
    prompts = verify_messages(REFERENCE, [f"Item {i} weighs {i} kilograms." for i in range(40)])
    assert len({prefix_slot(m, n_slots) for m in prompts}) == 1


def test_different_references_spread_over_the_slots():
    slots = {prefix_slot(verify_messages(f"Reference number {k}. " + REFERENCE, ["x"])[0], 2) for k in range(20)}
    assert slots == {0, 1}


def test_one_slot_is_always_slot_zero():
    assert prefix_slot(verify_messages(REFERENCE, ["x"])[0], 1) == 0


@pytest.mark.embedded
async def test_second_unit_of_a_reference_reuses_the_cached_prefix(monkeypatch):
    monkeypatch.setenv("FACTGRAIN_EMBEDDED_THREADS", "1")
    from factgrain.backends.embedded import EmbeddedBackend

    backend = EmbeddedBackend(n_parallel=2, route_slots=True)
    reference = REFERENCE[:1500]
    first, second = verify_messages(reference, ["Item 3 weighs 9 kilograms.", "Item 4 weighs 2 kilograms."])
    assert backend.request_extras(first)["id_slot"] == backend.request_extras(second)["id_slot"]
    await backend.chat(first, max_tokens=1)
    result = await backend.chat(second, max_tokens=1)
    # Everything up to the statement was already in the slot's KV cache.
    assert result.usage.cached_tokens >= 0.8 * result.usage.prompt_tokens


def test_short_prompts_group_by_their_shared_opening_not_their_unit():
    from factgrain.prompts import QASEM_SLOT

    sentence = "The city council approved the new budget for the coming year on Tuesday after a long debate."
    phrases = ["The city council", "the new budget", "after a long debate", "for the coming year"]
    slots = {prefix_slot(QASEM_SLOT.render(sentence=sentence, predicate="approved", phrase=p, role="object",
                                           choices="who, what"), 4) for p in phrases}
    assert len(slots) == 1
    others = {prefix_slot(QASEM_SLOT.render(sentence=f"Sentence {k}: " + sentence, predicate="approved",
                                            phrase="x", role="object", choices="who, what"), 4)
              for k in range(12)}
    assert len(others) > 1


def test_a_prompt_without_a_leading_data_block_is_not_routed():
    assert prefix_slot([{"role": "system", "content": "s"}, {"role": "user", "content": "Is it? <x>y</x>"}], 2) is None
