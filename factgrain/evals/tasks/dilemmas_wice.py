"""Decomposition Dilemmas on WiCE (claim level): each Wikipedia claim against its cited article,
strict label (only fully supported = 1). Long articles go through BM25 passage retrieval."""

from __future__ import annotations

from typing import ClassVar

from factgrain.evals.tasks.dilemmas_common import DilemmasTask


class DilemmasWice(DilemmasTask):
    name: ClassVar[str] = "dilemmas-wice"
    dataset: ClassVar[str] = "wice"
