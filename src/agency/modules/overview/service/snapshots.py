"""The daily snapshot: a row per UTC day with the day's figures (MRR and ARR at the end of the
day, active subscriptions, paying customers, one-time revenue, leads and sign-ups of the day,
websites live, support requests open), so that charts of the past never depend on Stripe or on
rows pruned since. The periodic job `overview.snapshot` runs hourly: it rewrites today's row
(the figures so far) and yesterday's final row; `agency overview snapshot` runs it at once.

Figures that exist only as a current state (paying customers, websites live, support open) are
those of the moment of the run; yesterday's final row keeps the value of the last run of that
day when there was one."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta

from tortoise.transactions import in_transaction

from agency.core.settings import Settings
from agency.modules.auth import api as auth_api
from agency.modules.billing import api as billing_api
from agency.modules.leads import api as leads_api
from agency.modules.overview.models import OverviewSnapshot
from agency.modules.overview.schemas import SnapshotFigures, SnapshotOut
from agency.modules.overview.service.periods import midnight
from agency.modules.sites import api as sites_api
from agency.modules.support import api as support_api

JOB_KIND = "overview.snapshot"
INTERVAL = timedelta(hours=1)
CURRENCY = "EUR"
# Figures that are a state at the time of the run (no history to read them from).
CURRENT_STATE = ("paying_customers", "websites_live", "support_open")


async def figures_of(day: date, now: datetime) -> SnapshotFigures:
    """`day`'s figures as of `now` (at the end of the day when it is over): one query or a
    few per figure."""
    start = midnight(day)
    end = min(midnight(day + timedelta(days=1)), now)
    async with asyncio.TaskGroup() as group:
        mrr = group.create_task(billing_api.mrr_at(end, CURRENCY))
        active = group.create_task(billing_api.active_subscriptions(end))
        paying = group.create_task(billing_api.paying_customers())
        one_time = group.create_task(billing_api.one_time_revenue(start, end, CURRENCY))
        leads = group.create_task(leads_api.leads_by_source(start, end))
        signups = group.create_task(auth_api.signups(start, end))
        live = group.create_task(sites_api.live_websites())
        support_open = group.create_task(support_api.open_requests())
    return SnapshotFigures(
        mrr=mrr.result(),
        arr=mrr.result() * 12,
        active_subscriptions=active.result(),
        paying_customers=paying.result(),
        one_time_revenue_day=one_time.result(),
        leads_day=sum(leads.result().values()),
        signups_day=signups.result(),
        websites_live=live.result(),
        support_open=support_open.result(),
    )


async def take(now: datetime | None = None) -> list[SnapshotOut]:
    """Write yesterday's final row and today's row (upserts); returns both, yesterday first."""
    now = now or datetime.now(UTC)
    today = now.astimezone(UTC).date()
    written = []
    for day in (today - timedelta(days=1), today):
        fresh = await figures_of(day, now)
        async with in_transaction():
            row = await OverviewSnapshot.filter(day=day).select_for_update().first()
            values = fresh.model_dump()
            if row is not None and day < today:
                # The current-state figures of a day that is over: those of its last run.
                for key in CURRENT_STATE:
                    if key in row.figures:
                        values[key] = row.figures[key]
            if row is None:
                row = await OverviewSnapshot.create(day=day, figures=values, taken_at=now)
            else:
                row.figures, row.taken_at = values, now
                await row.save(update_fields=["figures", "taken_at"])
        written.append(_out(row))
    return written


async def run(_settings: Settings) -> list[SnapshotOut]:
    """The periodic job's body."""
    return await take()


async def history(since: date | None = None) -> list[SnapshotOut]:
    """The stored snapshots, oldest first (from `since` on when given)."""
    query = OverviewSnapshot.all()
    if since is not None:
        query = query.filter(day__gte=since)
    return [_out(row) for row in await query.order_by("day")]


def _out(row: OverviewSnapshot) -> SnapshotOut:
    day = row.day if isinstance(row.day, date) else date.fromisoformat(str(row.day))
    return SnapshotOut(day=day, figures=SnapshotFigures(**row.figures), taken_at=row.taken_at)
