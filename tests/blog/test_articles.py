"""The article storage the article manager works on (`blog.api`), on both databases."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from agency.core.errors import NotFound, ValidationFailed
from agency.modules.blog import api as blog_api
from agency.modules.blog.models import SlugRedirect
from agency.modules.blog.module import MODULE as BLOG
from agency.modules.blog.schemas import ArticleIn
from agency.modules.blog.service import public, user_data

pytestmark = pytest.mark.usefixtures("orm")


async def test_a_new_article_is_a_draft_with_its_slug_from_the_title() -> None:
    saved = await blog_api.create_article(
        ArticleIn(
            title="  Why Speed   Sells: 5 Facts! ",
            meta_description="Fast pages sell.",
            keywords=["speed", " Speed ", "", "sales  funnels"],
            content='<h2>Intro</h2><p onclick="x()">Hi<script>alert(1)</script></p>',
        ),
        created_by=7,
    )
    assert saved.status == "draft"
    assert saved.title == "Why Speed Sells: 5 Facts!"
    assert saved.slug == "why-speed-sells-5-facts"
    assert saved.keywords == ["speed", "sales funnels"]
    assert saved.content == "<h2>Intro</h2><p>Hi</p>"
    assert saved.created_by == 7
    assert saved.published_at is None
    assert await blog_api.get_article(saved.id) == saved
    assert await blog_api.article_by_slug("why-speed-sells-5-facts") == saved
    assert await blog_api.article_by_slug("nothing-here") is None


async def test_a_taken_slug_gets_2_then_3_and_a_given_slug_follows_the_rule() -> None:
    first = await blog_api.create_article(ArticleIn(title="Fast Sites"), created_by=None)
    second = await blog_api.create_article(ArticleIn(title="Fast sites!"), created_by=None)
    third = await blog_api.create_article(
        ArticleIn(title="Other", slug="FAST  sites"), created_by=None
    )
    assert [first.slug, second.slug, third.slug] == ["fast-sites", "fast-sites-2", "fast-sites-3"]
    own = await blog_api.update_article(
        second.id, ArticleIn(title="Fast sites!", slug="fast-sites-2")
    )
    assert own.slug == "fast-sites-2"  # its own slug is not "taken"


async def test_a_title_is_needed_and_bad_keywords_are_refused() -> None:
    with pytest.raises(ValidationFailed, match="Please enter a title"):
        await blog_api.create_article(ArticleIn(title="   "), created_by=None)
    with pytest.raises(ValidationError, match="at most 60"):
        ArticleIn(title="T", keywords=["k" * 61])
    with pytest.raises(ValidationError, match="at most 20 items"):
        ArticleIn(title="T", keywords=[f"k{n}" for n in range(21)])


async def test_list_is_newest_first_filters_by_status_and_searches_title_or_slug() -> None:
    a = await blog_api.create_article(ArticleIn(title="Clinic Websites"), created_by=None)
    b = await blog_api.create_article(
        ArticleIn(title="Coaching", slug="fitness-coach-sites"), created_by=None
    )
    c = await blog_api.create_article(ArticleIn(title="Funnels"), created_by=None)
    await blog_api.set_status(b.id, "published")
    assert [x.id for x in await blog_api.list_articles()] == [c.id, b.id, a.id]
    assert [x.id for x in await blog_api.list_articles(status="published")] == [b.id]
    assert [x.id for x in await blog_api.list_articles(status="draft")] == [c.id, a.id]
    assert [x.id for x in await blog_api.list_articles(search="CLINIC")] == [a.id]
    assert [x.id for x in await blog_api.list_articles(search="Coach-Sites")] == [b.id]
    assert [x.id for x in await blog_api.list_articles(search="  ")] == [c.id, b.id, a.id]
    assert await blog_api.list_articles(search="nothing") == []


async def test_status_changes_and_published_at() -> None:
    saved = await blog_api.create_article(ArticleIn(title="Launch"), created_by=None)
    before = datetime.now(UTC)
    published = await blog_api.set_status(saved.id, "published")
    assert published.status == "published"
    assert published.published_at is not None and published.published_at >= before
    archived = await blog_api.set_status(saved.id, "archived")
    assert archived.status == "archived"
    assert archived.published_at == published.published_at  # kept: when it was last published
    draft = await blog_api.set_status(saved.id, "draft")
    assert draft.status == "draft" and draft.published_at == published.published_at
    again = await blog_api.set_status(saved.id, "published")
    assert again.published_at is not None and again.published_at >= published.published_at
    with pytest.raises(ValidationFailed, match="draft, published or archived"):
        await blog_api.set_status(saved.id, "deleted")


async def test_unknown_ids_are_not_found() -> None:
    with pytest.raises(NotFound, match=r"This article does not exist\."):
        await blog_api.get_article(999)
    with pytest.raises(NotFound):
        await blog_api.update_article(999, ArticleIn(title="X"))
    with pytest.raises(NotFound):
        await blog_api.set_status(999, "published")


async def test_a_published_articles_old_slug_becomes_a_redirect() -> None:
    draft = await blog_api.create_article(ArticleIn(title="Draft Name"), created_by=None)
    renamed = await blog_api.update_article(draft.id, ArticleIn(title="Draft Name", slug="new"))
    assert renamed.slug == "new"
    assert await SlugRedirect.all().count() == 0  # never public: nothing to keep

    await blog_api.set_status(draft.id, "published")
    moved = await blog_api.update_article(draft.id, ArticleIn(title="Final", slug="final-name"))
    assert moved.slug == "final-name"
    assert await public.find_published("new") == public.Moved("final-name")
    assert await public.find_published("NEW") == public.Moved("final-name")
    # A new article may take the old address: it is then that article's.
    other = await blog_api.create_article(ArticleIn(title="New"), created_by=None)
    assert other.slug == "new"
    assert await SlugRedirect.filter(old_slug="new").count() == 0


async def test_erasing_a_user_keeps_their_articles_without_the_writer() -> None:
    mine = await blog_api.create_article(ArticleIn(title="Mine"), created_by=5)
    theirs = await blog_api.create_article(ArticleIn(title="Theirs"), created_by=6)
    assert await user_data.export_user(5) == {
        "articles": [{"id": mine.id, "title": "Mine", "slug": "mine", "status": "draft"}]
    }
    assert BLOG.user_data is not None
    await BLOG.user_data.erase(5)
    assert (await blog_api.get_article(mine.id)).created_by is None
    assert (await blog_api.get_article(theirs.id)).created_by == 6


def test_preview_is_the_sanitised_body() -> None:
    assert blog_api.preview_html('<p>Hi<img src="x.png" onerror="y"></p>') == (
        '<p>Hi<img src="x.png"></p>'
    )
