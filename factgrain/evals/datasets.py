"""Loaders for the shared benchmark files (``<data dir>/<dataset>.jsonl.gz``).

Every file holds one JSON object per line with the core keys ``id``,
``dataset``, ``split``, ``reference``, ``text``, ``label`` (1 = supported,
0 = not supported) and, for graded sources, ``label_lenient``; all other keys
are dataset specific. :func:`load` turns each line into an :class:`Example`
whose typed core fields are validated and whose remaining keys go into
``Example.extras``.

Extras parsing
    Some exports store structured values as strings (``'[1, 1, 1]'``,
    ``"[{'qa_id': 0, ...}]"``). A string extra whose text starts with ``[``,
    ``{`` or ``(`` is parsed with :func:`json.loads`, falling back to
    :func:`ast.literal_eval`; it is replaced only when the result is a list,
    dict or tuple, otherwise the raw string is kept. Scalar-looking strings are
    deliberately left alone: free text such as a FELM ``comment`` of
    ``"76537610772"`` must stay text. A float ``nan`` extra (a missing value in
    the export) becomes ``None``.

Sampling
    ``load(..., limit=k, seed=s)`` draws a uniform random sample of ``k`` rows
    (reservoir sampling, so the file is still streamed once) and returns them
    in file order. The same ``(dataset, split, limit, seed)`` always gives the
    same rows.

Data directory
    See :func:`data_dir` for the lookup order; set ``FACTGRAIN_DATA_DIR`` to
    point elsewhere.
"""

from __future__ import annotations

import ast
import functools
import gzip
import json
import math
import os
from pathlib import Path
from typing import Any, Iterator

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "ENV_VAR",
    "DataDirNotFoundError",
    "Example",
    "QAExample",
    "GoldQA",
    "AnswerSpan",
    "ResponseExample",
    "data_dir",
    "dataset_path",
    "list_datasets",
    "splits",
    "iter_rows",
    "load",
    "load_qa",
    "load_responses",
    "parse_value",
    "parse_token_span",
]

ENV_VAR = "FACTGRAIN_DATA_DIR"
_SUFFIX = ".jsonl.gz"
_CORE_KEYS = ("id", "dataset", "split", "reference", "text", "label", "label_lenient")


class DataDirNotFoundError(FileNotFoundError):
    """No benchmark data directory could be found."""


# --------------------------------------------------------------------------- #
# locating files
# --------------------------------------------------------------------------- #


def _default_candidates() -> list[Path]:
    from factgrain.evals.fetch import default_dest  # where `factgrain data fetch` writes

    return [
        Path.cwd() / ".." / "shared" / "data",
        Path(__file__).resolve().parents[2] / ".." / "shared" / "data",
        default_dest(),
    ]


def data_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """Return the benchmark data directory.

    Resolution order:

    1. ``path`` when given,
    2. the ``FACTGRAIN_DATA_DIR`` environment variable when set (non-empty),
    3. the first existing of ``<cwd>/../shared/data``,
       ``<repository root>/../shared/data`` and the folder ``factgrain data fetch``
       writes into (``~/.cache/factgrain/data``).

    An explicit ``path`` or environment value that is not a directory raises
    :class:`DataDirNotFoundError` (no silent fallback), as does finding none of
    the default locations.
    """
    if path is not None:
        p = Path(path)
        if not p.is_dir():
            raise DataDirNotFoundError(f"data directory {str(p)!r} does not exist")
        return p.resolve()
    env = os.environ.get(ENV_VAR)
    if env:
        p = Path(env)
        if not p.is_dir():
            raise DataDirNotFoundError(
                f"{ENV_VAR}={env!r} does not point to an existing directory"
            )
        return p.resolve()
    candidates = _default_candidates()
    for cand in candidates:
        if cand.is_dir():
            return cand.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise DataDirNotFoundError(
        f"no benchmark data directory found (tried {tried}); get the files with "
        f"`factgrain data fetch NAME|all` (see `factgrain data list`), or set the {ENV_VAR} "
        f"environment variable to the folder holding the *{_SUFFIX} files"
    )


_resolve_data_dir = data_dir  # used where a parameter shadows the public name


