"""Helpers to script the ScriptedBackend for pipeline tests."""

from __future__ import annotations

import re

from factgrain.backends.scripted import ScriptedBackend, ScriptedRequest


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
