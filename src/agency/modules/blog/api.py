"""What other modules may use of the blog: the article storage the article manager (`seo`)
works on, and the published articles for the sitemap (`content`). Everything here hands out
schemas (`agency.modules.blog.schemas`), never ORM rows; unknown ids raise
`agency.core.errors.NotFound`, bad input `ValidationFailed` with a message for people."""

from __future__ import annotations

from datetime import datetime

from agency.modules.blog.schemas import ArticleIn, ArticleOut, ArticleStatus, BodyFormat
from agency.modules.blog.service import articles, markdown, public
from agency.modules.blog.service.sanitise import sanitise

__all__ = [
    "ArticleIn",
    "ArticleOut",
    "ArticleStatus",
    "BodyFormat",
    "article_by_slug",
    "create_article",
    "get_article",
    "list_articles",
    "preview_html",
    "published_for_sitemap",
    "render_body",
    "set_status",
    "slugify",
    "update_article",
]

slugify = articles.slugify


async def list_articles(
    status: ArticleStatus | None = None, search: str | None = None
) -> list[ArticleOut]:
    """Every article (or one status's), newest first by creation; `search` matches the title
    or the slug, case-insensitively."""
    return await articles.list_articles(status=status, search=search)


async def get_article(article_id: int) -> ArticleOut:
    """The article with this id (NotFound when there is none)."""
    return await articles.get_article(article_id)


async def article_by_slug(slug: str) -> ArticleOut | None:
    """The article at this slug, whatever its status, or None."""
    return await articles.article_by_slug(slug)


async def create_article(data: ArticleIn, *, created_by: int | None) -> ArticleOut:
    """Save a new draft (empty slug: from the title; a taken slug gets -2, -3, ...; the body
    is sanitised)."""
    return await articles.create_article(data, created_by=created_by)


async def update_article(article_id: int, data: ArticleIn) -> ArticleOut:
    """Edit an article; a published article's old slug keeps working as a redirect."""
    return await articles.update_article(article_id, data)


async def set_status(article_id: int, status: str) -> ArticleOut:
    """draft | published | archived. Publishing sets published_at to now; draft and archived
    keep it. Any other status: ValidationFailed."""
    return await articles.set_status(article_id, status)


def preview_html(content: str) -> str:
    """The body as it will be saved and shown: sanitised."""
    return sanitise(content)


def render_body(body_format: BodyFormat, body: str) -> str:
    """The body as it will be saved and shown: Markdown rendered with markdown-it-py then
    sanitised, or HTML sanitised (the function saving uses)."""
    return markdown.render_body(body_format, body)


async def published_for_sitemap() -> list[tuple[str, datetime]]:
    """(slug, last change) of every published article."""
    return await public.published_for_sitemap()
