import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factgrain.agent.verifiers.lexical_features import (
    FEATURE_NAMES,
    Features,
    LexicalModel,
    Window,
    content_tokens,
    extract_numbers,
    lexical_features,
    load_default,
    normalize_tokens,
    select_windows,
    split_sentences,
)

REF = (
    "The 24-year-old finished fourth in the 5,000 m at the World Championships. "
    "She said she will not compete at next year's Games. "
    "Her coach, Andy Young, praised her season. "
    "The event was held in London in August."
)


def feats(answer, question, sentence, reference=REF, predicate=None):
    return lexical_features(answer=answer, question=question, sentence=sentence, reference=reference, predicate=predicate)


# --- normalisation ----------------------------------------------------------


def test_normalize_numbers_punctuation_plurals():
    toks = normalize_tokens("The 5,000 runners, finished!")
    assert "5000" in toks and "runner" in toks and "finish" in toks
    assert "," not in "".join(toks) and "!" not in "".join(toks)
    assert normalize_tokens("wasn't") == ["was", "not"]


def test_content_tokens_drop_question_placeholders():
    assert content_tokens("who says something?") == ["say"]


def test_extract_numbers_normalises():
    assert extract_numbers("5,000 m in 1953 and the third") == ["5000", "1953", "3"]


# --- sentences and windows --------------------------------------------------


def test_split_sentences_offsets_and_abbreviations():
    text = "Dr. Smith went home. The cat sat.\nIt rained!"
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == ["Dr. Smith went home.", "The cat sat.", "It rained!"]


def test_select_windows_picks_matching_sentence():
    wins = select_windows(REF, "who praised something? Andy Young", "Her coach praised her season.", k=2, window_sentences=1)
    assert isinstance(wins[0], Window)
    assert "Andy Young" in wins[0].text
    assert wins[0].score >= wins[1].score
    assert REF[wins[0].start : wins[0].end] == wins[0].text


def test_context_sentence_rescues_uninformative_question():
    # the QA alone ("who said something? she") matches nothing specific; the sentence does
    wins = select_windows(REF, "who said something? she", "She said she will not compete at next year's Games.", k=1, window_sentences=1)
    assert "compete" in wins[0].text


# --- features ---------------------------------------------------------------


def test_number_clash_detected():
    bad = feats("third", "where did someone finish?", "She finished third in the 5,000 m.", predicate="finished")
    good = feats("fourth", "where did someone finish?", "She finished fourth in the 5,000 m.", predicate="finished")
    assert bad["num_clash"] == 1.0 and good["num_clash"] == 0.0
    assert good["num_agree"] == 1.0
    wrong_distance = feats("10,000 m", "in what did someone finish?", "She finished fourth in the 10,000 m.")
    assert wrong_distance["num_clash"] == 1.0


def test_negation_mismatch():
    ref = "The minister confirmed the plan. Funding was approved last week."
    neg = feats("the plan", "what did someone confirm?", "The minister did not confirm the plan.", ref, "confirm")
    pos = feats("the plan", "what did someone confirm?", "The minister confirmed the plan.", ref, "confirm")
    assert neg["neg_mismatch"] == 1.0
    assert pos["neg_mismatch"] == 0.0


def test_name_absent():
    absent = feats("Laura Muir", "who said something?", "Laura Muir said she will not compete.")
    present = feats("Andy Young", "who praised something?", "Andy Young praised her season.")
    assert absent["name_absent"] == 1.0
    assert present["name_absent"] == 0.0
    assert absent["ans_cov_ref"] == 0.0 and present["ans_cov_ref"] == 1.0


def test_best_window_and_mapping_interface():
    f = feats("Andy Young", "who praised something?", "Her coach Andy Young praised her season.", predicate="praised")
    assert isinstance(f, Features)
    assert set(f.values) == set(FEATURE_NAMES) and len(f) == len(FEATURE_NAMES)
    assert "Andy Young" in f.best_window.text
    assert f["pred_in_best"] == 1.0 and f["pred_ans_joint"] == 1.0


def test_empty_reference_is_finite():
    f = feats("Paris", "where?", "It was in Paris.", reference="")
    assert all(math.isfinite(v) for v in f.values.values())
    assert f["ans_cov_ref"] == 0.0


# --- model ------------------------------------------------------------------


