import json

import pytest

from factgrain.errors import BackendError, ConfigurationError, InputError
from factgrain.evals import metrics as M
from factgrain.evals.report import recompute
from factgrain.evals.runner import run_eval
from factgrain.evals.store import PredictionStore
from factgrain.evals.tasks.base import EvalSettings
from tests.evals.evalkit import eval_backend, handler, p_of
from factgrain.backends.scripted import ScriptedBackend
from tests.scripted import statement_of


def settings(backend=None, **kw):
    return EvalSettings(model=backend or eval_backend(), verifier="llm", **kw)


def lines(out):
    return [json.loads(l) for l in (out / "predictions.jsonl").read_text().splitlines()]


def test_table4_predictions_carry_metadata_and_recompute_independently(tmp_path, data_dir):
    res = run_eval("qasem-table4", split="dev", limit=8, seed=3, out=tmp_path, settings=settings())
    recs = lines(tmp_path)
    assert len(recs) == 16 and len({r["id"] for r in recs}) == 16
    for r in recs:
        assert r["run"]["model"] == "scripted/scripted" and r["run"]["verifier"] == "llm:scripted/scripted"
        assert r["run"]["backend"] == "scripted" and "git_commit" in r["run"] and r["run"]["split"] == "dev"
        assert r["prompt_versions"] == {"verify": "verify-v1"}
        assert r["probability"] == pytest.approx(p_of(r["statement"]), abs=1e-6)
    # the same figure from the JSONL alone, with the metrics module only
    qa = [r for r in recs if r["style"] == "qa"]
    bacc = M.balanced_accuracy([r["label"] for r in qa], [int(r["probability"] >= 0.5) for r in qa])
    assert res.tables[0].data[("all", "qa")]["bacc"] == pytest.approx(bacc)
    assert f"{100 * bacc:.1f}" in res.markdown
    assert recompute(tmp_path)[1] == res.markdown.replace(" of 16", "")
    assert (tmp_path / "report.md").read_text() == res.markdown
    assert (tmp_path / "roc.png").stat().st_size > 1000 and (tmp_path / "reliability.png").exists()
    assert res.units == 16 and res.seconds_per_100_units > 0


def test_resume_after_interruption_writes_every_row_exactly_once(tmp_path, data_dir):
    run_eval("qasem-table4", split="dev", limit=6, out=tmp_path, settings=settings(), make_plots=False)
    path = tmp_path / "predictions.jsonl"
    full = path.read_text().splitlines(keepends=True)
    # an interruption: four records kept, the fifth half written
    path.write_text("".join(full[:4]) + full[4][:30])
    counting = eval_backend()
    res = run_eval("qasem-table4", split="dev", limit=6, out=tmp_path, settings=settings(counting), make_plots=False)
    recs = lines(tmp_path)
    assert sorted(r["id"] for r in recs) == sorted(json.loads(l)["id"] for l in full)
    assert res.new_records == 8 and len(counting.requests) == 8  # only the missing rows were predicted
    again = eval_backend()
    res = run_eval("qasem-table4", split="dev", limit=6, out=tmp_path, settings=settings(again), make_plots=False)
    assert res.new_records == 0 and again.requests == [] and len(lines(tmp_path)) == 12


def test_keyboard_interrupt_keeps_finished_rows(tmp_path, data_dir):
    calls = {"n": 0}

    def stop_after_three(req):
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        return handler(req)

    with pytest.raises(KeyboardInterrupt):
        run_eval("qasem-table4", split="dev", limit=4, out=tmp_path, make_plots=False, concurrency=1,
                 settings=settings(ScriptedBackend(handler=stop_after_three)))
    assert len(lines(tmp_path)) == 3
    res = run_eval("qasem-table4", split="dev", limit=4, out=tmp_path, settings=settings(), make_plots=False)
    assert res.new_records == 5 and len({r["id"] for r in lines(tmp_path)}) == 8


