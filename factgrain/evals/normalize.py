"""Source formats -> the shared JSONL shape (``{"id", "dataset", "split", "reference", "text",
"label", ...extras}``), one function per dataset, written from the sources' own formats.

A normalizer takes the downloaded source files (``{source path: local file}``) and yields the rows
in the order of the shared file; ``factgrain data fetch`` serializes them exactly as that file is
(``json.dumps(row, ensure_ascii=False)``, one a line) and checks the sha256 of the result.

QASemConsistency (``ariecattan/qasem_consistency``, ``data/{dev,test}.jsonl``): one JSON object a
line with the source article and the summary as tokens (``source``: a token list, or a string;
``summary``: one token list per sentence), the subset as ``dataset`` (cliff / factscore /
verifiability), ``qas`` with three annotator votes each (1 = the annotator marked the QA as not
supported by the article) and annotated answer ``spans``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

Sources = dict[str, Path]


def detokenize(tokens: list[str]) -> str:
    """The text of a token list as the shared files spell it: punctuation and clitics attached,
    hyphens inside words closed, quotation marks left spaced (as the annotators' tokens had them)."""
    s = " ".join(tokens)
    s = re.sub(r" ([.,!?;:%)\]}])", r"\1", s)
    s = re.sub(r"([(\[{$]) ", r"\1", s)
    s = re.sub(r" (n't|'s|'re|'ve|'m|'ll|'d)\b", r"\1", s)
    return re.sub(r"(?<=\w) - (?=\w)", "-", s)


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path.name} line {n}: not valid JSON ({exc.msg})") from None


def _split_of(source_path: str) -> str:
    return Path(source_path).name.split(".")[0]  # data/dev.jsonl -> dev


def _supported(votes: list[int]) -> int:
    """1 when most annotators did not mark the QA as an error."""
    return int(2 * sum(votes) < len(votes))


def _qasem_responses(sources: Sources) -> Iterator[dict[str, Any]]:
    for source_path in sorted(sources, key=lambda p: ("dev", "test").index(_split_of(p))):
        split = _split_of(source_path)
        for i, src in enumerate(_jsonl(sources[source_path])):
            sentences = [detokenize(toks) for toks in src["summary"]]
            article = src["source"]
            qas = [{"qa_id": q["qa_id"], "sent_id": q["sent_id"], "predicate": q["predicate"],
                    "predicate_idx": q["predicate_idx"], "predicate_pos": q["predicate_pos"],
                    "question": q["question"], "answer": q["answer"], "answer_idx": q["answer_idx"],
                    "annotations": q["annotations"], "label": _supported(q["annotations"])} for q in src["qas"]]
            yield {
                "id": f"qasem-{split}-{i}", "dataset": "qasem_consistency", "split": split,
                "reference": article if isinstance(article, str) else detokenize(article),
                "text": " ".join(sentences),
                "label": int(all(q["label"] == 1 for q in qas)),
                "subset": src["dataset"], "model": src.get("model"), "datasource": src.get("datasource"),
                "source_id": src.get("source_id"), "sentences": sentences, "sentence_tokens": src["summary"],
                "qas": qas, "spans": src.get("spans", []), "cliff_labels": src.get("cliff_labels"),
            }


def qasem_consistency(sources: Sources) -> Iterator[dict[str, Any]]:
    """Whole responses with their gold QAs (response label 1 only when every QA is supported)."""
    yield from _qasem_responses(sources)


def qasem_consistency_qa(sources: Sources) -> Iterator[dict[str, Any]]:
    """One row per QA; ``text`` is the sentence the QA was written for."""
    for r in _qasem_responses(sources):
        for q in r["qas"]:
            sid = q["sent_id"]
            sentence = r["sentences"][sid] if 0 <= sid < len(r["sentences"]) else r["text"]
            yield {
                "id": f"{r['id']}-qa{q['qa_id']}", "dataset": "qasem_consistency_qa", "split": r["split"],
                "reference": r["reference"], "text": sentence, "label": q["label"], "instance_id": r["id"],
                "subset": r["subset"], "model": r["model"], "datasource": r["datasource"],
                "source_id": r["source_id"],
                **{k: q[k] for k in ("qa_id", "sent_id", "predicate", "predicate_idx", "predicate_pos",
                                     "question", "answer", "answer_idx", "annotations")},
            }


_WICE_LABELS = {"supported": (1, 1), "partially_supported": (0, 1), "not_supported": (0, 0)}


