"""The blog article page in Chromium against the real server, set up as an admin would: their
name and short bio on the profile page; in the article manager's "Article page" panel a cover
image uploaded (a real multipart upload, resized by the server), its alt text, German and the
call to action to /start; then Publish. The public article shows the cover (an `<img>` with
width, height and srcset), the author's name and bio, the call to action linking to /start and
two related articles, in `<html lang="de">`; the blog list shows the cover; Open Graph and the
JSON-LD name the cover and the author. Screenshots at 390 and 1280 px are kept for a person to
look at."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
from pathlib import Path

from PIL import Image
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page
from tests.e2e.test_accounts import expected_failures, log_in
from tests.e2e.test_blog import publish

PASSWORD = "cover page 1962 pw"
SCREENSHOTS = Path(os.environ.get("AGENCY_E2E_SCREENSHOTS", "/tmp/agency-e2e-screenshots"))
_runs = itertools.count(1)


def cover_png(path: Path) -> Path:
    """A 1600 x 900 PNG (bigger than the largest stored width, so it is resized)."""
    image = Image.new("RGB", (1600, 900), (30, 90, 160))
    for x in range(0, 1600, 200):
        image.paste((240, 180, 40), (x, 300, x + 100, 600))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    path.write_bytes(buffer.getvalue())
    return path


def json_ld(html: str) -> dict[str, object]:
    found = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert found is not None, "no JSON-LD"
    data: dict[str, object] = json.loads(found.group(1))
    return data


def test_admin_sets_cover_language_and_call_to_action_and_the_article_shows_them(
    browser: Browser, live_server: LiveServer, console: ConsoleLog, tmp_path: Path
) -> None:
    base = live_server.url
    run = next(_runs)
    email = f"cover-admin-{run}@example.com"
    live_server.cli("users", "create", email, "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    # Two other German articles sharing keywords: the related articles.
    related = [
        publish(
            live_server,
            f"Schnelle Praxis-Websites {run}",
            20,
            2029,  # before test_blog.py's articles, which expect to be the newest of the list
            language="de",
            keywords=["praxis", "website", "tempo"],
            meta_description="Warum eine schnelle Website mehr Termine bringt.",
            content="<p>Schnell.</p>",
        ),
        publish(
            live_server,
            f"Online-Termine für Praxen {run}",
            21,
            2029,
            language="de",
            keywords=["praxis", "termine"],
            meta_description="Termine online buchen lassen.",
            content="<p>Termine.</p>",
        ),
    ]
    page = open_page(browser, console, DESKTOP)
    try:
        log_in(page, base, email, PASSWORD)
        expect(page).to_have_url(base + "/dashboard")

        # The author: name and bio on the profile page.
        page.goto(base + "/dashboard/profile")
        page.get_by_label("First name").fill("Anna")
        page.get_by_label("Last name").fill("Schmidt")
        page.get_by_label("Short bio").fill("Anna baut schnelle Websites für Arztpraxen.")
        page.get_by_role("button", name="Save profile").click()
        expect(page.get_by_text("Profile saved.")).to_be_visible()

        title = f"Die schnelle Praxis-Website {run}"
        response = page.request.post(
            base + "/api/admin/articles",
            data={
                "title": title,
                "body_format": "html",
                "content": "<h2>Warum Tempo zählt</h2><p>Patienten warten nicht.</p>",
                "meta_description": "Was eine Praxis-Website schnell macht.",
                "keywords": ["praxis", "website", "tempo"],
            },
            headers={"X-Agency-Request": "1"},
        )
        assert response.status == 201, response.text()
        created = response.json()
        slug = created["slug"]
        assert created["author"] == {
            "name": "Anna Schmidt",
            "bio": "Anna baut schnelle Websites für Arztpraxen.",
        }

        # The manager's "Article page" panel.
        page.goto(base + "/dashboard/seo")
        row = page.get_by_role("table").get_by_role("row").filter(has_text=title)
        row.get_by_role("button", name="Edit").click()
        panel = page.get_by_role("form", name="Article page")
        expect(panel).to_be_visible()
        expect(panel.get_by_text("No cover image yet.")).to_be_visible()
        panel.get_by_label(re.compile(r"^Cover image \(JPEG")).set_input_files(
            str(cover_png(tmp_path / "cover.png"))
        )
        expect(panel.get_by_text("The cover image was saved.")).to_be_visible()
        preview = panel.locator("img.blog-page-settings__preview")
        expect(preview).to_have_attribute("width", "1440")
        expect(preview).to_have_attribute("height", "810")
        panel.get_by_label("Cover image description (alt text)").fill("Eine Praxis am Empfang")
        panel.get_by_label("Language").select_option(label="German")
        panel.get_by_label("Call to action at the end").select_option(
            label="Start a project (/start)"
        )
        panel.get_by_role("button", name="Save page settings").click()
        expect(panel.get_by_text("The page settings were saved.")).to_be_visible()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        panel.screenshot(path=str(SCREENSHOTS / "article-page-panel-desktop.png"))
        page.get_by_role("button", name="Cancel").click()
        row.get_by_role("button", name="Publish").click()
        expect(row).to_contain_text("Published")

        # The public article: its first HTML.
        response = page.request.get(f"{base}/blog/{slug}")
        assert response.status == 200
        html = response.text()
        assert re.search(r'<html lang="de"', html), html[:200]
        og = re.search(r'<meta property="og:image" content="([^"]+)"', html)
        assert og is not None
        cover_url = og.group(1)
        assert re.fullmatch(re.escape(base) + r"/api/blog/covers/[0-9a-f]{32}-1440\.png", cover_url)
        assert '<meta property="og:image:width" content="1440">' in html
        assert '<meta property="og:image:alt" content="Eine Praxis am Empfang">' in html
        structured = json_ld(html)
        assert structured["image"] == {
            "@type": "ImageObject",
            "url": cover_url,
            "width": 1440,
            "height": 810,
        }
        assert structured["author"] == {"@type": "Person", "name": "Anna Schmidt"}
        assert structured["inLanguage"] == "de"
        image = page.request.get(cover_url)
        assert image.status == 200
        assert image.headers["content-type"] == "image/png"
        assert image.headers["cache-control"] == "public, max-age=31536000, immutable"

        # The article in the browser, after hydration.
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)  # type: ignore[arg-type]
            page.goto(f"{base}/blog/{slug}")
            page.wait_for_load_state("networkidle")
            assert page.evaluate("() => document.documentElement.lang") == "de"
            expect(page.get_by_role("heading", level=1)).to_have_text(title)
            cover = page.locator("img.blog-article__cover")
            expect(cover).to_be_visible()
            expect(cover).to_have_attribute("alt", "Eine Praxis am Empfang")
            expect(cover).to_have_attribute("width", "1440")
            expect(cover).to_have_attribute("height", "810")
            srcset = cover.get_attribute("srcset") or ""
            assert re.fullmatch(
                r"/api/blog/covers/\w+-480\.png 480w, /api/blog/covers/\w+-960\.png 960w, "
                r"/api/blog/covers/\w+-1440\.png 1440w",
                srcset,
            ), srcset
            assert cover.evaluate("(img) => img.complete && img.naturalWidth > 0")
            author = page.locator(".blog-author")
            expect(author).to_contain_text("Anna Schmidt")
            expect(author).to_contain_text("Anna baut schnelle Websites für Arztpraxen.")
            expect(page.locator(".blog-cta a.blog-cta__link")).to_have_attribute("href", "/start")
            links = page.locator(".blog-related a.blog-related__link")
            expect(links).to_have_count(2)
            hrefs = sorted(links.evaluate_all("(as) => as.map((a) => a.getAttribute('href'))"))
            assert hrefs == sorted(f"/blog/{s}" for s in related), hrefs
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= size["width"], (name, width)
            page.screenshot(path=str(SCREENSHOTS / f"article-page-{name}.png"), full_page=True)

            # The blog list shows the cover on the article's card.
            page.goto(base + "/blog")
            page.wait_for_load_state("networkidle")
            card = page.locator(".blog-card").filter(has_text=title)
            card_cover = card.locator("img.blog-card__cover")
            expect(card_cover).to_be_visible()
            expect(card_cover).to_have_attribute("width", re.compile(r"^\d+$"))
            assert card_cover.evaluate("(img) => img.complete && img.naturalWidth > 0")
            page.screenshot(path=str(SCREENSHOTS / f"blog-list-covers-{name}.png"), full_page=False)

        # The CTA takes the reader to /start.
        page.goto(f"{base}/blog/{slug}")
        page.locator(".blog-cta a.blog-cta__link").click()
        expect(page).to_have_url(base + "/start")
    finally:
        page.context.close()
    assert expected_failures(console) == []


def test_the_manager_panel_at_phone_width(
    browser: Browser, live_server: LiveServer, console: ConsoleLog
) -> None:
    """The panel fits a phone: nothing sticks out sideways (screenshot kept)."""
    base = live_server.url
    email = f"cover-phone-{next(_runs)}@example.com"
    live_server.cli("users", "create", email, "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    page: Page = open_page(browser, console, PHONE)
    try:
        log_in(page, base, email, PASSWORD)
        expect(page).to_have_url(base + "/dashboard")
        response = page.request.post(
            base + "/api/admin/articles",
            data={"title": "Panel On A Phone", "body_format": "html", "content": "<p>x</p>"},
            headers={"X-Agency-Request": "1"},
        )
        assert response.status == 201, response.text()
        page.goto(f"{base}/dashboard/seo?edit={response.json()['id']}")
        panel = page.get_by_role("form", name="Article page")
        expect(panel.get_by_role("button", name="Save page settings")).to_be_enabled()
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        panel.screenshot(path=str(SCREENSHOTS / "article-page-panel-phone.png"))
    finally:
        page.context.close()
    assert expected_failures(console) == []
