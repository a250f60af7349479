"""``factgrain backends`` and ``factgrain serve-vllm``."""

import json
import shlex

import pytest

from factgrain.cli import main
from factgrain.commands.serve_vllm import vllm_command
from factgrain.errors import ConfigurationError


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no configuration file from the repository
    for name in ("FACTGRAIN_MODEL", "FACTGRAIN_BASE_URL", "FACTGRAIN_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY",
                 "FACTGRAIN_VERIFIER_MODEL", "FACTGRAIN_CONFIG"):
        monkeypatch.delenv(name, raising=False)


def test_unreachable_endpoint_is_reported_and_exits_1(capsys):
    code = main(["backends", "--model", "vllm/Qwen/Qwen2.5-7B-Instruct", "--base-url", "http://127.0.0.1:9/v1",
                 "--timeout", "0.5", "--format", "json"])
    info = json.loads(capsys.readouterr().out)
    assert code == 1
    row = info["rows"][0]
    assert row["model"] == "vllm/Qwen/Qwen2.5-7B-Instruct" and row["from"] == "argument"
    assert row["reachable"].startswith("no:") and row["logprobs"] == "yes"
    assert [r["role"] for r in info["rows"]] == ["model", "decomposition", "reflection", "verification"]
    assert any("127.0.0.1:9" in w for w in info["warnings"])


def test_roles_sources_and_the_no_logprobs_warning(tmp_path, capsys, monkeypatch):
    (tmp_path / "factgrain.toml").write_text('model = "scripted/x"\nverifier_model = "openai/local"\n'
                                             'verifier_base_url = "http://127.0.0.1:11434/v1"\n')
    monkeypatch.setenv("FACTGRAIN_DECOMPOSER_MODEL", "embedded/smollm2-135m")
    main(["backends", "--timeout", "0.3"])
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert "factgrain.toml" in lines[0]
    decomposition = next(line for line in lines if line.startswith("decomposition"))
    assert "env FACTGRAIN_DECOMPOSER_MODEL" in decomposition and "in-process" in decomposition
    verification = next(line for line in lines if line.startswith("verification"))
    assert "Ollama" in verification and "http://127.0.0.1:11434/v1" in verification


def test_langchain_model_without_logprobs_warns(capsys):
    # a chat model object can only come from Python; describe() is what the command prints
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    from factgrain.commands.backends import endpoint_of, logprobs_note

    model = FakeListChatModel(responses=["Yes"])
    provider, url = endpoint_of(model, None)
    note, ok = logprobs_note(provider, url, model)
    assert provider == "langchain" and ok is False and "no logprobs" in note


@pytest.mark.embedded
def test_probe_against_a_live_llamacpp_endpoint(embedded_backend, capsys):
    code = main(["backends", "--model", "llamacpp/smollm2", "--base-url", embedded_backend.base_url, "--probe",
                 "--format", "json"])
    info = json.loads(capsys.readouterr().out)
    assert code == 0
    row = info["rows"][0]
    assert row["reachable"].startswith("yes") and row["logprobs"].startswith("yes, 20 top logprobs asked (probe reply")
    assert not info["warnings"]


def test_serve_vllm_prints_the_recommended_command(capsys):
    assert main(["serve-vllm", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "32768", "--vllm-args=--dtype bfloat16"]) == 0
    captured = capsys.readouterr()
    cmd = shlex.split(captured.out.strip())
    assert cmd[:3] == ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct"]
    assert "--enable-prefix-caching" in cmd and cmd[cmd.index("--max-logprobs") + 1] == "20"
    assert cmd[cmd.index("--max-model-len") + 1] == "32768" and cmd[-2:] == ["--dtype", "bfloat16"]
    so = json.loads(cmd[cmd.index("--structured-outputs-config") + 1])
    assert so == {"backend": "xgrammar", "disable_any_whitespace": True}
    assert "--model vllm/Qwen/Qwen2.5-7B-Instruct --base-url http://127.0.0.1:8000/v1" in captured.err


def test_serve_vllm_legacy_flags_and_limits():
    cmd = vllm_command("m", legacy=True, structured_backend="guidance")
    assert cmd[cmd.index("--guided-decoding-backend") + 1] == "guidance"
    assert "--guided-decoding-disable-any-whitespace" in cmd and "--structured-outputs-config" not in cmd
    with pytest.raises(ConfigurationError, match="at least 20"):
        vllm_command("m", max_logprobs=5)
