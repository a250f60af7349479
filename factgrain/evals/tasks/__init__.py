"""Benchmark tasks, one module each, found by name (imported only when chosen)."""

from __future__ import annotations

import importlib
from typing import Any

from factgrain.errors import ConfigurationError

TASKS: dict[str, str] = {
    "qasem-table4": "factgrain.evals.tasks.qasem_table4:QasemTable4",
    "qasem-decomposer": "factgrain.evals.tasks.qasem_decomposer:QasemDecomposer",
    "dilemmas-wice": "factgrain.evals.tasks.dilemmas_wice:DilemmasWice",
    "dilemmas-felm": "factgrain.evals.tasks.dilemmas_felm:DilemmasFelm",
    "dilemmas-bingchat": "factgrain.evals.tasks.dilemmas_bingchat:DilemmasBingchat",
    "jsonl": "factgrain.evals.tasks.jsonl_file:JsonlFile",
}


def task_names() -> list[str]:
    return list(TASKS)


def get_task(name: str, **options: Any) -> Any:
    if name not in TASKS:
        raise ConfigurationError(f"unknown task {name!r}; available: {', '.join(TASKS)}")
    module, cls = TASKS[name].split(":")
    return getattr(importlib.import_module(module), cls)(**options)
