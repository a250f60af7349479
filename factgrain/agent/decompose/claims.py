"""Claim decomposition, the baselines of Decomposition Dilemmas.

``method=`` names:

* ``none`` - no decomposition: the text itself is the one unit (the paper's baseline).
* ``claims:none`` - the same, but with a question the response is first decontextualized (made
  readable without the question); the claim keeps the span of the whole text.
* ``claims:factscore`` - atomic facts, one piece of information each.
* ``claims:veriscore`` - verifiable claims of a sentence read with its surrounding context.
* ``claims:wice`` - sub-sentences close to the original wording.
* ``claims:n=<N>`` - the whole text into exactly N claims.

Per-sentence styles see the question and the sentences before (and, for VeriScore, after) the
one being decomposed, so claims come out self-contained (question-aware decontextualization).
A claim keeps the span of its own words when they occur in the text, else of its sentence.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, Field, ValidationInfo, create_model, field_validator

from factgrain.agent.decompose.base import Decomposer, register_decomposer, register_decomposer_family
from factgrain.agent.lint import content_words
from factgrain.agent.locate import locate
from factgrain.errors import ConfigurationError, FactgrainError
from factgrain.prompts import defuse
from factgrain.prompts.decompose_claims import (
    CLAIMS_EXACT_N,
    CLAIMS_FACTSCORE,
    CLAIMS_VERISCORE,
    CLAIMS_WICE,
    DECONTEXTUALIZE,
)
from factgrain.schemas.spans import Document, Sentence, Span
from factgrain.schemas.units import Claim

MAX_CLAIMS_PER_SENTENCE = 10
MAX_N = 20
STYLES = {"factscore": CLAIMS_FACTSCORE, "veriscore": CLAIMS_VERISCORE, "wice": CLAIMS_WICE}


class ClaimList(BaseModel):
    """The claims, each a complete, self-contained sentence."""

    claims: list[str] = Field(default_factory=list, max_length=MAX_CLAIMS_PER_SENTENCE)

    @field_validator("claims")
    @classmethod
    def _clean(cls, value: list[str], info: ValidationInfo) -> list[str]:
        out = [c.strip() for c in value if c and c.strip()]
        n = (info.context or {}).get("n")
        if n is not None and len(out) != n:
            raise ValueError(f"give exactly {n} claims, not {len(out)}")
        return out


class ExactClaims(ClaimList):
    claims: list[str] = Field(default_factory=list, max_length=MAX_N)


class Decontextualized(BaseModel):
    """The response rewritten to be understood without the question."""

    text: str = Field(max_length=4000)


def whole_text_span(doc: Document) -> Span:
    text = doc.text
    start = len(text) - len(text.lstrip())
    end = len(text.rstrip())
    return Span(start=start, end=end, text=text[start:end])


def best_sentence(claim: str, doc: Document) -> Sentence:
    """The sentence sharing most content words with the claim (the first on ties)."""
    words = set(content_words(claim))
    return max(doc.sentences, key=lambda s: (len(words & set(content_words(s.text))), -s.index))


def claim_span(claim: str, sentence: Sentence, doc: Document) -> Span:
    """The claim's own words when the text has them, else its whole sentence."""
    found = locate(claim, sentence.text, offset=sentence.start) or locate(claim, doc.text)
    return found or Span(start=sentence.start, end=sentence.end, text=sentence.text)


def make_claim(uid: str, text: str, sentence: Sentence, doc: Document, span: Span | None = None) -> Claim:
    return Claim(id=uid, sentence_index=sentence.index, chunk_index=sentence.chunk_index, text=text,
                 span=span or claim_span(text, sentence, doc))


