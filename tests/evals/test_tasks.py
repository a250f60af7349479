import json
import re

import pytest

from factgrain.backends.scripted import ScriptedBackend
from factgrain.evals.datasets import load_responses
from factgrain.evals.report import recompute
from factgrain.evals.runner import run_eval
from factgrain.evals.tasks import get_task, task_names
from factgrain.evals.tasks.base import EvalSettings
from factgrain.evals.tasks.dilemmas_common import expand_methods
from factgrain.evals.tasks.qasem_decomposer import covered, iou, match, token_offsets
from factgrain.evals.tasks.qasem_table4 import affirmative
from tests.evals.evalkit import eval_backend
from tests.scripted import sentence_of


def lines(out):
    return [json.loads(l) for l in (out / "predictions.jsonl").read_text().splitlines()]


# -- qasem-table4 -------------------------------------------------------------------------------

def test_affirmative_rewrite_is_what_the_ablation_verifies(tmp_path, data_dir):
    assert affirmative("Who fell?", "A man") == "A man fell."
    run_eval("qasem-table4", split="test", limit=3, out=tmp_path, make_plots=False,
             settings=EvalSettings(model=eval_backend(), verifier="llm"))
    recs = {r["id"]: r for r in lines(tmp_path)}
    for rid, r in recs.items():
        if r["style"] == "affirmative":
            qa = recs[rid.replace("#affirmative", "#qa")]
            assert r["statement"] != qa["statement"] and "?" not in r["statement"]
            assert r["label"] == qa["label"] and r["subset"] == qa["subset"]


async def test_raw_probability_is_what_the_verifier_says_before_calibration():
    from factgrain.agent.verifiers.base import VerifyItem
    from factgrain.agent.verifiers.fused import FusedVerifier
    from factgrain.agent.verifiers.lexical import LexicalVerifier
    from factgrain.calibration import CalibrationProfile
    from factgrain.evals.tasks.calibrated import raw_probability
    from factgrain.schemas.units import QAPair
    from factgrain.schemas.verdicts import Evidence

    unit = QAPair(id="q0", sentence_index=0, predicate="won", question="who won something?", answer="Laura Muir")
    ref = "The race was held in Glasgow. Laura Muir won the race after a late sprint."
    item = VerifyItem(unit, unit.components()[0], "Laura Muir won the race.", [Evidence(source_id="r", text=ref)])

    def profile(families, signals):
        n = len(signals)
        return CalibrationProfile(name="p", families=families, signals=signals, coefficients=[0.7] * n,
                                  intercept=-0.4, means=[0.1] * n, scales=[2.0] * n, threshold=0.35)

    fused = FusedVerifier(ScriptedBackend(handler=lambda req: 0.999993), profile=profile(["llm"], ["llm.logit"]))
    (v,) = await fused.verify_items([item])
    assert raw_probability(v, fused) == (pytest.approx(0.999993, abs=1e-6), "llm")  # not clipped like the logit
    assert v.probability != pytest.approx(0.999993, abs=1e-3)
    # a lexical-only profile: the raw probability is the lexical verifier's own
    lex_only = FusedVerifier(None, profile=profile(["lexscore"], ["lexscore.logit"]))
    (v,) = await lex_only.verify_items([item])
    (plain,) = await LexicalVerifier().verify_items([item])
    assert raw_probability(v, lex_only) == (pytest.approx(plain.probability), "lexical")
    assert raw_probability(plain, LexicalVerifier()) == (plain.probability, "lexical")


def test_evidence_for_is_the_checks_evidence_selection():
    from factgrain.agent.evaluator import Evaluator
    from factgrain.schemas.units import QAPair

    ev = Evaluator(eval_backend(), verifier="llm", retrieval_budget_chars=300, retrieval_k=1)
    unit = QAPair(id="q0", sentence_index=0, predicate="won", question="who won something?", answer="Laura Muir")
    comp = unit.components()[0]
    short = ev.evidence_for("Laura Muir won the race.")(unit, comp, "Laura Muir won.")
    assert [e.text for e in short] == ["Laura Muir won the race."]
    long_ref = " ".join(["Rain fell on the hills all week and the rivers rose."] * 60 + ["Laura Muir won the race."])
    (hit,) = ev.evidence_for(long_ref)(unit, comp, "Laura Muir won.")
    assert "Laura Muir won" in hit.text and len(hit.text) < len(long_ref)


