"""Validation of what the user hands in: clear errors before any work starts."""

from __future__ import annotations

import re
from typing import Any

from factgrain.errors import InputError

# C0 control characters other than tab, newline and carriage return, and DEL: scraped pages and
# PDF extractions carry NUL and friends; no reader or tokenizer wants them. Form feed and vertical
# tab separate pages or lines there, so they become a newline instead of vanishing.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
_BREAKS = re.compile(r"[\x0b\x0c]")

DEFAULT_MAX_CHARS = 200_000

Reference = str | list[str] | list[dict[str, str]]


def check_text(text: Any, *, what: str = "text", max_chars: int = DEFAULT_MAX_CHARS) -> str:
    if not isinstance(text, str):
        raise InputError(f"{what} must be a string, got {type(text).__name__}")
    if not text.strip():
        raise InputError(f"{what} is empty")
    if "\x00" in text:
        raise InputError(f"{what} contains NUL bytes; is it a binary file?")
    if len(text) > max_chars:
        raise InputError(
            f"{what} is {len(text):,} characters; the limit is {max_chars:,} "
            "(raise it with max_chars= / --max-chars, or split the input)"
        )
    return text


def drop_control_chars(text: str) -> tuple[str, int]:
    """``text`` without C0 control characters (tab, newline, CR kept; form feed and vertical tab
    become newlines), and how many characters were removed or replaced."""
    cleaned, dropped = _CONTROL.subn("", text)
    cleaned, broken = _BREAKS.subn("\n", cleaned)
    return cleaned, dropped + broken


def _source_text(text: str, what: str, max_chars: int, warnings: list[str] | None) -> str:
    cleaned, n = drop_control_chars(text)
    if n and warnings is not None:
        warnings.append(f"{what}: {n} control character(s) (NUL, BEL, form feed ...) dropped from the reference; "
                        "evidence offsets index the cleaned text")
    return check_text(cleaned, what=what, max_chars=max_chars)


def normalize_reference(reference: Any, *, max_chars: int = 50 * DEFAULT_MAX_CHARS,
                        warnings: list[str] | None = None) -> list[dict[str, str]]:
    """A reference as a list of ``{"id", "text"}`` sources (a string is one source, id "0").
    Control characters are dropped from each source (see :func:`drop_control_chars`), with a line
    in ``warnings`` when one is given."""
    if isinstance(reference, str):
        return [{"id": "0", "text": _source_text(reference, "reference", max_chars, warnings)}]
    if isinstance(reference, (list, tuple)):
        if not reference:
            raise InputError("reference is an empty list")
        out = []
        for i, item in enumerate(reference):
            if isinstance(item, str):
                out.append({"id": str(i), "text": _source_text(item, f"reference[{i}]", max_chars, warnings)})
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                out.append({"id": str(item.get("id", i)),
                            "text": _source_text(item["text"], f"reference[{i}]", max_chars, warnings)})
            else:
                raise InputError(f"reference[{i}] must be a string or a {{'id', 'text'}} object")
        return out
    if reference is None:
        raise InputError("reference is missing")
    raise InputError(f"reference must be a string or a list of sources, got {type(reference).__name__}")


def joined_reference(sources: list[dict[str, str]]) -> str:
    if len(sources) == 1:
        return sources[0]["text"]
    return "\n\n".join(f"[source {s['id']}]\n{s['text']}" for s in sources)
