"""The public blog over HTTP on both databases: the JSON API, the server-filled pages (their
first HTML response holds the list or the article and its head tags), the 404 page, the
redirect from an old slug, the RSS feed and the sitemap."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from email.utils import parsedate_to_datetime
from pathlib import Path

import httpx

from agency.app import create_app
from agency.modules.blog import api as blog_api
from agency.modules.blog.schemas import ArticleIn
from tests.blog.conftest import BASE_URL, MARKER, article, at
from tests.conftest import make_settings, web_client

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def embedded(page: str) -> object:
    match = re.search(r'<meta name="agency-blog" content="([^"]*)">', page)
    assert match, "no embedded data"
    return json.loads(html.unescape(match.group(1)))


async def test_the_api_lists_published_articles_newest_first_12_a_page(
    web: httpx.AsyncClient,
) -> None:
    for day in range(1, 15):
        await article(f"Article {day}", published_at=at(day))
    await article("A draft", publish=False)
    archived = await article("Archived", published_at=at(20))
    await blog_api.set_status(archived.id, "archived")

    first = (await web.get("/api/blog/articles")).json()
    assert (first["page"], first["pages"], first["total"]) == (1, 2, 14)
    assert [a["title"] for a in first["articles"]] == [f"Article {d}" for d in range(14, 2, -1)]
    assert set(first["articles"][0]) == {
        "id",
        "title",
        "slug",
        "meta_description",
        "published_at",
        "language",
        "cover",
    }
    second = (await web.get("/api/blog/articles?page=2")).json()
    assert [a["title"] for a in second["articles"]] == ["Article 2", "Article 1"]
    past = (await web.get("/api/blog/articles?page=9")).json()
    assert past["articles"] == [] and past["pages"] == 2
    for bad in ("0", "-1", "x", "1.5", "9999999"):
        response = await web.get(f"/api/blog/articles?page={bad}")
        assert response.status_code == 400, bad
        assert response.json()["error"]["message"] == "'page' must be a whole number from 1."


async def test_the_api_answers_a_published_article_and_404_for_the_rest(
    web: httpx.AsyncClient,
) -> None:
    shown = await article(
        "Fast Sites", content='<p>Hi</p><a href="javascript:alert(1)">x</a>', keywords=["a"]
    )
    draft = await article("Draft", publish=False)
    response = await web.get("/api/blog/articles/fast-sites")
    assert response.status_code == 200
    body = response.json()
    assert body["content"] == '<p>Hi</p><a rel="noopener noreferrer">x</a>'
    assert body["keywords"] == ["a"] and body["id"] == shown.id
    for slug in (draft.slug, "unknown"):
        missing = await web.get(f"/api/blog/articles/{slug}")
        assert missing.status_code == 404
        assert missing.json()["error"]["message"] == "This article does not exist."

    await blog_api.update_article(shown.id, ArticleIn(title="Fast Sites", slug="faster-sites"))
    moved = await web.get("/api/blog/articles/fast-sites")
    assert moved.status_code == 301
    assert moved.headers["location"] == "/api/blog/articles/faster-sites"


async def test_the_blog_page_holds_the_list_in_its_first_html(web: httpx.AsyncClient) -> None:
    empty = await web.get("/blog")
    assert empty.status_code == 200
    assert "No articles yet. Check back soon." in empty.text
    assert MARKER not in empty.text

    await article("Clinic <Sites> & More", description='Fast "pages"', published_at=at(3))
    await article("Older", published_at=at(1))
    page = await web.get("/blog")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["cache-control"] == "no-cache"
    text = page.text
    assert (
        '<h2 class="blog-card__title"><a href="/blog/clinic-sites-more">'
        "Clinic &lt;Sites&gt; &amp; More</a></h2>"
    ) in text
    assert '<time datetime="2026-11-03">November 3, 2026</time>' in text
    assert "Fast &quot;pages&quot;" in text
    assert text.index("clinic-sites-more") < text.index("/blog/older")
    assert 'Read More<span class="visually-hidden">: Clinic &lt;Sites&gt; &amp; More</span>' in text
    assert f'<link rel="canonical" href="{BASE_URL}/blog">' in text
    assert f'href="{BASE_URL}/blog/rss.xml"' in text
    data = embedded(text)
    assert isinstance(data, dict) and data["kind"] == "list"
    assert [a["slug"] for a in data["page"]["articles"]] == ["clinic-sites-more", "older"]
    # Case and trailing slashes as the web UI's route table reads them; index.html too.
    for path in ("/Blog/", "/blog/index.html"):
        again = await web.get(path)
        assert again.status_code == 200 and "clinic-sites-more" in again.text, path


async def test_the_blog_pages_past_twelve(web: httpx.AsyncClient) -> None:
    for day in range(1, 14):
        await article(f"Post {day}", published_at=at(day))
    first = (await web.get("/blog")).text
    assert '<a class="blog-pages__next" rel="next" href="/blog?page=2">Older articles</a>' in first
    assert "Page 1 of 2" in first and "blog-pages__prev" not in first
    second = await web.get("/blog?page=2")
    assert "Post 1<" in second.text and "Post 13<" not in second.text
    assert '<a class="blog-pages__prev" rel="prev" href="/blog">Newer articles</a>' in second.text
    assert f'<link rel="canonical" href="{BASE_URL}/blog?page=2">' in second.text
    for path, target in (("/blog?page=7", "/blog?page=2"), ("/blog?page=x", "/blog")):
        response = await web.get(path)
        assert (response.status_code, response.headers["location"]) == (302, target)


async def test_an_article_page_holds_the_article_and_its_head_tags(
    web: httpx.AsyncClient,
) -> None:
    await article(
        'Speed & "Sales"',
        content="<h2>Why</h2><p>Because.</p><script>alert(1)</script>",
        description="Fast <b>pages</b> sell.",
        keywords=["speed", "sales"],
        published_at=at(5),
    )
    response = await web.get("/blog/speed-sales")
    assert response.status_code == 200
    text = response.text
    assert MARKER not in text
    assert "<title>Speed &amp; &quot;Sales&quot; | agency</title>" in text
    assert '<meta name="description" content="Fast &lt;b&gt;pages&lt;/b&gt; sell.">' in text
    assert f'<link rel="canonical" href="{BASE_URL}/blog/speed-sales">' in text
    assert f'<meta property="og:url" content="{BASE_URL}/blog/speed-sales">' in text
    assert '<meta property="og:type" content="article"/>' in text
    assert '<meta property="og:title" content="Speed &amp; &quot;Sales&quot; | agency">' in text
    assert '<h1 class="blog-article__title">Speed &amp; &quot;Sales&quot;</h1>' in text
    assert '<div class="prose blog-article__body"><h2>Why</h2><p>Because.</p></div>' in text
    assert "alert(1)" not in text
    assert '<ul class="blog-article__keywords" aria-label="Keywords"><li>speed</li>' in text
    assert '<p class="blog-article__back"><a href="/blog">Back to all articles</a></p>' in text
    ld = re.search(r'<script type="application/ld\+json">(.*?)</script>', text)
    assert ld
    structured = json.loads(ld.group(1))
    assert structured["@type"] == "Article"
    assert structured["headline"] == 'Speed & "Sales"'
    assert structured["datePublished"].startswith("2026-11-05T12:00:00")
    assert structured["mainEntityOfPage"] == f"{BASE_URL}/blog/speed-sales"
    data = embedded(text)
    assert isinstance(data, dict) and data["kind"] == "article"
    assert data["article"]["content"] == "<h2>Why</h2><p>Because.</p>"


async def test_a_script_in_a_title_cannot_leave_the_json_ld(web: httpx.AsyncClient) -> None:
    await article("</script><script>alert(1)</script>", slug="x", published_at=at(5))
    text = (await web.get("/blog/x")).text
    assert "<script>alert(1)" not in text
    assert text.count("</script>") == 1  # the JSON-LD's own


async def test_an_unknown_or_unpublished_article_is_a_real_404_page(
    web: httpx.AsyncClient,
) -> None:
    draft = await article("Draft", publish=False)
    archived = await article("Gone")
    await blog_api.set_status(archived.id, "archived")
    for path in ("/blog/nothing-here", f"/blog/{draft.slug}", f"/blog/{archived.slug}"):
        response = await web.get(path)
        assert response.status_code == 404, path
        assert '<h1 class="blog-article__title">Article not found</h1>' in response.text
        assert '<a href="/blog">Back to all articles</a>' in response.text
        assert '<meta name="robots" content="noindex">' in response.text
        assert embedded(response.text) == {"kind": "missing"}


async def test_a_renamed_articles_old_address_answers_301(web: httpx.AsyncClient) -> None:
    saved = await article("First Name")
    await blog_api.update_article(saved.id, ArticleIn(title="First Name", slug="second-name"))
    response = await web.get("/blog/first-name")
    assert (response.status_code, response.headers["location"]) == (301, "/blog/second-name")
    assert (await web.get("/blog/second-name")).status_code == 200
    await blog_api.set_status(saved.id, "archived")
    assert (await web.get("/blog/first-name")).status_code == 404


async def test_rss_is_valid_rss_2_of_the_latest_20(web: httpx.AsyncClient) -> None:
    for day in range(1, 23):
        await article(f"Item {day} & co", description=f"About <{day}>", published_at=at(day))
    await article("Unpublished", publish=False)
    response = await web.get("/blog/rss.xml")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/rss+xml; charset=utf-8"
    assert response.headers["cache-control"] == "no-cache"
    root = ET.fromstring(response.content)
    assert root.tag == "rss" and root.attrib["version"] == "2.0"
    channel = root.find("channel")
    assert channel is not None
    assert channel.findtext("link") == f"{BASE_URL}/blog"
    assert channel.findtext("title") and channel.findtext("description")
    items = channel.findall("item")
    assert len(items) == 20
    first = items[0]
    assert first.findtext("title") == "Item 22 & co"
    assert first.findtext("link") == f"{BASE_URL}/blog/item-22-co"
    assert first.findtext("description") == "About <22>"
    assert first.findtext("guid")
    assert len({item.findtext("guid") for item in items}) == 20
    published = parsedate_to_datetime(first.findtext("pubDate") or "")
    assert published == at(22)
    assert re.fullmatch(
        r"[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT",
        first.findtext("pubDate") or "",
    )


async def test_sitemap_and_feed_change_the_moment_an_article_is_published_or_archived(
    web: httpx.AsyncClient,
) -> None:
    saved = await article("Launch Day", publish=False)

    async def listed() -> tuple[bool, bool]:
        sitemap = ET.fromstring((await web.get("/sitemap.xml")).content)
        locs = [u.findtext("s:loc", namespaces=NS) for u in sitemap.findall("s:url", NS)]
        feed = (await web.get("/blog/rss.xml")).text
        return f"{BASE_URL}/blog/launch-day" in locs, "launch-day" in feed

    assert await listed() == (False, False)
    await blog_api.set_status(saved.id, "published")
    assert await listed() == (True, True)
    sitemap = ET.fromstring((await web.get("/sitemap.xml")).content)
    entry = next(
        u
        for u in sitemap.findall("s:url", NS)
        if u.findtext("s:loc", namespaces=NS) == f"{BASE_URL}/blog/launch-day"
    )
    assert re.fullmatch(
        r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00",
        entry.findtext("s:lastmod", namespaces=NS) or "",
    )
    await blog_api.set_status(saved.id, "archived")
    assert await listed() == (False, False)


async def test_an_address_no_slug_can_have_is_a_404_without_a_query(
    web: httpx.AsyncClient,
) -> None:
    for slug in ("%00", "a%20b", "caf%C3%A9", "a--b", "-a", "x" * 201, "%F0%9F%98%80"):
        assert (await web.get(f"/api/blog/articles/{slug}")).status_code == 404, slug
        assert (await web.get(f"/blog/{slug}")).status_code == 404, slug


async def test_without_a_built_web_ui_the_pages_still_answer(
    tmp_path: Path, database_url: str
) -> None:
    app = create_app(make_settings(tmp_path, database_url))  # web_dir holds no build
    async with app.test_app():
        await article("Bare Page")
        async with web_client(app) as http:
            listed = await http.get("/blog")
            assert listed.status_code == 200 and 'href="/blog/bare-page"' in listed.text
            shown = await http.get("/blog/bare-page")
            assert shown.status_code == 200 and "<h1" in shown.text
            assert (await http.get("/blog/nothing")).status_code == 404
