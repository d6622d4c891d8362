"""The article manager's AI shapes (issue 16): ideas, generation jobs, the AI's state."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from agency.core.text import Line

GenerationKind = Literal["ideas", "article"]
GenerationStatus = Literal["queued", "running", "done", "failed"]
TOPIC_MAX = 200


class AiStatusOut(BaseModel):
    configured: bool = Field(description="False: the manager says 'AI is not configured'.")
    model: str | None


class IdeasIn(BaseModel):
    topic: Line = Field(default="", max_length=TOPIC_MAX)


class IdeaOut(BaseModel):
    """Spec §3's generated idea: a title, a description, 3 keywords, a 3-point outline."""

    title: str
    description: str
    keywords: list[str]
    outline: list[str]


class GenerateArticleIn(BaseModel):
    """An idea to write up (the one clicked, or a title typed in the CLI)."""

    title: Line = Field(default="", max_length=200)
    description: Line = Field(default="", max_length=600)
    keywords: list[Line] = Field(default_factory=list, max_length=20)
    outline: list[Line] = Field(default_factory=list, max_length=20)


class GenerationOut(BaseModel):
    """An AI generation job's state: poll it until done or failed."""

    id: str
    kind: GenerationKind
    status: GenerationStatus
    topic: str | None
    title: str | None
    ideas: list[IdeaOut] | None = Field(description="kind ideas, once done: three ideas.")
    article_id: int | None = Field(description="kind article, once done: the saved draft.")
    created_at: datetime
    error: str | None = Field(description="The message shown in the red 'Error' box.")
