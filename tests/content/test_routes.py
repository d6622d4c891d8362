"""The content module inside the real app: its routes, its settings check at start-up, and its
contributions through the module descriptor (HTML filter, CSP frame origin), chained with
another module's by `create_app`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from agency.app import create_app
from agency.core.modules import Module
from agency.core.settings import SettingsError
from agency.registry import MODULES
from agency.settings import Settings
from tests.conftest import make_settings, web_client

PAGE = (
    '<html><head><meta name="agency-site" content="__AGENCY_SITE__" /></head><body>'
    '<a href="/start?type=ai-scale&amp;plan=__AGENCY_CONTENT_ENGINE_PLAN__">Buy</a>'
    '<article data-content-page="faq"><!--agency-page:faq--></article>__OTHER__</body></html>'
)


def pages_settings(tmp_path: Path, **overrides: Any) -> Settings:
    """Settings serving a small build with a content page, and `pages_dir` holding its
    Markdown; on an in-memory database unless `database_url` is given."""
    web = tmp_path / "web"
    (web / "ai-scale-startup2").mkdir(parents=True)
    (web / "index.html").write_text("<html><h1>Home</h1></html>")
    (web / "ai-scale-startup2" / "index.html").write_text(PAGE)
    (web / "routes.json").write_text(
        json.dumps({"prerendered": ["/", "/ai-scale-startup2"], "spa": [], "sitemap": ["/"]})
    )
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "faq.md").write_text("# Questions\n\nAsk {email}.\n")
    database_url = overrides.pop("database_url", "sqlite://:memory:")
    return make_settings(tmp_path, database_url, web_dir=web, pages_dir=pages, **overrides)


async def get(app: Any, path: str) -> httpx.Response:
    async with app.test_app(), web_client(app) as http:
        return await http.get(path)


async def test_footer_pages_robots_and_sitemap_are_the_content_modules(
    tmp_path: Path, database_url: str
) -> None:
    app = create_app(
        pages_settings(tmp_path, base_url="https://shop.example", database_url=database_url)
    )
    rules = {rule.rule: rule.endpoint for rule in app.url_map.iter_rules()}
    for path in ("/api/pages/<name>", "/robots.txt", "/sitemap.xml"):
        assert rules[path].startswith("content."), path
    faq = await get(app, "/api/pages/faq")
    assert faq.json()["title"] == "Questions"
    assert faq.headers["cache-control"] == "no-store"
    robots = await get(app, "/robots.txt")
    assert robots.headers["cache-control"] == "public, max-age=3600"
    assert robots.text.endswith("Sitemap: https://shop.example/sitemap.xml\n")
    sitemap = await get(app, "/sitemap.xml")
    assert sitemap.headers["cache-control"] == "no-cache"  # published articles show at once
    assert sitemap.text == (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://shop.example/</loc></url></urlset>"
    )


def test_the_app_does_not_start_with_a_bad_plan_mapping(tmp_path: Path) -> None:
    settings = pages_settings(tmp_path, content_engine_plans={"/ai-scale-startup": "premium"})
    with pytest.raises(SettingsError, match="AGENCY_CONTENT_ENGINE_PLANS: Value error, unknown"):
        create_app(settings)


async def test_module_filters_and_frame_origins_are_chained_in_registry_order(
    tmp_path: Path,
) -> None:
    seen: list[str] = []

    def other_filter(_settings: Settings, _extensions: dict[str, Any]) -> Any:
        def fill(relative: str, text: str) -> str:
            # Runs after the content module's filter: its tokens are already filled.
            seen.append(relative)
            assert "__AGENCY_" not in text
            return text.replace("__OTHER__", "<p>other module</p>")

        return fill

    other = Module(
        name="other",
        html_filter=other_filter,
        frame_origins=lambda _settings: ("https://video.example",),
    )
    settings = pages_settings(
        tmp_path,
        scheduling_url="https://cal.example/team",
        content_engine_plans={"/ai-scale-startup2": "ai-scale-growth"},
    )
    app = create_app(settings, modules=[*MODULES, other])
    response = await get(app, "/ai-scale-startup2")
    assert "plan=ai-scale-growth" in response.text
    assert "<h1>Questions</h1>" in response.text
    assert "<p>other module</p>" in response.text
    assert "ai-scale-startup2/index.html" in seen
    csp = response.headers["content-security-policy"]
    assert csp.endswith("frame-src 'self' https://cal.example https://video.example")
    api = await get(app, "/api/health")
    assert api.headers["content-security-policy"] == csp
