"""The article manager's API (admins only: 401 signed out, 403 for anyone but an admin)."""

from __future__ import annotations

from quart import Blueprint
from quart_schema import validate_querystring, validate_request, validate_response

from agency.core.web import settings_of
from agency.modules.auth import web as auth_web
from agency.modules.seo.schemas import (
    AiStatusOut,
    ArticleIn,
    ArticleList,
    ArticleOut,
    ArticlesQuery,
    BodyPreviewIn,
    GenerateArticleIn,
    GenerationOut,
    IdeasIn,
    PreviewIn,
    PreviewOut,
)
from agency.modules.seo.service import articles, generations
from agency.modules.seo.settings import SeoSettings

blueprint = Blueprint("seo", __name__)


async def _admin_id() -> int:
    return (await auth_web.require_account()).id


@blueprint.get("/api/admin/articles")
@auth_web.admin_required
@validate_querystring(ArticlesQuery)
@validate_response(ArticleList, 200)
async def get_admin_articles(query_args: ArticlesQuery) -> ArticleList:
    """Every article, newest first by creation; `?status=` draft, published or archived,
    `?q=` matches the title or the slug, case-insensitively."""
    return ArticleList(articles=await articles.list_articles(query_args.status, query_args.q))


@blueprint.post("/api/admin/articles")
@auth_web.admin_required
@validate_request(ArticleIn)
@validate_response(ArticleOut, 201)
async def post_article(data: ArticleIn) -> tuple[ArticleOut, int]:
    """A new draft written by hand (empty slug: made from the title; a taken slug gets -2,
    -3, ...; the body is sanitised), saved with the admin's user id."""
    return await articles.create_article(data, created_by=await _admin_id()), 201


@blueprint.post("/api/admin/articles/preview")
@auth_web.admin_required
@validate_request(PreviewIn)
@validate_response(PreviewOut, 200)
async def post_preview(data: PreviewIn) -> PreviewOut:
    """The body as it would be saved and shown (sanitised), for the editor's live preview."""
    return PreviewOut(html=articles.preview(data.content))


@blueprint.post("/api/admin/blog/preview")
@auth_web.admin_required
@validate_request(BodyPreviewIn)
@validate_response(PreviewOut, 200)
async def post_body_preview(data: BodyPreviewIn) -> PreviewOut:
    """The body in `format` (markdown or html) as it would be saved and shown: Markdown
    rendered, then sanitised, by the same function as saving. For the editor's live preview."""
    return PreviewOut(html=articles.render(data.format, data.body))


@blueprint.get("/api/admin/articles/<int:article_id>")
@auth_web.admin_required
@validate_response(ArticleOut, 200)
async def get_admin_article(article_id: int) -> ArticleOut:
    """One article, whatever its status."""
    return await articles.get_article(article_id)


@blueprint.put("/api/admin/articles/<int:article_id>")
@auth_web.admin_required
@validate_request(ArticleIn)
@validate_response(ArticleOut, 200)
async def put_article(article_id: int, data: ArticleIn) -> ArticleOut:
    """Edit an article (a published article's old slug keeps working as a redirect)."""
    return await articles.update_article(article_id, data)


@blueprint.post("/api/admin/articles/<int:article_id>/publish")
@auth_web.admin_required
@validate_response(ArticleOut, 200)
async def publish_article(article_id: int) -> ArticleOut:
    """Publish a draft or an archived article (published_at becomes now); 409 otherwise."""
    return await articles.change_status(article_id, "publish", actor=await auth_web.audit_actor())


@blueprint.post("/api/admin/articles/<int:article_id>/archive")
@auth_web.admin_required
@validate_response(ArticleOut, 200)
async def archive_article(article_id: int) -> ArticleOut:
    """Archive an article that is not archived yet; 409 otherwise."""
    return await articles.change_status(article_id, "archive", actor=await auth_web.audit_actor())


@blueprint.post("/api/admin/articles/<int:article_id>/draft")
@auth_web.admin_required
@validate_response(ArticleOut, 200)
async def draft_article(article_id: int) -> ArticleOut:
    """Move a published or archived article back to draft; 409 otherwise."""
    return await articles.change_status(article_id, "draft", actor=await auth_web.audit_actor())


@blueprint.get("/api/admin/ai")
@auth_web.admin_required
@validate_response(AiStatusOut, 200)
async def get_ai_status() -> AiStatusOut:
    """Whether an AI provider is configured, and its model ('AI is not configured' else)."""
    return generations.ai_status(settings_of(SeoSettings))


@blueprint.post("/api/admin/article-ideas")
@auth_web.admin_required
@validate_request(IdeasIn)
@validate_response(GenerationOut, 202)
async def post_ideas(data: IdeasIn) -> tuple[GenerationOut, int]:
    """Start generating three article ideas on a topic ('Please enter a topic' when empty;
    503 'AI is not configured' without an AI key; 30 an hour per admin). Poll
    `GET /api/admin/generations/{id}` until done (the ideas) or failed (`error`)."""
    generation = await generations.start_ideas(
        data.topic,
        admin_id=await _admin_id(),
        settings=settings_of(SeoSettings),
    )
    return generation, 202


@blueprint.post("/api/admin/article-drafts")
@auth_web.admin_required
@validate_request(GenerateArticleIn)
@validate_response(GenerationOut, 202)
async def post_article_draft(data: GenerateArticleIn) -> tuple[GenerationOut, int]:
    """Start writing the full article of one idea; once done, `article_id` is the draft saved
    with the admin's user id. Same limits and answers as the ideas."""
    generation = await generations.start_article(
        data,
        admin_id=await _admin_id(),
        settings=settings_of(SeoSettings),
    )
    return generation, 202


@blueprint.get("/api/admin/generations/<generation_id>")
@auth_web.admin_required
@validate_response(GenerationOut, 200)
async def get_generation(generation_id: str) -> GenerationOut:
    """A generation's state: queued, running, done (ideas or article_id) or failed (error)."""
    return await generations.get_generation(generation_id)
