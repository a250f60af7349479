"""Reading CLI inputs with clear errors."""

from __future__ import annotations

import sys
from pathlib import Path

from factgrain.errors import InputError


def read_source(value: str, what: str) -> str:
    """Read ``value`` as a file path, or standard input for ``-``."""
    if value == "-":
        data = sys.stdin.buffer.read()
        origin = "standard input"
    else:
        path = Path(value)
        if not path.exists():
            raise InputError(f"{what} file not found: {value}")
        if path.is_dir():
            raise InputError(f"{what} path is a directory: {value}")
        data = path.read_bytes()
        origin = value
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} ({origin}) is not valid UTF-8 (byte {exc.start}); convert it to UTF-8 first") from None