def test_each_verifier_has_its_own_budget_for_a_whole_reference():
    from factgrain.agent.evaluator import Evaluator
    from factgrain.schemas.units import QAPair

    unit = QAPair(id="q0", sentence_index=0, predicate="won", question="who won something?", answer="Laura Muir")
    comp = unit.components()[0]
    long_ref = " ".join(["Rain fell on the hills all week and the rivers rose."] * 150 + ["Laura Muir won the race."])
    assert 6000 < len(long_ref) < 100_000
    # the lexical verifier reads a reference sentence by sentence itself: given whole
    (whole,) = Evaluator(verifier="lexical").evidence_for(long_ref)(unit, comp, "Laura Muir won.")
    assert whole.text == long_ref
    # a model verifier gets the passages that fit its prompt; an explicit budget overrides either
    passages = Evaluator(eval_backend(), verifier="llm").evidence_for(long_ref)(unit, comp, "Laura Muir won.")
    assert all(len(e.text) < 6000 for e in passages) and any("Laura Muir won" in e.text for e in passages)
    (hit, *_) = Evaluator(verifier="lexical", retrieval_budget_chars=300, retrieval_k=1).evidence_for(long_ref)(
        unit, comp, "Laura Muir won.")
    assert len(hit.text) < len(long_ref)


# -- qasem-decomposer ---------------------------------------------------------------------------

def test_token_iou_matching_by_hand():
    text = "John met Mary in Paris. She left."
    toks = [["John", "met", "Mary", "in", "Paris", "."], ["She", "left", "."]]
    off = token_offsets(text, toks)
    assert off[4] == (17, 22) and off[7] == (28, 32)
    assert covered((9, 22), off) == {2, 3, 4}  # "Mary in Paris"
    assert iou({4}, {3, 4}) == 0.5
    gold = [{"predicate": "met", "predicate_tok": 1, "answer_toks": [3, 4]},
            {"predicate": "met", "predicate_tok": 1, "answer_toks": [0]}]
    pred = [{"predicate": "met", "predicate_toks": [1], "answer_toks": [2, 3, 4]},  # IOU 2/3
            {"predicate": "met", "predicate_toks": [1], "answer_toks": [0, 1, 2, 3]},  # IOU 1/4
            {"predicate": "left", "predicate_toks": [7], "answer_toks": [0]}]  # another predicate
    assert match(gold, pred) == [(0, 0, 0.6667)]


def test_decomposer_scores_gold_qas_as_a_near_perfect_decomposer(tmp_path, data_dir):
    """Replay the gold QAs as the model's answer: predicate recall and QA recall must be ~1."""
    examples = load_responses("dev", limit=3, seed=1)
    gold_by_sentence = {}
    for ex in examples:
        for q in ex.qas:
            s = ex.sentences[q.sent_id]
            gold_by_sentence.setdefault(s.strip(), []).append(
                {"predicate": q.predicate, "predicate_type": "verbal", "question": q.question, "answer": q.answer})

    def acceptable(qa, sentence):  # the decomposer's own validators (a gold answer may be re-tokenised)
        from pydantic import ValidationError

        from factgrain.agent.decompose.qasem import QADraft

        try:
            QADraft.model_validate(qa, context={"sentence": sentence})
            return True
        except ValidationError:
            return False

    def replay(req):
        if req.kind == "structured":
            sent = sentence_of(req).strip()
            qas = [q for s, v in gold_by_sentence.items() if s == sent for q in v]
            return {"qas": [q for q in qas if acceptable(q, sent)][:12]}
        return 0.9

    res = run_eval("qasem-decomposer", split="dev", limit=3, seed=1, out=tmp_path, make_plots=False,
                   settings=EvalSettings(model=ScriptedBackend(handler=replay), verifier="llm"))
    fig = res.tables[0].data["all"]
    assert fig["predicate_recall"] > 0.8 and fig["precision"] > 0.8, fig
    assert fig["wh_agreement"] > 0.95  # the replayed questions are gold's own
    # the aggregate is the micro-average of the per-response counts in the file
    recs = lines(tmp_path)
    assert fig["recall"] == pytest.approx(sum(r["matched"] for r in recs) / sum(r["n_gold"] for r in recs))
    assert all(r["n_units"] == r["n_pred"] for r in recs)


async def test_decomposer_gold_tokens_are_response_level(data_dir):
    """In a later sentence the gold answer's tokens (response-level indices) sit where the answer
    is in the text; qasem-dev-63, whose only sentence is numbered 1, is scored too."""
    from factgrain.evals.datasets import load_responses

    by_id = {r.id: r for r in load_responses("dev")}
    r = by_id["qasem-dev-38"]
    q = next(q for q in r.qas if q.qa_id == 3)  # "He" starts sentence 1 (token 29 of the response)
    off = token_offsets(r.text, r.sentence_tokens)
    a, b = off[q.answer_idx[0]]
    assert r.text[a:b] == "He" and a > 0
    assert r.text[slice(*off[q.predicate_idx])] == "starred"
    from factgrain.evals.tasks.base import EvalContext, Job

    odd = by_id["qasem-dev-63"]
    ctx = EvalContext(EvalSettings(model=eval_backend(), verifier="llm"))
    rec = await get_task("qasem-decomposer").predict(Job(odd.id, odd.model_dump(mode="json")), ctx)
    assert rec["n_gold"] == 8 and rec["gold_predicates"] == 2


