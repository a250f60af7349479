"""Shared helpers for the renderers."""

from __future__ import annotations

from factgrain.schemas.report import Report, UnitResult
from factgrain.schemas.units import Claim, HyperRelationalFact, QAPair


def fmt_prob(p: float | None) -> str:
    return "-" if p is None else f"{p:.2f}"


def unit_label(result: UnitResult) -> str:
    u = result.unit
    if isinstance(u, QAPair):
        return f"{u.question} → {u.answer}"
    if isinstance(u, HyperRelationalFact):
        quals = ", ".join(f"{q.type.value}={q.value}" for q in u.qualifiers)
        return f"({u.subject}; {u.relation}; {u.object})" + (f" [{quals}]" if quals else "")
    assert isinstance(u, Claim)
    return u.text


def failing_detail(result: UnitResult) -> str:
    """'base triple' or the qualifier class and value that failed, for facts; empty otherwise."""
    u = result.unit
    if not isinstance(u, HyperRelationalFact) or not result.failing_components:
        return ""
    parts = []
    for name in result.failing_components:
        if name == "base":
            parts.append("base triple")
        elif name.startswith("qualifier:"):
            q = u.qualifiers[int(name.split(":")[1])]
            parts.append(f"{q.type.value} qualifier '{q.value}'")
    return ", ".join(parts)


def error_kinds(result: UnitResult) -> str:
    kinds = sorted({v.error_kind for v in result.verdicts if v.error_kind})
    return "/".join(kinds)


def score_line(report: Report) -> str:
    s = report.scores
    if s.status == "no_units":
        if s.failed_sentences:
            return f"no units: decomposition failed for {s.failed_sentences} sentence(s), see warnings (no score)"
        return "no units: the decomposition produced nothing to verify (no score)"
    if s.status == "no_scored_units":
        return f"no scored units: all {s.units} units are unscored (no score)"
    line = f"consistency {s.consistency:.2f} ({s.supported_units}/{s.scored_units} supported"
    if s.unscored_units:
        line += f", {s.unscored_units} unscored"
    if s.failed_sentences:
        line += f", {s.failed_sentences} sentence(s) not decomposed"
    line += ")"
    if s.triqua is not None and report.method == "triqua":
        line += f" · TriQuaScore {s.triqua:.2f}"
    h = s.aggregate.get("harmonic")
    if h is not None:
        line += f" · harmonic mean {h:.2f} → {s.label}"
    return line
