"""The Evaluator runs the stages in one direction: segment -> decompose -> (reflect) ->
retrieve evidence -> verify -> attribute -> aggregate, and builds the Report."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factgrain.agent import aggregate as agg
from factgrain.agent import failures as failed_calls
from factgrain.agent.attribute import classify_errors
from factgrain.agent.decompose.base import get_decomposer
from factgrain.agent.inputs import DEFAULT_MAX_CHARS, check_text, joined_reference, normalize_reference
from factgrain.agent.segment import DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE, segment
from factgrain.agent.verifiers.base import Verifier, build_items, verifier_class
from factgrain.backends import usage as usage_meter
from factgrain.backends.base import Backend
from factgrain.errors import BackendError, ConfigurationError, FactgrainError
from factgrain.schemas.report import Report, UnitResult
from factgrain.schemas.units import Component, Unit
from factgrain.schemas.verdicts import Evidence, UnitVerdict


class CheckOptions(BaseModel):
    """Everything that changes what a check does (besides the backends)."""

    model_config = ConfigDict(extra="forbid")

    method: str = "qasem"
    verifier: str | None = Field(default=None, description="llm | lexical | nli | fused; None = default for the backend")
    threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    aggregate: Literal["mean", "min", "harmonic"] = "harmonic"
    chunk_size: int = Field(default=DEFAULT_CHUNK_SIZE, gt=50)
    chunk_overlap: int = Field(default=DEFAULT_CHUNK_OVERLAP, ge=0)
    span_mode: Literal["auto", "parse", "enum", "free"] = Field(
        default="auto", description="parse = the offline reader, free = the model writes the units ('enum' = old "
        "name of parse); auto = by the model's tier (factgrain.agent.tiers)")
    reflect_mode: Literal["auto", "light", "full"] = Field(default="auto", description="auto = by the model's tier")
    reflect: bool = False
    reflect_rounds: int = Field(default=1, ge=0, le=5)
    keep_prompts: bool = True
    max_chars: int = Field(default=DEFAULT_MAX_CHARS, gt=0)
    retrieval_k: int = Field(default=3, ge=1)
    retrieval_budget_chars: int | None = Field(
        default=None, gt=0, description="a single reference at most this long is verified whole, a longer one "
        "on its top retrieval_k BM25 passages; None = the verifier's own (6,000 characters for model verifiers, "
        "100,000 for the lexical one, which reads a reference sentence by sentence itself)")
    skip_uncovered: bool = Field(default=False, description="units whose argument the reference never mentions are "
                                 "extrinsic errors without a verifier call (verifier 'coverage')")
    cache: bool = Field(default=False, description="answer repeated LLM calls from the disk cache")
    cache_dir: str | None = Field(default=None, description="cache directory; None = FACTGRAIN_CACHE_DIR or ~/.cache/factgrain")


def _allowed(name: str) -> str:
    """A field's bounds as a reader writes them, e.g. '0 <= threshold <= 1'."""
    field = CheckOptions.model_fields.get(name)
    if field is None:
        return ""
    low = high = ""
    for bound in field.metadata:
        for attr, sign in (("ge", "<="), ("gt", "<")):
            if getattr(bound, attr, None) is not None:
                low = f"{getattr(bound, attr):g} {sign} "
        for attr, sign in (("le", "<="), ("lt", "<")):
            if getattr(bound, attr, None) is not None:
                high = f" {sign} {getattr(bound, attr):g}"
    return f"{low}{name}{high}" if low or high else ""


def option_error(exc: ValidationError, model: type[BaseModel] = None) -> ConfigurationError:  # type: ignore[assignment]
    """One line naming each bad option, its value and what is allowed (CLI flag and keyword)."""
    parts = []
    for err in exc.errors():
        name = str(err["loc"][0]) if err["loc"] else "?"
        flag = "--" + name.replace("_", "-")
        if err["type"] == "extra_forbidden":
            parts.append(f"unknown option {name!r}")
            continue
        allowed = _allowed(name) if model in (None, CheckOptions) else ""
        rule = allowed or err["msg"][0].lower() + err["msg"][1:]
        parts.append(f"{flag} / {name}= got {err.get('input')!r}; allowed: {rule}")
    return ConfigurationError("invalid option: " + "; ".join(parts))


