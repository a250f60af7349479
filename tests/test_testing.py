"""factgrain.testing: assert_consistent passes on a grounded text and fails on an ungrounded one with
a message naming the unsupported spans, their units, P(supported) and evidence; the pytest fixture
works in a real pytest run. Everything runs the real default (offline) check - no double."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from factgrain.render.common import unit_label
from factgrain.testing import ConsistencyAssertionError, assert_consistent

REPO = Path(__file__).resolve().parents[1]
REFERENCE = "The Eiffel Tower was completed in 1889. It is 330 metres tall and stands in Paris."
GROUNDED = "The Eiffel Tower was completed in 1889."
WRONG = "The Eiffel Tower was completed in 1925 and stands in Rome."


def test_a_grounded_text_passes_and_returns_its_report():
    report = assert_consistent(GROUNDED, REFERENCE)
    assert report.scores.consistency == 1.0 and report.results


def test_an_ungrounded_text_fails_with_its_spans_units_and_evidence():
    with pytest.raises(AssertionError) as info:
        assert_consistent(WRONG, REFERENCE)
    err = info.value
    assert isinstance(err, ConsistencyAssertionError)
    message, report = str(err), err.report
    bad = report.unsupported()
    assert bad and report.scores.consistency < 1.0
    assert message.startswith("the text is not consistent with its reference: consistency")
    assert "below min_score 1.00" in message
    spans = message.split("unsupported spans", 1)[1]
    assert "1925" in spans and "Rome" in spans and "1889." not in spans.split("evidence")[0]
    for r in bad:  # every failing unit is named with its probability
        assert f"unit {r.unit.id} ({r.status}): {unit_label(r)}  P(supported)={r.probability:.2f}" in message
    assert "evidence (source 0): 'The Eiffel Tower was completed in 1889." in message
    # the same text passes when the bar is its own score
    assert assert_consistent(WRONG, REFERENCE, min_score=report.scores.consistency).scores.consistency == \
        report.scores.consistency


def test_min_score_is_checked():
    with pytest.raises(ValueError, match="min_score"):
        assert_consistent(GROUNDED, REFERENCE, min_score=2)


def test_the_pytest_fixture_in_a_real_pytest_run(tmp_path):
    (tmp_path / "test_generated.py").write_text(textwrap.dedent(f"""
        REFERENCE = {REFERENCE!r}

        def test_grounded(assert_consistent):
            assert_consistent({GROUNDED!r}, REFERENCE)

        def test_wrong(assert_consistent):
            assert_consistent({WRONG!r}, REFERENCE)
    """))
    env = {**os.environ, "PYTHONPATH": str(REPO), "FACTGRAIN_PROGRESS": "0"}
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "factgrain.testing", "-q", "-p", "no:cacheprovider",
                          "--factgrain-min-score", "0.9", str(tmp_path / "test_generated.py")],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert "1 failed, 1 passed" in out.stdout, out.stdout + out.stderr
    assert "ConsistencyAssertionError: the text is not consistent with its reference" in out.stdout
    assert "below min_score 0.90" in out.stdout and "unsupported spans" in out.stdout
