"""The admin's articles: the list with its search and status filter, writing by hand, edits,
the live preview and the status changes, all stored by the blog (`blog.api`).

Status changes (spec §4 and DECISIONS.md): Publish from a draft or from the archive (it sets
`published_at` to now); Archive from anything but the archive; back to Draft from published
or archived. Any other move answers 409 with what is possible instead.
"""

from __future__ import annotations

from typing import Literal

from tortoise.transactions import in_transaction

from agency.core.errors import Conflict, NotFound, ValidationFailed
from agency.core.sql import fits_int_id
from agency.modules.audit import api as audit_api
from agency.modules.blog import api as blog_api
from agency.modules.blog.api import ArticleStatus, BodyFormat
from agency.modules.seo.schemas import ArticleIn, ArticleOut

STATUSES: tuple[ArticleStatus, ...] = ("draft", "published", "archived")
Action = Literal["publish", "archive", "draft"]

MSG_TITLE = "Please enter a title"
MSG_STATUS_FILTER = "The status must be draft, published or archived."
MSG_NOT_FOUND = "This article does not exist."
MSG_ALREADY_PUBLISHED = "This article is already published."
MSG_ALREADY_ARCHIVED = "This article is already archived."
MSG_ALREADY_DRAFT = "This article is already a draft."
SOURCE_MAX = 100_000  # the blog's ArticleIn.source limit
MSG_SOURCE_LONG = f"The Markdown may have at most {SOURCE_MAX:,} characters."

TARGET: dict[Action, ArticleStatus] = {
    "publish": "published",
    "archive": "archived",
    "draft": "draft",
}
# What each action may start from, and what it says when it may not.
ALLOWED_FROM: dict[Action, tuple[ArticleStatus, ...]] = {
    "publish": ("draft", "archived"),
    "archive": ("draft", "published"),
    "draft": ("published", "archived"),
}
# The audit log's action for each.
AUDIT_ACTION: dict[Action, str] = {
    "publish": "article.published",
    "archive": "article.archived",
    "draft": "article.back_to_draft",
}
REFUSED: dict[Action, str] = {
    "publish": MSG_ALREADY_PUBLISHED,
    "archive": MSG_ALREADY_ARCHIVED,
    "draft": MSG_ALREADY_DRAFT,
}


def status_filter(value: str | None) -> ArticleStatus | None:
    """`?status=`: empty or 'all' for every article, else one of the three."""
    if value is None or value.strip().lower() in ("", "all"):
        return None
    value = value.strip().lower()
    for status in STATUSES:
        if value == status:
            return status
    raise ValidationFailed(MSG_STATUS_FILTER, fields={"status": MSG_STATUS_FILTER})


async def list_articles(status: str | None = None, search: str | None = None) -> list[ArticleOut]:
    """Every article (or one status's), newest first by creation; `search` matches the title
    or the slug, case-insensitively."""
    return await blog_api.list_articles(status=status_filter(status), search=search or None)


def _check_id(article_id: int) -> None:
    if not fits_int_id(article_id):
        raise NotFound(MSG_NOT_FOUND, code="article_not_found")


async def get_article(article_id: int) -> ArticleOut:
    _check_id(article_id)
    return await blog_api.get_article(article_id)


def _check_title(data: ArticleIn) -> None:
    if not data.title.strip():
        raise ValidationFailed(MSG_TITLE, fields={"title": MSG_TITLE})


async def create_article(data: ArticleIn, *, created_by: int | None) -> ArticleOut:
    """A new draft written by hand (New Article), saved with its writer's id."""
    _check_title(data)
    return await blog_api.create_article(data, created_by=created_by)


async def update_article(article_id: int, data: ArticleIn) -> ArticleOut:
    """Edit: title, slug, meta description, keywords and body (sanitised by the blog)."""
    _check_id(article_id)
    _check_title(data)
    return await blog_api.update_article(article_id, data)


async def change_status(article_id: int, action: Action, *, actor: audit_api.Actor) -> ArticleOut:
    """Publish, archive, or move back to draft (see the module docstring); written to the
    audit log by `actor` in the same transaction."""
    _check_id(article_id)
    async with in_transaction():
        article = await blog_api.get_article(article_id)
        if article.status not in ALLOWED_FROM[action]:
            raise Conflict(REFUSED[action], code="article_status")
        changed = await blog_api.set_status(article_id, TARGET[action])
        if changed.status != article.status:
            await audit_api.record(
                actor,
                AUDIT_ACTION[action],
                target_type="article",
                target_id=article_id,
                target_label=article.title,
                before={"status": article.status},
                after={"status": changed.status},
            )
    return changed


async def change_status_by_slug(slug: str, action: Action, *, actor: audit_api.Actor) -> ArticleOut:
    """The CLI's `publish|archive|draft SLUG`."""
    article = await blog_api.article_by_slug(slug.strip())
    if article is None:
        raise NotFound(f"No article has the slug '{slug.strip()}'.", code="article_not_found")
    return await change_status(article.id, action, actor=actor)


def preview(content: str) -> str:
    """The body as it will be saved and shown: sanitised."""
    return blog_api.preview_html(content)


def render(body_format: BodyFormat, body: str) -> str:
    """The body in `body_format` as it will be saved and shown (Markdown rendered, then
    sanitised): the blog's own function, so the preview and the saved article agree."""
    if body_format == "markdown" and len(body) > SOURCE_MAX:
        raise ValidationFailed(MSG_SOURCE_LONG, fields={"body": MSG_SOURCE_LONG})
    return blog_api.render_body(body_format, body)
