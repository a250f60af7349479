"""Support scoring with a local sequence-classification NLI model.

This wraps any Hugging Face ``AutoModelForSequenceClassification`` checkpoint that
sits in a local directory (DeBERTa/RoBERTa MNLI models, MiniCheck, AlignScore-style
heads, ...). Each unit to verify becomes a *(premise, hypothesis)* pair: the premise
is the reference text, the hypothesis is the claim (or a question/answer turned into
one, see :func:`hypothesis_for_qa`). The result is the probability the model gives
to its entailment / "supported" class.

Long premises
    A premise that does not fit in the model's window (its maximum sequence length
    minus the hypothesis tokens and the special tokens) is cut into token windows
    that overlap by ``stride`` tokens. Every window is scored against the
    hypothesis and the support probability of the pair is the maximum over the
    windows, as MiniCheck does: one passage that entails the claim is enough. The
    per-window probabilities and their character spans in the premise are kept so
    callers can point at the passage that carried the decision.

Dependencies
    ``torch`` and ``transformers`` are optional (``pip install 'factgrain[nli]'``).
    They are imported only when an :class:`NLIClassifier` is built, so importing
    this module is always cheap and :func:`hypothesis_for_qa` works without them.

Nothing is ever downloaded: models are loaded with ``local_files_only=True``.
"""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path
from typing import Any, Literal, Sequence

from pydantic import BaseModel, Field

from factgrain.errors import ConfigurationError, InputError, MissingExtraError

# The errors are re-exported so callers of this module can catch them from one place.
__all__ = [
    "NLIScore",
    "NLIClassifier",
    "LabelMappingError",
    "MissingExtraError",
    "ConfigurationError",
    "InputError",
    "ENTAILMENT_LABEL_NAMES",
    "find_entailment_index",
    "hypothesis_for_qa",
]


class LabelMappingError(ConfigurationError, ValueError):
    """The entailment / support class of a model could not be determined."""


class NLIScore(BaseModel):
    """Support probability of one (premise, hypothesis) pair.

    ``prob`` is ``max(window_probs)`` and ``best_window`` the index of the first
    window reaching it. ``windows[i]`` is the ``(start, end)`` character span of
    window ``i`` in the premise (``premise[start:end]`` is the text that was scored).
    Consecutive windows overlap and together they cover the whole premise. A premise
    that fits in the model window gives exactly one window, ``(0, len(premise))``.
    """

    prob: float = Field(ge=0.0, le=1.0)
    window_probs: list[float]
    best_window: int = Field(ge=0)
    windows: list[tuple[int, int]]


# ---------------------------------------------------------------------------
# Label mapping
# ---------------------------------------------------------------------------

#: Label names (after lower-casing and mapping spaces/dashes to "_") that mean
#: "the hypothesis is supported", in order of preference.
ENTAILMENT_LABEL_NAMES: tuple[str, ...] = (
    "entailment",
    "entailed",
    "entails",
    "entail",
    "supported",
    "supports",
    "support",
    "consistent",
    "factual",
    "faithful",
    "yes",
    "true",
    "positive",
)

# Names that clearly mean "not supported"; for a two-class model, if one label is
# one of these the other one is taken as the positive class.
_NEGATIVE_LABEL_NAMES = frozenset(
    {
        "not_entailment",
        "non_entailment",
        "not_entailed",
        "no_entailment",
        "contradiction",
        "contradict",
        "contradicts",
        "not_supported",
        "unsupported",
        "refuted",
        "refutes",
        "inconsistent",
        "not_consistent",
        "hallucinated",
        "hallucination",
        "unfaithful",
        "no",
        "false",
        "negative",
        "label_0",
        "0",
    }
)


def _norm_label(name: Any) -> str:
    return re.sub(r"[\s\-_]+", "_", str(name).strip().lower())


