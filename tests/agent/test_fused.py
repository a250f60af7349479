"""FusedVerifier and calibration profiles: fitting recovers an informative signal, the threshold is
folded into the probability, verdicts name their signals, and the Evaluator routes --calibration."""

from __future__ import annotations

import math

import numpy as np
import pytest

import factgrain
from factgrain import calibration as C
from factgrain.evals import calibrate as F
from factgrain.agent.verifiers.base import VerifyItem
from factgrain.agent.verifiers.fused import FusedVerifier, lexical_signals
from factgrain.backends.scripted import ScriptedBackend
from factgrain.errors import ConfigurationError
from factgrain.schemas.units import QAPair
from factgrain.schemas.verdicts import Evidence
from tests.scripted import qa_backend

LEX = F.signal_names(["lexical"])


def _synthetic(n=300, seed=0):
    """llm.logit separates the labels; lexical features are noise."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    sig = [{"llm.logit": float((2 * yi - 1) * 1.5 + rng.normal()), **{k: float(rng.normal()) for k in LEX}} for yi in y]
    groups = [f"a{i % 30}" for i in range(n)]
    return sig, y.tolist(), groups


def test_fit_recovers_the_informative_signal():
    sig, y, g = _synthetic()
    prof = F.fit_profile(sig, y, g, name="t", families=["llm", "lexical"], model="scripted/x")
    w = dict(zip(prof.signals, prof.coefficients))
    assert w["llm.logit"] > 5 * max(abs(w[k]) for k in LEX)
    assert prof.meta["dev_oof_auc"] > 0.8 and 0.0 < prof.threshold < 1.0
    # the tuned threshold is folded in: a raw probability equal to it is exactly 0.5
    s = sig[0]
    raw = prof.raw_probability(s)
    moved = prof.model_copy(update={"threshold": raw})
    assert moved.probability(s) == pytest.approx(0.5)


def test_fit_refuses_degenerate_data():
    sig, _, g = _synthetic(20)
    with pytest.raises(ConfigurationError, match="both labels"):
        F.fit_profile(sig, [1] * 20, g, name="t", families=["llm", "lexical"])


def test_profiles_save_and_load_by_name(tmp_path, monkeypatch):
    monkeypatch.setenv("FACTGRAIN_HOME", str(tmp_path))
    sig, y, g = _synthetic()
    prof = F.fit_profile(sig, y, g, name="mine", families=["llm", "lexical"])
    path = C.save_profile(prof)
    assert path == tmp_path / "profiles" / "mine.json"
    assert C.load_profile("mine") == prof and C.load_profile(str(path)) == prof
    assert C.list_profiles() == ["mine"]
    with pytest.raises(ConfigurationError, match="known: mine"):
        C.load_profile("other")


def _item(answer="Laura Muir"):
    unit = QAPair(id="q0", sentence_index=0, predicate="won", question="who won something?", answer=answer)
    ref = "The race was held in Glasgow. Laura Muir won the race after a late sprint."
    return VerifyItem(unit, unit.components()[0], "Laura Muir won the race.", [Evidence(source_id="bbc", text=ref)])


async def test_fused_verdict_combines_the_profile_signals():
    sig, y, g = _synthetic()
    prof = F.fit_profile(sig, y, g, name="t", families=["llm", "lexical"])
    backend = ScriptedBackend(handler=lambda req: 0.8)
    v = FusedVerifier(backend, profile=prof)
    (verdict,) = await v.verify_items([_item()])
    assert verdict.verifier == "llm+lexical" and v.describe() == "llm+lexical (calibration t)"
    assert verdict.features["llm.logit"] == pytest.approx(math.log(0.8 / 0.2), abs=1e-3)
    signals = {k: val for k, val in verdict.features.items() if k != "p_raw"}
    assert verdict.probability == pytest.approx(prof.probability(signals))
    assert verdict.prompt and verdict.raw_reply == "Yes"
    ev = verdict.evidence[0]
    assert ev.source_id == "bbc" and "Laura Muir won" in ev.text and _item().evidence[0].text[ev.start:ev.end] == ev.text


async def test_llm_only_profile_is_a_calibrated_llm():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    sig = [{"llm.logit": float(yi * 2 - 3 + rng.normal())} for yi in y]  # P(Yes) biased low
    prof = F.fit_profile(sig, y.tolist(), [f"a{i % 20}" for i in range(200)], name="cal", families=["llm"])
    v = FusedVerifier(ScriptedBackend(handler=lambda req: 0.3), profile=prof)
    (verdict,) = await v.verify_items([_item()])
    assert verdict.verifier == "llm:calibrated"
    assert verdict.probability == pytest.approx(prof.probability({"llm.logit": math.log(0.3 / 0.7)}), abs=1e-3)


async def test_unscored_llm_reply_gives_an_unscored_fused_verdict():
    sig, y, g = _synthetic()
    prof = F.fit_profile(sig, y, g, name="t", families=["llm", "lexical"])
    v = FusedVerifier(ScriptedBackend(handler=lambda req: "Maybe", logprobs=False), profile=prof)
    (verdict,) = await v.verify_items([_item()])
    assert verdict.status.value == "unscored" and "llm signal missing" in verdict.reason


def test_fused_without_profile_for_a_hosted_model_says_how_to_make_one():
    with pytest.raises(ConfigurationError, match="factgrain calibrate"):
        FusedVerifier(ScriptedBackend(handler=lambda req: 0.5))


TEXT = "Laura Muir won the race in Glasgow."
REF = "The race was held in Glasgow. Laura Muir won the race after a late sprint."
QAS = {TEXT: [{"predicate": "won", "predicate_type": "verbal", "question": "who won something?", "answer": "Laura Muir"}]}


def test_check_with_calibration_uses_the_profile(tmp_path, monkeypatch):
    monkeypatch.setenv("FACTGRAIN_HOME", str(tmp_path))
    sig, y, g = _synthetic()
    C.save_profile(F.fit_profile(sig, y, g, name="demo", families=["llm", "lexical"]))
    report = factgrain.check(TEXT, REF, model=qa_backend(QAS, default_p=0.9), calibration="demo", span_mode="free")
    assert report.verifier == "llm+lexical (calibration demo)"
    assert [v.verifier for v in report.verdicts] == ["llm+lexical"]


def test_lexscore_is_the_shipped_lexical_models_logit():
    from factgrain.agent.verifiers.lexical_features import load_default

    item = _item()
    signals, feats = lexical_signals(item)
    assert signals["lexscore.logit"] == pytest.approx(load_default().logit(feats))
    assert F.signal_names(["llm", "lexscore"]) == ["llm.logit", "lexscore.logit"]


def test_a_facts_lexical_signals_come_from_its_weaker_reading():
    # 'Three critics praised the opera' against 'two critics': the object is found, the subject's count
    # is not; the fused verifier reads the fact by its subject too, as the lexical verifier does
    from factgrain.schemas.units import HyperRelationalFact

    fact = HyperRelationalFact(id="f0", sentence_index=0, subject="Three critics", relation="praised", object="the opera")
    ref = "Two critics praised the opera after its premiere in Vienna."
    item = VerifyItem(fact, fact.components()[0], "Three critics praised the opera.", [Evidence(source_id="r", text=ref)])
    signals, _ = lexical_signals(item)
    assert signals["lex.qty_clash"] == 1.0
    right = VerifyItem(fact, fact.components()[0], "Three critics praised the opera.",
                       [Evidence(source_id="r", text="Three critics praised the opera after its premiere.")])
    assert lexical_signals(right)[0]["lex.qty_clash"] == 0.0


def test_an_uninformative_signal_still_gives_a_valid_threshold():
    rng = np.random.default_rng(2)
    y = [1] * 80 + [0] * 20
    sig = [{"llm.logit": float(rng.normal())} for _ in y]  # noise: "all supported" is the best cut
    prof = F.fit_profile(sig, y, [f"a{i % 10}" for i in range(100)], name="noise", families=["llm"])
    assert 0.0 < prof.threshold < 1.0 and 0.0 <= prof.probability(sig[0]) <= 1.0


def test_embedded_model_gets_the_shipped_profile():
    class FakeEmbedded(ScriptedBackend):
        provider = "embedded"

    v = FusedVerifier(FakeEmbedded(handler=lambda req: 0.2))
    assert v.profile.name == "embedded-fused" and v.profile.model == "embedded/smollm2-135m"
    assert v.profile.families == ["llm", "lexscore"] and v.verdict_name == "llm+lexscore"
