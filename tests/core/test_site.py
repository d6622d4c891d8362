"""Serving the built web UI: pages, hashed assets, precompressed files, SPA routes, fallbacks.

Runs the real ASGI stack (static layer in front of Quart) over httpx, against a small build
written by the test in the same layout as `npm run build` produces."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import brotli
import httpx
import pytest

from agency.app import create_app
from tests.conftest import make_settings

ASSET = b"console.log('hello');" * 200


def write_build(root: Path) -> None:
    (root / "assets").mkdir(parents=True)
    (root / "landing").mkdir()
    (root / "index.html").write_text("<html><h1>Your Website. Live in Minutes.</h1></html>")
    (root / "landing" / "index.html").write_text("<html><h1>Landing</h1></html>")
    (root / "spa.html").write_text('<html><div id="root"></div></html>')
    (root / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    asset = root / "assets" / "index-abc123.js"
    asset.write_bytes(ASSET)
    (root / "assets" / "index-abc123.js.gz").write_bytes(gzip.compress(ASSET))
    (root / "assets" / "index-abc123.js.br").write_bytes(brotli.compress(ASSET))
    (root / "routes.json").write_text(
        json.dumps(
            {
                "prerendered": ["/", "/landing"],
                "spa": ["/start", "/dashboard/websites/:id"],
                "sitemap": ["/", "/landing"],
            }
        )
    )


@pytest.fixture
async def http(tmp_path: Path) -> Any:
    web = tmp_path / "web"
    write_build(web)
    settings = make_settings(tmp_path, "sqlite://:memory:", web_dir=web)
    app = create_app(settings)
    async with app.test_app():  # opens the database for the Quart side
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


async def test_home_is_the_prerendered_page(http: httpx.AsyncClient) -> None:
    response = await http.get("/", headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200
    assert "Your Website. Live in Minutes." in response.text
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["cache-control"] == "no-cache"
    assert "script-src 'self'" in response.headers["content-security-policy"]


@pytest.mark.parametrize("path", ["/landing", "/landing/", "/landing/index.html"])
async def test_page_paths_map_to_html_without_redirect(http: httpx.AsyncClient, path: str) -> None:
    response = await http.get(path)
    assert response.status_code == 200
    assert "<h1>Landing</h1>" in response.text


async def test_hashed_asset_is_immutable_and_brotli_when_accepted(http: httpx.AsyncClient) -> None:
    response = await http.get("/assets/index-abc123.js", headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "br"
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert response.headers["vary"] == "Accept-Encoding"
    assert response.headers["content-type"] == "text/javascript; charset=utf-8"
    assert response.content == ASSET  # httpx decodes brotli


async def test_gzip_when_brotli_not_accepted(http: httpx.AsyncClient) -> None:
    response = await http.get("/assets/index-abc123.js", headers={"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.content == ASSET


async def test_identity_when_no_encoding_accepted(http: httpx.AsyncClient) -> None:
    response = await http.get(
        "/assets/index-abc123.js", headers={"Accept-Encoding": "br;q=0, gzip;q=0"}
    )
    assert "content-encoding" not in response.headers
    assert response.content == ASSET
    assert int(response.headers["content-length"]) == len(ASSET)


async def test_etag_revalidation_answers_304(http: httpx.AsyncClient) -> None:
    first = await http.get("/")
    again = await http.get("/", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert again.content == b""


async def test_head_sends_headers_only(http: httpx.AsyncClient) -> None:
    response = await http.head("/assets/index-abc123.js", headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200
    assert response.content == b""
    assert int(response.headers["content-length"]) == len(ASSET)


@pytest.mark.parametrize("path", ["/start", "/dashboard/websites/42", "/dashboard/websites/42/"])
async def test_client_routes_get_the_spa_shell(http: httpx.AsyncClient, path: str) -> None:
    response = await http.get(path)
    assert response.status_code == 200
    assert '<div id="root"></div>' in response.text


@pytest.mark.parametrize("path", ["/nope", "/dashboard/websites/1/extra", "/assets/missing.js"])
async def test_unknown_paths_redirect_to_root(http: httpx.AsyncClient, path: str) -> None:
    response = await http.get(path)
    assert response.status_code == 302
    assert response.headers["location"] == "/"


async def test_unknown_api_path_is_json_not_the_shell(http: httpx.AsyncClient) -> None:
    response = await http.get("/api/start")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


async def test_robots_txt_is_real_and_points_at_the_sitemap(http: httpx.AsyncClient) -> None:
    response = await http.get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.text.startswith("User-agent: *")
    assert "Disallow: /dashboard" in response.text
    assert "Sitemap: http://127.0.0.1:8000/sitemap.xml" in response.text


async def test_sitemap_lists_the_public_pages_by_absolute_address(http: httpx.AsyncClient) -> None:
    response = await http.get("/sitemap.xml")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/xml; charset=utf-8"
    assert "<loc>http://127.0.0.1:8000/</loc>" in response.text
    assert "<loc>http://127.0.0.1:8000/landing</loc>" in response.text
    assert "/start" not in response.text


async def test_other_top_level_files_are_served(http: httpx.AsyncClient) -> None:
    response = await http.get("/favicon.svg")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml; charset=utf-8"


async def test_routes_manifest_is_not_served(http: httpx.AsyncClient) -> None:
    response = await http.get("/routes.json")
    assert response.status_code == 302


async def test_hsts_on_pages_and_api_when_served_over_https(tmp_path: Path) -> None:
    web = tmp_path / "web"
    write_build(web)
    settings = make_settings(
        tmp_path, "sqlite://:memory:", web_dir=web, base_url="https://shop.example"
    )
    app = create_app(settings)
    async with app.test_app():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="https://shop.example") as http:
            for path in ("/", "/assets/index-abc123.js", "/api/health"):
                response = await http.get(path)
                assert response.headers["strict-transport-security"].startswith("max-age="), path
