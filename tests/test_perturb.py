"""benchmarks/perturb_offline.py: each perturbation changes what it says, and the script runs."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.perturb_offline import perturbations  # noqa: E402
from factgrain.agent.reader import parse  # noqa: E402

REFERENCE = ("Gareth Smith was elected mayor of Leeds in May 2019 with 4,200 votes. "
             "He had moved to the city from York. His rival, Anna Price, was born in Hull.")


def by_kind(sentence: str) -> dict:
    ps = perturbations(sentence, REFERENCE, parse(sentence), parse(REFERENCE), random.Random(0))
    return {p.kind: p for p in ps}


def test_numbers_years_months_names_and_negation_are_changed_where_they_stand():
    sentence = "Gareth Smith was elected mayor of Leeds in May 2019 with 4,200 votes."
    got = by_kind(sentence)
    assert set(got) == {"number", "year", "month", "person", "place", "negation"}
    assert "8403 votes" in got["number"].text and "4,200" not in got["number"].text
    assert "2022" in got["year"].text
    assert "May" not in got["month"].text
    assert got["person"].text.startswith("Anna Price was elected")
    assert got["place"].text[got["place"].start:got["place"].end] in ("York", "Hull")
    assert got["negation"].text.startswith("Gareth Smith was not elected")
    neg = got["negation"]
    assert neg.text[neg.negated_verb[0]:neg.negated_verb[1]] == "elected"


def test_a_value_the_reference_already_has_is_not_used():
    # 2 seats would become 2 * 2 + 3 = 7, which the reference has: no number is changed then
    sentence, reference = "The party won 2 seats.", "The party won 7 seats in the election."
    ps = perturbations(sentence, reference, parse(sentence), parse(reference), random.Random(0))
    assert "number" not in {p.kind for p in ps}


@pytest.mark.slow
def test_the_script_prints_a_row_per_kind():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "perturb_offline.py"), "--articles", "4"],
                         capture_output=True, text=True, check=True, timeout=600, cwd=ROOT).stdout
    kinds = {line.split("|")[1].strip() for line in out.splitlines() if line.startswith("| ")}
    assert {"unchanged", "negation"} <= kinds


def test_a_year_swap_takes_another_year_the_reference_names():
    reference = "She joined the firm in 2004. In 2011 she became its director, a post she held until 2016."
    sentence = "In 2011 she became its director."
    ps = {p.kind: p for p in perturbations(sentence, reference, parse(sentence), parse(reference), random.Random(0))}
    swap = ps["year swap"]
    assert swap.text[swap.start:swap.end] in ("2004", "2016") and "2011" not in swap.text
    # the moved year is one the reference lacks; the swapped one is one it has
    assert ps["year"].text[ps["year"].start:ps["year"].end] == "2014"
