"""A self-contained HTML page for a report (``render_html(report)``, ``factgrain check --format html``)
and for a batch of reports (``render_batch_html``).

The page carries its own CSS and JS inline and a Content-Security-Policy that allows only those two
blocks (by hash) and nothing from the network, so an opened report makes no requests, and text that
slipped past escaping could still not run. All document, reference and model text is escaped.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from importlib import resources
from typing import Any

from factgrain.render.common import tier_line
from factgrain.render.html_reflection import reflection_html
from factgrain.render.html_spans import SEVERITY, Segment, segments
from factgrain.render.html_units import (
    ICON, WORD, anchor, component_label, esc, evidence_html, kind_chip, prob, unit_title, units_section,
)
from factgrain.schemas.report import Report
from factgrain.schemas.units import HyperRelationalFact

TIP_EVIDENCE_CHARS = 320  # the hover card shows a passage's start; the unit list shows all of it


@lru_cache(maxsize=None)
def _asset(name: str) -> str:
    return (resources.files("factgrain.render") / "assets" / name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def _page(title: str, body: str) -> str:
    css, js = _asset("report.css"), _asset("report.js")
    csp = (f"default-src 'none'; style-src {_sha256(css)}; script-src {_sha256(js)}; img-src data:; "
           "base-uri 'none'; form-action 'none'")
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(csp)}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="generator" content="factgrain">'
        f"<title>{esc(title)}</title><style>{css}</style></head>\n"
        f'<body><a class="skip" href="#main">skip to content</a><main id="main" class="fg">{body}</main>'
        f"<script>{js}</script></body></html>\n"
    )


# -- the text with its highlighted spans -------------------------------------------------------

def _mark_line(report: Report, prefix: str, mark, status: str) -> str:
    r = report.results[mark.result_index]
    role = ""
    p = r.probability
    if mark.role == "predicate":
        role = "predicate of "
    elif mark.role == "base" or mark.role.startswith("qualifier:"):
        role = component_label(r, mark.role) + " of "
        p = next((v.probability for v in r.verdicts if v.component == mark.role), None)
    kinds = sorted({v.error_kind for v in r.verdicts if v.error_kind and (v.component == mark.role or mark.role in ("answer", "predicate", "claim"))})
    return (f'<span class="tline s-{esc(status)}"><span class="ticon" aria-hidden="true">{ICON[status]}</span>'
            f'<span class="twhat"><span class="sr">{esc(WORD[status])}: </span>{esc(role)}{unit_title(r)}</span>'
            f'{prob(p)}{"".join(kind_chip(k) for k in kinds)}</span>')


def _tip(report: Report, prefix: str, seg: Segment, tip_id: str) -> str:
    seen: dict[tuple[int, str], Any] = {}
    for m in seg.marks:
        seen.setdefault((m.result_index, m.role), m)
    marks = sorted(seen.values(), key=lambda m: (-SEVERITY[m.status or report.results[m.result_index].status], m.result_index))
    lines = [_mark_line(report, prefix, m, m.status or report.results[m.result_index].status) for m in marks]
    # Evidence: the passages behind the least supported units first, each passage once.
    passages, shown = [], set()
    for m in marks:
        r = report.results[m.result_index]
        for v in r.verdicts:
            if m.role not in ("answer", "predicate", "claim") and v.component != m.role:
                continue
            key = tuple(ev.text for ev in v.evidence)
            if key and key not in shown and len(passages) < 2:
                shown.add(key)
                passages.append(evidence_html(v, limit=TIP_EVIDENCE_CHARS))
    n = len({m.result_index for m in seg.marks})
    head = f'{n} unit{"s" if n != 1 else ""} on these words'
    ev = f'<span class="tsub">evidence</span>{"".join(passages)}' if passages else ""
    return (f'<span class="tip" role="tooltip" id="{esc(tip_id)}"><span class="tsub">{head}</span>'
            f'{"".join(lines)}{ev}<span class="thint">Enter: go to the unit · Esc: hide</span></span>')


def text_html(report: Report, prefix: str) -> str:
    text = report.text
    segs = segments(text, report.results)
    out = []
    for i, seg in enumerate(segs):
        piece = esc(text[seg.start:seg.end])
        if not seg.marks:
            out.append(piece)
            continue
        status = seg.status
        nxt = segs[i + 1] if i + 1 < len(segs) else None
        classes = ["seg", f"s-{status}" if status else "s-none"]
        if seg.is_predicate:
            classes.append("pred")
        if status and status != "supported" and (nxt is None or nxt.status != status):
            classes.append("run-end")  # the status icon goes once, after a run of equal status
        ids = sorted({m.result_index for m in seg.marks})
        first = min(seg.marks, key=lambda m: (-SEVERITY[m.status or "supported"], m.result_index))
        target = anchor(prefix, report.results[first.result_index].unit.id)
        tip_id = f"{prefix}tip-{i}"
        out.append(
            f'<span class="{" ".join(classes)}" tabindex="0" data-r="{" ".join(map(str, ids))}" '
            f'data-target="{esc(target)}" aria-describedby="{esc(tip_id)}">'
            f'<span class="segtext">{piece}</span>{_tip(report, prefix, seg, tip_id)}</span>'
        )
    return "".join(out)


LEGEND = (
    '<ul class="legend" aria-label="legend">'
    '<li><span class="seg s-supported demo">supported</span> solid underline</li>'
    '<li><span class="seg s-unsupported run-end demo">not supported</span> wavy underline, hatched, ✗</li>'
    '<li><span class="seg s-partial run-end demo">partly supported</span> dashed underline, ◐ (a fact whose qualifier fails)</li>'
    '<li><span class="seg s-unscored run-end demo">unscored</span> dotted underline, ?</li>'
    '<li><span class="seg s-none pred demo">predicate</span> framed, bold</li>'
    "</ul>"
)


# -- scores, run details, reflection ------------------------------------------------------------

def _num(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def _card(label: str, value: str, sub: str = "", cls: str = "") -> str:
    sub = f'<span class="muted">{sub}</span>' if sub else ""
    return f'<div class="card {cls}"><span class="label">{label}</span><span class="value">{value}</span>{sub}</div>'


def scores_html(report: Report) -> str:
    s = report.scores
    failed = getattr(s, "failed_sentences", 0)
    if s.status != "ok":
        why = ("the decomposition produced no units" if s.status == "no_units" else f"all {s.units} units are unscored")
        cards = [_card("consistency", "–", f"no score: {esc(why)}", "big")]
    else:
        cards = [_card("consistency", _num(s.consistency), f"{s.supported_units} of {s.scored_units} scored units supported", "big")]
    for status, n in (("unsupported", s.unsupported_units), ("unscored", s.unscored_units), ("supported", s.supported_units)):
        cards.append(_card(f'<span aria-hidden="true">{ICON[status]}</span> {esc(WORD[status])}', str(n), cls=f"s-{status}"))
    if failed:
        cards.append(_card("sentences not decomposed", str(failed), "see the warnings", "s-unscored"))
    if s.triqua is not None and report.method.startswith("triqua"):
        cards.append(_card("TriQuaScore", _num(s.triqua), "fact precision, partial credit"))
    if s.aggregate:
        others = " · ".join(f"{esc(k)} {_num(v)}" for k, v in s.aggregate.items())
        cards.append(_card("P(supported) aggregates", others, cls="agg"))
    if s.label:
        cards.append(_card(f"verdict at threshold {report.threshold:g}",
                           f'<span aria-hidden="true">{ICON.get(s.label, "")}</span> {esc(WORD.get(s.label, s.label))}',
                           cls=f"s-{esc(s.label)} outcome"))
    return f'<div class="cards">{"".join(cards)}</div>'


def _kv(rows: list[tuple[str, str]]) -> str:
    return '<table class="kv">' + "".join(f'<tr><th scope="row">{esc(k)}</th><td>{v}</td></tr>' for k, v in rows) + "</table>"


def details_html(report: Report) -> str:
    rows = [("model", f"<code>{esc(report.model)}</code>"), ("backend", esc(report.backend)),
            ("verifier", esc(report.verifier)), ("method", esc(report.method)),
            ("threshold", esc(f"{report.threshold:g}")), ("schema version", esc(report.schema_version))]
    if tier_line(report):
        rows.append(("tier", esc(tier_line(report))))
    rows += [(f"prompt {k}", f"<code>{esc(v)}</code>") for k, v in sorted(report.prompt_versions.items())]
    u = report.usage
    rows.append(("usage", esc(f"{u.calls} calls · {u.prompt_tokens} prompt + {u.completion_tokens} completion tokens"
                              f" · {u.cached_tokens} cached · {u.cache_hits} cache hits")))
    if report.timings:
        rows.append(("timings", esc(" · ".join(f"{k.removesuffix('_s')} {v:.2f}s" for k, v in report.timings.items()))))
    return _kv(rows)


def reference_html(report: Report) -> str:
    ref = report.reference
    if isinstance(ref, str):
        body = f'<div class="reftext">{esc(ref)}</div>'
    else:
        body = "".join(f'<h3>{esc(src.get("id", i))}</h3><div class="reftext">{esc(src.get("text", ""))}</div>'
                       for i, src in enumerate(ref))
    return f'<details class="panel ref"><summary><h2>Reference</h2></summary>{body}</details>'


# -- one report --------------------------------------------------------------------------------

def report_body(report: Report, prefix: str = "") -> str:
    """Everything inside <main> for one report; ``prefix`` keeps element ids unique in a batch."""
    p = esc(prefix)
    title = "factgrain report" + (f" · {report.id}" if report.id else "")
    question = (f'<p class="question"><span class="label">question</span> {esc(report.question)}</p>'
                if report.question else "")
    warnings = "".join(f'<p class="warning" role="note">warning: {esc(w)}</p>' for w in report.warnings)
    has_facts = any(isinstance(r.unit, HyperRelationalFact) for r in report.results)
    unit_note = ("Each fact is a base triple plus qualifiers, verified separately; a failing component is marked."
                 if has_facts else "Units are grouped by the predicate they ask about.")
    return (
        f'<header class="top"><h1>{esc(title)}</h1>'
        f'<p class="subtitle">{esc(report.method)} · <code>{esc(report.model)}</code> · verifier {esc(report.verifier)}</p>'
        f"{scores_html(report)}{warnings}</header>"
        f'<section class="panel" aria-labelledby="{p}text"><h2 id="{p}text">Text</h2>{LEGEND}{question}'
        f'<div class="doc" data-tips>{text_html(report, prefix)}</div>'
        f'<p class="hint">Hover or focus (Tab) a highlighted passage to see its units, probabilities and evidence.</p></section>'
        f'<section class="panel" aria-labelledby="{p}units"><h2 id="{p}units">Units</h2><p class="muted">{esc(unit_note)}</p>'
        f"{units_section(report.results, prefix)}</section>"
        + reflection_html(report.reflection, prefix)
        + reference_html(report)
        + f'<section class="panel" aria-labelledby="{p}run"><h2 id="{p}run">Run</h2>{details_html(report)}</section>'
    )


def render_html(report: Report) -> str:
    title = f"factgrain report · {report.id or report.method}"
    return _page(title, report_body(report))


# -- many reports ------------------------------------------------------------------------------

def _batch_row(i: int, item: Any) -> str:
    link = f'<a href="#item-{i}">{esc(getattr(item, "id", None) or f"item {i + 1}")}</a>'
    if not isinstance(item, Report):
        msg = f"{type(item).__name__}: {item}"
        return (f'<tr class="err"><td data-sort="{i}">{i + 1}</td><td data-sort="">{esc(f"item {i + 1}")}</td>'
                f'<td data-sort="">–</td><td data-sort="-1">–</td><td data-sort="-1">–</td><td data-sort="-1">–</td>'
                f'<td data-sort="error" colspan="1"><span class="chip s-unscored">error</span> {esc(msg[:200])}</td></tr>')
    s = item.scores
    excerpt = item.text if len(item.text) <= 110 else item.text[:110].rstrip() + " …"
    label = s.label or ("no score" if s.consistency is None else "–")
    chip = f'<span class="chip s-{esc(s.label)}">{ICON.get(s.label, "")} {esc(WORD.get(s.label, s.label))}</span>' if s.label else esc(label)
    cons = "" if s.consistency is None else f"{s.consistency:.4f}"
    return (f'<tr><td data-sort="{i}">{i + 1}</td><td data-sort="{esc(item.id or "")}">{link}</td>'
            f'<td data-sort="{esc(item.text[:200])}" class="excerpt">{esc(excerpt)}</td>'
            f'<td data-sort="{cons}" class="num">{_num(s.consistency)}</td>'
            f'<td data-sort="{s.unsupported_units}" class="num">{s.unsupported_units}</td>'
            f'<td data-sort="{s.units}" class="num">{s.units}</td><td data-sort="{esc(label)}">{chip}</td></tr>')


def render_batch_html(reports: list[Any]) -> str:
    """One page for many checks: a sortable table of every item with its score, linking to each
    item's full view further down. Entries may be errors (``check_many`` returns them in place)."""
    ok = [r for r in reports if isinstance(r, Report)]
    scored = [r.scores.consistency for r in ok if r.scores.consistency is not None]
    mean = sum(scored) / len(scored) if scored else None
    cols = ["#", "id", "text", "consistency", "not supported", "units", "verdict"]
    kinds = ["num", "text", "text", "num", "num", "num", "text"]
    head = "".join(f'<th scope="col" aria-sort="none" data-kind="{k}"><button type="button">{esc(c)}</button></th>'
                   for c, k in zip(cols, kinds))
    rows = "".join(_batch_row(i, r) for i, r in enumerate(reports))
    summary = (f'<p class="subtitle">{len(reports)} items · {len(ok)} checked · {len(reports) - len(ok)} failed · '
               f'mean consistency {_num(mean)} over {len(scored)} scored</p>')
    views = []
    for i, r in enumerate(reports):
        if isinstance(r, Report):
            inner = report_body(r, prefix=f"i{i}-")
        else:
            inner = f'<h1>item {i + 1}</h1><p class="warning">{esc(type(r).__name__)}: {esc(r)}</p>'
        views.append(f'<article class="item" id="item-{i}" tabindex="-1">'
                     f'<p class="back"><a href="#batch">↑ all items</a></p>{inner}</article>')
    body = (f'<header class="top" id="batch"><h1>factgrain batch report</h1>{summary}</header>'
            f'<section class="panel"><table class="batch sortable"><caption class="sr">items; '
            f"select a column header to sort</caption><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></section>"
            + "".join(views))
    return _page(f"factgrain batch report · {len(reports)} items", body)
