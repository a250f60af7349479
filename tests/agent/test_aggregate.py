import pytest
from hypothesis import given
from hypothesis import strategies as st

from factgrain.agent import aggregate as agg
from factgrain.schemas import HyperRelationalFact, QAPair, Qualifier, UnitResult, UnitVerdict


def v(unit_id, comp, p, status="scored"):
    if status != "scored":
        return UnitVerdict.unscored_because(unit_id, comp, "timeout")
    return UnitVerdict(unit_id=unit_id, component=comp, probability=p, label="supported" if p >= 0.5 else "unsupported")


def qa(i):
    return QAPair(id=f"u{i}", sentence_index=0, predicate="won", question="who won?", answer="X")


def test_empty_inputs_are_defined():
    assert agg.mean([]) is None and agg.minimum([]) is None and agg.harmonic_mean([]) is None
    s = agg.score([])
    assert s.status == "no_units" and s.consistency is None and s.label is None


def test_hand_computed_means():
    assert agg.mean([0.2, 0.4, 0.9]) == pytest.approx(0.5)
    assert agg.minimum([0.2, 0.4]) == 0.2
    assert agg.harmonic_mean([0.5, 1.0]) == pytest.approx(2 / 3)
    assert agg.harmonic_mean([0.0, 1.0]) == 0.0


def test_consistency_leaves_unscored_out():
    results = []
    for i, (p, st_) in enumerate([(0.9, "scored"), (0.2, "scored"), (None, "unscored")]):
        u = qa(i)
        vs = [v(u.id, "unit", p, st_)]
        status, failing = agg.unit_status(u, vs)
        results.append(UnitResult(unit=u, verdicts=vs, status=status, failing_components=failing))
    s = agg.score(results)
    assert s.consistency == 0.5 and s.unscored_units == 1 and s.scored_units == 2
    assert s.aggregate["harmonic"] == pytest.approx(2 / (1 / 0.9 + 1 / 0.2))
    assert s.label == "unsupported"


def test_all_unscored_is_not_a_score():
    u = qa(0)
    r = UnitResult(unit=u, verdicts=[v(u.id, "unit", None, "unscored")], status="unscored")
    s = agg.score([r])
    assert s.status == "no_scored_units" and s.consistency is None


def fact(n_quals):
    return HyperRelationalFact(id="f", sentence_index=0, subject="France", relation="population was", object="64.5 million",
                               qualifiers=[Qualifier(type="temporal", value="2026")] * n_quals)


def test_fact_credit_partial():
    f = fact(2)
    vs = [v("f", "base", 0.9), v("f", "qualifier:0", 0.9), v("f", "qualifier:1", 0.1)]
    assert agg.fact_credit(f, vs) == pytest.approx(0.5 + 0.5 * 0.5)
    assert agg.unit_status(f, vs) == ("partial", ["qualifier:1"])
    # base false: qualifiers cannot rescue it
    vs2 = [v("f", "base", 0.1), v("f", "qualifier:0", 0.9), v("f", "qualifier:1", 0.9)]
    assert agg.fact_credit(f, vs2) == 0.0
    assert agg.unit_status(f, vs2)[0] == "unsupported"


@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=30))
def test_harmonic_le_mean_and_ge_min(values):
    h, m, lo = agg.harmonic_mean(values), agg.mean(values), agg.minimum(values)
    assert lo - 1e-9 <= h <= m + 1e-9


def _results(probs):
    out = []
    for i, p in enumerate(probs):
        u = qa(i)
        vs = [v(u.id, "unit", p)]
        status, failing = agg.unit_status(u, vs)
        out.append(UnitResult(unit=u, verdicts=vs, status=status, failing_components=failing))
    return out


@pytest.mark.parametrize("aggregate", ["mean", "harmonic", "min"])
def test_final_label_follows_the_unit_verdicts_whatever_the_aggregate(aggregate):
    # one weak sub-claim: 3 / (1/0.9 + 1/0.9 + 1/0.4) = 0.6 >= 0.5, so the paper's harmonic rule says
    # supported while the report lists the 0.4 unit as unsupported. The label follows the units
    # (behaviour changed on purpose, issue 14); the paper's label stays as harmonic_label.
    s = agg.score(_results([0.9, 0.9, 0.4]), threshold=0.5, aggregate=aggregate)
    assert s.aggregate["harmonic"] == pytest.approx(3 / (2 / 0.9 + 1 / 0.4))
    assert s.label == "unsupported" and s.harmonic_label == "supported"


def test_harmonic_label_flips_at_the_threshold():
    assert agg.score(_results([0.5, 0.5]), aggregate="harmonic").harmonic_label == "supported"
    assert agg.score(_results([0.5, 0.49]), aggregate="harmonic").harmonic_label == "unsupported"
    assert agg.score(_results([0.9, 0.9]), threshold=0.95, aggregate="harmonic").harmonic_label == "unsupported"


def test_one_zero_sub_claim_makes_the_harmonic_mean_zero():
    assert agg.score(_results([1.0, 1.0, 0.0])).aggregate["harmonic"] == 0.0
