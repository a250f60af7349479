"""Lexical support features for one predicate-argument QA unit.

Everything here is cheap and explainable: token normalisation, sentences with
character offsets (the package's one splitter), selection of the reference
windows a unit most likely talks about, and a handful of named features (answer
coverage, number clash, absent names, negation mismatch, ...) that a small
logistic model turns into a support probability. The features that read the
spaCy parse (lemmas, entity types, quantities, doubt scope, predicate-argument
links) are in :mod:`lexical_structure` and are appended to these.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

__all__ = [
    "STOPWORDS",
    "Window",
    "Features",
    "LexicalModel",
    "normalize_tokens",
    "content_tokens",
    "extract_numbers",
    "extract_names",
    "split_sentences",
    "select_windows",
    "lexical_features",
    "load_default",
]

from factgrain.agent.verifiers.lexical_tokens import (  # noqa: F401 - re-exported
    STOPWORDS,
    NEGATIONS,
    _WORD_NUMBERS,
    _NUMBER_WORDS_AS_NUMBERS,
    _TOKEN_RE,
    _NUM_RE,
    _ORDINAL_RE,
    _stem,
    _norm_token,
    _prep,
    normalize_tokens,
    content_tokens,
    extract_numbers,
)

_NAME_RE = re.compile(r"\b[A-Z][A-Za-z\-]*[a-z][A-Za-z\-]*\b|\b[A-Z]{2,}\b")


def extract_names(text: str, *, skip_first: bool = False) -> list[str]:
    """Normalised capitalised words that look like parts of names.

    Stopwords ("The", "He") are ignored; with ``skip_first`` the first word of
    the text (capitalised only because it starts a sentence) is ignored too.
    """
    out = []
    for m in _NAME_RE.finditer(text or ""):
        if skip_first and m.start() == len(text) - len(text.lstrip()):
            continue
        low = m.group(0).lower()
        if low in STOPWORDS or low in NEGATIONS or low in _WORD_NUMBERS:
            continue
        for part in low.split("-"):
            if part and part not in STOPWORDS:
                out.append(_norm_token(part))
    return out


# ---------------------------------------------------------------------------
# Sentences and windows
# ---------------------------------------------------------------------------

_MAX_SENT_WORDS = 60


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the sentences of ``text``: the package's one splitter
    (:func:`factgrain.agent.segment.split_sentences`, spaCy's boundaries plus line breaks), with very
    long pieces (no punctuation, e.g. scraped web text) cut into chunks of about 40 words so that
    windows stay local. ``text[start:end]`` is never empty and never starts or ends with whitespace.
    """
    from factgrain.agent.segment import split_sentences as sentences

    spans: list[tuple[int, int]] = []
    for s, e in sentences(text or ""):
        spans.extend(_chunk_long(text, s, e))
    return spans


def _chunk_long(text: str, s: int, e: int) -> list[tuple[int, int]]:
    words = list(re.finditer(r"\S+", text[s:e]))
    if len(words) <= _MAX_SENT_WORDS:
        return [(s, e)]
    out = []
    step = _MAX_SENT_WORDS // 2 + 10  # ~40 words per chunk
    for i in range(0, len(words), step):
        chunk = words[i : i + step]
        out.append((s + chunk[0].start(), s + chunk[-1].end()))
    return out


@dataclass(frozen=True)
class Window:
    """A run of consecutive reference sentences: ``reference[start:end] == text``."""

    start: int
    end: int
    text: str
    score: float = 0.0


@dataclass
class _RefIndex:
    text: str
    sent_spans: list[tuple[int, int]]
    windows: list[tuple[int, int]]  # char spans
    win_tokens: list[frozenset[str]]
    all_tokens: frozenset[str]
    token_list: tuple[str, ...]
    numbers: frozenset[str]
    idf: dict[str, float]
    win_neg: list[bool]


