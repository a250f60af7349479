"""Fused verifier: the signals a calibration profile names (LLM P(Yes), NLI probability, lexical
features), combined by the profile's logistic model, cut at its dev-tuned threshold.

A profile with one family is a calibrated verifier (``--verifier llm --calibration NAME``); with
several it is a fusion. The verdict keeps every signal in ``features``, the raw fused
probability as ``features["p_raw"]`` and the LLM's / NLI model's own probability as ``llm.p`` /
``nli.p``; it cites the NLI window when there is one, else the lexical
window, else the evidence it was given.
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar

from factgrain.agent.verifiers.base import Verifier, VerifyItem
from factgrain.backends.base import Backend
from factgrain.calibration import CalibrationProfile, load_profile
from factgrain.errors import ConfigurationError
from factgrain.schemas.verdicts import UnitVerdict

#: shipped profile for the bundled embedded model (fitted by ``python -m factgrain.evals.verifier_table``;
#: this module only loads and applies profiles, fitting is the harness's: factgrain.evals.calibrate)
EMBEDDED_PROFILE = "fused_embedded.json"


def default_profile(backend: Backend | None) -> CalibrationProfile:
    if backend is not None and backend.provider == "embedded":
        res = resources.files(__package__).joinpath(EMBEDDED_PROFILE)
        if res.is_file():
            return CalibrationProfile.model_validate_json(res.read_text(encoding="utf-8"))
    raise ConfigurationError("the fused verifier needs a calibration profile for this model: run "
                             "`factgrain calibrate --task qasem-table4 --split dev --model ... --name NAME`, "
                             "then pass --calibration NAME")


def lexical_signals(item: VerifyItem) -> tuple[dict[str, float], Any]:
    """Lexical features of one VerifyItem and the shipped lexical model's logit, named as profile
    signals (``lex.<feature>``, ``lexscore.logit``), plus the raw Features. Fitting a profile
    (:mod:`factgrain.evals.calibrate`) reads the same signals through this function."""
    from factgrain.agent.verifiers.lexical import weakest_view

    # a fact's base triple is read by its object and by its subject, as the lexical verifier reads it
    _, feats = weakest_view(item, _shipped_lexical())
    out = {f"lex.{k}": float(v) for k, v in feats.values.items()}
    out["lexscore.logit"] = float(_shipped_lexical().logit(feats))
    return out, feats


@lru_cache(maxsize=1)
def _shipped_lexical() -> Any:
    from factgrain.agent.verifiers.lexical_features import load_default

    return load_default()


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


class FusedVerifier(Verifier):
    name: ClassVar[str] = "fused"
    prompt_names: ClassVar[tuple[str, ...]] = ("verify",)

    def __init__(self, backend: Backend | None = None, *, profile: str | CalibrationProfile | None = None,
                 nli_model: str | None = None, nli_verifier: Verifier | None = None,
                 keep_prompts: bool = True, **options: Any):
        super().__init__(**options)
        self.profile = load_profile(profile) if profile is not None else default_profile(backend)
        fams = self.profile.families
        self.llm = None
        if "llm" in fams:
            if backend is None:
                raise ConfigurationError(f"calibration {self.profile.name!r} uses LLM P(Yes); give a model")
            from factgrain.agent.verifiers.llm import LLMVerifier

            self.llm = LLMVerifier(backend, keep_prompts=keep_prompts)
        self.nli = nli_verifier
        if "nli" in fams and self.nli is None:
            path = nli_model or self.profile.nli_model
            if not path:
                raise ConfigurationError(f"calibration {self.profile.name!r} uses an NLI model; pass --nli-model DIR")
            from factgrain.agent.verifiers.nli import NLIVerifier

            self.nli = NLIVerifier(path)
        self.verdict_name = "+".join(fams) if len(fams) > 1 else f"{fams[0]}:calibrated"

    def describe(self) -> str:
        return f"{self.verdict_name} (calibration {self.profile.name})"

    def prompt_versions(self) -> dict[str, str]:
        return super().prompt_versions() if self.llm else {}

    async def verify_item(self, item: VerifyItem) -> UnitVerdict:
        return (await self.verify_items([item]))[0]

    async def verify_items(self, items: list[VerifyItem]) -> list[UnitVerdict]:
        llm = await self.llm.verify_items(items) if self.llm else [None] * len(items)
        nli = await self.nli.verify_items(items) if self.nli else [None] * len(items)
        return [self._one(item, lv, nv) for item, lv, nv in zip(items, llm, nli)]

    def _one(self, item: VerifyItem, lv: UnitVerdict | None, nv: UnitVerdict | None) -> UnitVerdict:
        common: dict[str, Any] = dict(unit_id=item.unit.id, component=item.component.name, verifier=self.verdict_name)
        if lv is not None:
            common.update(prompt=lv.prompt, raw_reply=lv.raw_reply)
        signals: dict[str, float] = {}
        evidence = list(item.evidence)
        if {"lexical", "lexscore"} & set(self.profile.families):
            lex, feats = lexical_signals(item)
            signals.update(lex)
            if feats.best_window is not None and feats.best_window.text:
                w = feats.best_window
                evidence = [item.locate(w.start, w.end, float(w.score))]
        for fam, v in (("llm", lv), ("nli", nv)):
            if v is None:
                continue
            if v.probability is None:
                return UnitVerdict.unscored_because(reason=f"{fam} signal missing: {v.reason}", evidence=evidence, **common)
            signals[f"{fam}.logit"] = _logit(v.probability)
        if nv is not None and nv.evidence:
            evidence = nv.evidence
        prob = self.profile.probability(signals)
        features = {**signals, "p_raw": self.profile.raw_probability(signals)}
        # each verifier's own probability before calibration (the logits above are clipped)
        features.update({f"{fam}.p": float(v.probability) for fam, v in (("llm", lv), ("nli", nv)) if v is not None})
        return UnitVerdict(probability=prob, label=self.label(prob), evidence=evidence, features=features, **common)
