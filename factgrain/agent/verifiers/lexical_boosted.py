"""Boosted trees over the lexical features: the shipped support model since round 6.

A sum of shallow regression trees on the logit scale (gradient boosting, fitted by scikit-learn's
``HistGradientBoostingClassifier`` in :mod:`factgrain.evals.train_lexical`, with every signed feature
held monotone: more of the unit found in the reference never lowers the score, a clash never raises
it). The trees are stored as plain arrays in the model JSON and evaluated here, so scikit-learn is
needed only to fit, never to verify. Why trees: the unit is supported when its parts are found
*together* and in the right place, which depth-2 trees read directly; on dev (nested grouped CV) they
rank better than the logistic model with hand-picked pairwise products (docs/verifiers.md, round 6).

Contributions (:meth:`BoostedModel.contributions`) follow each tree's decision path: a split moves the
expected value from the node to the child taken (expectations weighted by the training rows that
reached each node), and that move is credited to the split's feature; the root expectations sum to
``bias``. So ``bias + sum(contributions) == logit`` before a veto.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

KIND = "boosted_trees"


def _logit(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


@dataclass
class Tree:
    """One regression tree as parallel arrays over its nodes (node 0 is the root). An internal node
    sends a row left when ``x[feature] <= threshold``; ``value`` is a leaf's output and an internal
    node's expectation (its leaves' outputs weighted by training rows)."""

    feature: list[int]
    threshold: list[float]
    left: list[int]
    right: list[int]
    value: list[float]
    is_leaf: list[bool]

    def path(self, x: list[float]) -> list[int]:
        node, out = 0, [0]
        while not self.is_leaf[node]:
            node = self.left[node] if x[self.feature[node]] <= self.threshold[node] else self.right[node]
            out.append(node)
        return out

    def to_dict(self) -> dict:
        return {"feature": self.feature, "threshold": [round(t, 9) for t in self.threshold], "left": self.left,
                "right": self.right, "value": [round(v, 9) for v in self.value], "is_leaf": [int(b) for b in self.is_leaf]}

    @classmethod
    def from_dict(cls, d: Mapping) -> "Tree":
        n = len(d["value"])
        cols = {k: list(d[k]) for k in ("feature", "threshold", "left", "right", "value", "is_leaf")}
        if any(len(v) != n for v in cols.values()):
            raise ValueError("a tree's node arrays must have equal length")
        return cls(feature=[int(v) for v in cols["feature"]], threshold=[float(v) for v in cols["threshold"]],
                   left=[int(v) for v in cols["left"]], right=[int(v) for v in cols["right"]],
                   value=[float(v) for v in cols["value"]], is_leaf=[bool(v) for v in cols["is_leaf"]])


@dataclass
class BoostedModel:
    """``logit = base_logit + sum of tree outputs``; supported when ``prob >= threshold`` (0.5: the
    classes were weighted equally in the fit). Vetoes cap the logit as in
    :class:`~factgrain.agent.verifiers.lexical_features.LexicalModel`."""

    feature_names: list[str]
    trees: list[Tree]
    base_logit: float
    threshold: float = 0.5
    meta: dict = field(default_factory=dict)
    vetoes: list[str] = field(default_factory=list)
    veto_probability: float = 0.2

    def __post_init__(self) -> None:
        n = len(self.feature_names)
        for t in self.trees:
            bad = [f for f, leaf in zip(t.feature, t.is_leaf) if not leaf and not 0 <= f < n]
            if bad:
                raise ValueError(f"a tree splits on feature index {bad[0]}, outside the {n} feature names")

    def _values(self, features: Mapping[str, float] | Any) -> Mapping[str, float]:
        # a plain mapping of feature values, or a ``lexical_features.Features`` (its ``.values``)
        return features if isinstance(features, Mapping) else features.values

    def _row(self, features: Mapping[str, float] | Any) -> list[float]:
        vals = self._values(features)
        return [float(vals[n]) for n in self.feature_names]

    def raw_logit(self, features: Mapping[str, float] | Any) -> float:
        x = self._row(features)
        return self.base_logit + sum(t.value[t.path(x)[-1]] for t in self.trees)

    def vetoed(self, features: Mapping[str, float] | Any) -> list[str]:
        """The veto features that are set (the reference contradicts the unit)."""
        vals = self._values(features)
        return [v for v in self.vetoes if float(vals.get(v, 0.0)) >= 0.5]

    def logit(self, features: Mapping[str, float] | Any) -> float:
        z = self.raw_logit(features)
        if self.vetoed(features):
            z = min(z, _logit(self.veto_probability) + _logit(self.threshold))
        return z

    def prob(self, features: Mapping[str, float] | Any) -> float:
        z = self.logit(features)
        return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))

    def predict(self, features: Mapping[str, float] | Any) -> bool:
        return self.prob(features) >= self.threshold

    @property
    def bias(self) -> float:
        """The logit of a row that follows no split: ``base_logit`` plus every root's expectation."""
        return self.base_logit + sum(t.value[0] for t in self.trees)

    def contributions(self, features: Mapping[str, float] | Any) -> dict[str, float]:
        """Per-feature share of the logit along each tree's path (see the module docstring); features
        no path splits on are left out."""
        x = self._row(features)
        out: dict[str, float] = {}
        for t in self.trees:
            nodes = t.path(x)
            for parent, child in zip(nodes, nodes[1:]):
                name = self.feature_names[t.feature[parent]]
                out[name] = out.get(name, 0.0) + t.value[child] - t.value[parent]
        return out

    def to_dict(self) -> dict:
        return {"kind": KIND, "feature_names": list(self.feature_names), "base_logit": round(self.base_logit, 9),
                "threshold": round(float(self.threshold), 6), "vetoes": list(self.vetoes),
                "veto_probability": float(self.veto_probability), "meta": self.meta,
                "trees": [t.to_dict() for t in self.trees]}

    @classmethod
    def from_dict(cls, d: Mapping) -> "BoostedModel":
        if d.get("kind") != KIND:
            raise ValueError(f"not a boosted-trees model (kind {d.get('kind')!r})")
        return cls(feature_names=list(d["feature_names"]), trees=[Tree.from_dict(t) for t in d["trees"]],
                   base_logit=float(d["base_logit"]), threshold=float(d.get("threshold", 0.5)),
                   meta=dict(d.get("meta", {})), vetoes=list(d.get("vetoes", [])),
                   veto_probability=float(d.get("veto_probability", 0.2)))


