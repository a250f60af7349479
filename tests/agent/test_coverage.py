from hypothesis import given, settings
from hypothesis import strategies as st

from factgrain.agent.coverage import CoverageResult, is_covered

REF = (
    "Media playback is not supported on this device. Muir told BBC Scotland her veterinary "
    "studies mean she will miss next year's event on Australia's Gold Coast. The 24-year-old "
    "finished fourth and sixth in the 1500 m and 5,000 m at the World Athletics Championships."
)


def test_present_entity_is_covered():
    r = is_covered("the World Athletics Championships", REF)
    assert isinstance(r, CoverageResult)
    assert r.covered and r.score == 1.0
    assert "championship" in r.matched


def test_absent_entity_is_not_covered():
    r = is_covered("the Diamond League final", REF)
    assert not r.covered
    assert r.score < 0.5


def test_partly_invented_name_is_not_covered():
    r = is_covered("Laura Muir", REF)
    assert not r.covered
    assert "laura" in r.reason


def test_paraphrase_with_inflection_is_covered():
    # different inflection / number formatting, same words
    assert is_covered("veterinary study", REF).covered
    assert is_covered("5000 m", REF).covered
    assert is_covered("in the fourth place", REF).covered


def test_number_absent_is_not_covered():
    r = is_covered("10,000 m", REF)
    assert not r.covered and "10000" in r.reason


def test_pronouns_and_adverbs_are_covered():
    for ans in ("she", "her", "it", "there", "currently"):
        r = is_covered(ans, REF)
        assert r.covered, ans


def test_empty_reference_flags_content():
    assert not is_covered("Gold Coast", "").covered
    assert is_covered("she", "").covered


@settings(max_examples=200, deadline=None)
@given(answer=st.text(max_size=80), reference=st.text(max_size=300))
def test_result_well_formed(answer, reference):
    r = is_covered(answer, reference)
    assert 0.0 <= r.score <= 1.0
    assert isinstance(r.reason, str) and r.reason
    assert isinstance(r.covered, bool)


@settings(max_examples=100, deadline=None)
@given(answer=st.text(alphabet=st.sampled_from(list("abcdefgXYZ 0123456789,")), min_size=1, max_size=40))
def test_answer_copied_into_reference_is_covered(answer):
    assert is_covered(answer, "Intro text. " + answer + " more text.").covered
