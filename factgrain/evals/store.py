"""The predictions file: one JSON record per line, appended as predictions finish.

Resuming reads the ids already written and skips them, so every job ends up in the file exactly
once. An interruption can leave a half-written last line; it is cut off before appending again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from factgrain.errors import InputError


class PredictionStore:
    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)

    def read(self) -> list[dict[str, Any]]:
        """Every complete record, in file order (a partial last line is ignored)."""
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1]
        records = []
        for lineno, line in enumerate(complete.decode("utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InputError(f"{self.path}: line {lineno} is not valid JSON ({exc}); "
                                 "the file was edited or written by something else") from None
        return records

    def done_ids(self) -> set[str]:
        return {r["id"] for r in self.read()}

    def repair(self) -> None:
        """Cut off a half-written last line left by an interruption."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            with open(self.path, "r+b") as fh:
                fh.truncate(data.rfind(b"\n") + 1)

    def drop(self, ids: set[str]) -> None:
        """Rewrite the file without the records in ``ids`` (atomically: a crash keeps the old file)."""
        keep = [r for r in self.read() if r["id"] not in ids]
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in keep), encoding="utf-8")
        os.replace(tmp, self.path)

    def open_append(self) -> "_Appender":
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.repair()
        return _Appender(self.path)


class _Appender:
    def __init__(self, path: Path):
        self._fh = open(path, "a", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        # one write + flush per record: an interruption loses at most the line being written
        self._fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> "_Appender":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
