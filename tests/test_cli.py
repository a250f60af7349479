import subprocess
import sys

import pytest

from factgrain.cli import main


def run(args, **kw):
    return subprocess.run([sys.executable, "-m", "factgrain", *args], capture_output=True, text=True, timeout=120, **kw)


@pytest.fixture
def files(tmp_path):
    t = tmp_path / "text.txt"
    r = tmp_path / "ref.txt"
    t.write_text("The council approved the budget.")
    r.write_text("The council approved the budget on Tuesday.")
    return t, r


@pytest.mark.parametrize("setup,msg", [
    (lambda t, r: t.write_text(""), "text is empty"),
    (lambda t, r: t.write_text("  \n "), "text is empty"),
    (lambda t, r: r.write_text(""), "reference is empty"),
    (lambda t, r: t.write_bytes(b"caf\xe9 \xff\xfe"), "not valid UTF-8"),
    (lambda t, r: t.write_text("word " * 220_000), "the limit is"),
    (lambda t, r: t.unlink(), "file not found"),
])
def test_bad_input_exits_with_one_line(files, setup, msg):
    t, r = files
    setup(t, r)
    proc = run(["check", str(t), str(r), "--model", "scripted/x"])
    assert proc.returncode == 2, proc.stderr
    assert msg in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_configuration_error_exit_code(files):
    t, r = files
    proc = run(["check", str(t), str(r), "--model", "nonsense"])
    assert proc.returncode == 3 and "provider" in proc.stderr and "Traceback" not in proc.stderr


def test_missing_reference_argument(files, capsys):
    t, _ = files
    assert main(["check", str(t)]) == 2
    assert "no reference" in capsys.readouterr().err


def test_help_lists_check():
    proc = run(["--help"])
    assert proc.returncode == 0 and "check" in proc.stdout
