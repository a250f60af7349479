"""Does the offline check catch one controlled error in a sentence taken from its own reference?

Each sentence is taken from a reference article of ``qasem_consistency`` dev and checked against that
article twice: as it is (every unit should be supported) and with one error put in:

- ``number``: a number other than a year is changed to a value the article does not contain;
- ``year``: a year is moved by three (to one the article does not contain);
- ``year swap``: a year is replaced by another year the article names (an intrinsic date error);
- ``month``: a month name is replaced by one the article does not name;
- ``person`` / ``place``: a named person or place is replaced by another person or place the same
  article names elsewhere (an intrinsic error: the name is in the reference, in another role);
- ``negation``: "not" is put after the first auxiliary ("was held" -> "was not held").

A unit is *touched* when its answer or its predicate overlaps the changed words (for a negation, when
its predicate is the negated verb). Printed per kind: how many perturbed sentences get the label
"unsupported", in how many the changed words belong to no unit (a gap of the decomposition, not of
the verifier), how many touched units are judged unsupported (the verifier's detection rate) and
how many untouched units are still supported. Nothing is asserted. Dev articles only; the lexical verifier
was fitted on dev QAs, so the unperturbed rate is not a measure of quality on new text, but the
perturbed sentences were never seen by any fit.

Run: ``python benchmarks/perturb_offline.py [--method qasem|triqua] [--articles 60] [--show-misses N]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
from collections import defaultdict
from dataclasses import dataclass


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
AUXILIARIES = frozenset("is was are were has have had will would can could should may might must".split())


@dataclass
class Perturbation:
    kind: str
    text: str  # the sentence with the error
    start: int  # the changed characters, in ``text``
    end: int
    negated_verb: tuple[int, int] | None = None  # for a negation: the verb's span in ``text``


def _replace(sentence: str, start: int, end: int, new: str, kind: str) -> Perturbation:
    return Perturbation(kind, sentence[:start] + new + sentence[end:], start, start + len(new))


def perturbations(sentence: str, reference: str, doc, ref_doc, rng: random.Random) -> list[Perturbation]:
    """At most one perturbation of each kind for the sentence (``doc`` is its parse, ``ref_doc`` the
    reference's)."""
    out: dict[str, Perturbation] = {}
    for tok in doc:
        if tok.like_num and re.fullmatch(r"\d[\d,]*(\.\d+)?", tok.text):
            value = float(tok.text.replace(",", ""))
            if re.fullmatch(r"1[89]\d\d|20\d\d", tok.text):
                kind, new = "year", str(int(value) + 3)
            else:
                kind = "number"
                new = str(int(value * 2 + 3)) if value == int(value) else f"{value * 2 + 0.5:g}"
            if kind not in out and not re.search(rf"(?<![\d,.]){re.escape(new)}(?!\d|,\d)", reference):
                out[kind] = _replace(sentence, tok.idx, tok.idx + len(tok.text), new, kind)
        elif tok.text in MONTHS and "month" not in out:
            others = [m for m in MONTHS if m not in reference]
            if others:
                out["month"] = _replace(sentence, tok.idx, tok.idx + len(tok.text), rng.choice(others), "month")
    # an intrinsic date error: the year of another event of the same article (its own random stream,
    # so that adding this kind left the other kinds' draws as they were)
    years = [t for t in doc if re.fullmatch(r"1[89]\d\d|20\d\d", t.text)]
    others = sorted({y for y in re.findall(r"(?<![\d,.])(1[89]\d\d|20\d\d)(?!\d)", reference)} - {t.text for t in years})
    if years and others:
        tok = years[0]
        out["year swap"] = _replace(sentence, tok.idx, tok.idx + len(tok.text),
                                    random.Random(sentence).choice(others), "year swap")
    for label, kind in (("PERSON", "person"), ("GPE", "place")):
        ents = [e for e in doc.ents if e.label_ == label]
        if not ents:
            continue
        ent = ents[0]
        own = {t.lower_ for t in ent}
        others = sorted({e.text for e in ref_doc.ents if e.label_ == label and e.text not in sentence
                         and not own & {t.lower_ for t in e}})
        if others:
            out[kind] = _replace(sentence, ent.start_char, ent.end_char, rng.choice(others), kind)
    for tok in doc:
        if tok.dep_ in ("aux", "auxpass") and tok.lower_ in AUXILIARIES and tok.head.pos_ == "VERB" \
                and not any(c.dep_ == "neg" for c in tok.head.children):
            at = tok.idx + len(tok.text)
            text = sentence[:at] + " not" + sentence[at:]
            shift = 4 if tok.head.idx > tok.idx else 0
            verb = (tok.head.idx + shift, tok.head.idx + shift + len(tok.head.text))
            out["negation"] = Perturbation("negation", text, at + 1, at + 4, verb)
            break
    return list(out.values())


def _unit_spans(unit) -> list[tuple[int, int]]:
    spans = []
    for name in ("answer_span", "predicate_span", "subject_span", "relation_span", "object_span"):
        s = getattr(unit, name, None)
        if s is not None:
            spans.append((s.start, s.end))
    for q in getattr(unit, "qualifiers", None) or []:
        if q.span is not None:
            spans.append((q.span.start, q.span.end))
    return spans


def _touched(unit, p: Perturbation) -> bool:
    if p.negated_verb is not None:
        pred = getattr(unit, "predicate_span", None) or getattr(unit, "relation_span", None)
        return pred is not None and pred.start <= p.negated_verb[0] < pred.end
    return any(s < p.end and p.start < e for s, e in _unit_spans(unit))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--method", default="qasem")
    ap.add_argument("--articles", type=int, default=60, help="dev reference articles to take sentences from")
    ap.add_argument("--sentences", type=int, default=3, help="sentences per article")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show-misses", type=int, default=0, help="print this many touched units judged supported")
    ap.add_argument("--show-alarms", type=int, default=0, help="print this many untouched units judged unsupported")
    args = ap.parse_args(argv)

    import factgrain
    from factgrain.agent.reader import parse
    from factgrain.agent.segment import split_sentences
    from factgrain.evals.datasets import data_dir

    rng = random.Random(args.seed)
    refs: dict[str, str] = {}
    with gzip.open(data_dir() / "qasem_consistency.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["split"] == "dev" and row.get("reference"):
                refs.setdefault(str(row.get("source_id") or row["id"]), row["reference"])
    items, meta = [], []
    for sid in sorted(refs)[: args.articles]:
        ref = refs[sid]
        ref_doc = parse(ref)
        spans = [(s, e) for s, e in split_sentences(ref) if 8 <= len(ref[s:e].split()) <= 40]
        for s, e in rng.sample(spans, min(args.sentences, len(spans))):
            sent = ref[s:e]
            items.append({"id": f"{sid}:{s}", "text": sent, "reference": ref})
            meta.append(None)
            for p in perturbations(sent, ref, parse(sent), ref_doc, rng):
                items.append({"id": f"{sid}:{s}:{p.kind}", "text": p.text, "reference": ref})
                meta.append(p)
    reports = factgrain.check_many(items, method=args.method, verifier="lexical", span_mode="parse")

    # touched, caught, other, kept, sentences, labelled unsupported, sentences whose change no unit covers
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0])
    misses, alarms = [], []
    for item, p, report in zip(items, meta, reports):
        if isinstance(report, Exception):
            print(f"{item['id']}: error: {report}")
            continue
        row = rows[p.kind if p else "unchanged"]
        row[4] += 1
        row[5] += report.scores.label == "unsupported"
        row[6] += p is not None and not any(_touched(r.unit, p) for r in report.results if r.status != "unscored")
        for r in report.results:
            if r.status == "unscored":
                continue
            if p is not None and _touched(r.unit, p):
                row[0] += 1
                row[1] += r.status != "supported"
                if r.status == "supported":
                    misses.append((p.kind, item["text"], r.unit.statement(), r.probability))
            else:
                row[2] += 1
                row[3] += r.status == "supported"
                if r.status != "supported":
                    alarms.append((p.kind if p else "unchanged", item["text"], r.unit.statement(), r.probability))
    print(f"offline check ({args.method}, lexical verifier): sentences of {min(args.articles, len(refs))} "
          "qasem_consistency dev articles, checked against their own article")
    print("| kind | sentences | labelled unsupported | change in no unit | touched units | judged unsupported "
          "| other units | still supported |")
    print("|---|---|---|---|---|---|---|---|")
    for kind in ["unchanged", "number", "year", "year swap", "month", "person", "place", "negation"]:
        if kind not in rows:
            continue
        t, c, o, k, n, fl, nu = rows[kind]
        pct = lambda a, b: f"{100 * a / b:.1f}" if b else "-"  # noqa: E731
        print(f"| {kind} | {n} | {fl} ({pct(fl, n)} %) | {nu if kind != 'unchanged' else '-'} | {t} | {c} ({pct(c, t)} %) | {o} | {k} ({pct(k, o)} %) |")
    for kind, text, statement, prob in misses[: args.show_misses]:
        print(f"\nmissed {kind}: {statement}  P={prob:.2f}\n    {text}")
    for kind, text, statement, prob in alarms[: args.show_alarms]:
        print(f"\nfalse alarm ({kind}): {statement}  P={prob:.2f}\n    {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
