"""Batch checks over JSONL, safe to interrupt.

Each input row is ``{"id", "text", "reference", "question"?}``. Every row yields exactly one
output record, appended to the output file as soon as it finishes and forced to disk (flush +
fsync), so a run killed at any moment loses at most the rows in flight. A restart reads the output
file, drops a torn last line, and skips the rows already recorded, except rows whose record is an
error other than bad input (a failed endpoint, an internal error): those records are removed from
the file and the rows run again, so a rerun after an outage completes the output.

A row that cannot be read (invalid UTF-8 or JSON, a missing field, a wrong type, a duplicate id)
gets an error record with a message naming its line; the other rows still run.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factgrain.errors import FactgrainError, InputError

REQUIRED = ("id", "text", "reference")


@dataclass
class Row:
    """One input line: ``key`` names it in the output (its id, or ``line:N`` when the id is unusable)."""

    line: int
    key: str
    id: str | None = None
    item: dict[str, Any] | None = None
    error: str | None = None


@dataclass
class Summary:
    rows: int = 0
    ok: int = 0
    failed: int = 0
    skipped: int = 0
    retried: int = 0  # rows whose earlier record was a failure (not bad input), run again
    with_unscored: int = 0
    exit_codes: list[int] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return max(self.exit_codes, default=0)

    def line(self, out: str | Path) -> str:
        return (f"batch: {self.rows} rows: {self.ok} ok ({self.with_unscored} with unscored units), "
                f"{self.failed} failed, {self.skipped} already done"
                + (f", {self.retried} earlier failures run again" if self.retried else "") + f" -> {out}")


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _check_row(obj: Any, line: int) -> tuple[str | None, dict[str, Any] | None, str | None]:
    """(id, item, error) for one decoded JSON value."""
    if not isinstance(obj, dict):
        return None, None, f"line {line}: a row must be a JSON object, got {_type_name(obj)}"
    raw_id = obj.get("id")
    rid = str(raw_id) if isinstance(raw_id, (str, int)) and not isinstance(raw_id, bool) and str(raw_id) else None
    where = f"line {line}" + (f" (id {rid})" if rid else "")
    missing = [f for f in REQUIRED if f not in obj or obj[f] is None]
    if missing:
        return rid, None, f"{where}: missing field(s) {', '.join(missing)}"
    if rid is None:
        return None, None, f"{where}: field 'id' must be a non-empty string or an integer, got {_type_name(raw_id)}"
    if not isinstance(obj["text"], str):
        return rid, None, f"{where}: field 'text' must be a string, got {_type_name(obj['text'])}"
    if not isinstance(obj["reference"], (str, list)):
        return rid, None, f"{where}: field 'reference' must be a string or a list of sources, got {_type_name(obj['reference'])}"
    question = obj.get("question")
    if question is not None and not isinstance(question, str):
        return rid, None, f"{where}: field 'question' must be a string, got {_type_name(question)}"
    return rid, {"id": rid, "text": obj["text"], "reference": obj["reference"], "question": question}, None


def read_rows(path: str | Path) -> list[Row]:
    """Parse the input file line by line; a bad line becomes a Row with an error, never an exception."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"batch input not found: {path}")
    rows: list[Row] = []
    first_line: dict[str, int] = {}
    with path.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            key = f"line:{line_no}"
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                rows.append(Row(line_no, key, error=f"line {line_no}: not valid UTF-8 (byte {exc.start})"))
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                rows.append(Row(line_no, key, error=f"line {line_no}: not valid JSON ({exc.msg} at column {exc.colno})"))
                continue
            rid, item, error = _check_row(obj, line_no)
            if rid is not None and error is None:
                if rid in first_line:
                    error = f"line {line_no}: duplicate id {rid!r} (first on line {first_line[rid]})"
                else:
                    first_line[rid] = line_no
                    key = rid
            rows.append(Row(line_no, key, rid, item if error is None else None, error))
    return rows


def _retryable(record: dict[str, Any]) -> bool:
    """An error record whose row may succeed when run again: anything but bad input."""
    return record.get("status") == "error" and record.get("error_type") != "InputError"


def done_keys(out: Path) -> tuple[set[str], int]:
    """Keys already recorded in ``out`` and the number of error records removed from it to be run
    again (see :func:`_retryable`). A torn last line (the run died mid-write) is cut off; the file is
    rewritten atomically when records are removed."""
    if not out.exists():
        return set(), 0
    data = out.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with out.open("r+b") as fh:
            fh.truncate(end)
            fh.flush()
            os.fsync(fh.fileno())
    keys: set[str] = set()
    kept: list[bytes] = []
    retried = 0
    for line in data[:end].splitlines(keepends=True):
        try:
            record = json.loads(line)
            key = record["key"]
        except (ValueError, KeyError, TypeError):
            kept.append(line)
            continue  # not one of ours; its row runs again
        if _retryable(record):
            retried += 1
            continue
        keys.add(key)
        kept.append(line)
    if retried:
        tmp = out.with_name(out.name + ".tmp")
        with tmp.open("wb") as fh:
            fh.writelines(kept)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, out)
    return keys, retried


class _Appender:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = path.open("a", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        self.fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.fh.flush()
        os.fsync(self.fh.fileno())  # a finished row survives a crash

    def close(self) -> None:
        self.fh.close()


def _error_record(row: Row, message: str, kind: str, code: int) -> dict[str, Any]:
    return {"key": row.key, "id": row.id, "line": row.line, "status": "error", "error": message,
            "error_type": kind, "exit_code": code}


async def run_batch(evaluator: Any, in_path: str | Path, out_path: str | Path, *, concurrency: int = 4) -> Summary:
    """Check every row not yet in ``out_path``; append one record per row as it finishes."""
    rows = read_rows(in_path)
    out = Path(out_path)
    done, retried = done_keys(out)
    summary = Summary(rows=len(rows), retried=retried)
    todo = [r for r in rows if r.key not in done]
    summary.skipped = len(rows) - len(todo)
    appender = _Appender(out)
    sem = asyncio.Semaphore(max(1, concurrency))

    async def one(row: Row) -> dict[str, Any]:
        if row.error is not None:
            return _error_record(row, row.error, "InputError", InputError.exit_code)
        assert row.item is not None
        async with sem:
            try:
                report = await evaluator.acheck(row.item["text"], row.item["reference"],
                                                question=row.item["question"], id=row.id)
            except FactgrainError as exc:
                return _error_record(row, f"line {row.line} (id {row.id}): {exc}", type(exc).__name__, exc.exit_code)
            except Exception as exc:  # noqa: BLE001 - one row's bug must not lose the others
                return _error_record(row, f"line {row.line} (id {row.id}): internal error: {type(exc).__name__}: {exc}",
                                     type(exc).__name__, 1)
        return {"key": row.key, "id": row.id, "line": row.line, "status": "ok",
                "scores": report.scores.model_dump(mode="json"), "report": report.model_dump(mode="json")}

    try:
        for fut in asyncio.as_completed([asyncio.ensure_future(one(r)) for r in todo]):
            record = await fut
            appender.write(record)
            if record["status"] == "ok":
                summary.ok += 1
                summary.with_unscored += bool(record["scores"]["unscored_units"] or record["scores"].get("failed_sentences"))
            else:
                summary.failed += 1
                summary.exit_codes.append(record["exit_code"])
    finally:
        appender.close()
    return summary
