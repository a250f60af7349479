"""``factgrain eval``: run a benchmark task of the seed papers and print its tables.

Predictions are appended to OUT/predictions.jsonl as they finish; running the same command again
resumes where it stopped. OUT/report.md holds the tables, OUT/*.png the plots.
"""

from __future__ import annotations

import argparse
import sys

from factgrain.commands.check import add_cache_args, add_model_args


def add_parser(sub: argparse._SubParsersAction) -> None:
    from factgrain.evals.engines import engine_names
    from factgrain.evals.tasks import task_names

    p = sub.add_parser("eval", help="run a benchmark (paper tables) and write predictions", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", required=True, choices=task_names())
    p.add_argument("--split", default="dev", help="dev (tune here) or test (report); default dev")
    p.add_argument("--limit", type=int, help="a seeded random sample of this many dataset rows")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="output folder (default: factgrain-eval/<task>-<split>)")
    add_model_args(p)
    p.add_argument("--methods", help="comma-separated decomposition methods for the dilemmas tasks "
                                     "(default: every available one)")
    p.add_argument("--reflect", action="store_true", help="dilemmas tasks: also run every method with reflection")
    p.add_argument("--input", help="jsonl task: your JSONL file (id, text, reference, question?, label?)")
    p.add_argument("--method", default="qasem", help="jsonl and qasem-decomposer tasks: decomposition method")
    p.add_argument("--styles", default="qa,affirmative", help="qasem-table4: qa, affirmative or both")
    p.add_argument("--engine", choices=engine_names(), default="local",
                   help="what runs the predictions: local (this process) or ray (an actor pool over --endpoints)")
    p.add_argument("--endpoints", help="ray engine: comma-separated OpenAI-compatible base URLs")
    p.add_argument("--concurrency", type=int, default=4, help="predictions in flight at once (local engine)")
    p.add_argument("--threshold", type=float, default=0.5, help="P(supported) at or above which a unit is supported")
    p.add_argument("--span-mode", choices=["auto", "parse", "free"], default="auto",
                   help="parse: the offline reader writes the units; free: the model does; auto: by the model's tier")
    p.add_argument("--reflect-mode", choices=["auto", "light", "full"], default="auto",
                   help="light: one constrained judgment per flagged scope; full: errors, judgment and refinement; "
                        "auto: by the model's tier")
    p.add_argument("--aggregate", choices=["mean", "min", "harmonic"], default="harmonic",
                   help="how unit probabilities make a text-level score (dilemmas, jsonl)")
    add_cache_args(p, default=True)  # a rerun of an unchanged evaluation makes no LLM call
    p.add_argument("--retry-errors", action="store_true", help="on resume, run failed predictions again")
    p.add_argument("--no-plots", action="store_true")
    p.set_defaults(func=run)


def task_options(args: argparse.Namespace) -> dict:
    if args.task == "qasem-table4":
        return {"styles": tuple(s.strip() for s in args.styles.split(",") if s.strip())}
    if args.task.startswith("dilemmas-"):
        opts: dict = {"reflect": args.reflect}
        if args.methods:
            opts["methods"] = [m.strip() for m in args.methods.split(",") if m.strip()]
        return opts
    if args.task == "jsonl":
        return {"path": args.input, "method": args.method}
    if args.task == "qasem-decomposer":
        return {"method": args.method}
    return {}


def _matplotlib_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def run(args: argparse.Namespace) -> int:
    from factgrain.errors import ConfigurationError
    from factgrain.evals.runner import run_eval
    from factgrain.evals.tasks.base import EvalSettings

    if args.engine == "ray" and not args.endpoints:
        raise ConfigurationError("--engine ray needs --endpoints URL1,URL2 (OpenAI-compatible base URLs)")
    make_plots = not args.no_plots
    if make_plots and not _matplotlib_available():
        # Everything else is computed and written; only the pictures need the optional extra.
        print("factgrain: warning: matplotlib is not installed, plots skipped "
              "(pip install 'factgrain[plots]' to draw them)", file=sys.stderr)
        make_plots = False
    options: dict = {}
    if args.threshold != 0.5:
        options["threshold"] = args.threshold
    if args.aggregate != "harmonic":
        options["aggregate"] = args.aggregate
    for key in ("span_mode", "reflect_mode"):  # the model's tier decides unless forced (part of the fingerprint)
        if getattr(args, key, "auto") != "auto":
            options[key] = getattr(args, key)
    if getattr(args, "nli_model", None):
        options["nli_model"] = args.nli_model
    if getattr(args, "skip_uncovered", False):
        options["skip_uncovered"] = True
    from factgrain.agent.evaluator import CheckOptions, check_options

    # A bad value fails here, once, before any row runs (not as one error record per row).
    check_options({k: v for k, v in options.items() if k in CheckOptions.model_fields})
    settings = EvalSettings(model=args.model, base_url=args.base_url, api_key=args.api_key,
                            decomposer_model=args.decomposer_model, verifier_model=args.verifier_model,
                            reflector_model=args.reflector_model, verifier=args.verifier,
                            calibration=getattr(args, "calibration", None), options=options,
                            cache=args.cache, cache_dir=args.cache_dir)
    result = run_eval(
        args.task, split=args.split, limit=args.limit, seed=args.seed,
        out=args.out or f"factgrain-eval/{args.task}-{args.split}", settings=settings,
        task_options=task_options(args), engine=args.engine,
        endpoints=[u.strip() for u in (args.endpoints or "").split(",") if u.strip()],
        concurrency=args.concurrency, retry_errors=args.retry_errors, make_plots=make_plots,
    )
    sys.stdout.write(result.markdown)
    per100 = result.seconds_per_100_units
    print(f"\n{result.new_records} new predictions in {result.wall_s:.1f} s"
          + (f" ({per100:.1f} s per 100 units)" if per100 is not None else "")
          + f"; {result.total_records} in {result.out_dir / 'predictions.jsonl'}"
          + (f"; {result.errors} failed" if result.errors else ""), file=sys.stderr)
    for p in result.plots:
        print(f"plot: {p}", file=sys.stderr)
    if result.errors:
        # A failed prediction is left out of every figure: say so, with the first cause, so that a
        # table computed on what is left is never mistaken for the whole run.
        first = next(r["error"] for r in result_records(result) if "error" in r)
        everything = result.errors == result.total_records
        print(f"factgrain: {'error' if everything else 'warning'}: {result.errors} of {result.total_records} "
              f"predictions failed and are left out of the figures; the first: {first}\n"
              "(fix the cause and rerun with --retry-errors; finished predictions are kept)", file=sys.stderr)
        if everything:
            return 4
    return 0


def result_records(result) -> list[dict]:
    from factgrain.evals.store import PredictionStore

    return PredictionStore(result.out_dir / "predictions.jsonl").read()