@lru_cache(maxsize=256)
def _index(reference: str, window_sentences: int) -> _RefIndex:
    spans = split_sentences(reference)
    if not spans:
        spans = [(0, len(reference))]
    n = len(spans)
    w = max(1, min(window_sentences, n))
    windows = [(spans[i][0], spans[min(i + w, n) - 1][1]) for i in range(0, max(1, n - w + 1))]
    sent_tok = [frozenset(normalize_tokens(reference[a:b])) for a, b in spans]
    df: dict[str, int] = {}
    for toks in sent_tok:
        for t in toks:
            df[t] = df.get(t, 0) + 1
    idf = {t: math.log(1.0 + n / c) for t, c in df.items()}
    win_tokens = []
    win_neg = []
    for i in range(len(windows)):
        toks = frozenset().union(*sent_tok[i : i + w])
        win_tokens.append(toks)
        win_neg.append(bool(toks & NEGATIONS))
    all_list = tuple(normalize_tokens(reference))
    return _RefIndex(
        text=reference,
        sent_spans=spans,
        windows=windows,
        win_tokens=win_tokens,
        all_tokens=frozenset(all_list),
        token_list=all_list,
        numbers=frozenset(extract_numbers(reference)),
        idf=idf,
        win_neg=win_neg,
    )


def _rank(idx: _RefIndex, query: Iterable[str], context: Iterable[str], ctx_weight: float = 0.5) -> list[tuple[float, int]]:
    # sorted, so float sums (and therefore ties) do not depend on string hashing
    q = sorted({t for t in query if t not in STOPWORDS})
    c = sorted({t for t in context if t not in STOPWORDS} - set(q))
    default_idf = math.log(1.0 + len(idx.sent_spans))
    scored = []
    for i, toks in enumerate(idx.win_tokens):
        s = sum(idx.idf.get(t, default_idf) for t in q if t in toks)
        s += ctx_weight * sum(idx.idf.get(t, default_idf) for t in c if t in toks)
        scored.append((round(s, 9), i))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return scored


def select_windows(
    reference: str,
    query_text: str,
    context_text: str = "",
    k: int = 3,
    window_sentences: int = 2,
) -> list[Window]:
    """The ``k`` reference windows that best match a unit.

    Windows are runs of ``window_sentences`` consecutive sentences. A window's
    score is the idf-weighted count of the unit's content words it contains
    (``query_text``: question + answer), plus half that weight for the words of
    the generated sentence (``context_text``) — a QA like "who said something?"
    has little to match on its own. Highest score first, ties by position.
    """
    if not reference:
        return []
    idx = _index(reference, window_sentences)
    ranked = _rank(idx, normalize_tokens(query_text), normalize_tokens(context_text))
    out = []
    for s, i in ranked[: max(0, k)]:
        a, b = idx.windows[i]
        out.append(Window(start=a, end=b, text=reference[a:b], score=float(s)))
    return out


# ---------------------------------------------------------------------------
# Features
# ---------------------------------------------------------------------------

# Fixed order; the shipped model refers to these names.
FEATURE_NAMES: tuple[str, ...] = (
    "ans_cov_best",  # answer content words found in the best window
    "ans_cov_max",  # ... in the window that covers most of them
    "ans_cov_ref",  # ... anywhere in the reference
    "ans_bigram_ref",  # answer content bigrams found contiguous in the reference
    "ans_no_content",  # answer has no content word (pronoun, "well")
    "qa_cov_best",  # question + answer content words in the best window
    "pred_in_best",  # predicate (stem) in the best window
    "pred_in_ref",  # predicate (stem) anywhere in the reference
    "pred_ans_joint",  # best answer coverage over windows that also hold the predicate
    "sent_cov_best",  # generated sentence's content words in the best window
    "sent_cov_ref",  # ... anywhere in the reference
    "num_clash",  # answer has a number absent from the reference
    "num_agree",  # answer has numbers and all are in the reference
    "sent_num_clash",  # share of the sentence's numbers absent from the reference
    "name_absent",  # share of the answer's capitalised name words absent from the reference
    "sent_name_absent",  # same for the generated sentence
    "neg_mismatch",  # negation in the sentence xor in the best window
    "ans_len",  # log(1 + number of answer content words)
    "best_score",  # match score of the best window, normalised by the query's total weight
)
# the parse-based features of lexical_structure.STRUCTURE_FEATURES follow these (kept in sync below)
_OVERLAP_FEATURES = FEATURE_NAMES


