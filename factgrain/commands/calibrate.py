"""``factgrain calibrate``: fit a decision threshold and a fusion of verifier signals on a dev
split for one backend/model, and save it as a named profile (``check --calibration NAME``)."""

from __future__ import annotations

import argparse
import sys

from factgrain.errors import ConfigurationError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="fit a calibration profile on a dev split", description=__doc__)
    p.add_argument("--task", default="qasem-table4", help="qasem-table4 (qasem_consistency_qa, one row per QA)")
    p.add_argument("--split", default="dev", help="dev (test is refused: it is for reporting)")
    p.add_argument("--model", help="provider/model whose P(Yes) is calibrated, or nli/<dir>")
    p.add_argument("--verifier", choices=["llm", "nli", "lexical", "fused"], default=None,
                   help="which verifier's signals to calibrate (default: fused = llm + lexical [+ nli])")
    p.add_argument("--signals", help="comma-separated signal families to fuse: llm,nli,lexical")
    p.add_argument("--nli-model", help="local NLI model directory for the nli signal")
    p.add_argument("--limit", type=int, help="calibrate on a seeded sample of this many rows")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--name", required=True, help="profile name (saved under $FACTGRAIN_HOME/profiles)")
    p.add_argument("--out", help="write the profile JSON here instead")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from factgrain.calibration import save_profile
    from factgrain.evals import calibrate as C
    from factgrain.agent.evaluator import run_sync

    if args.split == "test":
        raise ConfigurationError("calibration never fits on test: use --split dev (test is for reporting)")
    model, nli_model, verifier = args.model, args.nli_model, args.verifier
    if model and model.startswith("nli/"):
        nli_model, model = model[len("nli/"):], None
        verifier = verifier or "nli"
    families = C.families_for(verifier, signals=args.signals, nli_model=nli_model)
    profile = run_sync(C.calibrate(args.task, args.split, name=args.name, families=families, model=model,
                                   nli_model=nli_model, limit=args.limit, seed=args.seed))
    path = save_profile(profile, args.out)
    m = profile.meta
    print(f"profile {profile.name!r} ({'+'.join(families)}{', ' + profile.model if profile.model else ''}): "
          f"{m['n']} {args.split} rows, out-of-fold AUC {m['dev_oof_auc']:.3f}, BAcc {m['dev_oof_bacc']:.3f} "
          f"at threshold {profile.threshold:.3f}", file=sys.stderr)
    print(str(path))
    return 0
