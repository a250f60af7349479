"""Behavioural probes of the offline check: does it catch the usual kinds of unsupported sentence?

``benchmarks/data/probes.jsonl`` holds 60 one-sentence texts written for this script (not taken from
any dataset) against seven short made-up references: faithful restatements, and sentences with one
error each of a common kind - a wrong date, place, number or entity (a role given to the wrong person,
"women" for "men"), a flipped negation, an antonym ("rose" for "fell"), a detail the reference does not
have, a paraphrase that should still pass ("people visit" for "visitors"). Eleven (round 8) repeat
the kinds of the earlier failures with other words, to check that the fixes were not fitted to them;
the last seven (session 19) test another count or birthplace in a slot, and a denial near the answer. A
probe passes when the report's label (supported only if every scored unit is) is the expected one.

Run: ``python benchmarks/probe_offline.py [--method qasem|triqua] [--show-failures]``. Prints the
share of probes passed per kind; nothing here asserts a figure. These probes were written to find
defects, so they are not a measure of quality on real data (Table 4 and the decomposer figures are).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

PROBES = Path(__file__).with_name("data") / "probes.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--method", default="qasem")
    ap.add_argument("--show-failures", action="store_true", help="print the units of every failed probe")
    args = ap.parse_args(argv)

    import factgrain

    probes = [json.loads(line) for line in PROBES.read_text(encoding="utf-8").splitlines() if line.strip()]
    reports = factgrain.check_many([{"id": p["id"], "text": p["text"], "reference": p["reference"]} for p in probes],
                                   method=args.method, verifier="lexical", span_mode="parse")
    by_kind: dict[str, list[bool]] = defaultdict(list)
    failures = []
    for probe, report in zip(probes, reports):
        if isinstance(report, Exception):
            print(f"{probe['id']}: error: {report}")
            by_kind[probe["kind"]].append(False)
            continue
        ok = report.scores.label == probe["label"]
        by_kind[probe["kind"]].append(ok)
        if not ok:
            failures.append((probe, report))
    print(f"offline check ({args.method}, lexical verifier) on {len(probes)} probes")
    print("| kind | passed | n |\n|---|---|---|")
    for kind in sorted(by_kind):
        got = by_kind[kind]
        print(f"| {kind} | {sum(got)} | {len(got)} |")
    total = [ok for got in by_kind.values() for ok in got]
    print(f"| all | {sum(total)} | {len(total)} |")
    if args.show_failures:
        for probe, report in failures:
            print(f"\n{probe['id']} ({probe['kind']}, expected {probe['label']}, got {report.scores.label}): {probe['text']}")
            for r in report.results:
                print(f"   {r.probability if r.probability is not None else float('nan'):.2f} {r.status:12} "
                      f"{r.unit.statement()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
