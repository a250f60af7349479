"""``factgrain backends``: which model each role uses, where that came from, whether the endpoint
answers, and whether it can return the logprobs the LLM verifier needs."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from factgrain.errors import FactgrainError

ROLE_NAMES = {"main": "model", "decomposer": "decomposition", "reflector": "reflection", "verifier": "verification"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    from factgrain.commands.check import add_backend_args

    p = sub.add_parser("backends", help="list the configured backends and check that they answer",
                       description=__doc__)
    add_backend_args(p)  # which models; not the verification options (--calibration, --skip-uncovered)
    p.add_argument("--timeout", type=float, default=2.0, help="seconds to wait for each endpoint (default 2)")
    p.add_argument("--probe", action="store_true",
                   help="send each backend a one-token request to see whether logprobs come back "
                        "(starts the embedded model if it is configured)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=run)


def endpoint_of(spec: Any, url: str | None) -> tuple[str, str | None]:
    """(provider, base URL the backend would call) without building it."""
    from factgrain.backends.langchain_chat import is_chat_model
    from factgrain.backends.registry import split_model

    if not isinstance(spec, str):
        if is_chat_model(spec):
            found = getattr(spec, "openai_api_base", None) or getattr(spec, "base_url", None)
            return "langchain", str(found) if found else None
        return getattr(spec, "provider", type(spec).__name__), getattr(spec, "base_url", None)
    provider, _ = split_model(spec)
    if provider in ("embedded", "scripted"):
        return provider, None
    if url:
        return provider, url
    import os

    env_url = os.environ.get("OPENAI_BASE_URL")
    defaults = {"vllm": "http://127.0.0.1:8000/v1", "llamacpp": "http://127.0.0.1:8080/v1"}
    return provider, env_url or defaults.get(provider) or "https://api.openai.com/v1"


def logprobs_note(provider: str, url: str | None, spec: Any) -> tuple[str, bool | None]:
    """What we know about logprobs support: (note, supported or None when unknown)."""
    if provider in ("vllm", "llamacpp", "embedded", "scripted"):
        return "yes", True
    if provider == "langchain" and not isinstance(spec, str):
        from factgrain.backends.langchain_chat import LangChainChatBackend

        ok = LangChainChatBackend(spec).supports_logprobs
        return ("yes (the model has a logprobs setting)" if ok else "no: this chat model has no logprobs setting"), ok
    if url and ":11434" in url:
        return "Ollama: only recent releases return them; check with --probe", None
    if url and "api.openai.com" in url:
        return "yes for chat models (not for reasoning models)", True
    if provider in ("openai", "langchain"):
        return "depends on the server; check with --probe", None
    return "unknown", None


def reachable(provider: str, url: str | None, key: str | None, timeout: float) -> tuple[str, bool | None]:
    if provider == "embedded":
        from factgrain.backends.embedded import bundled_model_path

        try:
            return f"in-process; model file {bundled_model_path().name} found", True
        except FactgrainError as exc:
            return f"no: {exc}", False
    if provider == "scripted" or not url:
        return "not checked", None
    import httpx

    headers = {"Authorization": f"Bearer {key}"} if key else {}
    t0 = time.perf_counter()
    try:
        r = httpx.get(url.rstrip("/") + "/models", headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        return f"no: {type(exc).__name__}", False
    ms = (time.perf_counter() - t0) * 1000
    if r.status_code in (401, 403):
        return f"reachable, but the key was refused (HTTP {r.status_code})", False
    if r.status_code >= 400:
        return f"answers, but GET /models gave HTTP {r.status_code}", True
    return f"yes ({ms:.0f} ms)", True


async def _probe(backend: Any) -> tuple[str, bool | None]:
    try:
        result = await backend.chat([{"role": "user", "content": "Is water wet? Answer Yes or No."}],
                                    max_tokens=1, top_logprobs=5)
    except FactgrainError as exc:
        return f"probe failed: {exc}", None
    if result.top_logprobs:
        return f"yes (probe reply {result.text!r})", True
    return f"no: the probe reply {result.text!r} came without logprobs", False


def describe(args: argparse.Namespace) -> dict[str, Any]:
    from factgrain.agent.evaluator import run_sync
    from factgrain.commands.check import evaluator_kwargs
    from factgrain.config import ROLES, load_config

    kw = evaluator_kwargs(args) if hasattr(args, "method") else {}
    cfg = load_config(model=args.model, base_url=args.base_url, api_key=args.api_key,
                      decomposer_model=args.decomposer_model, reflector_model=getattr(args, "reflector_model", None),
                      verifier_model=getattr(args, "verifier_model", None), verifier=args.verifier, check=kw)
    key = cfg.api_key.get_secret_value() if cfg.api_key else None
    built = cfg.backends() if args.probe else {}
    rows, warnings = [], []
    for role in ROLES:
        spec, url, source = cfg.role(role)
        provider, endpoint = endpoint_of(spec, url)
        reach, ok = reachable(provider, endpoint, key, args.timeout)
        lp_note, lp = logprobs_note(provider, endpoint, spec)
        if args.probe:
            lp_note, lp = run_sync(_probe(built[role]))
        rows.append({"role": ROLE_NAMES[role], "model": spec if isinstance(spec, str) else repr(spec),
                     "endpoint": endpoint or "-", "from": source or "-", "reachable": reach, "reachable_ok": ok,
                     "logprobs": lp_note, "logprobs_ok": lp})
    verifier_kind = cfg.check.get("verifier")
    v = rows[-1]
    if verifier_kind in (None, "llm", "fused") and v["logprobs_ok"] is False:
        warnings.append(f"the verification backend {v['model']} cannot return logprobs: the LLM verifier falls back "
                        "to hard Yes/No answers (probability 0 or 1, marked hard_answer_only). Use a server that "
                        "returns logprobs (vLLM, llama.cpp) or --verifier lexical / nli.")
    for r in rows:
        if r["reachable_ok"] is False:
            warnings.append(f"{r['role']} backend {r['model']} at {r['endpoint']}: {r['reachable']}")
    return {"file": cfg.file, "rows": rows, "warnings": warnings,
            "api_key": cfg.sources.get("api_key", "not set") if key else "not set"}


def run(args: argparse.Namespace) -> int:
    info = describe(args)
    if args.format == "json":
        sys.stdout.write(json.dumps(info, indent=2) + "\n")
    else:
        print(f"configuration file: {info['file'] or 'none found'}; API key: {info['api_key']}")
        cols = ("role", "model", "endpoint", "from", "reachable", "logprobs")
        widths = {c: max(len(c), *(len(str(r[c])) for r in info["rows"])) for c in cols}
        print("  ".join(c.ljust(widths[c]) for c in cols).rstrip())
        for r in info["rows"]:
            print("  ".join(str(r[c]).ljust(widths[c]) for c in cols).rstrip())
        for w in info["warnings"]:
            print(f"warning: {w}", file=sys.stderr)
    return 1 if any(r["reachable_ok"] is False for r in info["rows"]) else 0
