"""Property tests: span offsets (locate, segment) and the aggregation functions."""

from __future__ import annotations

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from factgrain.agent import aggregate as agg
from factgrain.agent.locate import locate, locate_word
from factgrain.agent.segment import segment, split_sentences
from factgrain.schemas.report import UnitResult
from factgrain.schemas.units import HyperRelationalFact, QAPair, Qualifier
from factgrain.schemas.verdicts import UnitVerdict, VerdictStatus

settings.register_profile("factgrain", max_examples=150, deadline=None)
settings.load_profile("factgrain")

WORDS = st.sampled_from(["Marie", "Curie", "won", "the", "prize", "in", "1903", "Dr.", "She", "was", "born",
                         "Warsaw", "é", "居里", "a", "is", "This", "U.S.", "(left)", "\"quoted\""])
TEXTS = st.lists(st.tuples(WORDS, st.sampled_from([" ", "  ", ". ", "! ", "? ", "\n", "\n\n", ", ", "\t"])),
                 min_size=1, max_size=40).map(lambda parts: "".join(w + s for w, s in parts))


@given(TEXTS, st.data(), st.integers(0, 500))
def test_locate_finds_substrings_at_exact_offsets(haystack, data, offset):
    start = data.draw(st.integers(0, len(haystack) - 1))
    end = data.draw(st.integers(start + 1, len(haystack)))
    needle = haystack[start:end]
    assume(needle.strip())
    span = locate(needle, haystack, offset=offset)
    assert span is not None
    assert haystack[span.start - offset:span.end - offset] == span.text
    assert span.text.lower() == needle.strip().lower() or " ".join(span.text.split()).lower() == " ".join(needle.strip(" \t\n\"'.,;:!?()[]").split()).lower()


@given(TEXTS, st.text(min_size=1, max_size=12), st.integers(0, 100))
def test_locate_never_returns_a_wrong_span(haystack, needle, offset):
    for fn in (locate, locate_word):
        span = fn(needle, haystack, offset=offset)
        if span is not None:
            assert 0 <= span.start - offset <= span.end - offset <= len(haystack)
            assert haystack[span.start - offset:span.end - offset] == span.text


@given(TEXTS)
def test_sentences_are_exact_ordered_and_disjoint(text):
    assume(text.strip())
    prev_end = 0
    for s, e in split_sentences(text):
        assert prev_end <= s < e <= len(text)
        assert not text[s].isspace() and not text[e - 1].isspace()
        prev_end = e
    # Nothing but whitespace is lost between sentences.
    covered = "".join(text[s:e] for s, e in split_sentences(text))
    assert "".join(covered.split()) == "".join(text.split())


@given(TEXTS, st.integers(60, 400))
def test_segment_offsets_and_chunk_membership(text, chunk_size):
    assume(text.strip())
    doc = segment(text, chunk_size=chunk_size)
    for sent in doc.sentences:
        assert text[sent.start:sent.end] == sent.text
        chunk = doc.chunks[sent.chunk_index]
        assert sent.index in chunk.sentence_indices
    members = [i for c in doc.chunks for i in c.sentence_indices]
    assert sorted(members) == list(range(len(doc.sentences)))  # each sentence in exactly one chunk
    for c in doc.chunks:
        assert text[c.start:c.end] == c.text


PROBS = st.lists(st.floats(0.0, 1.0, allow_nan=False), max_size=30)


@given(PROBS)
def test_aggregators_order_and_empty_input(values):
    m, lo, h = agg.mean(values), agg.minimum(values), agg.harmonic_mean(values)
    if not values:
        assert m is None and lo is None and h is None
        return
    assert lo - 1e-9 <= h <= m + 1e-9 <= max(values) + 2e-9  # min <= harmonic <= arithmetic <= max
    if 0.0 in values:
        assert h == 0.0


def verdict(unit_id: str, component: str, p: float | None) -> UnitVerdict:
    if p is None:
        return UnitVerdict.unscored_because(unit_id, component, "injected")
    return UnitVerdict(unit_id=unit_id, component=component, probability=p,
                       label="supported" if p >= 0.5 else "unsupported")


OUTCOMES = st.one_of(st.none(), st.floats(0.0, 1.0, allow_nan=False))


@st.composite
def results(draw):
    out = []
    for i in range(draw(st.integers(0, 12))):
        if draw(st.booleans()):
            unit = QAPair(id=f"u{i}", sentence_index=0, predicate="won", question="who won?", answer="Marie")
        else:
            n = draw(st.integers(0, 3))
            unit = HyperRelationalFact(id=f"u{i}", sentence_index=0, subject="Marie", relation="won", object="prize",
                                       qualifiers=[Qualifier(type="temporal", value=str(1900 + q)) for q in range(n)])
        verdicts = [verdict(unit.id, c.name, draw(OUTCOMES)) for c in unit.components()]
        status, failing = agg.unit_status(unit, verdicts)
        out.append(UnitResult(unit=unit, verdicts=verdicts, status=status, failing_components=failing))
    return out


@given(results())
def test_score_counts_add_up_and_unscored_never_count(rs):
    s = agg.score(rs)
    assert s.units == len(rs) == s.scored_units + s.unscored_units
    assert s.scored_units == s.supported_units + s.unsupported_units
    assert s.unscored_units == sum(r.status == "unscored" for r in rs)
    for r in rs:  # a unit with no scored verdict (or a fact with no scored base) is never counted either way
        base = [v for v in r.verdicts if v.component in ("unit", "base")]
        if all(v.status is VerdictStatus.unscored for v in base):
            assert r.status == "unscored"
    if s.scored_units == 0:
        assert s.consistency is None and s.label is None
    else:
        assert math.isclose(s.consistency, s.supported_units / s.scored_units)
        for value in s.aggregate.values():
            assert value is None or 0.0 <= value <= 1.0


@given(results())
def test_fact_credit_bounds_and_unscored_components_change_nothing(rs):
    for r in rs:
        credit = agg.fact_credit(r.unit, r.verdicts)
        assert credit is None or 0.0 <= credit <= 1.0
        scored = [v for v in r.verdicts if v.status is VerdictStatus.scored]
        assert agg.fact_credit(r.unit, scored) == credit  # dropping unscored verdicts is a no-op
        assert agg.unit_status(r.unit, scored) == agg.unit_status(r.unit, r.verdicts)
    # Adding a unit whose verdicts are all unscored leaves every score but the counts unchanged.
    extra = QAPair(id="extra", sentence_index=0, predicate="won", question="who won?", answer="Marie")
    unscored = [verdict("extra", "unit", None)]
    more = list(rs) + [UnitResult(unit=extra, verdicts=unscored, status="unscored")]
    a, b = agg.score(rs), agg.score(more)
    assert (a.consistency, a.triqua, a.aggregate, a.label) == (b.consistency, b.triqua, b.aggregate, b.label)
    assert b.unscored_units == a.unscored_units + 1
