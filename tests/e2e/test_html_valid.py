"""Every public page is valid HTML: html-validate (webui's dev dependency) with the standard,
document and accessibility rules and our `agency/aria-allowed-role` (an ARIA role its element
does not allow is an error), run by webui/scripts/validate-html.mjs over each prerendered page
as the real server sends it (its tokens and Markdown pages filled in) and the 404 page, and
over the same pages as Chromium shows them once the client has taken over; and the blog with
published articles (the list's two pages, article pages with and without a cover, author,
Markdown body, related articles and each call to action, and an unknown article's 404), which no
prerendered page shows."""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Page

from agency.core.paths import web_dir
from agency.modules.auth.models import Profile, User
from agency.modules.blog import api as blog_api
from agency.modules.blog.schemas import ArticleIn, ArticlePageIn
from agency.modules.blog.service import articles as blog_articles
from agency.modules.blog.service import covers
from tests.e2e.conftest import LiveServer
from tests.e2e.test_blog import on_database

WEBUI = Path(__file__).resolve().parents[2] / "webui"
VALIDATOR = WEBUI / "scripts" / "validate-html.mjs"


def validate(*files: Path) -> list[dict[str, Any]]:
    """html-validate's problems with the given files (none: an empty list)."""
    run = subprocess.run(
        ["node", str(VALIDATOR), "--json", *map(str, files)],
        cwd=WEBUI,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr
    report: dict[str, Any] = json.loads(run.stdout)
    assert report["files"] == len(files)
    errors: list[dict[str, Any]] = report["errors"]
    return errors


def problems_of(paths: list[str], files: list[Path]) -> list[str]:
    return [
        f"{paths[int(Path(e['file']).stem)]}:{e['line']}:{e['column']} {e['rule']}: "
        f"{e['message']} ({e['selector']})"
        for e in validate(*files)
    ]


_runs = itertools.count(1)
MARKDOWN = """Patients leave a slow page before it shows.

## What makes a page fast

1. Small images, sized for the screen
2. Fonts of the site's own
3. No script the page does not need

> A second faster is a few more bookings a week.

Read [the study](https://example.com/study) or ask us: `hello@example.com`.

| Page | Score |
| --- | --- |
| Home | 98 |
"""


def cover_bytes() -> bytes:
    image = Image.new("RGB", (1200, 675), (30, 90, 160))
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG")
    return buffer.getvalue()


@pytest.fixture(scope="module")
def blog_paths(live_server: LiveServer) -> list[str]:
    """Published articles on the live server, as an admin makes them: one in Markdown with an
    author (name and bio), a cover with its alt text, German and the call to action to /start;
    two in HTML without a cover or author sharing its keywords (its related articles, and it
    theirs), with the speed-test call to action; ten short ones more for a second page of the list.
    The list's two pages, each article's path and an unknown article's."""
    run = next(_runs)
    email = f"html-author-{run}@example.com"
    password = "valid html 1962 pw"
    live_server.cli("users", "create", email, "--admin", stdin=f"{password}\n{password}\n")
    folder = live_server.workdir / "data" / covers.FOLDER

    async def work() -> list[str]:
        author = await User.get(email=email)
        await Profile.filter(id=author.id).update(
            first_name="Anna", last_name="Schmidt", bio="Anna builds fast sites for clinics."
        )
        main = await blog_api.create_article(
            ArticleIn(
                title=f"Valid Clinic Pages {run}",
                meta_description="What makes a clinic's page fast & clear.",
                keywords=["clinic", "speed", "html"],
                body_format="markdown",
                source=MARKDOWN,
            ),
            created_by=author.id,
        )
        await covers.set_cover(main.id, cover_bytes(), folder)
        await blog_articles.set_page_settings(
            main.id,
            ArticlePageIn(language="de", call_to_action="start", cover_alt="A clinic's front desk"),
        )
        slugs = [main.slug]
        for number, title in enumerate(("Fast Forms", "Booking Online")):
            other = await blog_api.create_article(
                ArticleIn(
                    title=f"{title} {run}",
                    meta_description=f'"{title}" for clinics.',
                    keywords=["clinic", "speed"],
                    content=f"<h2>{title}</h2><p>Short and <strong>clear</strong>.</p>",
                    call_to_action="speed_test",
                ),
                created_by=None,
            )
            slugs.append(other.slug)
            assert number < 2
        # Enough more for a second page of the list (12 a page): its links to other pages.
        for number in range(10):
            filler = await blog_api.create_article(
                ArticleIn(title=f"Note {number} of run {run}", content="<p>A short note.</p>"),
                created_by=None,
            )
            await blog_api.set_status(filler.id, "published")
        for slug in slugs:
            found = await blog_api.article_by_slug(slug)
            assert found is not None
            await blog_api.set_status(found.id, "published")
        return slugs

    slugs: list[str] = on_database(live_server, work)
    return [
        "/blog",
        "/blog?page=2",
        *(f"/blog/{slug}" for slug in slugs),
        "/blog/no-such-article",
    ]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return str(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:  # the 404 page is a page too
        return str(error.read().decode("utf-8"))


def test_the_checker_refuses_a_role_its_element_does_not_allow(tmp_path: Path) -> None:
    page = tmp_path / "roles.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>Roles</title></head><body><main>'
        "<h1>Roles</h1>"
        '<ul><li role="status">Saved.</li></ul>'
        '<article role="group" aria-label="Offer">An offer</article>'
        '<div role="group" aria-label="Fine">A div may be a group</div>'
        "</main></body></html>",
        encoding="utf-8",
    )
    problems = [(e["rule"], e["message"]) for e in validate(page)]
    assert problems == [
        ("agency/aria-allowed-role", 'Role "status" is not allowed on <li>'),
        ("agency/aria-allowed-role", 'Role "group" is not allowed on <article>'),
    ]


def test_every_public_page_is_valid_html(live_server: LiveServer, tmp_path: Path) -> None:
    routes = json.loads((web_dir() / "routes.json").read_text(encoding="utf-8"))
    paths: list[str] = [*routes["prerendered"], "/no-such-page"]
    files = []
    for number, path in enumerate(paths):
        file = tmp_path / f"{number:03d}.html"
        file.write_text(fetch(live_server.url + path), encoding="utf-8")
        files.append(file)
    problems = [
        f"{paths[int(Path(e['file']).stem)]}:{e['line']}:{e['column']} {e['rule']}: "
        f"{e['message']} ({e['selector']})"
        for e in validate(*files)
    ]
    assert problems == [], "\n".join(problems)


def test_every_public_page_is_valid_html_once_the_client_took_over(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    routes = json.loads((web_dir() / "routes.json").read_text(encoding="utf-8"))
    paths: list[str] = [*routes["prerendered"], "/no-such-page"]
    files = []
    for number, path in enumerate(paths):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        file = tmp_path / f"{number:03d}.html"
        file.write_text(page.content(), encoding="utf-8")
        files.append(file)
    problems = [
        f"{paths[int(Path(e['file']).stem)]}:{e['line']}:{e['column']} {e['rule']}: "
        f"{e['message']} ({e['selector']})"
        for e in validate(*files)
    ]
    assert problems == [], "\n".join(problems)


def test_the_blog_with_articles_is_valid_html(
    live_server: LiveServer, blog_paths: list[str], tmp_path: Path
) -> None:
    files = []
    for number, path in enumerate(blog_paths):
        file = tmp_path / f"{number:03d}.html"
        html = fetch(live_server.url + path)
        assert "<article" in html or path.endswith("no-such-article"), path  # filled
        file.write_text(html, encoding="utf-8")
        files.append(file)
    assert 'href="/blog?page=2"' in files[0].read_text(encoding="utf-8")
    first_article = files[2].read_text(encoding="utf-8")
    assert 'lang="de"' in first_article and "Anna Schmidt" in first_article
    assert "/api/blog/covers/" in first_article and "<table>" in first_article
    problems = problems_of(blog_paths, files)
    assert problems == [], "\n".join(problems)


def test_the_blog_with_articles_is_valid_html_once_the_client_took_over(
    page: Page, live_server: LiveServer, blog_paths: list[str], tmp_path: Path
) -> None:
    files = []
    for number, path in enumerate(blog_paths):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        file = tmp_path / f"{number:03d}.html"
        file.write_text(page.content(), encoding="utf-8")
        files.append(file)
    problems = problems_of(blog_paths, files)
    assert problems == [], "\n".join(problems)
