import base64
import hashlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factgrain.render.html import render_batch_html, render_html
from factgrain.render.html_reflection import reflection_html
from factgrain.render.html_spans import SEVERITY, segments
from factgrain.schemas.report import UnitResult
from factgrain.schemas.spans import Span
from factgrain.schemas.units import Claim
from tests.render.dom import parse
from tests.render.reports import FACT_TEXT, HOSTILE, SENTENCE, fact_report, hostile_report, measles_report

# Everything the page may contain; user text that turned into markup would add tags or handlers.
ALLOWED_TAGS = {
    "#root", "html", "head", "meta", "title", "style", "body", "a", "main", "header", "h1", "h2", "h3", "h4", "p",
    "section", "article", "div", "span", "b", "strong", "code", "pre", "ul", "ol", "li", "table", "caption", "thead",
    "tbody", "tr", "th", "td", "details", "summary", "blockquote", "cite", "meter", "button", "script",
}


@pytest.fixture(scope="module")
def measles():
    return measles_report()


@pytest.fixture(scope="module")
def measles_dom(measles):
    return parse(render_html(measles))


def _sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# -- escaping ----------------------------------------------------------------------------------

def test_markup_in_every_input_renders_as_text():
    report = hostile_report()
    page = render_html(report)
    dom = parse(page)
    tags = {n.tag for n in dom.iter()}
    assert tags <= ALLOWED_TAGS, tags - ALLOWED_TAGS
    scripts = dom.find_all("script")
    assert len(scripts) == 1 and "alert" not in scripts[0].text()  # only the page's own script
    assert not [n for n in dom.iter() for a in n.attrs if a.startswith("on")]
    for raw in ("<script>alert", "<img", "<svg", "<iframe", "<i>", "<b>letter", "<b>x</b>"):
        assert raw not in page, raw  # no fragment of user markup survives unescaped
    doc = dom.find_all("div", "doc")[0]
    assert doc.text(skip=frozenset({"tip", "sr"})) == HOSTILE  # the literal characters, once
    body = dom.find_all("main")[0].text()
    for literal in ("<script>alert(1)</script>", "<svg onload=alert(4)>", "</style><script>alert(5)</script>",
                    "<script>alert(6)</script>", "<iframe src=javascript:alert(7)>", "What did <i>Eve</i> write?",
                    "<script>alert(3)</script>"):
        assert literal in body, literal