def check_options(values: dict[str, Any]) -> "CheckOptions":
    """:class:`CheckOptions` from ``values``; a bad value is a ConfigurationError (exit 3), not a
    Pydantic traceback."""
    try:
        return CheckOptions(**values)
    except ValidationError as exc:
        raise option_error(exc) from None


def default_verifier_name(backend: Backend) -> str:
    """The bundled 135M model judges support at chance, so with it the calibrated lexical
    verifier decides (the LLM still decomposes); any other model verifies itself."""
    from factgrain.agent.verifiers.base import _VERIFIERS

    if backend.provider == "embedded" and backend.model in ("smollm2-135m", "default") and "lexical" in _VERIFIERS:
        try:
            verifier_class("lexical")
            return "lexical"
        except ConfigurationError:
            return "llm"
    return "llm"


def _cached(backends: list[Backend], directory: str | None) -> list[Backend]:
    """Wrap each distinct backend once, all sharing one cache file."""
    from factgrain.backends.cache import CachedBackend, CallCache

    store = CallCache(directory)
    wrapped: dict[int, Backend] = {}
    for b in backends:
        if id(b) not in wrapped:
            wrapped[id(b)] = CachedBackend(b, store)
    return [wrapped[id(b)] for b in backends]


class Evaluator:
    """Holds the backends and options; ``acheck`` evaluates one text."""

    def __init__(
        self,
        model: str | Backend | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        decomposer_model: str | Backend | None = None,
        verifier_model: str | Backend | None = None,
        reflector_model: str | Backend | None = None,
        verifier_options: dict[str, Any] | None = None,
        decomposer_options: dict[str, Any] | None = None,
        nli_model: str | None = None,
        calibration: Any = None,
        **options: Any,
    ):
        # "nli/<dir>" picks the NLI verifier on that directory; the LLM roles fall back to the
        # decomposer model (or the default one).
        for spec in (model, verifier_model):
            if isinstance(spec, str) and spec.startswith("nli/"):
                nli_model = spec[len("nli/"):]
                if options.get("verifier") is None:
                    options["verifier"] = "nli"
        if isinstance(model, str) and model.startswith("nli/"):
            model = decomposer_model
        if isinstance(verifier_model, str) and verifier_model.startswith("nli/"):
            verifier_model = None
        from factgrain.config import load_config  # arguments > FACTGRAIN_* env > factgrain.toml / pyproject

        self.config = load_config(model=model, base_url=base_url, api_key=api_key, decomposer_model=decomposer_model,
                                  verifier_model=verifier_model, reflector_model=reflector_model, check=options)
        self.options = check_options(self.config.check)
        roles = self.config.backends()
        # Backends built here from model strings are this Evaluator's to close; ones passed in stay open.
        passed = {id(m) for m in (model, decomposer_model, verifier_model, reflector_model)
                  if m is not None and not isinstance(m, str)}
        self._owned = list({id(b): b for b in roles.values() if id(b) not in passed}.values())
        self.backend, self.decomposer_backend, verifier_backend = roles["main"], roles["decomposer"], roles["verifier"]
        reflector_backend = roles["reflector"]
        if self.options.cache:
            self.backend, self.decomposer_backend, verifier_backend, reflector_backend = _cached(
                [self.backend, self.decomposer_backend, verifier_backend, reflector_backend], self.options.cache_dir)
        self.reflector_backend = (self.decomposer_backend if roles["reflector"] is roles["decomposer"]
                                  else reflector_backend)
        from factgrain.agent.tiers import choose  # what the model can do decides the paths (and is reported)

        self.tier = choose(roles["decomposer"], span_mode=self.options.span_mode, reflect_mode=self.options.reflect_mode,
                           verifier=self.options.verifier, verifier_backend=roles["verifier"])
        self.decomposer_options = dict(decomposer_options or {})
        self.decomposer_options.setdefault("span_mode", self.tier.span_mode)
        self.decomposer_options.setdefault("fallback", self.tier.fallback)
        vname = self.tier.verifier
        if calibration is not None:  # a profile decides which signals to fuse
            vname = "fused"
        cls = verifier_class(vname)
        vopts = dict(verifier_options or {})
        vopts.setdefault("threshold", self.options.threshold)
        if vname in ("llm", "fused"):
            vopts.setdefault("keep_prompts", self.options.keep_prompts)
        if vname == "nli":
            vopts.setdefault("model_path", nli_model)
        if vname == "fused":
            vopts.setdefault("profile", calibration)
            vopts.setdefault("nli_model", nli_model)
        self.verifier: Verifier = cls(verifier_backend, **vopts) if vname in ("llm", "fused") else cls(**vopts)
        self.verifier_name = vname

    async def aclose(self) -> None:
        """Close the HTTP clients of the backends this Evaluator built, inside the running event
        loop: a client left to the garbage collector closes its sockets on a loop that has
        already ended ("Task exception was never retrieved ... Event loop is closed")."""
        for backend in self._owned:
            await backend.aclose()

    async def __aenter__(self) -> "Evaluator":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    # -- one text -----------------------------------------------------------------------------
    async def acheck(self, text: str, reference: Any, *, question: str | None = None, id: str | None = None) -> Report:
        opts = self.options
        check_text(text, max_chars=opts.max_chars)
        warnings: list[str] = []
        sources = normalize_reference(reference, warnings=warnings)
        if warnings:  # control characters were dropped: report the reference the evidence indexes
            reference = sources[0]["text"] if isinstance(reference, str) else sources
        if self.verifier.english_only:
            warnings += _foreign_reference_warnings(sources, self.verifier.describe())
        if question is not None and not isinstance(question, str):
            raise ConfigurationError("question must be a string")
        timings: dict[str, float] = {}
        with usage_meter.metering() as usage, failed_calls.collecting() as failures:
            t0 = time.perf_counter()
            doc = segment(text, question=question or None, chunk_size=opts.chunk_size, chunk_overlap=opts.chunk_overlap)
            decomposer = get_decomposer(opts.method, self.decomposer_backend, **self.decomposer_options)
            t1 = time.perf_counter()
            units = await decomposer.decompose(doc)
            from factgrain.agent.decompose.context import flag_empty_sentences

            flag_empty_sentences(doc, units, decomposer)  # a sentence with content and no unit is never silent
            warnings += decomposer.warnings
            _raise_if_all_failed("decompose", failures, doc, expected=len(doc.sentences), got=len(units))
            timings["decompose_s"] = time.perf_counter() - t1
            reflection: list[dict[str, Any]] = []
            if opts.reflect and opts.reflect_rounds > 0:
                t2 = time.perf_counter()
                units, reflection = await self._reflect(units, doc, decomposer)
                timings["reflect_s"] = time.perf_counter() - t2
            t3 = time.perf_counter()
            evidence_for = self._evidence_fn(sources)
            items = build_items(units, doc, evidence_for)
            decided: list[UnitVerdict] = []
            if opts.skip_uncovered:
                from factgrain.agent.verifiers.coverage_gate import split_uncovered

                items, decided = split_uncovered(items, joined_reference(sources))
            verdicts = decided + await self.verifier.verify_items(items)
            _raise_if_all_failed("verify", failures, doc, expected=len(items) + len(decided),
                                 got=len(items) + len(decided) - len([f for f in failures if f.stage == "verify"]))
            warnings += _verification_warnings(failures, doc)
            if any(v.hard_answer_only for v in verdicts):
                warnings.append("the verifier's backend returned no logprobs: probabilities are hard Yes/No answers (0 or 1)")
            timings["verify_s"] = time.perf_counter() - t3
            results = self._results(units, verdicts)
            classify_errors(results, joined_reference(sources))
            scores = agg.score(results, threshold=opts.threshold, aggregate=opts.aggregate)
            scores.failed_sentences = len(getattr(decomposer, "failed_sentences", []))
            timings["total_s"] = time.perf_counter() - t0
        prompt_versions = {**decomposer.prompt_versions(), **self.verifier.prompt_versions()}
        for rnd in reflection:
            if getattr(rnd, "prompt_version", None):
                prompt_versions.setdefault("reflect", rnd.prompt_version)
        return Report(
            id=id, text=text, question=question, reference=reference if isinstance(reference, str) else sources,
            method=opts.method, document=doc, results=results, scores=scores, threshold=opts.threshold,
            backend=self.decomposer_backend.provider, model=self.decomposer_backend.name,
            verifier=self.verifier.describe(), prompt_versions=prompt_versions, usage=usage,
            timings=timings, reflection=reflection, warnings=warnings, tier=self.tier.record(),
        )

    async def _reflect(self, units: list[Unit], doc: Any, decomposer: Any) -> tuple[list[Unit], list[dict[str, Any]]]:
        from factgrain.agent.reflect import reflect_and_refine  # only loaded when reflection is asked for

        return await reflect_and_refine(units, doc, self.reflector_backend, rounds=self.options.reflect_rounds,
                                        method=self.options.method, mode=self.tier.reflect_mode)

    def evidence_for(self, reference: Any) -> Callable[[Unit, Component, str], list[Evidence]]:
        """``pick(unit, component, sentence)`` giving the evidence a check against ``reference``
        (a string, list or mapping of sources) verifies that component on: the whole reference when
        it is one short source, else the BM25 passages nearest the component and its sentence."""
        return self._evidence_fn(normalize_reference(reference))

    def _evidence_fn(self, sources: list[dict[str, str]]) -> Callable[[Unit, Component, str], list[Evidence]]:
        text = joined_reference(sources)
        whole = [Evidence(source_id=sources[0]["id"] if len(sources) == 1 else "*", text=text)]
        budget = self.options.retrieval_budget_chars or self.verifier.evidence_budget_chars
        if len(sources) == 1 and len(text) <= budget:
            return lambda unit, comp, sentence: whole
        from factgrain.agent.retrieve import BM25Retriever, normalize_sources, pack_passages

        passages = pack_passages(normalize_sources(sources))
        retriever = BM25Retriever(passages)
        k = self.options.retrieval_k

        def pick(unit: Unit, comp: Component, sentence: str) -> list[Evidence]:
            hits = retriever.search(f"{comp.statement} {sentence}", k=k)
            hits = sorted(hits, key=lambda h: (h.passage.source_id, h.passage.start))
            return [Evidence(source_id=h.passage.source_id, passage_index=h.passage.index, start=h.passage.start,
                             end=h.passage.end, text=h.passage.text, score=float(h.score)) for h in hits] or whole

        return pick

    @staticmethod
    def _results(units: list[Unit], verdicts: list[UnitVerdict]) -> list[UnitResult]:
        by_unit: dict[str, list[UnitVerdict]] = {}
        for v in verdicts:
            by_unit.setdefault(v.unit_id, []).append(v)
        results = []
        for u in units:
            vs = by_unit.get(u.id, [])
            status, failing = agg.unit_status(u, vs)
            results.append(UnitResult(unit=u, verdicts=vs, status=status, failing_components=failing))
        return results

    # -- many texts ---------------------------------------------------------------------------
    async def acheck_stream(self, items: Iterable[dict[str, Any]], *, concurrency: int = 4) -> AsyncIterator[tuple[int, Report | FactgrainError]]:
        """Yield ``(index, report or error)`` as each item finishes; a bad item never stops the rest."""
        sem = asyncio.Semaphore(concurrency)

        async def one(i: int, item: dict[str, Any]) -> tuple[int, Report | FactgrainError]:
            async with sem:
                try:
                    return i, await self.acheck(item.get("text"), item.get("reference"),
                                                question=item.get("question"), id=item.get("id"))
                except FactgrainError as exc:
                    return i, exc

        tasks = [asyncio.ensure_future(one(i, it)) for i, it in enumerate(items)]
        for fut in asyncio.as_completed(tasks):
            yield await fut


