"""Engines are chosen by name from a registry; the runner talks to the Engine interface only, so a
registered engine runs a benchmark (and resumes it) exactly like the built-in ones."""

from __future__ import annotations

import json

import pytest

from factgrain.errors import ConfigurationError
from factgrain.evals import engines
from factgrain.evals.engines import Engine, LocalEngine, get_engine, register_engine
from factgrain.evals.runner import run_eval
from factgrain.evals.tasks.base import EvalSettings
from tests.evals.evalkit import eval_backend

SEEN: list[str] = []


class SequentialEngine(Engine):
    """One prediction at a time through the local engine's code: a minimal third engine."""

    name = "sequential"

    def run(self, task, jobs, settings, *, split, write, advance):
        def record(rec):
            SEEN.append(rec["id"])
            write(rec)

        LocalEngine(concurrency=1).run(task, jobs, settings, split=split, write=record, advance=advance)


def test_names_and_unknown_engine():
    assert {"local", "ray"} <= set(engines.engine_names())
    with pytest.raises(ConfigurationError, match="unknown engine 'spark'; choose local, ray"):
        get_engine("spark")
    with pytest.raises(ConfigurationError, match="--endpoints spreads work over several with --engine ray"):
        get_engine("local", endpoints=["http://127.0.0.1:9/v1"])


def test_a_registered_engine_runs_and_resumes_a_benchmark(tmp_path, data_dir, monkeypatch):
    monkeypatch.setitem(engines._ENGINES, "sequential", f"{__name__}:SequentialEngine")
    SEEN.clear()
    settings = EvalSettings(model=eval_backend(), verifier="llm")
    res = run_eval("qasem-table4", split="dev", limit=3, out=tmp_path, settings=settings, engine="sequential",
                   make_plots=False)
    assert res.new_records == 6 and len(SEEN) == 6
    recs = [json.loads(line) for line in (tmp_path / "predictions.jsonl").read_text().splitlines()]
    assert {r["id"] for r in recs} == set(SEEN)
    runs = json.loads((tmp_path / "run.json").read_text())["sessions"]
    assert runs[-1]["engine"] == "sequential"
    # resumed by another engine: nothing left to predict, the same table
    again = run_eval("qasem-table4", split="dev", limit=3, out=tmp_path, settings=settings, make_plots=False)
    assert again.new_records == 0 and again.tables[0].rows == res.tables[0].rows


def test_register_engine_adds_a_name(monkeypatch):
    monkeypatch.setattr(engines, "_ENGINES", dict(engines._ENGINES))
    register_engine("sequential", f"{__name__}:SequentialEngine")
    assert isinstance(get_engine("sequential"), SequentialEngine)
