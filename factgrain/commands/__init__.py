"""CLI subcommands, one module each: ``add_parser(subparsers)`` and ``run(args) -> int``."""

COMMANDS = ["check", "eval", "calibrate", "revise", "backends", "serve_vllm", "data"]