@register_decomposer("none")
class WholeTextDecomposer(Decomposer):
    """The baseline: no decomposition, the text is the unit."""

    name: ClassVar[str] = "none"

    def __init__(self, backend: Any, *, decontextualize: bool | None = False, **options: Any):
        super().__init__(backend, **options)
        # None = automatic: rewrite when there is a question and the model can do it.
        self.decontextualize = decontextualize

    def prompt_versions(self) -> dict[str, str]:
        return {DECONTEXTUALIZE.name: DECONTEXTUALIZE.version} if self.decontextualize is not False else {}

    async def decompose(self, doc: Document) -> list[Claim]:
        if not doc.sentences:
            return []
        span = whole_text_span(doc)
        text = span.text
        wanted = self.decontextualize
        if wanted is None:
            wanted = bool(doc.question) and self.backend.provider != "embedded"
        if wanted and doc.question:
            messages = DECONTEXTUALIZE.render(question=defuse(doc.question), text=defuse(text))
            try:
                obj, _ = await self.backend.structured(messages, Decontextualized, max_tokens=2 * len(text) // 3 + 200)
                text = obj.text.strip() or text
            except FactgrainError as exc:  # the text itself is still a valid unit
                self.warnings.append(f"decontextualization failed, using the text as it is: {exc}")
        return [make_claim("s0.u0", text, doc.sentences[0], doc, span)]

    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[Claim]:  # pragma: no cover
        raise NotImplementedError("the whole text is one unit")


class SentenceClaimDecomposer(Decomposer):
    """FActScore / VeriScore / WiCE styles: each sentence into claims, with its context."""

    def __init__(self, backend: Any, *, style: str, max_claims_per_sentence: int = MAX_CLAIMS_PER_SENTENCE,
                 prompt: Any = None, **options: Any):
        super().__init__(backend, **options)
        self.style = style
        self.prompt = prompt or STYLES[style]
        self.name = f"claims:{style}"  # type: ignore[misc]
        self.prompt_names = (self.prompt.name,)  # type: ignore[misc]
        self.max_claims = max_claims_per_sentence

    def _messages(self, sentence: Sentence, doc: Document) -> list[dict[str, str]]:
        question_block = f"<question>\n{defuse(doc.question)}\n</question>\n\n" if doc.question else ""
        before = [s.text for s in doc.sentences[max(0, sentence.index - 3):sentence.index]]
        after = [s.text for s in doc.sentences[sentence.index + 1:sentence.index + 2]] if self.style == "veriscore" else []
        context = " ".join(before + (["[...]"] if after else []) + after).strip()
        context_block = f"<context>\n{defuse(context)}\n</context>\n\n" if context else ""
        return self.prompt.render(question_block=question_block, context_block=context_block,
                                  sentence=defuse(sentence.text))

    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[Claim]:
        obj, _ = await self.backend.structured(self._messages(sentence, doc), ClaimList,
                                               max_tokens=60 * self.max_claims)
        units: list[Claim] = []
        seen: set[str] = set()
        for text in obj.claims[: self.max_claims]:
            if text.lower() in seen:
                continue  # the same claim twice adds nothing
            seen.add(text.lower())
            units.append(make_claim(f"s{sentence.index}.u{len(units)}", text, sentence, doc))
        return units


class ExactNDecomposer(Decomposer):
    """The whole text into exactly N claims (the paper's complexity-scaling experiment)."""

    prompt_names: ClassVar[tuple[str, ...]] = ("claims_exact_n",)

    def __init__(self, backend: Any, *, n: int, **options: Any):
        super().__init__(backend, **options)
        if not 1 <= n <= MAX_N:
            raise ConfigurationError(f"claims:n=<N> needs 1 <= N <= {MAX_N}, got {n}")
        self.n = n
        self.name = f"claims:n={n}"  # type: ignore[misc]

    async def decompose(self, doc: Document) -> list[Claim]:
        if not doc.sentences:
            return []
        if self.n == 1:  # one claim is no decomposition
            return await WholeTextDecomposer(self.backend, decontextualize=False).decompose(doc)
        question_block = f"<question>\n{defuse(doc.question)}\n</question>\n\n" if doc.question else ""
        messages = CLAIMS_EXACT_N.render(question_block=question_block, text=defuse(doc.text), n=str(self.n))
        # The count sits in the schema too, so constrained decoding (llama.cpp, vLLM) enforces it.
        model = create_model(f"Exactly{self.n}Claims", __base__=ExactClaims,
                             claims=(list[str], Field(min_length=self.n, max_length=self.n)))
        try:
            obj, _ = await self.backend.structured(messages, model, context={"n": self.n}, max_tokens=80 * self.n)
        except FactgrainError as exc:
            self.warnings.append(f"decomposition into {self.n} claims failed: {exc}")
            return []
        units: list[Claim] = []
        for i, text in enumerate(obj.claims):
            sentence = best_sentence(text, doc)
            units.append(make_claim(f"s{sentence.index}.n{i}", text, sentence, doc))
        return units

    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[Claim]:  # pragma: no cover
        raise NotImplementedError("decomposes the whole text at once")


def claims_family(variant: str, backend: Any, **options: Any) -> Decomposer:
    options.pop("span_mode", None)  # a QA-pair option the evaluator passes to every decomposer
    if variant in STYLES:
        return SentenceClaimDecomposer(backend, style=variant, **options)
    if variant == "none":
        options.setdefault("decontextualize", None)
        dec = WholeTextDecomposer(backend, **options)
        dec.name = "claims:none"  # type: ignore[misc]
        return dec
    if variant.startswith("n="):
        try:
            n = int(variant[2:])
        except ValueError:
            raise ConfigurationError(f"claims:n=<N> needs a whole number, got {variant[2:]!r}") from None
        return ExactNDecomposer(backend, n=n, **options)
    raise ConfigurationError(f"unknown claims style {variant!r}; use claims:factscore, claims:veriscore, "
                             "claims:wice, claims:n=<N> or claims:none")


register_decomposer_family("claims", claims_family)
