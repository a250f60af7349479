"""LLM verifier: P(supported) = P("Yes") from the first token's top logprobs, normalised over
the Yes/No variants (QASemConsistency's scoring)."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from factgrain.agent.verifiers.base import Verifier, VerifyItem
from factgrain.backends.base import Backend
from factgrain.prompts import VERIFY, defuse
from factgrain.schemas.verdicts import UnitVerdict

YES = {"yes", "y", "true", "supported"}
NO = {"no", "n", "false", "unsupported", "not"}
TOP_LOGPROBS = 20


def _norm(token: str) -> str:
    return token.strip().strip(".,:;!\"'*_`").lower()


def p_yes(top: dict[str, float]) -> float | None:
    """P(Yes) / (P(Yes) + P(No)) summed over token variants ('Yes', ' yes', 'YES'...), or None
    when neither appears among the top tokens."""
    yes = sum(math.exp(lp) for tok, lp in top.items() if _norm(tok) in YES)
    no = sum(math.exp(lp) for tok, lp in top.items() if _norm(tok) in NO)
    if yes + no == 0.0:
        return None
    return yes / (yes + no)


def hard_answer(text: str) -> float | None:
    word = _norm(text.split()[0]) if text.split() else ""
    if word in YES:
        return 1.0
    if word in NO:
        return 0.0
    return None


class LLMVerifier(Verifier):
    name: ClassVar[str] = "llm"
    prompt_names: ClassVar[tuple[str, ...]] = ("verify",)

    def __init__(self, backend: Backend, *, prompt: Any = None, keep_prompts: bool = True, **options: Any):
        options.setdefault("max_connections", backend.max_connections)
        super().__init__(**options)
        self.backend = backend
        self.prompt = prompt or VERIFY
        self.keep_prompts = keep_prompts

    def describe(self) -> str:
        return f"llm:{self.backend.name}"

    def messages(self, item: VerifyItem) -> list[dict[str, str]]:
        return self.prompt.render(
            reference=defuse(item.evidence_text),
            sentence=defuse(item.sentence),
            statement=defuse(item.component.statement),
        )

    async def verify_item(self, item: VerifyItem) -> UnitVerdict:
        messages = self.messages(item)
        result = await self.backend.chat(messages, max_tokens=1, temperature=0.0,
                                         top_logprobs=TOP_LOGPROBS, choices=["Yes", "No"])
        common: dict[str, Any] = dict(
            unit_id=item.unit.id, component=item.component.name, verifier=self.name,
            evidence=item.evidence, raw_reply=result.text,
            prompt=messages if self.keep_prompts else None,
        )
        prob = p_yes(result.top_logprobs[0]) if result.top_logprobs else None
        hard = False
        if prob is None:
            prob = hard_answer(result.text)
            hard = prob is not None
            if prob is None:
                reason = "reply was not Yes/No" if result.top_logprobs is None else "no Yes/No token among the top logprobs"
                return UnitVerdict.unscored_because(reason=f"{reason}: {result.text[:40]!r}", **common)
        return UnitVerdict(probability=prob, label=self.label(prob), hard_answer_only=hard, **common)
