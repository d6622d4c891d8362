"""The owner's money figures (billing.api, read by the overview): MRR from the movement log,
revenue from the revenue entries, failed payments, past-due subscriptions, checkouts. Every
function makes a fixed number of queries, whatever the number of customers or days."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from tortoise.functions import Count, Min, Sum

from agency.modules.auth import api as auth_api
from agency.modules.billing.models import (
    ONE_TIME,
    RECURRING,
    CheckoutSession,
    MrrMovement,
    Order,
    PaymentFailure,
    RevenueEntry,
    Subscription,
)
from agency.modules.billing.schemas import (
    MOVEMENT_KINDS,
    CheckoutCounts,
    FailedPayment,
    PastDue,
    PlanRevenue,
)
from agency.modules.billing.service.mrr import COUNTED_STATUSES

PAID_ORDER_STATUSES = ("paid", "refunded")


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


async def mrr_at(when: datetime, currency: str = "EUR") -> int:
    """The MRR at `when`: the sum of the log's deltas before it."""
    rows = (
        await MrrMovement.filter(currency=currency, occurred_at__lt=_aware(when))
        .annotate(total=Sum("delta"))
        .values("total")
    )
    return int((rows[0]["total"] if rows else 0) or 0)


async def mrr_series(days: list[date], currency: str = "EUR") -> list[int]:
    """The MRR at the end of each UTC day of `days` (any order), in one query: the deltas summed
    per day up to the last, then accumulated."""
    if not days:
        return []
    last = max(days)
    rows = (
        await MrrMovement.filter(currency=currency, day__lte=last)
        .annotate(total=Sum("delta"))
        .group_by("day")
        .values("day", "total")
    )
    per_day = sorted((_day(r["day"]), int(r["total"] or 0)) for r in rows)
    at_end: dict[date, int] = {}
    running, index = 0, 0
    for wanted in sorted(set(days)):
        while index < len(per_day) and per_day[index][0] <= wanted:
            running += per_day[index][1]
            index += 1
        at_end[wanted] = running
    return [at_end[day] for day in days]


def _day(value: object) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


async def mrr_movements(start: datetime, end: datetime, currency: str = "EUR") -> dict[str, int]:
    """The movements of [start, end) by kind, each as a positive amount (contraction and churn
    are what was lost)."""
    rows = (
        await MrrMovement.filter(
            currency=currency, occurred_at__gte=_aware(start), occurred_at__lt=_aware(end)
        )
        .annotate(total=Sum("delta"))
        .group_by("kind")
        .values("kind", "total")
    )
    found = {str(r["kind"]): abs(int(r["total"] or 0)) for r in rows}
    return {kind: found.get(kind, 0) for kind in MOVEMENT_KINDS}


async def active_subscriptions(when: datetime) -> int:
    """Subscriptions counted in MRR (of any currency) at `when`, from the log."""
    rows = (
        await MrrMovement.filter(occurred_at__lt=_aware(when))
        .annotate(total=Sum("active_delta"))
        .values("total")
    )
    return int((rows[0]["total"] if rows else 0) or 0)


async def _revenue(start: datetime, end: datetime, currency: str, kind: str) -> int:
    rows = (
        await RevenueEntry.filter(
            currency=currency,
            kind=kind,
            occurred_at__gte=_aware(start),
            occurred_at__lt=_aware(end),
        )
        .annotate(total=Sum("net"))
        .values("total")
    )
    return int((rows[0]["total"] if rows else 0) or 0)


async def one_time_revenue(start: datetime, end: datetime, currency: str = "EUR") -> int:
    """Paid one-time orders of [start, end), net of VAT, minus the refunds made in it (net)."""
    return await _revenue(start, end, currency, ONE_TIME)


async def recurring_revenue(start: datetime, end: datetime, currency: str = "EUR") -> int:
    """Paid subscription invoices of [start, end), net of VAT, minus the refunds made in it."""
    return await _revenue(start, end, currency, RECURRING)


async def revenue_by_plan(
    start: datetime, end: datetime, currency: str = "EUR"
) -> list[PlanRevenue]:
    """Net revenue of [start, end) per plan (one-time and recurring), biggest first."""
    rows = (
        await RevenueEntry.filter(
            currency=currency, occurred_at__gte=_aware(start), occurred_at__lt=_aware(end)
        )
        .annotate(total=Sum("net"))
        .group_by("plan_key", "kind")
        .values("plan_key", "kind", "total")
    )
    plans: dict[str, dict[str, int]] = {}
    for row in rows:
        plan = plans.setdefault(str(row["plan_key"] or ""), {ONE_TIME: 0, RECURRING: 0})
        plan[str(row["kind"])] = plan.get(str(row["kind"]), 0) + int(row["total"] or 0)
    found = [PlanRevenue(key, v[ONE_TIME], v[RECURRING]) for key, v in plans.items()]
    return sorted(found, key=lambda p: (-(p.one_time + p.recurring), p.plan_key))


