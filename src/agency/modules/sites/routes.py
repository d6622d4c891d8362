"""The signed-in user's websites (list, detail, removal, speed tests, analytics), and the
agency's list of every website with its status changes (admins only)."""

from __future__ import annotations

from quart import Blueprint, Response
from quart_schema import (
    document_response,
    validate_querystring,
    validate_request,
    validate_response,
)

from agency.core.web import settings_of
from agency.core.web.answers import CachedAnswers
from agency.modules.auth import web as auth_web
from agency.modules.sites.schemas import (
    AdminSitesQuery,
    AdminWebsiteList,
    AdminWebsiteOut,
    AnalyticsOut,
    SpeedCheckOut,
    StatusIn,
    WebsiteDetail,
    WebsiteList,
)
from agency.modules.sites.service import websites
from agency.modules.sites.settings import SitesSettings

blueprint = Blueprint("sites", __name__)


# Every dashboard page asks: each process remembers each user's list while no website or speed
# check has been written since, through any process.
# The answer's JSON is what is kept (`core.web.answers`).
_lists = CachedAnswers("sites.list", (websites.REVISION,))


@blueprint.get("/api/sites")
@auth_web.login_required
@document_response(WebsiteList, 200)
async def get_sites() -> Response:
    """The signed-in user's websites, newest first."""
    account = await auth_web.require_account()

    async def build() -> WebsiteList:
        return WebsiteList(websites=await websites.list_websites(account.id))

    return await _lists.respond(account.id, build)


@blueprint.get("/api/sites/analytics")
@auth_web.login_required
@validate_response(AnalyticsOut, 200)
async def get_site_analytics() -> AnalyticsOut:
    """Every website of the user with its latest speed figures and its score history."""
    account = await auth_web.require_account()
    return await websites.analytics(account.id)


@blueprint.get("/api/sites/<int:site_id>")
@auth_web.login_required
@validate_response(WebsiteDetail, 200)
async def get_site(site_id: int) -> WebsiteDetail:
    """One of the user's websites (404 for a website that is not theirs).

    Its status and what happens next, the plan's delivery promise, the latest speed result,
    the score history and the latest speed check."""
    account = await auth_web.require_account()
    return await websites.detail(account.id, site_id, settings_of(SitesSettings))


@blueprint.delete("/api/sites/<int:site_id>")
@auth_web.login_required
@validate_response(WebsiteList, 200)
async def delete_site(site_id: int) -> WebsiteList:
    """Remove a website from the user's list; answers the websites left.

    A soft delete: the row is kept for the agency's books."""
    account = await auth_web.require_account()
    await websites.remove(account.id, site_id)
    return WebsiteList(websites=await websites.list_websites(account.id))


@blueprint.post("/api/sites/<int:site_id>/speed-tests")
@auth_web.login_required
@validate_response(SpeedCheckOut, 202)
async def post_site_speed_test(site_id: int) -> tuple[SpeedCheckOut, int]:
    """Start a speed test of the website (409 while one is running).

    Poll `GET /api/sites/{id}/speed-tests/latest` until it is done or failed."""
    account = await auth_web.require_account()
    check = await websites.start_check(account.id, site_id, settings_of(SitesSettings))
    return check, 202


@blueprint.get("/api/sites/<int:site_id>/speed-tests/latest")
@auth_web.login_required
@validate_response(SpeedCheckOut, 200)
async def get_site_latest_speed_test(site_id: int) -> SpeedCheckOut:
    """The website's latest speed test (404 when it has none)."""
    account = await auth_web.require_account()
    return await websites.latest_check(account.id, site_id, settings_of(SitesSettings))


@blueprint.get("/api/admin/sites")
@auth_web.admin_required
@validate_querystring(AdminSitesQuery)
@validate_response(AdminWebsiteList, 200)
async def get_admin_sites(query_args: AdminSitesQuery) -> AdminWebsiteList:
    """Every website not removed by its owner, newest first (admins only).

    `?status=` building, live, paused or cancelled; `?q=` part of the domain or of the
    customer's e-mail or name."""
    return AdminWebsiteList(websites=await websites.admin_list(query_args.status, query_args.q))


@blueprint.put("/api/admin/sites/<int:site_id>/status")
@auth_web.admin_required
@validate_request(StatusIn)
@validate_response(AdminWebsiteOut, 200)
async def put_admin_site_status(site_id: int, data: StatusIn) -> AdminWebsiteOut:
    """Move a website to building, live, paused or cancelled (admins only).

    Going live e-mails and notifies its owner."""
    return await websites.set_status(
        site_id, data.status, settings_of(SitesSettings), actor=await auth_web.audit_actor()
    )
