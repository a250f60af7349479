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
    tier_line,
    unit_label,
)
from factgrain.schemas.report import Report

STYLE = {"supported": "green", "unsupported": "bold red", "partial": "yellow", "unscored": "dim"}
MARK = {"supported": "✓", "unsupported": "✗", "partial": "◐", "unscored": "?"}
COMPONENT_STYLE = {"failing": "bold red", "supported": "green", "unscored": "dim", "moot": "dim"}


def failing_spans(result) -> list:
    """Where a result fails: a fact's failing components, a QA pair's answer, else its spans."""
    failing = [f.span for f in result.failures if f.span is not None]
    if failing:
        return failing
    main = result.unit.main_span()
    return [main] if main is not None else result.unit.spans()


def highlighted_sentence(report: Report, results: list) -> Text:
    """The sentence once, with every failing span of ``results`` marked «like this» and in red
    (the brackets keep the mark when colour is off, e.g. in a pipe)."""
    sent = report.document.sentences[results[0].unit.sentence_index]
    ranges = sorted((sp.start - sent.start, sp.end - sent.start) for r in results for sp in failing_spans(r))
    merged: list[list[int]] = []
    for s, e in ranges:
        if not 0 <= s <= e <= len(sent.text):
            continue
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    text, pos = Text(), 0
    for s, e in merged:
        text.append(sent.text[pos:s])
        text.append("«" + sent.text[s:e] + "»", style="bold red underline")
        pos = e
    text.append(sent.text[pos:])
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
        table.add_row(r.unit.id, "fact: " + " · ".join(r.unit.parts()),
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
        by_sentence: dict[int, list] = {}
        for r in bad:
            by_sentence.setdefault(r.unit.sentence_index, []).append(r)
        for index, results in sorted(by_sentence.items()):
            ids = ", ".join(r.unit.id for r in results)
            parts.append(Text(f"  sentence {index} ({ids}):", style="dim"))
            line = Text("    ")
            line.append_text(highlighted_sentence(report, results))
            parts.append(line)
    if report.reflection:
        from factgrain.render.reflection import reflection_lines

        parts.append(Text("\nReflection:", style="bold"))
        parts += [Text(f"  {x}", style="cyan") for x in reflection_lines(report)]
    parts.append(Text("\n" + score_line(report), style="bold"))
    if tier_line(report):
        parts.append(Text(tier_line(report), style="dim"))
    for w in report.warnings:
        parts.append(Text(f"warning: {w}", style="yellow"))
    return Group(*parts)


def print_table(report: Report, console: Console | None = None) -> None:
    (console or Console()).print(render_table(report))


def table_text(report: Report, width: int = 120) -> str:
    console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(render_table(report))
    return console.export_text()
