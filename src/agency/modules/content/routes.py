"""The public site's content over HTTP: footer pages as JSON, crawler rules, the sitemap and
the media files an operator puts in the data directory (`/media/<name>`)."""

from __future__ import annotations

from typing import Any

from quart import Blueprint, Response, current_app, request, send_file
from quart_schema import hide, validate_response
from werkzeug.datastructures import Range
from werkzeug.exceptions import RequestedRangeNotSatisfiable

from agency.core.errors import NotFound
from agency.core.modules import HtmlFilter
from agency.core.web import app_settings, site_files
from agency.modules.blog import api as blog_api
from agency.modules.content.schemas import ContentPageOut
from agency.modules.content.service import media
from agency.modules.content.service import pages as site_pages
from agency.modules.content.settings import ContentSettings
from agency.modules.contracts import api as contracts_api
from agency.modules.legal import api as legal_api

blueprint = Blueprint("content", __name__)
PAGES = "content.pages"
WITHDRAWAL = "withdrawal"  # the withdrawal information (contracts), like the legal notice


def install(settings: ContentSettings, extensions: dict[str, Any]) -> HtmlFilter:
    """Read the site details and the Markdown pages once, at start-up: keep the pages for
    `/api/pages/<name>` and return the filter that fills both into the prerendered HTML."""
    details = site_pages.SiteDetails.from_settings(settings)
    pages = site_pages.ContentPages(
        site_pages.pages_dir(settings), details, legal_api.imprint_html(settings)
    )
    pages.pages[WITHDRAWAL] = site_pages.ContentPage(
        WITHDRAWAL,
        contracts_api.WITHDRAWAL_PAGE_TITLE,
        contracts_api.withdrawal_information_html(settings),
    )
    extensions[PAGES] = pages
    return site_pages.html_filter(details, pages)


def pages() -> site_pages.ContentPages:
    """The footer pages `install` read at start-up."""
    found = current_app.extensions[PAGES]
    if not isinstance(found, site_pages.ContentPages):
        raise TypeError(f"app.extensions[{PAGES!r}] holds no content pages")
    return found


@blueprint.get("/api/pages/<name>")
@validate_response(ContentPageOut, 200)
async def get_content_page(name: str) -> ContentPageOut:
    """A footer page (faq, about, contact, careers, privacy, terms, cookies) as sanitised HTML,
    rendered from its Markdown file, or the legal notice (imprint), built from the seller's
    details. Prerendered pages already carry it; the web UI asks for it
    when it navigates to such a page."""
    page = pages().get(name)
    if page is None:
        raise NotFound("This page does not exist.", code="page_not_found")
    return ContentPageOut(name=page.name, title=page.title, html=page.html)


@blueprint.get("/robots.txt")
@hide
async def get_robots() -> Response:
    """Crawler rules, pointing at the sitemap by its absolute address."""
    base = app_settings().public_url
    return Response(
        site_pages.robots_txt(base),
        content_type="text/plain; charset=utf-8",
        headers={"Cache-Control": "public, max-age=3600"},
    )


@blueprint.get("/sitemap.xml")
@hide
async def get_sitemap() -> Response:
    """Every public page of the built site, then every published article with its last change,
    by absolute address. Read from the database on every request (no cache to go stale: an
    article shows the moment it is published, on every server process)."""
    base = app_settings().public_url
    paths = site_files().sitemap_paths
    articles = [
        (f"/blog/{slug}", changed) for slug, changed in await blog_api.published_for_sitemap()
    ]
    return Response(
        site_pages.sitemap_xml(base, paths, articles),
        content_type="application/xml; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


@blueprint.get("/media/<name>")
@hide
async def get_media(name: str) -> Response:
    """A file of the data directory's `media/` folder (the /ugc-force sample video, its poster
    and captions): MP4, WebM, JPEG, PNG, WebP, AVIF or WebVTT. Answers Range requests (206),
    which video players send, and If-None-Match / If-Modified-Since (304); browsers keep it an
    hour. 404 for any other name. The built web UI's own `/media/` files are answered before
    this, by the static layer."""
    found = media.public_file(media.media_folder(app_settings().data_dir), name)
    if found is None:
        raise NotFound("This file does not exist.", code="media_not_found")
    path, kind = found
    size = path.stat().st_size
    wanted = request.range
    if wanted is not None and size:
        # As absolute offsets: Quart's send_file fails on a suffix range (`bytes=-500`) and on
        # one starting past the end instead of answering it or 416.
        span = wanted.range_for_length(size)
        if span is None:
            raise RequestedRangeNotSatisfiable(length=size)
        request.range = Range("bytes", [span])
    return await send_file(path, mimetype=kind, cache_timeout=media.MAX_AGE, conditional=True)
