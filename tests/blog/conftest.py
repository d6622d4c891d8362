"""The blog's fixtures: the app's settings, on each database, with a small built web UI
holding the two server pages (`/blog`, and the `/blog/:slug` template) as the real build writes
them; and articles."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agency.core.settings import Settings
from agency.modules.blog import api as blog_api
from agency.modules.blog.models import Article
from agency.modules.blog.schemas import ArticleIn, ArticleOut
from tests.conftest import make_settings

BASE_URL = "https://agency.example"
MARKER = "<!--agency-blog-->"

HEAD = (
    '<meta name="agency-site" content="__AGENCY_SITE__" />'
    "<title>{title} | agency</title>"
    '<meta name="description" content="{description}"/>'
    '<link rel="canonical" href="__AGENCY_BASE_URL__{path}"/>'
    '<meta property="og:title" content="{title} | agency"/>'
    '<meta property="og:description" content="{description}"/>'
    '<meta property="og:type" content="{og_type}"/>'
    '<meta property="og:url" content="__AGENCY_BASE_URL__{path}"/>'
)


def page(path: str, title: str, description: str, og_type: str) -> str:
    head = HEAD.format(path=path, title=title, description=description, og_type=og_type)
    return (
        f'<!doctype html><html lang="en"><head><meta charset="UTF-8" />{head}</head>'
        f'<body><div id="root"><main id="main"><div class="blog-region">{MARKER}</div></main>'
        "</div></body></html>"
    )


def write_build(root: Path) -> None:
    (root / "blog").mkdir(parents=True)
    (root / "_templates" / "blog").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>Home</title><div id=root>Home</div>")
    (root / "spa.html").write_text("<!doctype html><title>App</title><div id=root></div>")
    (root / "blog" / "index.html").write_text(
        page("/blog", "Blog", "Articles on fast websites.", "website")
    )
    (root / "_templates" / "blog" / "_slug.html").write_text(
        page("/blog/:slug", "Blog", "An article from the agency blog.", "article")
    )
    (root / "routes.json").write_text(
        json.dumps(
            {
                "prerendered": ["/", "/blog"],
                "spa": ["/start", "/blog/:slug"],
                "sitemap": ["/", "/blog"],
                "templates": {"/blog/:slug": "_templates/blog/_slug.html"},
            }
        )
    )


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str) -> Settings:
    """The blog tests' `app` (and `web`, HTTP through the whole stack; tests/conftest.py) serve
    a small build written to `tmp_path / "web"`, at BASE_URL."""
    web = tmp_path / "web"
    write_build(web)
    return make_settings(tmp_path, database_url, web_dir=web, base_url=BASE_URL)


async def article(
    title: str = "Fast Websites for Clinics",
    *,
    slug: str = "",
    content: str = "<p>Speed matters.</p>",
    description: str = "Why a fast site books more patients.",
    keywords: list[str] | None = None,
    publish: bool = True,
    published_at: datetime | None = None,
    created_by: int | None = None,
) -> ArticleOut:
    """A saved article, published unless told otherwise (at `published_at` when given)."""
    saved = await blog_api.create_article(
        ArticleIn(
            title=title,
            slug=slug,
            content=content,
            meta_description=description,
            keywords=keywords if keywords is not None else ["speed", "clinics"],
        ),
        created_by=created_by,
    )
    if publish:
        saved = await blog_api.set_status(saved.id, "published")
        if published_at is not None:
            await Article.filter(id=saved.id).update(published_at=published_at.astimezone(UTC))
            saved = await blog_api.get_article(saved.id)
    return saved


def at(day: int, hour: int = 12) -> datetime:
    return datetime(2026, 11, day, hour, tzinfo=UTC)
