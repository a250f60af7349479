"""Bad input: each gives a clear per-item error or a sensible result, and the others still finish."""

from __future__ import annotations

import pytest

import factgrain
from factgrain.backends.scripted import ScriptedBackend
from factgrain.cli import main
from factgrain.errors import InputError
from tests.scripted import sentence_of

REF = "Marie Curie won the Nobel Prize in Physics in 1903. She was born in Warsaw."


def first_word_backend(p: float = 0.7) -> ScriptedBackend:
    """Decomposes any sentence into one pair answered by its first word (any script, any language)."""

    def handler(req):
        if req.kind == "chat":
            return p
        words = sentence_of(req).split()
        if len(words) < 2:
            return {"qas": []}
        return {"qas": [{"predicate": words[1], "predicate_type": "verbal", "question": "who did something?",
                         "answer": words[0]}]}

    return ScriptedBackend(handler=handler)


def check(text, reference=REF, **kw):
    return factgrain.check(text, reference, model=first_word_backend(), verifier="llm", span_mode="free", **kw)


@pytest.mark.parametrize("text, message", [
    ("", "text is empty"),
    ("   \n\t  ", "text is empty"),
    ("a\x00b", "NUL bytes"),
    ("x" * 1_000_001, "1,000,001 characters; the limit is 200,000"),
    (None, "text must be a string, got NoneType"),
    (123, "text must be a string, got int"),
])
def test_bad_text_is_a_clear_input_error(text, message):
    with pytest.raises(InputError, match=message):
        check(text)


@pytest.mark.parametrize("reference, message", [
    ("", "reference is empty"),
    ("  ", "reference is empty"),
    ([], "reference is an empty list"),
    (None, "reference is missing"),
    ([{"id": "a"}], r"reference\[0\] must be a string or a \{'id', 'text'\} object"),
    (3.5, "reference must be a string or a list of sources, got float"),
])
def test_bad_reference_is_a_clear_input_error(reference, message):
    with pytest.raises(InputError, match=message):
        check("Marie Curie won the Nobel Prize.", reference)


def assert_spans_exact(report):
    for r in report.results:
        span = r.unit.answer_span
        assert report.text[span.start:span.end] == span.text == r.unit.answer
    for s in report.document.sentences:
        assert report.text[s.start:s.end] == s.text


@pytest.mark.parametrize("text", [
    "Marie\x07 Curie won\x1b[31m the prize.\x1b[0m She was\x0b born in Warsaw.",
    "Marie Curie won the prize.\r\nShe was born in Warsaw.\r\n",
    "Marie\u200b Curie\u00a0won the prize. She was born in Warsaw.",
])
def test_control_and_invisible_characters_give_a_sensible_result(text):
    report = check(text)
    assert report.scores.units >= 1 and report.scores.status == "ok"
    assert_spans_exact(report)


@pytest.mark.parametrize("text", [
    "Marie Curie erhielt 1903 den Nobelpreis. Sie wurde in Warschau geboren.",
    "Мария Кюри получила Нобелевскую премию в 1903 году. Она родилась в Варшаве.",
    "ماري كوري حصلت على جائزة نوبل عام 1903.",
    "玛丽·居里 于1903年 获得诺贝尔奖。",
    "マリー・キュリー は 1903年に ノーベル賞を受賞した。",
])
def test_non_english_text_gives_a_result_with_exact_spans(text):
    report = check(text)
    assert report.scores.units >= 1
    assert_spans_exact(report)


def test_check_many_keeps_going_past_bad_items():
    items = [{"id": "ok1", "text": "Marie Curie won the prize.", "reference": REF},
             {"id": "empty", "text": "  ", "reference": REF},
             {"id": "noref", "text": "Marie Curie won the prize.", "reference": ""},
             {"id": "big", "text": "Marie won. " * 100_000, "reference": REF},
             {"id": "ok2", "text": "She was born in Warsaw.", "reference": REF}]
    out = factgrain.check_many(items, model=first_word_backend(), verifier="llm", span_mode="free")
    assert [type(o).__name__ for o in out] == ["Report", "InputError", "InputError", "InputError", "Report"]
    assert out[0].id == "ok1" and out[4].id == "ok2"


def test_cli_invalid_utf8_and_oversized_files(tmp_path, capsys):
    ref = tmp_path / "ref.txt"
    ref.write_text(REF)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"Marie Curie won the \xff\xfe prize.")
    assert main(["check", str(bad), str(ref)]) == 2
    assert "is not valid UTF-8 (byte 20)" in capsys.readouterr().err
    big = tmp_path / "big.txt"
    big.write_text("Marie Curie won the prize. " * 40_000)  # about 1 MB
    assert main(["check", str(big), str(ref)]) == 2
    assert "the limit is 200,000" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text(" \n")
    assert main(["check", str(empty), str(ref)]) == 2
    assert "text is empty" in capsys.readouterr().err
