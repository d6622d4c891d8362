"""What the withdraw and cancel pages and account deletion need of billing: a user's order by
its number or its website's domain, a subscription set to end at its period end at Stripe (with
the one cancellation confirmation, whichever way the cancellation came), and every subscription
ended at Stripe before an account is deleted."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from agency.core import mail
from agency.core.errors import ServiceUnavailable
from agency.modules.auth import api as auth_api
from agency.modules.billing import clients
from agency.modules.billing.clients import StripeObjectMissing
from agency.modules.billing.models import CheckoutSession, Order, Subscription
from agency.modules.billing.schemas import ContractOrder, ContractSubscription
from agency.modules.billing.service import subscriptions
from agency.modules.billing.service.order_numbers import order_number
from agency.modules.catalogue import api as catalogue_api
from agency.modules.notifications import api as notifications_api
from agency.modules.sites import api as sites_api

log = logging.getLogger(__name__)

ENDED_STATUSES = ("canceled", "incomplete_expired")
CONSUMER, BUSINESS = "consumer", "business"
MSG_NOT_CANCELLED = (
    "We could not cancel your subscription with our payment provider, so your account has not "
    "been deleted and nothing was changed. Please try again in a few minutes, or contact us."
)
MSG_CANCEL_FAILED = (
    "We could not reach our payment provider to cancel the subscription. Nothing was changed: "
    "please try again in a few minutes, or contact us."
)
ADMIN_LIST_MAX = 500


def long_date(value: datetime) -> str:
    """26 November 2026 (UTC)."""
    return f"{value.astimezone(UTC).day} {value.astimezone(UTC):%B %Y}"


def date_time(value: datetime) -> str:
    """26 November 2026, 14:05 UTC."""
    return f"{long_date(value)}, {value.astimezone(UTC):%H:%M} UTC"


def _period_end(row: Subscription) -> datetime | None:
    end = row.current_period_end
    return datetime.fromtimestamp(end, UTC) if end else None


async def _plan_names() -> dict[str, str]:
    return {p.key: p.name for p in await catalogue_api.all_plans(include_inactive=True)}


def _buyer_type(order: Order) -> str:
    # Orders from before the buyer said how they buy count as a consumer's (the safe side).
    value = getattr(order, "buyer_type", None)
    return BUSINESS if value == BUSINESS else CONSUMER


async def _contract_order(order: Order, names: dict[str, str]) -> ContractOrder:
    session = await CheckoutSession.get_or_none(id=order.checkout_session_id)
    return ContractOrder(
        id=order.id,
        number=order_number(order.id),
        user_id=order.user_id,
        plan_key=order.plan_key,
        plan_name=names.get(order.plan_key, order.plan_key),
        amount=order.amount,
        currency=order.currency,
        order_date=order.order_date,
        subscription_id=order.subscription_id,
        domain=session.domain if session else None,
        buyer_type=_buyer_type(order),
    )


async def find_order(user_id: int, order_id: int) -> ContractOrder | None:
    """The user's order with this id, or None (another user's is None too)."""
    if user_id <= 0 or not 0 < order_id < 2**31:
        return None
    order = await Order.get_or_none(id=order_id, user_id=user_id)
    return await _contract_order(order, await _plan_names()) if order else None


async def orders_for_domain(user_id: int, domain: str) -> list[ContractOrder]:
    """The user's orders for this website (the domain given at checkout), newest first."""
    if user_id <= 0:
        return []
    orders = await Order.filter(user_id=user_id).order_by("-order_date", "-id")
    if not orders:
        return []
    names = await _plan_names()
    sessions = {
        s.id: s.domain
        for s in await CheckoutSession.filter(id__in=[o.checkout_session_id for o in orders])
    }
    # An order from before checkouts kept the domain: the user's own website of that domain.
    owns_site = any(site.domain == domain for site in await sites_api.list_websites(user_id))
    matching = [
        o
        for o in orders
        if sessions.get(o.checkout_session_id) == domain
        or (sessions.get(o.checkout_session_id) is None and owns_site)
    ]
    return [await _contract_order(o, names) for o in matching]


def _contract_subscription(row: Subscription, names: dict[str, str]) -> ContractSubscription:
    key = row.plan_key
    return ContractSubscription(
        id=row.id,
        user_id=row.user_id,
        status=row.status,
        plan_key=key,
        plan_name=names.get(key, key) if key else "Subscription",
        current_period_end=_period_end(row),
        cancel_at_period_end=row.cancel_at_period_end,
        cancellation_confirmed_at=row.cancellation_confirmed_at,
    )