def test_no_external_urls_or_assets_and_csp_pins_the_inline_blocks(measles_dom, measles):
    page = render_html(measles)
    for n in measles_dom.iter():
        for name in ("href", "src", "action", "srcset", "poster", "data"):
            value = n.attrs.get(name)
            assert value is None or (name == "href" and value.startswith("#")), (n.tag, name, value)
    style = measles_dom.find_all("style")[0].text()
    script = measles_dom.find_all("script")[0].text()
    assert "url(" not in style and "@import" not in style and "http" not in style
    assert not re.search(r"https?:|//[a-z]", script.replace("// ", "")), "no URL in the script"
    csp = next(n.attrs["content"] for n in measles_dom.find_all("meta") if n.attrs.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp
    assert f"style-src {_sha(style)}" in csp and f"script-src {_sha(script)}" in csp
    assert "<link" not in page and "<iframe" not in page


# -- structure ---------------------------------------------------------------------------------

def test_every_unsupported_span_is_highlighted_and_the_text_is_intact(measles, measles_dom):
    doc = measles_dom.find_all("div", "doc")[0]
    assert doc.text(skip=frozenset({"tip", "sr"})) == SENTENCE  # overlaps neither drop nor repeat text
    bad = [n for n in doc.find_all("span", "seg") if "s-unsupported" in n.classes]
    runs = "|".join(n.find_all("span", "segtext")[0].text() for n in bad)
    assert runs == "of measles|how he got the illness"
    assert [r.unit.answer for r in measles.unsupported()] == ["of measles", "how he got the illness"]
    # each run ends with the icon cue, drawn once per run
    assert all("run-end" in n.classes for n in bad)


def test_spans_are_focusable_and_describe_their_units(measles_dom):
    ids = [n.attrs["id"] for n in measles_dom.iter() if "id" in n.attrs]
    assert len(ids) == len(set(ids)), "element ids are unique"
    segs = measles_dom.find_all("div", "doc")[0].find_all("span", "seg")
    assert segs
    for seg in segs:
        assert seg.attrs["tabindex"] == "0"
        tip_id = seg.attrs["aria-describedby"]
        tip = [n for n in seg.iter() if n.attrs.get("id") == tip_id]
        assert tip and tip[0].attrs.get("role") == "tooltip"
        assert seg.attrs["data-target"] in ids
    of_measles = next(s for s in segs if s.find_all("span", "segtext")[0].text() == "of measles")
    tip = of_measles.find_all("span", "tip")[0].text()
    # three units cover these words: the unsupported one first, with probability and evidence
    assert tip.index("what did someone die of?") < tip.index("what has been opened?")
    assert "P 0.07" in tip and "what has been adjourned?" in tip
    assert "Colfer-Williams" in tip and "intrinsic" in tip


def test_units_are_grouped_per_predicate_with_error_kinds(measles_dom):
    groups = measles_dom.find_all("section", "group")
    heads = [g.find_all("h3")[0].text() for g in groups]
    assert [h.split()[1] for h in heads] == ["opened", "adjourned", "died", "failed", "establish"]
    died = groups[2]
    assert len(died.find_all("li", "unit")) == 2
    kinds = {n.text() for n in measles_dom.find_all("span") if n.classes & {"k-intrinsic", "k-extrinsic"}}
    assert kinds == {"intrinsic", "extrinsic"}


def test_scores_model_backend_verifier_and_prompt_versions_are_shown(measles, measles_dom):
    text = measles_dom.find_all("main")[0].text()
    assert "0.67" in text and "4 of 6 scored units supported" in text
    assert "TriQuaScore" not in text  # a QA-pair check: the fact score would mislead
    run = measles_dom.find_all("table", "kv")[-1].text()
    for value in (measles.model, measles.backend, measles.verifier, *measles.prompt_versions.values()):
        assert value in run


def test_reflection_trace_rounds_categories_and_judgments(measles_dom):
    refl = next(s for s in measles_dom.find_all("section", "panel") if s.find_all("h2")[0].text() == "Reflection")
    text = refl.text()
    assert "2 rounds" in text and "B · ambiguity 1" in text and "A · omission 1" in text
    assert "Problematic" in text and "Good" in text and "rejected" in text
    assert len(refl.find_all("section", "round")) == 2


def test_reflection_accepts_plain_dicts_and_unknown_keys():
    out = reflection_html([{"round": 1, "judgment": "Good", "errors": {"x": ["<y>"]}, "new_field": 0.123456}])
    dom = parse(out)
    text = dom.text()
    assert "Good" in text and "new_field" in text and "0.123" in text and "<y>" in text
    assert not dom.find_all("y")


def test_fact_marks_the_failing_qualifier_and_colours_each_component():
    dom = parse(render_html(fact_report()))
    rows = dom.find_all("tr", "failing-row")
    assert len(rows) == 1 and "temporal qualifier" in rows[0].text() and "1911" in rows[0].text()
    segs = {s.find_all("span", "segtext")[0].text(): s.classes for s in dom.find_all("div", "doc")[0].find_all("span", "seg")}
    assert "s-unsupported" in segs["in 1911"]
    assert all("s-supported" in segs[w] for w in ("Marie Curie", "won", "in Stockholm"))
    assert "TriQuaScore" in dom.text() and "0.75" in dom.text()
    assert dom.find_all("div", "doc")[0].text(skip=frozenset({"tip", "sr"})) == FACT_TEXT


# -- overlapping spans -------------------------------------------------------------------------

def _claim(i: int, start: int, end: int, text: str, status: str) -> UnitResult:
    span = Span(start=start, end=end, text=text[start:end])
    return UnitResult(unit=Claim(id=f"c{i}", sentence_index=0, text=span.text, span=span), verdicts=[], status=status)


def test_nested_and_crossing_spans_become_flat_pieces_with_the_worst_status():
    text = "abcdefghij"
    results = [_claim(0, 0, 6, text, "supported"), _claim(1, 2, 4, text, "unsupported"), _claim(2, 3, 8, text, "unscored")]
    segs = segments(text, results)
    assert [(s.start, s.end, s.status) for s in segs] == [
        (0, 2, "supported"), (2, 3, "unsupported"), (3, 4, "unsupported"), (4, 6, "unscored"), (6, 8, "unscored"), (8, 10, None)]
    assert [sorted(m.result_index for m in s.marks) for s in segs] == [[0], [0, 1], [0, 1, 2], [0, 2], [2], []]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30), st.sampled_from(sorted(SEVERITY))), max_size=8))
