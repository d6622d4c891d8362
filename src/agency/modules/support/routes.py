"""Support requests: the public and customers' form, the customer's past requests, and the
admins' list, reply and resolve."""

from __future__ import annotations

from quart import Blueprint
from quart_schema import validate_querystring, validate_request, validate_response

from agency.core.web import app_settings
from agency.modules.auth import web as auth_web
from agency.modules.support import service
from agency.modules.support.schemas import (
    AdminSupportList,
    AdminSupportQuery,
    AdminSupportRequestOut,
    ReplyIn,
    SupportIn,
    SupportList,
    SupportReceipt,
)

blueprint = Blueprint("support", __name__)


@blueprint.post("/api/support")
@validate_request(SupportIn)
@validate_response(SupportReceipt, 201)
async def post_support(data: SupportIn) -> tuple[SupportReceipt, int]:
    """A support request: a visitor gives name and e-mail; a signed-in customer's come from the
    account, optionally with one of their websites. Stored and e-mailed to the agency."""
    message = await service.submit_request(
        account=await auth_web.current_account(),
        name=data.name,
        email=data.email,
        subject=data.subject,
        message=data.message,
        website_id=data.website_id,
        honeypot=data.company_website,
        client_ip=auth_web.client_ip(),
        settings=app_settings(),
    )
    return SupportReceipt(message=message), 201


@blueprint.get("/api/support")
@auth_web.login_required
@validate_response(SupportList, 200)
async def get_support() -> SupportList:
    """The signed-in user's requests, newest first, with their status and the replies."""
    account = await auth_web.require_account()
    return SupportList(requests=await service.list_for_user(account.id))


@blueprint.get("/api/admin/support")
@auth_web.admin_required
@validate_querystring(AdminSupportQuery)
@validate_response(AdminSupportList, 200)
async def get_admin_support(query_args: AdminSupportQuery) -> AdminSupportList:
    """Every support request, newest first; ?status=open|answered|resolved (admins only)."""
    return AdminSupportList(requests=await service.list_all(query_args.status))


@blueprint.post("/api/admin/support/<int:request_id>/reply")
@auth_web.admin_required
@validate_request(ReplyIn)
@validate_response(AdminSupportRequestOut, 200)
async def post_admin_support_reply(request_id: int, data: ReplyIn) -> AdminSupportRequestOut:
    """Answer a request: e-mailed to the requester, status answered, the customer notified
    (admins only)."""
    return await service.reply(
        request_id,
        actor=await auth_web.audit_actor(),
        body=data.body,
        settings=app_settings(),
    )


@blueprint.post("/api/admin/support/<int:request_id>/resolve")
@auth_web.admin_required
@validate_response(AdminSupportRequestOut, 200)
async def post_admin_support_resolve(request_id: int) -> AdminSupportRequestOut:
    """Mark a request resolved (admins only)."""
    return await service.resolve(request_id, actor=await auth_web.audit_actor())
