"""Raw and calibrated probabilities of a verdict, for tables that show both side by side.

*Raw* is what the verifier itself says before any calibration profile: the LLM's P(Yes), the NLI
model's support probability, or the lexical verifier's probability. *Calibrated* is either the
profile's probability (``--calibration NAME``, cut at 0.5, the dev-tuned cut-off folded in) or,
without a profile, the raw probability cut at a threshold tuned on a dev run of the same setup
(``factgrain.evals.devrun``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

#: fewest scored dev rows (with both labels) a threshold is tuned on
MIN_DEV_ROWS = 10


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


@lru_cache(maxsize=1)
def _lexical_shift() -> float:
    from factgrain.agent.verifiers.lexical_features import load_default

    t = min(max(load_default().threshold, 1e-4), 1 - 1e-4)
    return math.log(t / (1 - t))


def calibration_of(verifier: Any) -> dict[str, Any]:
    """``{"calibration": name, "calibration_families": [...]}`` when ``verifier`` applies a
    calibration profile (the fused verifier), else ``{"calibration": None}``."""
    profile = getattr(verifier, "profile", None)
    if profile is None:
        return {"calibration": None}
    return {"calibration": profile.name, "calibration_families": list(profile.families)}


def raw_probability(verdict: Any, verifier: Any) -> tuple[float | None, str]:
    """The verifier's own P(supported) before calibration and where it came from."""
    profile = getattr(verifier, "profile", None)
    if verdict.probability is None:
        return None, ""
    if profile is None:
        return float(verdict.probability), str(verdict.verifier or getattr(verifier, "name", ""))
    f = verdict.features or {}
    for fam in ("llm", "nli"):  # the model a profile calibrates, when it has one
        if fam in profile.families:
            p = f.get(f"{fam}.p")
            return (float(p) if p is not None else _sigmoid(f[f"{fam}.logit"])), fam
    # lexical-only profiles: what the lexical verifier alone would say (its own tuned cut-off folded in)
    return _sigmoid(f["lexscore.logit"] - _lexical_shift()), "lexical"


def raw_of(record: dict[str, Any]) -> float | None:
    """A record's raw probability (records written before ``p_raw`` existed hold only one)."""
    return record["p_raw"] if "p_raw" in record else record.get("probability")


def dev_threshold(records: Sequence[dict[str, Any]]) -> tuple[float, int] | None:
    """``(threshold, rows)``: the cut on the raw probability that maximises balanced accuracy on
    these dev records; None when fewer than ``MIN_DEV_ROWS`` are scored or one label is missing."""
    from factgrain.evals.metrics import best_threshold

    rows = [(int(r["label"]), float(raw_of(r))) for r in records
            if "error" not in r and raw_of(r) is not None and r.get("label") is not None]
    if len(rows) < MIN_DEV_ROWS or len({y for y, _ in rows}) < 2:
        return None
    t, _ = best_threshold([y for y, _ in rows], [p for _, p in rows])
    return float(t), len(rows)
