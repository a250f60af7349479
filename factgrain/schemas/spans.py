"""Character spans that tie every unit back to the evaluated text."""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator


class Span(BaseModel):
    """A half-open character range ``[start, end)`` of the evaluated text, with its text."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str

    @model_validator(mode="after")
    def _ordered(self) -> "Span":
        if self.end < self.start:
            raise ValueError(f"span end {self.end} is before start {self.start}")
        if self.end - self.start != len(self.text):
            raise ValueError("span text length does not match its offsets")
        return self

    def shifted(self, offset: int) -> "Span":
        return Span(start=self.start + offset, end=self.end + offset, text=self.text)


class Sentence(BaseModel):
    """One sentence of the evaluated text; ``chunk_index`` says which chunk it belongs to."""

    index: int
    start: int
    end: int
    text: str
    chunk_index: int = 0


class Chunk(BaseModel):
    """A piece of a long text, decomposed with the previous chunk as context."""

    index: int
    start: int
    end: int
    text: str
    sentence_indices: list[int] = Field(default_factory=list)


class Document(BaseModel):
    """The evaluated text after segmentation."""

    text: str
    question: str | None = None
    sentences: list[Sentence]
    chunks: list[Chunk]
