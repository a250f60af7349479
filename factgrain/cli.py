"""The ``factgrain`` command. Subcommands live in ``factgrain.commands``, one module each."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

from factgrain._version import __version__
from factgrain.commands import COMMANDS
from factgrain.commands.help import Parser
from factgrain.errors import FactgrainError


def build_parser() -> argparse.ArgumentParser:
    # Parser: plain-text help with every option's default, passed on to each subcommand's parser
    parser = Parser(prog="factgrain", description="Find where a generated text is not supported by its sources.")
    parser.add_argument("--version", action="version", version=f"factgrain {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"factgrain.commands.{name}").add_parser(sub)
    return parser


def _quiet_libraries() -> None:
    """instructor logs every retried attempt at ERROR; the CLI reports outcomes itself.
    FACTGRAIN_DEBUG=1 keeps the libraries' logs."""
    if not os.environ.get("FACTGRAIN_DEBUG"):
        for name in ("instructor", "httpx", "openai"):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def main(argv: list[str] | None = None) -> int:
    _quiet_libraries()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except FactgrainError as exc:
        print(f"factgrain: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("factgrain: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
