"""Renderings of a Report: terminal table, Markdown, HTML (JSON is ``Report.to_json``)."""