@dataclass
class Features(Mapping[str, float]):
    """Named feature values plus the best reference window (for explanations)."""

    values: dict[str, float]
    best_window: Window | None = None
    windows: list[Window] = field(default_factory=list)
    #: the reference sentence the parse-based features rest on (answer, predicate, context): what a verdict cites
    support_sentence: Window | None = None

    def __getitem__(self, key: str) -> float:
        return self.values[key]

    def __iter__(self):
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def vector(self, names: Sequence[str] = FEATURE_NAMES) -> np.ndarray:
        return np.array([self.values[n] for n in names], dtype=float)


def _share(tokens: Sequence[str], pool: frozenset[str] | set[str], empty: float = 1.0) -> float:
    uniq = set(tokens)
    if not uniq:
        return empty
    return sum(1 for t in uniq if t in pool) / len(uniq)


def _bigram_share(tokens: Sequence[str], ref_tokens: Sequence[str]) -> float:
    if len(tokens) < 2:
        return 1.0 if not tokens else float(tokens[0] in set(ref_tokens))
    ref_content = [t for t in ref_tokens if t not in STOPWORDS]
    ref_bi = set(zip(ref_content, ref_content[1:]))
    bi = list(zip(tokens, tokens[1:]))
    return sum(1 for b in bi if b in ref_bi) / len(bi)


def _question_content(question: str) -> list[str]:
    return content_tokens(question)


def lexical_features(
    *,
    answer: str,
    question: str,
    sentence: str,
    reference: str,
    predicate: str | None = None,
    k: int = 3,
    window_sentences: int = 2,
) -> Features:
    """Explainable lexical support features for one QA unit (all finite)."""
    reference = reference or ""
    idx = _index(reference, window_sentences)
    ans_c = content_tokens(answer)
    q_c = _question_content(question)
    sent_c = content_tokens(sentence)
    pred = _norm_token(predicate.split()[0]) if predicate and predicate.split() else None
    pred_tokens = [pred] if pred else []

    ranked = _rank(idx, ans_c + q_c + pred_tokens, normalize_tokens(sentence))
    best_i = ranked[0][1] if ranked else 0
    best_toks = idx.win_tokens[best_i] if idx.win_tokens else frozenset()
    windows = []
    for s, i in ranked[:k]:
        a, b = idx.windows[i]
        windows.append(Window(start=a, end=b, text=reference[a:b], score=float(s)))

    ans_cov_best = _share(ans_c, best_toks)
    ans_cov_max = max((_share(ans_c, t) for t in idx.win_tokens), default=1.0 if not ans_c else 0.0)
    ans_cov_ref = _share(ans_c, idx.all_tokens)
    joint = 0.0
    if pred:
        joint = max((_share(ans_c, t) for t in idx.win_tokens if pred in t), default=0.0)
    else:
        joint = ans_cov_max

    ans_nums = set(extract_numbers(answer))
    sent_nums = set(extract_numbers(sentence))
    num_clash = float(bool(ans_nums - idx.numbers))
    num_agree = float(bool(ans_nums) and not (ans_nums - idx.numbers))
    sent_num_clash = (len(sent_nums - idx.numbers) / len(sent_nums)) if sent_nums else 0.0

    ans_names = set(extract_names(answer))
    sent_names = set(extract_names(sentence, skip_first=True))
    name_absent = (len(ans_names - idx.all_tokens) / len(ans_names)) if ans_names else 0.0
    sent_name_absent = (len(sent_names - idx.all_tokens) / len(sent_names)) if sent_names else 0.0

    sent_neg = bool(set(normalize_tokens(sentence)) & NEGATIONS)
    win_neg = idx.win_neg[best_i] if idx.win_neg else False

    q_all = sorted(set(ans_c + q_c + pred_tokens))
    default_idf = math.log(1.0 + len(idx.sent_spans))
    total_w = sum(idx.idf.get(t, default_idf) for t in q_all)
    hit_w = sum(idx.idf.get(t, default_idf) for t in q_all if t in best_toks)

    values = {
        "ans_cov_best": ans_cov_best,
        "ans_cov_max": ans_cov_max,
        "ans_cov_ref": ans_cov_ref,
        "ans_bigram_ref": _bigram_share(ans_c, idx.token_list),
        "ans_no_content": float(not ans_c),
        "qa_cov_best": _share(ans_c + q_c, best_toks),
        "pred_in_best": float(pred in best_toks) if pred else 1.0,
        "pred_in_ref": float(pred in idx.all_tokens) if pred else 1.0,
        "pred_ans_joint": joint,
        "sent_cov_best": _share(sent_c, best_toks),
        "sent_cov_ref": _share(sent_c, idx.all_tokens),
        "num_clash": num_clash,
        "num_agree": num_agree,
        "sent_num_clash": sent_num_clash,
        "name_absent": name_absent,
        "sent_name_absent": sent_name_absent,
        "neg_mismatch": float(sent_neg != win_neg),
        "ans_len": math.log1p(len(set(ans_c))),
        "best_score": (hit_w / total_w) if total_w > 0 else 0.0,
    }
    from factgrain.agent.verifiers.lexical_structure import _structure, read_reference, read_unit

    unit = read_unit(answer=answer, question=question, sentence=sentence, predicate=predicate)
    structural, support = _structure(unit, read_reference(reference))
    values.update(structural)
    from factgrain.agent.verifiers.slot_clash import slot_clash

    values["slot_clash"] = float(slot_clash(answer=answer, sentence=sentence, predicate=predicate, reference=reference))
    values = {k2: float(v) if math.isfinite(v) else 0.0 for k2, v in values.items()}
    support_window = Window(start=support[0], end=support[1], text=reference[support[0]:support[1]]) if support else None
    return Features(values=values, best_window=windows[0] if windows else None, windows=windows,
                    support_sentence=support_window)


