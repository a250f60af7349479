"""Views of a Report: functions over a ``Report``, never methods of it (the schemas import nothing
else of factgrain).

    from factgrain.render import render_html, render_markdown, table_text
    html = render_html(report)

JSON is the report's own serialisation: ``report.to_json()``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["render_html", "render_batch_html", "render_markdown", "render_table", "print_table", "table_text"]

# name -> module; loaded on first use, so importing one view does not load the others (rich, assets)
_VIEWS = {
    "render_html": "factgrain.render.html",
    "render_batch_html": "factgrain.render.html",
    "render_markdown": "factgrain.render.markdown",
    "render_table": "factgrain.render.table",
    "print_table": "factgrain.render.table",
    "table_text": "factgrain.render.table",
}


def __getattr__(name: str) -> Any:
    if name in _VIEWS:
        import importlib

        return getattr(importlib.import_module(_VIEWS[name]), name)
    raise AttributeError(name)
