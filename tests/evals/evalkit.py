"""A scripted backend that can drive every eval task: QA decompositions built from the sentence's
own words, and a P(Yes) that is a fixed function of the statement (so reruns agree)."""

from __future__ import annotations

import hashlib
import re

from factgrain.backends.scripted import ScriptedBackend, ScriptedRequest
from tests.scripted import sentence_of, statement_of


def p_of(statement: str) -> float:
    return 0.05 + 0.9 * (int(hashlib.md5(statement.encode()).hexdigest()[:6], 16) / 0xFFFFFF)


def qas_for(sentence: str) -> list[dict]:
    words = re.findall(r"[A-Za-z]{3,}", sentence)
    if not words:
        return []
    if len(words) < 3:  # a fragment ("Steve Jobs."): one pair about the name it gives
        return [{"predicate": words[-1], "predicate_type": "nominal", "question": f"who is {words[-1]}?",
                 "answer": words[0]}]
    return [{"predicate": words[1], "predicate_type": "verbal", "question": f"who {words[1]} something?",
             "answer": words[0]},
            {"predicate": words[1], "predicate_type": "verbal", "question": f"what did someone {words[1]}?",
             "answer": words[2]}]


def handler(req: ScriptedRequest):
    if req.kind == "structured":
        return {"qas": qas_for(sentence_of(req))}
    return p_of(statement_of(req))


def eval_backend(**kw) -> ScriptedBackend:
    return ScriptedBackend(handler=handler, **kw)
