"""The self-critique loop with a scripted model that plays decomposer, verifier and reviser."""

from __future__ import annotations

import json
import re

import pytest

import factgrain
from factgrain.agent.revise import RevisionEdits, apply_edits, find_problems
from factgrain.backends import registry
from factgrain.backends.scripted import ScriptedBackend, ScriptedRequest
from factgrain.cli import main
from tests.scripted import sentence_of, statement_of

TEXT = "The Good Friday Agreement was signed in Belfast on 12 March 1998. It was approved by referendum."
REF = ("The Good Friday Agreement was signed in Belfast on 10 April 1998 and approved by voters in two "
       "referendums that May.")
DATE = r"\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}"


def decompose(sentence: str) -> dict:
    qas = []
    m = re.search(rf"on ({DATE})", sentence)
    if m:
        qas.append({"predicate": "signed", "predicate_type": "verbal", "question": "when was something signed?",
                    "answer": m.group(0)})
    if "approved" in sentence:
        qas.append({"predicate": "approved", "predicate_type": "verbal", "question": "how was something approved?",
                    "answer": "by referendum"})
    return {"qas": qas}


def fix(req: ScriptedRequest) -> dict:
    """The reviser: for each numbered problem whose span is a wrong date, write the reference's date.
    It reads only the prompt, so it fails if the prompt lacks the span or the reference."""
    prompt = req.last_user
    reference = re.search(r"<reference>\n(.*?)\n</reference>", prompt, re.DOTALL).group(1)
    right = re.search(DATE, reference).group(0)
    edits = []
    for number, span in re.findall(r'\[(\d+)\] span: "([^"]*)"', prompt):
        if re.search(DATE, span):
            edits.append({"problem": int(number), "replacement": f"on {right}"})
    return {"edits": edits}


class PlantedBackend(ScriptedBackend):
    """Scripted: decomposes dates, says Yes only to dates found in the reference, fixes dates."""

    def __init__(self, model: str = "planted", **kw):
        super().__init__(model, handler=self.reply)

    @staticmethod
    def reply(req: ScriptedRequest):
        if req.kind == "structured" and req.response_model is RevisionEdits:
            return fix(req)
        if req.kind == "structured":
            return decompose(sentence_of(req))
        date = re.search(DATE, statement_of(req))
        if date:
            return 0.95 if date.group(0) in REF else 0.03
        return 0.9


def test_revise_fixes_the_planted_date_and_keeps_every_round():
    backend = PlantedBackend()
    revision = factgrain.revise(TEXT, REF, model=backend, verifier="llm", target=1.0, max_rounds=3)
    first, last = revision.rounds[0], revision.rounds[-1]
    assert first.score == pytest.approx(0.5) and first.errors[0]["text"] == "on 12 March 1998"
    assert TEXT[first.errors[0]["start"]:first.errors[0]["end"]] == "on 12 March 1998"
    assert last.round == 1 and last.score == pytest.approx(1.0) and last.score > first.score and last.accepted
    assert revision.text == TEXT.replace("12 March", "10 April") and revision.stop_reason == "target_reached"
    assert "-The Good Friday Agreement was signed in Belfast on 12 March 1998." in last.diff
    assert "+The Good Friday Agreement was signed in Belfast on 10 April 1998." in last.diff
    assert " It was approved by referendum." not in last.diff.replace("\n It was", "")  # untouched line is context
    assert last.edits == [{"problem": 1, "scope": "span", "start": 48, "end": 64,
                           "old": "on 12 March 1998", "new": "on 10 April 1998"}]
    # the reviser was shown the failing unit and why it failed
    ask = next(r for r in backend.requests if r.response_model is RevisionEdits)
    assert "when was something signed? on 12 March 1998" in ask.last_user and "why: the reference" in ask.last_user


