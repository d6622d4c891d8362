"""Every figure of the overview, read from the modules that keep them (their `api` only): money
from billing, leads from leads, sign-ups from auth, websites from sites, the free tools from the
speed test and the analysis, support from support. Each module answers in a fixed number of
aggregate queries, so the overview costs the same with ten customers or ten thousand; the
independent reads run concurrently."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TypeVar

from agency.modules.analysis import api as analysis_api
from agency.modules.auth import api as auth_api
from agency.modules.billing import api as billing_api
from agency.modules.catalogue import api as catalogue_api
from agency.modules.leads import api as leads_api
from agency.modules.overview.schemas import (
    BuildingOut,
    Cards,
    Compared,
    CurrentOnly,
    Definitions,
    FailedPaymentOut,
    FamilyRevenueOut,
    Funnel,
    FunnelStep,
    MrrMovementsOut,
    MrrPoint,
    OverviewOut,
    PastDueCard,
    PastDueOut,
    PeriodOut,
    PlanRevenueOut,
    SourceCount,
    StatusCount,
    SupportOut,
    ToolFigures,
    Tools,
    Websites,
)
from agency.modules.overview.service import periods
from agency.modules.overview.service.periods import Period
from agency.modules.sites import api as sites_api
from agency.modules.speedtest import api as speedtest_api
from agency.modules.support import api as support_api

T = TypeVar("T")

CURRENCY = "EUR"  # the catalogue's: amounts in other currencies are left out, never summed
NEWSLETTER = "newsletter"
# At most this many failed payments are listed (the newest); the card counts every one.
LIST_LIMIT = 100
STATUS_LABELS = {
    "building": "Building",
    "live": "Live",
    "paused": "Paused",
    "cancelled": "Cancelled",
}
STRIPE_DASHBOARD = "https://dashboard.stripe.com"

DEFINITIONS = Definitions(
    mrr=(
        "Monthly recurring revenue at the end of the period, as Stripe counts it: active and "
        "past-due subscriptions, yearly prices divided by 12, without VAT; trials and one-time "
        "packages are not in it, and only lasting (forever) discounts reduce it."
    ),
    arr="Annual run rate: the MRR multiplied by 12.",
    one_time_revenue=(
        "One-time packages paid in the period, net of VAT, minus the refunds made in the "
        "period (net of VAT)."
    ),
    new_customers="People whose first paid order falls in the period.",
    failed_payments=(
        "Invoices whose payment failed in the period, whether or not they were paid since "
        "(recovered)."
    ),
    churn=(
        "MRR lost in the period: churn is the MRR of subscriptions that ended (cancelled, "
        "unpaid), contraction what subscriptions lost by going down; both beside the MRR at "
        "the start of the period."
    ),
    funnel=(
        "Leads: the forms, speed tests and analyses sent in the period (one per visit). "
        "Sign-ups: customer accounts created. Checkouts started: Stripe checkouts opened in the "
        "period; paid: of those, completed; abandoned: of those, expired unpaid."
    ),
    median_first_reply=(
        "Of the support requests first answered in the period, the median time from the "
        "request to the agency's first reply."
    ),
)


def family_title(family: str) -> str:
    """A plan family's short name (`ai-booking` -> `AI booking`): the catalogue's family titles
    are the pages' headlines."""
    words = family.replace("-", " ").replace("_", " ").split()
    if not words:
        return "Other"
    short = {"ai": "AI", "ugc": "UGC", "leadgen": "Lead generation"}
    first = short.get(words[0], words[0].capitalize())
    return " ".join([first, *(short.get(w, w) for w in words[1:])])


def customer_url(stripe_customer_id: str | None, live: bool) -> str | None:
    """The customer's page in the Stripe Dashboard (its test-mode part unless `live`)."""
    if not stripe_customer_id:
        return None
    mode = "" if live else "/test"
    return f"{STRIPE_DASHBOARD}{mode}/customers/{stripe_customer_id}"


def stripe_live(secret_key: str) -> bool:
    """A live-mode Stripe key (`sk_live_...`, `rk_live_...`): its customers are not under
    /test in the Dashboard."""
    return "_live_" in secret_key


