"""Serving the built web UI: pages, hashed assets, precompressed files, SPA routes, fallbacks.

Runs the real ASGI stack (static layer in front of Quart) over httpx, against a small build
written by the test in the same layout as `npm run build` produces."""

from __future__ import annotations

import gzip
import json
import re
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import brotli
import httpx
import pytest

from agency.app import create_app
from agency.core.web.site import SiteFiles
from tests.conftest import make_settings, web_client
from tests.legal.seller import SELLER

ASSET = b"console.log('hello');" * 200
WEBUI = Path(__file__).resolve().parents[2] / "webui"
# The cases the client's route matcher answers alike (webui/src/app/routes.test.tsx).
ROUTE_CASES: dict[str, Any] = json.loads(
    (WEBUI / "test" / "fixtures" / "route-cases.json").read_text(encoding="utf-8")
)


# The built 404 page (webui/src/pages/NotFound.tsx, dist/404.html), long enough to compress.
NOT_FOUND_PAGE = (
    '<html><head><title>Page not found | agency</title><meta name="robots" content="noindex"/>'
    "</head><body><h1>Page not found</h1>" + '<a href="/">Home page</a>' * 40 + "</body></html>"
)


def write_build(root: Path) -> None:
    (root / "assets").mkdir(parents=True)
    (root / "landing").mkdir()
    (root / "index.html").write_text("<html><h1>Your Website. Live in Minutes.</h1></html>")
    (root / "landing" / "index.html").write_text("<html><h1>Landing</h1></html>")
    (root / "spa.html").write_text('<html><div id="root"></div></html>')
    (root / "404.html").write_text(NOT_FOUND_PAGE)
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


def zip_build(root: Path, archive_path: Path) -> Path:
    """The build as the one-file binary carries it (agency.spec): one stored zip."""
    with zipfile.ZipFile(archive_path, "w", zipfile.ZIP_STORED) as archive:
        for path in sorted(root.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(root).as_posix())
    return archive_path


