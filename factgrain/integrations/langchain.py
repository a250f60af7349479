"""LangChain / LangSmith integration (extra ``langchain``).

- :func:`create_factgrain_evaluator` / :func:`create_async_factgrain_evaluator`: evaluators in the
  openevals / LangSmith shape, ``(*, inputs=None, outputs, reference_outputs=None, **kw) ->
  {"key", "score", "comment", "metadata"}``. Usable in ``langsmith.evaluate(...,
  evaluators=[...])``, in pytest and in plain code; ``metadata`` holds every unit's verdict and the
  localized errors.
- :class:`FactgrainRunnable`: a Runnable (``invoke``, ``batch``, ``ainvoke``, ``abatch``) for LCEL,
  e.g. ``RunnablePassthrough.assign(output=generate) | FactgrainRunnable()``.
- :class:`FactgrainReviseRunnable`: the self-critique loop as a Runnable.
- :class:`FactgrainRunEvaluator`: a ``langsmith`` ``RunEvaluator`` for ``EvaluatorCallbackHandler``
  (online monitoring of traced runs).

Where the text, reference and question are found is configurable (``text_key``, ``reference_key``,
``question_key``: a key, a dotted path, or a function of ``(inputs, outputs, reference_outputs)``);
by default common names are tried (see the ``*_KEYS`` tuples).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from factgrain.errors import FactgrainError, InputError, MissingExtraError

try:
    from langchain_core.runnables import Runnable, RunnableConfig
    from langsmith.evaluation import EvaluationResult, RunEvaluator
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingExtraError("langchain", exc.name or "langchain-core") from exc

TEXT_KEYS = ("output", "outputs", "answer", "response", "text", "generation", "content", "result")
REFERENCE_KEYS = ("reference", "context", "contexts", "documents", "docs", "source", "sources", "retrieved_documents")
QUESTION_KEYS = ("question", "query", "input")

FieldSpec = str | Callable[[Any, Any, Any], Any] | None
ScoreName = Literal["consistency", "triqua", "label"]


# -- finding the fields ------------------------------------------------------------------------
def _as_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    for attr in ("page_content", "content"):  # Document, AIMessage
        inner = getattr(value, attr, None)
        if isinstance(inner, str):
            return inner
    if isinstance(value, Mapping):
        for k in ("page_content", "content", "text"):
            if isinstance(value.get(k), str):
                return value[k]
    return None


def _as_reference(value: Any) -> Any:
    """A string, or a list of ``{"id", "text"}`` sources (from strings, Documents or dicts)."""
    text = _as_text(value)
    if text is not None:
        return text
    if isinstance(value, (list, tuple)):
        sources = []
        for i, item in enumerate(value):
            t = _as_text(item)
            if t is None:
                raise InputError(f"reference item {i} is a {type(item).__name__}, not text or a Document")
            meta = getattr(item, "metadata", None) or (item.get("metadata") if isinstance(item, Mapping) else None) or {}
            ident = (item.get("id") if isinstance(item, Mapping) else None) or meta.get("source") or str(i)
            sources.append({"id": str(ident), "text": t})
        return sources[0]["text"] if len(sources) == 1 else sources
    return None


def _dig(container: Any, path: str) -> Any:
    value = container
    for part in path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        else:
            return None
    return value


def _find(spec: FieldSpec, places: list[Any], defaults: tuple[str, ...], args: tuple[Any, Any, Any],
          *, bare: bool) -> Any:
    """The value ``spec`` names, searched in ``places`` in order. With no spec, a bare (non-dict)
    place counts when ``bare`` (the text may be the whole output), then the default keys."""
    if callable(spec):
        return spec(*args)
    for place in places:
        if place is None:
            continue
        if spec is not None:
            found = _dig(place, spec)
            if found is not None:
                return found
            continue
        if not isinstance(place, Mapping):
            if bare:
                return place
            continue
        for key in defaults:
            if place.get(key) is not None:
                return place[key]
        if bare and len(place) == 1:  # {"anything": "the answer"}
            return next(iter(place.values()))
    return None


def _keys(*places: Any) -> list[str]:
    return sorted({k for p in places if isinstance(p, Mapping) for k in p})


class _Checker:
    """Shared by the evaluator functions, the Runnables and the RunEvaluator."""

    def __init__(self, *, key: str = "factgrain", text_key: FieldSpec = None, reference_key: FieldSpec = None,
                 question_key: FieldSpec = None, reference: Any = None, score: ScoreName = "consistency",
                 on_error: Literal["raise", "record"] = "raise", evaluator: Any = None, model: Any = None,
                 **options: Any):
        if score not in ("consistency", "triqua", "label"):
            raise InputError("score must be 'consistency', 'triqua' or 'label'")
        self.key, self.score, self.on_error = key, score, on_error
        self.text_key, self.reference_key, self.question_key = text_key, reference_key, question_key
        self.reference = reference
        self._evaluator = evaluator
        self._model, self._options = model, options

    @property
    def evaluator(self) -> Any:
        if self._evaluator is None:  # built on first use, so creating an evaluator costs nothing
            from factgrain.agent.evaluator import Evaluator

            self._evaluator = Evaluator(self._model, **self._options)
        return self._evaluator

    def fields(self, inputs: Any, outputs: Any, reference_outputs: Any) -> tuple[str, Any, str | None]:
        args = (inputs, outputs, reference_outputs)
        raw_text = _find(self.text_key, [outputs], TEXT_KEYS, args, bare=True)
        text = _as_text(raw_text)
        if text is None:
            raise InputError(f"no text to check in the outputs (keys: {_keys(outputs)}); set text_key=")
        reference = self.reference
        if reference is None:
            raw = _find(self.reference_key, [reference_outputs, inputs, outputs], REFERENCE_KEYS, args, bare=False)
            reference = _as_reference(raw)
        if reference is None:
            raise InputError("no reference found (looked in reference_outputs, inputs, outputs; keys: "
                             f"{_keys(reference_outputs, inputs, outputs)}); set reference_key= or reference=")
        question = _as_text(_find(self.question_key, [inputs], QUESTION_KEYS, args, bare=False))
        return text, reference, question

    async def areport(self, inputs: Any, outputs: Any, reference_outputs: Any) -> Any:
        text, reference, question = self.fields(inputs, outputs, reference_outputs)
        return await self.evaluator.acheck(text, reference, question=question)

    async def aevaluate(self, inputs: Any, outputs: Any, reference_outputs: Any) -> dict[str, Any]:
        try:
            report = await self.areport(inputs, outputs, reference_outputs)
        except FactgrainError as exc:
            if self.on_error == "raise":
                raise
            return {"key": self.key, "score": None, "comment": f"factgrain could not check this run: {exc}",
                    "metadata": {"error": type(exc).__name__}}
        return evaluation_result(report, key=self.key, score=self.score)


# -- the evaluation result ---------------------------------------------------------------------
def unit_details(report: Any) -> list[dict[str, Any]]:
    out = []
    for r in report.results:
        out.append({
            "id": r.unit.id, "kind": r.unit.kind, "statement": r.unit.statement(), "status": r.status,
            "probability": r.probability, "sentence_index": r.unit.sentence_index,
            "spans": [{"start": s.start, "end": s.end, "text": s.text} for s in r.unit.spans()],
            "failing_components": r.failing_components,
            "components": [{"component": v.component, "status": v.status.value, "probability": v.probability,
                            "label": v.label, "error_kind": v.error_kind, "reason": v.reason,
                            "hard_answer_only": v.hard_answer_only} for v in r.verdicts],
        })
    return out


def evaluation_result(report: Any, *, key: str = "factgrain", score: ScoreName = "consistency") -> dict[str, Any]:
    """A Report as ``{"key", "score", "comment", "metadata"}`` (openevals / LangSmith feedback)."""
    from factgrain.agent.revise import localized_errors

    s = report.scores
    if score == "label":
        value: Any = None if s.label is None else s.label == "supported"
    else:
        value = s.triqua if score == "triqua" else s.consistency
    errors = localized_errors(report)
    if s.consistency is None:
        comment = f"no unit could be scored ({s.status})"
    else:
        comment = f"{s.supported_units} of {s.scored_units} scored units supported (consistency {s.consistency:.2f})"
    if errors:
        shown = "; ".join(f"{e['text']!r} at {e['start']}-{e['end']}" + (f" ({e['error_kind']})" if e["error_kind"] else "")
                          for e in errors[:5])
        comment += f". Unsupported: {shown}" + (f" and {len(errors) - 5} more" if len(errors) > 5 else "")
    metadata = {
        "label": s.label, "consistency": s.consistency, "triqua": s.triqua, "aggregate": s.aggregate,
        "counts": {"units": s.units, "scored": s.scored_units, "supported": s.supported_units,
                   "unsupported": s.unsupported_units, "unscored": s.unscored_units},
        "errors": errors, "units": unit_details(report),
        "method": report.method, "model": report.model, "verifier": report.verifier,
        "threshold": report.threshold, "warnings": report.warnings,
    }
    return {"key": key, "score": value, "comment": comment, "metadata": metadata}


# -- evaluator functions -----------------------------------------------------------------------
def create_factgrain_evaluator(**config: Any) -> Callable[..., dict[str, Any]]:
    """An evaluator for ``langsmith.evaluate()``, pytest or plain calls.

    ``config``: ``key`` (feedback name, default ``"factgrain"``), ``text_key`` / ``reference_key`` /
    ``question_key``, ``reference`` (a fixed reference), ``score`` (``consistency`` | ``triqua`` |
    ``label``), ``on_error`` (``raise`` | ``record``), ``evaluator`` (an Evaluator) or ``model`` plus
    any Evaluator option (``method``, ``verifier``, ``threshold`` ...).
    """
    checker = _Checker(**config)

    def factgrain_evaluator(*, inputs: Any = None, outputs: Any, reference_outputs: Any = None,
                            **kwargs: Any) -> dict[str, Any]:
        from factgrain.agent.evaluator import run_sync

        return run_sync(checker.aevaluate(inputs, outputs, reference_outputs))

    factgrain_evaluator.checker = checker  # type: ignore[attr-defined]
    return factgrain_evaluator


def create_async_factgrain_evaluator(**config: Any) -> Callable[..., Any]:
    """The ``async`` twin of :func:`create_factgrain_evaluator` (for ``langsmith.aevaluate``)."""
    checker = _Checker(**config)

    async def factgrain_evaluator(*, inputs: Any = None, outputs: Any, reference_outputs: Any = None,
                                  **kwargs: Any) -> dict[str, Any]:
        return await checker.aevaluate(inputs, outputs, reference_outputs)

    factgrain_evaluator.checker = checker  # type: ignore[attr-defined]
    return factgrain_evaluator


# -- Runnables ---------------------------------------------------------------------------------
class _CheckerRunnable(Runnable[Any, Any]):
    def __init__(self, **config: Any):
        self.checker = _Checker(**config)

    def _split(self, value: Any) -> tuple[Any, Any, Any]:
        # A dict input carries everything; anything else is the text (reference fixed at construction).
        return (value, value, value) if isinstance(value, Mapping) else (None, value, None)

    async def _arun(self, value: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        from factgrain.agent.evaluator import run_sync

        return self._call_with_config(lambda x: run_sync(self._arun(x)), input, config)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        return await self._acall_with_config(self._arun, input, config)

    def batch(self, inputs: list[Any], config: RunnableConfig | list[RunnableConfig] | None = None, *,
              return_exceptions: bool = False, **kwargs: Any) -> list[Any]:
        # One event loop for the whole batch, so requests share the backend's connections.
        from factgrain.agent.evaluator import run_sync

        return run_sync(self.abatch(inputs, config, return_exceptions=return_exceptions, **kwargs))


class FactgrainRunnable(_CheckerRunnable):
    """Checks its input and returns the Report (``output="report"``), the evaluation dict
    (``"evaluation"``), or the input dict with the report added under ``"factgrain"`` (``"assign"``).
    The input is a dict holding text, reference and question, or the text alone when
    ``reference=`` was given."""

    def __init__(self, *, output: Literal["report", "evaluation", "assign"] = "report", **config: Any):
        if output not in ("report", "evaluation", "assign"):
            raise InputError("output must be 'report', 'evaluation' or 'assign'")
        super().__init__(**config)
        self.output = output

    async def _arun(self, value: Any) -> Any:
        report = await self.checker.areport(*self._split(value))
        if self.output == "evaluation":
            return evaluation_result(report, key=self.checker.key, score=self.checker.score)
        if self.output == "assign":
            if not isinstance(value, Mapping):
                raise InputError("output='assign' needs a dict input")
            return {**value, "factgrain": report}
        return report


class FactgrainReviseRunnable(_CheckerRunnable):
    """The self-critique loop as a Runnable: returns the Revision, or only the revised text
    (``output="text"``). ``target``, ``max_rounds`` and ``reviser_model`` go to :func:`factgrain.arevise`."""

    def __init__(self, *, output: Literal["revision", "text"] = "revision", target: float = 1.0,
                 max_rounds: int = 3, reviser_model: Any = None, **config: Any):
        super().__init__(**config)
        self.output = output
        self.revise_options = {"target": target, "max_rounds": max_rounds, "reviser_model": reviser_model}

    async def _arun(self, value: Any) -> Any:
        from factgrain.agent.revise import arevise

        text, reference, question = self.checker.fields(*self._split(value))
        revision = await arevise(text, reference, question=question, evaluator=self.checker.evaluator,
                                 **self.revise_options)
        return revision.text if self.output == "text" else revision


# -- online monitoring -------------------------------------------------------------------------
class FactgrainRunEvaluator(RunEvaluator):
    """A LangSmith ``RunEvaluator``: pass it to ``EvaluatorCallbackHandler(evaluators=[...])`` to
    score traced runs as they finish. Failures are recorded as feedback, not raised."""

    def __init__(self, **config: Any):
        config.setdefault("on_error", "record")
        self.checker = _Checker(**config)

    @property
    def feedback_keys(self) -> list[str]:
        return [self.checker.key]

    @staticmethod
    def _parts(run: Any, example: Any) -> tuple[Any, Any, Any]:
        return run.inputs or {}, run.outputs or {}, (example.outputs if example is not None else None)

    def evaluate_run(self, run: Any, example: Any = None, evaluator_run_id: Any = None) -> EvaluationResult:
        from factgrain.agent.evaluator import run_sync

        return EvaluationResult(**run_sync(self.checker.aevaluate(*self._parts(run, example))))

    async def aevaluate_run(self, run: Any, example: Any = None, evaluator_run_id: Any = None) -> EvaluationResult:
        return EvaluationResult(**await self.checker.aevaluate(*self._parts(run, example)))


__all__ = ["create_factgrain_evaluator", "create_async_factgrain_evaluator", "evaluation_result",
           "FactgrainRunnable", "FactgrainReviseRunnable", "FactgrainRunEvaluator", "TEXT_KEYS",
           "REFERENCE_KEYS", "QUESTION_KEYS"]
