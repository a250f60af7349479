"""Verdicts: what a verifier says about one component of one unit."""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field


class VerdictStatus(str, Enum):
    scored = "scored"
    unscored = "unscored"


class Evidence(BaseModel):
    """The reference passage a verdict was based on."""

    source_id: str = "0"
    passage_index: int | None = None
    start: int | None = None
    end: int | None = None
    text: str = ""
    score: float | None = None


class UnitVerdict(BaseModel):
    """The verdict on one component of a unit.

    ``probability`` is P(supported); ``label`` is ``supported`` when it reaches the threshold.
    An ``unscored`` verdict (parse failure, transport fault after retries, missing logprobs where
    they were required) carries a ``reason`` and is left out of every aggregate.
    """

    unit_id: str
    component: str = "unit"
    status: VerdictStatus = VerdictStatus.scored
    probability: float | None = Field(default=None, ge=0.0, le=1.0)
    label: Literal["supported", "unsupported"] | None = None
    reason: str | None = None
    hard_answer_only: bool = Field(
        default=False,
        description="True when the backend gave no logprobs and the probability is the hard Yes/No.",
    )
    verifier: str = "llm"
    error_kind: Literal["intrinsic", "extrinsic"] | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    prompt: list[dict] | None = None
    raw_reply: str | None = None
    features: dict[str, float] | None = None

    @property
    def supported(self) -> bool | None:
        if self.status is not VerdictStatus.scored:
            return None
        return self.label == "supported"

    @classmethod
    def unscored_because(cls, unit_id: str, component: str, reason: str, **kw) -> "UnitVerdict":
        return cls(unit_id=unit_id, component=component, status=VerdictStatus.unscored, reason=reason, **kw)
