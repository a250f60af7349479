"""A text or reference in a Latin-script language other than English is named, never read as English."""

import pytest

import factgrain
from factgrain.agent.decompose.qasem import QASemDecomposer
from factgrain.agent.decompose.triqua import TriQuaDecomposer
from factgrain.agent.reader import foreign_language
from factgrain.agent.segment import segment
from factgrain.backends.scripted import ScriptedBackend

GERMAN = "Der Hund schläft im Garten. Die Katze spielt mit dem Ball, und die Kinder lachen laut."
SPANISH = "El consejo municipal aprobó el plan el martes. La obra costará doce millones de euros."
ENGLISH = "The council approved the plan on Tuesday. The work will cost twelve million euros."
REFERENCE = "The council approved a cycling plan on Tuesday. The work will cost twelve million euros."


def no_model():
    return ScriptedBackend(handler=lambda req: pytest.fail("the offline reader should not call a model"))


@pytest.mark.parametrize("text, language", [(GERMAN, "German"), (SPANISH, "Spanish")])
def test_a_foreign_text_is_named(text, language):
    found = foreign_language(text)
    assert found is not None and found[0] == language and found[1] >= 0.99


@pytest.mark.parametrize("text", [
    ENGLISH,
    "Young people make good voters.",  # no function word, and the identifier's guess is German
    "Luís Ángel Firpo signed Manuel Salazar Rivas from Telecom in San Salvador during 2005.",
    "Der Hund.",  # too short to judge
    "巴黎是法国的首都，也是最大的城市。",  # a non-Latin script is foreign_script's to name
])
def test_english_short_or_non_latin_text_is_not_judged_foreign(text):
    assert foreign_language(text) is None


@pytest.mark.parametrize("decomposer", [QASemDecomposer, TriQuaDecomposer])
async def test_the_offline_reader_reads_no_unit_from_a_foreign_text_and_says_why(decomposer):
    dec = decomposer(no_model(), span_mode="parse")
    units = await dec.decompose(segment(GERMAN))
    assert units == []
    assert dec.failed_sentences == [0, 1]
    assert len(dec.warnings) == 1 and "German" in dec.warnings[0] and "sentences 0, 1" in dec.warnings[0]


async def test_an_english_text_is_read_as_before():
    dec = QASemDecomposer(no_model(), span_mode="parse")
    units = await dec.decompose(segment(ENGLISH))
    assert any(u.answer == "The council" for u in units) and dec.warnings == []


def test_a_check_of_a_foreign_text_reports_the_language_and_no_score():
    report = factgrain.check(GERMAN, REFERENCE, verifier="lexical", span_mode="parse")
    assert report.results == [] and report.scores.failed_sentences == 2
    assert any("German" in w for w in report.warnings)


def test_a_foreign_reference_is_named_for_the_lexical_verifier():
    german_reference = ("Der Stadtrat hat am Dienstag einen neuen Plan beschlossen. Die Arbeiten kosten "
                        "zwölf Millionen Euro.")
    report = factgrain.check(ENGLISH, german_reference, verifier="lexical", span_mode="parse")
    assert report.results  # the English text is still read and verified
    assert any("reference reads as German" in w for w in report.warnings)
    english = factgrain.check(ENGLISH, REFERENCE, verifier="lexical", span_mode="parse")
    assert not any("reads as" in w for w in english.warnings)
