"""Self-critique loop: check a text, have the LLM rewrite only the spans found unsupported, check
again, and repeat until the score reaches a target, the rounds run out, or a round stops helping.

A round cannot win by making the text longer: it is judged on the units of the text it rewrote
(like with like), each followed into the new text through the edit offsets. A unit outside every
edit keeps its verdict; a unit inside an edit is *removed* when its words were deleted (or the
replacement holds no unit the re-check finds), *fixed* when every unit the re-check finds in the
replacement is supported, and *still unsupported* otherwise. A round is accepted only if every unit flagged before is fixed or removed and no unit
that was supported is lost. The loop stops and says it could not fix the text when a flagged span
survives the rewrite unchanged or the text grows past ``MAX_GROWTH`` times the original.

Every round is kept (text, score, localized errors, the edits applied and a unified diff), so the
caller can show how the text changed and why. Edits are span replacements at the offsets the
checker reported, so text outside the problem spans cannot change.
"""

from __future__ import annotations

import difflib
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from factgrain.backends.base import Backend
from factgrain.errors import FactgrainError
from factgrain.prompts import defuse
from factgrain.prompts.revise import REVISE
from factgrain.schemas.report import Report, UnitResult

StopReason = Literal["target_reached", "no_errors", "max_rounds", "no_improvement", "no_edits", "unscored",
                     "reviser_failed", "could_not_fix"]
_EVIDENCE_CHARS = 500
MAX_GROWTH = 1.5  # a rewrite longer than this times the original is padding, not a fix


class SpanEdit(BaseModel):
    """One replacement for one numbered problem."""

    problem: int = Field(description="The number of the problem this edit fixes.")
    scope: Literal["span", "sentence"] = Field(
        default="span", description="'span' replaces the quoted span; 'sentence' replaces its whole sentence.")
    replacement: str = Field(description="The new wording; an empty string deletes the span.")

    @field_validator("problem")
    @classmethod
    def _known(cls, value: int, info: ValidationInfo) -> int:
        n = (info.context or {}).get("problems")
        if n is not None and not 1 <= value <= n:
            raise ValueError(f"problem must be one of the numbers 1..{n} listed in <units>")
        return value


class RevisionEdits(BaseModel):
    """The edits that repair the listed problems, one per problem number."""

    edits: list[SpanEdit] = Field(default_factory=list)


class Problem(BaseModel):
    """One span of the text that the checker could not support, with what was said about it."""

    number: int
    start: int
    end: int
    text: str
    sentence_index: int
    statements: list[str]
    error_kind: str | None = None
    evidence: str | None = None


class RevisionRound(BaseModel):
    round: int
    text: str
    score: float | None
    errors: list[dict[str, Any]] = Field(default_factory=list, description="localized unsupported spans")
    edits: list[dict[str, Any]] = Field(default_factory=list, description="edits applied to reach this text")
    diff: str = Field(default="", description="unified diff from the previous accepted round")
    accepted: bool = True
    reason: str = Field(default="", description="why the round was accepted or rejected")
    like_score: float | None = Field(default=None, description="share of the previous round's units supported "
                                     "after the rewrite (removed units left out): the score that decides")
    outcomes: dict[str, str] = Field(default_factory=dict, description="previous round's unit id -> kept, fixed, "
                                     "removed, still_unsupported or lost")
    report: Report | None = None


class Revision(BaseModel):
    rounds: list[RevisionRound]
    best_round: int
    stop_reason: StopReason
    target: float
    error: str | None = Field(default=None, description="why the reviser failed, when it did")
    note: str | None = Field(default=None, description="what could not be fixed, when the loop stopped short")

    @property
    def text(self) -> str:
        return self.rounds[self.best_round].text

    @property
    def score(self) -> float | None:
        return self.rounds[self.best_round].score

    def diff(self) -> str:
        """Unified diff from the original text to the best revision."""
        return unified_diff(self.rounds[0].text, self.text, "original", f"round {self.best_round}")


def _score(report: Report, key: str) -> float | None:
    return report.scores.triqua if key == "triqua" else report.scores.consistency


def localized_errors(report: Report) -> list[dict[str, Any]]:
    out = []
    for problem in find_problems(report):
        out.append({"start": problem.start, "end": problem.end, "text": problem.text,
                    "sentence_index": problem.sentence_index, "statements": problem.statements,
                    "error_kind": problem.error_kind})
    return out


