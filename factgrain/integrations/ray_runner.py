"""The ``ray`` engine of :mod:`factgrain.evals.engines` (``factgrain eval --engine ray``, extra
``ray``): a Ray Data pipeline whose actor pool spreads predictions over several OpenAI-compatible
endpoints (e.g. vLLM replicas). This module, and Ray with it, is imported only when the engine is
chosen by name.

The driver keeps everything that makes a run a run - the job list, resume, the predictions file,
the tables - exactly as the local engine does; Ray only executes :func:`engines.predict_one` on
remote actors and streams the records back, which the driver appends as they arrive.

Routing: every job goes to the endpoint chosen by a hash of its reference text, so all units that
share one reference hit the same replica and reuse its prefix cache. Each actor holds one
Evaluator per endpoint and runs a batch of jobs concurrently on its own event loop.

Multi-node: start a Ray cluster (``ray start --head`` on one node, ``ray start --address=HEAD:6379``
on the others), set ``RAY_ADDRESS`` (or pass ``address=``) and list every replica's base URL in
``--endpoints``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from collections.abc import Callable
from typing import Any

from factgrain.errors import ConfigurationError, MissingExtraError
from factgrain.evals.engines import Advance, Engine, Write, predict_one, run_metadata
from factgrain.evals.tasks.base import EvalContext, EvalSettings, Job, Task


def _ray() -> Any:
    try:
        import ray
        import ray.data  # noqa: F401 - the Data library is what we need
    except ImportError as exc:
        raise MissingExtraError("ray", "ray[data]") from exc
    return ray


def endpoint_for(job: Job, endpoints: list[str]) -> str | None:
    """The endpoint a job is sent to: stable for a given reference (prefix-cache affinity)."""
    if not endpoints:
        return None
    key = str(job.payload.get("reference") or job.id).encode("utf-8")
    return endpoints[int(hashlib.sha1(key).hexdigest(), 16) % len(endpoints)]


class _Predictor:
    """One Ray actor: builds the task and an EvalContext per endpoint, predicts batches of jobs."""

    def __init__(self, task_name: str, task_options: dict[str, Any], settings: EvalSettings, split: str,
                 concurrency: int):
        from factgrain.evals.tasks import get_task

        self.task = get_task(task_name, **task_options)
        self.settings = settings
        self.split = split
        self.concurrency = concurrency
        self.loop = asyncio.new_event_loop()
        self.contexts: dict[str, Any] = {}

    def _context(self, endpoint: str) -> tuple[Any, dict[str, Any]]:
        if endpoint not in self.contexts:
            s = self.settings if not endpoint else self.settings.model_copy(update={"base_url": endpoint})
            ctx = EvalContext(s)
            meta = run_metadata(self.task, self.split, ctx.describe(), "ray")
            meta["endpoint"] = endpoint or None
            self.contexts[endpoint] = (ctx, meta)
        return self.contexts[endpoint]

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        jobs = [Job(id=str(i), payload=json.loads(p)) for i, p in zip(batch["id"], batch["payload"])]
        endpoints = [str(e) for e in batch["endpoint"]]
        sem = asyncio.Semaphore(self.concurrency)

        async def one(job: Job, endpoint: str) -> dict[str, Any]:
            ctx, meta = self._context(endpoint)
            async with sem:
                return await predict_one(self.task, job, ctx, meta)

        async def run_all() -> list[dict[str, Any]]:
            return await asyncio.gather(*(one(j, e) for j, e in zip(jobs, endpoints)))

        records = self.loop.run_until_complete(run_all())
        # JSON strings keep nested, ragged records out of Arrow's type inference
        return {"id": [r["id"] for r in records], "record": [json.dumps(r, ensure_ascii=False) for r in records]}


def run_ray(
    task: Task,
    jobs: list[Job],
    settings: EvalSettings,
    *,
    split: str,
    endpoints: list[str],
    write: Callable[[dict[str, Any]], None],
    advance: Callable[..., None] = lambda n=1: None,
    actors: int | None = None,
    batch_size: int = 4,
    concurrency: int = 4,
    address: str | None = None,
) -> None:
    """Predict ``jobs`` on a Ray actor pool and hand each record to ``write`` as it arrives."""
    model = settings.model
    if endpoints and (model is None or (isinstance(model, str) and model.startswith("embedded"))):
        raise ConfigurationError("with --endpoints, name the served model: --model vllm/<name>, "
                                 "llamacpp/<name> or openai/<name>")
    ray = _ray()
    if not ray.is_initialized():
        ray.init(address=address or os.environ.get("RAY_ADDRESS"), include_dashboard=False,
                 log_to_driver=False, ignore_reinit_error=True)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False  # the runner draws its own bar
    rows = [{"id": j.id, "payload": json.dumps(j.payload), "endpoint": endpoint_for(j, endpoints) or ""}
            for j in jobs]
    n_actors = actors or max(1, len(endpoints))
    ds = ray.data.from_items(rows).map_batches(
        _Predictor,
        fn_constructor_kwargs={"task_name": task.name, "task_options": task.config(), "settings": settings,
                               "split": split, "concurrency": concurrency},
        batch_size=batch_size, compute=ray.data.ActorPoolStrategy(size=n_actors),
        num_cpus=0.25,  # actors wait on HTTP, not CPU
    )
    for batch in ds.iter_batches(batch_size=1, batch_format="numpy"):
        for rec in batch["record"]:
            write(json.loads(str(rec)))
            advance()


class RayEngine(Engine):
    """``--engine ray``: :func:`run_ray` with the runner's concurrency, endpoints and actor count."""

    name = "ray"

    def __init__(self, *, address: str | None = None, batch_size: int = 4, **options: Any):
        super().__init__(**options)
        self.address = address
        self.batch_size = batch_size

    def run(self, task: Task, jobs: list[Job], settings: EvalSettings, *, split: str, write: Write,
            advance: Advance) -> None:
        run_ray(task, jobs, settings, split=split, endpoints=self.endpoints, write=write, advance=advance,
                actors=self.actors, batch_size=self.batch_size, concurrency=self.concurrency, address=self.address)
