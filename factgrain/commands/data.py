"""factgrain data: the benchmark files the eval and calibrate commands read.

list shows every file with its public source (repository at a pinned commit, paths), license, size
and the sha256 of the normalized file; fetch downloads the sources, normalizes them to the shared
JSONL shape, verifies the sha256 and writes NAME.jsonl.gz into FACTGRAIN_DATA_DIR or the user cache
folder (~/.cache/factgrain/data); path prints that folder.
"""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("data", help="list, fetch and locate the benchmark data", description=__doc__)
    dsub = p.add_subparsers(dest="data_command", metavar="ACTION", required=True)
    ls = dsub.add_parser("list", help="every benchmark file: source, license, size, sha256",
                     description="Every benchmark file with its source, license, size and sha256.")
    ls.add_argument("--format", choices=["text", "json"], default="text", help="output format")
    ls.set_defaults(func=run_list)
    fe = dsub.add_parser("fetch", help="download, normalize and verify a benchmark file",
                     description="Download a benchmark's sources at the pinned commit, normalize them, verify "
                                 "the sha256 and write NAME.jsonl.gz (atomically: nothing is left half-written).")
    fe.add_argument("name", help="a dataset name from 'factgrain data list', or all")
    fe.add_argument("--dest", help="folder to write into (default: FACTGRAIN_DATA_DIR, else ~/.cache/factgrain/data)")
    fe.add_argument("--base-url", help="where the sources are served (default: FACTGRAIN_DATA_BASE_URL, "
                                       "else https://raw.githubusercontent.com)")
    fe.add_argument("--retries", type=int, default=3, help="resume a dropped download this many times")
    fe.set_defaults(func=run_fetch)
    pa = dsub.add_parser("path", help="print the folder fetch writes into",
                     description="Print the folder fetch writes into; the folder the harness reads now goes to "
                                 "standard error.")
    pa.set_defaults(func=run_path)


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def run_list(args: argparse.Namespace) -> int:
    from factgrain.evals.catalog import CATALOG
    from factgrain.evals.fetch import default_dest, local_status

    dest = default_dest()
    rows = [{"name": d.name, "rows": d.rows, "splits": d.splits, "size_bytes": d.size, "sha256": d.sha256,
             "license": d.license, "repository": d.repo, "commit": d.commit, "paths": list(d.paths),
             "fetch": "yes" if d.fetchable else f"not yet: {d.missing}", "downloads": list(d.fetched_paths),
             "local": local_status(d, dest)}
            for d in CATALOG.values()]
    if args.format == "json":
        sys.stdout.write(json.dumps({"dest": str(dest), "datasets": rows}, indent=2) + "\n")
        return 0
    print(f"fetch writes into {dest}")
    for r in rows:
        print(f"\n{r['name']}: {r['rows']:,} rows ({r['splits']}), {_size(r['size_bytes'])} normalized JSONL, "
              f"{r['local']} there")
        print(f"  source   {r['repository']} @ {r['commit']}")
        print(f"  paths    {', '.join(r['paths'])}")
        print(f"  license  {r['license']}")
        print(f"  sha256   {r['sha256']}")
        reads = f" (downloads {', '.join(r['downloads'])})" if r["fetch"] == "yes" and r["downloads"] != r["paths"] else ""
        print(f"  fetch    {r['fetch']}{reads}")
    return 0


def run_fetch(args: argparse.Namespace) -> int:
    from factgrain.evals.fetch import fetch

    def done(ds, path) -> None:
        print(f"{ds.name}: {ds.rows:,} rows, sha256 verified -> {path}", file=sys.stderr)

    paths = fetch(args.name, dest=args.dest, base=args.base_url, retries=args.retries, on_done=done)
    for p in paths:
        print(str(p))
    return 0


def run_path(args: argparse.Namespace) -> int:
    from factgrain.evals.datasets import DataDirNotFoundError, data_dir
    from factgrain.evals.fetch import default_dest

    print(str(default_dest()))
    try:
        print(f"the harness reads {data_dir()}", file=sys.stderr)
    except DataDirNotFoundError as exc:
        print(f"the harness finds no data yet: {exc}", file=sys.stderr)
    return 0