def _component_span(result: UnitResult, name: str, report: Report) -> tuple[int, int]:
    comps = {c.name: c for c in result.unit.components()}
    comp = comps.get(name)
    span = (comp.span if comp is not None and comp.span is not None else None) or result.unit.main_span()
    if span is not None:
        return span.start, span.end
    sentence = report.document.sentences[result.unit.sentence_index]
    return sentence.start, sentence.end


def find_problems(report: Report) -> list[Problem]:
    """Unsupported units / components as numbered, non-overlapping spans of the text."""
    raw: list[dict[str, Any]] = []
    whole_reference = report.reference if isinstance(report.reference, str) else None
    for result in report.unsupported():
        names = result.failing_components or [c.name for c in result.unit.components()]
        comps = {c.name: c for c in result.unit.components()}
        for name in names:
            start, end = _component_span(result, name, report)
            verdict = next((v for v in result.verdicts if v.component == name), None)
            evidence = None
            if verdict is not None and verdict.evidence:
                passage = verdict.evidence[0].text
                if passage != whole_reference:  # the whole reference is already in the prompt
                    evidence = passage[:_EVIDENCE_CHARS]
            statement = comps[name].statement if name in comps else result.unit.statement()
            raw.append({"start": start, "end": end, "sentence_index": result.unit.sentence_index,
                        "statements": [statement], "error_kind": verdict.error_kind if verdict else None,
                        "evidence": evidence})
    raw.sort(key=lambda p: (p["start"], -p["end"]))
    merged: list[dict[str, Any]] = []
    for p in raw:
        if merged and p["start"] < merged[-1]["end"]:  # overlapping spans become one problem
            last = merged[-1]
            last["end"] = max(last["end"], p["end"])
            last["statements"] += [s for s in p["statements"] if s not in last["statements"]]
            last["error_kind"] = last["error_kind"] or p["error_kind"]
            last["evidence"] = last["evidence"] or p["evidence"]
        else:
            merged.append(p)
    return [Problem(number=i + 1, text=report.text[p["start"]:p["end"]], **p) for i, p in enumerate(merged)]


def problems_block(problems: list[Problem], report: Report) -> str:
    lines = []
    for p in problems:
        sentence = report.document.sentences[p.sentence_index].text
        kind = {"intrinsic": "the reference says something different",
                "extrinsic": "the reference does not mention it"}.get(p.error_kind or "", "not supported by the reference")
        lines.append(f"[{p.number}] span: \"{defuse(p.text)}\"")
        lines.append(f"    in sentence: \"{defuse(sentence)}\"")
        lines.append(f"    why: {kind}")
        for s in p.statements:
            lines.append(f"    unsupported: {defuse(s)}")
        if p.evidence:
            lines.append(f"    closest reference passage: \"{defuse(p.evidence)}\"")
    return "\n".join(lines)


def apply_edits(report: Report, problems: list[Problem], edits: list[SpanEdit]) -> tuple[str, list[dict[str, Any]]]:
    """Apply edits at the reported offsets, right to left; an edit overlapping an earlier one is skipped."""
    text = report.text
    by_number = {p.number: p for p in problems}
    targets = []
    for edit in edits:
        p = by_number.get(edit.problem)
        if p is None:
            continue
        if edit.scope == "sentence":
            s = report.document.sentences[p.sentence_index]
            start, end = s.start, s.end
        else:
            start, end = p.start, p.end
        targets.append((start, end, edit))
    targets.sort(key=lambda t: (t[0], -t[1]))
    chosen: list[tuple[int, int, SpanEdit]] = []
    for t in targets:
        if chosen and t[0] < chosen[-1][1]:
            continue
        chosen.append(t)
    applied = []
    for start, end, edit in reversed(chosen):
        replacement = edit.replacement.strip()
        if not replacement and start > 0 and text[start - 1] == " " and (end == len(text) or text[end] in " .,;:!?"):
            start -= 1  # deleting a span: do not leave a double space or a space before punctuation
        applied.append({"problem": edit.problem, "scope": edit.scope, "start": start, "end": end,
                        "old": text[start:end], "new": replacement})
        text = text[:start] + replacement + text[end:]
    return text, list(reversed(applied))