def find_entailment_index(
    id2label: dict[int, str], override: int | str | None = None
) -> int:
    """Return the index of the entailment / support class in ``id2label``.

    ``override`` may be a class index or a label name (case-insensitive). Without
    it the labels are matched against :data:`ENTAILMENT_LABEL_NAMES`; a two-class
    model whose other label reads as negative (``not_entailment``, ``LABEL_0``,
    ...) uses its remaining class, and a one-output model uses output 0 (read
    through a sigmoid). Raises :class:`LabelMappingError` listing the labels when
    nothing matches.
    """
    labels = {int(k): str(v) for k, v in id2label.items()}
    listing = ", ".join(f"{k}={v!r}" for k, v in sorted(labels.items()))
    if override is not None:
        if isinstance(override, bool):
            raise LabelMappingError(f"entailment_label must be an index or a name, got {override!r}")
        if isinstance(override, int):
            if override not in labels:
                raise LabelMappingError(
                    f"entailment_label={override} is not a class of this model; labels: {listing}"
                )
            return override
        wanted = _norm_label(override)
        hits = [k for k, v in labels.items() if _norm_label(v) == wanted]
        if len(hits) != 1:
            raise LabelMappingError(
                f"entailment_label={override!r} matches {len(hits)} classes of this model; "
                f"labels: {listing}"
            )
        return hits[0]

    if len(labels) == 1:
        return next(iter(labels))
    normed = {k: _norm_label(v) for k, v in labels.items()}
    for name in ENTAILMENT_LABEL_NAMES:
        hits = [k for k, v in normed.items() if v == name]
        if len(hits) == 1:
            return hits[0]
    if len(labels) == 2:
        negatives = [k for k, v in normed.items() if v in _NEGATIVE_LABEL_NAMES]
        if len(negatives) == 1:
            return next(k for k in labels if k != negatives[0])
    raise LabelMappingError(
        "cannot tell which class of this model means entailment/support; labels: "
        f"{listing}. Pass entailment_label= (the index or the name of that class)."
    )


# ---------------------------------------------------------------------------
# Classifier
# ---------------------------------------------------------------------------

_HUGE_LENGTH = 100_000  # tokenizers without a limit report ~1e30


