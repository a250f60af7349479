"""The report page in a real headless Chromium: highlighted spans, hover and keyboard detail, no
network, no script from the evaluated text. Screenshots go to ``artifacts/html-report/``.

Needs Debian's ``chromium`` (``scripts/setup-browser.sh``); skipped with the reason when absent.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factgrain.render.html import render_batch_html, render_html
from tests.render.chromium import Chromium, find_chromium
from tests.render.reports import HOSTILE, fact_report, hostile_report, measles_report

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("FACTGRAIN_ARTIFACTS", REPO / "artifacts")) / "html-report"
CHROMIUM = find_chromium()
if CHROMIUM is None and os.environ.get("FACTGRAIN_REQUIRE_BROWSER") == "1":
    raise RuntimeError("FACTGRAIN_REQUIRE_BROWSER=1 but no Chromium found: run scripts/setup-browser.sh")
if CHROMIUM is None:
    pytest.skip("Chromium not found (install the Debian packages chromium and chromium-driver: "
                "scripts/setup-browser.sh)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser():
    with Chromium(CHROMIUM) as c:
        yield c


def _open(browser, tmp_path: Path, name: str, html: str, width: int = 1200, height: int = 900):
    path = tmp_path / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    page = browser.new_page(width, height)
    page.goto(path.as_uri())
    assert page.js("document.documentElement.getAttribute('data-fg-ready')") == "1", "the page script ran under its CSP"
    return page, path


def _center(page, selector: str, index: int = 0) -> tuple[float, float]:
    box = page.js(f"""(() => {{ const e = document.querySelectorAll({json.dumps(selector)})[{index}];
        e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2]; }})()""")
    return box[0], box[1]


TIP_STATE = """(() => { const e = document.querySelectorAll(%s)[%d].querySelector(':scope > .tip');
    const r = e.getBoundingClientRect(); const top = document.elementFromPoint(r.x + r.width / 2, r.y + 12);
    return {display: getComputedStyle(e).display, left: r.left, right: r.right, width: innerWidth,
            onTop: !!top && e.contains(top), text: e.innerText}; })()"""


def _no_network(page, own: Path) -> None:
    urls = [e["request"]["url"] for e in page.events("Network.requestWillBeSent")]
    assert urls and all(u == own.as_uri() for u in urls), urls


def _csp_complaints(page) -> list[str]:
    return [e["entry"]["text"] for e in page.events("Log.entryAdded") if "Content Security Policy" in e["entry"]["text"]]


def test_measles_report_highlights_unsupported_spans_and_shows_detail_on_hover(browser, tmp_path):
    report = measles_report()
    page, path = _open(browser, tmp_path, "measles", render_html(report))
    bad = page.js("[...document.querySelectorAll('.doc .seg.s-unsupported .segtext')].map(e => e.textContent)")
    assert bad == ["of measles", "how he got the illness"]
    # colour plus a second cue: the underline style differs by verdict, and unsupported is hatched
    cues = page.js("""(() => { const s = sel => getComputedStyle(document.querySelector('.doc .seg.' + sel));
        return {bad: s('s-unsupported').textDecorationStyle, good: s('s-supported').textDecorationStyle,
                hatch: s('s-unsupported').backgroundImage,
                icon: getComputedStyle(document.querySelector('.doc .seg.s-unsupported.run-end'), '::after').content}; })()""")
    assert cues["bad"] == "wavy" and cues["good"] == "solid" and "gradient" in cues["hatch"] and "✗" in cues["icon"]
    page.screenshot(ARTIFACTS / "measles.png", full_page=True)

    sel = ".doc .seg.s-unsupported"
    assert page.js(TIP_STATE % (json.dumps(sel), 0))["display"] == "none"
    page.hover(*_center(page, sel, 0))
    time.sleep(0.1)
    tip = page.js(TIP_STATE % (json.dumps(sel), 0))
    assert tip["display"] == "block" and tip["onTop"], tip
    assert 0 <= tip["left"] and tip["right"] <= tip["width"], "the card stays inside the window"
    assert "what did someone die of?" in tip["text"] and "P 0.07" in tip["text"] and "Colfer-Williams" in tip["text"]
    page.screenshot(ARTIFACTS / "measles-hover.png")
    page.hover(1, 1)
    _no_network(page, path)
    assert _csp_complaints(page) == []


def test_keyboard_reaches_spans_and_opens_their_unit(browser, tmp_path):
    page, _ = _open(browser, tmp_path, "measles-keys", render_html(measles_report()))
    for _ in range(8):  # skip link first, then the passages in text order
        page.press("Tab", "Tab", 9)
        if page.js("document.activeElement.classList.contains('seg')"):
            break
    active = page.js("({cls: document.activeElement.className, tip: getComputedStyle(document.activeElement.querySelector(':scope > .tip')).display,"
                     " target: document.activeElement.dataset.target})")
    assert "seg" in active["cls"] and active["tip"] == "block"
    page.press("Escape", "Escape", 27)
    assert page.js("getComputedStyle(document.activeElement.querySelector(':scope > .tip')).display") == "none"
    page.press("Enter", "Enter", 13)
    assert page.js("document.activeElement.id") == active["target"]
    assert page.js("document.activeElement.querySelector('details.more').open") is True


def test_fact_report_marks_the_failing_qualifier(browser, tmp_path):
    page, _ = _open(browser, tmp_path, "fact", render_html(fact_report()))
    assert page.js("[...document.querySelectorAll('.doc .seg.s-unsupported .segtext')].map(e => e.textContent)") == ["in 1911"]
    assert "temporal qualifier" in page.js("document.querySelector('tr.failing-row').innerText")
    page.hover(*_center(page, ".doc .seg.s-unsupported"))
    time.sleep(0.1)
    page.screenshot(ARTIFACTS / "fact-hover.png")


def test_script_in_the_text_stays_text(browser, tmp_path):
    page, path = _open(browser, tmp_path, "hostile", render_html(hostile_report()))
    assert page.js("document.querySelector('.doc').innerText") == HOSTILE  # shown as typed, hidden cards aside
    assert "<script>alert(1)</script>" in page.js("document.querySelector('.doc .seg.s-unsupported .segtext').textContent")
    assert page.js("document.scripts.length") == 1 and page.js("document.images.length") == 0
    assert page.js("document.querySelectorAll('svg, iframe, i').length") == 0
    assert page.events("Page.javascriptDialogOpening") == [], "no alert() ran"
    _no_network(page, path)
    page.screenshot(ARTIFACTS / "hostile.png", full_page=True)


def test_batch_table_sorts_and_links(browser, tmp_path):
    reports = [measles_report(), fact_report(), hostile_report()]
    page, _ = _open(browser, tmp_path, "batch", render_batch_html(reports))
    order = "[...document.querySelectorAll('table.batch tbody tr')].map(r => r.cells[0].textContent)"
    assert page.js(order) == ["1", "2", "3"]
    page.js("document.querySelectorAll('table.batch th button')[3].click()")  # consistency, ascending
    assert page.js(order)[-1] == "1"
    assert page.js("document.querySelectorAll('table.batch th')[3].getAttribute('aria-sort')") == "ascending"
    page.js("document.querySelectorAll('table.batch th button')[3].click()")
    assert page.js(order)[0] == "1"
    page.screenshot(ARTIFACTS / "batch.png")
    page.js("document.querySelector('table.batch tbody a[href=\"#item-1\"]').click()")
    assert page.js("location.hash") == "#item-1"
    assert page.js("document.getElementById('item-1').getBoundingClientRect().top") < 50


@pytest.mark.embedded
@pytest.mark.slow
def test_cli_measles_example_opens_in_chromium(browser, tmp_path):
    """The real command with the bundled model (demo-quality judgments: only structure is checked)."""
    out = tmp_path / "report.html"
    env = {**os.environ, "FACTGRAIN_EMBEDDED_THREADS": os.environ.get("FACTGRAIN_EMBEDDED_THREADS", "1"),
           "FACTGRAIN_PROGRESS": "0"}
    proc = subprocess.run([sys.executable, "-m", "factgrain", "check", "--example", "measles", "--format", "html",
                           "--output", str(out)], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    page = browser.new_page()
    page.goto(out.as_uri())
    assert page.js("document.documentElement.getAttribute('data-fg-ready')") == "1"
    n_units = page.js("document.querySelectorAll('li.unit').length")
    n_segs = page.js("document.querySelectorAll('.doc .seg').length")
    assert n_units > 0 and n_segs > 0
    _no_network(page, out)
    page.screenshot(ARTIFACTS / "measles-cli.png", full_page=True)