def _sentence_text(doc: Any, index: int) -> str:
    return doc.sentences[index].text if 0 <= index < len(doc.sentences) else ""


def _raise_if_all_failed(stage: str, failures: list[failed_calls.Failure], doc: Any, *, expected: int, got: int) -> None:
    """A check in which every call of a stage failed has nothing to report: raise the failure
    (BackendError, exit 4, for an endpoint that failed) with the server's own message, instead of
    returning an empty report. A partial failure is left to warnings. ``expected`` pieces of work
    (sentences to decompose, components to verify), ``got`` results."""
    mine = [f for f in failures if f.stage == stage]
    if not mine or expected == 0 or got > 0:
        return
    if stage == "decompose":  # every sentence with content must have failed, not merely yielded no unit
        from factgrain.agent.decompose.context import has_content

        failed = {i for f in mine for i in f.sentences}
        # a courtesy ("Thanks!") is never sent to a model, so it cannot stand for a success
        needed = {s.index for s in doc.sentences if has_content(s.text)} or set(range(expected))
        if not needed <= failed:
            return
        what, count = "decomposition", f"{len(failed)} of {len(needed)} sentences"
    else:
        if len(mine) < expected:
            return
        what, count = "verification", f"{len(mine)} of {expected} components"
    first = mine[0]
    where = f"sentence {first.sentences[0]} ({failed_calls.quote(_sentence_text(doc, first.sentences[0]))})" \
        if first.sentences else "the text"
    message = f"every {what} call failed ({count}); {where}: {first.error}"
    if isinstance(first.error, BackendError):
        raise BackendError(message) from first.error
    first.error.args = (message,)  # same class and exit code, with the sentence named
    raise first.error