@pytest.fixture(params=["directory", "zip"])
async def http(tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    """The site served from a build directory, and from the same build as one zip."""
    web = tmp_path / "web"
    write_build(web)
    if request.param == "zip":
        web = zip_build(web, tmp_path / "web.zip")
    # A real seller: the pages are served exactly as built (no demo notice, tests/legal).
    settings = make_settings(tmp_path, "sqlite://:memory:", web_dir=web, **SELLER)
    app = create_app(settings)
    # test_app() opens the database for the Quart side.
    async with app.test_app(), web_client(app) as client:
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


@pytest.mark.parametrize(
    "path", ["/nope", "/dashboard/websites/1/extra", "/404", "/404.html", "/routes.json"]
)
async def test_unknown_paths_get_the_404_page_with_status_404(
    http: httpx.AsyncClient, path: str
) -> None:
    response = await http.get(path, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 404
    assert "location" not in response.headers
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["cache-control"] == "no-cache"
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.text == NOT_FOUND_PAGE  # httpx decodes gzip
    assert "<title>Page not found | agency</title>" in response.text


async def test_head_of_an_unknown_path_is_404_without_a_body(http: httpx.AsyncClient) -> None:
    response = await http.head("/nope", headers={"Accept-Encoding": "identity"})
    assert response.status_code == 404
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.content == b""


async def test_a_missing_asset_is_a_plain_404(http: httpx.AsyncClient) -> None:
    response = await http.get("/assets/missing.js")
    assert response.status_code == 404
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert "location" not in response.headers


async def test_without_a_built_404_page_an_unknown_path_is_still_404(tmp_path: Path) -> None:
    web = tmp_path / "web"
    write_build(web)
    (web / "404.html").unlink()
    app = create_app(make_settings(tmp_path, "sqlite://:memory:", web_dir=web))
    async with app.test_app(), web_client(app) as http:
        response = await http.get("/nope")
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.text


@pytest.mark.parametrize("path", ["/LANDING", "/landing//", "/Start/", "/dashboard/websites/42//"])
async def test_case_and_repeated_trailing_slashes_do_not_matter(
    http: httpx.AsyncClient, path: str
) -> None:
    response = await http.get(path)
    assert response.status_code == 200
    assert "<h1>Landing</h1>" in response.text or '<div id="root"></div>' in response.text


@pytest.fixture(scope="module")
def routed_site(tmp_path_factory: pytest.TempPathFactory) -> SiteFiles:
    """A build of the route table the cases are written for: each page says which it is."""
    root = tmp_path_factory.mktemp("routed")
    routes = ROUTE_CASES["routes"]
    for page in routes["prerendered"]:
        folder = root / page.strip("/")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(f"page {page}")
    (root / "spa.html").write_text("spa")
    (root / "routes.json").write_text(json.dumps(routes))
    return SiteFiles(root, [])


def test_a_zipped_build_is_served_as_its_directory(tmp_path: Path) -> None:
    web = tmp_path / "web"
    write_build(web)
    (web / "_templates").mkdir()
    (web / "_templates" / "start.html").write_text("<html>start</html>")
    manifest = json.loads((web / "routes.json").read_text())
    (web / "routes.json").write_text(
        json.dumps({**manifest, "templates": {"/start": "_templates/start.html"}})
    )
    from_directory = SiteFiles(web, [], server_pages=["/start"])
    from_zip = SiteFiles(zip_build(web, tmp_path / "web.zip"), [], server_pages=["/start"])
    assert from_zip.files.keys() == from_directory.files.keys() and from_zip.files
    for path, entry in from_directory.files.items():
        assert from_zip.files[path].variants == entry.variants
        assert from_zip.files[path].headers == entry.headers
    assert from_zip.templates == from_directory.templates == {"/start": "<html>start</html>"}
    assert from_zip.spa is not None and from_directory.spa is not None
    assert from_zip.spa.variants == from_directory.spa.variants
    assert from_zip.not_found_html == from_directory.not_found_html == NOT_FOUND_PAGE
    assert "/404.html" not in from_directory.files
    assert from_zip.sitemap_paths == from_directory.sitemap_paths == ["/", "/landing"]


@pytest.mark.parametrize("case", ROUTE_CASES["cases"], ids=lambda case: case["path"])
def test_the_server_answers_each_route_case_as_the_client(
    routed_site: SiteFiles, case: dict[str, Any]
) -> None:
    # What the ASGI server hands over: no query or fragment, percent-decoded.
    path = unquote(re.split("[?#]", case["path"], maxsplit=1)[0])
    entry = routed_site.lookup(path)
    served = None if entry is None else entry.variants["identity"].decode()
    route = case["route"]
    if route is None:
        expected = None  # Quart then answers 404 with the 404 page
    elif route in ROUTE_CASES["routes"]["prerendered"]:
        expected = f"page {route}"
    else:
        expected = "spa"
    assert served == expected, case["why"]


def test_the_route_cases_are_written_for_the_built_route_table() -> None:
    built = WEBUI / "dist" / "routes.json"
    # Like the E2E suite, a missing build is an error, never a skip: the test command builds it.
    assert built.is_file(), "the web UI is not built: run `npm run build` in webui/"
    routes = json.loads(built.read_text(encoding="utf-8"))
    assert {k: routes[k] for k in ("prerendered", "spa")} == ROUTE_CASES["routes"]


@pytest.mark.parametrize("path", ["/api/start", "/api/nope"])
async def test_unknown_api_path_is_json_not_the_shell(http: httpx.AsyncClient, path: str) -> None:
    for response in (await http.get(path), await http.head(path)):
        assert response.status_code == 404
        assert response.headers["content-type"].startswith("application/json")
    response = await http.get(path)
    assert response.json()["error"]["code"] == "not_found"


async def test_robots_txt_is_real_and_points_at_the_sitemap(http: httpx.AsyncClient) -> None:
    response = await http.get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.text.startswith("User-agent: *")
    assert "Disallow: /dashboard" in response.text
    assert "Sitemap: http://127.0.0.1:8000/sitemap.xml" in response.text


async def test_sitemap_lists_the_public_pages_by_absolute_address(
    tmp_path: Path, database_url: str
) -> None:
    # The sitemap also lists the blog's published articles: it needs a migrated database.
    web = tmp_path / "web"
    write_build(web)
    app = create_app(make_settings(tmp_path, database_url, web_dir=web))
    async with app.test_app(), web_client(app) as http:
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
    assert response.status_code == 404


async def test_hsts_on_pages_and_api_when_served_over_https(tmp_path: Path) -> None:
    web = tmp_path / "web"
    write_build(web)
    settings = make_settings(
        tmp_path, "sqlite://:memory:", web_dir=web, base_url="https://shop.example"
    )
    app = create_app(settings)
    async with app.test_app(), web_client(app, "https://shop.example") as http:
        for path in ("/", "/assets/index-abc123.js", "/api/health"):
            response = await http.get(path)
            assert response.headers["strict-transport-security"].startswith("max-age="), path


SITE_PAGE = (
    '<html><head><meta name="agency-site" content="__AGENCY_SITE__" /></head><body>'
    '<a href="__AGENCY_PHONE_HREF__">__AGENCY_PHONE__</a>'
    '<a href="/start?type=ai-scale&amp;plan=__AGENCY_CONTENT_ENGINE_PLAN__">Buy</a>'
    '<article class="prose" data-content-page="terms"><!--agency-page:terms--></article>'
    "</body></html>"
)


async def served_site(tmp_path: Path, **overrides: Any) -> tuple[Any, Path]:
    web = tmp_path / "web"
    write_build(web)
    for route in ("terms", "ai-scale-startup3"):
        (web / route).mkdir()
        (web / route / "index.html").write_text(SITE_PAGE)
        # The build's own compressed copies still hold the tokens: they must not be served.
        (web / route / "index.html.br").write_bytes(brotli.compress(SITE_PAGE.encode()))
    (web / "spa.html").write_text(SITE_PAGE)
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "terms.md").write_text("# Our Terms\n\nCall {phone} or write to {email}.\n")
    settings = make_settings(
        tmp_path,
        "sqlite://:memory:",
        web_dir=web,
        pages_dir=pages,
        contact_phone="+44 20 7946 0958",
        contact_email="team@shop.example",
        **overrides,
    )
    return create_app(settings), web


@pytest.mark.parametrize("encoding", ["br", "gzip", "identity"])
async def test_pages_are_served_with_the_configured_site_details(
    tmp_path: Path, encoding: str
) -> None:
    app, _ = await served_site(tmp_path)
    async with app.test_app(), web_client(app) as http:
        response = await http.get("/ai-scale-startup3", headers={"Accept-Encoding": encoding})
        assert response.headers.get("content-encoding", "identity") == encoding
        raw = response.content  # httpx decodes gzip and brotli
        text = raw.decode()
        assert "__AGENCY_" not in text and "agency-page:" not in text
        assert '<a href="tel:+442079460958">+44 20 7946 0958</a>' in text
        assert "plan=ai-scale-growth" in text
        assert "<h1>Our Terms</h1>" in text and 'href="mailto:team@shop.example"' in text
        assert "&quot;contactEmail&quot;:&quot;team@shop.example&quot;" in text
        spa = await http.get("/start")
        assert "&quot;phone&quot;:&quot;+44 20 7946 0958&quot;" in spa.text


async def test_a_content_page_is_also_served_as_json(tmp_path: Path) -> None:
    app, _ = await served_site(tmp_path)
    async with app.test_app(), web_client(app) as http:
        response = await http.get("/api/pages/terms")
        assert response.status_code == 200
        body = response.json()
        assert body["name"] == "terms" and body["title"] == "Our Terms"
        assert body["html"].startswith("<h1>Our Terms</h1>")
        missing = await http.get("/api/pages/privacy")  # no privacy.md in this folder
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "page_not_found"
        unknown = await http.get("/api/pages/..%2Fsecret")
        assert unknown.status_code == 404


async def test_the_scheduling_origin_and_nothing_else_may_be_framed(tmp_path: Path) -> None:
    plain, _ = await served_site(tmp_path / "a")
    framed, _ = await served_site(tmp_path / "b", scheduling_url="https://cal.example/team/30min")
    for app, expected in ((plain, None), (framed, "frame-src 'self' https://cal.example")):
        async with app.test_app(), web_client(app, "http://t") as http:
            for path in ("/sales-funnel-missing", "/terms", "/api/health"):
                response = await http.get(path)
                csp = response.headers["content-security-policy"]
                if expected is None:
                    assert "frame-src" not in csp, path
                else:
                    assert csp.endswith(expected), path
                assert "frame-ancestors 'none'" in csp
