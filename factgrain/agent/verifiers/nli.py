"""NLI verifier: a local sequence-classification model judges support, no LLM.

All items of a check are scored in one batched call of :class:`NLIClassifier`. The premise is
each evidence passage (the whole reference when it fits the verifier budget, else the passages
retrieval picked); the hypothesis depends on the unit:

* QA pair: ``question + answer`` (QASemConsistency's setup) or an affirmative rewrite
  (``hypothesis_style="affirmative"``);
* fact component: its verbalisation (base triple, or base triple plus one qualifier);
* claim: its text.

Support is the maximum over passages and, inside a passage, over the classifier's token
windows (one passage that entails the hypothesis is enough, as in MiniCheck). The verdict cites
the passage and the window that gave the maximum, and keeps every window probability.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, ClassVar, Literal

from factgrain.agent.verifiers.base import Verifier, VerifyItem
from factgrain.agent.verifiers.nli_model import hypothesis_for_qa
from factgrain.errors import ConfigurationError
from factgrain.schemas.units import QAPair
from factgrain.schemas.verdicts import Evidence, UnitVerdict


def hypothesis_for(item: VerifyItem, style: Literal["qa", "affirmative"] = "qa") -> str:
    """The text the classifier checks against the premise, per unit kind."""
    if isinstance(item.unit, QAPair):
        return hypothesis_for_qa(item.unit.question, item.unit.answer, style=style)
    return item.component.statement  # fact base / qualifier verbalisation, or a claim's text


class NLIVerifier(Verifier):
    name: ClassVar[str] = "nli"

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        classifier: Any = None,
        hypothesis_style: Literal["qa", "affirmative"] = "qa",
        entailment_label: int | str | None = None,
        batch_size: int = 16,
        device: str = "cpu",
        max_length: int | None = None,
        stride: int = 64,
        **options: Any,
    ):
        options.pop("keep_prompts", None)  # no prompt to keep
        super().__init__(**options)
        if hypothesis_style not in ("qa", "affirmative"):
            raise ConfigurationError(f"hypothesis_style must be 'qa' or 'affirmative', got {hypothesis_style!r}")
        if classifier is None:
            if model_path is None:
                raise ConfigurationError("the nli verifier needs a model directory: --model nli/<dir> or --nli-model DIR")
            from factgrain.agent.verifiers.nli_model import NLIClassifier  # torch loads here, not at import

            classifier = NLIClassifier(model_path, entailment_label=entailment_label, batch_size=batch_size,
                                       device=device, max_length=max_length, stride=stride)
        self.classifier = classifier
        self.hypothesis_style = hypothesis_style

    def describe(self) -> str:
        path = getattr(self.classifier, "model_path", None)
        return f"nli:{Path(path).name}" if path else "nli"

    async def verify_item(self, item: VerifyItem) -> UnitVerdict:
        return (await self.verify_items([item]))[0]

    async def verify_items(self, items: list[VerifyItem]) -> list[UnitVerdict]:
        if not items:
            return []
        # One (premise, hypothesis) pair per evidence passage; the classifier batches them all.
        pairs: list[tuple[str, str]] = []
        owners: list[tuple[int, Evidence]] = []
        for i, item in enumerate(items):
            hyp = hypothesis_for(item, self.hypothesis_style)
            for ev in item.evidence or [Evidence(text="")]:
                pairs.append((ev.text, hyp))
                owners.append((i, ev))
        scores = await asyncio.to_thread(self.classifier.score, pairs)
        best: dict[int, tuple[float, Evidence, Any, str]] = {}
        for (i, ev), score, (_, hyp) in zip(owners, scores, pairs):
            if i not in best or score.prob > best[i][0]:
                best[i] = (score.prob, ev, score, hyp)
        return [self._verdict(item, *best[i]) for i, item in enumerate(items)]

    def _verdict(self, item: VerifyItem, prob: float, ev: Evidence, score: Any, hypothesis: str) -> UnitVerdict:
        ws, we = score.windows[score.best_window]
        offset = ev.start or 0
        cited = Evidence(source_id=ev.source_id, passage_index=ev.passage_index, start=offset + ws,
                         end=offset + we, text=ev.text[ws:we], score=float(prob))
        features = {"nli_prob": float(prob), "nli_windows": float(len(score.windows)),
                    "nli_best_window": float(score.best_window)}
        features.update({f"nli_window_{k}": float(p) for k, p in enumerate(score.window_probs)})
        return UnitVerdict(unit_id=item.unit.id, component=item.component.name, probability=prob,
                           label=self.label(prob), verifier=self.name, evidence=[cited], features=features,
                           prompt=[{"role": "hypothesis", "content": hypothesis}])
