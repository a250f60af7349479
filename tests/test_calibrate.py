"""`factgrain calibrate`: refuses test, fits on dev rows (leakage-filtered), saves a profile that
check loads by name."""

from __future__ import annotations

import json

import pytest

from factgrain.evals import calibrate as C
from factgrain.backends.scripted import ScriptedBackend
from factgrain.cli import main
from tests.scripted import statement_of


def test_split_test_is_refused(capsys):
    assert main(["calibrate", "--split", "test", "--name", "x", "--verifier", "lexical"]) == 3
    err = capsys.readouterr().err
    assert "never fits on test" in err and "Traceback" not in err


def test_unknown_task_and_family():
    from factgrain.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="unknown calibration task"):
        C.task_rows("nope", "dev")
    with pytest.raises(ConfigurationError, match="unknown signal family"):
        C.families_for(None, signals="llm,magic")


def test_dev_rows_drop_articles_shared_with_test(data_dir):
    rows, leak = C.task_rows("qasem-table4", "dev")
    assert leak["dropped_rows"] > 0 and len(rows) == leak["dev_rows"] - leak["dropped_rows"]
    assert {r["split"] for r in rows} == {"dev"}


def test_cli_lexical_profile_round_trip(data_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FACTGRAIN_HOME", str(tmp_path))
    assert main(["calibrate", "--verifier", "lexical", "--limit", "150", "--name", "lex150"]) == 0
    out = capsys.readouterr()
    path = tmp_path / "profiles" / "lex150.json"
    assert out.out.strip() == str(path) and "out-of-fold AUC" in out.err
    prof = json.loads(path.read_text())
    assert prof["families"] == ["lexical"] and prof["split"] == "dev" and prof["meta"]["n"] == 150
    assert prof["meta"]["dev_oof_auc"] > 0.6  # lexical overlap carries signal on QASem dev


async def test_llm_signal_is_calibrated_from_scripted_replies(data_dir):
    """A scripted 'LLM' whose P(Yes) follows the gold label but is biased low: the profile must find a
    threshold below 0.5 and separate the rows."""
    rows, _ = C.task_rows("qasem-table4", "dev", limit=80, seed=3)
    gold = {f"{r['question']} {r['answer']}": r["label"] for r in rows}

    def handler(req):
        return 0.35 if gold[statement_of(req)] else 0.1

    prof = await C.calibrate("qasem-table4", "dev", name="llm", families=["llm"], backend=ScriptedBackend(handler=handler),
                             limit=80, seed=3)
    assert prof.model == "scripted/scripted" and prof.meta["dev_oof_auc"] > 0.95
    assert prof.probability({"llm.logit": C._logit(0.35)}) > 0.5 > prof.probability({"llm.logit": C._logit(0.1)})


def test_check_flags_reach_the_evaluator():
    import argparse

    from factgrain.commands import check

    parser = argparse.ArgumentParser()
    check.add_parser(parser.add_subparsers())
    args = parser.parse_args(["check", "t.txt", "r.txt", "--calibration", "mine", "--nli-model", "dir", "--skip-uncovered"])
    kw = check.evaluator_kwargs(args)
    assert kw["calibration"] == "mine" and kw["nli_model"] == "dir" and kw["skip_uncovered"] is True
    plain = check.evaluator_kwargs(parser.parse_args(["check", "t.txt", "r.txt"]))
    assert not {"calibration", "nli_model", "skip_uncovered"} & set(plain)


async def test_calibration_verifies_on_the_same_evidence_as_eval(data_dir):
    """Issue 15 item 5: the fitting rows are verified on the prompts `eval --task qasem-table4` sends -
    BM25 passages for a long reference, the whole reference for a short one - not always the whole
    reference. Both sides run against a recording scripted backend and must send identical prompts."""
    from factgrain.backends.scripted import ScriptedBackend
    from factgrain.evals.tasks import get_task
    from factgrain.evals.tasks.base import EvalContext, EvalSettings

    rows, _ = C.task_rows("qasem-table4", "dev")
    long_rows = [r for r in rows if len(r["reference"] or "") > 6000][:4]
    short_rows = [r for r in rows if 0 < len(r["reference"] or "") <= 6000][:2]
    assert len(long_rows) == 4 and len(short_rows) == 2
    chosen = long_rows + short_rows

    def recorder(sent: dict):
        def handler(req):
            sent[statement_of(req)] = req.last_user
            return 0.7
        return ScriptedBackend(handler=handler)

    fitting: dict[str, str] = {}
    backend = recorder(fitting)
    await C.collect_signals(C.qa_items(chosen, C.evidence_selection(backend)), ["llm"], backend=backend)

    evaluating: dict[str, str] = {}
    task = get_task("qasem-table4", styles=("qa",))
    ctx = EvalContext(EvalSettings(model=recorder(evaluating), verifier="llm", cache=False))
    jobs = {j.id: j for j in task.jobs("dev", limit=None, seed=0)}
    for r in chosen:
        record = await task.predict(jobs[f"{r['id']}#qa"], ctx)
        assert record["status"] == "scored"

    assert len(fitting) == len(chosen) and fitting.keys() == evaluating.keys()
    for statement, prompt in fitting.items():
        assert prompt == evaluating[statement], statement
    # the long references really went through retrieval (a prompt shorter than its reference)
    by_statement = {f"{r['question']} {r['answer']}": r for r in chosen}
    shortened = [s for s, p in fitting.items() if len(p) < len(by_statement[s]["reference"])]
    assert len(shortened) >= len(long_rows)