async def _both(current: Awaitable[T], previous: Awaitable[T]) -> tuple[T, T]:
    a, b = await asyncio.gather(current, previous)
    return a, b


async def overview(period: Period, *, stripe_live_mode: bool = False) -> OverviewOut:
    """Every figure of `period` beside its previous period."""
    started = time.perf_counter()
    start, end = period.bounds()
    previous_start, previous_end = period.previous_bounds()
    now = datetime.now(UTC)

    async with asyncio.TaskGroup() as group:
        money_task = group.create_task(_money(start, end, previous_start, previous_end))
        movements_task = group.create_task(billing_api.mrr_movements(start, end, CURRENCY))
        series_task = group.create_task(billing_api.mrr_series(period.each_day(), CURRENCY))
        funnel_task = group.create_task(_funnel(start, end, previous_start, previous_end))
        plans_task = group.create_task(_revenue_by_plan(start, end))
        websites_task = group.create_task(sites_api.website_figures(now))
        tools_task = group.create_task(_tools(start, end, previous_start, previous_end))
        support_task = group.create_task(
            _both(
                support_api.support_figures(start, end),
                support_api.support_figures(previous_start, previous_end),
            )
        )
        failed_task = group.create_task(
            _both(
                billing_api.failed_payment_count(start, end),
                billing_api.failed_payment_count(previous_start, previous_end),
            )
        )
        # The list shows the newest; the card counts them all.
        failed_list_task = group.create_task(
            billing_api.failed_payments(start, end, limit=LIST_LIMIT)
        )
        past_due_task = group.create_task(billing_api.past_due())
    money, movements, series = money_task.result(), movements_task.result(), series_task.result()
    websites, tools = websites_task.result(), tools_task.result()
    support, support_before = support_task.result()
    failed_count, failed_before = failed_task.result()
    failed = failed_list_task.result()
    past_due = past_due_task.result()
    mrr_start, (mrr_end, mrr_before) = money.mrr_start, money.mrr
    at_risk = sum(p.mrr for p in past_due if p.currency.upper() == CURRENCY)
    by_plan, by_family = plans_task.result()
    return OverviewOut(
        period=PeriodOut(
            key=period.key,
            label=period.label,
            start=period.start,
            end=period.end,
            previous_start=period.previous_start,
            previous_end=period.previous_end,
            previous_label=period.previous_label,
            currency=CURRENCY,
        ),
        definitions=DEFINITIONS,
        cards=Cards(
            mrr=Compared(current=mrr_end, previous=mrr_before),
            arr=Compared(current=mrr_end * 12, previous=mrr_before * 12),
            active_subscriptions=_compared(money.active),
            one_time_revenue=_compared(money.one_time),
            recurring_revenue=_compared(money.recurring),
            new_customers=_compared(money.new_customers),
            failed_payments=Compared(current=failed_count, previous=failed_before),
            past_due=PastDueCard(current=len(past_due), amount_at_risk=at_risk),
            support_open=CurrentOnly(current=support.open),
        ),
        mrr_movements=MrrMovementsOut(
            start=mrr_start,
            new=movements.get("new", 0),
            expansion=movements.get("expansion", 0),
            reactivation=movements.get("reactivation", 0),
            contraction=movements.get("contraction", 0),
            churn=movements.get("churn", 0),
            end=mrr_end,
        ),
        mrr_series=[
            MrrPoint(date=day, mrr=mrr) for day, mrr in zip(period.each_day(), series, strict=True)
        ],
        failed_payments=[
            FailedPaymentOut(
                user_id=f.user_id,
                email=f.email,
                customer_url=customer_url(f.stripe_customer_id, stripe_live_mode),
                plan_key=f.plan_key,
                amount=f.amount,
                currency=f.currency.upper(),
                failed_at=f.failed_at,
                recovered_at=f.recovered_at,
            )
            for f in failed
        ],
        past_due=[
            PastDueOut(
                user_id=p.user_id,
                email=p.email,
                customer_url=customer_url(p.stripe_customer_id, stripe_live_mode),
                plan_key=p.plan_key,
                mrr=p.mrr,
                since=p.since,
            )
            for p in past_due
        ],
        funnel=funnel_task.result(),
        revenue_by_plan=by_plan,
        revenue_by_family=by_family,
        websites=Websites(
            by_status=[
                StatusCount(
                    status=s.status,
                    label=STATUS_LABELS.get(s.status, s.status),
                    count=s.count,
                    average_score=s.average_score,
                )
                for s in websites.by_status
            ],
            building=BuildingOut(
                count=websites.building,
                median_hours=websites.building_median_hours,
                longest_hours=websites.building_longest_hours,
            ),
        ),
        tools=tools,
        support=SupportOut(
            open=support.open,
            answered=support.answered,
            median_first_reply_hours=support.median_first_reply_hours,
            previous_median_first_reply_hours=support_before.median_first_reply_hours,
        ),
        generated_in_ms=round((time.perf_counter() - started) * 1000),
    )


