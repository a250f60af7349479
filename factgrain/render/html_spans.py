"""Cut the evaluated text into flat segments for highlighting.

Units overlap (a predicate is shared by all its QA pairs, an answer often contains another QA's
answer), and HTML elements cannot overlap. So every span boundary becomes a cut, and each piece
between two cuts remembers every unit span that covers it. A piece takes the worst status of the
spans that cover it, and lists them all in its detail.
"""

from __future__ import annotations

from dataclasses import dataclass

from factgrain.schemas.report import UnitResult
from factgrain.schemas.units import Claim, HyperRelationalFact, QAPair
from factgrain.schemas.verdicts import VerdictStatus

# Worst first: a word that any unit finds unsupported must show it, and a word no unit could
# score is flagged before one that a unit confirmed.
SEVERITY = {"unsupported": 3, "partial": 2, "unscored": 1, "supported": 0}


@dataclass(frozen=True)
class Mark:
    """One span of one unit. ``status`` is ``None`` for a QA predicate: the predicate is shared
    by several QA pairs, so it is outlined rather than coloured by any one of them."""

    start: int
    end: int
    result_index: int
    role: str  # "answer", "predicate", "base", "qualifier:<i>", "claim"
    status: str | None


@dataclass(frozen=True)
class Segment:
    start: int
    end: int
    marks: tuple[Mark, ...]

    @property
    def status(self) -> str | None:
        """The worst verdict status over the coloured marks; ``None`` if none is coloured."""
        coloured = [m.status for m in self.marks if m.status is not None]
        return max(coloured, key=SEVERITY.__getitem__) if coloured else None

    @property
    def is_predicate(self) -> bool:
        return any(m.role == "predicate" for m in self.marks)


def component_status(result: UnitResult, component: str) -> str:
    """Status of one separately verified part of a unit (``base``, ``qualifier:<i>``, ``unit``)."""
    verdicts = [v for v in result.verdicts if v.component == component]
    scored = [v for v in verdicts if v.status is VerdictStatus.scored]
    if not scored:
        return "unscored"
    if component in result.failing_components or any(v.label == "unsupported" for v in scored):
        return "unsupported"
    return "supported"


def marks_of(result: UnitResult, index: int) -> list[Mark]:
    u = result.unit
    out: list[Mark] = []
    if isinstance(u, QAPair):
        if u.predicate_span:
            out.append(Mark(u.predicate_span.start, u.predicate_span.end, index, "predicate", None))
        if u.answer_span:
            out.append(Mark(u.answer_span.start, u.answer_span.end, index, "answer", result.status))
    elif isinstance(u, HyperRelationalFact):
        base = component_status(result, "base")
        for span in (u.subject_span, u.relation_span, u.object_span):
            if span:
                out.append(Mark(span.start, span.end, index, "base", base))
        for i, q in enumerate(u.qualifiers):
            if q.span:
                name = f"qualifier:{i}"
                out.append(Mark(q.span.start, q.span.end, index, name, component_status(result, name)))
    elif isinstance(u, Claim) and u.span:
        out.append(Mark(u.span.start, u.span.end, index, "claim", result.status))
    return [m for m in out if m.end > m.start]


def segments(text: str, results: list[UnitResult]) -> list[Segment]:
    """Flat, ordered, gap-free pieces covering ``text``; uncovered pieces have no marks.

    Spans that fall outside the text (a stale report) are dropped rather than mis-drawn.
    """
    marks = [m for i, r in enumerate(results) for m in marks_of(r, i) if 0 <= m.start < m.end <= len(text)]
    cuts = sorted({0, len(text), *(m.start for m in marks), *(m.end for m in marks)})
    marks.sort(key=lambda m: (m.start, m.end))
    out, active, nxt = [], [], 0
    for a, b in zip(cuts, cuts[1:]):  # sweep: marks open at their start, close at their end
        while nxt < len(marks) and marks[nxt].start <= a:
            active.append(marks[nxt])
            nxt += 1
        active = [m for m in active if m.end > a]
        out.append(Segment(a, b, tuple(active)))
    return out
