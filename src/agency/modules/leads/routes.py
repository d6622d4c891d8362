"""Public lead forms, the speed-test pages' newsletter sign-up, and the leads list for admins."""

from __future__ import annotations

from quart import Blueprint, Response
from quart_schema import validate_querystring, validate_request, validate_response

from agency.core.web import settings_of
from agency.modules.auth import web as auth_web
from agency.modules.leads.schemas import (
    LeadIn,
    LeadList,
    LeadReceipt,
    LeadsQuery,
    NewsletterIn,
    NewsletterOut,
)
from agency.modules.leads.service import leads as lead_service
from agency.modules.leads.service import newsletter
from agency.modules.leads.settings import LeadsSettings

blueprint = Blueprint("leads", __name__)


@blueprint.post("/api/leads")
@validate_request(LeadIn)
@validate_response(LeadReceipt, 201)
async def post_lead(data: LeadIn) -> tuple[LeadReceipt, int]:
    """A visitor's form: stored as a lead, and the agency is told by e-mail."""
    settings = settings_of(LeadsSettings)
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
    message = await newsletter.subscribe_newsletter(
        email=data.email,
        source=data.source,
        client_ip=auth_web.client_ip(),
        settings=settings_of(LeadsSettings),
    )
    return NewsletterOut(message=message)


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
async def get_leads_csv(query_args: LeadsQuery) -> Response:
    """The leads as a CSV download (admins only)."""
    leads = await lead_service.list_leads(query_args.source, query_args.since)
    body = lead_service.to_csv(leads)
    return Response(
        body,
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="leads.csv"'},
    )
