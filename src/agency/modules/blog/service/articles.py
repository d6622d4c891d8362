"""The article manager's storage: articles with unique slugs, their status, and the old
addresses of published articles whose slug changed.

Status rule: a new article is a draft. Publishing sets `published_at` to now (spec §4); moving
a published article back to draft or to the archive keeps `published_at` (it records when the
article was last published; a later Publish sets it to that moment).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from tortoise.exceptions import IntegrityError
from tortoise.expressions import Q
from tortoise.transactions import in_transaction

from agency.core.errors import NotFound, ValidationFailed
from agency.core.sql import fits_int_id
from agency.modules.auth import api as auth_api
from agency.modules.blog.models import Article, SlugRedirect
from agency.modules.blog.schemas import (
    KEYWORD_MAX,
    KEYWORDS_MAX,
    SLUG_MAX,
    ArticleIn,
    ArticleOut,
    ArticlePageIn,
    ArticleStatus,
    AuthorOut,
)
from agency.modules.blog.service import covers
from agency.modules.blog.service.markdown import render_body
from agency.modules.blog.service.sanitise import sanitise

STATUSES: tuple[ArticleStatus, ...] = ("draft", "published", "archived")
MSG_TITLE = "Please enter a title"
MSG_NOT_FOUND = "This article does not exist."
MSG_STATUS = "The status must be draft, published or archived."
MSG_KEYWORD_LONG = f"A keyword may have at most {KEYWORD_MAX} characters."
MSG_KEYWORDS_MANY = f"An article may have at most {KEYWORDS_MAX} keywords."
FALLBACK_SLUG = "article"
# Room left in the column for a "-NNNN" suffix.
_SLUG_STEM_MAX = SLUG_MAX - 8
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(title: str) -> str:
    """Spec §5: the title lower-cased, every run of non-alphanumerics one hyphen, no leading or
    trailing hyphen ("Hello, World!" -> "hello-world"). Letters are ASCII's, so an address is
    plain ASCII; a title without any gives "article". Cut to fit the column with its suffix."""
    slug = _NON_ALNUM.sub("-", title.lower()).strip("-")
    slug = slug[:_SLUG_STEM_MAX].rstrip("-")
    return slug or FALLBACK_SLUG


async def author_of(user_id: int | None) -> AuthorOut | None:
    """The writer's name and bio, as the article page shows them, or None (no writer any more,
    or one without a name: the page then names no author)."""
    if user_id is None:
        return None
    account = await auth_api.get_account(user_id)
    if account is None or not account.full_name:
        return None
    return AuthorOut(name=account.full_name, bio=account.bio)


async def with_author(article: Article) -> ArticleOut:
    """The admin API's article, with its author (see `author_of`)."""
    return out(article, author=await author_of(article.created_by))


def out(article: Article, *, author: AuthorOut | None = None) -> ArticleOut:
    return ArticleOut(
        id=article.id,
        title=article.title,
        slug=article.slug,
        meta_description=article.meta_description,
        keywords=list(article.keywords or []),
        content=sanitise(article.content),
        body_format="markdown" if article.body_format == "markdown" else "html",
        source=article.source if article.body_format == "markdown" else "",
        status=article.status,
        created_by=article.created_by,
        created_at=article.created_at,
        updated_at=article.updated_at,
        published_at=article.published_at,
        language="de" if article.language == "de" else "en",
        call_to_action="start" if article.call_to_action == "start" else "speed_test",
        cover=covers.cover_out(
            article.cover_key, article.cover_width, article.cover_height, article.cover_alt
        ),
        author=author,
    )


def page_fields(data: ArticleIn | ArticlePageIn) -> dict[str, Any]:
    """The article page's settings an edit gives (language, call to action, cover alt text):
    those left out stay as they are."""
    fields: dict[str, Any] = {}
    if data.language is not None:
        fields["language"] = data.language
    if data.call_to_action is not None:
        fields["call_to_action"] = data.call_to_action
    if data.cover_alt is not None:
        fields["cover_alt"] = " ".join(data.cover_alt.split())
    return fields


def _clean_keywords(keywords: list[str]) -> list[str]:
    seen: set[str] = set()
    cleaned: list[str] = []
    for keyword in keywords:
        word = " ".join(keyword.split())
        if not word or word.casefold() in seen:
            continue
        if len(word) > KEYWORD_MAX:
            raise ValidationFailed(MSG_KEYWORD_LONG, fields={"keywords": MSG_KEYWORD_LONG})
        seen.add(word.casefold())
        cleaned.append(word)
    if len(cleaned) > KEYWORDS_MAX:
        raise ValidationFailed(MSG_KEYWORDS_MANY, fields={"keywords": MSG_KEYWORDS_MANY})
    return cleaned


def _clean(data: ArticleIn) -> tuple[str, str, str, list[str], str]:
    title = " ".join(data.title.split())
    if not title:
        raise ValidationFailed(MSG_TITLE, fields={"title": MSG_TITLE})
    stem = slugify(data.slug) if data.slug.strip() else slugify(title)
    description = " ".join(data.meta_description.split())
    return (
        title,
        stem,
        description,
        _clean_keywords(list(data.keywords)),
        render_body(
            data.body_format, data.source if data.body_format == "markdown" else data.content
        ),
    )


