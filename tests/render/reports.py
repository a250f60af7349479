"""Deterministic reports for the HTML renderer tests: the bundled measles example run through the
real pipeline with a scripted backend, a hand-built TriQua-style fact report, and a hostile text."""

from __future__ import annotations

import factgrain
from factgrain import examples
from factgrain.schemas.reflection import DecompositionError, ReflectionRound
from factgrain.schemas.report import Report, Scores, UnitResult
from factgrain.schemas.spans import Document, Sentence, Span
from factgrain.schemas.units import HyperRelationalFact, Qualifier, QualifierType
from factgrain.schemas.verdicts import Evidence, UnitVerdict
from tests.scripted import qa_backend

MEASLES = examples.load("measles")
SENTENCE = MEASLES["text"]

# QA pairs in the spirit of the QASemConsistency paper's Table 1. Several answers overlap: the
# inquest phrase contains "a man who died of measles", which contains "of measles".
MEASLES_QAS = {
    SENTENCE: [
        {"predicate": "opened", "predicate_type": "verbal", "question": "what has been opened?",
         "answer": "An inquest into the death of a man who died of measles"},
        {"predicate": "adjourned", "predicate_type": "verbal", "question": "what has been adjourned?",
         "answer": "An inquest into the death of a man who died of measles"},
        {"predicate": "died", "predicate_type": "verbal", "question": "who died?", "answer": "a man"},
        {"predicate": "died", "predicate_type": "verbal", "question": "what did someone die of?", "answer": "of measles"},
        {"predicate": "failed", "predicate_type": "verbal", "question": "what failed to establish something?",
         "answer": "a post-mortem examination"},
        {"predicate": "establish", "predicate_type": "verbal", "question": "what was not established?",
         "answer": "how he got the illness"},
    ]
}
# P(Yes) by a substring of the verified statement; unlisted statements get the default.
MEASLES_SUPPORT = {"die of?": 0.07, "not established": 0.12, "failed to establish": 0.81}


def measles_report() -> Report:
    backend = qa_backend(MEASLES_QAS, support=MEASLES_SUPPORT, default_p=0.93)
    report = factgrain.check(MEASLES["text"], MEASLES["reference"], model=backend, verifier="llm", span_mode="free")
    report.id = "measles"
    units = [r.unit for r in report.results]
    report.reflection = [
        ReflectionRound(
            round=1, sentence_indices=[0], scope_text=SENTENCE, input_units=units,
            lint=[DecompositionError(category="ambiguity", subtype="ambiguous_pronoun", unit_ids=["s0.u5"],
                                     explanation="'he' in the answer has no referent inside the unit")],
            llm_errors=[DecompositionError(category="omission", subtype="missing_logical_relation", unit_ids=[],
                                           explanation="no unit says the examination came after the death", source="llm")],
            judgment="Problematic", reasoning="one pronoun and one missing relation", output_units=units,
            action="rejected", reason="the refinement lost the answer spans", prompt_version="reflect-v1"),
        ReflectionRound(round=2, sentence_indices=[0], scope_text=SENTENCE, input_units=units, judgment="Good",
                        output_units=units, action="kept"),
    ]
    return report


def _span(text: str, phrase: str) -> Span:
    start = text.index(phrase)
    return Span(start=start, end=start + len(phrase), text=phrase)


FACT_TEXT = "Marie Curie won the Nobel Prize in Physics in 1911 in Stockholm."
FACT_REF = "Marie Curie received the Nobel Prize in Physics in 1903, in Stockholm, with Pierre Curie and Henri Becquerel."


def fact_report() -> Report:
    """A hyper-relational fact whose base holds and whose temporal qualifier fails."""
    t = FACT_TEXT
    fact = HyperRelationalFact(
        id="s0.f0", sentence_index=0, subject="Marie Curie", relation="won", object="the Nobel Prize in Physics",
        subject_span=_span(t, "Marie Curie"), relation_span=_span(t, "won"), object_span=_span(t, "the Nobel Prize in Physics"),
        qualifiers=[Qualifier(type=QualifierType.temporal, value="1911", span=_span(t, "in 1911")),
                    Qualifier(type=QualifierType.spatial, value="Stockholm", span=_span(t, "in Stockholm"))],
    )
    ev = [Evidence(source_id="0", text=FACT_REF)]
    verdicts = [
        UnitVerdict(unit_id="s0.f0", component="base", probability=0.95, label="supported", evidence=ev),
        UnitVerdict(unit_id="s0.f0", component="qualifier:0", probability=0.04, label="unsupported",
                    error_kind="intrinsic", evidence=ev),
        UnitVerdict(unit_id="s0.f0", component="qualifier:1", probability=0.88, label="supported", evidence=ev),
    ]
    result = UnitResult(unit=fact, verdicts=verdicts, status="partial", failing_components=["qualifier:0"])
    doc = Document(text=t, sentences=[Sentence(index=0, start=0, end=len(t), text=t)], chunks=[])
    scores = Scores(status="ok", consistency=0.0, units=1, scored_units=1, unsupported_units=1, triqua=0.75)
    return Report(id="curie", text=t, reference=FACT_REF, method="triqua", document=doc, results=[result],
                  scores=scores, backend="scripted", model="scripted", verifier="llm")


HOSTILE = 'Eve wrote <script>alert(1)</script> and <img src=x onerror="alert(2)"> & left "quietly".'


def hostile_report() -> Report:
    """Document, reference, model output and reflection all carry markup that must stay text."""
    qas = {HOSTILE: [{"predicate": "wrote", "predicate_type": "verbal", "question": "what did Eve write?",
                      "answer": "<script>alert(1)</script>"}]}
    backend = qa_backend(qas, default_p=0.2)
    reference = "Eve wrote a <b>letter</b></div><script>alert(3)</script>."
    report = factgrain.check(HOSTILE, reference, model=backend, verifier="llm", span_mode="free",
                             question="What did <i>Eve</i> write?")
    report.id = "<svg onload=alert(4)>"
    report.warnings.append("</style><script>alert(5)</script>")
    report.reflection = [ReflectionRound(
        round=1, sentence_indices=[0], scope_text=HOSTILE, input_units=[r.unit for r in report.results],
        lint=[DecompositionError(category="alteration", subtype="added_content", unit_ids=["<b>x</b>"],
                                 explanation="<script>alert(6)</script>")],
        reasoning="<iframe src=javascript:alert(7)>", output_units=[], action="failed")]
    return report
