"""The signed-in user's websites."""

from __future__ import annotations

from quart import Blueprint
from quart_schema import validate_response

from agency.modules.auth.web import login_required, require_account
from agency.modules.sites import service
from agency.modules.sites.schemas import WebsiteList

blueprint = Blueprint("sites", __name__)


@blueprint.get("/api/sites")
@login_required
@validate_response(WebsiteList, 200)
async def get_websites() -> WebsiteList:
    """The signed-in user's websites, newest first."""
    account = await require_account()
    return WebsiteList(websites=await service.list_websites(account.id))