def test_decomposer_penalises_wrong_answers(tmp_path, data_dir):
    res = run_eval("qasem-decomposer", split="dev", limit=3, seed=1, out=tmp_path, make_plots=False,
                   settings=EvalSettings(model=eval_backend(), verifier="llm"))
    fig = res.tables[0].data["all"]
    assert fig["qas_per_sentence"] > 0 and fig["precision"] < 0.6
    assert recompute(tmp_path)[0][0].rows == res.tables[0].rows


# -- dilemmas -----------------------------------------------------------------------------------

def test_methods_default_to_every_registered_one():
    methods = expand_methods()
    assert "qasem" in methods
    assert all(not m.endswith(":") for m in methods)
    assert expand_methods(["none"]) == ["none"]


@pytest.mark.parametrize("task,split", [("dilemmas-wice", "dev"), ("dilemmas-felm", "test"),
                                        ("dilemmas-bingchat", "test")])
def test_dilemmas_rows_per_method(tmp_path, data_dir, task, split):
    res = run_eval(task, split=split, limit=2, out=tmp_path, settings=EvalSettings(model=eval_backend(), verifier="llm"),
                   task_options={"methods": ["none", "qasem"]})
    recs = lines(tmp_path)
    assert len(recs) == 4 and not [r for r in recs if "error" in r]
    assert {r["method"] for r in recs} == {"none", "qasem"}
    main = res.tables[0]
    assert [row[0] for row in main.rows] == ["none", "qasem"]
    assert main.data[("none", False)]["avg_units"] == 1.0
    for r in recs:
        assert (r["score"] is None) == (r["status"] != "ok")
    if task == "dilemmas-bingchat":
        assert all(r["combined_num"] >= 1 for r in recs)
        assert any(t.title.startswith("Complexity scaling (qasem)") for t in res.tables)
        assert list(tmp_path.glob("heatmap-*.png"))


def test_felm_keeps_world_knowledge_rows_with_a_reference(data_dir):
    jobs = get_task("dilemmas-felm", methods=["none"]).jobs("test", limit=5, seed=0)
    assert len(jobs) == 5
    assert all(j.payload["reference"] and j.payload["question"] for j in jobs)
    assert all(j.payload["example_id"].startswith("felm-wk") for j in jobs), [j.payload["example_id"] for j in jobs]


def test_reflect_rows_need_the_reflection_stage(data_dir):
    import importlib.util

    task = get_task("dilemmas-wice", methods=["none"], reflect=True)
    if importlib.util.find_spec("factgrain.agent.reflect") is None:
        from factgrain.errors import ConfigurationError

        with pytest.raises(ConfigurationError, match="reflection"):
            task.jobs("dev", limit=1, seed=0)
    else:
        assert [j.id.split("#")[1] for j in task.jobs("dev", limit=1, seed=0)] == ["none", "none+reflect"]


# -- smoke test of the default (offline) path: a row per task --------------------------------------

@pytest.mark.parametrize("task,split,opts", [
    ("qasem-table4", "dev", {}),
    ("qasem-decomposer", "dev", {}),
    ("dilemmas-wice", "dev", {"methods": ["none"]}),
    ("dilemmas-felm", "test", {"methods": ["none"]}),
    ("dilemmas-bingchat", "test", {"methods": ["none"]}),
])
def test_default_offline_smoke(tmp_path, data_dir, task, split, opts):
    # nothing configured: every task runs on the offline path (spaCy reader, lexical verifier)
    res = run_eval(task, split=split, limit=1, out=tmp_path, task_options=opts, make_plots=False)
    recs = lines(tmp_path)
    assert recs and not [r for r in recs if "error" in r], recs
    assert recs[0]["run"]["model"] == "offline/none"
    assert res.tables[0].rows
    assert task in task_names()
    assert re.search(r"\| (all|none) \|", res.markdown)


def test_jsonl_task_batch_checks_a_user_file(tmp_path):
    from factgrain.errors import InputError

    src = tmp_path / "in.jsonl"
    rows = [{"id": f"r{i}", "text": "The cat sat on the mat.", "reference": "A cat sat on a mat.", "label": i % 2}
            for i in range(3)]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    res = run_eval("jsonl", split="-", out=tmp_path / "out", task_options={"path": str(src)}, make_plots=False,
                   settings=EvalSettings(model=eval_backend(), verifier="llm"))
    recs = lines(tmp_path / "out")
    assert [r["id"] for r in sorted(recs, key=lambda r: r["id"])] == ["r0", "r1", "r2"]
    assert all(r["report"]["results"] and r["n_units"] == 2 for r in recs)
    assert dict(res.tables[0].rows)["rows"] == 3 and "BAcc" in dict(res.tables[0].rows)
    src.write_text('{"id": "a", "text": "x"}\n')
    with pytest.raises(InputError, match="needs 'text' and 'reference'"):
        get_task("jsonl", path=str(src)).jobs("-", limit=None, seed=0)
