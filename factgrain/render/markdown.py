"""Markdown rendering of a Report."""

from __future__ import annotations

from factgrain.render.common import (
    COMPONENT_MARK,
    component_rows,
    error_kinds,
    failing_detail,
    fmt_prob,
    has_components,
    score_line,
    tier_line,
    unit_label,
)
from factgrain.schemas.report import Report


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report) -> str:
    lines = [
        f"# factgrain report ({report.method})",
        "",
        f"- model: `{report.model}` · verifier: `{report.verifier}` · schema {report.schema_version}",
        f"- {score_line(report)}",
        *([f"- {tier_line(report)}"] if tier_line(report) else []),
        "",
        "| id | unit | P(supported) | verdict | detail |",
        "|---|---|---|---|---|",
    ]
    for r in report.results:
        detail = "; ".join(x for x in (failing_detail(r), error_kinds(r)) if x)
        if not has_components(r):
            lines.append(f"| {r.unit.id} | {_cell(unit_label(r))} | {fmt_prob(r.probability)} | {r.status} | {_cell(detail)} |")
            continue
        # A fact with qualifiers: the fact's row, then one indented row per component.
        u = r.unit
        lines.append(f"| {u.id} | {_cell('fact: ' + ' · '.join(u.parts()))} | "
                     f"{fmt_prob(r.probability)} | {r.status} | {_cell(detail)} |")
        for label, state, prob in component_rows(r):
            cell = f"**{_cell(label)}**" if state == "failing" else _cell(label)
            lines.append(f"| | ↳ {cell} | {fmt_prob(prob)} | {COMPONENT_MARK[state]} | |")
    bad = report.unsupported()
    if bad:
        lines += ["", "## Unsupported spans", ""]
        for r in bad:
            sent = report.document.sentences[r.unit.sentence_index]
            text = sent.text
            failing = [f.span for f in r.failures if f.span is not None]
            for span in sorted(failing or r.unit.spans(), key=lambda s: -s.start):
                s, e = span.start - sent.start, span.end - sent.start
                if 0 <= s <= e <= len(text):
                    text = text[:s] + "**" + text[s:e] + "**" + text[e:]
            lines.append(f"- `{r.unit.id}` {_cell(text)}")
    if report.reflection:
        from factgrain.render.reflection import reflection_lines

        lines += ["", "## Reflection", ""] + [f"- {_cell(x)}" for x in reflection_lines(report)]
    for w in report.warnings:
        lines.append(f"\n> warning: {w}")
    return "\n".join(lines) + "\n"
