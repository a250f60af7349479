"""Batch mode: per-row errors, append-as-you-go, resume, and a real SIGKILL mid-run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path


from factgrain.agent.evaluator import Evaluator
from factgrain.batch import done_keys, run_batch
from factgrain.cli import main
from factgrain.errors import BackendError
from tests.reliability.fakeserver import SECRET_KEY
from tests.reliability.httpserver import LocalServer, qas_for
from tests.scripted import qa_backend

REPO = Path(__file__).resolve().parents[2]
REF = "Alice visited Paris and Bob visited Rome in the spring."


def row(i: int, **over) -> dict:
    names = ["Alice", "Bob", "Carol", "Dan"]
    return {"id": f"r{i}", "text": f"{names[i % 4]} visited Paris in spring.", "reference": REF, **over}


def write_jsonl(path: Path, rows: list) -> Path:
    with path.open("wb") as fh:
        for r in rows:
            fh.write(r if isinstance(r, bytes) else (json.dumps(r, ensure_ascii=False) + "\n").encode())
    return path


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def scripted_evaluator() -> Evaluator:
    qas = {f"{n} visited Paris in spring.": qas_for(f"{n} visited Paris in spring.") for n in ["Alice", "Bob", "Carol", "Dan"]}
    return Evaluator(qa_backend(qas, default_p=0.8), verifier="llm", span_mode="free")


BAD_ROWS = [
    (b'{"id": "u8", "text": "caf\xe9", "reference": "x"}\n', "not valid UTF-8"),
    (b'{"id": "js", "text": "unterminated\n', "not valid JSON"),
    (b'["a", "list"]\n', "must be a JSON object, got list"),
    ({"text": "No id here.", "reference": REF}, "missing field(s) id"),
    ({"id": "nt", "reference": REF}, "missing field(s) text"),
    ({"id": "nr", "text": "Alice visited Paris."}, "missing field(s) reference"),
    ({"id": "ti", "text": 42, "reference": REF}, "field 'text' must be a string, got int"),
    ({"id": "rd", "text": "Alice visited Paris.", "reference": {"a": 1}}, "field 'reference' must be a string or a list"),
    ({"id": "qi", "text": "Alice visited Paris.", "reference": REF, "question": 7}, "field 'question' must be a string"),
    ({"id": True, "text": "Alice visited Paris.", "reference": REF}, "field 'id' must be a non-empty string or an integer"),
    ({"id": "r0", "text": "Alice visited Paris.", "reference": REF}, "duplicate id 'r0'"),
    ({"id": "em", "text": "   \n\t ", "reference": REF}, "text is empty"),
    ({"id": "er", "text": "Alice visited Paris.", "reference": ""}, "reference is empty"),
    ({"id": "nul", "text": "Alice\x00visited", "reference": REF}, "NUL bytes"),
    ({"id": "big", "text": "Alice visited Paris. " * 50_000, "reference": REF}, "the limit is 200,000"),
]


async def test_bad_rows_get_clear_errors_and_the_good_rows_still_run(tmp_path):
    good = [row(i) for i in range(4)]
    src = write_jsonl(tmp_path / "in.jsonl", good[:2] + [r for r, _ in BAD_ROWS] + good[2:])
    out = tmp_path / "out.jsonl"
    summary = await run_batch(scripted_evaluator(), src, out, concurrency=3)
    recs = records(out)
    assert len(recs) == summary.rows == len(good) + len(BAD_ROWS)
    assert len({r["key"] for r in recs}) == len(recs)  # every row exactly once
    ok = {r["id"] for r in recs if r["status"] == "ok"}
    assert ok == {"r0", "r1", "r2", "r3"} and summary.ok == 4 and summary.failed == len(BAD_ROWS)
    errors = sorted((r for r in recs if r["status"] == "error"), key=lambda r: r["line"])
    for rec, (_, expected) in zip(errors, BAD_ROWS):
        assert expected in rec["error"], rec
        assert rec["error"].startswith(f"line {rec['line']}")
        assert rec["exit_code"] == 2  # InputError
    assert summary.exit_code == 2
    for rec in recs:
        if rec["status"] == "ok":
            assert rec["scores"]["units"] == 2 and rec["report"]["id"] == rec["id"]


class _DownFor:
    """An evaluator whose endpoint is down for some rows (a fault), else the scripted one."""

    def __init__(self, down: set[str]):
        self.down, self.inner = down, scripted_evaluator()

    async def acheck(self, text, reference, *, question=None, id=None):
        if id in self.down:
            raise BackendError("openai/fake: 503 Service Unavailable: upstream connect error")
        return await self.inner.acheck(text, reference, question=question, id=id)


async def test_rerun_runs_rows_again_that_failed_on_the_endpoint_but_not_bad_input(tmp_path):
    rows = [row(i) for i in range(4)] + [{"id": "em", "text": "  ", "reference": REF}]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    out = tmp_path / "out.jsonl"
    first = await run_batch(_DownFor({"r1", "r3"}), src, out)
    assert (first.ok, first.failed) == (2, 3)
    failed = {r["id"]: r for r in records(out) if r["status"] == "error"}
    assert failed["r1"]["error_type"] == "BackendError" and "503" in failed["r1"]["error"]
    second = await run_batch(_DownFor(set()), src, out)
    # the two endpoint failures run again; the empty text is bad input and stays as it was
    assert (second.ok, second.failed, second.skipped, second.retried) == (2, 0, 3, 2)
    assert "2 earlier failures run again" in second.line(out)
    recs = records(out)
    assert sorted(r["id"] for r in recs) == ["em", "r0", "r1", "r2", "r3"]  # one record per row
    assert {r["id"] for r in recs if r["status"] == "ok"} == {"r0", "r1", "r2", "r3"}
    third = await run_batch(_DownFor(set()), src, out)
    assert (third.skipped, third.retried) == (5, 0)


async def test_rerun_skips_done_rows_and_repairs_a_torn_last_line(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", [row(i) for i in range(6)])
    out = tmp_path / "out.jsonl"
    await run_batch(scripted_evaluator(), src, out)
    lines = out.read_bytes().splitlines(keepends=True)
    # Keep 3 rows, then half a line, as if the process died while writing the fourth.
    out.write_bytes(b"".join(lines[:3]) + lines[3][: len(lines[3]) // 2])
    assert len(done_keys(out)[0]) == 3 and out.read_bytes().endswith(b"\n")
    ev = scripted_evaluator()
    summary = await run_batch(ev, src, out)
    assert summary.skipped == 3 and summary.ok == 3
    recs = records(out)
    assert sorted(r["id"] for r in recs) == [f"r{i}" for i in range(6)]
    # Only the missing rows were checked again: 3 rows x (1 decomposition + 2 verifications).
    assert len(ev.backend.requests) == 3 * 3
    summary = await run_batch(scripted_evaluator(), src, out)
    assert summary.skipped == 6 and summary.ok == 0 and len(records(out)) == 6


async def test_backend_failure_is_a_row_error_not_a_crash(tmp_path):
    from factgrain.backends.scripted import ScriptedBackend
    from factgrain.errors import BackendError

    def handler(req):
        if "Bob visited Paris" in req.last_user:
            raise RuntimeError("bug in a handler")
        if req.kind == "structured":
            name = next(n for n in ("Alice", "Carol", "Dan") if n in req.last_user)
            return {"qas": qas_for(f"{name} visited Paris in spring.")}
        return 0.8

    src = write_jsonl(tmp_path / "in.jsonl", [row(0), row(1), row(2)])
    out = tmp_path / "out.jsonl"
    summary = await run_batch(Evaluator(ScriptedBackend(handler=handler), verifier="llm", span_mode="free"), src, out)
    recs = {r["id"]: r for r in records(out)}
    assert recs["r1"]["status"] == "error" and "internal error: RuntimeError" in recs["r1"]["error"]
    assert recs["r0"]["status"] == "ok" and recs["r2"]["status"] == "ok" and summary.exit_code == 1
    assert BackendError.exit_code == 4


def test_cli_batch_summary_and_exit_code(tmp_path, capsys):
    src = write_jsonl(tmp_path / "in.jsonl", [row(0), {"id": "bad", "text": 1, "reference": REF}])
    out = tmp_path / "out.jsonl"
    with LocalServer() as server:
        code = main(["check", "--batch", str(src), "--out", str(out), "--model", "openai/fake",
                     "--base-url", server.base_url, "--api-key", SECRET_KEY, "--verifier", "llm"])
    err = capsys.readouterr().err
    assert code == 2
    assert "batch: 2 rows: 1 ok (0 with unscored units), 1 failed, 0 already done" in err
    assert SECRET_KEY not in out.read_text() and SECRET_KEY not in err


def test_cli_batch_needs_out(tmp_path, capsys):
    src = write_jsonl(tmp_path / "in.jsonl", [row(0)])
    assert main(["check", "--batch", str(src)]) == 2
    assert "--batch needs --out" in capsys.readouterr().err


def test_sigkill_mid_run_then_resume_gives_every_row_exactly_once(tmp_path):
    n = 24
    src = write_jsonl(tmp_path / "in.jsonl", [row(i) for i in range(n)])
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO), "FACTGRAIN_PROGRESS": "0"}
    with LocalServer(delay=0.05) as server:
        cmd = [sys.executable, "-m", "factgrain", "check", "--batch", str(src), "--out", str(out),
               "--model", "openai/fake", "--base-url", server.base_url, "--api-key", SECRET_KEY,
               "--verifier", "llm", "--concurrency", "2"]
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 4:
                break
            time.sleep(0.02)
        assert proc.poll() is None, f"finished before it could be killed: {proc.communicate()}"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        partial = len(done_keys(out)[0])
        assert 4 <= partial < n
        done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{n - partial} ok" in done.stderr and f"{partial} already done" in done.stderr
    recs = records(out)
    ids = [r["id"] for r in recs]
    assert sorted(ids) == sorted(f"r{i}" for i in range(n)) and len(ids) == len(set(ids))
    assert all(r["status"] == "ok" and r["scores"]["units"] == 2 for r in recs)
