"""Run a benchmark task: predictions streamed to ``<out>/predictions.jsonl``, resumable, then tables.

Every record carries the run metadata (task, split, backend, model, verifier, git commit, package
version) next to its own prompt versions, so a predictions file explains itself. ``run.json`` holds
the configuration; resuming with a different one is refused (use another ``--out``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factgrain.errors import ConfigurationError, FactgrainError, InputError
from factgrain.evals.devrun import attach_dev_run
from factgrain.evals.engines import Engine, get_engine
from factgrain.evals.store import PredictionStore
from factgrain.evals.tasks import get_task
from factgrain.evals.tasks.base import EvalSettings, Table, Task


@dataclass
class RunResult:
    out_dir: Path
    tables: list[Table]
    markdown: str
    new_records: int
    total_records: int
    errors: int
    wall_s: float
    units: int
    plots: list[Path] = field(default_factory=list)

    @property
    def seconds_per_100_units(self) -> float | None:
        return 100 * self.wall_s / self.units if self.units else None


def _model_label(model: Any) -> str | None:
    return getattr(model, "name", None) or (str(model) if model is not None else None)


def fingerprint(task: Task, split: str, limit: int | None, seed: int, settings: EvalSettings) -> dict[str, Any]:
    """What must match for a resume to continue the same run."""
    return {"task": task.name, "split": split, "limit": limit, "seed": seed, "task_options": task.config(),
            "model": _model_label(settings.model), "decomposer_model": settings.decomposer_model,
            "verifier_model": settings.verifier_model, "reflector_model": settings.reflector_model,
            "verifier": settings.verifier, "options": settings.options,
            # only when set, so runs written before the field existed still resume
            **({"calibration": settings.calibration} if settings.calibration else {})}


def run_eval(
    task_name: str,
    *,
    split: str,
    out: str | Path,
    limit: int | None = None,
    seed: int = 0,
    settings: EvalSettings | None = None,
    task_options: dict[str, Any] | None = None,
    engine: str | Engine = "local",
    endpoints: list[str] | None = None,
    concurrency: int = 4,
    retry_errors: bool = False,
    make_plots: bool = True,
    ray_actors: int | None = None,
) -> RunResult:
    """Run (or resume) ``task_name`` on ``split`` and write predictions, report.md and plots to ``out``.

    ``engine`` is a name from :mod:`factgrain.evals.engines` (``local``, ``ray``) or an Engine;
    ``endpoints`` and ``ray_actors`` go to it."""
    from factgrain import progress
    from factgrain.evals.report import render_markdown

    settings = settings or EvalSettings()
    runner = get_engine(engine, concurrency=concurrency, endpoints=endpoints, actors=ray_actors)
    task = get_task(task_name, **(task_options or {}))
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    run_file = out_dir / "run.json"
    fp = fingerprint(task, split, limit, seed, settings)
    info = json.loads(run_file.read_text()) if run_file.exists() else {"config": fp, "sessions": []}
    if info["config"] != fp:
        diff = sorted(k for k in fp if info["config"].get(k) != fp[k])
        raise ConfigurationError(f"{out_dir} holds a run with a different configuration ({', '.join(diff)}); "
                                 "use another --out to start a new run")
    try:
        jobs = task.jobs(split, limit=limit, seed=seed)
    except FactgrainError:
        raise
    except (ValueError, FileNotFoundError) as exc:  # unknown split, missing data folder
        raise InputError(str(exc)) from None
    store = PredictionStore(out_dir / "predictions.jsonl")
    store.repair()
    if retry_errors:
        store.drop({r["id"] for r in store.read() if "error" in r})
    done = store.done_ids()
    pending = [j for j in jobs if j.id not in done]

    t0 = time.perf_counter()
    new: list[dict[str, Any]] = []
    with store.open_append() as appender, progress.bar(len(pending), f"{task.name} {split}") as advance:
        def write(record: dict[str, Any]) -> None:
            appender.write(record)
            new.append(record)

        if pending:
            runner.run(task, pending, settings, split=split, write=write, advance=advance)
    wall = time.perf_counter() - t0

    ids = {j.id for j in jobs}
    records = [r for r in store.read() if r["id"] in ids]
    units = sum(task.units(r) for r in new if "error" not in r)
    info["sessions"].append({"engine": runner.name, "new_records": len(new), "wall_s": round(wall, 3), "units": units,
                             "s_per_100_units": round(100 * wall / units, 3) if units else None})
    run_file.write_text(json.dumps(info, indent=2, default=str))
    attach_dev_run(task, out_dir)
    tables = task.summarize(records)
    meta = records[0]["run"] if records else {}
    markdown = render_markdown(tables, meta=meta, n_records=len(records), n_jobs=len(jobs))
    (out_dir / "report.md").write_text(markdown, encoding="utf-8")
    plot_paths: list[Path] = []
    if make_plots and records:
        plot_paths = [Path(p) for p in task.plots(records, out_dir)]
    return RunResult(out_dir, tables, markdown, len(new), len(records), sum(1 for r in records if "error" in r),
                     wall, units, plot_paths)