async def get_subscription(subscription_id: str) -> ContractSubscription | None:
    row = await Subscription.get_or_none(id=subscription_id)
    return _contract_subscription(row, await _plan_names()) if row else None


def is_running(subscription: ContractSubscription) -> bool:
    """Still to be paid for: not ended and not yet set to end."""
    return subscription.status not in ENDED_STATUSES and not subscription.cancel_at_period_end


async def cancel_at_period_end(
    subscription_id: str, *, requested_at: datetime
) -> ContractSubscription:
    """Set the subscription to end with its current period at Stripe, store Stripe's answer and
    send the cancellation confirmation (requested at `requested_at`)."""
    gateway = clients.installed()
    try:
        await gateway.cancel_at_period_end(subscription_id)
        row = await subscriptions.fetch_row(gateway, subscription_id)
    except ServiceUnavailable:
        raise
    except Exception as exc:  # Stripe unreachable or refusing: nothing changed here
        log.warning("cancellation at Stripe failed", extra={"error": str(exc)[:200]})
        raise ServiceUnavailable(MSG_CANCEL_FAILED, code="cancellation_failed") from exc
    if row is not None:
        await subscriptions.upsert(row)
    await subscription_changed(subscription_id, requested_at=requested_at)
    found = await get_subscription(subscription_id)
    assert found is not None
    return found


async def subscription_changed(
    subscription_id: str, *, requested_at: datetime | None = None
) -> None:
    """After our row of a subscription changed (a webhook, the cancel page): a subscription newly
    set to end gets its one confirmation e-mail and dashboard notification; one renewed again
    forgets it, so a later cancellation is confirmed again."""
    row = await Subscription.get_or_none(id=subscription_id)
    if row is None:
        return
    if not row.cancel_at_period_end or row.status in ENDED_STATUSES:
        if row.cancellation_confirmed_at is not None and not row.cancel_at_period_end:
            await Subscription.filter(id=row.id).update(cancellation_confirmed_at=None)
        return
    now = datetime.now(UTC)
    claimed = await Subscription.filter(id=row.id, cancellation_confirmed_at=None).update(
        cancellation_confirmed_at=now
    )
    if not claimed or row.user_id <= 0:
        return
    await _confirm(row, requested_at or now)


async def _confirm(row: Subscription, requested_at: datetime) -> None:
    account = await auth_api.get_account(row.user_id)
    names = await _plan_names()
    plan_name = names.get(row.plan_key or "", row.plan_key or "Subscription")
    end = _period_end(row)
    ends_on = long_date(end) if end else "the end of the current billing period"
    if account is not None:
        context: dict[str, Any] = {
            "name": account.first_name or "",
            "plan_name": plan_name,
            "ends_on": ends_on,
            "requested_at": date_time(requested_at),
        }
        await mail.send_mail(account.email, "subscription_cancelled", context)
    await notifications_api.notify(
        row.user_id,
        kind=notifications_api.SUBSCRIPTION_CANCELLED,
        title="Your subscription is cancelled",
        body=f"Your {plan_name} subscription ends on {ends_on}. Nothing more will be charged.",
        link="/dashboard/billing",
    )


async def cancelled_subscriptions() -> list[ContractSubscription]:
    """Subscriptions set to end or ended, most recently changed first (the admins' list)."""
    rows = (
        await Subscription.filter(cancel_at_period_end=True)
        .order_by("-updated_at")
        .limit(ADMIN_LIST_MAX)
    )
    names = await _plan_names()
    return [_contract_subscription(row, names) for row in rows]


async def end_subscriptions_of(user_id: int) -> list[str]:
    """End every subscription of the user at Stripe at once, before their account is deleted;
    returns their ids. Raises ServiceUnavailable, with nothing of ours changed for the one
    that failed, when Stripe does not confirm an end."""
    rows = await Subscription.filter(user_id=user_id).exclude(status__in=ENDED_STATUSES)
    if not rows:
        return []
    gateway = clients.installed()
    ended = []
    for row in rows:
        try:
            answer = await gateway.cancel_now(row.id)
        except StripeObjectMissing:
            answer = {"status": "canceled"}  # Stripe has no such subscription: nothing to end
        except Exception as exc:
            log.warning("subscription not ended at Stripe", extra={"error": str(exc)[:200]})
            raise ServiceUnavailable(MSG_NOT_CANCELLED, code="subscription_not_cancelled") from exc
        if answer.get("status") != "canceled":
            raise ServiceUnavailable(MSG_NOT_CANCELLED, code="subscription_not_cancelled")
        await Subscription.filter(id=row.id).update(status="canceled", cancel_at_period_end=False)
        ended.append(row.id)
    return ended