def list_datasets(data_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """Sorted names of the datasets (``*.jsonl.gz`` files) in the data directory."""
    root = _resolve_data_dir(data_dir)
    return sorted(p.name[: -len(_SUFFIX)] for p in root.glob(f"*{_SUFFIX}") if p.is_file())


def dataset_path(dataset: str, data_dir: str | os.PathLike[str] | None = None) -> Path:
    """Path of ``dataset``'s file; unknown names raise ``ValueError`` listing the valid ones."""
    root = _resolve_data_dir(data_dir)
    ok = isinstance(dataset, str) and dataset and not set(dataset) & {"/", "\\", os.sep}
    path = root / f"{dataset}{_SUFFIX}"
    if not ok or not path.is_file():
        valid = list_datasets(root)
        if ok and dataset in _catalogued():  # a known benchmark whose file is not here yet
            raise ValueError(f"dataset {dataset!r} is not in {root}; get it with `factgrain data fetch {dataset}` "
                             f"(present: {', '.join(valid) or 'none'})")
        raise ValueError(f"unknown dataset {dataset!r}; valid datasets: {', '.join(valid)}")
    return path


def _catalogued() -> set[str]:
    from factgrain.evals.catalog import CATALOG

    return set(CATALOG)


def _iter_json_lines(path: Path) -> Iterator[dict[str, Any]]:
    # stream: one decoded line at a time, never the whole file text
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path.name}: line {lineno} is not valid JSON: {exc}") from None


@functools.lru_cache(maxsize=64)
def _splits_cached(path: str, mtime_ns: int, size: int) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for row in _iter_json_lines(Path(path)):
        seen.setdefault(str(row.get("split")), None)
    return tuple(sorted(seen))


