"""The public blog over HTTP: the JSON API, the server-filled pages `/blog` and `/blog/{slug}`
(their first HTML response already holds the list or the article), and the RSS feed."""

from __future__ import annotations

from pathlib import Path

from quart import Blueprint, Response, request
from quart_schema import hide, validate_querystring, validate_request, validate_response

from agency.core.errors import NotFound, ValidationFailed
from agency.core.web import app_settings, openapi, site_files
from agency.modules.auth import web as auth_web
from agency.modules.blog.schemas import (
    ArticleOut,
    ArticlePageIn,
    BlogPageOut,
    BlogPageQuery,
    BlogQuery,
    PublishedArticleOut,
)
from agency.modules.blog.service import articles, covers, pages, public

blueprint = Blueprint("blog", __name__)
HTML = "text/html; charset=utf-8"
# Pages and feeds change the moment an article is published or archived: every response is
# made from the database, and browsers and proxies revalidate.
FRESH = {"Cache-Control": "no-cache"}


def _base_url() -> str:
    return app_settings().public_url


def _template(pattern: str) -> str | None:
    return site_files().page_template(pattern)


def _moved(location: str, status: int = 301) -> Response:
    return Response("", status=status, headers={"Location": location, **FRESH})


def _page(text: str, status: int = 200) -> Response:
    return Response(text, status=status, content_type=HTML, headers=FRESH)


@blueprint.get("/api/blog/articles")
@validate_querystring(BlogQuery)
@validate_response(BlogPageOut, 200)
async def get_articles(query_args: BlogQuery) -> BlogPageOut:
    """Published articles, newest first by published date, 12 a page (`?page=`, from 1; past
    the last page the list is empty)."""
    return await public.blog_page(query_args.page or 1)


@blueprint.get("/api/blog/articles/<slug>")
@validate_response(PublishedArticleOut, 200)
async def get_article(slug: str) -> PublishedArticleOut | Response:
    """A published article by its slug, its body sanitised HTML. A slug the article had before
    it was renamed answers 301 to the article's current address here; an unknown, draft or
    archived one 404."""
    found = await public.find_published(slug)
    if isinstance(found, public.Moved):
        return _moved(f"/api/blog/articles/{found.slug}")
    return found


@blueprint.get("/blog")
@hide
@validate_querystring(BlogPageQuery)
async def blog_page(query_args: BlogPageQuery) -> Response:
    """The list of published articles, in the first HTML response."""
    try:
        page = public.parse_page(query_args.page)
    except ValueError:
        return _moved("/blog", 302)
    data = await public.blog_page(page)
    if page > data.pages:
        return _moved(pages.page_href(data.pages), 302)
    template = _template("/blog")
    if template is None:
        return _page(pages.bare_page(pages.list_region(data), "Latest Articles"))
    return _page(pages.list_page(template, data, _base_url()))


@blueprint.get("/blog/rss.xml")
@hide
async def rss_feed() -> Response:
    """RSS 2.0 of the latest 20 published articles."""
    return Response(
        await public.rss_xml(_base_url()),
        content_type="application/rss+xml; charset=utf-8",
        headers=FRESH,
    )


@blueprint.get("/blog/<slug>")
@hide
async def article_page(slug: str) -> Response:
    """A published article with its head tags, in the first HTML response; an old slug
    answers 301 to the new address; an unknown or unpublished one a 404 page."""
    template = _template("/blog/:slug")
    try:
        found = await public.find_published(slug)
    except NotFound:
        if template is None:
            return _page(pages.bare_page(pages.missing_region(), pages.NOT_FOUND_TITLE), 404)
        return _page(pages.missing_page(template, request.path, _base_url()), 404)
    if isinstance(found, public.Moved):
        return _moved(f"/blog/{found.slug}")
    if template is None:
        return _page(pages.bare_page(pages.article_region(found), found.title))
    return _page(pages.article_page(template, found, _base_url()))


# The cover upload is multipart: the app-wide CSRF guard accepts that body on this one path
# (module.py `uploads`) and still asks for the same site and the web UI's header.
COVER_UPLOAD = "/api/admin/blog/articles/*/cover"
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}


def _covers_folder() -> Path:
    return app_settings().data_dir / covers.FOLDER


@blueprint.post("/api/admin/blog/articles/<int:article_id>/cover")
@auth_web.admin_required
@validate_response(ArticleOut, 200)
async def post_cover(article_id: int) -> ArticleOut:
    """Upload the article's cover image: multipart/form-data, the image in the field `file`
    (JPEG, PNG or WebP, at most 8 MB, at least 200 x 200 px). It is resized to 480, 960 and
    1440 px wide (never enlarged) and replaces the article's cover; the alt text stays.
    400 with a message for anything else."""
    if request.mimetype != "multipart/form-data":
        raise ValidationFailed(covers.MSG_NO_FILE, fields={"file": covers.MSG_NO_FILE})
    files = await request.files
    upload = files.get("file")
    if upload is None:
        raise ValidationFailed(covers.MSG_NO_FILE, fields={"file": covers.MSG_NO_FILE})
    data = upload.read(covers.MAX_BYTES + 1)
    await covers.set_cover(article_id, data, _covers_folder())
    return await articles.get_article(article_id)


@blueprint.patch("/api/admin/blog/articles/<int:article_id>")
@auth_web.admin_required
@validate_request(ArticlePageIn)
@validate_response(ArticleOut, 200)
async def patch_article_page(article_id: int, data: ArticlePageIn) -> ArticleOut:
    """Change the article page's settings: language (en or de), call to action (speed_test or
    start) and the cover's alt text; those left out stay as they are."""
    return await articles.set_page_settings(article_id, data)


@blueprint.delete("/api/admin/blog/articles/<int:article_id>/cover")
@auth_web.admin_required
@validate_response(ArticleOut, 200)
async def delete_cover(article_id: int) -> ArticleOut:
    """Remove the article's cover image (and its alt text)."""
    await covers.remove_cover(article_id, _covers_folder())
    return await articles.get_article(article_id)


@blueprint.get("/api/blog/covers/<name>")
@openapi.answers(200, "The image file.", "image/webp", "image/jpeg", "image/png")
async def get_cover(name: str) -> Response:
    """A cover image file (`{hash}-{width}.{ext}`); a name always means the same bytes, so it
    is cached for a year."""
    found = covers.public_file(_covers_folder(), name)
    if found is None:
        raise NotFound("This image does not exist.", code="cover_not_found")
    path, mime = found
    return Response(path.read_bytes(), content_type=mime, headers=IMMUTABLE)