def _foreign_reference_warnings(sources: list[dict[str, Any]], verifier: str) -> list[str]:
    """A warning for each reference written in a language the verifier does not read: its units
    would all come out unsupported for want of English words, which is no finding about the text."""
    from factgrain.agent.reader import foreign_language

    out = []
    for i, source in enumerate(sources):
        found = foreign_language(source.get("text") or "")
        if found:
            which = "the reference" if len(sources) == 1 else f"reference {i}"
            out.append(f"{which} reads as {found[0]} (language identifier: p={found[1]:.2f}); the {verifier} "
                       "verifier reads English only, so its verdicts on it mean little. Use a model verifier "
                       "(--verifier llm or nli) for references in other languages.")
    return out


def _verification_warnings(failures: list[failed_calls.Failure], doc: Any) -> list[str]:
    """One warning per sentence whose verification calls failed, naming it and the error."""
    by_sentence: dict[int, list[FactgrainError]] = {}
    for f in failures:
        if f.stage == "verify":
            by_sentence.setdefault(f.sentences[0] if f.sentences else -1, []).append(f.error)
    return [f"sentence {i}: verification failed for {len(errors)} component(s) "
            f"({failed_calls.quote(_sentence_text(doc, i))}), left unscored: {errors[0]}"
            for i, errors in sorted(by_sentence.items())]


def run_sync(coro: Any) -> Any:
    """Run a coroutine from sync code, also when an event loop is already running (notebooks)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
