"""Checks of real properties of a report produced against the vLLM server (never of verdict quality:
SmolLM2-135M judges at chance)."""

from __future__ import annotations

from typing import Any

YES_NO = {"yes", "no"}


def spans(node: Any):
    """Every ``{start, end, text}`` span inside a unit (answer, predicate, subject, qualifiers...)."""
    if isinstance(node, dict):
        if {"start", "end", "text"} <= node.keys() and isinstance(node["start"], int):
            yield node
        for value in node.values():
            yield from spans(value)
    elif isinstance(node, list):
        for value in node:
            yield from spans(value)


def assert_units_index_the_text(report: dict) -> None:
    text = report["text"]
    for r in report["results"]:
        found = list(spans(r["unit"]))
        assert found, f"unit {r['unit']['id']} has no span into the text"
        for s in found:
            assert 0 <= s["start"] <= s["end"] <= len(text), (r["unit"]["id"], s)
            assert text[s["start"]:s["end"]] == s["text"], (r["unit"]["id"], s, text[s["start"]:s["end"]])


def assert_verdicts_scored_from_logprobs(report: dict) -> int:
    """Every verdict is the LLM verifier's, scored, a probability in [0, 1] read from logprobs (not a
    hard answer), with a Yes/No reply; returns how many there were."""
    n = 0
    for r in report["results"]:
        assert r["verdicts"], f"unit {r['unit']['id']} has no verdict"
        for v in r["verdicts"]:
            n += 1
            assert v["verifier"] == "llm", v["verifier"]
            assert v["status"] == "scored", (v["status"], v.get("reason"))
            assert 0.0 <= v["probability"] <= 1.0
            assert not v["hard_answer_only"], "the server returns logprobs: P(Yes) must come from them"
            assert v["raw_reply"].strip().lower() in YES_NO, v["raw_reply"]
            assert v["label"] == ("supported" if v["probability"] >= report["threshold"] else "unsupported")
    return n


def uncovered_sentences(report: dict) -> list[dict]:
    """Sentences with content that no unit's span touches."""
    covered = [(s["start"], s["end"]) for r in report["results"] for s in spans(r["unit"])]
    out = []
    for sent in report["document"]["sentences"]:
        if not any(w.isalpha() for w in sent["text"]):
            continue
        if not any(a < sent["end"] and b > sent["start"] for a, b in covered):
            out.append(sent)
    return out


def mentions(warning: str, sentence: dict) -> bool:
    return (sentence["text"][:40] in warning or f"sentence {sentence['index']}" in warning
            or f"chunk {sentence['chunk_index']}" in warning)


def usage_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """What the server counted between two ``/metrics`` scrapes, in ``Usage`` field names."""
    def d(name: str) -> float:
        return after.get(name, 0.0) - before.get(name, 0.0)

    return {"calls": d("vllm:request_success_total"), "prompt_tokens": d("vllm:prompt_tokens_total"),
            "cached_tokens": d("vllm:prompt_tokens_cached_total"),
            "completion_tokens": d("vllm:generation_tokens_total")}
