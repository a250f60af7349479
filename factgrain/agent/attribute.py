"""Attribution: tell extrinsic errors (the argument is nowhere in the reference) from intrinsic
ones (the reference mentions it, but says something else) - QASemConsistency's coverage step."""

from __future__ import annotations

from factgrain.agent.coverage import is_covered
from factgrain.schemas.report import UnitResult
from factgrain.schemas.units import Claim, HyperRelationalFact, QAPair, Unit
from factgrain.schemas.verdicts import VerdictStatus


def argument_of(unit: Unit, component: str) -> str | None:
    """The entity a component asserts: a QA's answer, a fact's object or qualifier value."""
    if isinstance(unit, QAPair):
        return unit.answer
    if isinstance(unit, HyperRelationalFact):
        if component.startswith("qualifier:"):
            i = int(component.split(":")[1])
            return unit.qualifiers[i].value if i < len(unit.qualifiers) else None
        return unit.object
    if isinstance(unit, Claim):
        return None  # a whole claim has no single argument to look for
    return None


def classify_errors(results: list[UnitResult], reference: str) -> None:
    """Set ``error_kind`` on every unsupported verdict (in place)."""
    for result in results:
        for verdict in result.verdicts:
            if verdict.status is not VerdictStatus.scored or verdict.label != "unsupported":
                continue
            arg = argument_of(result.unit, verdict.component)
            if not arg:
                verdict.error_kind = "intrinsic"
                continue
            verdict.error_kind = "intrinsic" if is_covered(arg, reference).covered else "extrinsic"
