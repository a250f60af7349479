"""Answer-coverage check: the first step of QASemConsistency verification.

Before a QA pair is verified as a whole, its answer (the argument span) is
checked against the reference: an answer that the reference never mentions (an
extrinsic hallucination: an invented name, number or entity) makes every QA
that uses it unsupported. This module does that check lexically and
conservatively — an answer is "not covered" only when its numbers, names or
most of its content words are clearly absent from the reference; pronouns and
answers without content words are always covered (they are left to the
per-QA verifier).

    python -m factgrain.agent.coverage [--split dev] [--data DIR]

measures precision and recall of "not covered" against the annotated answer
spans of ``qasem_consistency`` (see :func:`measure`).
"""

from __future__ import annotations

import argparse
import re
import gzip
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from factgrain.agent.verifiers.lexical_features import (
    content_tokens,
    extract_names,
    extract_numbers,
    normalize_tokens,
)

__all__ = ["CoverageResult", "is_covered", "measure", "MIN_SHARE", "PREFIX_LEN"]

#: an answer whose share of present content words is below this is "not covered"
MIN_SHARE = 0.5
#: a word also counts as present when a reference word shares this many leading letters
PREFIX_LEN = 5


_LY_NOUNS = "family|assembly|supply|reply|ally|rally|belly|bully|jelly|fly|monopoly|anomaly|butterfly|lily|holly|italy|july|homily|folly|gully"
_ADVERB_RE = re.compile(rf"\b(?!(?:{_LY_NOUNS})\b)[a-z]{{3,}}ly\b")


@dataclass(frozen=True)
class CoverageResult:
    covered: bool
    score: float  # share of the answer's content words found in the reference (1.0 if none)
    matched: list[str] = field(default_factory=list)  # answer words found in the reference
    reason: str = ""


@dataclass(frozen=True)
class _Ref:
    tokens: frozenset[str]
    prefixes: frozenset[str]
    numbers: frozenset[str]


@lru_cache(maxsize=128)
def _ref(reference: str) -> _Ref:
    toks = frozenset(normalize_tokens(reference))
    return _Ref(
        tokens=toks,
        prefixes=frozenset(t[:PREFIX_LEN] for t in toks if len(t) >= PREFIX_LEN and not t.isdigit()),
        numbers=frozenset(extract_numbers(reference)),
    )


def _present(tok: str, ref: _Ref) -> bool:
    if tok in ref.tokens:
        return True
    return len(tok) >= PREFIX_LEN and not tok.isdigit() and tok[:PREFIX_LEN] in ref.prefixes


def is_covered(answer_or_value: str, reference: str, *, min_share: float = MIN_SHARE) -> CoverageResult:
    """Is the answer (or qualifier value) mentioned by the reference?

    Decision, in order:

    * no content words (pronoun, "well", "there") -> covered;
    * a number of the answer absent from the reference -> not covered;
    * a capitalised name word of the answer absent from the reference -> not covered;
    * share of content words present (exact normalised match, or a shared
      5-letter prefix for words of 5+ letters) below ``min_share`` -> not covered;
    * otherwise covered.
    """
    ref = _ref(reference or "")
    # manner/time adverbs ("safely", "currently") are judged with the predicate, not here
    words = list(dict.fromkeys(content_tokens(_ADVERB_RE.sub(" ", answer_or_value))))
    if not words:
        return CoverageResult(True, 1.0, [], "no content words to check")
    matched = [w for w in words if _present(w, ref)]
    score = len(matched) / len(words)
    nums = [n for n in dict.fromkeys(extract_numbers(answer_or_value))]
    missing_nums = [n for n in nums if n not in ref.numbers]
    if missing_nums:
        return CoverageResult(False, score, matched, f"number(s) not in reference: {', '.join(missing_nums)}")
    names = list(dict.fromkeys(extract_names(answer_or_value)))
    missing_names = [n for n in names if not _present(n, ref)]
    if missing_names:
        return CoverageResult(False, score, matched, f"name word(s) not in reference: {', '.join(missing_names)}")
    if score < min_share:
        missing = [w for w in words if w not in matched]
        return CoverageResult(False, score, matched, f"only {len(matched)}/{len(words)} content words in reference; missing: {', '.join(missing)}")
    return CoverageResult(True, score, matched, f"{len(matched)}/{len(words)} content words in reference")


# ---------------------------------------------------------------------------
# measurement against annotated answer spans
# ---------------------------------------------------------------------------


def _load_spans(split: str, data_dir: Path) -> list[tuple[str, str, int, str]]:
    """``(span_text, reference, gold_covered, subset)`` for every annotated span.

    In ``qasem_consistency`` each response has ``sentence_tokens`` (one token
    list per sentence) and ``spans`` whose ``start``/``end`` index the
    *concatenation* of all sentences' tokens (end exclusive). ``annotations``
    holds one vote per annotator: 1 = covered, 0 = not covered (checked: of the
    QAs attached to majority-0 spans, 473 of 475 are labelled unsupported).
    """
    out = []
    with gzip.open(Path(data_dir) / "qasem_consistency.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r["split"] != split:
                continue
            toks = [t for sent in r["sentence_tokens"] for t in sent]
            for s in r["spans"]:
                votes = s["annotations"]
                if isinstance(votes, str):
                    votes = json.loads(votes)
                votes = [int(v) for v in votes]
                gold = int(2 * sum(votes) > len(votes))
                text = " ".join(toks[int(s["start"]) : int(s["end"])])
                out.append((text, r["reference"] or "", gold, r["subset"]))
    return out


def measure(split: str = "dev", data_dir: Path = Path("/work/shared/data"), min_share: float = MIN_SHARE) -> dict:
    """Precision / recall / F1 of "not covered" against the majority span votes."""
    spans = _load_spans(split, data_dir)
    report: dict[str, dict] = {}
    for subset in ("all", "cliff", "factscore", "verifiability"):
        tp = fp = fn = tn = 0
        for text, ref, gold, sub in spans:
            if subset != "all" and sub != subset:
                continue
            pred_not = not is_covered(text, ref, min_share=min_share).covered
            gold_not = gold == 0
            tp += pred_not and gold_not
            fp += pred_not and not gold_not
            fn += (not pred_not) and gold_not
            tn += (not pred_not) and not gold_not
        p = tp / (tp + fp) if tp + fp else 0.0
        rcl = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * p * rcl / (p + rcl) if p + rcl else 0.0
        report[subset] = {"n": tp + fp + fn + tn, "gold_not_covered": tp + fn, "flagged": tp + fp,
                          "precision": p, "recall": rcl, "f1": f1}
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Measure the answer-coverage check against annotated spans.")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--data", type=Path, default=Path("/work/shared/data"))
    ap.add_argument("--min-share", type=float, default=MIN_SHARE)
    args = ap.parse_args(argv)
    rep = measure(args.split, args.data, args.min_share)
    print(f"# Answer coverage — qasem_consistency {args.split}: \"not covered\" vs majority span votes\n")
    print("| subset | spans | gold not covered | flagged | precision | recall | F1 |")
    print("|---|---|---|---|---|---|---|")
    for k, v in rep.items():
        print(f"| {k} | {v['n']} | {v['gold_not_covered']} | {v['flagged']} | {100 * v['precision']:.1f} | {100 * v['recall']:.1f} | {100 * v['f1']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