def dumps(model: BoostedModel) -> str:
    """The model's JSON, one line per tree (readable diffs, a third of the indented size)."""
    import json

    d = model.to_dict()
    trees = d.pop("trees")
    head = json.dumps(d, indent=2)
    body = ",\n".join("    " + json.dumps(t, separators=(",", ":")) for t in trees)
    return head[:-2] + ',\n  "trees": [\n' + body + "\n  ]\n}\n"


def from_sklearn(estimator: Any, feature_names: list[str], **kwargs: Any) -> BoostedModel:
    """A :class:`BoostedModel` from a fitted binary ``HistGradientBoostingClassifier`` (its trees'
    node arrays; internal nodes get the row-weighted expectation of their leaves). Reads the
    estimator's ``_predictors`` and ``_baseline_prediction``, which scikit-learn keeps private:
    the export is checked against ``decision_function`` by the training script and the tests."""
    trees = []
    for (pred,) in estimator._predictors:
        nodes = pred.nodes
        feature = [int(v) for v in nodes["feature_idx"]]
        thr = [float(v) for v in nodes["num_threshold"]]
        left = [int(v) for v in nodes["left"]]
        right = [int(v) for v in nodes["right"]]
        leaf = [bool(v) for v in nodes["is_leaf"]]
        if any(bool(v) for v in nodes["is_categorical"]):
            raise ValueError("categorical splits are not supported")
        count = [float(v) for v in nodes["count"]]
        value = [float(v) for v in nodes["value"]]

        def expect(i: int) -> tuple[float, float]:
            if leaf[i]:
                return value[i], count[i]
            (lv, lc), (rv, rc) = expect(left[i]), expect(right[i])
            value[i] = (lv * lc + rv * rc) / (lc + rc) if lc + rc else 0.5 * (lv + rv)
            return value[i], lc + rc

        expect(0)
        trees.append(Tree(feature=[f if not leaf[i] else -1 for i, f in enumerate(feature)], threshold=thr,
                          left=left, right=right, value=value, is_leaf=leaf))
    base = float(estimator._baseline_prediction.ravel()[0])
    return BoostedModel(feature_names=list(feature_names), trees=trees, base_logit=base, **kwargs)
