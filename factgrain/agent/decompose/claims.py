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
from factgrain.errors import ConfigurationError, FactgrainError, StructuredOutputError
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
        c = info.context if isinstance(info.context, dict) else {}
        out = [x.strip() for x in value if x and x.strip()]
        sentence = c.get("sentence")
        if sentence is not None:
            kept, problems = [], []
            for claim in out:
                problem = ungrounded(claim, sentence, c.get("background", ""))
                if problem:
                    problems.append(problem)
                elif not any(near_duplicate(claim, k) for k in kept):
                    kept.append(claim)
            if not kept and (out or c.get("require")):
                raise ValueError("; ".join(list(dict.fromkeys(problems))[:4] or ["the reply lists no claim, but the sentence states something"])
                                 + ". Give at least one claim, stating only what the sentence itself says, in its words.")
            c.setdefault("dropped", []).extend(problems)
            out = kept
        n = c.get("n")
        if n is not None and len(out) != n:
            raise ValueError(f"give exactly {n} claims, not {len(out)}")
        return out


def ungrounded(claim: str, sentence: str, background: str = "") -> str | None:
    """Why a claim is not grounded in its sentence (None when it is): it must share a content word
    with the sentence, and add no number or name and few other words that neither the sentence nor
    its context / question has (which rules out the prompt's example and invented definitions
    such as 'May is a month in the year.')."""
    from factgrain.agent.lint import ADDED_SHARE, _mentioned, content_words

    words = list(dict.fromkeys(content_words(claim)))
    if not words:
        return f"the claim {claim!r} states nothing"
    own = set(content_words(sentence))
    known = own | set(content_words(background))
    if not any(_mentioned(w, own) for w in words):
        return f"the claim {claim!r} shares no word with the sentence; state what the sentence says"
    novel = [w for w in words if not _mentioned(w, known)]
    names = [w for w in novel if w[0].isdigit() or any(t.lower() == w and t[:1].isupper() for t in claim.split()[1:])]
    if names or len(novel) / len(words) > ADDED_SHARE:
        shown = ", ".join(repr(w) for w in (names or novel)[:4])
        return f"the claim {claim!r} adds {shown}, which the sentence does not say; state only what it says"
    return None


def near_duplicate(a: str, b: str, threshold: float = 0.8) -> bool:
    """Two claims with (nearly) the same content words."""
    from factgrain.agent.lint import content_words

    wa, wb = set(content_words(a)), set(content_words(b))
    return bool(wa and wb) and len(wa & wb) / len(wa | wb) >= threshold


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
                 prompt: Any = None, fallback: bool | None = None, **options: Any):
        super().__init__(backend, **options)
        self.style = style
        self.prompt = prompt or STYLES[style]
        self.name = f"claims:{style}"  # type: ignore[misc]
        self.prompt_names = (self.prompt.name,)  # type: ignore[misc]
        self.max_claims = max_claims_per_sentence
        if fallback is None:  # a sentence the model cannot decompose becomes its own claim (small models)
            from factgrain.agent.tiers import choose

            fallback = choose(backend, span_mode="free").fallback
        self.fallback = fallback
        self.sentence_sources: dict[int, str] = {}
        self.empty_reasons: dict[int, str] = {}
        self.dropped: list[str] = []

    def _context(self, sentence: Sentence, doc: Document) -> tuple[list[str], list[str]]:
        before = [s.text for s in doc.sentences[max(0, sentence.index - 3):sentence.index]]
        after = [s.text for s in doc.sentences[sentence.index + 1:sentence.index + 2]] if self.style == "veriscore" else []
        return before, after

    def _messages(self, sentence: Sentence, doc: Document) -> list[dict[str, str]]:
        question_block = f"<question>\n{defuse(doc.question)}\n</question>\n\n" if doc.question else ""
        before, after = self._context(sentence, doc)
        context = " ".join(before + (["[...]"] if after else []) + after).strip()
        context_block = f"<context>\n{defuse(context)}\n</context>\n\n" if context else ""
        return self.prompt.render(question_block=question_block, context_block=context_block,
                                  sentence=defuse(sentence.text))

    async def decompose_sentence(self, sentence: Sentence, doc: Document) -> list[Claim]:
        from factgrain.agent.decompose import context as ctx

        if not ctx.has_content(sentence.text):
            self.sentence_sources[sentence.index] = "no content"
            return []
        before, after = self._context(sentence, doc)
        check: dict[str, Any] = {"sentence": sentence.text, "background": " ".join([*before, *after, doc.question or ""]),
                                 # VeriScore leaves out what cannot be checked: an empty list can be right
                                 "require": self.style != "veriscore"}
        try:
            obj, _ = await self.backend.structured(self._messages(sentence, doc), ClaimList, context=check,
                                                   max_tokens=min(60 * self.max_claims, 160 + 12 * len(sentence.text.split())))
        except StructuredOutputError as exc:
            if not self.fallback:
                raise
            self.sentence_sources[sentence.index] = "fallback"
            self.warnings.append(f"sentence {sentence.index} ({ctx._quote(sentence.text)}): the model gave no grounded "
                                 f"claim ({' '.join(str(exc).split())[:160]}); the sentence itself is the claim")
            return [make_claim(f"s{sentence.index}.u0", sentence.text.strip(), sentence, doc)]
        self.dropped.extend(check.get("dropped", []))
        units: list[Claim] = []
        for text in obj.claims[: self.max_claims]:
            units.append(make_claim(f"s{sentence.index}.u{len(units)}", text, sentence, doc))
        self.sentence_sources[sentence.index] = "model" if units else "none"
        if not units:
            self.empty_reasons[sentence.index] = "the model found no verifiable claim in it"
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
            obj, _ = await self.backend.structured(messages, model, context={"n": self.n, "sentence": doc.text,
                                                                             "background": doc.question or ""},
                                                   max_tokens=80 * self.n)
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
    if variant not in STYLES:
        options.pop("fallback", None)  # only the per-sentence styles fall back
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
