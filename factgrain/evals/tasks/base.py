"""What every benchmark task provides, and the context its predictions run in.

A task turns dataset rows into *jobs* (one prediction each, JSON-serialisable so they can travel to
Ray workers), predicts one job into one JSON record, and summarises a list of records into tables.
The summary reads nothing but the records, so the figures can always be recomputed from a
predictions file.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field


@dataclass
class Job:
    """One prediction to make. ``id`` is unique within a run (it is the resume key)."""

    id: str
    payload: dict[str, Any]


@dataclass
class Table:
    """A titled table; ``rows`` are lists of already formatted cells."""

    title: str
    columns: list[str]
    rows: list[list[Any]]
    note: str = ""
    data: dict[str, Any] = field(default_factory=dict)  # raw figures, for tests and plots


class EvalSettings(BaseModel):
    """How to build the evaluators; plain data so it can be shipped to remote workers."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    model: Any = Field(default=None, description="provider/model string, a Backend, or None (default)")
    base_url: str | None = None
    api_key: str | None = None
    decomposer_model: str | None = None
    verifier_model: str | None = None
    reflector_model: str | None = None
    verifier: str | None = None
    calibration: str | None = Field(default=None, description="calibration profile name or JSON path "
                                    "(factgrain calibrate); verification uses the fused verifier with it")
    cache: bool | None = None
    cache_dir: str | None = None
    options: dict[str, Any] = Field(default_factory=dict, description="extra CheckOptions fields")


class EvalContext:
    """Builds (once) and hands out Evaluators for the option sets a task asks for."""

    def __init__(self, settings: EvalSettings):
        self.settings = settings
        self._evaluators: dict[tuple, Any] = {}

    def evaluator(self, **overrides: Any) -> Any:
        from factgrain.agent.evaluator import CheckOptions, Evaluator

        key = tuple(sorted(overrides.items()))
        if key not in self._evaluators:
            s = self.settings
            kw: dict[str, Any] = {**s.options, **overrides}
            if s.verifier:
                kw.setdefault("verifier", s.verifier)
            if s.calibration:
                kw.setdefault("calibration", s.calibration)
            # The LLM-call disk cache (issue 8) lands as a CheckOptions field; pass it through once it exists.
            if s.cache is not None and "cache" in CheckOptions.model_fields:
                kw["cache"] = s.cache
                if s.cache_dir:
                    kw["cache_dir"] = s.cache_dir
            roles = {k: v for k, v in (("verifier_model", s.verifier_model), ("reflector_model", s.reflector_model)) if v}
            self._evaluators[key] = Evaluator(s.model, base_url=s.base_url, api_key=s.api_key,
                                              decomposer_model=s.decomposer_model, **roles, **kw)
        return self._evaluators[key]

    def describe(self) -> dict[str, Any]:
        ev = self.evaluator()
        return {"backend": ev.decomposer_backend.provider, "model": ev.decomposer_backend.name,
                "verifier": ev.verifier.describe()}


class Task(abc.ABC):
    """A benchmark. Subclasses set ``name``/``dataset`` and implement the three steps."""

    name: ClassVar[str] = "abstract"
    dataset: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def __init__(self, **options: Any):
        self.options = options

    def config(self) -> dict[str, Any]:
        """Options that change the predictions (stored in run.json; resume refuses a mismatch)."""
        return dict(self.options)

    @abc.abstractmethod
    def jobs(self, split: str, *, limit: int | None, seed: int) -> list[Job]:
        ...

    @abc.abstractmethod
    async def predict(self, job: Job, ctx: EvalContext) -> dict[str, Any]:
        """One record (JSON-serialisable). Must include ``prompt_versions``."""

    @abc.abstractmethod
    def summarize(self, records: list[dict[str, Any]]) -> list[Table]:
        ...

    def units(self, record: dict[str, Any]) -> int:
        """How many units this record verified (for the time-per-100-units figure)."""
        return int(record.get("n_units") or 0)

    def plots(self, records: list[dict[str, Any]], out_dir: Any) -> list[Any]:
        return []

    #: whether ``summarize`` can use a dev run of the same configuration (see ``evals/devrun.py``)
    tunes_on_dev: ClassVar[bool] = False
    #: (folder, records) of that dev run, attached before ``summarize`` when one is found
    dev_run: tuple[Any, list[dict[str, Any]]] | None = None
