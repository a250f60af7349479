"""Bundled examples (``factgrain check --example measles``)."""

from __future__ import annotations

import json
from importlib import resources

from factgrain.errors import InputError


def names() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files(__name__).iterdir() if p.name.endswith(".json"))


def load(name: str) -> dict:
    path = resources.files(__name__) / f"{name}.json"
    if not path.is_file():
        raise InputError(f"no bundled example {name!r}; available: {', '.join(names())}")
    return json.loads(path.read_text(encoding="utf-8"))
