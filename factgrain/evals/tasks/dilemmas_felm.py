"""Decomposition Dilemmas on FELM: world-knowledge segments (``domain == "wk"``) that come with a
reference text; the user prompt the response answered is passed as the question. FELM ships only
a ``test`` split."""

from __future__ import annotations

from typing import Any, ClassVar

from factgrain.evals.tasks.dilemmas_common import DilemmasTask, sample


class DilemmasFelm(DilemmasTask):
    name: ClassVar[str] = "dilemmas-felm"
    dataset: ClassVar[str] = "felm"

    def examples(self, split: str, *, limit: int | None, seed: int) -> list[Any]:
        from factgrain.evals.datasets import load

        # filter first, then sample, so --limit N gives N usable rows
        rows = [ex for ex in load(self.dataset, split)
                if ex.extras.get("domain") == "wk" and (ex.reference or "").strip() and ex.label is not None]
        return sample(rows, limit, seed)

    def extras(self, example: Any) -> dict[str, Any]:
        prompt = example.extras.get("prompt")
        return {"question": prompt} if isinstance(prompt, str) and prompt.strip() else {}
