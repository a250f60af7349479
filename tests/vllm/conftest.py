"""The vLLM tier: one real vLLM server (CPU build, SmolLM2-135M converted from the bundled GGUF) for the
whole session, started on a free loopback port by ``factgrain serve-vllm --run`` and stopped by its process
group at the end.

Setup: ``bash scripts/setup-vllm.sh`` (``scripts/setup-dev.sh`` runs it). ``FACTGRAIN_VLLM_PYTHON`` and
``FACTGRAIN_VLLM_MODEL_DIR`` override where the interpreter and the model folder are. In CI (``CI=true``)
a missing setup fails the tier; elsewhere it skips with the reason. SmolLM2-135M judges at chance: these
tests check that every path works against a real server, never the quality of a verdict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.vllm import server as vllm_server

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
SERVER_TIMEOUT_S = float(os.environ.get("FACTGRAIN_VLLM_START_TIMEOUT", "300"))


def _unavailable(why: str) -> None:
    if IN_CI:
        pytest.fail(f"the vLLM tier must run in CI, but {why}; scripts/setup-dev.sh runs scripts/setup-vllm.sh",
                    pytrace=False)
    pytest.skip(f"vLLM tier: {why}; run `bash scripts/setup-vllm.sh`")


@pytest.fixture(scope="session")
def vllm(tmp_path_factory):
    """The running server: ``.base_url`` (…/v1), ``.model`` (served name), ``.spec`` (``vllm/<name>``).
    ``FACTGRAIN_VLLM_BASE_URL`` (and ``FACTGRAIN_VLLM_SERVED_NAME``) use a server you started instead, e.g. on
    a GPU; then nothing is started or stopped here."""
    url = os.environ.get("FACTGRAIN_VLLM_BASE_URL")
    if url:
        yield vllm_server.Server(base_url=url.rstrip("/"),
                                 model=os.environ.get("FACTGRAIN_VLLM_SERVED_NAME", vllm_server.SERVED_NAME))
        return
    why = vllm_server.missing_setup()
    if why:
        _unavailable(why)
    log = tmp_path_factory.mktemp("vllm") / "server.log"
    try:
        srv = vllm_server.start(log, timeout=SERVER_TIMEOUT_S)
    except RuntimeError as exc:  # a broken setup is a failure, never a skip
        pytest.fail(str(exc), pytrace=False)
    _tier["startup_s"] = srv.startup_s
    try:
        yield srv
    finally:
        vllm_server.stop(srv)


@pytest.fixture
def metrics(vllm):
    """``metrics()`` -> vLLM's counters now (summed over labels)."""
    client = httpx.Client(timeout=10.0)
    yield lambda: vllm_server.metrics(vllm.base_url, client=client)
    client.close()


def run_factgrain(args: list[str], cwd: Path, *, timeout: float = 600, env: dict | None = None):
    """``python -m factgrain ARGS`` in a child process (this checkout, a cache of its own in ``cwd``)."""
    full_env = {**vllm_server.factgrain_env(), "FACTGRAIN_CACHE_DIR": str(cwd / "llm-cache"), **(env or {})}
    return subprocess.run([sys.executable, "-m", "factgrain", *args], capture_output=True, text=True,
                          timeout=timeout, env=full_env, cwd=cwd, stdin=subprocess.DEVNULL)


@pytest.fixture
def cli(vllm, tmp_path):
    """``cli(*args)``: run ``python -m factgrain ARGS`` in ``tmp_path``; returns the CompletedProcess."""
    return lambda *args, **kw: run_factgrain(list(args), tmp_path, **kw)


@pytest.fixture(scope="session")
def case(data_dir):
    """A real dev example of qasem_consistency (one sentence, 585-character reference), and a
    two-sentence text made of it and a second response about the same reference."""
    import gzip

    wanted = {"qasem-dev-17", "qasem-dev-16"}
    rows = {}
    with gzip.open(data_dir / "qasem_consistency.jsonl.gz", "rt") as fh:
        for line in fh:
            row = json.loads(line)
            if row["id"] in wanted:
                rows[row["id"]] = row
    a, b = rows["qasem-dev-17"], rows["qasem-dev-16"]
    assert a["reference"] == b["reference"] and a["split"] == b["split"] == "dev"
    return {"text": a["text"], "reference": a["reference"], "two_sentences": f"{a['text']} {b['text']}"}


def backend_args(vllm) -> list[str]:
    return ["--model", vllm.spec, "--base-url", vllm.base_url]


def read_json(path: Path) -> dict:
    return json.loads(Path(path).read_text())


# -- one line in the terminal summary: what the vLLM tier did (so CI's log shows it ran) -------------------
_outcomes: dict[str, int] = {}
_tier = {"seconds": 0.0, "startup_s": None}


_marked: set[str] = set()


def pytest_runtest_setup(item):
    if item.get_closest_marker("vllm"):
        _marked.add(item.nodeid)


def pytest_runtest_logreport(report):
    if report.nodeid not in _marked:
        return
    _tier["seconds"] += report.duration
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        outcome = "xfailed" if hasattr(report, "wasxfail") and report.skipped else (
            "xpassed" if hasattr(report, "wasxfail") else ("error" if report.when == "setup" and report.failed
                                                           else report.outcome))
        _outcomes[outcome] = _outcomes.get(outcome, 0) + 1


def pytest_terminal_summary(terminalreporter):
    if not _outcomes:
        return
    order = ["passed", "failed", "error", "xfailed", "xpassed", "skipped"]
    counts = ", ".join(f"{_outcomes[k]} {k}" for k in order if _outcomes.get(k))
    started = f", server started in {_tier['startup_s']} s" if _tier["startup_s"] is not None else ""
    terminalreporter.write_line(f"vLLM tier (real vLLM server, SmolLM2-135M): {counts} "
                                f"in {_tier['seconds']:.0f} s of test time{started}")
