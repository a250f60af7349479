"""Decomposition errors and the reflection trace (Decomposition Dilemmas, section 5).

Four categories of error a decomposition can introduce, each with named subtypes:

* A ``omission`` - missing core claims or key details; missing logical relationships (causal,
  comparative, contrastive).
* B ``ambiguity`` - vague language: pronouns without a referent, vague references to unnamed
  entities, incomplete names.
* C ``over_decomposition`` - redundant information; excessive fragmentation.
* D ``alteration`` - content that is added, fabricated or contradicts the input (e.g. a flipped
  negation).
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from factgrain.schemas.units import Unit


class ErrorCategory(str, Enum):
    omission = "omission"
    ambiguity = "ambiguity"
    over_decomposition = "over_decomposition"
    alteration = "alteration"

    @property
    def letter(self) -> str:
        return "ABCD"[list(ErrorCategory).index(self)]


SUBTYPES: dict[ErrorCategory, tuple[str, ...]] = {
    ErrorCategory.omission: ("missing_core_claim", "missing_logical_relation"),
    ErrorCategory.ambiguity: ("ambiguous_pronoun", "vague_reference", "incomplete_name"),
    ErrorCategory.over_decomposition: ("redundant_information", "excessive_fragmentation"),
    ErrorCategory.alteration: ("added_content", "contradiction"),
}

Subtype = Literal[
    "missing_core_claim", "missing_logical_relation", "ambiguous_pronoun", "vague_reference",
    "incomplete_name", "redundant_information", "excessive_fragmentation", "added_content", "contradiction",
]

Judgment = Literal["Good", "Problematic", "No need for decomposition"]
JUDGMENTS: tuple[str, ...] = ("Good", "Problematic", "No need for decomposition")


class DecompositionError(BaseModel):
    """One error found in a decomposition, by the lint (``source='lint'``) or by the model."""

    category: ErrorCategory
    subtype: Subtype
    unit_ids: list[str] = Field(default_factory=list, description="The units involved (empty: the error is about what is missing).")
    explanation: str
    source: Literal["lint", "llm"] = "lint"

    @model_validator(mode="after")
    def _subtype_fits(self) -> "DecompositionError":
        if self.subtype not in SUBTYPES[self.category]:
            raise ValueError(f"subtype {self.subtype!r} is not one of {self.category.value}: {SUBTYPES[self.category]}")
        return self

    def label(self) -> str:
        return f"{self.category.letter}/{self.subtype}"


class ReflectionRound(BaseModel):
    """One reflection on one scope (the sentences a group of units came from) in one round."""

    round: int = Field(ge=1)
    sentence_indices: list[int]
    scope_text: str
    input_units: list[Unit]
    lint: list[DecompositionError] = Field(default_factory=list)
    llm_errors: list[DecompositionError] = Field(default_factory=list)
    judgment: Judgment | None = Field(default=None, description="None when the model was not asked or failed.")
    reasoning: str | None = None
    errors: list[DecompositionError] = Field(
        default_factory=list, description="The errors this round stands on: the model's when it listed any, else "
        "the lint findings it was shown (errors_note says which, or why there are none).")
    errors_note: str = ""
    disagreement: str | None = Field(default=None, description="Set when the model judged Good although the lint "
                                     "flagged the scope: which findings it overruled.")
    proposed_units: list[Unit] = Field(default_factory=list, description="The model's refinement, as validated units.")
    output_units: list[Unit]
    action: Literal["kept", "refined", "collapsed", "rejected", "skipped", "failed"]
    reason: str = ""
    prompt_version: str | None = None

    @property
    def changed(self) -> bool:
        return self.action in ("refined", "collapsed")
