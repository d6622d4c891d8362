"""The owner's overview for admins: `GET /api/admin/overview?period=...`."""

from __future__ import annotations

from quart import Blueprint
from quart_schema import validate_querystring, validate_response

from agency.core.web import app_settings
from agency.modules.auth import web as auth_web
from agency.modules.overview.schemas import OverviewOut, OverviewQuery
from agency.modules.overview.service import figures

blueprint = Blueprint("overview", __name__)


@blueprint.get("/api/admin/overview")
@auth_web.admin_required
@validate_querystring(OverviewQuery)
@validate_response(OverviewOut, 200)
async def get_overview(query_args: OverviewQuery) -> OverviewOut:
    """How the business did over a period beside the period before it (admins only): MRR and
    its movements, revenue, customers, failed payments and past-due subscriptions, the funnel
    from lead to purchase, revenue by plan, websites, the free tools and support.

    `period`: this_month (default), last_month, last_30_days, this_quarter, last_quarter, or
    custom with `start` and `end` (YYYY-MM-DD, inclusive, at most 366 days, not after today).
    Amounts are integer cents of `period.currency`."""
    # The key decides whether the Stripe Dashboard links go to its test-mode pages; the
    # billing module owns it, and the program's settings carry every module's keys.
    secret = str(getattr(app_settings(), "stripe_secret_key", "") or "")
    return await figures.overview_for(
        query_args.period, query_args.start, query_args.end, stripe_secret_key=secret
    )