# ---------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------


def _logit(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


def feature_value(values: Mapping[str, float], name: str) -> float:
    """The value of one model input: a feature, or an interaction ``"a*b"`` of two features (the product
    of their values; a factor written ``~f`` is ``1 - f`` clipped to [0, 1], for a feature that counts
    against support, such as ``~name_absent``: the share of the answer's names that *are* found)."""
    if "*" not in name:
        return float(values[name])
    out = 1.0
    for part in name.split("*"):
        if part.startswith("~"):
            out *= 1.0 - min(max(float(values[part[1:]]), 0.0), 1.0)
        else:
            out *= float(values[part])
    return out


@dataclass
class LexicalModel:
    """Logistic model over standardised lexical features, plus contradiction vetoes.

    ``prob(f) = sigmoid(intercept + sum_i coef_i * (f_i - mean_i) / scale_i)``;
    a unit is judged supported when ``prob >= threshold``. An input named ``"a*b"`` is the product of
    two features (see :func:`feature_value`). When a veto feature
    (``vetoes``: the reference gives another value of the same unit, names another
    weekday or month, or withholds the answer under a hedge) is set, the logit is
    capped so that the probability, once the threshold is folded in, is at most
    ``veto_probability``. Vetoes are rules, not fitted: they fire too rarely on
    dev (a few dozen rows, most in a handful of articles) for a weight to be
    learned, and each states an explicit contradiction.
    """

    feature_names: list[str]
    coefficients: list[float]
    intercept: float
    threshold: float = 0.5
    means: list[float] = field(default_factory=list)
    scales: list[float] = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    vetoes: list[str] = field(default_factory=list)
    veto_probability: float = 0.2

    def __post_init__(self) -> None:
        n = len(self.feature_names)
        if not self.means:
            self.means = [0.0] * n
        if not self.scales:
            self.scales = [1.0] * n
        if not (len(self.coefficients) == len(self.means) == len(self.scales) == n):
            raise ValueError("feature_names, coefficients, means and scales must have equal length")

    def logit(self, features: Mapping[str, float] | Features) -> float:
        vals = features.values if isinstance(features, Features) else features
        z = self.intercept
        for name, c, m, s in zip(self.feature_names, self.coefficients, self.means, self.scales):
            z += c * (feature_value(vals, name) - m) / (s or 1.0)
        if self.vetoed(vals):
            z = min(z, _logit(self.veto_probability) + _logit(self.threshold))
        return z

    def vetoed(self, features: Mapping[str, float] | Features) -> list[str]:
        """The veto features that are set (the reference contradicts the unit)."""
        vals = features.values if isinstance(features, Features) else features
        return [v for v in self.vetoes if float(vals.get(v, 0.0)) >= 0.5]

    def prob(self, features: Mapping[str, float] | Features) -> float:
        z = self.logit(features)
        return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))

    def predict(self, features: Mapping[str, float] | Features) -> bool:
        return self.prob(features) >= self.threshold

    def contributions(self, features: Mapping[str, float] | Features) -> dict[str, float]:
        """Per-feature contribution to the logit (for explanations)."""
        vals = features.values if isinstance(features, Features) else features
        return {
            n: c * (feature_value(vals, n) - m) / (s or 1.0)
            for n, c, m, s in zip(self.feature_names, self.coefficients, self.means, self.scales)
        }

    def to_dict(self) -> dict:
        return {
            "feature_names": list(self.feature_names),
            "coefficients": [round(float(c), 6) for c in self.coefficients],
            "intercept": round(float(self.intercept), 6),
            "threshold": round(float(self.threshold), 6),
            "means": [round(float(m), 6) for m in self.means],
            "scales": [round(float(s), 6) for s in self.scales],
            "vetoes": list(self.vetoes),
            "veto_probability": float(self.veto_probability),
            "meta": self.meta,
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> "LexicalModel":
        return cls(
            feature_names=list(d["feature_names"]),
            coefficients=[float(c) for c in d["coefficients"]],
            intercept=float(d["intercept"]),
            threshold=float(d.get("threshold", 0.5)),
            means=[float(m) for m in d.get("means", [])],
            scales=[float(s) for s in d.get("scales", [])],
            meta=dict(d.get("meta", {})),
            vetoes=list(d.get("vetoes", [])),
            veto_probability=float(d.get("veto_probability", 0.2)),
        )


MODEL_RESOURCE = "lexical_model.json"


def model_from_dict(d: Mapping) -> Any:
    """A support model from its JSON form: boosted trees (``"kind": "boosted_trees"``,
    :mod:`lexical_boosted`) or the logistic :class:`LexicalModel` (no ``kind``)."""
    if d.get("kind"):
        from factgrain.agent.verifiers.lexical_boosted import KIND, BoostedModel

        if d["kind"] != KIND:
            raise ValueError(f"unknown lexical model kind {d['kind']!r}")
        return BoostedModel.from_dict(d)
    return LexicalModel.from_dict(d)


def load_default() -> Any:
    """The model fitted by ``python -m factgrain.evals.train_lexical`` and shipped with the package
    (a :class:`~factgrain.agent.verifiers.lexical_boosted.BoostedModel` since round 6; both kinds
    have the same ``prob`` / ``logit`` / ``vetoed`` / ``contributions`` / ``to_dict`` methods)."""
    text = resources.files(__package__).joinpath(MODEL_RESOURCE).read_text(encoding="utf-8")
    return model_from_dict(json.loads(text))


def _all_feature_names() -> tuple[str, ...]:
    from factgrain.agent.verifiers.lexical_structure import STRUCTURE_FEATURES

    return _OVERLAP_FEATURES + STRUCTURE_FEATURES


FEATURE_NAMES = _all_feature_names()
