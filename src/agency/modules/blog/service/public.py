"""What a visitor reads: the published articles page by page, an article by its address (or
the address it moved to), the RSS feed and the sitemap's entries. Every read goes to the
database, so a publish or an archive shows at once on every server process."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import format_datetime
from xml.sax.saxutils import escape

from agency.core.errors import NotFound
from agency.modules.blog.models import Article, SlugRedirect
from agency.modules.blog.schemas import MSG_PAGE as MSG_PAGE  # the list's page rule, with
from agency.modules.blog.schemas import PAGE_MAX as PAGE_MAX  # its query string
from agency.modules.blog.schemas import (
    SLUG_MAX,
    ArticleSummaryOut,
    BlogPageOut,
    PublishedArticleOut,
)
from agency.modules.blog.schemas import parse_page as parse_page
from agency.modules.blog.service import articles, covers
from agency.modules.blog.service.sanitise import sanitise

PAGE_SIZE = 12
# What slugify makes and what a stored slug or old slug looks like.
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
FEED_SIZE = 20
MSG_NOT_FOUND = "This article does not exist."
FEED_TITLE = "Blog"
FEED_DESCRIPTION = "Latest Articles"


@dataclass(frozen=True)
class Moved:
    """The article once at this address now lives at `slug`."""

    slug: str


def _summary(article: Article) -> ArticleSummaryOut:
    assert article.published_at is not None  # published articles always have it
    return ArticleSummaryOut(
        id=article.id,
        title=article.title,
        slug=article.slug,
        meta_description=article.meta_description,
        published_at=article.published_at,
        language="de" if article.language == "de" else "en",
        cover=covers.cover_out(
            article.cover_key, article.cover_width, article.cover_height, article.cover_alt
        ),
    )


async def blog_page(page: int = 1) -> BlogPageOut:
    """Page `page` (from 1) of the published articles, newest first by published date,
    `PAGE_SIZE` a page. A page past the last is empty (its `pages` says how many there are)."""
    page = max(page, 1)
    query = Article.filter(status="published")
    total = await query.count()
    rows = (
        await query.order_by("-published_at", "-id").offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE)
    )
    pages = max(1, math.ceil(total / PAGE_SIZE))
    return BlogPageOut(articles=[_summary(a) for a in rows], page=page, pages=pages, total=total)


RELATED_COUNT = 2


def _keyword_set(article: Article) -> set[str]:
    return {str(k).casefold() for k in article.keywords or []}


def rank_related(
    article: Article, others: list[Article], count: int = RELATED_COUNT
) -> list[Article]:
    """The `count` articles of `others` (published, not `article`) to read next: the same
    language first, then the most keywords in common (any case), then the newest."""
    language = article.language
    words = _keyword_set(article)

    def key(other: Article) -> tuple[int, int, float, int]:
        published = other.published_at.timestamp() if other.published_at else 0.0
        return (
            0 if other.language == language else 1,
            -len(words & _keyword_set(other)),
            -published,
            -other.id,
        )

    return sorted((o for o in others if o.id != article.id), key=key)[:count]


async def _published_out(article: Article) -> PublishedArticleOut:
    assert article.published_at is not None
    others = await Article.filter(status="published").exclude(id=article.id)
    return PublishedArticleOut(
        id=article.id,
        title=article.title,
        slug=article.slug,
        meta_description=article.meta_description,
        keywords=list(article.keywords or []),
        content=sanitise(article.content),
        published_at=article.published_at,
        updated_at=article.updated_at,
        language="de" if article.language == "de" else "en",
        call_to_action="start" if article.call_to_action == "start" else "speed_test",
        cover=covers.cover_out(
            article.cover_key, article.cover_width, article.cover_height, article.cover_alt
        ),
        author=await articles.author_of(article.created_by),
        related=[_summary(a) for a in rank_related(article, others)],
    )


async def find_published(slug: str) -> PublishedArticleOut | Moved:
    """The published article at `slug`, or where it moved to (an old slug of a published
    article); NotFound for an unknown, draft or archived one."""
    key = slug.lower()
    if len(key) > SLUG_MAX or not _SLUG.fullmatch(key):
        raise NotFound(MSG_NOT_FOUND, code="article_not_found")  # no article has such a slug
    article = await Article.get_or_none(slug=key, status="published")
    if article is not None:
        return await _published_out(article)
    redirect = await SlugRedirect.get_or_none(old_slug=key).prefetch_related("article")
    if redirect is not None and redirect.article.status == "published":
        return Moved(redirect.article.slug)
    raise NotFound(MSG_NOT_FOUND, code="article_not_found")


async def published_for_sitemap() -> list[tuple[str, datetime]]:
    """(slug, last change) of every published article, newest first."""
    rows = await Article.filter(status="published").order_by("-published_at", "-id")
    return [(a.slug, max(a.updated_at, a.published_at or a.updated_at)) for a in rows]


def _rfc822(moment: datetime) -> str:
    return format_datetime(moment.astimezone(UTC), usegmt=True)


async def rss_xml(base_url: str) -> str:
    """RSS 2.0 of the latest `FEED_SIZE` published articles (title, link, guid, pubDate in
    RFC 822, description, and the article's language as Dublin Core's `dc:language`: RSS has
    no language per item, and the channel's `en` is the blog's own, not every article's)."""
    rows = await (
        Article.filter(status="published").order_by("-published_at", "-id").limit(FEED_SIZE)
    )
    items = []
    for article in rows:
        assert article.published_at is not None
        link = escape(f"{base_url}/blog/{article.slug}")
        items.append(
            "<item>"
            f"<title>{escape(article.title)}</title>"
            f"<link>{link}</link>"
            f'<guid isPermaLink="false">{escape(base_url)}/blog#article-{article.id}</guid>'
            f"<pubDate>{_rfc822(article.published_at)}</pubDate>"
            f"<description>{escape(article.meta_description)}</description>"
            f"<dc:language>{'de' if article.language == 'de' else 'en'}</dc:language>"
            "</item>"
        )
    last = (
        f"<lastBuildDate>{_rfc822(rows[0].published_at)}</lastBuildDate>"
        if rows and rows[0].published_at is not None
        else ""
    )
    blog = escape(f"{base_url}/blog")
    feed = escape(f"{base_url}/blog/rss.xml")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"'
        ' xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>'
        f"<title>{FEED_TITLE}</title><link>{blog}</link>"
        f"<description>{FEED_DESCRIPTION}</description><language>en</language>"
        f'<atom:link href="{feed}" rel="self" type="application/rss+xml"/>'
        f"{last}{''.join(items)}</channel></rss>"
    )
