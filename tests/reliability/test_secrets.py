"""API keys never show up in logs, reports, exception messages, reprs, batch output or the cache."""

from __future__ import annotations

import logging

import httpx
import pytest

from factgrain.agent.evaluator import Evaluator
from factgrain.backends.openai_compat import OpenAICompatBackend
from factgrain.backends.retry import RetryPolicy
from factgrain.cli import main
from factgrain.errors import FactgrainError
from factgrain.render.markdown import render_markdown
from tests.reliability.fakeserver import SECRET_KEY, FakeEndpoint, always, backend_for, first
from tests.reliability.test_faults import QAS, REF, SUPPORT, TEXT


def leaky_endpoint(status: int) -> httpx.MockTransport:
    """A server that echoes the caller's key in its error body (some proxies do)."""

    def handler(request: httpx.Request) -> httpx.Response:
        key = request.headers["authorization"].removeprefix("Bearer ")
        return httpx.Response(status, json={"error": {"message": f"Incorrect API key provided: {key}"}})

    return httpx.MockTransport(handler)


@pytest.fixture
def all_logs(caplog):
    caplog.set_level(logging.DEBUG)
    # The CLI quiets these libraries for the rest of the process; see everything they log here.
    for name in ("instructor", "httpx", "openai"):
        caplog.set_level(logging.DEBUG, logger=name)
    return caplog


@pytest.mark.parametrize("status", [401, 403, 429, 500])
async def test_key_echoed_by_the_server_stays_out_of_errors_reports_and_logs(status, all_logs):
    backend = OpenAICompatBackend("m", base_url="http://fake.invalid/v1", api_key=SECRET_KEY,
                                  retry=RetryPolicy(attempts=2), http_client=httpx.AsyncClient(transport=leaky_endpoint(status)))
    with pytest.raises(FactgrainError) as info:
        await backend.chat([{"role": "user", "content": "hi"}])
    assert SECRET_KEY not in str(info.value) and SECRET_KEY not in repr(info.value)
    assert info.value.__cause__ is None and info.value.__suppress_context__  # no chained openai error text
    # Every call fails, so the check is an error (issue 14); its message carries the server's text, masked.
    with pytest.raises(FactgrainError) as info:
        await Evaluator(backend, verifier="llm").acheck(TEXT, REF)
    assert SECRET_KEY not in str(info.value) and "Incorrect API key provided: ***" in str(info.value)
    logged = "\n".join(r.getMessage() for r in all_logs.records)
    assert SECRET_KEY not in logged
    assert "***" in logged  # the echoed key was logged by instructor, and redacted


async def test_key_not_in_reprs_reports_or_debug_logs_on_success(all_logs):
    endpoint = FakeEndpoint(QAS, support=SUPPORT, faults=first(2, "500"))
    backend = backend_for(endpoint)
    evaluator = Evaluator(backend, verifier="llm")
    report = await evaluator.acheck(TEXT, REF)
    assert endpoint.calls[0].headers["authorization"] == f"Bearer {SECRET_KEY}"  # it was sent...
    for text in (repr(backend), str(backend), repr(evaluator.verifier), report.to_json(), render_markdown(report),
                 "\n".join(r.getMessage() for r in all_logs.records)):
        assert SECRET_KEY not in text  # ...and is nowhere else


async def test_key_not_in_cached_files(tmp_path):
    endpoint = FakeEndpoint(QAS, support=SUPPORT, faults=always("500", "chat"))
    evaluator = Evaluator(backend_for(endpoint), verifier="llm", cache=True, cache_dir=str(tmp_path / "cache"))
    with pytest.raises(FactgrainError):  # every verification failed: an error, and nothing cached
        await evaluator.acheck(TEXT, REF)
    endpoint.faults = lambda n, k, b: None
    await evaluator.acheck(TEXT, REF)
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert files, "the cache wrote nothing"
    calls = endpoint.count()
    await evaluator.acheck(TEXT, REF)
    assert endpoint.count() == calls  # answered from the cache, so the check is on a real cache
    for path in files:
        assert SECRET_KEY.encode() not in path.read_bytes(), path


def test_cli_never_prints_the_key(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FACTGRAIN_API_KEY", SECRET_KEY)
    text, ref = tmp_path / "t.txt", tmp_path / "r.txt"
    text.write_text(TEXT)
    ref.write_text(REF)
    # Nothing listens on port 9: connection refused after the retries.
    code = main(["check", str(text), str(ref), "--model", "openai/m", "--base-url", "http://127.0.0.1:9/v1",
                 "--verifier", "lexical", "--format", "json"])
    captured = capsys.readouterr()
    assert SECRET_KEY not in captured.out + captured.err
    # every decomposition call failed: exit 4 and no report (issue 14), the cause on stderr
    assert code == 4 and captured.out == "" and "Connect" in captured.err
