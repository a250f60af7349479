"""Find the dev run a non-dev run may borrow a tuned decision threshold from.

Without a calibration profile, a task's "calibrated" column cuts the raw probabilities at the
threshold that maximises balanced accuracy on *dev* predictions of the same setup. Those come from
a sibling run folder (same parent as OUT, e.g. ``factgrain-eval/qasem-table4-dev`` next to
``factgrain-eval/qasem-table4-test``) whose ``run.json`` holds the same configuration except the
split, which must be ``dev`` (limit and seed may differ). Never test: a test run never tunes
anything, and a dev run is not tuned on itself (its calibrated column is left out).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from factgrain.evals.store import PredictionStore

#: configuration keys a dev run may differ in
_FREE = ("split", "limit", "seed")


def _config(folder: Path) -> dict[str, Any] | None:
    try:
        return json.loads((folder / "run.json").read_text(encoding="utf-8"))["config"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def find_dev_run(out_dir: str | Path) -> tuple[Path, list[dict[str, Any]]] | None:
    """``(folder, records)`` of the sibling dev run with this run's configuration, or None.
    With several, the one with the most error-free predictions wins (then the folder name)."""
    out = Path(out_dir).resolve()
    mine = _config(out)
    if mine is None or mine.get("split") == "dev" or not out.parent.is_dir():
        return None
    same = {k: v for k, v in mine.items() if k not in _FREE}
    found = []
    for folder in sorted(out.parent.iterdir()):
        if folder == out or not folder.is_dir():
            continue
        cfg = _config(folder)
        if cfg is None or cfg.get("split") != "dev" or {k: v for k, v in cfg.items() if k not in _FREE} != same:
            continue
        records = [r for r in PredictionStore(folder / "predictions.jsonl").read()
                   if "error" not in r and r.get("run", {}).get("split") == "dev"]
        if records:
            found.append((-len(records), folder.name, folder, records))
    if not found:
        return None
    _, _, folder, records = min(found, key=lambda f: (f[0], f[1]))
    return folder, records


def attach_dev_run(task: Any, out_dir: str | Path) -> None:
    """Give ``task`` its dev run when it can use one (``Task.tunes_on_dev``)."""
    if getattr(task, "tunes_on_dev", False):
        task.dev_run = find_dev_run(out_dir)
