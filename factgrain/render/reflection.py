"""A short, line-per-reflection summary of the reflection trace, shared by the renderers."""

from __future__ import annotations

from factgrain.schemas.report import Report


def reflection_lines(report: Report, *, limit: int = 20) -> list[str]:
    lines = []
    for r in report.reflection[:limit]:
        where = "sentence " + ",".join(str(i) for i in r.sentence_indices)
        found = sorted({e.label() for e in r.lint + r.llm_errors})
        line = (f"round {r.round} · {where} · {r.judgment or 'not judged'} → {r.action} "
                f"({len(r.input_units)} → {len(r.output_units)} units)")
        if found:
            line += " · " + ", ".join(found)
        if r.action in ("rejected", "failed"):
            line += f" · {r.reason}"
        lines.append(line)
    if len(report.reflection) > limit:
        lines.append(f"... {len(report.reflection) - limit} more in the JSON report")
    return lines
