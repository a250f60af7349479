"""A disk cache of LLM calls, so that a rerun of an unchanged check or evaluation calls no model.

The key is a SHA-256 over everything that can change a reply and nothing else: the backend's
identity (provider, model, endpoint without credentials — see :meth:`Backend.cache_identity`), the
messages (prompt versions live inside them), and the request parameters (sampling, top logprobs,
choices; for structured calls the JSON schema, validation context, retries and token budget).
API keys never enter a key or a row.

Storage is one SQLite file in WAL mode: many readers and one writer at a time, across threads and
processes, with a busy timeout instead of errors. Failed calls are never stored. Concurrent
identical requests inside one process share one backend call.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from factgrain.backends import usage as usage_meter
from factgrain.backends.base import Backend, ChatResult, M, Messages
from factgrain.schemas.report import Usage

SCHEMA_VERSION = 1  # bump when the stored layout or key recipe changes


def default_cache_dir() -> Path:
    """``$FACTGRAIN_CACHE_DIR``, else ``$XDG_CACHE_HOME/factgrain``, else ``~/.cache/factgrain``."""
    explicit = os.environ.get("FACTGRAIN_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "factgrain"


def canonical(value: Any) -> str:
    """Stable JSON: sorted keys, no whitespace; unknown objects by ``repr``."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr)


def key_material(kind: str, identity: dict[str, Any], messages: Messages, params: dict[str, Any]) -> str:
    """The exact text that is hashed into a key (exposed so tests can inspect it)."""
    return canonical({"v": SCHEMA_VERSION, "kind": kind, "backend": identity, "messages": messages,
                      "params": params})


def make_key(kind: str, identity: dict[str, Any], messages: Messages, params: dict[str, Any]) -> str:
    return hashlib.sha256(key_material(kind, identity, messages, params).encode("utf-8")).hexdigest()


