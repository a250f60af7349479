"""Aggregation: small pure functions, each defined on empty input.

* ``consistency`` (QASemConsistency): supported units / scored units; ``None`` with no scored unit.
* ``mean`` / ``minimum`` / ``harmonic_mean`` of unit probabilities (Decomposition Dilemmas).
* ``label`` (the final verdict): "supported" exactly when every scored unit is supported, so it
  can never contradict the unit verdicts the report lists (a mean of probabilities can: 0.9, 0.9
  and 0.4 have a harmonic mean of 0.6, "supported" at 0.5, beside a unit listed as unsupported).
  It equals the ``min`` aggregate against the threshold when every unit is a single component.
* ``harmonic_label``: the paper's rule, the harmonic mean against the threshold, kept under its own
  name (the dilemmas benchmarks score with the harmonic mean itself).
* ``triqua_score``: relation-level precision with partial credit, see :func:`fact_credit`.
"""

from __future__ import annotations

from collections.abc import Sequence

from factgrain.schemas.report import Scores, UnitResult
from factgrain.schemas.units import HyperRelationalFact, Unit
from factgrain.schemas.verdicts import UnitVerdict, VerdictStatus

BASE_WEIGHT = 0.5


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean; ``None`` for no values."""
    return sum(values) / len(values) if values else None


def minimum(values: Sequence[float]) -> float | None:
    """Smallest value; ``None`` for no values."""
    return min(values) if values else None


def harmonic_mean(values: Sequence[float]) -> float | None:
    """Harmonic mean; ``None`` for no values, 0.0 as soon as one value is 0."""
    if not values:
        return None
    if any(v <= 0.0 for v in values):
        return 0.0
    return len(values) / sum(1.0 / v for v in values)


AGGREGATORS = {"mean": mean, "min": minimum, "harmonic": harmonic_mean}


def unit_status(unit: Unit, verdicts: Sequence[UnitVerdict]) -> tuple[str, list[str]]:
    """'supported', 'unsupported', 'partial' (a fact whose base holds but a qualifier fails) or
    'unscored', plus the failing component names.

    A fact stands on its base triple: without a scored base it is 'unscored' (whatever its
    qualifiers say, as in :func:`fact_credit`), and with an unsupported base only the base is
    named as failing - each qualifier's check restates the base, so its 'No' says nothing about
    the qualifier itself.
    """
    scored = [v for v in verdicts if v.status is VerdictStatus.scored]
    if isinstance(unit, HyperRelationalFact):
        base = next((v for v in scored if v.component == "base"), None)
        if base is None:
            return "unscored", []
        if base.label != "supported":
            return "unsupported", ["base"]
        failing = [v.component for v in scored if v.label != "supported"]
        return ("partial", failing) if failing else ("supported", [])
    if not scored:
        return "unscored", []
    failing = [v.component for v in scored if v.label == "unsupported"]
    return ("unsupported", failing) if failing else ("supported", [])


def fact_credit(unit: Unit, verdicts: Sequence[UnitVerdict]) -> float | None:
    """Partial credit of one unit in [0, 1], ``None`` when it cannot be scored.

    A unit without qualifiers earns 1 when supported, 0 when not. A fact with m qualifiers: the
    base triple carries ``BASE_WEIGHT`` (0.5) and each qualifier ``(1 - BASE_WEIGHT) / m``. A
    qualifier counts only when the base is supported (a qualifier cannot hold on a false
    assertion), so an unsupported base gives 0. Unscored qualifiers are left out and the
    remaining qualifiers share their weight (all of them unscored: the base's verdict decides).
    An unscored base makes the whole fact unscored (``None``). See docs/triqua.md.
    """
    by_comp = {v.component: v for v in verdicts if v.status is VerdictStatus.scored}
    if not isinstance(unit, HyperRelationalFact) or not unit.qualifiers:
        key = "base" if isinstance(unit, HyperRelationalFact) else "unit"
        v = by_comp.get(key)
        return None if v is None else float(v.label == "supported")
    base = by_comp.get("base")
    if base is None:
        return None
    if base.label != "supported":
        return 0.0
    quals = [by_comp[c] for c in by_comp if c.startswith("qualifier:")]
    if not quals:
        return 1.0
    return BASE_WEIGHT + (1 - BASE_WEIGHT) * sum(v.label == "supported" for v in quals) / len(quals)


def triqua_score(results: Sequence[UnitResult]) -> float | None:
    """Mean partial credit over the units that could be scored; ``None`` if there are none."""
    credits = [c for r in results if (c := fact_credit(r.unit, r.verdicts)) is not None]
    return mean(credits)


def unit_probability(result: UnitResult) -> float | None:
    """A unit's P(supported): the weakest of its scored components."""
    return result.probability


def score(results: Sequence[UnitResult], *, threshold: float = 0.5, aggregate: str = "harmonic") -> Scores:
    """Counts, consistency, every aggregate, ``label`` and ``harmonic_label`` (see the module notes).
    ``aggregate`` names the headline score callers read from ``Scores.aggregate`` (the eval tasks'
    text-level probability); it no longer decides the label."""
    n = len(results)
    if n == 0:
        return Scores(status="no_units")
    statuses = [r.status for r in results]
    scored = [r for r in results if r.status != "unscored"]
    supported = statuses.count("supported")
    out = Scores(
        status="ok" if scored else "no_scored_units",
        units=n,
        scored_units=len(scored),
        supported_units=supported,
        unsupported_units=len(scored) - supported,
        unscored_units=n - len(scored),
    )
    if not scored:
        return out
    out.consistency = supported / len(scored)
    out.triqua = triqua_score(results)
    probs = [p for r in scored if (p := unit_probability(r)) is not None]
    out.aggregate = {name: fn(probs) for name, fn in AGGREGATORS.items()}
    # The verdict follows the listed units: one unsupported (or partial) unit makes the text unsupported.
    out.label = "supported" if supported == len(scored) else "unsupported"
    harmonic = out.aggregate.get("harmonic")
    if harmonic is not None:
        out.harmonic_label = "supported" if harmonic >= threshold else "unsupported"
    return out