def unified_diff(old: str, new: str, old_name: str, new_name: str) -> str:
    """A unified diff with one sentence per line, so a one-paragraph text still diffs readably."""
    import re

    def lines(t: str) -> list[str]:
        return [s + "\n" for s in re.split(r"(?<=[.!?])\s+", t.strip()) if s]

    return "".join(difflib.unified_diff(lines(old), lines(new), fromfile=old_name, tofile=new_name))


def _round(index: int, report: Report, key: str, **kw: Any) -> RevisionRound:
    return RevisionRound(round=index, text=report.text, score=_score(report, key), errors=localized_errors(report),
                         report=report, **kw)


async def arevise(text: str, reference: Any, *, question: str | None = None, model: Any = None,
                  reviser_model: Any = None, target: float = 1.0, max_rounds: int = 3, score: str = "consistency",
                  evaluator: Any = None, **options: Any) -> Revision:
    """Check ``text``, rewrite the unsupported spans, re-check, repeat (see the module docstring).

    ``model`` and ``options`` configure the checking Evaluator (or pass ``evaluator=``);
    ``reviser_model`` writes the edits (default: the Evaluator's decomposition backend).
    """
    from factgrain.agent.evaluator import Evaluator
    from factgrain.backends.registry import get_backend

    ev = evaluator or Evaluator(model, **options)
    reviser: Backend = get_backend(reviser_model) if reviser_model is not None else ev.decomposer_backend
    try:
        return await _revise(ev, reviser, text, reference, question=question, target=target, max_rounds=max_rounds,
                             score=score)
    finally:  # close what was built here, inside this loop (a caller's evaluator stays open for them)
        if reviser_model is not None:
            await reviser.aclose()
        if evaluator is None:
            await ev.aclose()


async def _revise(ev: Any, reviser: Backend, text: str, reference: Any, *, question: str | None, target: float,
                  max_rounds: int, score: str) -> Revision:
    report = await ev.acheck(text, reference, question=question)
    rounds = [_round(0, report, score)]
    best = 0
    stop: StopReason | None = None
    error: str | None = None
    note: str | None = None
    for index in range(1, max_rounds + 1):
        current = rounds[best]
        if current.score is None:
            stop = "unscored"
            break
        if current.score >= target:
            stop = "target_reached"
            break
        problems = find_problems(current.report)
        if not problems:
            stop = "no_errors"
            break
        messages = REVISE.render(reference=defuse(_reference_text(current.report)), text=defuse(current.text),
                                 problems=problems_block(problems, current.report))
        try:
            obj, _ = await reviser.structured(messages, RevisionEdits, context={"problems": len(problems)},
                                              max_tokens=200 + 120 * len(problems))
        except FactgrainError as exc:  # keep the rounds so far; say why
            stop, error = "reviser_failed", str(exc)
            break
        new_text, applied = apply_edits(current.report, problems, obj.edits)
        if new_text.strip() == current.text.strip() or not new_text.strip():
            stop, note = "no_edits", ("could not fix: the reviser's edits leave the text " +
                                      ("empty" if not new_text.strip() else "as it was"))
            break
        survivors = surviving_spans(problems, applied)
        if survivors:
            stop, note = "could_not_fix", ("could not fix: the flagged span(s) " + ", ".join(repr(t) for t in survivors)
                                           + " survive the rewrite unchanged")
            break
        if len(new_text) > MAX_GROWTH * len(rounds[0].text):
            stop, note = "could_not_fix", (f"could not fix: the rewrite grew the text from {len(rounds[0].text)} to "
                                           f"{len(new_text)} characters (bound {MAX_GROWTH}x)")
            break
        new_report = await ev.acheck(new_text, reference, question=question)
        outcomes = follow_units(current.report, new_report, applied)
        accepted, why, like = judge_round(current.report, outcomes)
        rounds.append(_round(index, new_report, score, edits=applied, accepted=accepted, reason=why, like_score=like,
                             outcomes=outcomes,
                             diff=unified_diff(current.text, new_text, f"round {current.round}", f"round {index}")))
        if not accepted:
            stop, note = "no_improvement", "could not fix: " + why
            break
        best = len(rounds) - 1
    if stop is None:
        last = rounds[best].score
        stop = "target_reached" if last is not None and last >= target else "max_rounds"
    if note is None and stop == "max_rounds" and rounds[best].errors:
        note = f"could not fix {len(rounds[best].errors)} unsupported span(s) in {max_rounds} round(s)"
    return Revision(rounds=rounds, best_round=best, stop_reason=stop, target=target, error=error, note=note)


