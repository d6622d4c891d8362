"""A page that duplicates another names it as canonical and stays out of the sitemap: the
built site as served (webui/dist), /ai-scale-startup4 being /ai-scale-startup's twin."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agency.app import create_app
from agency.core.paths import web_dir
from tests.conftest import make_settings, web_client

pytestmark = pytest.mark.skipif(
    not (web_dir() / "routes.json").is_file(), reason="web UI not built"
)


def _links(page: str, pattern: str) -> list[str]:
    return re.findall(pattern, page)


async def test_the_duplicate_names_the_original_as_canonical_and_leaves_the_sitemap(
    tmp_path: Path, database_url: str
) -> None:
    settings = make_settings(tmp_path, database_url, web_dir=web_dir())
    app = create_app(settings)
    async with app.test_app(), web_client(app) as http:
        duplicate = (await http.get("/ai-scale-startup4")).text
        original = (await http.get("/ai-scale-startup")).text
        sitemap = (await http.get("/sitemap.xml")).text
    [base] = re.findall(r"<loc>(https?://[^/<]+)/</loc>", sitemap)
    canonical = r'<link rel="canonical" href="([^"]*)"'
    og_url = r'<meta property="og:url" content="([^"]*)"'
    assert _links(duplicate, canonical) == [f"{base}/ai-scale-startup"]
    assert _links(duplicate, og_url) == [f"{base}/ai-scale-startup"]
    assert _links(original, canonical) == [f"{base}/ai-scale-startup"]
    assert f"<loc>{base}/ai-scale-startup</loc>" in sitemap
    assert "/ai-scale-startup4<" not in sitemap
    # Its twins selling other plans are pages of their own.
    for path in ("/ai-scale-startup2", "/ai-scale-startup3"):
        assert f"<loc>{base}{path}</loc>" in sitemap