def _use_wal(con: sqlite3.Connection, attempts: int = 60) -> None:
    """Switch the file to WAL (it stays so). The switch needs the file to itself and SQLite answers
    'database is locked' at once, without its busy timeout, while another connection is opening it:
    so it is made only when needed and retried with a growing pause."""
    for attempt in range(attempts):
        try:
            if str(con.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                con.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(min(0.5, 0.01 * (attempt + 1)))


class CallCache:
    """Key -> stored reply, in ``<dir>/calls.sqlite``. Safe to share between threads and processes."""

    def __init__(self, directory: str | Path | None = None):
        self.directory = Path(directory).expanduser() if directory else default_cache_dir()
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / "calls.sqlite"
        self._local = threading.local()
        with self._conn() as con:
            con.execute("CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
                        "created REAL NOT NULL)")

    def _conn(self) -> sqlite3.Connection:
        # sqlite3 connections must stay in their thread: one per thread.
        con = getattr(self._local, "con", None)
        if con is None:
            con = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            _use_wal(con)
            con.execute("PRAGMA synchronous=NORMAL")
            self._local.con = con
        return con

    def get(self, key: str) -> dict[str, Any] | None:
        row = self._conn().execute("SELECT value FROM calls WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        self._conn().execute("INSERT OR REPLACE INTO calls (key, value, created) VALUES (?, ?, ?)",
                             (key, json.dumps(value, ensure_ascii=False), time.time()))

    def __len__(self) -> int:
        return int(self._conn().execute("SELECT COUNT(*) FROM calls").fetchone()[0])

    def clear(self) -> None:
        self._conn().execute("DELETE FROM calls")


def _stored(result: ChatResult) -> dict[str, Any]:
    return {"text": result.text, "finish_reason": result.finish_reason, "top_logprobs": result.top_logprobs,
            "usage": result.usage.model_dump()}


def _hit(value: dict[str, Any]) -> ChatResult:
    # A hit costs no tokens: its usage is the hit itself; the original usage is kept alongside.
    hit = Usage(cache_hits=1)
    usage_meter.record(hit)
    return ChatResult(text=value["text"], finish_reason=value.get("finish_reason"),
                      top_logprobs=value.get("top_logprobs"), usage=hit, cached=True)


class CachedBackend(Backend):
    """Wraps any backend; answers repeated calls from a :class:`CallCache`.

    It presents the wrapped backend's provider, model and limits, so everything that adapts to the
    backend (default verifier, span mode) behaves as without the cache.
    """

    def __init__(self, inner: Backend, cache: CallCache | None = None):
        if isinstance(inner, CachedBackend):
            inner = inner.inner
        super().__init__(inner.model, max_connections=inner.max_connections)
        self.inner = inner
        self.cache = cache if cache is not None else CallCache()  # an empty cache is falsy
        self.provider = inner.provider  # type: ignore[misc] - mirror the wrapped class
        self.supports_logprobs = inner.supports_logprobs  # type: ignore[misc]
        self._inflight: dict[str, asyncio.Future] = {}

    def __repr__(self) -> str:
        return f"CachedBackend({self.inner!r}, dir={str(self.cache.directory)!r})"

    def __getattr__(self, name: str) -> Any:
        # Backend-specific attributes (model_path, server_url...) come from the wrapped backend.
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def cache_identity(self) -> dict[str, Any]:
        return self.inner.cache_identity()

    async def _once(self, key: str, compute: Any) -> tuple[Any, bool]:
        """Run ``compute`` once per key at a time; concurrent duplicates await the first."""
        pending = self._inflight.get(key)
        if pending is not None:
            return await asyncio.shield(pending), True
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._inflight[key] = fut
        try:
            value = await compute()
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # mark retrieved: waiters re-raise it, nobody else must
            raise
        else:
            fut.set_result(value)
            return value, False
        finally:
            self._inflight.pop(key, None)

    async def chat(self, messages: Messages, *, max_tokens: int = 256, temperature: float = 0.0,
                   top_logprobs: int = 0, choices: list[str] | None = None) -> ChatResult:
        params = {"max_tokens": max_tokens, "temperature": temperature, "top_logprobs": top_logprobs,
                  "choices": choices}
        key = make_key("chat", self.cache_identity(), messages, params)
        found = self.cache.get(key)
        if found is not None:
            return _hit(found)

        async def compute() -> dict[str, Any]:
            result = await self.inner.chat(messages, max_tokens=max_tokens, temperature=temperature,
                                           top_logprobs=top_logprobs, choices=choices)
            value = _stored(result)
            self.cache.put(key, value)
            return value

        value, shared = await self._once(key, compute)
        if shared:
            return _hit(value)
        return ChatResult(text=value["text"], finish_reason=value["finish_reason"],
                          top_logprobs=value["top_logprobs"], usage=Usage(**value["usage"]))

    async def structured(self, messages: Messages, response_model: type[M], *,
                         context: dict[str, Any] | None = None, max_retries: int = 2,
                         max_tokens: int = 1024) -> tuple[M, ChatResult]:
        params = {"schema": response_model.model_json_schema(), "model_name": response_model.__qualname__,
                  "context": context, "max_retries": max_retries, "max_tokens": max_tokens}
        key = make_key("structured", self.cache_identity(), messages, params)
        found = self.cache.get(key)
        if found is not None:
            obj = _revalidate(response_model, found, context)
            if obj is not None:
                return obj, _hit(found)

        async def compute() -> dict[str, Any]:
            obj, result = await self.inner.structured(messages, response_model, context=context,
                                                      max_retries=max_retries, max_tokens=max_tokens)
            value = _stored(result)
            value["object"] = obj.model_dump(mode="json")
            self.cache.put(key, value)
            return value

        value, shared = await self._once(key, compute)
        obj = _revalidate(response_model, value, context)
        if obj is None:  # pragma: no cover - the inner backend validated this very object
            raise RuntimeError("cached object no longer validates")
        if shared:
            return obj, _hit(value)
        return obj, ChatResult(text=value["text"], finish_reason=value["finish_reason"], usage=Usage(**value["usage"]))

    async def aclose(self) -> None:
        await self.inner.aclose()


def _revalidate(model: type[M], value: dict[str, Any], context: dict[str, Any] | None) -> M | None:
    """Rebuild the stored object through the current validators; a stored object they now reject
    (validators changed without the schema changing) counts as a miss."""
    try:
        return model.model_validate(value["object"], context=context)
    except (ValidationError, KeyError, TypeError):
        return None


def with_cache(backend: Backend, directory: str | Path | None = None) -> CachedBackend:
    """``backend`` answered from the cache in ``directory`` (default: :func:`default_cache_dir`)."""
    return CachedBackend(backend, CallCache(directory))


__all__ = ["CallCache", "CachedBackend", "default_cache_dir", "key_material", "make_key", "with_cache"]
