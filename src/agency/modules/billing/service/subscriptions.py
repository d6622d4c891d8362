"""A Stripe subscription as the row we keep (re-fetched, never taken from an event's copy), and
`agency stripe reconcile`, which re-fetches every known one."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.models import Customer, Subscription
from agency.modules.billing.service import mrr
from agency.modules.catalogue import api as catalogue_api

log = logging.getLogger(__name__)


async def reconcile(gateway: StripeGateway) -> list[str]:
    """Re-fetch every known subscription from Stripe; returns the ids updated."""
    updated = []
    for subscription in await Subscription.all():
        row = await fetch_row(gateway, subscription.id)
        if row is not None:
            await upsert(row, source="reconcile")
            updated.append(subscription.id)
    return updated


async def fetch_row(gateway: StripeGateway, subscription_id: str) -> dict[str, Any] | None:
    """Stripe's current state of a subscription as our row's values; None when it belongs to
    no user we know."""
    return await row_of(await gateway.retrieve_subscription(subscription_id))


async def row_of(subscription: dict[str, Any]) -> dict[str, Any] | None:
    """A subscription as Stripe answered it (its discounts' coupons and latest invoice expanded)
    as our row's values; None when it belongs to no user we know."""
    customer = subscription.get("customer")
    customer_id = customer.get("id") if isinstance(customer, dict) else customer
    user_id = await user_for(customer_id, subscription.get("metadata"))
    if user_id is None:
        log.warning("subscription of an unknown customer", extra={"id": subscription.get("id")})
        return None
    price_id = _price_id(subscription)
    plan_key = (subscription.get("metadata") or {}).get("plan")
    if price_id and not plan_key:
        plan = await catalogue_api.plan_by_price_id(price_id)
        plan_key = plan.key if plan else None
    brand, last4 = card(subscription.get("default_payment_method"))
    return {
        "id": subscription["id"],
        "user_id": user_id,
        "customer_id": customer_id,
        "status": subscription.get("status", "incomplete"),
        "price_id": price_id,
        "plan_key": plan_key,
        "current_period_end": _period_end(subscription),
        "cancel_at_period_end": bool(subscription.get("cancel_at_period_end")),
        "card_brand": brand,
        "card_last4": last4,
        "stripe_created": int(subscription.get("created") or 0),
        **mrr.details(subscription),
    }


async def upsert(
    row: dict[str, Any],
    *,
    event_id: str | None = None,
    occurred_at: datetime | None = None,
    source: str = "webhook",
) -> None:
    """Store a row from `fetch_row`; when its MRR changed, the movement (in the caller's
    transaction: the event's), at `occurred_at` (the event's time; default now)."""
    existing = await Subscription.get_or_none(id=row["id"])
    values = {k: v for k, v in row.items() if k != "id"}
    await mrr.record_change(
        subscription_id=str(row["id"]),
        user_id=int(row["user_id"]),
        old_mrr=existing.mrr if existing else 0,
        old_currency=existing.currency if existing else "",
        new_mrr=int(row.get("mrr") or 0),
        new_currency=str(row.get("currency") or ""),
        event_id=event_id,
        occurred_at=occurred_at or datetime.now(UTC),
        source=source,
    )
    if existing is None:
        await Subscription.create(**row)
        return
    # Keep a card we learnt earlier when this fetch did not include one.
    if values["card_brand"] is None:
        values.pop("card_brand")
        values.pop("card_last4")
    await Subscription.filter(id=row["id"]).update(**values)


async def user_for(customer_id: str | None, metadata: dict[str, Any] | None) -> int | None:
    """Our user behind a Stripe object: the metadata's user id, else the customer's owner."""
    user_id = (metadata or {}).get("user_id")
    if user_id and str(user_id).isdigit():
        return int(user_id)
    if customer_id:
        customer = await Customer.get_or_none(stripe_customer_id=customer_id)
        if customer is not None:
            return customer.user_id
    return None


def card(payment_method: Any) -> tuple[str | None, str | None]:
    """Brand and last 4 digits of an expanded payment method, when it is a card."""
    if isinstance(payment_method, dict) and isinstance(payment_method.get("card"), dict):
        details = payment_method["card"]
        return details.get("brand"), details.get("last4")
    return None, None


def _period_end(subscription: dict[str, Any]) -> int | None:
    """Current API versions keep the period on the items; older ones on the subscription."""
    items = (subscription.get("items") or {}).get("data") or []
    for item in items:
        if item.get("current_period_end"):
            return int(item["current_period_end"])
    value = subscription.get("current_period_end")
    return int(value) if value else None


def _price_id(subscription: dict[str, Any]) -> str | None:
    items = (subscription.get("items") or {}).get("data") or []
    price = items[0].get("price") if items else None
    if isinstance(price, dict):
        return str(price.get("id"))
    return str(price) if price else None
