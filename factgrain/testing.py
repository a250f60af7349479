"""Consistency assertions for test suites, and a pytest plugin.

    from factgrain.testing import assert_consistent

    def test_summary_is_grounded():
        assert_consistent(summary, source, min_score=1.0)

A failing assertion raises ``AssertionError`` whose message lists every unsupported span with the
unit that failed, its P(supported), the error kind and the evidence it was checked on, so a
generation test fails like any other test. The check is :func:`factgrain.check` with the same
options (``method``, ``model``, ``verifier``, ``calibration`` ...); with no model configured it
runs offline.

The pytest plugin adds a fixture ``assert_consistent`` (the same function, with defaults from the
command line: ``--factgrain-model``, ``--factgrain-method``, ``--factgrain-min-score``). Enable it
with ``pytest_plugins = ["factgrain.testing"]`` in a top-level ``conftest.py`` (or ``pytest -p
factgrain.testing``); an installed factgrain also registers it through the ``pytest11`` entry point.
"""

from __future__ import annotations

from typing import Any

__all__ = ["assert_consistent", "consistency_failure", "ConsistencyAssertionError"]

EVIDENCE_CHARS = 240  # of each evidence passage in the message; the report holds all of it


class ConsistencyAssertionError(AssertionError):
    """A text that did not check out; ``report`` is the full :class:`factgrain.schemas.Report`."""

    def __init__(self, message: str, report: Any):
        super().__init__(message)
        self.report = report


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _spans(result: Any) -> list[Any]:
    """Where a result fails: a fact's failing components, else the unit's main span, else its spans."""
    failing = [f.span for f in result.failures if f.span is not None]
    if failing:
        return failing
    main = result.unit.main_span()
    return [main] if main is not None else list(result.unit.spans())


def consistency_failure(report: Any, *, min_score: float) -> str | None:
    """The assertion message for ``report``, or ``None`` when it passes (a score, at least ``min_score``)."""
    from factgrain.render.common import error_kinds, failing_detail, fmt_prob, score_line, unit_label

    s = report.scores
    if s.consistency is not None and s.consistency >= min_score:
        return None
    why = (f"consistency {s.consistency:.2f} is below min_score {min_score:.2f}" if s.consistency is not None
           else "no score could be computed")
    lines = [f"the text is not consistent with its reference: {why}",
             f"  {score_line(report)}; method {report.method}, verifier {report.verifier}, model {report.model}"]
    bad = report.unsupported()
    if bad:
        lines.append(f"unsupported spans ({len(bad)} unit{'s' if len(bad) != 1 else ''}):")
    for n, r in enumerate(bad, start=1):
        spans = _spans(r)
        where = ", ".join(f"{report.text[sp.start:sp.end]!r} at {sp.start}-{sp.end}" for sp in spans) or "(no span)"
        lines.append(f"  {n}. {where}")
        kinds = error_kinds(r)
        detail = failing_detail(r)
        lines.append(f"     unit {r.unit.id} ({r.status}): {unit_label(r)}  P(supported)={fmt_prob(r.probability)}"
                     + (f"  [{kinds}]" if kinds else "") + (f"  failing: {detail}" if detail else ""))
        shown = set()
        for v in r.verdicts:
            for ev in v.evidence[:1]:  # the passage the verdict leaned on
                key = (ev.source_id, ev.text)
                if key in shown:
                    continue
                shown.add(key)
                lines.append(f"     evidence (source {ev.source_id}): {_clip(ev.text, EVIDENCE_CHARS)!r}")
    unscored = [r for r in report.results if r.status == "unscored"]
    if unscored:
        reasons = sorted({v.reason for r in unscored for v in r.verdicts if v.reason})
        lines.append(f"unscored units: {len(unscored)}" + (f" ({'; '.join(reasons)[:300]})" if reasons else ""))
    for w in report.warnings:
        lines.append(f"warning: {w}")
    return "\n".join(lines)


def assert_consistent(text: str, reference: Any, *, min_score: float = 1.0, method: str = "qasem",
                      model: Any = None, question: str | None = None, **check_options: Any) -> Any:
    """Check ``text`` against ``reference`` and raise :class:`ConsistencyAssertionError` (an
    AssertionError) unless its consistency - the share of scored units that are supported - is at
    least ``min_score``. A text with no scored unit fails too: nothing was shown to be supported.
    Returns the Report when it passes. ``check_options`` go to :func:`factgrain.check`."""
    from factgrain.agent.evaluator import Evaluator, run_sync

    if not 0.0 <= min_score <= 1.0:
        raise ValueError(f"min_score must be between 0 and 1, got {min_score}")
    # what factgrain.check does (the package's __init__ is the public face, not imported from inside)
    report = run_sync(Evaluator(model, method=method, **check_options).acheck(text, reference, question=question))
    message = consistency_failure(report, min_score=min_score)
    if message is not None:
        raise ConsistencyAssertionError(message, report)
    return report


# --------------------------------------------------------------------------- pytest plugin


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("factgrain", "factgrain consistency assertions")
    group.addoption("--factgrain-model", default=None,
                    help="provider/model the assert_consistent fixture checks with (default: factgrain's own)")
    group.addoption("--factgrain-method", default="qasem", help="decomposition method (default: qasem)")
    group.addoption("--factgrain-min-score", type=float, default=1.0,
                    help="consistency a text needs to pass (default: 1.0)")


def _fixture(request: Any) -> Any:
    cfg = request.config
    defaults = {"model": cfg.getoption("--factgrain-model"), "method": cfg.getoption("--factgrain-method"),
                "min_score": cfg.getoption("--factgrain-min-score")}

    def bound(text: str, reference: Any, **options: Any) -> Any:
        return assert_consistent(text, reference, **{**defaults, **options})

    return bound


try:  # the fixture exists only where pytest does; the assertion itself needs no pytest
    import pytest as _pytest
except ImportError:  # pragma: no cover
    pass
else:
    assert_consistent_fixture = _pytest.fixture(name="assert_consistent")(_fixture)
