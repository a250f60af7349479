"""``factgrain revise``: check a text, rewrite its unsupported spans, re-check, repeat; print every round."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from factgrain.commands.check import add_input_args, add_method_args, add_model_args, evaluator_kwargs, read_inputs


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("revise", help="rewrite the unsupported spans of a text until it checks out",
                       description=__doc__)
    add_input_args(p, "revise")
    add_model_args(p)
    add_method_args(p)
    g = p.add_argument_group("revision")
    g.add_argument("--reviser-model", help="provider/model that writes the edits (default: the decomposition model)")
    g.add_argument("--target", type=float, default=1.0, help="stop once the score reaches this (default 1.0)")
    g.add_argument("--max-rounds", type=int, default=3, help="rewrite at most this many times (default 3)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--output", "-o", help="write the result here instead of standard output")
    p.set_defaults(func=run)


def _fmt(score: float | None) -> str:
    return "n/a" if score is None else f"{score:.3f}"


def render_text(revision) -> str:
    out = []
    for r in revision.rounds:
        mark = "" if r.accepted else f"  (rejected: {r.reason or 'no improvement'})"
        out.append(f"round {r.round}: score {_fmt(r.score)}, {len(r.errors)} unsupported span(s){mark}")
        for e in r.errors:
            out.append(f"  - [{e['start']}:{e['end']}] {e['text']!r} ({e['error_kind'] or 'unsupported'})")
        if r.diff:
            out.append(r.diff.rstrip("\n"))
    out.append(f"stopped: {revision.stop_reason}; best round {revision.best_round} "
               f"(score {_fmt(revision.score)}, target {revision.target})"
               + (f"; reviser error: {revision.error}" if revision.error else "")
               + (f"\n{revision.note}" if revision.note else ""))
    out.append("")
    out.append(revision.text)
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    from factgrain.agent.evaluator import Evaluator, run_sync
    from factgrain.agent.inputs import check_text, normalize_reference
    from factgrain.agent.revise import arevise
    from factgrain.progress import stages

    text, reference, question = read_inputs(args)
    check_text(text, max_chars=args.max_chars)
    normalize_reference(reference)
    with stages("revising"):
        evaluator = Evaluator(args.model, **evaluator_kwargs(args))
        revision = run_sync(arevise(text, reference, question=question, evaluator=evaluator,
                                    reviser_model=args.reviser_model, target=args.target, max_rounds=args.max_rounds))
    out = revision.model_dump_json(indent=2) if args.format == "json" else render_text(revision)
    if args.output:
        Path(args.output).write_text(out, encoding="utf-8")
        print(f"revision written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(out)
    return 0
