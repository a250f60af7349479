"""Every command's --help: plain text (no reStructuredText markup), the default of every option, and
only the options that apply to that command."""

from __future__ import annotations

import argparse
import re

import pytest

from factgrain.cli import build_parser

MARKUP = re.compile(r"``|:(?:func|class|meth|mod|attr|data|exc):`")


def _commands(parser: argparse.ArgumentParser, prefix: str = "factgrain") -> list[tuple[str, argparse.ArgumentParser]]:
    out = [(prefix, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _commands(sub, f"{prefix} {name}")
    return out


COMMANDS = _commands(build_parser())


def test_every_command_is_walked():
    names = {n for n, _ in COMMANDS}
    assert {"factgrain check", "factgrain eval", "factgrain calibrate", "factgrain revise", "factgrain backends",
            "factgrain serve-vllm", "factgrain data", "factgrain data list", "factgrain data fetch",
            "factgrain data path"} <= names


@pytest.mark.parametrize("name,parser", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_help_is_plain_text_with_every_default(name, parser):
    text = parser.format_help()
    assert not MARKUP.search(text), f"{name} --help shows reStructuredText markup: {MARKUP.search(text).group()}"
    formatter = parser._get_formatter()
    for action in parser._actions:
        if not action.option_strings or isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        line = formatter._expand_help(action)
        assert "default" in line.lower(), f"{name} {action.option_strings[0]}: no default in {line!r}"
        assert action.option_strings[0] in text


def test_backends_lists_only_what_it_reports_on():
    text = dict(COMMANDS)["factgrain backends"].format_help()
    for flag in ("--skip-uncovered", "--calibration", "--nli-model", "--method", "--threshold"):
        assert flag not in text
    for flag in ("--model", "--base-url", "--verifier-model", "--verifier", "--probe", "--timeout"):
        assert flag in text
    check = dict(COMMANDS)["factgrain check"].format_help()
    assert "--skip-uncovered" in check and "--calibration" in check


def test_a_default_shown_is_the_default_used():
    parser = build_parser()
    args = parser.parse_args(["eval", "--task", "qasem-table4"])
    help_text = " ".join(dict(_commands(parser))["factgrain eval"].format_help().split())  # unwrapped
    assert args.engine == "local" and "(default: local)" in help_text
    assert args.concurrency == 4 and "predictions in flight at once (local engine) (default: 4)" in help_text
