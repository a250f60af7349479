"""Engines: what executes the predictions of a benchmark run, behind one small interface.

The runner (:mod:`factgrain.evals.runner`) owns everything that makes a run a run - the job list,
resume, the predictions file, the tables - and hands an engine only the jobs still to predict and a
``write`` callback. An engine is chosen by name from a registry of ``"module:Class"`` strings, the
way backends are, so an engine's module (and its heavy dependency, e.g. Ray) loads only when that
engine is chosen:

    local  this process, asyncio with bounded concurrency (the default)
    ray    a Ray Data actor pool over one or many OpenAI-compatible endpoints (extra ``ray``)

A new engine subclasses :class:`Engine` and is added with :func:`register_engine`.
"""

from __future__ import annotations

import abc
import asyncio
import importlib
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from factgrain.errors import ConfigurationError, FactgrainError

if TYPE_CHECKING:  # the task layer (pydantic schemas, the agent) loads when a run starts, not with the CLI
    from factgrain.evals.tasks.base import EvalContext, EvalSettings, Job, Task

Write = Callable[[dict[str, Any]], None]
Advance = Callable[..., None]

# engine name -> "module:Class"; imported only when that engine is asked for
_ENGINES: dict[str, str] = {
    "local": "factgrain.evals.engines:LocalEngine",
    "ray": "factgrain.integrations.ray_runner:RayEngine",
}


class Engine(abc.ABC):
    """Executes :func:`predict_one` for each job and passes every record to ``write`` as it is done."""

    name: ClassVar[str]

    def __init__(self, *, concurrency: int = 4, endpoints: list[str] | None = None, actors: int | None = None):
        self.concurrency = max(1, concurrency)
        self.endpoints = list(endpoints or [])
        self.actors = actors

    @abc.abstractmethod
    def run(self, task: Task, jobs: list[Job], settings: EvalSettings, *, split: str, write: Write,
            advance: Advance) -> None:
        """Predict ``jobs``; return when every record has been written."""


def register_engine(name: str, target: str) -> None:
    """Register ``name`` -> ``"package.module:Class"`` (an :class:`Engine` subclass)."""
    _ENGINES[name] = target


def engine_names() -> list[str]:
    return sorted(_ENGINES)


def get_engine(spec: str | Engine, **options: Any) -> Engine:
    """An engine by name (``local``, ``ray``, or a registered one), or an Engine passed through."""
    if isinstance(spec, Engine):
        return spec
    if spec not in _ENGINES:
        raise ConfigurationError(f"unknown engine {spec!r}; choose {', '.join(engine_names())}")
    module_name, cls_name = _ENGINES[spec].split(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    return cls(**options)


# --------------------------------------------------------------------------- what every engine runs


def git_commit() -> str | None:
    """The commit of the factgrain checkout ('+dirty' when tracked files changed), or None."""
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "factgrain"], cwd=root, timeout=10).returncode
        return head.stdout.strip() + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return None


def run_metadata(task: Task, split: str, ctx_desc: dict[str, Any], engine: str) -> dict[str, Any]:
    from factgrain._version import __version__

    return {"task": task.name, "split": split, "task_options": task.config(), **ctx_desc,
            "engine": engine, "git_commit": git_commit(), "factgrain_version": __version__}


async def predict_one(task: Task, job: Job, ctx: EvalContext, meta: dict[str, Any]) -> dict[str, Any]:
    """One record; a failure becomes an ``error`` record (counted, never a verdict)."""
    t0 = time.perf_counter()
    try:
        body = await task.predict(job, ctx)
    except FactgrainError as exc:
        body = {"error": f"{type(exc).__name__}: {exc}"}
    except Exception as exc:  # noqa: BLE001 - one bad row must not sink a long run; it is recorded
        body = {"error": f"{type(exc).__name__}: {exc}"}
    return {"id": job.id, **body, "elapsed_s": round(time.perf_counter() - t0, 4), "run": meta}


# --------------------------------------------------------------------------- the local engine


class LocalEngine(Engine):
    """This process: one event loop, at most ``concurrency`` predictions in flight."""

    name = "local"

    def __init__(self, **options: Any):
        super().__init__(**options)
        if self.endpoints:
            raise ConfigurationError("the local engine talks to one endpoint (--base-url); "
                                     "--endpoints spreads work over several with --engine ray")

    def run(self, task: Task, jobs: list[Job], settings: EvalSettings, *, split: str, write: Write,
            advance: Advance) -> None:
        from factgrain.agent.evaluator import run_sync

        run_sync(self._run(task, jobs, settings, split, write, advance))

    async def _run(self, task: Task, jobs: list[Job], settings: EvalSettings, split: str, write: Write,
                   advance: Advance) -> None:
        from factgrain.evals.tasks.base import EvalContext

        ctx = EvalContext(settings)
        meta = run_metadata(task, split, ctx.describe(), self.name)
        sem = asyncio.Semaphore(self.concurrency)

        async def one(job: Job) -> None:
            async with sem:
                record = await predict_one(task, job, ctx, meta)
            # written the moment it is done, so an interruption loses nothing that finished
            write(record)
            advance()

        try:
            await asyncio.gather(*(one(j) for j in jobs))
        finally:
            for ev in ctx._evaluators.values():
                for b in {id(ev.backend): ev.backend, id(ev.decomposer_backend): ev.decomposer_backend}.values():
                    await b.aclose()