def splits(dataset: str, data_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """Sorted split names present in ``dataset`` (e.g. ``['dev', 'test']``).

    Scans the file once and caches the answer while the file is unchanged.
    """
    path = dataset_path(dataset, data_dir)
    st = path.stat()
    return list(_splits_cached(str(path), st.st_mtime_ns, st.st_size))


# --------------------------------------------------------------------------- #
# value parsing
# --------------------------------------------------------------------------- #


def parse_value(value: Any) -> Any:
    """Decode a string that encodes a list, dict or tuple; return anything else unchanged.

    Tries :func:`json.loads`, then :func:`ast.literal_eval`. Only strings that
    start with ``[``, ``{`` or ``(`` are attempted, and the decoded value is
    used only if it is a container; if both parsers fail the raw string is
    returned. A float ``nan`` becomes ``None``.
    """
    if isinstance(value, float) and math.isnan(value):
        return None
    if not isinstance(value, str):
        return value
    stripped = value.strip()
    if not stripped or stripped[0] not in "[{(":
        return value
    for parser in (json.loads, ast.literal_eval):
        try:
            parsed = parser(stripped)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(parsed, (list, dict, tuple)):
            return parsed
    return value


def _parse_label(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if value.is_integer():
            return int(value)
        raise ValueError(f"label must be a whole number, got {value!r}")
    if isinstance(value, str):
        s = value.strip()
        if s.lower() in ("", "none", "null", "nan"):
            return None
        if s.lower() in ("true", "false"):
            return int(s.lower() == "true")
        try:
            f = float(s)
        except ValueError:
            raise ValueError(f"cannot parse label {value!r} as an integer") from None
        if not f.is_integer():
            raise ValueError(f"label must be a whole number, got {value!r}")
        return int(f)
    raise ValueError(f"cannot parse label of type {type(value).__name__}: {value!r}")


def parse_token_span(value: Any) -> tuple[int, int]:
    """Parse a token span such as ``"3-7"``, ``[3, 7]`` or ``(3, 7)`` into ``(start, end)``.

    ``end`` is exclusive, as in the QASem export (``"0-2"`` covers tokens 0 and 1).
    """
    if isinstance(value, str):
        parts = value.strip().split("-")
        if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
            start, end = int(parts[0]), int(parts[1])
        else:
            parsed = parse_value(value)
            if parsed is value:
                raise ValueError(f"cannot parse token span {value!r}; expected 'start-end'")
            return parse_token_span(parsed)
    elif isinstance(value, (list, tuple)) and len(value) == 2:
        start, end = int(value[0]), int(value[1])
    else:
        raise ValueError(f"cannot parse token span {value!r}; expected 'start-end'")
    if start < 0 or end < start:
        raise ValueError(f"invalid token span {value!r}: need 0 <= start <= end")
    return (start, end)


# --------------------------------------------------------------------------- #
# the generic example
# --------------------------------------------------------------------------- #


class Example(BaseModel):
    """One benchmark row: typed core fields plus parsed dataset-specific ``extras``."""

    model_config = ConfigDict(extra="forbid")

    id: str
    dataset: str
    split: str
    reference: str | None = None
    text: str
    label: int | None = None
    label_lenient: int | None = None
    extras: dict[str, Any] = Field(default_factory=dict)

    @field_validator("label", "label_lenient", mode="before")
    @classmethod
    def _coerce_label(cls, v: Any) -> int | None:
        return _parse_label(v)

    @field_validator("reference", mode="before")
    @classmethod
    def _coerce_reference(cls, v: Any) -> str | None:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return None
        return v

    @field_validator("id", "dataset", "split", mode="before")
    @classmethod
    def _coerce_str(cls, v: Any) -> Any:
        return str(v) if isinstance(v, (int, np.integer)) else v

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "Example":
        """Build an example from one decoded JSONL object."""
        core = {k: row[k] for k in _CORE_KEYS if k in row}
        extras = {k: parse_value(v) for k, v in row.items() if k not in _CORE_KEYS}
        return cls(**core, extras=extras)


def iter_rows(
    dataset: str,
    split: str | None = None,
    *,
    data_dir: str | os.PathLike[str] | None = None,
) -> Iterator[Example]:
    """Stream :class:`Example` objects lazily (no split validation, no sampling)."""
    path = dataset_path(dataset, data_dir)
    for row in _iter_json_lines(path):
        if split is None or row.get("split") == split:
            yield Example.from_row(row)


def load(
    dataset: str,
    split: str | None = None,
    *,
    limit: int | None = None,
    seed: int = 0,
    data_dir: str | os.PathLike[str] | None = None,
) -> list[Example]:
    """Load ``dataset`` (optionally one ``split``) as a list of :class:`Example`.

    ``limit`` keeps a uniform random sample of that many rows, chosen with
    ``seed`` and returned in file order; ``limit`` at or above the number of
    rows returns them all, ``limit=0`` returns ``[]``. A negative ``limit``, an
    unknown dataset or an unknown split raises ``ValueError`` naming the valid
    choices.
    """
    if limit is not None and (int(limit) != limit or limit < 0):
        raise ValueError(f"limit must be a non-negative integer or None, got {limit!r}")
    path = dataset_path(dataset, data_dir)
    seen_splits: set[str] = set()
    rng = np.random.default_rng(seed)
    kept: list[tuple[int, dict[str, Any]]] = []
    n_match = 0
    for row in _iter_json_lines(path):
        row_split = str(row.get("split"))
        seen_splits.add(row_split)
        if split is not None and row_split != split:
            continue
        if limit is None or n_match < limit:
            kept.append((n_match, row))
        else:
            # reservoir sampling (algorithm R): item n_match survives with
            # probability limit / (n_match + 1)
            j = int(rng.integers(0, n_match + 1))
            if j < limit:
                kept[j] = (n_match, row)
        n_match += 1
    if split is not None and split not in seen_splits:
        raise ValueError(
            f"unknown split {split!r} for dataset {dataset!r}; "
            f"valid splits: {', '.join(sorted(seen_splits))}"
        )
    kept.sort(key=lambda item: item[0])
    return [Example.from_row(row) for _, row in kept]


# --------------------------------------------------------------------------- #
# typed views of the two QASem files
# --------------------------------------------------------------------------- #


class GoldQA(BaseModel):
    """One human-verified QA pair of a QASem response.

    ``annotations`` holds the three annotators' votes as exported; a vote of 1
    marks the QA as *not supported*, so ``label`` (1 = supported) is 1 exactly
    when fewer than two annotators voted 1.

    ``answer_idx`` (a ``(start, end)`` span, ``end`` exclusive) and
    ``predicate_idx`` count tokens over the *whole response* - the tokens of
    all its sentences in order (``ResponseExample.flat_tokens``) - not within
    sentence ``sent_id``: in a response whose first sentence has 27 tokens,
    the first token of the second sentence is 27.
    ``ResponseExample.locate_token`` / ``local_span`` give the sentence and the
    index within it (trust them over ``sent_id``: one dev response numbers its
    only sentence 1).
    """

    model_config = ConfigDict(extra="ignore")

    qa_id: int
    sent_id: int
    predicate: str
    predicate_idx: int | None = None
    predicate_pos: str | None = None
    question: str
    answer: str
    answer_idx: tuple[int, int]
    annotations: list[int] = Field(default_factory=list)
    label: int | None = None

    @field_validator("answer_idx", mode="before")
    @classmethod
    def _span(cls, v: Any) -> tuple[int, int]:
        return parse_token_span(v)

    @field_validator("annotations", mode="before")
    @classmethod
    def _votes(cls, v: Any) -> Any:
        return parse_value(v)

    @field_validator("label", mode="before")
    @classmethod
    def _label(cls, v: Any) -> int | None:
        return _parse_label(v)


class QAExample(GoldQA):
    """Typed view of one ``qasem_consistency_qa`` row (a single QA with its context).

    ``text`` is the generated sentence the QA was asked about, ``reference``
    the source document, ``instance_id`` the ``qasem_consistency`` response it
    belongs to (use it as the group id for a cluster bootstrap).
    """

    id: str
    dataset: str = "qasem_consistency_qa"
    split: str
    instance_id: str
    subset: str
    text: str
    reference: str | None = None
    model: str | None = None
    datasource: str | None = None
    source_id: str | None = None

    @field_validator("source_id", mode="before")
    @classmethod
    def _source_id(cls, v: Any) -> str | None:
        return None if v is None else str(v)

    @classmethod
    def from_example(cls, ex: Example) -> "QAExample":
        return _typed_view(cls, ex)


class AnswerSpan(BaseModel):
    """An annotated answer span of a QASem response with its annotator votes.

    ``start``/``end`` are token offsets (``end`` exclusive), ``qa_ids`` the
    gold QAs (``GoldQA.qa_id``) linked to this span, ``annotations`` the three
    annotators' coverage votes for the span exactly as the source exports them
    (they are span-level and need not agree with the linked QAs' votes).
    """

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    id: int
    start: int
    end: int
    qa_ids: list[int] = Field(default_factory=list, alias="qaIds")
    annotations: list[int] = Field(default_factory=list)


class ResponseExample(BaseModel):
    """Typed view of one ``qasem_consistency`` row (a whole response with gold QAs)."""

    model_config = ConfigDict(extra="ignore")

    id: str
    dataset: str = "qasem_consistency"
    split: str
    subset: str
    text: str
    reference: str | None = None
    label: int | None = None
    sentences: list[str]
    sentence_tokens: list[list[str]]
    qas: list[GoldQA]
    spans: list[AnswerSpan] = Field(default_factory=list)
    model: str | None = None
    datasource: str | None = None
    source_id: str | None = None
    cliff_labels: Any = None

    @field_validator("source_id", mode="before")
    @classmethod
    def _source_id(cls, v: Any) -> str | None:
        return None if v is None else str(v)

    @field_validator("sentences", "sentence_tokens", "qas", "spans", mode="before")
    @classmethod
    def _decode(cls, v: Any) -> Any:
        return parse_value(v)

    @classmethod
    def from_example(cls, ex: Example) -> "ResponseExample":
        return _typed_view(cls, ex)

    @property
    def flat_tokens(self) -> list[str]:
        """Every token of the response in order: the space ``answer_idx``/``predicate_idx`` count in."""
        return [tok for toks in self.sentence_tokens for tok in toks]

    def locate_token(self, index: int) -> tuple[int, int]:
        """``(sentence, index within it)`` of a response-level token index."""
        if index >= 0:
            for sent, toks in enumerate(self.sentence_tokens):
                if index < len(toks):
                    return sent, index
                index -= len(toks)
        raise IndexError(f"token index out of range for response {self.id}")

    def local_span(self, span: tuple[int, int]) -> tuple[int, tuple[int, int]]:
        """A response-level span as ``(sentence, (start, end))`` within that sentence."""
        start, end = span
        sent, local = self.locate_token(start)
        if end - start > len(self.sentence_tokens[sent]) - local:
            raise ValueError(f"span {span} of response {self.id} crosses a sentence boundary")
        return sent, (local, local + end - start)

    def span_tokens(self, span: tuple[int, int]) -> list[str]:
        """Tokens covered by a response-level ``span`` (``end`` exclusive), e.g. a gold ``answer_idx``."""
        start, end = span
        return self.flat_tokens[start:end]


def _typed_view(cls: Any, ex: Example) -> Any:
    """``cls`` (a typed view with a default ``dataset``) built from a generic row of that dataset."""
    expected = cls.model_fields["dataset"].default
    if ex.dataset != expected:
        raise ValueError(f"{cls.__name__} needs a {expected} row, got {ex.dataset!r}")
    return cls(id=ex.id, dataset=ex.dataset, split=ex.split, text=ex.text, reference=ex.reference,
               label=ex.label, **ex.extras)


def load_qa(
    split: str | None = None,
    *,
    limit: int | None = None,
    seed: int = 0,
    data_dir: str | os.PathLike[str] | None = None,
) -> list[QAExample]:
    """:func:`load` ``qasem_consistency_qa`` and view each row as a :class:`QAExample`."""
    rows = load("qasem_consistency_qa", split, limit=limit, seed=seed, data_dir=data_dir)
    return [QAExample.from_example(ex) for ex in rows]


def load_responses(
    split: str | None = None,
    *,
    limit: int | None = None,
    seed: int = 0,
    data_dir: str | os.PathLike[str] | None = None,
) -> list[ResponseExample]:
    """:func:`load` ``qasem_consistency`` and view each row as a :class:`ResponseExample`."""
    rows = load("qasem_consistency", split, limit=limit, seed=seed, data_dir=data_dir)
    return [ResponseExample.from_example(ex) for ex in rows]
