"""Validation of what the user hands in: clear errors before any work starts."""

from __future__ import annotations

from typing import Any

from factgrain.errors import InputError

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


def normalize_reference(reference: Any, *, max_chars: int = 50 * DEFAULT_MAX_CHARS) -> list[dict[str, str]]:
    """A reference as a list of ``{"id", "text"}`` sources (a string is one source, id "0")."""
    if isinstance(reference, str):
        return [{"id": "0", "text": check_text(reference, what="reference", max_chars=max_chars)}]
    if isinstance(reference, (list, tuple)):
        if not reference:
            raise InputError("reference is an empty list")
        out = []
        for i, item in enumerate(reference):
            if isinstance(item, str):
                out.append({"id": str(i), "text": check_text(item, what=f"reference[{i}]", max_chars=max_chars)})
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                out.append({"id": str(item.get("id", i)),
                            "text": check_text(item["text"], what=f"reference[{i}]", max_chars=max_chars)})
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
