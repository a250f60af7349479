"""``factgrain check``: evaluate one text against its reference."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from factgrain.commands.io import read_source
from factgrain.errors import InputError


def add_input_args(p: argparse.ArgumentParser, verb: str) -> None:
    """The text, reference(s), bundled example and question that :func:`read_inputs` reads."""
    p.add_argument("text", nargs="?", help=f"file with the text to {verb} ('-' for stdin)")
    p.add_argument("reference", nargs="?", help="file with the reference (or use --reference)")
    p.add_argument("--reference", dest="reference_opt", action="append", metavar="FILE",
                   help="reference file; repeat for several sources")
    p.add_argument("--example", help="use a bundled example instead of files (e.g. measles)")
    p.add_argument("--question", help="the question the text answers (question-aware prompts)")


def add_model_args(p: argparse.ArgumentParser) -> None:
    """The backends and the verifier options of a command that checks texts."""
    add_backend_args(p)
    add_verifier_args(p)


def add_backend_args(p: argparse.ArgumentParser) -> None:
    """Which model each role uses and which verifier (what ``factgrain backends`` reports on)."""
    g = p.add_argument_group("backend")
    g.add_argument("--model", help="provider/model, e.g. embedded/<file.gguf>, vllm/<name>, openai/gpt-4o-mini, nli/<dir> (default: none: the offline reader and lexical verifier, no model call)")
    g.add_argument("--base-url", help="OpenAI-compatible base URL (else FACTGRAIN_BASE_URL / OPENAI_BASE_URL)")
    g.add_argument("--api-key", help="API key (else FACTGRAIN_API_KEY / OPENAI_API_KEY)")
    g.add_argument("--decomposer-model", help="a separate provider/model for decomposition")
    g.add_argument("--reflector-model", help="a separate provider/model for reflection")
    g.add_argument("--verifier-model", help="a separate provider/model for verification")
    g.add_argument("--verifier", choices=["llm", "lexical", "nli", "fused"], help="verifier (default: by the model's tier: lexical offline and for small models, llm for capable ones)")


def add_verifier_args(p: argparse.ArgumentParser) -> None:
    """Options of the verification itself; only commands that verify take them."""
    g = p.add_argument_group("verification")
    g.add_argument("--nli-model", help="local NLI model directory for --verifier nli (same as --model nli/<dir>)")
    g.add_argument("--calibration", help="calibration profile name or JSON path (from factgrain calibrate)")
    g.add_argument("--skip-uncovered", action="store_true",
                   help="units whose argument is absent from the reference are extrinsic errors without a verifier call")


def add_method_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("method")
    g.add_argument("--method", default="qasem", help="qasem (default), triqua, claims:factscore|veriscore|wice|n=5|none, none")
    g.add_argument("--threshold", type=float, default=0.5, help="P(supported) at or above which a unit is supported")
    g.add_argument("--aggregate", choices=["mean", "min", "harmonic"], default="harmonic")
    g.add_argument("--reflect", action=argparse.BooleanOptionalAction, default=False, help="reflect on and refine the decomposition")
    g.add_argument("--reflect-rounds", type=int, default=1)
    g.add_argument("--span-mode", choices=["auto", "parse", "free", "enum"], default="auto",
                   help="parse: the offline reader writes the units; free: the model does; auto: by the model's tier")
    g.add_argument("--reflect-mode", choices=["auto", "light", "full"], default="auto",
                   help="light: one constrained judgment per flagged scope; full: errors, judgment and refinement; auto: by the model's tier")
    g.add_argument("--chunk-size", type=int, default=2000, help="characters per chunk for long texts")
    g.add_argument("--chunk-overlap", type=int, default=0)
    g.add_argument("--max-chars", type=int, default=200_000, help="refuse texts longer than this")


def add_cache_args(p: argparse.ArgumentParser, *, default: bool) -> None:
    g = p.add_argument_group("cache")
    g.add_argument("--cache", action=argparse.BooleanOptionalAction, default=default,
                   help="answer repeated LLM calls from a disk cache (default: %(default)s)")
    g.add_argument("--cache-dir", help="cache directory (else FACTGRAIN_CACHE_DIR or ~/.cache/factgrain)")


def evaluator_kwargs(args: argparse.Namespace) -> dict:
    kw = dict(
        base_url=args.base_url, api_key=args.api_key, decomposer_model=args.decomposer_model,
        method=args.method, threshold=args.threshold, aggregate=args.aggregate, reflect=args.reflect,
        reflect_rounds=args.reflect_rounds, chunk_size=args.chunk_size, chunk_overlap=args.chunk_overlap,
        max_chars=args.max_chars,
    )
    if args.verifier:
        kw["verifier"] = args.verifier
    for key in ("span_mode", "reflect_mode"):  # the model's tier decides unless forced
        if getattr(args, key, "auto") != "auto":
            kw[key] = getattr(args, key)
    for key in ("nli_model", "calibration"):
        if getattr(args, key, None):
            kw[key] = getattr(args, key)
    if getattr(args, "skip_uncovered", False):
        kw["skip_uncovered"] = True
    for role in ("reflector_model", "verifier_model"):  # absent on parsers without add_model_args
        if getattr(args, role, None):
            kw[role] = getattr(args, role)
    if getattr(args, "cache", None) is not None:
        kw.update(cache=args.cache, cache_dir=getattr(args, "cache_dir", None))
    return kw


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="check a text against its reference", description=__doc__)
    add_input_args(p, "check")
    add_model_args(p)
    add_method_args(p)
    add_cache_args(p, default=False)
    p.add_argument("--format", choices=["table", "json", "markdown", "html"], default="table")
    p.add_argument("--output", "-o", help="write the report here instead of standard output")
    b = p.add_argument_group("batch")
    b.add_argument("--batch", metavar="IN.jsonl", help="check every {id, text, reference, question?} row of a JSONL file")
    b.add_argument("--out", metavar="OUT.jsonl", help="append one result per row here; a rerun skips rows already done")
    b.add_argument("--concurrency", type=int, default=4, help="rows checked at once in --batch mode")
    p.set_defaults(func=run)


def read_inputs(args: argparse.Namespace) -> tuple[str, object, str | None]:
    if args.example:
        from factgrain import examples

        ex = examples.load(args.example)
        return ex["text"], ex["reference"], args.question or ex.get("question")
    if not args.text:
        raise InputError("give a text file (or '-' for stdin) and a reference file, or --example NAME")
    refs = list(args.reference_opt or []) + ([args.reference] if args.reference else [])
    if not refs:
        raise InputError("no reference: give it as the second argument or with --reference FILE")
    if args.text == "-" and "-" in refs:
        raise InputError("only one of text and reference can come from standard input")
    text = read_source(args.text, "text")
    sources = [read_source(r, "reference") for r in refs]
    reference: object = sources[0] if len(sources) == 1 else [{"id": Path(r).name, "text": t} for r, t in zip(refs, sources)]
    return text, reference, args.question


def emit(report, fmt: str, output: str | None) -> None:
    if fmt == "json":
        out = report.to_json()
    elif fmt == "markdown":
        from factgrain.render.markdown import render_markdown

        out = render_markdown(report)
    elif fmt == "html":
        from factgrain.render.html import render_html

        out = render_html(report)
    else:
        if output:
            from factgrain.render.table import table_text

            out = table_text(report)
        else:
            from factgrain.render.table import print_table

            print_table(report)
            return
    if output:
        Path(output).write_text(out, encoding="utf-8")
        print(f"report written to {output}", file=sys.stderr)
    else:
        sys.stdout.write(out if out.endswith("\n") else out + "\n")


def run_batch_cli(args: argparse.Namespace) -> int:
    """``check --batch IN --out OUT``: prints a summary line; non-zero exit when rows failed."""
    from factgrain.agent.evaluator import Evaluator, run_sync
    from factgrain.batch import run_batch

    if not args.out:
        raise InputError("--batch needs --out FILE (results are appended there, one JSON line per row)")
    if args.text or args.reference or args.reference_opt or args.example:
        raise InputError("--batch reads text and reference from the JSONL rows; drop the file arguments")
    evaluator = Evaluator(args.model, **evaluator_kwargs(args))
    summary = run_sync(run_batch(evaluator, args.batch, args.out, concurrency=args.concurrency))
    print(summary.line(args.out), file=sys.stderr)
    return summary.exit_code


def run(args: argparse.Namespace) -> int:
    if getattr(args, "batch", None):
        return run_batch_cli(args)
    from factgrain.agent.evaluator import Evaluator, run_sync
    from factgrain.agent.inputs import check_text, normalize_reference
    from factgrain.progress import stages

    text, reference, question = read_inputs(args)
    check_text(text, max_chars=args.max_chars)  # bad input fails before any model starts
    normalize_reference(reference)
    with stages("checking"):
        evaluator = Evaluator(args.model, **evaluator_kwargs(args))
        report = run_sync(evaluator.acheck(text, reference, question=question))
    emit(report, args.format, args.output)
    return 0