# -- judging a round like with like ----------------------------------------------------------------
def _region(unit: Any, report: Report) -> tuple[int, int]:
    spans = unit.spans()
    if spans:
        return min(sp.start for sp in spans), max(sp.end for sp in spans)
    sentence = report.document.sentences[unit.sentence_index]
    return sentence.start, sentence.end


def surviving_spans(problems: list[Problem], applied: list[dict[str, Any]]) -> list[str]:
    """Flagged spans the rewrite left as they were: no edit touched them, or an edit's new words
    still hold them (a 'fix' that repeats the sentence, wrong detail included)."""
    out = []
    for p in problems:
        hits = [e for e in applied if e["start"] < p.end and e["end"] > p.start]
        if not hits or any(p.text.strip() and p.text.strip().lower() in e["new"].lower() for e in hits):
            out.append(p.text)
    return out


def _shift(pos: int, applied: list[dict[str, Any]]) -> int:
    """An old offset outside every edit, in the new text's coordinates."""
    delta = sum(len(e["new"]) - (e["end"] - e["start"]) for e in applied if e["end"] <= pos)
    return pos + delta


def follow_units(old: Report, new: Report, applied: list[dict[str, Any]]) -> dict[str, str]:
    """What became of each unit of ``old`` in ``new`` (see the module docstring)."""
    out: dict[str, str] = {}
    for result in old.results:
        a, b = _region(result.unit, old)
        hits = [e for e in applied if e["start"] < b and e["end"] > a]
        was_ok = result.status == "supported"
        if not hits:
            out[result.unit.id] = "kept" if was_ok or result.status == "unscored" else "still_unsupported"
            continue
        if all(not e["new"] for e in hits) and all(e["start"] <= a and b <= e["end"] for e in hits):
            out[result.unit.id] = "lost" if was_ok else "removed"
            continue
        # the replacement's place in the new text, and the re-checked units that lie in it
        regions = [(_shift(e["start"], applied), _shift(e["start"], applied) + len(e["new"])) for e in hits if e["new"]]
        inside = []
        for r in new.results:
            ra, rb = _region(r.unit, new)
            if any(ra < end and start < rb for start, end in regions):
                inside.append(r)
        if not inside:  # the new words assert nothing the checker finds: the old claim is gone
            out[result.unit.id] = "lost" if was_ok else "removed"
            continue
        fine = all(r.status == "supported" for r in inside)
        out[result.unit.id] = ("kept" if was_ok else "fixed") if fine else ("lost" if was_ok else "still_unsupported")
    return out


def judge_round(old: Report, outcomes: dict[str, str]) -> tuple[bool, str, float | None]:
    """Accept only when every flagged unit is fixed or removed and no supported unit is lost;
    the like-with-like score is the share of the old units supported now (removed ones left out)."""
    flagged = [r.unit.id for r in old.unsupported()]
    open_ = [i for i in flagged if outcomes.get(i) not in ("fixed", "removed")]
    lost = [i for i, o in outcomes.items() if o == "lost"]
    counted = [o for o in outcomes.values() if o != "removed"]
    like = sum(o in ("kept", "fixed") for o in counted) / len(counted) if counted else None
    if open_:
        return False, f"unit(s) {', '.join(open_)} flagged before are still unsupported", like
    if lost:
        return False, f"unit(s) {', '.join(lost)} were supported before and are lost", like
    fixed = sum(o == "fixed" for o in outcomes.values())
    removed = sum(o == "removed" for o in outcomes.values())
    return True, f"every flagged unit fixed ({fixed}) or removed ({removed}), none supported lost", like


def _reference_text(report: Report) -> str:
    if isinstance(report.reference, str):
        return report.reference
    return "\n\n".join(f"[{s.get('id', i)}] {s.get('text', '')}" for i, s in enumerate(report.reference))


def revise(text: str, reference: Any, **kwargs: Any) -> Revision:
    """Synchronous :func:`arevise`."""
    from factgrain.agent.evaluator import run_sync

    return run_sync(arevise(text, reference, **kwargs))
