"""HTML for the units of a report: grouped per predicate (QA pairs), per fact (TriQua, with the
failing component marked), or per sentence (claims), each with its verdicts and evidence.

Every piece of text that came from the evaluated document, the reference or a model goes through
``esc``; nothing here builds markup from unescaped input.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from factgrain.render.html_spans import component_status
from factgrain.schemas.report import UnitResult
from factgrain.schemas.units import Claim, HyperRelationalFact, PredicateType, QAPair
from factgrain.schemas.verdicts import UnitVerdict, VerdictStatus

ICON = {"supported": "✓", "unsupported": "✗", "partial": "◐", "unscored": "?"}
WORD = {"supported": "supported", "unsupported": "not supported", "partial": "partly supported", "unscored": "unscored"}
KIND_HELP = {
    "extrinsic": "extrinsic: the reference never mentions this (added information)",
    "intrinsic": "intrinsic: the reference mentions it but says something else (misrepresented)",
}
PROMPT_CHARS = 2000  # per prompt message; the JSON report keeps the full text


def esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def anchor(prefix: str, unit_id: str) -> str:
    """A document-unique element id for a unit (unit ids repeat across the items of a batch)."""
    return f"{prefix}u-{''.join(c if c.isalnum() or c in '-_.' else '_' for c in unit_id)}"


def chip(status: str) -> str:
    return f'<span class="chip s-{esc(status)}"><span aria-hidden="true">{ICON.get(status, "?")}</span> {esc(WORD.get(status, status))}</span>'


def prob(p: float | None) -> str:
    if p is None:
        return '<span class="prob none">P –</span>'
    return f'<span class="prob" title="P(supported)">P {p:.2f}<meter min="0" max="1" low="0.5" optimum="1" value="{p:.3f}"></meter></span>'


def kind_chip(kind: str | None) -> str:
    if not kind:
        return ""
    return f'<span class="kind k-{esc(kind)}" title="{esc(KIND_HELP.get(kind, kind))}">{esc(kind)}</span>'


def unit_title(result: UnitResult) -> str:
    """A one-line, escaped statement of the unit."""
    u = result.unit
    if isinstance(u, QAPair):
        noun = (f' <span class="muted">(of &lsquo;{esc(u.predicate)}&rsquo;)</span>'
                if u.predicate_type == PredicateType.nominal and u.predicate else "")
        return f'{esc(u.question)} <span class="arrow" aria-label="answer">→</span> <b>{esc(u.answer)}</b>{noun}'
    if isinstance(u, HyperRelationalFact):
        return f'({esc(u.subject)}; {esc(u.relation)}; {esc(u.object)})'
    assert isinstance(u, Claim)
    return esc(u.text)


def component_label(result: UnitResult, component: str) -> str:
    u = result.unit
    if component == "base":
        return "base triple"
    if component.startswith("qualifier:") and isinstance(u, HyperRelationalFact):
        i = int(component.split(":")[1])
        if i < len(u.qualifiers):
            return f"{u.qualifiers[i].type.value} qualifier “{u.qualifiers[i].value}”"
    return component


def evidence_html(verdict: UnitVerdict, limit: int | None = None) -> str:
    parts = []
    for ev in verdict.evidence:
        where = [f"source {ev.source_id}"]
        if ev.passage_index is not None:
            where.append(f"passage {ev.passage_index}")
        if ev.start is not None and ev.end is not None:
            where.append(f"chars {ev.start}–{ev.end}")
        if ev.score is not None:
            where.append(f"retrieval score {ev.score:.2f}")
        text = ev.text if limit is None or len(ev.text) <= limit else ev.text[:limit].rstrip() + " …"
        parts.append(f'<blockquote class="evidence"><cite>{esc(" · ".join(where))}</cite>{esc(text)}</blockquote>')
    return "".join(parts) or '<p class="muted">no evidence passage recorded</p>'


def verdict_html(result: UnitResult, v: UnitVerdict) -> str:
    status = (
        "unscored" if v.status is VerdictStatus.unscored else ("supported" if v.label == "supported" else "unsupported")
    )
    head = [chip(status), prob(v.probability), kind_chip(v.error_kind), f'<span class="muted">{esc(v.verifier)} verifier</span>']
    if v.component != "unit":
        head.insert(0, f'<span class="comp">{esc(component_label(result, v.component))}</span>')
    body = []
    if v.reason:
        body.append(f'<p class="reason">why unscored: {esc(v.reason)}</p>')
    if v.hard_answer_only:
        body.append('<p class="muted">the backend returned no logprobs: this is the hard Yes/No answer, not a probability</p>')
    if v.error_kind:
        body.append(f'<p class="muted">{esc(KIND_HELP.get(v.error_kind, v.error_kind))}</p>')
    body.append(evidence_html(v))
    if v.raw_reply is not None:
        body.append(f'<p class="reply">verifier reply: <code>{esc(v.raw_reply)}</code></p>')
    if v.features:
        rows = "".join(f"<tr><th>{esc(k)}</th><td>{val:.3f}</td></tr>" for k, val in v.features.items())
        body.append(f'<details class="sub"><summary>verifier features</summary><table class="kv">{rows}</table></details>')
    if v.prompt:
        msgs = []
        for m in v.prompt:
            content = str(m.get("content", ""))
            cut = f"\n… ({len(content)} characters; the JSON report has all)" if len(content) > PROMPT_CHARS else ""
            msgs.append(f'<div class="msg"><span class="role">{esc(m.get("role", ""))}</span><pre>{esc(content[:PROMPT_CHARS] + cut)}</pre></div>')
        body.append(f'<details class="sub"><summary>prompt</summary>{"".join(msgs)}</details>')
    return f'<div class="verdict"><div class="vhead">{" ".join(h for h in head if h)}</div>{"".join(body)}</div>'


def unit_item(result: UnitResult, index: int, prefix: str) -> str:
    u = result.unit
    detail = ""
    if isinstance(u, HyperRelationalFact):
        detail = fact_components(result)
    kinds = sorted({v.error_kind for v in result.verdicts if v.error_kind})
    return (
        f'<li class="unit s-{esc(result.status)}" id="{esc(anchor(prefix, u.id))}" data-r="{index}">'
        f'<div class="uhead">{chip(result.status)}<span class="ustmt">{unit_title(result)}</span>'
        f'{prob(result.probability)}{"".join(kind_chip(k) for k in kinds)}<span class="uid">{esc(u.id)}</span></div>'
        f"{detail}"
        f'<details class="more"><summary>verdicts and evidence</summary>'
        f'{"".join(verdict_html(result, v) for v in result.verdicts) or "<p class=muted>no verdict</p>"}</details></li>'
    )


def fact_components(result: UnitResult) -> str:
    """The base triple and each qualifier with its own status; failing ones are marked."""
    u = result.unit
    assert isinstance(u, HyperRelationalFact)
    rows = []
    names = ["base"] + [f"qualifier:{i}" for i in range(len(u.qualifiers))]
    for name in names:
        st = component_status(result, name)
        if name == "base":
            what, value = "base triple", u.triple()
        else:
            q = u.qualifiers[int(name.split(":")[1])]
            what, value = f"{q.type.value} qualifier", q.value
        failing = name in result.failing_components
        flag = ' <strong class="failing">◀ failing</strong>' if failing else ""
        rows.append(f'<tr class="s-{st}{" failing-row" if failing else ""}"><th scope="row">{esc(what)}</th>'
                    f"<td>{esc(value)}</td><td>{chip(st)}{flag}</td></tr>")
    return f'<table class="components"><caption class="sr">components of fact {esc(u.id)}</caption>{"".join(rows)}</table>'


def _status_counts(results: Iterable[UnitResult]) -> str:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    order = ["unsupported", "partial", "unscored", "supported"]
    return " ".join(
        f'<span class="count s-{s}" title="{esc(WORD[s])}"><span aria-hidden="true">{ICON[s]}</span> {counts[s]}'
        f'<span class="sr"> {esc(WORD[s])}</span></span>'
        for s in order if counts.get(s)
    )


def groups(results: list[UnitResult]) -> list[tuple[str, list[UnitResult]]]:
    """(heading, results): QA pairs per predicate occurrence, a fact per group, claims per sentence."""
    keyed: dict[tuple, list[UnitResult]] = {}
    headings: dict[tuple, str] = {}
    for r in results:
        u = r.unit
        if isinstance(u, QAPair):
            key = ("qa", u.sentence_index, u.predicate_span.start if u.predicate_span else u.predicate)
            headings[key] = (f'predicate <b class="pred">{esc(u.predicate)}</b> '
                             f'<span class="muted">{esc(u.predicate_type.value)} · sentence {u.sentence_index + 1}</span>')
        elif isinstance(u, HyperRelationalFact):
            key = ("fact", u.id)
            headings[key] = f'fact <span class="muted">{esc(u.id)} · sentence {u.sentence_index + 1}</span>'
        else:
            key = ("claim", u.sentence_index)
            headings[key] = f'claims <span class="muted">sentence {u.sentence_index + 1}</span>'
        keyed.setdefault(key, []).append(r)
    return [(headings[k], rs) for k, rs in keyed.items()]


def units_section(results: list[UnitResult], prefix: str) -> str:
    if not results:
        return '<p class="muted">The decomposition produced no units, so nothing was verified.</p>'
    index = {id(r): i for i, r in enumerate(results)}
    out = []
    for heading, rs in groups(results):
        items = "".join(unit_item(r, index[id(r)], prefix) for r in rs)
        out.append(f'<section class="group"><h3>{heading} <span class="counts">{_status_counts(rs)}</span></h3>'
                   f'<ul class="units">{items}</ul></section>')
    return "".join(out)