class NLIClassifier:
    """Score (premise, hypothesis) pairs with a local NLI / fact-checking classifier.

    Parameters
    ----------
    model_path:
        Directory holding a ``save_pretrained`` checkpoint (config, weights and
        tokenizer files). Nothing is downloaded.
    entailment_label:
        Index or name of the class meaning "supported"; found from
        ``config.id2label`` when omitted (see :func:`find_entailment_index`).
    device:
        Torch device for inference, ``"cpu"`` by default.
    batch_size:
        Number of (window, hypothesis) inputs per forward pass.
    max_length:
        Maximum input length in tokens, specials included. Defaults to the smaller
        of the tokenizer's ``model_max_length`` and the config's position limit.
    stride:
        Number of tokens shared by consecutive premise windows. It is capped at
        half the window so every window moves forward.
    min_premise_tokens:
        Hypotheses so long that fewer premise tokens than this would fit are cut
        (with a warning). Capped at half of the usable length.

    Inputs are encoded as ``tokenizer(premise_window, hypothesis)`` — premise first,
    the MNLI / MiniCheck / AlignScore convention. For models with one output the
    support probability is ``sigmoid(logit)``; otherwise it is the softmax
    probability of the entailment class (for a two-class model, the positive class).
    """

    def __init__(
        self,
        model_path: str | Path,
        *,
        entailment_label: int | str | None = None,
        device: Any = "cpu",
        batch_size: int = 16,
        max_length: int | None = None,
        stride: int = 64,
        min_premise_tokens: int = 32,
    ) -> None:
        try:
            import torch
        except ImportError as exc:
            raise MissingExtraError("nli", "torch") from exc
        try:
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError as exc:
            raise MissingExtraError("nli", "transformers") from exc

        if batch_size < 1:
            raise ConfigurationError(f"batch_size must be >= 1, got {batch_size}")
        if stride < 0:
            raise ConfigurationError(f"stride must be >= 0, got {stride}")
        path = Path(model_path).expanduser()
        if not path.is_dir():
            raise ConfigurationError(f"NLI model directory not found: {str(path)!r}")

        self._torch = torch
        self.model_path = path
        self.tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        self.model = AutoModelForSequenceClassification.from_pretrained(
            str(path), local_files_only=True
        )
        self.device = torch.device(device)
        self.model.to(self.device)
        self.model.eval()
        self.batch_size = int(batch_size)
        self.stride = int(stride)

        config = self.model.config
        id2label = dict(getattr(config, "id2label", None) or {})
        num_labels = int(getattr(config, "num_labels", len(id2label) or 0))
        if not id2label:
            id2label = {i: f"LABEL_{i}" for i in range(num_labels)}
        self.id2label: dict[int, str] = {int(k): str(v) for k, v in id2label.items()}
        self.num_labels = num_labels
        self.entailment_index = find_entailment_index(self.id2label, entailment_label)
        self.entailment_label = self.id2label[self.entailment_index]

        self.max_length = self._resolve_max_length(max_length)
        self._num_specials = int(self.tokenizer.num_special_tokens_to_add(pair=True))
        usable = self.max_length - self._num_specials
        if usable < 2:
            raise ConfigurationError(
                f"max_length={self.max_length} leaves no room for text "
                f"({self._num_specials} special tokens per pair)"
            )
        self.min_premise_tokens = max(1, min(int(min_premise_tokens), usable // 2))
        self._warned_truncation = False

    # -- setup helpers -----------------------------------------------------

    def _resolve_max_length(self, override: int | None) -> int:
        if override is not None:
            if override < 1:
                raise ConfigurationError(f"max_length must be >= 1, got {override}")
            limit = self._model_position_limit()
            return int(min(override, limit)) if limit else int(override)
        candidates = []
        tok_max = getattr(self.tokenizer, "model_max_length", None)
        if isinstance(tok_max, int) and 0 < tok_max < _HUGE_LENGTH:
            candidates.append(tok_max)
        limit = self._model_position_limit()
        if limit:
            candidates.append(limit)
        return min(candidates) if candidates else 512

    def _model_position_limit(self) -> int | None:
        config = self.model.config
        limit = getattr(config, "max_position_embeddings", None)
        if not isinstance(limit, int) or limit <= 0 or limit >= _HUGE_LENGTH:
            return None
        model_type = str(getattr(config, "model_type", "")).lower()
        if "roberta" in model_type or model_type in {"camembert", "longformer"}:
            # RoBERTa-style position ids start after the padding index (514 -> 512).
            pad = getattr(config, "pad_token_id", None)
            limit -= (pad if isinstance(pad, int) else 1) + 1
        return limit

    # -- public API --------------------------------------------------------

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[NLIScore]:
        """Score ``(premise, hypothesis)`` pairs; one :class:`NLIScore` per pair, in order."""
        pairs = list(pairs)
        for i, pair in enumerate(pairs):
            if (
                not isinstance(pair, (tuple, list))
                or len(pair) != 2
                or not all(isinstance(x, str) for x in pair)
            ):
                raise InputError(f"pair {i} is not a (premise, hypothesis) pair of strings")
        if not pairs:
            return []

        premises = [p for p, _ in pairs]
        hypotheses = [self._fit_hypothesis(h) for _, h in pairs]
        hyp_lens = self._token_counts(hypotheses)

        # One entry per (pair, window): (pair index, premise slice, hypothesis, est. length)
        items: list[tuple[int, str, str, int]] = []
        spans: list[list[tuple[int, int]]] = []
        for pi, (premise, hyp) in enumerate(zip(premises, hypotheses)):
            budget = self.max_length - self._num_specials - hyp_lens[pi]
            windows, sizes = self._premise_windows(premise, budget)
            spans.append(windows)
            for (start, end), size in zip(windows, sizes):
                items.append((pi, premise[start:end], hyp, size + hyp_lens[pi]))

        probs = self._run(items)

        results: list[NLIScore] = []
        cursor = 0
        for pi, windows in enumerate(spans):
            wp = probs[cursor : cursor + len(windows)]
            cursor += len(windows)
            best = max(range(len(wp)), key=lambda k: (wp[k], -k))
            results.append(
                NLIScore(prob=wp[best], window_probs=wp, best_window=best, windows=windows)
            )
        return results

    def score_one(self, premise: str, hypothesis: str) -> NLIScore:
        """Score a single pair."""
        return self.score([(premise, hypothesis)])[0]

    # -- internals ---------------------------------------------------------

    def _encode_plain(self, texts: list[str], offsets: bool) -> Any:
        return self.tokenizer(
            texts,
            add_special_tokens=False,
            return_offsets_mapping=offsets,
            truncation=False,
        )

    def _token_counts(self, texts: list[str]) -> list[int]:
        enc = self._encode_plain(texts, offsets=False)
        return [len(ids) for ids in enc["input_ids"]]

    def _token_offsets(self, text: str) -> list[tuple[int, int]]:
        """Character span of every token of ``text`` (no special tokens)."""
        try:
            enc = self._encode_plain([text], offsets=True)
            return [(int(s), int(e)) for s, e in enc["offset_mapping"][0]]
        except (NotImplementedError, ValueError, KeyError, TypeError):
            # Tokenizers without offset mapping: give every token the span of
            # the whitespace-separated word it comes from.
            out: list[tuple[int, int]] = []
            for m in re.finditer(r"\S+", text):
                n = max(1, len(self.tokenizer.tokenize(m.group())))
                out.extend([(m.start(), m.end())] * n)
            return out

    def _fit_hypothesis(self, hypothesis: str) -> str:
        """Cut a hypothesis so at least ``min_premise_tokens`` premise tokens still fit."""
        limit = self.max_length - self._num_specials - self.min_premise_tokens
        offsets = self._token_offsets(hypothesis)
        if len(offsets) <= limit:
            return hypothesis
        if not self._warned_truncation:
            warnings.warn(
                f"hypothesis longer than {limit} tokens was truncated to fit the "
                f"model window ({self.max_length} tokens)",
                stacklevel=3,
            )
            self._warned_truncation = True
        return hypothesis[: offsets[limit - 1][1]]

    def _premise_windows(
        self, premise: str, budget: int
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """Split a premise into overlapping windows of at most ``budget`` tokens.

        Returns the character spans and the token count of each window. The first
        window starts at 0 and the last ends at ``len(premise)``.
        """
        budget = max(1, budget)
        offsets = self._token_offsets(premise)
        n = len(offsets)
        if n <= budget:
            return [(0, len(premise))], [n]
        overlap = min(self.stride, budget // 2)
        step = max(1, budget - overlap)
        token_spans: list[tuple[int, int]] = []
        start = 0
        while True:
            end = min(start + budget, n)
            token_spans.append((start, end))
            if end >= n:
                break
            start += step
        chars: list[tuple[int, int]] = []
        prev_end = 0
        last = len(token_spans) - 1
        for i, (ts, te) in enumerate(token_spans):
            cs = 0 if i == 0 else min(offsets[ts][0], prev_end)
            ce = len(premise) if i == last else max(offsets[te - 1][1], cs)
            chars.append((cs, ce))
            prev_end = ce
        return chars, [te - ts for ts, te in token_spans]

    def _support_probs(self, logits: Any) -> list[float]:
        torch = self._torch
        logits = logits.float()
        if logits.shape[-1] == 1:
            p = torch.sigmoid(logits[:, 0])
        else:
            p = torch.softmax(logits, dim=-1)[:, self.entailment_index]
        return [min(1.0, max(0.0, float(x))) for x in p.cpu().tolist()]

    def _run(self, items: list[tuple[int, str, str, int]]) -> list[float]:
        """Forward all (window, hypothesis) inputs; probabilities in item order.

        Inputs are grouped by length to keep padding small; the grouping is a
        stable sort so the same call always builds the same batches.
        """
        torch = self._torch
        order = sorted(range(len(items)), key=lambda k: items[k][3])
        out = [math.nan] * len(items)
        with torch.inference_mode():
            for b in range(0, len(order), self.batch_size):
                idx = order[b : b + self.batch_size]
                enc = self.tokenizer(
                    [items[k][1] for k in idx],
                    [items[k][2] for k in idx],
                    padding=True,
                    truncation="only_first",
                    max_length=self.max_length,
                    return_tensors="pt",
                )
                enc = {k: v.to(self.device) for k, v in enc.items()}
                logits = self.model(**enc).logits
                for k, p in zip(idx, self._support_probs(logits)):
                    out[k] = p
        return out

    def __repr__(self) -> str:
        return (
            f"NLIClassifier({str(self.model_path)!r}, entailment={self.entailment_label!r}"
            f"[{self.entailment_index}], max_length={self.max_length}, stride={self.stride}, "
            f"batch_size={self.batch_size}, device={str(self.device)!r})"
        )


# ---------------------------------------------------------------------------
# QA pair -> hypothesis
# ---------------------------------------------------------------------------

_WH = {"who", "whom", "what", "which", "whose", "when", "where", "why", "how"}
_ADVERBIAL_WH = {"when", "where", "why", "how"}

_NEG_AUX = {
    "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't",
    "don't", "doesn't", "didn't", "won't", "wouldn't", "can't", "cannot",
    "couldn't", "mightn't", "mustn't", "shouldn't", "shan't",
}
_AUX = {
    "is", "are", "was", "were", "am", "has", "have", "had", "do", "does", "did",
    "will", "would", "can", "could", "may", "might", "must", "shall", "should",
} | _NEG_AUX
_DO = {"do", "does", "did"}
_HAVE = {"has", "have", "had"}

_PRONOUN_SUBJECTS = {
    "someone", "something", "somebody", "anyone", "anything", "anybody",
    "everyone", "everything", "nobody", "nothing", "he", "she", "it", "they",
    "we", "i", "you", "one", "people",
}
_DETERMINERS = {
    "the", "a", "an", "this", "that", "these", "those", "his", "her", "its",
    "their", "our", "my", "your", "some", "any", "each", "every", "another",
}
_PREPS = {
    "about", "above", "across", "after", "against", "along", "among", "around",
    "as", "at", "before", "behind", "below", "beneath", "beside", "between",
    "beyond", "by", "despite", "down", "during", "for", "from", "in", "inside",
    "into", "like", "near", "of", "off", "on", "onto", "out", "outside", "over",
    "past", "since", "through", "throughout", "to", "toward", "towards", "under",
    "until", "up", "upon", "with", "within", "without",
}
_VERB_LEAD = {"not", "never", "also", "be", "been", "being", "have", "had", "having"}

_IRREGULAR_PAST = {
    "be": "was", "become": "became", "begin": "began", "bite": "bit", "blow": "blew",
    "break": "broke", "bring": "brought", "build": "built", "buy": "bought",
    "catch": "caught", "choose": "chose", "come": "came", "cost": "cost", "cut": "cut",
    "deal": "dealt", "dig": "dug", "do": "did", "draw": "drew", "drink": "drank",
    "drive": "drove", "eat": "ate", "fall": "fell", "feed": "fed", "feel": "felt",
    "fight": "fought", "find": "found", "fly": "flew", "forget": "forgot",
    "forgive": "forgave", "freeze": "froze", "get": "got", "give": "gave", "go": "went",
    "grow": "grew", "hang": "hung", "have": "had", "hear": "heard", "hide": "hid",
    "hit": "hit", "hold": "held", "hurt": "hurt", "keep": "kept", "know": "knew",
    "lay": "laid", "lead": "led", "leave": "left", "lend": "lent", "let": "let",
    "lie": "lay", "lose": "lost", "make": "made", "mean": "meant", "meet": "met",
    "pay": "paid", "put": "put", "quit": "quit", "read": "read", "ride": "rode",
    "ring": "rang", "rise": "rose", "run": "ran", "say": "said", "see": "saw",
    "seek": "sought", "sell": "sold", "send": "sent", "set": "set", "shake": "shook",
    "shoot": "shot", "show": "showed", "shut": "shut", "sing": "sang", "sink": "sank",
    "sit": "sat", "sleep": "slept", "speak": "spoke", "spend": "spent", "split": "split",
    "spread": "spread", "stand": "stood", "steal": "stole", "stick": "stuck",
    "strike": "struck", "swim": "swam", "take": "took", "teach": "taught",
    "tear": "tore", "tell": "told", "think": "thought", "throw": "threw",
    "understand": "understood", "wake": "woke", "wear": "wore", "win": "won",
    "write": "wrote",
}
_MOTION_VERBS = {
    "go", "come", "travel", "move", "run", "drive", "fly", "walk", "return", "head",
    "sail", "send", "bring", "take", "ship", "flee", "escape", "relocate", "emigrate",
    "immigrate", "transfer", "commute", "ride", "swim", "get",
}
_WHERE_LEADS = _PREPS | {
    "here", "there", "home", "abroad", "everywhere", "nowhere", "somewhere",
    "upstairs", "downstairs", "overseas", "nearby", "away",
}
_WHEN_LEADS = _PREPS | {
    "when", "while", "once", "last", "next", "this", "every", "yesterday", "today",
    "tomorrow", "tonight", "now", "then", "recently", "soon", "later", "earlier",
    "never", "always", "already", "ago", "early", "late",
}
_WHY_LEADS = {
    "because", "since", "as", "due", "for", "to", "so", "in", "owing", "out",
    "thanks", "given",
}
_MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
}
_WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
_VOWELS = set("aeiou")


def _past(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[low]
    if low.endswith("e"):
        return verb + "d"
    if len(low) > 1 and low.endswith("y") and low[-2] not in _VOWELS:
        return verb[:-1] + "ied"
    vowel_groups = len(re.findall(r"[aeiou]+", low))
    if (
        vowel_groups == 1
        and len(low) >= 3
        and low[-1] not in _VOWELS | set("wxy")
        and low[-2] in _VOWELS
        and low[-3] not in _VOWELS
    ):
        return verb + verb[-1] + "ed"
    return verb + "ed"


def _third_person(verb: str) -> str:
    low = verb.lower()
    if low == "have":
        return "has"
    if low in {"do", "go"}:
        return verb + "es"
    if low == "be":
        return "is"
    if re.search(r"(s|sh|ch|x|z)$", low):
        return verb + "es"
    if len(low) > 1 and low.endswith("y") and low[-2] not in _VOWELS:
        return verb[:-1] + "ies"
    return verb + "s"


def _subject_length(tokens: list[str]) -> int:
    """How many leading tokens form the subject (0 if none is recognisable)."""
    if not tokens:
        return 0
    first = tokens[0].lower()
    if first in _PRONOUN_SUBJECTS:
        return 1
    if first in _DETERMINERS:
        return min(2, len(tokens))
    if tokens[0][:1].isupper():
        n = 1
        while n < len(tokens) and tokens[n][:1].isupper():
            n += 1
        return n
    return 0


def _adverbial(wh: str, answer: str, verb: str | None) -> str:
    words = answer.split()
    first = words[0].lower().strip(",.") if words else ""
    if wh == "where":
        if first in _WHERE_LEADS:
            return answer
        return ("to " if verb and verb.lower() in _MOTION_VERBS else "in ") + answer
    if wh == "when":
        if first in _WHEN_LEADS:
            return answer
        if first in _WEEKDAYS or (
            first in _MONTHS and len(words) > 1 and re.match(r"\d", words[1])
        ):
            return "on " + answer
        if first in _MONTHS or re.fullmatch(r"\d{3,4}s?", first):
            return "in " + answer
        if re.fullmatch(r"\d{1,2}(st|nd|rd|th)?", first) and len(words) > 1 and words[1].lower() in _MONTHS:
            return "on " + answer
        return answer
    if wh == "why":
        if first in _WHY_LEADS:
            return answer
        if first in _DETERMINERS or len(words) <= 2:
            return "because of " + answer
        return "because " + answer
    return answer  # how / how much / how many: manner or amount, used as is


def _insert_argument(head: list[str], tail: list[str], answer: str) -> list[str]:
    """Place an argument answer in the gap left by the WH word."""
    if not tail:
        return head + [answer]
    if tail[-1].lower() in _PREPS:  # stranded preposition: "... give something to?"
        return head + tail + [answer]
    if tail[0].lower() in _PREPS:  # object gap before a PP: "... put on the table?"
        return head + [answer] + tail
    return head + tail + [answer]  # second object: "... give someone?"


def _affirmative(question: str, answer: str) -> str | None:
    tokens = question.strip().rstrip("?").strip().split()
    if not tokens or tokens[0].lower() not in _WH:
        return None
    low = [t.lower() for t in tokens]
    wh = low[0]
    i = 1
    if wh == "how" and i < len(low) and low[i] in {"much", "many"}:
        wh = "how " + low[i]
        i += 1

    # Optional noun after the WH word ("which team", "how many people").
    noun: list[str] = []
    if wh in {"which", "whose", "how many", "what", "how much"} and i < len(low) and low[i] not in _AUX:
        aux_at = next((j for j in range(i, min(i + 4, len(low))) if low[j] in _AUX), None)
        if aux_at is not None:
            noun = tokens[i:aux_at]
        elif wh in {"which", "whose", "how many"}:
            noun = tokens[i : i + 1]
        i += len(noun)

    # What the answer stands for in the declarative sentence.
    if noun and wh in {"how many", "whose"}:
        if noun[-1].lower() in answer.lower():
            filler = answer
        else:
            filler = f"{answer} {' '.join(noun)}"
    else:
        filler = answer

    rest = tokens[i:]
    adverbial = wh in _ADVERBIAL_WH
    if not rest:
        return filler
    if rest[0].lower() not in _AUX:
        # WH word is the subject: "Who says something?" -> "<answer> says something"
        if adverbial:
            return " ".join(rest + [_adverbial(wh, answer, rest[0])])
        return " ".join([filler] + rest)

    aux, after = rest[0], rest[1:]
    aux_low = aux.lower()
    n_subj = _subject_length(after)
    if n_subj == 0 and not adverbial:
        # "Who has said something?": the WH word is the subject.
        return " ".join([filler] + rest)
    if n_subj == 0:
        n_subj = 1 if after else 0
    subject, remainder = after[:n_subj], after[n_subj:]
    if not adverbial and not remainder and (aux_low in _DO or aux_low in _HAVE):
        # "Who did something?" / "Who has something?": do/have is the main verb.
        return " ".join([filler] + rest)

    negated = aux_low in _NEG_AUX or (remainder[:1] and remainder[0].lower() == "not")
    if aux_low in _DO and not negated and remainder:
        verb = remainder[0]
        if aux_low == "did":
            verb = _past(verb)
        elif aux_low == "does":
            verb = _third_person(verb)
        head = subject + [verb]
        tail = remainder[1:]
        main_verb = remainder[0]
    else:
        j = 0
        while j < len(remainder) - 1 and remainder[j].lower() in _VERB_LEAD:
            j += 1
        head = subject + [aux] + remainder[: j + 1]
        tail = remainder[j + 1 :]
        main_verb = remainder[j] if remainder else aux

    if adverbial:
        return " ".join(head + tail + [_adverbial(wh, answer, main_verb)])
    return " ".join(_insert_argument(head, tail, filler))


def hypothesis_for_qa(
    question: str, answer: str, style: Literal["qa", "affirmative"] = "qa"
) -> str:
    """Turn a question/answer pair into the hypothesis given to the NLI model.

    ``style="qa"``
        ``question + " " + answer`` — the QASemConsistency setup, where the model
        reads the QA pair as is.
    ``style="affirmative"``
        A rule-based declarative rewrite for QA-SRL-shaped questions
        (``WH AUX SUBJ VERB OBJ PREP OBJ2 ?``), e.g. "Who says something?" +
        "Laura Muir" -> "Laura Muir says something."; "What did someone put on the
        table?" + "a cup" -> "Someone put a cup on the table."; "When did someone
        leave?" + "2019" -> "Someone left in 2019."; "How many people did someone
        invite?" + "five" -> "Someone invited five people.".

        Handled: who/whom/what/which/whose (subject or object gap, object gap
        before a PP, stranded prepositions), when/where/why/how (answer appended
        with a light connective: "in"/"on" for dates, "to"/"in" for places,
        "because"/"because of" for reasons), how much/how many (with or without a
        noun), do-support removed by inflecting the verb (small irregular table
        plus regular -ed/-s rules), other auxiliaries and negations kept in place.

        Limits: no parser or lexicon behind it. Subjects are recognised only as a
        placeholder/pronoun, a determiner plus one word, or a run of capitalised
        words; multi-word common-noun subjects and adjectives in the subject break
        the verb detection; irregular verbs outside the table get a regular "-ed";
        subject-verb agreement with the answer is not adjusted ("Who is ...?" stays
        "is"); connectives for when/where/why answers are guesses. Questions that do
        not start with a WH word fall back to the "qa" form.
    """
    question = question.strip()
    answer = answer.strip()
    if style == "qa":
        return f"{question} {answer}".strip()
    if style != "affirmative":
        raise InputError(f"unknown hypothesis style {style!r}; use 'qa' or 'affirmative'")
    sentence = _affirmative(question, answer) if answer else None
    if sentence is None:
        return f"{question} {answer}".strip()
    sentence = re.sub(r"\s+", " ", sentence).strip().rstrip(".")
    return sentence[:1].upper() + sentence[1:] + "."
