"""The agent end to end on a real small instruct model (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF):
free QA, TriQua and claim decomposition, reflection and revise, each on one or two short made-up
sentences with capped replies, so the tier stays within a few minutes on two cores.

The model comes from ``bash ../shared/tools/fetch-qwen-1.5b.sh`` (``scripts/setup-dev.sh`` runs it;
cached in ~/.cache/factgrain/models). ``FACTGRAIN_SMALL_MODEL`` names another GGUF. In CI
(``CI=true``) a missing model fails the tier; locally it is skipped with the reason.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import factgrain
from factgrain.agent.decompose.base import get_decomposer
from factgrain.agent.decompose.claims import ungrounded
from factgrain.agent.decompose.qasem import QASemDecomposer
from factgrain.agent.decompose.triqua import TriQuaDecomposer
from factgrain.agent.decompose.triqua_free import qualifier_lead
from factgrain.agent.locate import locate
from factgrain.agent.reflect import reflect_and_refine
from factgrain.agent.segment import segment
from factgrain.agent.tiers import choose
from factgrain.schemas import QAPair

pytestmark = [pytest.mark.small_model, pytest.mark.slow]

DEFAULT_PATH = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "factgrain" / "models" / \
    "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


@pytest.fixture(scope="session")
def small_model_path() -> Path:
    path = Path(os.environ.get("FACTGRAIN_SMALL_MODEL") or DEFAULT_PATH).expanduser()
    if not path.is_file():
        why = f"small model not found at {path}: run bash ../shared/tools/fetch-qwen-1.5b.sh (or set FACTGRAIN_SMALL_MODEL)"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(why)  # CI runs this tier, never skips it
        pytest.skip(why)
    return path


@pytest.fixture(scope="session")
def qwen(small_model_path):
    from factgrain.backends.embedded import EmbeddedBackend

    # a loaded machine answers slowly: a long timeout, so a slow reply is not a failed call
    return EmbeddedBackend(str(small_model_path), timeout=600.0)


def exact(text: str, span) -> bool:
    return span is None or text[span.start:span.end] == span.text


def test_the_small_model_gets_the_small_tier(qwen):
    choice = choose(qwen)
    assert choice.tier == "small" and "1.5B" in choice.reason
    assert (choice.span_mode, choice.reflect_mode, choice.verifier, choice.fallback) == ("free", "light", "lexical", True)
    assert qwen._server_url is None  # deciding costs no model load


async def test_free_qa_pairs_are_spans_of_the_sentence(qwen):
    text = "The council approved the new library in March after a long debate."
    dec = QASemDecomposer(qwen, span_mode="free")
    units = await dec.decompose(segment(text))
    assert units, dec.warnings
    assert dec.sentence_sources[0] in ("model", "fallback")
    if dec.sentence_sources[0] == "fallback":
        assert any("sentence 0" in w for w in dec.warnings)  # a fall-back is never silent
    for u in units:
        assert exact(text, u.answer_span) and exact(text, u.predicate_span)
        assert u.answer.strip() != text.strip()
    assert len({(u.predicate_span.start if u.predicate_span else None, u.answer_span.start) for u in units}) == len(units)


async def test_triqua_circumstances_are_qualifiers(qwen):
    text = "After the storm, the mayor closed the harbour on Monday because of high waves."
    dec = TriQuaDecomposer(qwen, span_mode="free")
    facts = await dec.decompose(segment(text))
    assert facts, dec.warnings
    for f in facts:
        assert qualifier_lead(f.relation) is None, f"{f.relation!r} is a qualifier written as a fact"
        for span in f.spans():
            assert exact(text, span)
        for q in f.qualifiers:
            if q.type.value == "spatial":
                assert "storm" not in q.value and "Monday" not in q.value


async def test_claims_are_grounded_and_distinct(qwen):
    text = "Mara Quell, a Danish chemist, discovered the enzyme in 1931."
    dec = get_decomposer("claims:factscore", qwen)
    claims = await dec.decompose(segment(text))
    assert claims, dec.warnings
    for c in claims:
        assert ungrounded(c.text, text) is None and "Rielo" not in c.text  # never the prompt's example
    assert len({c.text.lower() for c in claims}) == len(claims)


async def test_reflection_is_shown_the_lint_and_records_its_stand(qwen):
    text = "The museum reopened in May after a fire."
    doc = segment(text)
    bad = QAPair(id="s0.u0", sentence_index=0, predicate="reopened", question="where was ?", answer="in",
                 answer_span=locate("in", text))
    units, trace = await reflect_and_refine([bad], doc, qwen, method="qasem", mode="light")
    (rnd,) = trace  # the lint flags the pair, so the light path reviews it
    assert rnd.lint and rnd.action in ("kept", "refined", "collapsed", "rejected", "failed")
    assert rnd.errors_note or rnd.action == "failed"
    if rnd.judgment == "Good":
        assert rnd.disagreement and "lint finding" in rnd.disagreement
    for u in units:
        for span in u.spans():
            assert exact(text, span)


def test_revise_never_rewards_the_planted_year(qwen):
    summary = "The Lumiere festival in Lyon was first held in 1987."
    source = "The Lumiere festival in Lyon was first held in 2009. Every October it screens classic films."
    rev = factgrain.revise(summary, source, model=qwen, max_rounds=2)
    first = rev.rounds[0]
    assert first.score is not None and first.score < 1.0 and any("1987" in e["text"] for e in first.errors)
    if "1987" in rev.text:  # not fixed: the loop must say so, and the score must not have risen
        assert rev.best_round == 0 and rev.score == first.score
        assert rev.stop_reason in ("could_not_fix", "no_improvement", "no_edits", "reviser_failed", "max_rounds")
        assert rev.note or rev.error
    else:
        assert re.search(r"\b2009\b", rev.text) or "first held" not in rev.text
        assert len(rev.text) <= 1.5 * len(summary)
