"""``factgrain serve-vllm MODEL``: print (or with ``--run``, run) the ``vllm serve`` command that
suits factgrain, and the factgrain flags that talk to it.

Why these flags:
- prefix caching: every verification prompt starts with the same system text and reference, so
  the server computes that prefix once per reference;
- a structured-output backend with whitespace disabled: decomposition replies are schema-constrained
  JSON, and forbidding free whitespace stops small models from padding a reply until max_tokens;
- ``--max-logprobs``: the verifier asks for the top 20 first-token logprobs (P(Yes) vs P(No));
- ``--max-model-len``: long references need room; set it to what your GPU memory allows.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys

from factgrain.errors import ConfigurationError

TOP_LOGPROBS = 20  # what factgrain.agent.verifiers.llm asks for


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve-vllm", help="print (or run) the recommended vllm serve command",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="Hugging Face model id or local path, e.g. Qwen/Qwen2.5-7B-Instruct")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--max-model-len", type=int, default=16384, help="context length (default 16384)")
    p.add_argument("--max-logprobs", type=int, default=TOP_LOGPROBS, help=f"default {TOP_LOGPROBS}")
    p.add_argument("--structured-backend", choices=["xgrammar", "guidance"], default="xgrammar",
                   help="structured-output engine; both honour disable_any_whitespace (default xgrammar)")
    p.add_argument("--gpu-memory-utilization", type=float, default=None)
    p.add_argument("--tensor-parallel-size", type=int, default=None)
    p.add_argument("--legacy", action="store_true",
                   help="flags for vLLM < 0.10.2 (--guided-decoding-backend) instead of --structured-outputs-config")
    p.add_argument("--run", action="store_true", help="run the command instead of printing it")
    p.add_argument("--vllm-args", default="", metavar="FLAGS",
                   help='more vllm serve flags as one string, e.g. --vllm-args="--dtype bfloat16"')
    p.set_defaults(func=run)


def vllm_command(model: str, *, host: str = "127.0.0.1", port: int = 8000, max_model_len: int = 16384,
                 max_logprobs: int = TOP_LOGPROBS, structured_backend: str = "xgrammar", legacy: bool = False,
                 gpu_memory_utilization: float | None = None, tensor_parallel_size: int | None = None,
                 extra: list[str] | None = None) -> list[str]:
    if max_logprobs < TOP_LOGPROBS:
        raise ConfigurationError(f"--max-logprobs must be at least {TOP_LOGPROBS}: the verifier asks for {TOP_LOGPROBS}")
    cmd = ["vllm", "serve", model, "--host", host, "--port", str(port), "--enable-prefix-caching",
           "--max-logprobs", str(max_logprobs), "--max-model-len", str(max_model_len)]
    if legacy:  # vLLM 0.8.x - 0.10.1
        cmd += ["--guided-decoding-backend", structured_backend, "--guided-decoding-disable-any-whitespace"]
    else:
        cmd += ["--structured-outputs-config",
                json.dumps({"backend": structured_backend, "disable_any_whitespace": True}, separators=(",", ":"))]
    if gpu_memory_utilization is not None:
        cmd += ["--gpu-memory-utilization", str(gpu_memory_utilization)]
    if tensor_parallel_size is not None:
        cmd += ["--tensor-parallel-size", str(tensor_parallel_size)]
    return cmd + list(extra or [])


def run(args: argparse.Namespace) -> int:
    cmd = vllm_command(args.model, host=args.host, port=args.port, max_model_len=args.max_model_len,
                       max_logprobs=args.max_logprobs, structured_backend=args.structured_backend,
                       legacy=args.legacy, gpu_memory_utilization=args.gpu_memory_utilization,
                       tensor_parallel_size=args.tensor_parallel_size,
                       extra=shlex.split(args.vllm_args))
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}/v1"
    use = f"factgrain check TEXT REFERENCE --model vllm/{args.model} --base-url {url}"
    if not args.run:
        print(shlex.join(cmd))
        print(f"# then: {use}", file=sys.stderr)
        return 0
    if shutil.which("vllm") is None:
        raise ConfigurationError("vllm is not installed here: pip install 'factgrain[vllm]' (needs a GPU machine)")
    print(f"running: {shlex.join(cmd)}\n# then: {use}", file=sys.stderr)
    sys.stdout.flush()
    os.execvp(cmd[0], cmd)  # hand the process over, so signals reach vllm directly
    return 0  # pragma: no cover
