"""The decomposer-only measurement: the per-subset and per-half breakdown used to check a rule
developed on one half of dev against the other."""

from factgrain.evals.measure_decomposer import breakdown, summarize


def record(i, subset, matched, n_pred=4, n_gold=5):
    return {"id": f"r{i}", "subset": subset, "n_sentences": 1, "n_gold": n_gold, "n_pred": n_pred,
            "matched": matched, "wh_same": matched, "gold_predicates": 2, "hit_predicates": 1 + (matched > 2)}


def test_halves_partition_each_subset_and_add_up_to_the_whole():
    records = [record(i, sub, i % 4) for i, sub in enumerate(["cliff"] * 6 + ["factscore"] * 5 + ["verifiability"] * 9)]
    out = breakdown(records, halves=True)
    assert {"cliff", "factscore", "verifiability", "half_A", "half_B"} <= set(out)
    assert out["half_A"]["responses"] + out["half_B"]["responses"] == len(records)
    assert abs(out["half_A"]["responses"] - out["half_B"]["responses"]) <= 3  # one per subset at most
    assert out["cliff"]["responses"] == 6
    whole = summarize(records)
    assert out["verifiability"]["qa_precision"] == round(summarize(records[11:])["qa_precision"], 4)
    assert 0 < whole["qa_f1"] < 1


def test_halves_do_not_depend_on_record_order():
    records = [record(i, "cliff", i % 3) for i in range(10)]
    assert breakdown(records, halves=True) == breakdown(list(reversed(records)), halves=True)


def test_responses_of_the_same_article_stay_in_one_half():
    from factgrain.evals.measure_decomposer import halves_of

    records = [dict(record(i, "cliff", 1), group=f"article{i // 3}") for i in range(12)]
    for seed in (0, 1, 7):
        which = halves_of(records, seed)
        for g in {r["group"] for r in records}:
            assert len({which[r["id"]] for r in records if r["group"] == g}) == 1
        assert sorted(which.values()).count("A") == 6  # 4 articles of 3, dealt alternately


def test_seeds_deal_different_halves():
    from factgrain.evals.measure_decomposer import halves_of

    records = [record(i, "verifiability", 1) for i in range(40)]
    assert halves_of(records, 0) != halves_of(records, 1)
    out = breakdown(records, halves=True, seeds=(0, 3))
    assert out["s3_A"]["responses"] + out["s3_B"]["responses"] == 40


def test_error_categories_name_each_kind_of_miss():
    from factgrain.evals.measure_decomposer import error_categories
    from factgrain.evals.tasks.qasem_decomposer import match

    gold = [{"predicate": "died", "predicate_tok": 5, "answer_toks": [0, 1], "question": "who died?"},        # matched
            {"predicate": "died", "predicate_tok": 5, "answer_toks": [6, 7], "question": "where did someone die?"},  # too long
            {"predicate": "died", "predicate_tok": 5, "answer_toks": [12], "question": "when did someone die?"},  # no answer
            {"predicate": "death", "predicate_tok": 9, "answer_toks": [10, 11], "question": "who died?"}]    # no predicate
    pred = [{"predicate": "died", "type": "verbal", "predicate_toks": [5], "answer_toks": [0, 1]},
            {"predicate": "died", "type": "verbal", "predicate_toks": [5], "answer_toks": [6, 7, 8, 9, 10, 11, 13, 14]},
            {"predicate": "is", "type": "copular", "predicate_toks": [3], "answer_toks": [0]}]
    pairs = match(gold, pred)
    assert [(g, p) for g, p, _ in pairs] == [(0, 0)]
    got = error_categories(gold, pred, pairs, {5: "VERB", 9: "NOUN"})
    assert got == {"span too long": 1, "missed argument (VERB)": 1, "missed predicate (NOUN)": 1,
                   "extra argument (verbal)": 1, "spurious predicate (copular)": 1}
