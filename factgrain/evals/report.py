"""Markdown tables of a run, recomputed from its predictions file alone.

    python -m factgrain.evals.report OUT_DIR_OR_PREDICTIONS_JSONL

reads the records, rebuilds the task from the options stored in them and prints its tables; nothing
from the run that wrote the file is needed, except that a task's dev-tuned threshold column (see
``factgrain.evals.devrun``) also reads the sibling dev run's predictions.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from factgrain.evals.devrun import attach_dev_run
from factgrain.evals.store import PredictionStore
from factgrain.evals.tasks.base import Table


def table_markdown(table: Table) -> str:
    def cell(v: Any) -> str:
        return str(v).replace("|", "\\|")

    lines = [f"### {table.title}", "", "| " + " | ".join(table.columns) + " |",
             "|" + "|".join("---" for _ in table.columns) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.rows]
    if table.note:
        lines += ["", table.note]
    return "\n".join(lines) + "\n"


def render_markdown(tables: list[Table], *, meta: dict[str, Any], n_records: int, n_jobs: int | None = None) -> str:
    head = [f"## {meta.get('task', 'evaluation')} ({meta.get('split', '?')})", ""]
    if meta:
        head.append(f"model `{meta.get('model')}` · verifier `{meta.get('verifier')}` · backend "
                    f"`{meta.get('backend')}` · commit `{meta.get('git_commit')}` · factgrain "
                    f"{meta.get('factgrain_version')}")
    done = f"{n_records} predictions" + (f" of {n_jobs}" if n_jobs is not None and n_jobs != n_records else "")
    head += [done, ""]
    return "\n".join(head) + "\n" + "\n".join(table_markdown(t) for t in tables)


def recompute(path: str | Path) -> tuple[list[Table], str]:
    """Tables and Markdown from a predictions file (or the run folder holding one)."""
    from factgrain.evals.tasks import get_task

    p = Path(path)
    if p.is_dir():
        p = p / "predictions.jsonl"
    records = PredictionStore(p).read()
    if not records:
        raise ValueError(f"no predictions in {p}")
    meta = records[0]["run"]
    task = get_task(meta["task"], **meta.get("task_options", {}))
    attach_dev_run(task, p.parent)  # a sibling dev run (with its run.json) for tuned thresholds
    tables = task.summarize(records)
    return tables, render_markdown(tables, meta=meta, n_records=len(records))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print(recompute(args[0])[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
