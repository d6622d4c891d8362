"""The AI website analysis: start one, and read its state and report."""

from __future__ import annotations

from quart import Blueprint
from quart_schema import validate_request, validate_response

from agency.core.web import settings_of
from agency.modules.analysis.schemas import (
    AdminAnalysisOut,
    AnalysisIn,
    AnalysisOut,
    AnalysisStarted,
)
from agency.modules.analysis.service import analyses
from agency.modules.analysis.settings import AnalysisSettings
from agency.modules.auth import web as auth_web

blueprint = Blueprint("analysis", __name__)


@blueprint.post("/api/analyses")
@validate_request(AnalysisIn)
@validate_response(AnalysisStarted, 202)
async def post_analysis(data: AnalysisIn) -> tuple[AnalysisStarted, int]:
    """Start an AI website analysis from one of the four pages (`source`: ai-analysis,
    business-analysis, technical-analysis, agency-analysis; each page's checks and messages).
    The e-mail is stored as a lead first; a speed test of the domain starts beside it. Answers
    at once with the queued analysis; poll `GET /api/analyses/{id}` until it is done or failed.
    The report goes to the e-mail. With `newsletter: true` (the opt-in box ticked) the e-mail
    is also subscribed to the newsletter; `newsletter` in the answer says whether that
    worked."""
    analysis = await analyses.start_analysis(
        url=data.url,
        email=data.email,
        source=data.source,
        newsletter=data.newsletter,
        client_ip=auth_web.client_ip(),
        settings=settings_of(AnalysisSettings),
    )
    return analysis, 202


@blueprint.get("/api/analyses/<analysis_id>")
@validate_response(AnalysisOut, 200)
async def get_analysis(analysis_id: str) -> AnalysisOut:
    """An analysis's state and, once done, its report, derived scores, the facts found on the
    page and the critical issues; `speed_test` has its own status; `error` holds the message to
    show when the analysis failed."""
    return await analyses.get_analysis(analysis_id)


@blueprint.get("/api/admin/analyses/<analysis_id>")
@auth_web.admin_required
@validate_response(AdminAnalysisOut, 200)
async def get_admin_analysis(analysis_id: str) -> AdminAnalysisOut:
    """An analysis as the admin sees it (admins only): what the visitor sees, and
    `generated_detail`: the AI model that wrote the report, or why the rules did (no model
    configured, or the provider's failure, which the visitor never sees)."""
    return await analyses.get_admin_analysis(analysis_id)
