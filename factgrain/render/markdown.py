"""Markdown rendering of a Report."""

from __future__ import annotations

from factgrain.render.common import error_kinds, failing_detail, fmt_prob, score_line, unit_label
from factgrain.schemas.report import Report


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report) -> str:
    lines = [
        f"# factgrain report ({report.method})",
        "",
        f"- model: `{report.model}` · verifier: `{report.verifier}` · schema {report.schema_version}",
        f"- {score_line(report)}",
        "",
        "| id | unit | P(supported) | verdict | detail |",
        "|---|---|---|---|---|",
    ]
    for r in report.results:
        detail = "; ".join(x for x in (failing_detail(r), error_kinds(r)) if x)
        lines.append(f"| {r.unit.id} | {_cell(unit_label(r))} | {fmt_prob(r.probability)} | {r.status} | {_cell(detail)} |")
    bad = report.unsupported()
    if bad:
        lines += ["", "## Unsupported spans", ""]
        for r in bad:
            sent = report.document.sentences[r.unit.sentence_index]
            text = sent.text
            for span in sorted(r.unit.spans(), key=lambda s: -s.start):
                s, e = span.start - sent.start, span.end - sent.start
                if 0 <= s <= e <= len(text):
                    text = text[:s] + "**" + text[s:e] + "**" + text[e:]
            lines.append(f"- `{r.unit.id}` {_cell(text)}")
    for w in report.warnings:
        lines.append(f"\n> warning: {w}")
    return "\n".join(lines) + "\n"
