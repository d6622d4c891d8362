"""Article shapes: the public blog's and the article manager's."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from agency.core.text import Line, Lines

ArticleStatus = Literal["draft", "published", "archived"]
TITLE_MAX = 200
SLUG_MAX = 200
META_DESCRIPTION_MAX = 300  # the AI is asked for under 160; a person may write more
KEYWORD_MAX = 60
KEYWORDS_MAX = 20
CONTENT_MAX = 200_000  # HTML of one article


class ArticleSummaryOut(BaseModel):
    """An article in the public list (spec §7: id, title, slug, meta_description,
    published_at)."""

    id: int
    title: str
    slug: str
    meta_description: str
    published_at: datetime


class BlogPageOut(BaseModel):
    articles: list[ArticleSummaryOut]
    page: int = Field(ge=1)
    pages: int = Field(ge=1, description="How many pages the list has (at least one).")
    total: int


class PublishedArticleOut(BaseModel):
    """A published article's page: the body is sanitised HTML."""

    id: int
    title: str
    slug: str
    meta_description: str
    keywords: list[str]
    content: str
    published_at: datetime
    updated_at: datetime


class ArticleIn(BaseModel):
    """What the article manager saves (Edit, New Article, an AI-written draft). An empty slug
    is made from the title (spec §5); a taken one gets -2, -3, ... The body is sanitised."""

    title: Line = Field(default="", max_length=TITLE_MAX)
    slug: Line = Field(default="", max_length=SLUG_MAX)
    meta_description: Line = Field(default="", max_length=META_DESCRIPTION_MAX)
    keywords: list[Annotated[Line, Field(max_length=KEYWORD_MAX)]] = Field(
        default_factory=list, max_length=KEYWORDS_MAX
    )
    content: Lines = Field(default="", max_length=CONTENT_MAX)


class ArticleOut(BaseModel):
    """An article as the article manager sees it."""

    id: int
    title: str
    slug: str
    meta_description: str
    keywords: list[str]
    content: str
    status: ArticleStatus
    created_by: int | None
    created_at: datetime
    updated_at: datetime
    published_at: datetime | None


class BlogQuery(BaseModel):
    page: int | None = Field(default=None, ge=1, description="The page, from 1 (default 1).")
