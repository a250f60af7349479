"""``factgrain serve-vllm``: the command it prints, on GPU and CPU, and (against the fixture) that the
printed CPU command is exactly the process that serves the vLLM tier."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from factgrain.cli import main
from factgrain.commands.serve_vllm import vllm_command, vllm_env


def printed(capsys, *args: str) -> tuple[dict[str, str], list[str], str]:
    assert main(["serve-vllm", *args]) == 0
    out = capsys.readouterr()
    words = shlex.split(out.out.strip())
    env = {}
    while words and "=" in words[0] and not words[0].startswith("-"):
        k, v = words.pop(0).split("=", 1)
        env[k] = v
    return env, words, out.err


def flag(cmd: list[str], name: str) -> str:
    return cmd[cmd.index(name) + 1]


def test_gpu_form_is_vllm_serve_with_every_flag_factgrain_needs(capsys):
    env, cmd, err = printed(capsys, "Qwen/Qwen2.5-7B-Instruct", "--device", "gpu")
    assert env == {} and cmd[:3] == ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct"]
    assert "--enable-prefix-caching" in cmd and "--enable-prompt-tokens-details" in cmd
    assert flag(cmd, "--max-logprobs") == "20"
    assert "--max-model-len" not in cmd, "vLLM takes the model's own context unless asked"
    assert json.loads(flag(cmd, "--structured-outputs-config")) == {"backend": "xgrammar", "disable_any_whitespace": True}
    assert "--model vllm/Qwen/Qwen2.5-7B-Instruct --base-url http://127.0.0.1:8000/v1" in err


def test_cpu_form_is_the_api_server_module_with_the_model_as_a_flag(capsys, tmp_path):
    model = tmp_path / "tiny"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"max_position_embeddings": 8192}))
    env, cmd, err = printed(capsys, str(model), "--device", "cpu", "--python", "/opt/v/bin/python", "--port", "9001",
                            "--served-model-name", "tiny", "--max-model-len", "16384")
    assert env == {"VLLM_CPU_KVCACHE_SPACE": "1", "HF_HUB_OFFLINE": "1"}
    assert cmd[:5] == ["/opt/v/bin/python", "-m", "vllm.entrypoints.openai.api_server", "--model", str(model)]
    assert flag(cmd, "--port") == "9001" and flag(cmd, "--served-model-name") == "tiny"
    assert "--enable-prompt-tokens-details" in cmd and flag(cmd, "--max-logprobs") == "20"
    assert flag(cmd, "--max-model-len") == "8192", "capped to the model's own context"
    assert "above the model's own context (8192)" in err
    assert flag(cmd, "--dtype") == "bfloat16" and "--enforce-eager" in cmd
    assert "--model vllm/tiny --base-url http://127.0.0.1:9001/v1" in err


def test_max_model_len_is_kept_for_a_hub_model_and_below_a_local_models_own(tmp_path):
    assert flag(vllm_command("org/m", max_model_len=32768), "--max-model-len") == "32768"
    (tmp_path / "config.json").write_text(json.dumps({"text_config": {"max_position_embeddings": 4096}}))
    assert flag(vllm_command(str(tmp_path), max_model_len=2048), "--max-model-len") == "2048"
    assert flag(vllm_command(str(tmp_path), max_model_len=9999), "--max-model-len") == "4096"
    assert vllm_env("org/m") == {} and vllm_env("org/m", device="cpu", kv_cache_gib=4) == {"VLLM_CPU_KVCACHE_SPACE": "4"}


def test_run_without_vllm_is_a_configuration_error(capsys, monkeypatch):
    monkeypatch.setattr("shutil.which", lambda name: None)
    assert main(["serve-vllm", "org/m", "--device", "gpu", "--run"]) == 3
    assert "vllm is not installed" in capsys.readouterr().err


@pytest.mark.vllm
def test_the_printed_cpu_command_is_what_serves_the_tier(vllm):
    """The fixture printed the command with ``factgrain serve-vllm`` and started it with ``--run``: the
    serving process's own argv and environment are the printed ones, and it answers as that model."""
    if vllm.process is None:
        pytest.skip("FACTGRAIN_VLLM_BASE_URL points at a server started elsewhere")
    words = shlex.split(vllm.printed_command)
    env = dict(w.split("=", 1) for w in words[:2])
    argv = words[2:]
    assert env == {"VLLM_CPU_KVCACHE_SPACE": "1", "HF_HUB_OFFLINE": "1"}
    assert argv[1:3] == ["-m", "vllm.entrypoints.openai.api_server"]
    proc = Path(f"/proc/{vllm.process.pid}")
    assert (proc / "cmdline").read_bytes().split(b"\0")[:-1] == [a.encode() for a in argv]
    environ = dict(e.split(b"=", 1) for e in (proc / "environ").read_bytes().split(b"\0") if b"=" in e)
    assert environ[b"VLLM_CPU_KVCACHE_SPACE"] == b"1" and environ[b"HF_HUB_OFFLINE"] == b"1"
    import httpx

    served = httpx.get(f"{vllm.base_url}/models", timeout=10).json()["data"]
    assert [m["id"] for m in served] == [vllm.model] and served[0]["max_model_len"] == 8192
