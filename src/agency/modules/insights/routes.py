"""Public lead forms, and the leads list for admins."""

from __future__ import annotations

from datetime import datetime

from quart import Blueprint, Response, current_app, request
from quart_schema import document_querystring, validate_request, validate_response

from agency.core.errors import ValidationFailed
from agency.modules.auth import web as auth_web
from agency.modules.insights.schemas import LeadIn, LeadList, LeadReceipt, LeadsQuery
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
