"""Public lead forms (with their newsletter opt-in box) and the leads list for admins."""

from __future__ import annotations

from quart import Blueprint, Response
from quart_schema import validate_querystring, validate_request, validate_response

from agency.core.web import openapi, settings_of
from agency.modules.auth import web as auth_web
from agency.modules.leads.schemas import (
    LeadIn,
    LeadList,
    LeadReceipt,
    LeadsQuery,
)
from agency.modules.leads.service import leads as lead_service
from agency.modules.leads.settings import LeadsSettings

blueprint = Blueprint("leads", __name__)


@blueprint.post("/api/leads")
@validate_request(LeadIn)
@validate_response(LeadReceipt, 201)
async def post_lead(data: LeadIn) -> tuple[LeadReceipt, int]:
    """A visitor's form: stored as a lead, and the agency is told by e-mail. With
    `newsletter: true` (the form's opt-in box ticked) the e-mail is also subscribed to the
    newsletter; `newsletter` in the answer says whether that worked."""
    settings = settings_of(LeadsSettings)
    return await lead_service.submit_lead(
        source=data.source,
        email=data.email,
        name=data.name,
        domain=data.domain,
        message=data.message,
        honeypot=data.company_website,
        client_ip=auth_web.client_ip(),
        newsletter=data.newsletter,
        settings=settings,
    ), 201


@blueprint.get("/api/admin/leads")
@auth_web.admin_required
@validate_querystring(LeadsQuery)
@validate_response(LeadList, 200)
async def get_leads(query_args: LeadsQuery) -> LeadList:
    """Every lead, newest first; filter with ?source= and ?since= (admins only)."""
    return LeadList(leads=await lead_service.list_leads(query_args.source, query_args.since))


@blueprint.get("/api/admin/leads.csv")
@auth_web.admin_required
@validate_querystring(LeadsQuery)
@openapi.answers(200, "The leads as a CSV download.", "text/csv")
async def get_leads_csv(query_args: LeadsQuery) -> Response:
    """The leads as a CSV download (admins only)."""
    leads = await lead_service.list_leads(query_args.source, query_args.since)
    body = lead_service.to_csv(leads)
    return Response(
        body,
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="leads.csv"'},
    )
