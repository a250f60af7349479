"""Helpers to script the ScriptedBackend for pipeline tests."""

from __future__ import annotations

import re

from factgrain.backends.scripted import ScriptedBackend, ScriptedRequest


# A two-sentence example shared by pipeline tests: "in the Annalong Valley" is the one answer the reference
# does not support (script it with support={"Annalong": p}).
TEXT = "A man fell in the Annalong Valley while walking. He was airlifted to hospital."
REF = "A paraglider fell at Slieve Gullion and was airlifted to hospital with a leg injury."
QAS = {
    "A man fell in the Annalong Valley while walking.": [
        {"predicate": "fell", "predicate_type": "verbal", "question": "who fell?", "answer": "A man"},
        {"predicate": "fell", "predicate_type": "verbal", "question": "where did someone fall?", "answer": "in the Annalong Valley"},
    ],
    "He was airlifted to hospital.": [
        {"predicate": "airlifted", "predicate_type": "verbal", "question": "where was someone airlifted to?", "answer": "to hospital"},
    ],
}


def sentence_of(req: ScriptedRequest) -> str:
    m = re.search(r"<sentence>\n(.*?)\n</sentence>", req.last_user, re.DOTALL)
    return m.group(1) if m else ""


def statement_of(req: ScriptedRequest) -> str:
    m = re.search(r"<statement>\n(.*?)\n</statement>", req.last_user, re.DOTALL)
    return m.group(1) if m else ""


def qa_backend(qas_by_sentence: dict[str, list[dict]], support: dict[str, float] | None = None,
               default_p: float = 0.9) -> ScriptedBackend:
    """Decomposition replies keyed by sentence text; verification P(Yes) keyed by a substring
    of the statement (first match wins), else ``default_p``."""
    support = support or {}

    def handler(req: ScriptedRequest):
        if req.kind == "structured":
            return {"qas": qas_by_sentence.get(sentence_of(req), [])}
        statement = statement_of(req)
        for key, p in support.items():
            if key in statement:
                return p
        return default_p

    return ScriptedBackend(handler=handler)