def test_segments_partition_the_text_and_list_exactly_the_covering_spans(raw):
    text = "x" * 25
    results = [_claim(i, min(a, b), max(a, b), text, s) for i, (a, b, s) in enumerate(raw) if max(a, b) <= len(text)]
    segs = segments(text, results)
    assert segs[0].start == 0 and segs[-1].end == len(text)
    assert all(a.end == b.start and a.start < a.end for a, b in zip(segs, segs[1:]))
    for seg in segs:
        expected = {i for i, r in enumerate(results)
                    if r.unit.span.start < r.unit.span.end and r.unit.span.start <= seg.start and seg.end <= r.unit.span.end}
        assert {m.result_index for m in seg.marks} == expected
        statuses = [results[i].status for i in expected]
        assert seg.status == (max(statuses, key=SEVERITY.__getitem__) if statuses else None)


def test_spans_outside_the_text_are_dropped():
    stale = _claim(0, 4, 9, "long enough text", "unsupported")  # from a longer text than the report's
    segs = segments("short", [stale, _claim(1, 0, 2, "short", "supported")])
    assert [(s.start, s.end, [m.result_index for m in s.marks]) for s in segs] == [(0, 2, [1]), (2, 5, [])]


# -- batch -------------------------------------------------------------------------------------

def test_batch_page_lists_every_item_sortably_and_links_to_its_view(measles):
    from factgrain.errors import InputError

    items = [measles, fact_report(), InputError("empty <text>")]
    page = render_batch_html(items)
    dom = parse(page)
    ids = [n.attrs["id"] for n in dom.iter() if "id" in n.attrs]
    assert len(ids) == len(set(ids)), "item views keep their element ids apart"
    table = dom.find_all("table", "sortable")[0]
    rows = table.find_all("tbody")[0].find_all("tr")
    assert len(rows) == 3
    assert [b.text() for b in table.find_all("button")][:4] == ["#", "id", "text", "consistency"]
    assert all(th.attrs.get("aria-sort") == "none" for th in table.find_all("th"))
    links = [a.attrs["href"] for a in table.find_all("a")]
    assert links == ["#item-0", "#item-1"] and all(h[1:] in ids for h in links)
    assert "item-2" in ids and "empty <text>" in rows[2].text()
    assert rows[0].find_all("td")[3].attrs["data-sort"] == f"{measles.scores.consistency:.4f}"
    assert "mean consistency 0.33 over 2 scored" in dom.text()


def test_cli_emit_writes_the_html_page(tmp_path, measles):
    from factgrain.commands.check import emit

    out = tmp_path / "report.html"
    emit(measles, "html", str(out))
    assert out.read_text(encoding="utf-8") == render_html(measles)
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
