"""The article manager's AI shapes: ideas, generation jobs, the AI's state."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from agency.core.text import Line, Lines, ListQuery
from agency.modules.blog.api import ArticleIn, ArticleOut, BodyFormat

__all__ = [
    "AiStatusOut",
    "ArticleIn",
    "ArticleList",
    "ArticleOut",
    "ArticlesQuery",
    "BodyPreviewIn",
    "GenerateArticleIn",
    "GenerationOut",
    "IdeaOut",
    "IdeasIn",
    "PreviewIn",
    "PreviewOut",
]

GenerationKind = Literal["ideas", "article"]
GenerationStatus = Literal["queued", "running", "done", "failed"]
TOPIC_MAX = 200
KEYWORD_MAX = 60  # the blog's limit for one keyword
POINT_MAX = 200
Keyword = Annotated[Line, Field(max_length=KEYWORD_MAX)]
OutlinePoint = Annotated[Line, Field(max_length=POINT_MAX)]


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
    keywords: list[Keyword] = Field(default_factory=list, max_length=20)
    outline: list[OutlinePoint] = Field(default_factory=list, max_length=20)


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


# The article manager's article shapes are the blog's (`blog.api`); listed here so the routes
# take every shape from their own module's schemas.
CONTENT_MAX = 200_000  # the blog's ArticleIn.content limit
SEARCH_MAX = 200


MSG_SEARCH = f"The search may have at most {SEARCH_MAX} characters, on one line."


class ArticlesQuery(ListQuery):
    """`GET /api/admin/articles` filters."""

    SEARCH_MAX = SEARCH_MAX
    MSG_SEARCH = MSG_SEARCH

    status: Line | None = Field(
        default=None, max_length=16, description="draft, published or archived; empty: all."
    )
    q: Line | None = Field(
        default=None,
        max_length=SEARCH_MAX,
        description="Matches the title or the slug, case-insensitively.",
    )


class ArticleList(BaseModel):
    articles: list[ArticleOut]


class PreviewIn(BaseModel):
    # Required: a body without it (or with other keys only) is a mistake, not an empty preview.
    content: Lines = Field(max_length=CONTENT_MAX)


class BodyPreviewIn(BaseModel):
    """`POST /api/admin/blog/preview`: a body in Markdown or in HTML."""

    format: BodyFormat
    # Required, like PreviewIn's content. The longer of the two limits: a Markdown body has
    # the blog's source limit, an HTML one its content limit (checked in the route).
    body: Lines = Field(max_length=CONTENT_MAX)


class PreviewOut(BaseModel):
    html: str = Field(description="The body as it will be saved and shown: sanitised.")