def _compared(pair: tuple[int, int]) -> Compared:
    return Compared(current=pair[0], previous=pair[1])


@dataclass(frozen=True)
class Money:
    mrr_start: int
    mrr: tuple[int, int]  # at the end of the period, and of the previous one
    active: tuple[int, int]
    one_time: tuple[int, int]
    recurring: tuple[int, int]
    new_customers: tuple[int, int]


async def _money(
    start: datetime, end: datetime, previous_start: datetime, previous_end: datetime
) -> Money:
    async with asyncio.TaskGroup() as group:
        mrr_start = group.create_task(billing_api.mrr_at(start, CURRENCY))
        mrr = group.create_task(
            _both(billing_api.mrr_at(end, CURRENCY), billing_api.mrr_at(previous_end, CURRENCY))
        )
        active = group.create_task(
            _both(
                billing_api.active_subscriptions(end),
                billing_api.active_subscriptions(previous_end),
            )
        )
        one_time = group.create_task(
            _both(
                billing_api.one_time_revenue(start, end, CURRENCY),
                billing_api.one_time_revenue(previous_start, previous_end, CURRENCY),
            )
        )
        recurring = group.create_task(
            _both(
                billing_api.recurring_revenue(start, end, CURRENCY),
                billing_api.recurring_revenue(previous_start, previous_end, CURRENCY),
            )
        )
        new_customers = group.create_task(
            _both(
                billing_api.new_customers(start, end),
                billing_api.new_customers(previous_start, previous_end),
            )
        )
    return Money(
        mrr_start=mrr_start.result(),
        mrr=mrr.result(),
        active=active.result(),
        one_time=one_time.result(),
        recurring=recurring.result(),
        new_customers=new_customers.result(),
    )


async def _funnel(
    start: datetime, end: datetime, previous_start: datetime, previous_end: datetime
) -> Funnel:
    (sources, newsletter, signups, checkouts) = await asyncio.gather(
        _both(
            leads_api.leads_by_source(start, end),
            leads_api.leads_by_source(previous_start, previous_end),
        ),
        _both(
            leads_api.newsletter_subscriptions(start, end),
            leads_api.newsletter_subscriptions(previous_start, previous_end),
        ),
        _both(auth_api.signups(start, end), auth_api.signups(previous_start, previous_end)),
        _both(
            billing_api.checkout_counts(start, end),
            billing_api.checkout_counts(previous_start, previous_end),
        ),
    )
    current, previous = sources
    by_source = [
        SourceCount(
            source=source,
            label=leads_api.label_of(source),
            current=current.get(source, 0),
            previous=previous.get(source, 0),
        )
        for source in set(current) | set(previous)
    ]
    by_source.sort(key=lambda s: (-s.current, -s.previous, s.label))
    if any(newsletter):
        by_source.append(
            SourceCount(
                source=NEWSLETTER,
                label="Newsletter subscriptions",
                current=newsletter[0],
                previous=newsletter[1],
            )
        )
    now_checkouts, before_checkouts = checkouts
    return Funnel(
        steps=[
            FunnelStep(
                key="leads",
                label="Leads",
                current=sum(current.values()),
                previous=sum(previous.values()),
            ),
            FunnelStep(key="signups", label="Sign-ups", current=signups[0], previous=signups[1]),
            FunnelStep(
                key="checkouts",
                label="Checkouts started",
                current=now_checkouts.started,
                previous=before_checkouts.started,
            ),
            FunnelStep(
                key="paid", label="Paid", current=now_checkouts.paid, previous=before_checkouts.paid
            ),
        ],
        abandoned=Compared(current=now_checkouts.abandoned, previous=before_checkouts.abandoned),
        leads_by_source=by_source,
    )


