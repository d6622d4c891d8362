"""Public lead forms, the speed test and its newsletter, the AI website analysis, and the leads
list for admins."""

from __future__ import annotations

from datetime import datetime

from quart import Blueprint, Response, current_app, request
from quart_schema import document_querystring, validate_request, validate_response

from agency.core.errors import ValidationFailed
from agency.modules.auth import web as auth_web
from agency.modules.insights.schemas import (
    AnalysisIn,
    AnalysisOut,
    LeadIn,
    LeadList,
    LeadReceipt,
    LeadsQuery,
    NewsletterIn,
    NewsletterOut,
    SpeedTestIn,
    SpeedTestOut,
)
from agency.modules.insights.service import analyses, speedtests
from agency.modules.insights.service import leads as lead_service

blueprint = Blueprint("insights", __name__)


@blueprint.post("/api/leads")
@validate_request(LeadIn)
@validate_response(LeadReceipt, 201)
async def post_lead(data: LeadIn) -> tuple[LeadReceipt, int]:
    """A visitor's form: stored as a lead, and the agency is told by e-mail."""
    settings = current_app.extensions["agency.settings"]
    message = await lead_service.submit_lead(
        source=data.source,
        email=data.email,
        name=data.name,
        domain=data.domain,
        message=data.message,
        honeypot=data.company_website,
        client_ip=auth_web.client_ip(),
        notify=settings.agency_email,
    )
    return LeadReceipt(message=message), 201


@blueprint.post("/api/newsletter")
@validate_request(NewsletterIn)
@validate_response(NewsletterOut, 200)
async def post_newsletter(data: NewsletterIn) -> NewsletterOut:
    """A speed-test page's newsletter sign-up: the e-mail is kept as a lead of the page, then
    subscribed with Kit when Kit is configured (a Kit failure answers 502, 'Error subscribing
    to ConvertKit: ...')."""
    message = await speedtests.subscribe_newsletter(
        email=data.email,
        source=data.source,
        client_ip=auth_web.client_ip(),
        settings=current_app.extensions["agency.settings"],
    )
    return NewsletterOut(message=message)


@blueprint.post("/api/speed-tests")
@validate_request(SpeedTestIn)
@validate_response(SpeedTestOut, 202)
async def post_speed_test(data: SpeedTestIn) -> tuple[SpeedTestOut, int]:
    """Start a speed test of a domain (validated by the page's rule; never an address on our
    own machine or network). Answers at once: `queued`, or `done` when a recent result of the
    same domain and strategy is reused. Poll `GET /api/speed-tests/{id}` until it is done or
    failed; the report goes to the e-mail."""
    test = await speedtests.start_speed_test(
        url=data.url,
        email=data.email,
        source=data.source,
        strategy=data.strategy,
        client_ip=auth_web.client_ip(),
        settings=current_app.extensions["agency.settings"],
    )
    if test.status == "queued":
        current_app.extensions["agency.jobs"].wake()
    return test, 202


@blueprint.get("/api/speed-tests/<test_id>")
@validate_response(SpeedTestOut, 200)
async def get_speed_test(test_id: str) -> SpeedTestOut:
    """A speed test's state and, once done, its result; `error` holds the message to show
    when it failed."""
    return await speedtests.get_speed_test(test_id)


@blueprint.post("/api/analyses")
@validate_request(AnalysisIn)
@validate_response(AnalysisOut, 202)
async def post_analysis(data: AnalysisIn) -> tuple[AnalysisOut, int]:
    """Start an AI website analysis from one of the four pages (`source`: ai-analysis,
    business-analysis, technical-analysis, agency-analysis; each page's checks and messages).
    The e-mail is stored as a lead first; a speed test of the domain starts beside it. Answers
    at once with the queued analysis; poll `GET /api/analyses/{id}` until it is done or failed.
    The report goes to the e-mail."""
    analysis = await analyses.start_analysis(
        url=data.url,
        email=data.email,
        source=data.source,
        client_ip=auth_web.client_ip(),
        settings=current_app.extensions["agency.settings"],
    )
    current_app.extensions["agency.jobs"].wake()
    return analysis, 202


@blueprint.get("/api/analyses/<analysis_id>")
@validate_response(AnalysisOut, 200)
async def get_analysis(analysis_id: str) -> AnalysisOut:
    """An analysis's state and, once done, its report, derived scores, the facts found on the
    page and the critical issues; `speed_test` has its own status; `error` holds the message to
    show when the analysis failed."""
    return await analyses.get_analysis(analysis_id)


def _filters() -> tuple[str | None, datetime | None]:
    since_text = request.args.get("since")
    try:
        since = datetime.fromisoformat(since_text) if since_text else None
    except ValueError as exc:
        raise ValidationFailed("'since' must be a date such as 2026-11-01.") from exc
    return request.args.get("source") or None, since


@blueprint.get("/api/admin/leads")
@auth_web.admin_required
@document_querystring(LeadsQuery)
@validate_response(LeadList, 200)
async def get_leads() -> LeadList:
    """Every lead, newest first; filter with ?source= and ?since= (admins only)."""
    source, since = _filters()
    return LeadList(leads=await lead_service.list_leads(source, since))


@blueprint.get("/api/admin/leads.csv")
@auth_web.admin_required
@document_querystring(LeadsQuery)
async def get_leads_csv() -> Response:
    """The leads as a CSV download (admins only)."""
    source, since = _filters()
    body = lead_service.to_csv(await lead_service.list_leads(source, since))
    return Response(
        body,
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="leads.csv"'},
    )
