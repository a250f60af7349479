"""Prompt objects: a system text, a user template with ``{name}`` placeholders, a version.

A user may override any prompt with a string or a path to a text file whose first line is
``system:`` ... and a later line ``user:`` ... (or just a user template).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, replace
from pathlib import Path

from factgrain.errors import ConfigurationError

# Tags that delimit untrusted data inside prompts. A copy of them inside the data is defused so a
# text cannot close its own block and pose as instructions.
_DATA_TAGS = ("reference", "text", "sentence", "context", "question", "statement", "units", "decomposition")
# Also catches attributes (``<reference id=2>``) and full-width brackets (``＜/reference＞``).
_TAG_RE = re.compile(r"[<\uff1c]\s*/?\s*(" + "|".join(_DATA_TAGS) + r")\b[^<>\uff1c\uff1e]*[>\uff1e]", re.IGNORECASE)


def defuse(data: str) -> str:
    """Neutralise our delimiter tags inside untrusted text (``</reference>`` -> ``[/reference]``)."""
    return _TAG_RE.sub(lambda m: re.sub(r"[<\uff1c]", "[", re.sub(r"[>\uff1e]", "]", m.group(0))), data)


@dataclass(frozen=True)
class Prompt:
    name: str
    version: str
    system: str
    user: str

    def fields(self) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(self.user) if f}

    def render(self, **values: str) -> list[dict[str, str]]:
        missing = self.fields() - values.keys()
        if missing:
            raise ConfigurationError(f"prompt {self.name!r} needs values for {sorted(missing)}")
        return [
            {"role": "system", "content": self.system},
            {"role": "user", "content": self.user.format(**values)},
        ]

    def overridden(self, source: str) -> "Prompt":
        """A copy with its text replaced by ``source`` (a template string or a file path)."""
        text = source
        path = Path(source)
        if len(source) < 4096 and "\n" not in source and path.exists():
            text = path.read_text(encoding="utf-8")
        system, user = self.system, text
        m = re.match(r"\s*system:\s*(.*?)\n\s*user:\s*(.*)\Z", text, re.DOTALL)
        if m:
            system, user = m.group(1).strip(), m.group(2).strip()
        new = replace(self, system=system, user=user, version=f"{self.version}+custom")
        unknown = new.fields() - self.fields()
        if unknown:
            raise ConfigurationError(
                f"custom prompt for {self.name!r} uses unknown placeholders {sorted(unknown)}; "
                f"available: {sorted(self.fields())}"
            )
        return new