async def _revenue_by_plan(
    start: datetime, end: datetime
) -> tuple[list[PlanRevenueOut], list[FamilyRevenueOut]]:
    rows, plans = await asyncio.gather(
        billing_api.revenue_by_plan(start, end, CURRENCY),
        catalogue_api.all_plans(include_inactive=True),
    )
    names = {plan.key: (plan.name, plan.family, family_title(plan.family)) for plan in plans}
    by_plan = []
    families: dict[str, FamilyRevenueOut] = {}
    for row in rows:
        name, family, title = names.get(row.plan_key, (row.plan_key or "Unknown plan", "", ""))
        total = row.one_time + row.recurring
        by_plan.append(
            PlanRevenueOut(
                plan_key=row.plan_key,
                plan_name=name,
                family=family,
                family_title=title or "Other",
                one_time=row.one_time,
                recurring=row.recurring,
                total=total,
            )
        )
        entry = families.setdefault(
            family, FamilyRevenueOut(family=family, family_title=title or "Other", total=0)
        )
        entry.total += total
    by_plan.sort(key=lambda p: (-p.total, p.plan_name))
    by_family = sorted(families.values(), key=lambda f: (-f.total, f.family_title))
    return by_plan, by_family


async def _tools(
    start: datetime, end: datetime, previous_start: datetime, previous_end: datetime
) -> Tools:
    async with asyncio.TaskGroup() as group:
        tests_task = group.create_task(speedtest_api.visitor_tests(start, end))
        tests_before = group.create_task(
            speedtest_api.visitor_tests(previous_start, previous_end, emails=False)
        )
        analyses_task = group.create_task(analysis_api.visitor_analyses(start, end))
        analyses_before = group.create_task(
            analysis_api.visitor_analyses(previous_start, previous_end, emails=False)
        )
    tests, analyses = tests_task.result(), analyses_task.result()
    # The people behind the addresses (those with an account), then which of them paid.
    accounts = await auth_api.user_ids_by_email(set(tests.emails | analyses.emails))
    test_buyers, analysis_buyers = await asyncio.gather(
        _buyers(tests.emails, accounts, start, end),
        _buyers(analyses.emails, accounts, start, end),
    )
    return Tools(
        speed_tests=ToolFigures(
            current=tests.runs,
            previous=tests_before.result().runs,
            became_leads=len(tests.emails),
            became_purchases=test_buyers,
        ),
        analyses=ToolFigures(
            current=analyses.runs,
            previous=analyses_before.result().runs,
            became_leads=len(analyses.emails),
            became_purchases=analysis_buyers,
        ),
    )


async def _buyers(
    emails: frozenset[str], accounts: dict[str, int], start: datetime, end: datetime
) -> int:
    """How many of the people with these addresses paid an order in [start, end): only those
    with an account can have (an order belongs to an account)."""
    user_ids = {accounts[email] for email in emails if email in accounts}
    if not user_ids:
        return 0
    return await billing_api.buyers_among(user_ids, set(), start, end)


async def overview_for(
    key: str | None,
    start: date | None,
    end: date | None,
    *,
    stripe_secret_key: str = "",
    today: date | None = None,
) -> OverviewOut:
    """The overview of the period `key` names (custom: `start`..`end`) as of `today` (UTC);
    `ValidationFailed` for a period that is not one (`periods.resolve`)."""
    period = periods.resolve(key, start, end, today or datetime.now(UTC).date())
    return await overview(period, stripe_live_mode=stripe_live(stripe_secret_key))
