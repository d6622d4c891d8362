"""The user's billing data: in their export, and what happens to it when they leave."""

from __future__ import annotations

from typing import Any

from agency.modules.billing.models import (
    CheckoutSession,
    Customer,
    MrrMovement,
    Order,
    PaymentFailure,
    RevenueEntry,
    Subscription,
)
from agency.modules.billing.service import contracts, reads


async def export_user(user_id: int) -> Any:
    """The subscription and the orders, as JSON-ready data."""
    subscription = await reads.current_subscription(user_id)
    return {
        "subscription": subscription.model_dump(mode="json") if subscription else None,
        "orders": [o.model_dump(mode="json") for o in await reads.list_orders(user_id)],
    }


async def erase_user(user_id: int) -> None:
    """Orders are kept for the books (anonymised); the customer link is dropped."""
    await Customer.filter(user_id=user_id).delete()
    await Order.filter(user_id=user_id).update(user_id=0)
    await Subscription.filter(user_id=user_id).update(user_id=0)
    await CheckoutSession.filter(user_id=user_id).update(user_id=0)
    # The owner's figures keep their amounts (the MRR history, revenue), not who it was.
    await MrrMovement.filter(user_id=user_id).update(user_id=0)
    await RevenueEntry.filter(user_id=user_id).update(user_id=None)
    await PaymentFailure.filter(user_id=user_id).update(user_id=None, stripe_customer_id=None)


async def leave_user(user_id: int) -> None:
    """Before the account goes: its subscriptions end at Stripe, or it stays (503)."""
    await contracts.end_subscriptions_of(user_id)
