"""HTML for the reflection trace (Decomposition Dilemmas): per round the scope, the errors found
(by category, from the lint and from the model), the judgment, and what happened to the units.

Rounds are read as plain dicts (``ReflectionRound.model_dump``), so the page renders traces
from older or newer schema versions too; keys it does not know are shown generically.
"""

from __future__ import annotations

from typing import Any

from factgrain.render.html_units import esc

CATEGORY = {"omission": "A · omission", "ambiguity": "B · ambiguity",
            "over_decomposition": "C · over-decomposition", "alteration": "D · alteration of meaning"}
KNOWN = {"round", "sentence_indices", "scope_text", "input_units", "lint", "llm_errors", "judgment", "reasoning",
         "proposed_units", "output_units", "action", "reason", "prompt_version"}


def as_data(value: Any) -> Any:
    return value.model_dump(mode="json") if hasattr(value, "model_dump") else value


def generic_html(value: Any, depth: int = 0) -> str:
    """Any JSON-like value (or Pydantic model) as nested tables and lists, escaped."""
    value = as_data(value)
    if depth > 6:
        return f"<code>{esc(value)}</code>"
    if isinstance(value, dict):
        if not value:
            return '<span class="muted">none</span>'
        rows = "".join(f'<tr><th scope="row">{esc(k)}</th><td>{generic_html(v, depth + 1)}</td></tr>' for k, v in value.items())
        return f'<table class="kv">{rows}</table>'
    if isinstance(value, (list, tuple)):
        if not value:
            return '<span class="muted">none</span>'
        return '<ol class="plain">' + "".join(f"<li>{generic_html(v, depth + 1)}</li>" for v in value) + "</ol>"
    if isinstance(value, bool) or value is None:
        return f"<code>{esc(value)}</code>"
    if isinstance(value, float):
        return esc(f"{value:.3g}")
    return esc(value)


def unit_text(unit: Any) -> str:
    """One line for a unit given as a dict (its ``kind`` decides the shape)."""
    u = as_data(unit)
    if not isinstance(u, dict):
        return esc(u)
    kind = u.get("kind")
    if kind == "qa":
        return f'{esc(u.get("question"))} → <b>{esc(u.get("answer"))}</b>'
    if kind == "fact":
        quals = "; ".join(f'{q.get("type")}: {q.get("value")}' for q in u.get("qualifiers") or [] if isinstance(q, dict))
        return esc(f'({u.get("subject")}; {u.get("relation")}; {u.get("object")})' + (f" [{quals}]" if quals else ""))
    if kind == "claim":
        return esc(u.get("text"))
    return generic_html(u)


def _units(units: list[Any], title: str) -> str:
    items = "".join(f'<li><span class="uid">{esc(as_data(u).get("id", "") if isinstance(as_data(u), dict) else "")}</span> {unit_text(u)}</li>'
                    for u in units)
    return f'<div class="ucol"><h4>{esc(title)} ({len(units)})</h4><ul class="plain">{items or "<li class=muted>none</li>"}</ul></div>'


def _errors(errors: list[dict]) -> str:
    if not errors:
        return '<p class="muted">no decomposition errors found</p>'
    rows = []
    for e in sorted(errors, key=lambda e: (str(e.get("category")), str(e.get("subtype")))):
        cat = str(e.get("category", ""))
        units = ", ".join(map(str, e.get("unit_ids") or [])) or "–"
        rows.append(f'<tr><td>{esc(CATEGORY.get(cat, cat))}</td><td>{esc(str(e.get("subtype", "")).replace("_", " "))}</td>'
                    f'<td class="uid">{esc(units)}</td><td>{esc(e.get("explanation", ""))}</td>'
                    f'<td><span class="src">{esc(e.get("source", ""))}</span></td></tr>')
    return ('<table class="errors"><thead><tr><th scope="col">category</th><th scope="col">error</th>'
            '<th scope="col">units</th><th scope="col">explanation</th><th scope="col">found by</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def round_html(i: int, item: Any) -> str:
    data = as_data(item)
    if not isinstance(data, dict):
        return f'<section class="round"><h3>step {i + 1}</h3>{generic_html(data)}</section>'
    label = f'round {esc(data["round"])}' if "round" in data else f"step {i + 1}"
    sents = data.get("sentence_indices") or []
    where = f' <span class="muted">sentence{"s" if len(sents) > 1 else ""} {esc(", ".join(str(s + 1) for s in sents))}</span>' if sents else ""
    badges = ""
    if data.get("judgment") is not None:
        badges += f' <span class="judgment">{esc(data["judgment"])}</span>'
    if data.get("action"):
        badges += f' <span class="action a-{esc(data["action"])}">{esc(data["action"])}</span>'
    parts = [f"<h3>{label}{where}{badges}</h3>"]
    if data.get("scope_text"):
        parts.append(f'<blockquote class="evidence">{esc(data["scope_text"])}</blockquote>')
    if "lint" in data or "llm_errors" in data:
        errors = [as_data(e) for e in (data.get("lint") or []) + (data.get("llm_errors") or [])]
        parts.append(_errors([e for e in errors if isinstance(e, dict)]))
    if data.get("reasoning"):
        parts.append(f'<p><span class="muted">reasoning:</span> {esc(data["reasoning"])}</p>')
    if data.get("reason"):
        parts.append(f'<p><span class="muted">outcome:</span> {esc(data["reason"])}</p>')
    if "input_units" in data or "output_units" in data:
        cols = _units(data.get("input_units") or [], "before") + _units(data.get("output_units") or [], "after")
        if data.get("proposed_units") and data.get("proposed_units") != data.get("output_units"):
            cols += _units(data["proposed_units"], "proposed")
        parts.append(f'<details class="sub"><summary>units before and after</summary><div class="ucols">{cols}</div></details>')
    if data.get("prompt_version"):
        parts.append(f'<p class="muted">prompt {esc(data["prompt_version"])}</p>')
    rest = {k: v for k, v in data.items() if k not in KNOWN}
    if rest:
        parts.append(generic_html(rest))
    return f'<section class="round">{"".join(parts)}</section>'


def summary(rounds: list[dict]) -> str:
    """'N rounds · errors by category · judgments' over the whole trace."""
    cats: dict[str, int] = {}
    judgments: dict[str, int] = {}
    for d in rounds:
        for e in (d.get("lint") or []) + (d.get("llm_errors") or []):
            e = as_data(e)
            if isinstance(e, dict):
                cat = str(e.get("category", "?"))
                cats[cat] = cats.get(cat, 0) + 1
        if d.get("judgment"):
            judgments[str(d["judgment"])] = judgments.get(str(d["judgment"]), 0) + 1
    n_rounds = len({d.get("round") for d in rounds})
    bits = [f"{n_rounds} round{'s' if n_rounds != 1 else ''}, {len(rounds)} scope{'s' if len(rounds) != 1 else ''} reflected on"]
    bits.append("errors: " + (", ".join(f"{CATEGORY.get(c, c)} {n}" for c, n in sorted(cats.items())) or "none"))
    if judgments:
        bits.append("judgments: " + ", ".join(f"{j} {n}" for j, n in judgments.items()))
    return f'<p class="muted">{esc(" · ".join(bits))}</p>'


def reflection_html(reflection: list[Any], prefix: str = "") -> str:
    if not reflection:
        return ""
    data = [as_data(x) for x in reflection]
    p = esc(prefix)
    body = summary([d for d in data if isinstance(d, dict)]) + "".join(round_html(i, d) for i, d in enumerate(data))
    return f'<section class="panel" aria-labelledby="{p}refl"><h2 id="{p}refl">Reflection</h2>{body}</section>'
