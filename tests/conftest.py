"""Shared fixtures. The embedded server tests run by default (the model ships with the package);
select fast tests only with ``-m 'not embedded'``."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("FACTGRAIN_DATA_DIR", REPO.parent / "shared" / "data"))


def pytest_addoption(parser):
    parser.addoption("--live", action="store_true", help="run tests against live remote endpoints")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--live"):
        return
    skip = pytest.mark.skip(reason="live test: pass --live")
    for item in items:
        if "live" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_progress(monkeypatch, tmp_path):
    monkeypatch.setenv("FACTGRAIN_PROGRESS", "0")
    # Evaluations cache LLM calls by default: keep each test's cache to itself.
    monkeypatch.setenv("FACTGRAIN_CACHE_DIR", str(tmp_path / "llm-cache"))


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.exists():
        if os.environ.get("CI"):  # CI has shared/ beside the clone: a missing copy is a broken run, not a skip
            pytest.fail(f"shared data not found at {DATA} (set FACTGRAIN_DATA_DIR)")
        pytest.skip(f"shared data not found at {DATA}")
    return DATA


@pytest.fixture(scope="session")
def first_rows(data_dir):
    def load(name: str, split: str = "dev", n: int = 1) -> list[dict]:
        out = []
        with gzip.open(data_dir / f"{name}.jsonl.gz", "rt") as fh:
            for line in fh:
                row = json.loads(line)
                if row.get("split") == split:
                    out.append(row)
                    if len(out) == n:
                        break
        return out

    return load


@pytest.fixture(scope="session")
def embedded_backend():
    from factgrain.backends.embedded import EmbeddedBackend

    return EmbeddedBackend()
