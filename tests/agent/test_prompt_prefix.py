"""Prefix-cache-aware prompts: every verification prompt of one check starts with the same bytes
(system + reference) and puts the unit last, so a server's prefix cache computes the reference once."""

from __future__ import annotations

import os

from factgrain.agent.evaluator import Evaluator
from tests.scripted import qa_backend

TEXT = "Marie Curie won the Nobel Prize in 1903. She founded a lab in Warsaw in 1932."
REFERENCE = ("Marie Curie shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri Becquerel. "
             "In 1932 she founded the Radium Institute in Warsaw.")
QAS = {
    "Marie Curie won the Nobel Prize in 1903.": [
        {"predicate": "won", "predicate_type": "verbal", "question": "who won something?", "answer": "Marie Curie"},
        {"predicate": "won", "predicate_type": "verbal", "question": "what did someone win?", "answer": "the Nobel Prize"},
        {"predicate": "won", "predicate_type": "verbal", "question": "when did someone win something?", "answer": "in 1903"},
    ],
    "She founded a lab in Warsaw in 1932.": [
        {"predicate": "founded", "predicate_type": "verbal", "question": "who founded something?", "answer": "She"},
        {"predicate": "founded", "predicate_type": "verbal", "question": "where did someone found something?", "answer": "in Warsaw"},
    ],
}


def flat(messages: list[dict[str, str]]) -> str:
    """The bytes a chat template lays out in order: role and content of each message."""
    return "".join(f"<{m['role']}>{m['content']}" for m in messages)


async def test_all_verification_prompts_of_a_check_share_system_and_reference_as_prefix():
    backend = qa_backend(QAS)
    report = await Evaluator(backend, verifier="llm").acheck(TEXT, REFERENCE)
    prompts = [flat(r.messages) for r in backend.requests if r.kind == "chat"]
    assert len(prompts) == report.scores.units == 5
    shared = os.path.commonprefix(prompts)
    # The shared prefix runs through the whole reference block ...
    assert REFERENCE + "\n</reference>" in shared
    # ... and everything unit-specific comes after it.
    for r in backend.requests:
        if r.kind != "chat":
            continue
        tail = flat(r.messages)[len(shared):]
        assert "<statement>" in tail and REFERENCE not in tail
    # Nothing but the sentence, the statement and the fixed question follows the reference.
    assert max(len(p) - len(shared) for p in prompts) < 400
