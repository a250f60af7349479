"""Shared helpers for the renderers."""

from __future__ import annotations

from factgrain.schemas.report import Report, UnitResult
from factgrain.schemas.units import Claim, HyperRelationalFact, PredicateType, QAPair


def fmt_prob(p: float | None) -> str:
    return "-" if p is None else f"{p:.2f}"


def unit_label(result: UnitResult) -> str:
    u = result.unit
    if isinstance(u, QAPair):
        # a question about an event noun reads like its verb's ('the death of a man' -> 'who died?');
        # naming the noun tells it apart from the verb's own pair in the same sentence
        noun = f"  (of '{u.predicate}')" if u.predicate_type == PredicateType.nominal and u.predicate else ""
        return f"{u.question} → {u.answer}{noun}"
    if isinstance(u, HyperRelationalFact):
        quals = ", ".join(f"{q.type.value}={q.value}" for q in u.qualifiers)
        return u.triple() + (f" [{quals}]" if quals else "")
    assert isinstance(u, Claim)
    return u.text


def failing_detail(result: UnitResult) -> str:
    """'base triple' or the qualifier class and value that failed, for facts; empty otherwise."""
    u = result.unit
    if not isinstance(u, HyperRelationalFact) or not result.failing_components:
        return ""
    parts = []
    for f in result.failures:
        where = f" @{f.span.start}-{f.span.end}" if f.span else ""
        if f.part == "base":
            parts.append(f"base triple{where}")
        else:
            parts.append(f"{f.qualifier_type} ({f.qualifier_class}) qualifier '{f.text}'{where}")
    return ", ".join(parts)


def has_components(result: UnitResult) -> bool:
    """Whether the unit is shown as a group of separately verified components (a fact with
    qualifiers)."""
    return isinstance(result.unit, HyperRelationalFact) and bool(result.unit.qualifiers)


def component_rows(result: UnitResult) -> list[tuple[str, str, float | None]]:
    """One row per component of a fact, in order: (label, state, P(supported)). The state is
    'failing' for the components named as failing, 'moot' for a qualifier of a failing base (not
    attributed), else 'supported' or 'unscored'."""
    u = result.unit
    assert isinstance(u, HyperRelationalFact)
    by_comp = {v.component: v for v in result.verdicts}
    base_fails = "base" in result.failing_components
    rows = []
    for comp in u.components():
        if comp.name == "base":
            label = f"base {u.triple()}"
        else:
            q = u.qualifiers[int(comp.name.split(":")[1])]
            label = f"{q.type.value} ({q.category}): {q.value}"
        v = by_comp.get(comp.name)
        prob = v.probability if v is not None else None
        if comp.name in result.failing_components:
            state = "failing"
        elif v is None or v.status.value != "scored":
            state = "unscored"
        elif base_fails:
            state = "moot"
        else:
            state = "supported"
        rows.append((label, state, prob))
    return rows


COMPONENT_MARK = {"failing": "✗ failing", "supported": "✓", "unscored": "? unscored", "moot": "· base fails"}


def error_kinds(result: UnitResult) -> str:
    kinds = sorted({v.error_kind for v in result.verdicts if v.error_kind})
    return "/".join(kinds)


def tier_line(report: Report) -> str:
    """The paths the check took and why ('tier offline · spans parse · reflect light · ...'), or ''
    for a report written before tiers existed."""
    t = report.tier
    if not t:
        return ""
    parts = [f"tier {t.get('tier', '?')}"]
    for key, label in (("span_mode", "spans"), ("reflect_mode", "reflect"), ("fallback", "fall-back")):
        if t.get(key):
            parts.append(f"{label} {t[key]}")
    line = " · ".join(parts)
    return f"{line} ({t['reason']})" if t.get("reason") else line


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
        line += f" · harmonic mean {h:.2f}"
    if s.label:
        line += f" → {s.label}"
    return line
