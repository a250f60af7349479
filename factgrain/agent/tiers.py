"""Which paths a check takes, chosen by what the configured model can do.

Three tiers:

* ``offline`` - no model configured, or the bundled SmolLM2-135M (or another model under half a
  billion parameters): the offline reader decomposes (``span_mode="parse"``) and the lexical
  verifier decides, so a default check makes no LLM call and never starts the embedded server.
  Reflection, when asked for, takes the light path (one constrained judgment per flagged scope).
* ``small`` - a known small instruct model (Qwen2.5 0.5B-4B, SmolLM 1.7B, Llama-3.2 1B/3B, Phi
  mini, Gemma 2B...), recognised from its name, its GGUF metadata or its file size: the model writes
  the units (``free``) and a sentence it cannot decompose validly falls back to the offline reader,
  with a warning; reflection is light; the lexical verifier decides (a 1.5B model judges support
  with an AUC of 61-71 on the QASem Table-4 QAs, the lexical verifier about 86, docs/verifiers.md).
* ``capable`` - a hosted API, a vLLM or llama.cpp server with a larger model, a scripted or
  LangChain backend: free decomposition, full reflection, the LLM verifies.

``--span-mode`` / ``--reflect-mode`` (API: ``span_mode=``, ``reflect_mode=``) force either path;
``verifier=`` forces the verifier. :class:`TierChoice` records the choice and why, and the
Evaluator puts it in ``Report.tier``.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from factgrain.errors import ConfigurationError

TierName = Literal["offline", "small", "capable"]
SPAN_MODES = ("auto", "parse", "free")
REFLECT_MODES = ("auto", "light", "full")
# Parameters (in billions) up to which a model is "small"; below TINY_B it cannot write units at all.
SMALL_MAX_B = 4.0
TINY_B = 0.5
# A GGUF without a size label: quantised files of models up to ~4B parameters stay under this.
SMALL_GGUF_BYTES = 3_500_000_000
_BUNDLED = ("smollm2-135m", "default", "")
# Families whose released sizes are all small, when the name carries no parameter count.
_SMALL_FAMILIES = re.compile(r"smollm|tinyllama|phi-?[1-3](?:\.5)?-?mini|gemma-?[1-3]?-?2b|qwen2\.5-(?:coder-)?(?:0\.5|1\.5|3)b")
_PARAMS = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*([bm])(?![a-z])", re.IGNORECASE)


@dataclass(frozen=True)
class TierChoice:
    """The paths one check takes, and why."""

    tier: TierName
    span_mode: Literal["parse", "free"]
    reflect_mode: Literal["light", "full"]
    verifier: str
    fallback: bool  # free mode: a sentence the model cannot decompose goes to the offline reader
    reason: str

    def record(self) -> dict[str, str]:
        """The choice as the report stores it (``Report.tier``)."""
        return {"tier": self.tier, "span_mode": self.span_mode, "reflect_mode": self.reflect_mode,
                "verifier": self.verifier, "fallback": "parse" if self.fallback else "none", "reason": self.reason}


def parameters_from_name(name: str) -> float | None:
    """Billions of parameters named in a model name ('Qwen2.5-1.5B-Instruct' -> 1.5,
    'SmolLM2-135M' -> 0.135); the largest figure wins ('8x7B' names experts, not the total)."""
    found = []
    for number, unit in _PARAMS.findall(name):
        value = float(number) / (1000.0 if unit.lower() == "m" else 1.0)
        if value > 0:
            found.append(value)
    return max(found) if found else None


# -- GGUF metadata ------------------------------------------------------------------------------
_GGUF_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}


@lru_cache(maxsize=32)
def gguf_metadata(path: str, max_keys: int = 64) -> dict[str, Any]:
    """The ``general.*`` keys of a GGUF file's header (name, basename, size_label, architecture...),
    read without loading the model. Returns {} for a file that is not GGUF or cannot be read."""
    out: dict[str, Any] = {}
    try:
        with open(path, "rb") as fh:
            if fh.read(4) != b"GGUF":
                return {}
            version, = struct.unpack("<I", fh.read(4))
            if version < 2:
                return {}
            _tensors, n_kv = struct.unpack("<QQ", fh.read(16))

            def string() -> str:
                n, = struct.unpack("<Q", fh.read(8))
                return fh.read(n).decode("utf-8", "replace")

            def value(kind: int) -> Any:
                if kind == 8:
                    return string()
                if kind == 9:  # arrays (the tokenizer's vocabulary): skipped, never kept
                    inner, count = struct.unpack("<IQ", fh.read(12))
                    for _ in range(count):
                        value(inner)
                    return None
                fmt = _GGUF_SCALARS[kind]
                return struct.unpack(fmt, fh.read(struct.calcsize(fmt)))[0]

            for _ in range(min(n_kv, max_keys)):
                key = string()
                kind, = struct.unpack("<I", fh.read(4))
                if key.startswith("tokenizer."):
                    break  # the general keys come first; the vocabulary is large
                v = value(kind)
                if key.startswith("general."):
                    out[key[len("general."):]] = v
    except (OSError, struct.error, KeyError, UnicodeDecodeError):
        return out
    return out


def _gguf_size_b(path: Path, meta: dict[str, Any]) -> tuple[float | None, str]:
    for key in ("size_label", "name", "basename"):
        label = meta.get(key)
        if isinstance(label, str) and (b := parameters_from_name(label)) is not None:
            return b, f"GGUF metadata {key}={label!r}"
    b = parameters_from_name(path.name)
    if b is not None:
        return b, f"file name {path.name!r}"
    try:
        size = path.stat().st_size
    except OSError:
        return None, "unknown size"
    return (1.0 if size <= SMALL_GGUF_BYTES else None), f"file size {size / 1e9:.1f} GB"


def classify(backend: Any) -> tuple[TierName, str]:
    """The tier of a backend and the evidence for it."""
    provider = getattr(backend, "provider", "")
    if backend is None or provider == "offline":
        return "offline", "no model configured"
    model = str(getattr(backend, "model", "") or "")
    if provider == "embedded":
        if model in _BUNDLED:
            return "offline", "the bundled SmolLM2-135M cannot write units or judge support"
        path = Path(getattr(backend, "model_path", model))
        meta = gguf_metadata(str(path))
        size_b, evidence = _gguf_size_b(path, meta)
        label = meta.get("name") or path.name
        if size_b is not None and size_b < TINY_B:
            return "offline", f"{label}: about {size_b:g}B parameters ({evidence}), too small to write units"
        if size_b is not None and size_b <= SMALL_MAX_B:
            return "small", f"{label}: a small model, about {size_b:g}B parameters ({evidence})"
        if size_b is None and _SMALL_FAMILIES.search(str(label).lower()):
            return "small", f"{label}: a small model family ({evidence})"
        return "capable", f"{label}: a local model larger than {SMALL_MAX_B:g}B parameters ({evidence})"
    if provider in ("scripted", "langchain"):
        return "capable", f"{provider} backend: treated as a capable model"
    size_b = parameters_from_name(model)
    if size_b is not None and size_b < TINY_B:
        return "offline", f"{model}: about {size_b:g}B parameters (from its name), too small to write units"
    if (size_b is not None and size_b <= SMALL_MAX_B) or (size_b is None and _SMALL_FAMILIES.search(model.lower())):
        return "small", f"{model}: a small model (from its name{f', about {size_b:g}B parameters' if size_b else ''})"
    return "capable", f"{provider}/{model}: a served or hosted model"


def _lexical_available() -> bool:
    try:
        from factgrain.agent.verifiers.base import verifier_class

        verifier_class("lexical")
        return True
    except ConfigurationError:
        return False


def choose(backend: Any, *, span_mode: str = "auto", reflect_mode: str = "auto", verifier: str | None = None,
           verifier_backend: Any = None) -> TierChoice:
    """The paths for ``backend`` (the decomposition model); explicit modes override the tier's.
    ``verifier_backend`` (default: the same) decides the default verifier."""
    if span_mode == "enum":  # the old name of the offline path
        span_mode = "parse"
    if span_mode not in SPAN_MODES:
        raise ConfigurationError(f"span_mode must be one of {', '.join(SPAN_MODES)} (or the old 'enum'), not {span_mode!r}")
    if reflect_mode not in REFLECT_MODES:
        raise ConfigurationError(f"reflect_mode must be one of {', '.join(REFLECT_MODES)}, not {reflect_mode!r}")
    tier, reason = classify(backend)
    vtier, _ = classify(verifier_backend) if verifier_backend is not None and verifier_backend is not backend else (tier, "")
    default_span = "parse" if tier == "offline" else "free"
    default_reflect = "full" if tier == "capable" else "light"
    default_verifier = "llm" if vtier == "capable" or not _lexical_available() else "lexical"
    forced = []
    if span_mode != "auto":
        forced.append(f"span mode {span_mode} forced")
    if reflect_mode != "auto":
        forced.append(f"reflect mode {reflect_mode} forced")
    if verifier:
        forced.append(f"verifier {verifier} forced")
    chosen_span = default_span if span_mode == "auto" else span_mode
    return TierChoice(
        tier=tier, span_mode=chosen_span,  # type: ignore[arg-type]
        reflect_mode=default_reflect if reflect_mode == "auto" else reflect_mode,  # type: ignore[arg-type]
        verifier=verifier or default_verifier,
        fallback=chosen_span == "free" and tier != "capable",
        reason=reason + ("; " + ", ".join(forced) if forced else ""),
    )


__all__ = ["TierChoice", "choose", "classify", "gguf_metadata", "parameters_from_name"]