async def new_customers(start: datetime, end: datetime) -> int:
    """Users whose first paid order falls in [start, end)."""
    rows = (
        await Order.filter(status__in=PAID_ORDER_STATUSES)
        .annotate(first=Min("order_date"))
        .group_by("user_id")
        .filter(first__gte=_aware(start), first__lt=_aware(end))
        .values("user_id")
    )
    return len(rows)


async def paying_customers() -> int:
    """Users with at least one subscription counted in MRR now."""
    rows = (
        await Subscription.filter(status__in=COUNTED_STATUSES, mrr__gt=0)
        .annotate(n=Count("user_id", distinct=True))
        .values("n")
    )
    return int((rows[0]["n"] if rows else 0) or 0)


async def _emails(user_ids: set[int]) -> dict[int, str]:
    accounts = await auth_api.accounts_by_ids(sorted(user_ids))
    return {user_id: account.email for user_id, account in accounts.items()}


async def failed_payment_count(start: datetime, end: datetime) -> int:
    """How many invoices' payments first failed in [start, end)."""
    return await PaymentFailure.filter(
        failed_at__gte=_aware(start), failed_at__lt=_aware(end)
    ).count()


async def failed_payments(
    start: datetime, end: datetime, limit: int | None = None
) -> list[FailedPayment]:
    """Invoices whose payment first failed in [start, end), newest first (the newest `limit`
    of them), with the customer and whether (when) the same invoice was paid since."""
    query = PaymentFailure.filter(failed_at__gte=_aware(start), failed_at__lt=_aware(end)).order_by(
        "-failed_at", "-id"
    )
    failures = await (query.limit(limit) if limit is not None else query)
    subscription_ids = {f.subscription_id for f in failures if f.subscription_id}
    plans = dict(
        await Subscription.filter(id__in=sorted(subscription_ids)).values_list("id", "plan_key")
        if subscription_ids
        else []
    )
    emails = await _emails({f.user_id for f in failures if f.user_id is not None})
    return [
        FailedPayment(
            user_id=f.user_id,
            email=emails.get(f.user_id) if f.user_id is not None else None,
            stripe_customer_id=f.stripe_customer_id,
            invoice_id=f.invoice_id,
            amount=int(f.amount),
            currency=f.currency,
            failed_at=f.failed_at,
            recovered_at=f.recovered_at,
            plan_key=plans.get(f.subscription_id) if f.subscription_id else None,
        )
        for f in failures
    ]


async def past_due() -> list[PastDue]:
    """Subscriptions in past_due now, longest overdue first: since their earliest failed payment
    not yet recovered (else since the row last changed)."""
    subscriptions = await Subscription.filter(status="past_due").order_by("id")
    ids = [s.id for s in subscriptions]
    since: dict[str, datetime] = {}
    if ids:
        rows = (
            await PaymentFailure.filter(subscription_id__in=ids, recovered_at__isnull=True)
            .annotate(first=Min("failed_at"))
            .group_by("subscription_id")
            .values("subscription_id", "first")
        )
        since = {str(r["subscription_id"]): _when(r["first"]) for r in rows if r["first"]}
    emails = await _emails({s.user_id for s in subscriptions})
    found = [
        PastDue(
            subscription_id=s.id,
            user_id=s.user_id,
            email=emails.get(s.user_id),
            stripe_customer_id=s.customer_id,
            mrr=s.mrr,
            currency=s.currency,
            plan_key=s.plan_key,
            since=since.get(s.id, s.updated_at),
        )
        for s in subscriptions
    ]
    return sorted(found, key=lambda p: (p.since, p.subscription_id))


def _when(value: object) -> datetime:
    if isinstance(value, datetime):
        return _aware(value)
    return _aware(datetime.fromisoformat(str(value)))


async def checkout_counts(start: datetime, end: datetime) -> CheckoutCounts:
    """Checkout sessions created in [start, end): started, and of those paid and abandoned."""
    rows = (
        await CheckoutSession.filter(created_at__gte=_aware(start), created_at__lt=_aware(end))
        .annotate(n=Count("id"))
        .group_by("status")
        .values("status", "n")
    )
    by_status = {str(r["status"]): int(r["n"]) for r in rows}
    return CheckoutCounts(
        started=sum(by_status.values()),
        paid=by_status.get("complete", 0),
        abandoned=by_status.get("expired", 0),
    )


async def buyers_among(
    user_ids: set[int] | None, emails: set[str], start: datetime, end: datetime
) -> int:
    """How many of these people (by user id, or by e-mail) paid an order in [start, end)."""
    buyers: set[int] = set(
        await Order.filter(  # type: ignore[arg-type]
            status__in=PAID_ORDER_STATUSES,
            order_date__gte=_aware(start),
            order_date__lt=_aware(end),
        )
        .distinct()
        .values_list("user_id", flat=True)
    )
    if not buyers:
        return 0
    ids = user_ids or set()
    wanted = {auth_api.normalise_email(e) for e in emails if e}
    by_email = await _emails({b for b in buyers if b not in ids}) if wanted else {}
    return sum(
        1
        for buyer in buyers
        if buyer in ids or (by_email.get(buyer) is not None and by_email[buyer] in wanted)
    )


def day_end(day: date) -> datetime:
    """The end of a UTC day (the start of the next)."""
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC)