def test_a_round_that_does_not_help_is_recorded_and_rejected():
    def reply(req):
        if req.kind == "structured" and req.response_model is RevisionEdits:
            return {"edits": [{"problem": 1, "replacement": "on 13 March 1998"}]}  # still wrong
        return PlantedBackend.reply(req)

    revision = factgrain.revise(TEXT, REF, model=ScriptedBackend(handler=reply), verifier="llm", max_rounds=3)
    assert [r.accepted for r in revision.rounds] == [True, False]
    assert revision.stop_reason == "no_improvement" and revision.best_round == 0 and revision.text == TEXT


def test_nothing_to_fix_stops_at_round_zero():
    text = "The Good Friday Agreement was signed in Belfast on 10 April 1998."
    revision = factgrain.revise(text, REF, model=PlantedBackend(), verifier="llm")
    assert len(revision.rounds) == 1 and revision.stop_reason == "target_reached" and revision.diff() == ""


def test_edits_touch_only_problem_spans_and_overlaps_are_skipped():
    report = factgrain.check(TEXT, REF, model=PlantedBackend(), verifier="llm")
    problems = find_problems(report)
    edits = RevisionEdits.model_validate({"edits": [{"problem": 1, "replacement": ""}]}, context={"problems": 1})
    text, applied = apply_edits(report, problems, edits.edits)
    assert text == "The Good Friday Agreement was signed in Belfast. It was approved by referendum."
    with pytest.raises(ValueError, match="1..1"):
        RevisionEdits.model_validate({"edits": [{"problem": 4, "replacement": "x"}]}, context={"problems": 1})


def test_cli_revise_shows_rounds_scores_and_diff(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(registry._PROVIDERS, "planted", "tests.test_revise:PlantedBackend")
    (tmp_path / "summary.txt").write_text(TEXT)
    (tmp_path / "source.txt").write_text(REF)
    code = main(["revise", str(tmp_path / "summary.txt"), str(tmp_path / "source.txt"), "--model", "planted/x",
                 "--verifier", "llm"])
    out = capsys.readouterr().out
    assert code == 0
    assert "round 0: score 0.500, 1 unsupported span(s)" in out and "round 1: score 1.000" in out
    assert "+The Good Friday Agreement was signed in Belfast on 10 April 1998." in out
    assert out.rstrip().endswith(TEXT.replace("12 March", "10 April"))
    assert main(["revise", str(tmp_path / "summary.txt"), str(tmp_path / "source.txt"), "--model", "planted/x",
                 "--verifier", "llm", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["score"] for r in data["rounds"]] == [0.5, 1.0] and data["stop_reason"] == "target_reached"


def test_a_failing_reviser_keeps_round_zero_and_says_why():
    def reply(req):
        if req.kind == "structured" and req.response_model is RevisionEdits:
            return {"edits": [{"problem": 9, "replacement": "x"}]}  # never valid: only problem 1 exists
        return PlantedBackend.reply(req)

    revision = factgrain.revise(TEXT, REF, model=ScriptedBackend(handler=reply), verifier="llm")
    assert revision.stop_reason == "reviser_failed" and len(revision.rounds) == 1
    assert "RevisionEdits" in revision.error and "3 attempt" in revision.error


class ClosingPlanted(PlantedBackend):
    closed: list[str] = []

    async def aclose(self) -> None:
        ClosingPlanted.closed.append(self.model)


def test_revise_closes_the_backends_it_built_and_leaves_a_callers_open(monkeypatch):
    monkeypatch.setitem(registry._PROVIDERS, "closing", f"{__name__}:ClosingPlanted")  # this very module
    ClosingPlanted.closed = []
    revision = factgrain.revise(TEXT, REF, model="closing/checker", reviser_model="closing/reviser", verifier="llm")
    assert revision.stop_reason == "target_reached"
    assert sorted(ClosingPlanted.closed) == ["checker", "reviser"]  # built from names here: closed here
    ClosingPlanted.closed = []
    mine = ClosingPlanted("mine")
    factgrain.revise(TEXT, REF, model=mine, verifier="llm")
    assert ClosingPlanted.closed == []  # an object the caller passed is theirs to close