def wice(sources: Sources) -> Iterator[dict[str, Any]]:
    """WiCE claim level (``data/entailment_retrieval/claim/{dev,test}.jsonl``): the claim, the cited
    article as one line per evidence sentence, the strict label (only ``supported`` = 1) and the
    lenient one (``partially_supported`` counts), and the sentence ids that support it."""
    claim_files = {p: f for p, f in sources.items() if "/entailment_retrieval/claim/" in p}
    for source_path in sorted(claim_files, key=lambda p: ("dev", "test").index(_split_of(p))):
        split = _split_of(source_path)
        for src in _jsonl(claim_files[source_path]):
            meta = src["meta"]
            strict, lenient = _WICE_LABELS[src["label"]]
            yield {"id": f"wice-{meta['id']}", "dataset": "wice", "split": split,
                   "reference": "\n".join(src["evidence"]), "text": src["claim"], "label": strict,
                   "label_lenient": lenient, "orig_label": src["label"],
                   "supporting_sentences": src["supporting_sentences"], "context": meta.get("claim_context"),
                   "title": meta.get("claim_title"), "section": meta.get("claim_section")}


# RefChecker human annotations v1: one JSON array per (setting, model) file, named
# ``<setting>/<source>_<model>_answers.json``; each element is a response (``id``, ``response``) with
# the triplets Claude 2 extracted from it (``claude2_response_kg``), one ``human_label`` per triplet.
_REFCHECKER_SOURCES = {"accurate_context": "dolly", "noisy_context": "msmarco", "zero_context": "nq"}
# only Entailment is supported; Neutral (the reference does not say) and Contradiction are not
_REFCHECKER_LABELS = {"Entailment": 1, "Neutral": 0, "Contradiction": 0}


def refchecker(sources: Sources) -> Iterator[dict[str, Any]]:
    """One row per annotated triplet, files in setting then model order, responses and triplets in
    file order; ``text`` is the whole response and there is no reference (the release ships none).
    The files' sorted paths are that order (settings, then models, alphabetically)."""
    for source_path in sorted(sources):
        setting = Path(source_path).parent.name
        source = _REFCHECKER_SOURCES[setting]
        model = Path(source_path).name.removeprefix(f"{source}_").removesuffix("_answers.json")
        with sources[source_path].open(encoding="utf-8") as fh:
            try:
                responses = json.load(fh)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{source_path}: not valid JSON ({exc.msg})") from None
        for response in responses:
            example_id = response["id"]
            for i, t in enumerate(response["claude2_response_kg"]):
                if t["human_label"] not in _REFCHECKER_LABELS:
                    raise ValueError(f"{source_path} response {example_id}: unknown human_label {t['human_label']!r}")
                yield {"id": f"refchecker-{source}-{model}-{example_id}-{i}", "dataset": "refchecker", "split": "test",
                       "reference": None, "text": response["response"], "label": _REFCHECKER_LABELS[t["human_label"]],
                       "orig_label": t["human_label"], "triplet": t["triplet"], "setting": setting, "source": source,
                       "model": model, "example_id": example_id}


def felm(sources: Sources) -> Iterator[dict[str, Any]]:
    """FELM (``eval/all.jsonl``): one line per ChatGPT response with its ``segmented_response``, one
    boolean label, comment and error ``type`` per segment (``type`` is empty for math), the reference
    URLs (``ref``) and the text retrieved from them (``ref_contents``: a list of strings, or "" when
    there is none). One row per segment, in file order; the retrieved texts are joined with a line
    break into the reference, which is null when nothing was retrieved."""
    (path,) = sources.values()
    for src in _jsonl(path):
        segments, labels = src["segmented_response"], src["labels"]
        if len(labels) != len(segments) or len(src["comment"]) != len(segments):
            raise ValueError(f"felm response {src['index']}: {len(segments)} segments but {len(labels)} labels "
                             f"and {len(src['comment'])} comments")
        contents = src["ref_contents"]
        if isinstance(contents, str):
            contents = [contents] if contents else []
        reference = "\n".join(contents) or None
        types = src["type"]
        for i, segment in enumerate(segments):
            yield {"id": f"felm-{src['domain']}-{src['index']}-{i}", "dataset": "felm", "split": "test",
                   "reference": reference, "text": segment, "label": int(labels[i]), "domain": src["domain"],
                   "segment_index": i, "prompt": src["prompt"], "response": src["response"],
                   "error_type": types[i] if i < len(types) else None, "comment": src["comment"][i],
                   "ref_urls": src["ref"], "source": src["source"]}


NORMALIZERS: dict[str, Callable[[Sources], Iterator[dict[str, Any]]]] = {
    "qasem_consistency": qasem_consistency,
    "qasem_consistency_qa": qasem_consistency_qa,
    "wice": wice,
    "refchecker": refchecker,
    "felm": felm,
}
