"""Skip the verifier for units whose argument the reference never mentions.

QASemConsistency checks answer coverage before verifying a QA: an answer (or a fact's object /
qualifier value) absent from the reference makes the unit an extrinsic error whatever a verifier
would say. With ``skip_uncovered=True`` such items get that verdict directly (verifier
``coverage``), saving their LLM calls; the lexical coverage check is conservative, so only clear
misses (absent numbers, names, or most content words) are skipped.
"""

from __future__ import annotations

from factgrain.agent.attribute import argument_of
from factgrain.agent.coverage import is_covered
from factgrain.agent.verifiers.base import VerifyItem
from factgrain.schemas.verdicts import UnitVerdict


def split_uncovered(items: list[VerifyItem], reference: str) -> tuple[list[VerifyItem], list[UnitVerdict]]:
    """(items still to verify, verdicts for the clearly uncovered ones)."""
    keep: list[VerifyItem] = []
    decided: list[UnitVerdict] = []
    for item in items:
        arg = argument_of(item.unit, item.component.name)
        cov = is_covered(arg, reference) if arg else None
        if cov is None or cov.covered:
            keep.append(item)
            continue
        decided.append(UnitVerdict(
            unit_id=item.unit.id, component=item.component.name, probability=0.0, label="unsupported",
            verifier="coverage", error_kind="extrinsic", reason=f"not in the reference: {cov.reason}",
            features={"coverage": float(cov.score)},
        ))
    return keep, decided