def _source(data: ArticleIn) -> str:
    """The Markdown text kept with the article (empty for an HTML body)."""
    return data.source if data.body_format == "markdown" else ""


async def _free_slug(stem: str, *, article_id: int | None) -> str:
    """`stem`, or `stem-2`, `stem-3`, ... : the first no other article has."""
    rows = await Article.filter(Q(slug=stem) | Q(slug__startswith=f"{stem}-")).exclude(
        id=article_id or 0
    )
    taken = {row.slug for row in rows}
    if stem not in taken:
        return stem
    n = 2
    while f"{stem}-{n}" in taken:
        n += 1
    return f"{stem}-{n}"


async def list_articles(
    status: ArticleStatus | None = None, search: str | None = None
) -> list[ArticleOut]:
    """Every article (or those of one status), newest first by creation; `search` matches the
    title or the slug, case-insensitively."""
    query = Article.all()
    if status is not None:
        query = query.filter(status=status)
    if search and search.strip():
        term = search.strip()
        query = query.filter(Q(title__icontains=term) | Q(slug__icontains=term))
    rows = await query.order_by("-created_at", "-id")
    authors = {w: await author_of(w) for w in {a.created_by for a in rows}}
    return [out(a, author=authors[a.created_by]) for a in rows]


async def _get(article_id: int) -> Article:
    article = await Article.get_or_none(id=article_id) if fits_int_id(article_id) else None
    if article is None:
        raise NotFound(MSG_NOT_FOUND, code="article_not_found")
    return article


async def get_article(article_id: int) -> ArticleOut:
    return await with_author(await _get(article_id))


async def article_by_slug(slug: str) -> ArticleOut | None:
    """The article at `slug` whatever its status (the CLI's `publish SLUG`), or None."""
    article = await Article.get_or_none(slug=slug.lower())
    return None if article is None else await with_author(article)


async def create_article(data: ArticleIn, *, created_by: int | None) -> ArticleOut:
    """A new draft. An empty slug is made from the title; a taken one gets -2, -3, ..."""
    title, stem, description, keywords, content = _clean(data)
    for _ in range(5):  # another writer may take the same slug between the check and the insert
        slug = await _free_slug(stem, article_id=None)
        try:
            async with in_transaction():
                await SlugRedirect.filter(old_slug=slug).delete()
                article = await Article.create(
                    title=title,
                    slug=slug,
                    content=content,
                    body_format=data.body_format,
                    source=_source(data),
                    meta_description=description,
                    keywords=keywords,
                    status="draft",
                    created_by=created_by,
                    **page_fields(data),
                )
        except IntegrityError:
            continue
        return await with_author(article)
    raise ValidationFailed("This slug is taken. Please choose another.", fields={"slug": "taken"})


async def update_article(article_id: int, data: ArticleIn) -> ArticleOut:
    """Edit an article. When an article that has been published changes its slug, its old
    address keeps working: `/blog/{old}` answers 301 to the new one."""
    title, stem, description, keywords, content = _clean(data)
    article = await _get(article_id)
    for _ in range(5):
        slug = (
            article.slug if stem == article.slug else await _free_slug(stem, article_id=article.id)
        )
        try:
            async with in_transaction():
                if slug != article.slug:
                    await SlugRedirect.filter(old_slug=slug).delete()
                    if article.published_at is not None:
                        await SlugRedirect.create(old_slug=article.slug, article_id=article.id)
                await Article.filter(id=article.id).update(
                    title=title,
                    slug=slug,
                    content=content,
                    body_format=data.body_format,
                    source=_source(data),
                    meta_description=description,
                    keywords=keywords,
                    updated_at=datetime.now(UTC),
                    **page_fields(data),
                )
        except IntegrityError:
            continue
        return await with_author(await _get(article_id))
    raise ValidationFailed("This slug is taken. Please choose another.", fields={"slug": "taken"})


async def set_status(article_id: int, status: str) -> ArticleOut:
    """Publish (published_at = now), archive or move back to draft (published_at kept)."""
    if status not in STATUSES:
        raise ValidationFailed(MSG_STATUS, fields={"status": MSG_STATUS})
    article = await _get(article_id)
    if article.status == status:
        return await with_author(article)
    now = datetime.now(UTC)
    changes: dict[str, object] = {"status": status, "updated_at": now}
    if status == "published":
        changes["published_at"] = now
    await Article.filter(id=article.id).update(**changes)
    return await with_author(await _get(article_id))


async def forget_writer(user_id: int) -> None:
    """An erased account's articles stay, without their writer."""
    await Article.filter(created_by=user_id).update(created_by=None)


async def written_by(user_id: int) -> list[dict[str, object]]:
    """The articles an account wrote, for its data export (id, title, slug, status)."""
    rows = await Article.filter(created_by=user_id).order_by("id")
    return [{"id": a.id, "title": a.title, "slug": a.slug, "status": a.status} for a in rows]


async def set_page_settings(article_id: int, data: ArticlePageIn) -> ArticleOut:
    """Language, call to action and cover alt text alone (those given)."""
    article = await _get(article_id)
    fields = page_fields(data)
    if fields:
        await Article.filter(id=article.id).update(**fields, updated_at=datetime.now(UTC))
    return await with_author(await _get(article_id))