def test_default_model_loads_and_matches_features():
    m = load_default()
    # the shipped model reads the features kept by train_lexical's fit, in FEATURE_NAMES order, then
    # interactions of two of them ("a*b", "~f" for 1 - f)
    base = [n for n in m.feature_names if "*" not in n]
    assert set(base) <= set(FEATURE_NAMES) and len(base) >= 10
    assert base == [n for n in FEATURE_NAMES if n in base]
    for n in m.feature_names[len(base):]:
        parts = n.split("*")
        assert len(parts) == 2 and all(x.lstrip("~") in FEATURE_NAMES for x in parts), n
    assert 0.0 < m.threshold < 1.0
    p = m.prob(feats("Andy Young", "who praised something?", "Andy Young praised her season.", predicate="praised"))
    assert 0.0 <= p <= 1.0


def test_default_model_separates_supported_from_invented():
    m = load_default()
    good = feats("Andy Young", "who praised something?", "Her coach, Andy Young, praised her season.", predicate="praised")
    bad = feats("Mo Farah", "who praised something?", "Her coach, Mo Farah, praised her season in Berlin.", predicate="praised")
    assert m.prob(good) > m.prob(bad)


def test_model_prob_monotone_in_coverage():
    m = LexicalModel(feature_names=["ans_cov_max", "num_clash"], coefficients=[2.0, -1.0], intercept=-1.0, threshold=0.5)
    probs = [m.prob({"ans_cov_max": c, "num_clash": 0.0}) for c in (0.0, 0.25, 0.5, 0.75, 1.0)]
    assert all(a < b for a, b in zip(probs, probs[1:]))
    assert m.predict({"ans_cov_max": 1.0, "num_clash": 0.0})
    assert not m.predict({"ans_cov_max": 0.0, "num_clash": 1.0})
    # the shipped model, too, must not penalise answer coverage overall
    d = load_default()
    base = dict(feats("Andy Young", "who praised something?", "Andy Young praised her season.").values)
    lo = {**base, "ans_cov_max": 0.0, "ans_cov_best": 0.0, "ans_cov_ref": 0.0, "qa_cov_best": 0.0, "ans_bigram_ref": 0.0, "pred_ans_joint": 0.0}
    assert d.prob(base) > d.prob(lo)


def test_interaction_inputs_are_products_of_oriented_features():
    from factgrain.agent.verifiers.lexical_features import feature_value

    vals = {"sent_cov_ref": 0.5, "name_absent": 0.25, "lem_ans_cov_sent": 0.8}
    assert feature_value(vals, "sent_cov_ref") == 0.5
    assert feature_value(vals, "sent_cov_ref*lem_ans_cov_sent") == pytest.approx(0.4)
    assert feature_value(vals, "~name_absent*sent_cov_ref") == pytest.approx(0.375)
    m = LexicalModel(feature_names=["sent_cov_ref", "~name_absent*sent_cov_ref"], coefficients=[1.0, 2.0],
                     intercept=0.0)
    assert m.logit(vals) == pytest.approx(0.5 + 2 * 0.375)
    assert m.contributions(vals)["~name_absent*sent_cov_ref"] == pytest.approx(0.75)


def test_model_roundtrip_and_validation():
    from factgrain.agent.verifiers.lexical_features import model_from_dict

    m = load_default()
    again = model_from_dict(m.to_dict())
    f = feats("fourth", "where did someone finish?", "She finished fourth.")
    assert again.prob(f) == pytest.approx(m.prob(f), abs=1e-6)
    with pytest.raises(ValueError):
        LexicalModel(feature_names=["a", "b"], coefficients=[1.0], intercept=0.0)


# --- properties -------------------------------------------------------------

_text = st.lists(
    st.sampled_from(list("abcXYZ019 ,.!?'\n-") + ["Dr. ", "5,000", "not ", "The ", "runs", "\u00e9"]),
    max_size=120,
).map("".join)


@settings(max_examples=150, deadline=None)
@given(reference=_text, query=_text, k=st.integers(0, 5), w=st.integers(1, 3))
def test_windows_index_reference(reference, query, k, w):
    for a, b in split_sentences(reference):
        assert 0 <= a < b <= len(reference)
        assert reference[a:b].strip() == reference[a:b]
    wins = select_windows(reference, query, query, k=k, window_sentences=w)
    assert len(wins) <= k
    for win in wins:
        assert 0 <= win.start <= win.end <= len(reference)
        assert reference[win.start : win.end] == win.text
        assert math.isfinite(win.score)


@settings(max_examples=150, deadline=None)
@given(answer=_text, question=_text, sentence=_text, reference=_text, predicate=st.one_of(st.none(), _text))
def test_features_finite(answer, question, sentence, reference, predicate):
    f = lexical_features(answer=answer, question=question, sentence=sentence, reference=reference, predicate=predicate)
    assert set(f.values) == set(FEATURE_NAMES)
    assert all(math.isfinite(v) for v in f.values.values())
    p = load_default().prob(f)
    assert 0.0 <= p <= 1.0
