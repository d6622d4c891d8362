"""Article shapes: the public blog's and the article manager's."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field, field_validator

from agency.core.text import Line, Lines, QueryArgs

ArticleStatus = Literal["draft", "published", "archived"]
TITLE_MAX = 200
SLUG_MAX = 200
META_DESCRIPTION_MAX = 300  # the AI is asked for under 160; a person may write more
KEYWORD_MAX = 60
KEYWORDS_MAX = 20
CONTENT_MAX = 200_000  # HTML of one article
SOURCE_MAX = 100_000  # Markdown of one article (its HTML must still fit CONTENT_MAX)
BodyFormat = Literal["markdown", "html"]
COVER_ALT_MAX = 200
Language = Literal["en", "de"]
CallToAction = Literal["speed_test", "start"]
LANGUAGES: tuple[Language, ...] = ("en", "de")
CALLS_TO_ACTION: tuple[CallToAction, ...] = ("speed_test", "start")


class CoverOut(BaseModel):
    """An article's cover image: `url` is the size a page shows by default, `srcset` every
    size there is (widths up to 1440 px), `width` and `height` those of the largest."""

    url: str
    srcset: str
    width: int
    height: int
    alt: str


class AuthorOut(BaseModel):
    """Who wrote an article: the writing admin's name and short bio (from their profile)."""

    name: str
    bio: str


class ArticleSummaryOut(BaseModel):
    """An article in the public list (spec §7: id, title, slug, meta_description,
    published_at)."""

    id: int
    title: str
    slug: str
    meta_description: str
    published_at: datetime
    language: Language = "en"
    cover: CoverOut | None = None


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
    language: Language = "en"
    call_to_action: CallToAction = "speed_test"
    cover: CoverOut | None = None
    author: AuthorOut | None = None
    related: list[ArticleSummaryOut] = Field(
        default_factory=list,
        description="Up to two other published articles: same language first, then the most "
        "shared keywords, then the newest.",
    )


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
    body_format: BodyFormat = Field(
        default="html",
        description="markdown: `source` is the body and `content` is ignored (made from it); "
        "html: `content` is the body.",
    )
    source: Lines = Field(default="", max_length=SOURCE_MAX)
    # Absent (None): kept as they are on an edit, the defaults on a new article.
    language: Language | None = None
    call_to_action: CallToAction | None = None
    cover_alt: Line | None = Field(default=None, max_length=COVER_ALT_MAX)


class ArticlePageIn(BaseModel):
    """The article page's settings, on their own (the editor's "Article page" panel): those
    left out stay as they are."""

    language: Language | None = None
    call_to_action: CallToAction | None = None
    cover_alt: Line | None = Field(default=None, max_length=COVER_ALT_MAX)


class ArticleOut(BaseModel):
    """An article as the article manager sees it."""

    id: int
    title: str
    slug: str
    meta_description: str
    keywords: list[str]
    content: str
    body_format: BodyFormat = Field(description="How the body is edited: markdown or html.")
    source: str = Field(description="The Markdown text (markdown); empty for html.")
    status: ArticleStatus
    created_by: int | None
    created_at: datetime
    updated_at: datetime
    published_at: datetime | None
    language: Language = "en"
    call_to_action: CallToAction = "speed_test"
    cover: CoverOut | None = None
    author: AuthorOut | None = None


PAGE_MAX = 100_000
MSG_PAGE = "'page' must be a whole number from 1."


def parse_page(text: str | None) -> int:
    """`?page=` of the list: absent or empty is 1; otherwise a whole number from 1 to
    `PAGE_MAX` (ValueError with `MSG_PAGE` for anything else)."""
    if text is None or text == "":
        return 1
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        raise ValueError(MSG_PAGE)
    page = int(text)
    if not 1 <= page <= PAGE_MAX:
        raise ValueError(MSG_PAGE)
    return page


class BlogQuery(QueryArgs):
    page: int | None = Field(default=None, ge=1, description="The page, from 1 (default 1).")

    @field_validator("page", mode="before")
    @classmethod
    def _page(cls, value: object) -> object:
        return parse_page(value) if isinstance(value, str) else value


class BlogPageQuery(QueryArgs):
    """`/blog?page=`: read as it comes, a page past the list or no page at all redirects."""

    page: str | None = None
