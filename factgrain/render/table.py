"""Terminal table: every unit with its verdict; unsupported spans highlighted in their sentence."""

from __future__ import annotations

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from factgrain.render.common import (
    COMPONENT_MARK,
    component_rows,
    error_kinds,
    failing_detail,
    fmt_prob,
    has_components,
    score_line,
    unit_label,
)
from factgrain.schemas.report import Report

STYLE = {"supported": "green", "unsupported": "bold red", "partial": "yellow", "unscored": "dim"}
MARK = {"supported": "✓", "unsupported": "✗", "partial": "◐", "unscored": "?"}
COMPONENT_STYLE = {"failing": "bold red", "supported": "green", "unscored": "dim", "moot": "dim"}


def highlighted_sentence(report: Report, result) -> Text:
    sent = report.document.sentences[result.unit.sentence_index]
    text = Text(sent.text)
    # A fact names its failing components: mark just those, not the whole fact.
    failing = [f.span for f in result.failures if f.span is not None]
    for span in failing or result.unit.spans():
        s, e = span.start - sent.start, span.end - sent.start
        if 0 <= s <= e <= len(sent.text):
            text.stylize("bold red underline" if result.status != "supported" else "green", s, e)
    return text


def render_table(report: Report) -> Group:
    table = Table(title=f"factgrain · {report.method} · {report.model} · verifier {report.verifier}", show_lines=False)
    table.add_column("id", style="dim", no_wrap=True)
    table.add_column("unit")
    table.add_column("P(sup)", justify="right")
    table.add_column("verdict")
    for r in report.results:
        verdict = Text(f"{MARK[r.status]} {r.status}", style=STYLE[r.status])
        detail = failing_detail(r)
        kinds = error_kinds(r)
        if detail:
            verdict.append(f"\n{detail}", style="yellow")
        if kinds:
            verdict.append(f"\n{kinds}", style="magenta")
        if r.status == "unscored":
            reason = next((v.reason for v in r.verdicts if v.reason), "")
            verdict.append(f"\n{reason[:60]}", style="dim")
        if not has_components(r):
            table.add_row(r.unit.id, unit_label(r), fmt_prob(r.probability), verdict)
            continue
        # A fact with qualifiers: one row for the fact, then its components grouped under it.
        table.add_row(r.unit.id, f"fact: {r.unit.subject} · {r.unit.relation} · {r.unit.object}",
                      fmt_prob(r.probability), verdict)
        rows = component_rows(r)
        for i, (label, state, prob) in enumerate(rows):
            branch = "└" if i == len(rows) - 1 else "├"
            style = COMPONENT_STYLE[state]
            table.add_row("", Text(f"  {branch} {label}", style=style), fmt_prob(prob),
                          Text(COMPONENT_MARK[state], style=style))
    parts: list = [table]
    bad = report.unsupported()
    if bad:
        parts.append(Text("\nWhere the text is not supported:", style="bold"))
        for r in bad:
            line = Text(f"  {r.unit.id}  ")
            line.append_text(highlighted_sentence(report, r))
            parts.append(line)
    if report.reflection:
        from factgrain.render.reflection import reflection_lines

        parts.append(Text("\nReflection:", style="bold"))
        parts += [Text(f"  {x}", style="cyan") for x in reflection_lines(report)]
    parts.append(Text("\n" + score_line(report), style="bold"))
    for w in report.warnings:
        parts.append(Text(f"warning: {w}", style="yellow"))
    return Group(*parts)


def print_table(report: Report, console: Console | None = None) -> None:
    (console or Console()).print(render_table(report))


def table_text(report: Report, width: int = 120) -> str:
    console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(render_table(report))
    return console.export_text()
