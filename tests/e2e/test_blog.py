"""The public blog in Chromium against the real server: the list and an article are
in the first HTML response (they read without JavaScript), the client hydrates them without a
mismatch or any console message, Read More navigates in the app, an unknown article is a 404
page with a way back, a renamed article's old address redirects, and a phone shows it all
without sideways scrolling."""

from __future__ import annotations

import itertools
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from agency.modules.blog import api as blog_api
from agency.modules.blog.models import Article
from agency.modules.blog.schemas import ArticleIn
from tests.conftest import with_database
from tests.e2e.conftest import DESKTOP, ConsoleLog, LiveServer, open_page

_runs = itertools.count(1)


def on_database(server: LiveServer, work: Any) -> Any:
    """Run `work()` with the ORM open on the live server's database, in a thread of its own
    (sync Playwright keeps an event loop running in this one)."""
    url = f"sqlite://{(server.workdir / 'data' / 'agency.db').resolve()}"
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(with_database, url, work).result()


def publish(server: LiveServer, title: str, day: int, year: int = 2030, **extra: object) -> str:
    """A published article (published on `year`-01-`day`: this file's are in 2030, newer than
    any other test's, which pass an earlier year), by the storage the article manager uses;
    returns its slug."""

    async def work() -> str:
        saved = await blog_api.create_article(ArticleIn(title=title, **extra), created_by=None)  # type: ignore[arg-type]
        await blog_api.set_status(saved.id, "published")
        await Article.filter(id=saved.id).update(published_at=datetime(year, 1, day, tzinfo=UTC))
        return saved.slug

    return str(on_database(server, work))


def settle(page: Page) -> None:
    """Loaded, and the client has taken over the server's markup."""
    page.wait_for_load_state("networkidle")


@pytest.fixture
def articles(live_server: LiveServer) -> tuple[str, str]:
    run = next(_runs)
    first = publish(
        live_server,
        f"Clinic Sites That Book {run}",
        1,
        meta_description="Why a fast clinic site fills the calendar.",
        keywords=["clinic", "speed"],
        content=(
            "<h2>Why speed</h2><p>Patients leave slow pages.</p>"
            '<p><a href="https://example.com/study">The study</a></p>'
            "<script>alert(1)</script>"
        ),
    )
    second = publish(
        live_server,
        f"Funnels & Forms {run}",
        2,
        meta_description='What a "good" funnel asks for.',
        content="<p>Ask less.</p>",
    )
    return first, second


def test_list_then_article_hydrate_cleanly_and_navigate_in_the_app(
    page: Page, live_server: LiveServer, console: ConsoleLog, articles: tuple[str, str]
) -> None:
    first, second = articles
    response = page.goto(live_server.url + "/blog")
    assert response is not None and response.status == 200
    html = response.text()
    assert f'href="/blog/{first}"' in html and f'href="/blog/{second}"' in html  # first HTML
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Latest Articles")
    cards = page.locator(".blog-card")
    expect(cards.first).to_contain_text("Funnels & Forms")  # newest first
    expect(cards.first).to_contain_text('What a "good" funnel asks for.')
    expect(cards.first).to_contain_text("January 2, 2030")
    page.evaluate("() => { window.__sameDocument = true }")
    page.get_by_role("link", name=re.compile(r"^Read More\W+Clinic Sites That Book")).first.click()
    expect(page).to_have_url(f"{live_server.url}/blog/{first}")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Clinic Sites That Book")
    expect(page.get_by_role("heading", level=2, name="Why speed")).to_be_visible()
    assert page.evaluate("() => window.__sameDocument === true")  # navigated in the app
    expect(page).to_have_title(re.compile(r"^Clinic Sites That Book \d+ \| agency$"))
    page.get_by_role("link", name="Back to all articles").click()
    expect(page).to_have_url(f"{live_server.url}/blog")
    expect(page.locator(".blog-card").first).to_contain_text("Funnels & Forms")
    assert console.problems == [], console.problems


def test_an_article_page_is_complete_in_its_first_html_and_hydrates_cleanly(
    page: Page, live_server: LiveServer, console: ConsoleLog, articles: tuple[str, str]
) -> None:
    first, _ = articles
    response = page.goto(f"{live_server.url}/blog/{first}")
    assert response is not None and response.status == 200
    html = response.text()
    assert "<title>Clinic Sites That Book" in html
    assert f'<link rel="canonical" href="{live_server.url}/blog/{first}">' in html
    assert 'content="Why a fast clinic site fills the calendar."' in html
    assert '<meta property="og:type" content="article"' in html
    assert '"@type":"Article"' in html
    assert "alert(1)" not in html
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Clinic Sites That Book")
    expect(page.get_by_text("January 1, 2030")).to_be_visible()
    keywords = page.get_by_role("list", name="Keywords")
    expect(keywords.get_by_role("listitem")).to_have_text(["clinic", "speed"])
    expect(page.get_by_role("link", name="The study")).to_have_attribute(
        "rel", "noopener noreferrer"
    )
    assert page.evaluate(
        "() => document.querySelector('link[type=\"application/rss+xml\"]') !== null"
    )
    assert console.problems == [], console.problems


def test_without_javascript_the_list_and_the_article_read_complete(
    browser: Browser, live_server: LiveServer, console: ConsoleLog, articles: tuple[str, str]
) -> None:
    first, _ = articles
    page = open_page(browser, console, DESKTOP, java_script_enabled=False)
    try:
        page.goto(live_server.url + "/blog")
        expect(page.locator(".blog-card").first).to_contain_text("Funnels & Forms")
        page.locator(f'a.blog-card__more[href="/blog/{first}"]').click()
        expect(page).to_have_url(f"{live_server.url}/blog/{first}")
        expect(page.get_by_role("heading", level=1)).to_contain_text("Clinic Sites That Book")
        expect(page.get_by_text("Patients leave slow pages.")).to_be_visible()
    finally:
        page.context.close()


def test_unknown_article_is_a_404_page_and_an_old_address_redirects(
    page: Page, live_server: LiveServer, console: ConsoleLog, articles: tuple[str, str]
) -> None:
    response = page.goto(live_server.url + "/blog/no-such-article")
    assert response is not None and response.status == 404
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Article not found")
    expect(page).to_have_url(live_server.url + "/blog/no-such-article")  # not sent home
    page.get_by_role("link", name="Back to all articles").click()
    expect(page).to_have_url(live_server.url + "/blog")

    first, _ = articles

    async def rename() -> None:
        found = await blog_api.article_by_slug(first)
        assert found is not None
        await blog_api.update_article(
            found.id,
            ArticleIn(title=found.title, slug=f"{first}-renamed", content=found.content),
        )

    on_database(live_server, rename)
    response = page.goto(f"{live_server.url}/blog/{first}")
    assert response is not None and response.status == 200
    expect(page).to_have_url(f"{live_server.url}/blog/{first}-renamed")
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Clinic Sites That Book")
    # A 404 page is reported by Chromium as a failed resource load; nothing else may be.
    problems = [p for p in console.problems if "status of 404" not in p]
    assert problems == [], console.problems


def test_at_phone_width_nothing_sticks_out(
    phone: Page, live_server: LiveServer, console: ConsoleLog, articles: tuple[str, str]
) -> None:
    first, _ = articles
    for path in ("/blog", f"/blog/{first}"):
        phone.goto(live_server.url + path)
        settle(phone)
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, (path, width)
    assert console.problems == [], console.problems