def test_failures_are_recorded_then_retried_on_request(tmp_path, data_dir):
    def flaky(req):
        if req.kind == "chat" and len(statement_of(req)) % 2:
            return BackendError("endpoint down")
        return handler(req)

    res = run_eval("qasem-table4", split="dev", limit=6, out=tmp_path, settings=settings(ScriptedBackend(handler=flaky)),
                   make_plots=False)
    failed = [r for r in lines(tmp_path) if r.get("status") == "unscored"]
    assert failed and all("endpoint down" in r["reason"] for r in failed)
    assert res.tables[0].data[("all", "qa")]["unscored"] == sum(r["style"] == "qa" for r in failed)
    # a task-level failure becomes an error record, and --retry-errors runs exactly those again
    store = PredictionStore(tmp_path / "predictions.jsonl")
    recs = store.read()
    recs[0] = {"id": recs[0]["id"], "error": "BackendError: boom", "run": recs[0]["run"]}
    (tmp_path / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert "1 prediction(s) failed" in recompute(tmp_path)[1]
    fixed = eval_backend()
    res = run_eval("qasem-table4", split="dev", limit=6, out=tmp_path, settings=settings(fixed),
                   make_plots=False, retry_errors=True)
    assert res.new_records == 1 and len(fixed.requests) == 1
    assert len({r["id"] for r in lines(tmp_path)}) == len(lines(tmp_path)) == 12


def test_resume_refuses_a_different_configuration(tmp_path, data_dir):
    run_eval("qasem-table4", split="dev", limit=2, out=tmp_path, settings=settings(), make_plots=False)
    with pytest.raises(ConfigurationError, match="different configuration.*limit"):
        run_eval("qasem-table4", split="dev", limit=3, out=tmp_path, settings=settings(), make_plots=False)


def test_unknown_split_and_task_are_clear_errors(tmp_path, data_dir):
    with pytest.raises(InputError, match="valid splits: test"):
        run_eval("dilemmas-bingchat", split="dev", limit=2, out=tmp_path / "a", settings=settings())
    with pytest.raises(ConfigurationError, match="unknown task"):
        run_eval("nope", split="dev", out=tmp_path / "b", settings=settings())


def test_cache_option_reaches_the_evaluator(tmp_path, data_dir):
    from factgrain.evals.tasks.base import EvalContext

    ev = EvalContext(settings(cache=True, options={"cache_dir": str(tmp_path / "c")})).evaluator()
    assert ev.options.cache is True
    ev = EvalContext(settings(cache=False)).evaluator()
    assert ev.options.cache is False


def test_cli_eval_prints_the_table(tmp_path, data_dir, capsys, monkeypatch):
    from factgrain.cli import main

    monkeypatch.setenv("FACTGRAIN_EMBEDDED_THREADS", "1")
    rc = main(["eval", "--task", "qasem-table4", "--split", "dev", "--limit", "3", "--verifier", "lexical",
               "--out", str(tmp_path), "--no-plots"])
    out, err = capsys.readouterr()
    assert rc == 0 and "| all | 3 |" in out and "s per 100 units" in err
    assert len(lines(tmp_path)) == 6 and all(r["run"]["verifier"].startswith("lexical") for r in lines(tmp_path))


# -- raw and calibrated BAcc side by side -------------------------------------------------------

def _platt_profile(tmp_path, threshold=0.3):
    """A hand-made LLM-only profile: calibrated P >= 0.5 exactly when P(Yes) >= ``threshold``."""
    from factgrain.calibration import CalibrationProfile, save_profile

    prof = CalibrationProfile(name="cal", families=["llm"], signals=["llm.logit"], coefficients=[1.0], intercept=0.0,
                              means=[0.0], scales=[1.0], threshold=threshold)
    return str(save_profile(prof, tmp_path / "cal.json"))


def _bacc(recs, key, thr):
    return M.balanced_accuracy([r["label"] for r in recs], [int(r[key] >= thr) for r in recs])


def test_calibration_reaches_the_evaluator(tmp_path, monkeypatch):
    from factgrain.agent.verifiers.fused import FusedVerifier
    from factgrain.cli import main
    from factgrain.evals.tasks.base import EvalContext

    ev = EvalContext(settings(calibration=_platt_profile(tmp_path))).evaluator()
    assert isinstance(ev.verifier, FusedVerifier) and ev.verifier.profile.threshold == 0.3
    seen = {}
    monkeypatch.setattr("factgrain.evals.runner.run_eval", lambda *a, **kw: seen.update(kw) or 1 / 0)
    with pytest.raises(ZeroDivisionError):
        main(["eval", "--task", "qasem-table4", "--calibration", "mine", "--out", str(tmp_path / "o")])
    assert seen["settings"].calibration == "mine" and "calibration" not in seen["settings"].options


def test_table4_with_a_profile_shows_raw_and_calibrated_bacc(tmp_path, data_dir):
    res = run_eval("qasem-table4", split="test", limit=12, seed=2, out=tmp_path / "t4-test", make_plots=False,
                   settings=settings(calibration=_platt_profile(tmp_path)))
    recs = lines(tmp_path / "t4-test")
    for r in recs:  # the LLM's P(Yes) as it came, and the profile's probability next to it
        assert r["p_raw"] == pytest.approx(p_of(r["statement"]), abs=1e-6) and r["raw_from"] == "llm"
        assert r["calibration"] == "cal" and r["calibration_families"] == ["llm"]
        assert (r["probability"] >= 0.5) == (r["p_raw"] >= 0.3)
    qa = [r for r in recs if r["style"] == "qa"]
    table = res.tables[0]
    assert table.data[("all", "qa")]["bacc"] == pytest.approx(_bacc(qa, "p_raw", 0.5))
    assert table.data[("all", "qa", "cal")]["bacc"] == pytest.approx(_bacc(qa, "p_raw", 0.3))
    assert table.data[("all", "qa")]["auc"] == pytest.approx(M.roc_auc([r["label"] for r in qa], [r["p_raw"] for r in qa]))
    assert {"BAcc@0.5 QA", "BAcc cal QA", "AUC QA", "AUC cal QA"} <= set(table.columns)
    assert "profile `cal`" in table.note
    assert recompute(tmp_path / "t4-test")[1] == res.markdown


def test_table4_without_a_profile_tunes_the_threshold_on_a_sibling_dev_run(tmp_path, data_dir):
    dev = run_eval("qasem-table4", split="dev", limit=30, out=tmp_path / "t4-dev", settings=settings(), make_plots=False)
    assert not any(c.startswith("BAcc cal") for c in dev.tables[0].columns)  # never tuned on itself
    res = run_eval("qasem-table4", split="test", limit=12, out=tmp_path / "t4-test", settings=settings(),
                   make_plots=False)
    dev_qa = [r for r in lines(tmp_path / "t4-dev") if r["style"] == "qa"]
    t, _ = M.best_threshold([r["label"] for r in dev_qa], [r["p_raw"] for r in dev_qa])
    qa = [r for r in lines(tmp_path / "t4-test") if r["style"] == "qa"]
    assert all(r["p_raw"] == r["probability"] and r["calibration"] is None for r in qa)
    table = res.tables[0]
    assert table.data[("all", "qa", "cal")]["bacc"] == pytest.approx(_bacc(qa, "p_raw", t))
    assert "BAcc cal QA" in table.columns and "AUC cal QA" not in table.columns
    assert f"qa {t:.3f} (30 rows)" in table.note and "t4-dev" in table.note
    assert recompute(tmp_path / "t4-test")[1] == res.markdown
    # a run with another setup (here: other styles) has no dev sibling, so no calibrated column
    other = run_eval("qasem-table4", split="test", limit=4, out=tmp_path / "t4-qa-test", settings=settings(),
                     task_options={"styles": ("qa",)}, make_plots=False)
    assert "BAcc cal QA" not in other.tables[0].columns and "No calibrated column" in other.tables[0].note


def test_cli_eval_span_mode_is_used_and_part_of_the_run_configuration(tmp_path, data_dir, capsys):
    from factgrain.cli import main

    out = tmp_path / "dec"
    rc = main(["eval", "--task", "qasem-decomposer", "--split", "dev", "--limit", "2", "--span-mode", "parse",
               "--out", str(out), "--no-plots"])
    assert rc == 0
    assert json.loads((out / "run.json").read_text())["config"]["options"] == {"span_mode": "parse"}
    # free mode needs a model: the offline default refuses, and the resume guard names what changed
    rc = main(["eval", "--task", "qasem-decomposer", "--split", "dev", "--limit", "2", "--span-mode", "free",
               "--out", str(out), "--no-plots"])
    err = capsys.readouterr().err
    assert rc != 0 and "different configuration (options)" in err
    rc = main(["eval", "--task", "qasem-decomposer", "--split", "dev", "--limit", "2", "--span-mode", "free",
               "--out", str(tmp_path / "free"), "--no-plots"])
    err = capsys.readouterr().err
    assert rc == 4 and "error: 2 of 2 predictions failed" in err and "no model is configured" in err
