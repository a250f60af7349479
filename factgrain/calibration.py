"""Calibration profiles: a decision threshold and a logistic fusion of verifier signals, fitted
on a dev split for one backend/model and saved as JSON so ``check`` and ``eval`` load it by name.

This module only holds, loads and applies a profile (the fused verifier needs nothing more);
fitting one needs the benchmark data and metrics and lives in the harness,
:mod:`factgrain.evals.calibrate` (``factgrain calibrate``).

Signals come in families: ``llm`` (logit of the LLM's P(Yes)), ``nli`` (logit of the NLI
classifier's support probability), ``lexical`` (the lexical verifier's 19 features) and
``lexscore`` (one signal: the shipped lexical model's logit, fitted on all of dev - the better
choice when only a small sample has LLM scores, since the fusion then fits three weights). A profile
with one LLM signal is Platt scaling of P(Yes) plus a tuned threshold; with several families it is
a fusion. The tuned threshold is folded into the probability
(``p = sigmoid(logit(p_fused) - logit(t))``), so 0.5 is the calibrated cut-off for every profile.

Profiles live in ``$FACTGRAIN_HOME/profiles/<name>.json`` (default ``~/.cache/factgrain``).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from factgrain.errors import ConfigurationError

FAMILIES = ("llm", "nli", "lexical", "lexscore")
_EPS = 1e-4


def _logit(p: float) -> float:
    p = min(max(float(p), _EPS), 1 - _EPS)
    return math.log(p / (1 - p))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


# --------------------------------------------------------------------------- profile


class CalibrationProfile(BaseModel):
    """A fitted fusion: ``p = sigmoid(b + sum_i w_i (x_i - mean_i) / scale_i)``, cut at ``threshold``."""

    name: str
    families: list[str] = Field(description="signal families used: llm, nli, lexical")
    model: str | None = Field(default=None, description="provider/model whose P(Yes) was calibrated")
    nli_model: str | None = None
    signals: list[str]
    coefficients: list[float]
    intercept: float
    means: list[float]
    scales: list[float]
    threshold: float = Field(ge=0.0, le=1.0, description="tuned on dev; folded into probability()")
    task: str | None = None
    split: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    def raw_probability(self, signals: dict[str, float]) -> float:
        missing = [s for s in self.signals if s not in signals]
        if missing:
            raise ConfigurationError(f"calibration {self.name!r} needs signals it was not given: {', '.join(missing)}")
        z = self.intercept
        for name, w, m, s in zip(self.signals, self.coefficients, self.means, self.scales):
            z += w * (float(signals[name]) - m) / (s or 1.0)
        return _sigmoid(z)

    def probability(self, signals: dict[str, float]) -> float:
        """Calibrated P(supported): 0.5 is the dev-tuned cut-off."""
        return _sigmoid(_logit(self.raw_probability(signals)) - _logit(self.threshold))


def profiles_dir() -> Path:
    home = os.environ.get("FACTGRAIN_HOME") or str(Path.home() / ".cache" / "factgrain")
    return Path(home).expanduser() / "profiles"


def _path_for(name: str) -> Path:
    if name.endswith(".json") or os.sep in name:
        return Path(name).expanduser()
    return profiles_dir() / f"{name}.json"


def save_profile(profile: CalibrationProfile, path: str | Path | None = None) -> Path:
    out = Path(path) if path else _path_for(profile.name)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(profile.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return out


def load_profile(name_or_path: str | CalibrationProfile) -> CalibrationProfile:
    """A profile by name (from :func:`profiles_dir`) or by path to its JSON file."""
    if isinstance(name_or_path, CalibrationProfile):
        return name_or_path
    path = _path_for(name_or_path)
    if not path.is_file():
        known = ", ".join(list_profiles()) or "none yet"
        raise ConfigurationError(f"no calibration profile {name_or_path!r} at {path} (known: {known}); "
                                 "create one with: factgrain calibrate --name NAME ...")
    return CalibrationProfile.model_validate_json(path.read_text(encoding="utf-8"))


def list_profiles() -> list[str]:
    d = profiles_dir()
    return sorted(p.stem for p in d.glob("*.json")) if d.is_dir() else []
