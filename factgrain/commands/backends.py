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
                   help="send each distinct backend one request shaped like a verification (20 top logprobs, "
                        "Yes/No constraint) to see whether logprobs come back (starts the embedded model if it "
                        "is configured)")
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


def reachable(provider: str, url: str | None, key: str | None, timeout: float,
              model: str | None = None) -> tuple[str, bool | None]:
    """Whether the endpoint answers ``GET /models`` and, when it lists models, serves ``model``."""
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
        return f"no: {type(exc).__name__} ({exc})", False
    ms = (time.perf_counter() - t0) * 1000
    if r.status_code in (401, 403):
        return f"reachable, but the key was refused (HTTP {r.status_code})", False
    if r.status_code >= 400:
        return f"answers, but GET /models gave HTTP {r.status_code}", True
    served = _served_models(r)
    if model and served and model not in served:
        listed = ", ".join(served[:5]) + (" ..." if len(served) > 5 else "")
        return f"reachable, but model {model!r} is not served there (served: {listed})", False
    return f"yes ({ms:.0f} ms)", True


def _served_models(response: Any) -> list[str]:
    try:
        return [str(m["id"]) for m in response.json().get("data", []) if isinstance(m, dict) and "id" in m]
    except (ValueError, AttributeError, TypeError):
        return []


async def _probe(backend: Any) -> tuple[str, bool | None]:
    """One request shaped like a verification: as many top logprobs as the LLM verifier asks for
    and the Yes/No constraint, so a server that would refuse verification refuses the probe."""
    from factgrain.agent.verifiers.llm import TOP_LOGPROBS

    try:
        result = await backend.chat([{"role": "user", "content": "Is water wet? Answer Yes or No."}],
                                    max_tokens=1, top_logprobs=TOP_LOGPROBS, choices=["Yes", "No"])
    except FactgrainError as exc:
        return f"probe failed: {exc}", False
    finally:
        await backend.aclose()
    if result.top_logprobs:
        return f"yes, {TOP_LOGPROBS} top logprobs asked (probe reply {result.text!r})", True
    return f"no: the probe reply {result.text!r} came without logprobs", False


def _probe_backend(spec: Any, url: str | None, key: str | None, timeout: float) -> Any:
    """A backend for one probe: one attempt. Only endpoints that answered the reachability check
    (``--timeout``) get here, so the one generation may take longer: a busy server's first reply
    (and the embedded model's, which includes loading it) is seconds, not a dead endpoint."""
    from factgrain.backends.registry import get_backend, split_model
    from factgrain.backends.retry import RetryPolicy

    if isinstance(spec, str) and split_model(spec)[0] in ("openai", "vllm", "llamacpp", "embedded"):
        wait = max(timeout, 60.0) if split_model(spec)[0] == "embedded" else max(timeout, 30.0)
        return get_backend(spec, base_url=url, api_key=key, retry=RetryPolicy(attempts=1), timeout=wait)
    return get_backend(spec, base_url=url, api_key=key)


def describe(args: argparse.Namespace) -> dict[str, Any]:
    from factgrain.agent.evaluator import run_sync
    from factgrain.commands.check import evaluator_kwargs
    from factgrain.config import ROLES, load_config

    kw = evaluator_kwargs(args) if hasattr(args, "method") else {}
    cfg = load_config(model=args.model, base_url=args.base_url, api_key=args.api_key,
                      decomposer_model=args.decomposer_model, reflector_model=getattr(args, "reflector_model", None),
                      verifier_model=getattr(args, "verifier_model", None), verifier=args.verifier, check=kw)
    key = cfg.api_key.get_secret_value() if cfg.api_key else None
    rows, warnings = [], []
    # Roles that share a model and endpoint are checked (and probed) once.
    checked: dict[tuple, tuple[str, bool | None]] = {}
    probed: dict[tuple, tuple[str, bool | None]] = {}
    for role in ROLES:
        spec, url, source = cfg.role(role)
        provider, endpoint = endpoint_of(spec, url)
        model = spec.split("/", 1)[1] if isinstance(spec, str) and "/" in spec else None
        ident = (spec if isinstance(spec, str) else id(spec), endpoint)
        if ident not in checked:
            # llama.cpp answers under any model name; vLLM and hosted APIs refuse one they do not serve.
            named = model if provider in ("vllm", "openai") else None
            checked[ident] = reachable(provider, endpoint, key, args.timeout, named)
        reach, ok = checked[ident]
        lp_note, lp = logprobs_note(provider, endpoint, spec)
        if args.probe:
            if ok is False:
                probed.setdefault(ident, ("not probed: the endpoint check failed", None))
            elif ident not in probed:
                probed[ident] = run_sync(_probe(_probe_backend(spec, url, key, args.timeout)))
            lp_note, lp = probed[ident]
        rows.append({"role": ROLE_NAMES[role], "model": spec if isinstance(spec, str) else repr(spec),
                     "endpoint": endpoint or "-", "from": source or "-", "reachable": reach, "reachable_ok": ok,
                     "logprobs": lp_note, "logprobs_ok": lp, "probe_failed": lp_note.startswith("probe failed")})
    verifier_kind = cfg.check.get("verifier")
    v = rows[-1]
    if verifier_kind in (None, "llm", "fused") and v["logprobs_ok"] is False and not v["probe_failed"]:
        warnings.append(f"the verification backend {v['model']} cannot return logprobs: the LLM verifier falls back "
                        "to hard Yes/No answers (probability 0 or 1, marked hard_answer_only). Use a server that "
                        "returns logprobs (vLLM, llama.cpp) or --verifier lexical / nli.")
    problems: dict[tuple[str, str, str], list[str]] = {}  # one warning per endpoint, naming its roles
    for r in rows:
        if r["reachable_ok"] is False:
            problems.setdefault((r["model"], r["endpoint"], r["reachable"]), []).append(r["role"])
        elif r["probe_failed"]:
            problems.setdefault((r["model"], r["endpoint"], r["logprobs"]), []).append(r["role"])
    for (model, endpoint, what), roles in problems.items():
        warnings.append(f"{', '.join(roles)} backend {model} at {endpoint}: {what}")
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
    return 1 if any(r["reachable_ok"] is False or r["probe_failed"] for r in info["rows"]) else 0
