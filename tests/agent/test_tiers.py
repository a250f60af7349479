"""Tiers by capability: which paths a model gets, what forces them, and what the report records."""

from __future__ import annotations

import struct

import pytest

import factgrain
from factgrain.agent.evaluator import Evaluator
from factgrain.agent.tiers import choose, classify, gguf_metadata, parameters_from_name
from factgrain.backends.registry import get_backend
from factgrain.errors import ConfigurationError
from tests.scripted import QAS, REF, TEXT, qa_backend


def write_gguf(path, name: str, size_label: str) -> str:
    """A GGUF header with two general.* strings and a tokenizer array (no tensors)."""

    def s(text: str) -> bytes:
        b = text.encode()
        return struct.pack("<Q", len(b)) + b

    kv = [s("general.name") + struct.pack("<I", 8) + s(name),
          s("general.size_label") + struct.pack("<I", 8) + s(size_label),
          s("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 2) + s("a") + s("b")]
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv)) + b"".join(kv))
    return str(path)


def test_gguf_metadata_is_read_from_the_header(tmp_path):
    path = write_gguf(tmp_path / "m.gguf", "Some Model 3B Instruct", "3B")
    assert gguf_metadata(path) == {"name": "Some Model 3B Instruct", "size_label": "3B"}
    (tmp_path / "x.gguf").write_bytes(b"not a gguf")
    assert gguf_metadata(str(tmp_path / "x.gguf")) == {}


@pytest.mark.parametrize("name,billions", [("Qwen/Qwen2.5-1.5B-Instruct", 1.5), ("SmolLM2-135M", 0.135),
                                           ("meta-llama/Llama-3.1-70B", 70.0), ("gpt-4o-mini", None)])
def test_parameters_from_the_name(name, billions):
    assert parameters_from_name(name) == billions


@pytest.mark.parametrize("spec,tier", [
    ("vllm/Qwen/Qwen2.5-0.5B-Instruct", "small"), ("vllm/HuggingFaceTB/SmolLM2-1.7B-Instruct", "small"),
    ("vllm/Qwen/Qwen2.5-7B-Instruct", "capable"), ("openai/gpt-4o-mini", "capable"),
    ("vllm/HuggingFaceTB/SmolLM2-135M-Instruct", "offline"),
])
def test_served_models_are_tiered_by_name(spec, tier, monkeypatch):
    monkeypatch.setenv("FACTGRAIN_API_KEY", "k")
    assert classify(get_backend(spec))[0] == tier


def test_the_default_is_offline_and_starts_no_server():
    backend = get_backend(None)
    choice = choose(backend)
    assert (choice.tier, choice.span_mode, choice.verifier) == ("offline", "parse", "lexical")
    # a sentence the offline reader decomposes without a model choice: no LLM call, no server
    report = factgrain.check("A man fell in the Annalong Valley while walking.", REF, model=backend)
    assert report.tier["tier"] == "offline" and report.tier["span_mode"] == "parse" and report.usage.calls == 0
    assert backend.provider == "offline"  # no embedded server is even constructed


def test_a_small_gguf_gets_free_mode_with_fallback_light_reflection_lexical(tmp_path):
    path = write_gguf(tmp_path / "tiny-chat.gguf", "Tiny Chat 1.5B", "1.5B")
    choice = choose(get_backend(f"embedded/{path}"))
    assert (choice.tier, choice.span_mode, choice.reflect_mode, choice.verifier, choice.fallback) == \
        ("small", "free", "light", "lexical", True)
    assert "size_label='1.5B'" in choice.reason
    big = write_gguf(tmp_path / "big.gguf", "Big Chat 14B", "14B")
    assert choose(get_backend(f"embedded/{big}")).tier == "capable"


def test_modes_can_be_forced_and_the_report_says_so():
    ev = Evaluator(qa_backend(QAS), span_mode="free", reflect_mode="light", verifier="llm")
    assert ev.tier.reflect_mode == "light" and "reflect mode light forced" in ev.tier.reason
    report = factgrain.check(TEXT, REF, model=qa_backend(QAS), span_mode="free", verifier="llm")
    assert report.tier["span_mode"] == "free" and report.tier["tier"] == "capable"
    assert choose(get_backend(None), span_mode="enum").span_mode == "parse"  # the old name still works
    with pytest.raises(ConfigurationError):
        choose(get_backend(None), span_mode="rules")


def test_cli_flags_force_the_modes(tmp_path, capsys):
    import json

    from factgrain.cli import main

    (tmp_path / "t.txt").write_text("A man fell in the Annalong Valley while walking.")
    (tmp_path / "r.txt").write_text(REF)
    assert main(["check", str(tmp_path / "t.txt"), str(tmp_path / "r.txt"), "--span-mode", "parse",
                 "--reflect-mode", "full", "--format", "json"]) == 0
    tier = json.loads(capsys.readouterr().out)["tier"]
    assert tier["span_mode"] == "parse" and tier["reflect_mode"] == "full" and "forced" in tier["reason"]
