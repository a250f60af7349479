"""Lexical verifier: calibrated, explainable overlap and parse features, no LLM.

The features (answer coverage in the best reference window, numbers and names that agree or
clash, negation; from the spaCy parse: lemmas, entity types, quantities, doubt scope,
predicate-argument links) are combined by a small support model fitted on dev data (monotone boosted trees since round 6)
(``python -m factgrain.evals.train_lexical``); explicit contradictions cap the probability. Its tuned decision threshold is folded into the
probability - ``p = sigmoid(logit(p_raw) - logit(t_tuned))`` - so 0.5 is the calibrated cut-off
like for every other verifier.
"""

from __future__ import annotations

import math
import re
from typing import Any, ClassVar

from factgrain.agent.verifiers.base import Verifier, VerifyItem
from factgrain.agent.verifiers.lexical_features import STOPWORDS, LexicalModel, lexical_features, load_default
from factgrain.schemas.units import Claim, HyperRelationalFact, QAPair
from factgrain.schemas.verdicts import UnitVerdict


def _logit(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


# The words a qualifier opens with that say what kind of circumstance it is, not what it claims ("According
# to | police", "because of | an earthquake"): left out of the value the features look for, so that
# "According to police" is not half found in "According to investigators". Only for TriQua qualifiers:
# as stopwords for every answer they lowered the dev fit (nested CV AUC 87.8 -> 87.6, docs/verifiers.md).
_QUALIFIER_MARKER = re.compile(r"^(?:according to|because of|due to|owing to|thanks to|in spite of|despite|"
                               r"although|though|because|unless|whereas)\s+", re.IGNORECASE)


def _qualifier_claim(value: str) -> str:
    rest = _QUALIFIER_MARKER.sub("", value, count=1)
    return rest if rest.strip() else value


def unit_fields(item: VerifyItem) -> dict[str, Any]:
    """What the features read: the argument being claimed, the question around it, the predicate."""
    unit, comp = item.unit, item.component
    if isinstance(unit, QAPair):
        return {"answer": unit.answer, "question": unit.question, "predicate": unit.predicate}
    if isinstance(unit, HyperRelationalFact):
        if comp.name.startswith("qualifier:"):
            q = unit.qualifiers[int(comp.name.split(":")[1])]
            return {"answer": _qualifier_claim(q.value), "question": unit.base_statement(), "predicate": unit.relation}
        if not unit.object.strip():
            # 'Three men were arrested': with no object the subject is what the fact claims
            return {"answer": unit.subject, "question": unit.relation, "predicate": unit.relation}
        return {"answer": unit.object, "question": f"{unit.subject} {unit.relation}", "predicate": unit.relation}
    assert isinstance(unit, Claim)
    return {"answer": unit.text, "question": "", "predicate": None}


def unit_views(item: VerifyItem) -> list[dict[str, Any]]:
    """The arguments a component claims, each read as :func:`unit_fields` reads one. A fact's base
    triple claims its subject as much as its object ('Three critics praised his last opera' against
    'two critics'), so it is read both ways and the weaker reading decides; a pronoun subject says
    nothing to check."""
    views = [unit_fields(item)]
    unit = item.unit
    if isinstance(unit, HyperRelationalFact) and item.component.name == "base" and unit.object.strip() \
            and any(w.lower() not in STOPWORDS and any(c.isalnum() for c in w) for w in unit.subject.split()):
        views.append({"answer": unit.subject, "question": f"{unit.relation} {unit.object}", "predicate": unit.relation})
    return views


def weakest_view(item: VerifyItem, model: Any) -> tuple[float, Any]:
    """The model's probability and the features of the :func:`unit_views` reading it supports least."""
    best: tuple[float, Any] | None = None
    for n, fields in enumerate(unit_views(item)):
        feats = lexical_features(sentence=item.sentence, reference=item.evidence_text, **fields)
        if n and feats.values.get("ans_doubted"):
            # doubt is read on the first view: a subject named twice ('Russia held ...; although
            # Russia has claimed ...') is found doubted at the wrong occurrence
            continue
        raw = model.prob(feats)
        if best is None or raw < best[0]:
            best = (raw, feats)
    assert best is not None
    return best


class LexicalVerifier(Verifier):
    name: ClassVar[str] = "lexical"
    english_only: ClassVar[bool] = True
    # its features index the reference sentence by sentence and were fitted on whole references:
    # top-3 BM25 passages of a long one cost dev verifiability 0.7 AUC and 0.9 BAcc (verifiers.md, round 7)
    evidence_budget_chars: ClassVar[int] = 100_000

    def __init__(self, *, model: Any = None, **options: Any):
        """``model``: a :class:`LexicalModel` or a ``lexical_boosted.BoostedModel``; the shipped one
        by default."""
        super().__init__(**options)
        self.model: LexicalModel | Any = model or load_default()
        self._shift = _logit(self.model.threshold)

    def describe(self) -> str:
        return f"lexical:{self.model.meta.get('version', 'default')}"

    def probability(self, item: VerifyItem) -> tuple[float, Any]:
        raw, feats = weakest_view(item, self.model)
        return 1.0 / (1.0 + math.exp(-(_logit(raw) - self._shift))), feats

    async def verify_item(self, item: VerifyItem) -> UnitVerdict:
        prob, feats = self.probability(item)
        # cite the sentence the parse-based features rest on, else the best overlap window; as the passage (and
        # source) it lies in, not the joined evidence text
        window = feats.support_sentence or feats.best_window
        evidence = list(item.evidence)
        if window is not None and window.text:
            evidence = [item.locate(window.start, window.end, float(window.score))]
        return UnitVerdict(
            unit_id=item.unit.id, component=item.component.name, probability=prob, label=self.label(prob),
            verifier=self.name, evidence=evidence, features={k: float(v) for k, v in feats.values.items()},
        )
