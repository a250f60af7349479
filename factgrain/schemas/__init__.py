"""The data that flows between stages. Field descriptions are the instructions the LLM reads."""

from factgrain.schemas.reflection import DecompositionError, ErrorCategory, ReflectionRound
from factgrain.schemas.report import SCHEMA_VERSION, Report, Scores, UnitResult, Usage
from factgrain.schemas.spans import Chunk, Document, Sentence, Span
from factgrain.schemas.units import (
    Claim,
    Component,
    HyperRelationalFact,
    PredicateType,
    QAPair,
    Qualifier,
    QualifierType,
    Unit,
)
from factgrain.schemas.verdicts import Evidence, UnitVerdict, VerdictStatus

__all__ = [
    "SCHEMA_VERSION", "Report", "Scores", "UnitResult", "Usage", "Chunk", "Document", "Sentence",
    "Span", "Claim", "Component", "HyperRelationalFact", "PredicateType", "QAPair", "Qualifier",
    "QualifierType", "Unit", "Evidence", "UnitVerdict", "VerdictStatus", "DecompositionError", "ErrorCategory",
    "ReflectionRound",
]
