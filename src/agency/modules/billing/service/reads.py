"""What the customer dashboard reads: the subscription, the orders, whether a checkout has been
paid (what /success waits for), and a Stripe customer portal session."""

from __future__ import annotations

from agency.core.errors import NotFound, ValidationFailed
from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.models import (
    ACTIVE_STATUSES,
    CheckoutSession,
    Customer,
    Order,
    Subscription,
)
from agency.modules.billing.schemas import CheckoutStatus, OrderOut, SubscriptionOut
from agency.modules.billing.service import order_terms
from agency.modules.billing.service.order_numbers import order_number
from agency.modules.catalogue import api as catalogue_api

MSG_NO_BILLING_ACCOUNT = "You have no billing account yet: buy a plan first."
# The revisions (`agency.core.web.revisions`, migration 0039) that `current_subscription`'s
# answer is drawn from: the subscriptions, and the plans (its plan key and name).
SUBSCRIPTION_REVISIONS = ("billing.subscriptions", catalogue_api.PLANS_REVISION)


async def current_subscription(user_id: int) -> SubscriptionOut | None:
    """The user's subscription: an active one first, else the newest."""
    subscriptions = await Subscription.filter(user_id=user_id).order_by("-stripe_created")
    if not subscriptions:
        return None
    chosen = next((s for s in subscriptions if s.status in ACTIVE_STATUSES), subscriptions[0])
    plan = await catalogue_api.plan_by_price_id(chosen.price_id) if chosen.price_id else None
    if plan is None and chosen.plan_key:
        plan = await catalogue_api.get_plan(chosen.plan_key)
    return SubscriptionOut(
        subscription_status=chosen.status,
        price_id=chosen.price_id,
        plan_key=plan.key if plan else chosen.plan_key,
        plan_name=plan.name if plan else None,
        current_period_end=chosen.current_period_end,
        cancel_at_period_end=chosen.cancel_at_period_end,
        payment_method_brand=chosen.card_brand,
        payment_method_last4=chosen.card_last4,
    )


async def list_orders(user_id: int) -> list[OrderOut]:
    """The user's orders, newest first, with their plan's current name."""
    orders = await Order.filter(user_id=user_id).order_by("-order_date", "-id")
    names = {p.key: p.name for p in await catalogue_api.all_plans(include_inactive=True)}
    return [
        OrderOut(
            id=o.id,
            plan_key=o.plan_key,
            plan_name=names.get(o.plan_key, o.plan_key),
            amount=o.amount,
            amount_refunded=o.amount_refunded,
            currency=o.currency,
            status=o.status,
            order_date=o.order_date,
            card_brand=o.card_brand,
            card_last4=o.card_last4,
        )
        for o in orders
    ]


async def checkout_status(user_id: int, session_id: str) -> CheckoutStatus:
    """Whether the webhook has recorded this checkout yet (what /success waits for)."""
    session = await CheckoutSession.get_or_none(id=session_id, user_id=user_id)
    if session is None:
        raise NotFound("We could not find that checkout.")
    plan = await catalogue_api.get_plan(session.plan_key)
    status = {"complete": "paid", "expired": "expired"}.get(session.status, "pending")
    order = await Order.get_or_none(checkout_session_id=session_id)
    buyer = order_terms.BUSINESS if session.buyer_type == order_terms.BUSINESS else "consumer"
    consent_at = order.early_start_consent_at if order else session.early_start_consent_at
    ordered = order.order_date if order else session.created_at
    return CheckoutStatus(
        status=status,
        mode=session.mode,
        plan_key=session.plan_key,
        plan_name=plan.name if plan else session.plan_key,
        order_number=order_number(order.id) if order else None,
        buyer_type=buyer,
        early_start_consent=consent_at is not None,
        work_starts_on=order_terms.work_starts_on(buyer, consent_at, ordered),
    )


async def buyer_type(user_id: int) -> str | None:
    """The buyer type ("consumer" or "business") the user last bought as; None before their
    first checkout."""
    customer = await Customer.get_or_none(user_id=user_id)
    return customer.buyer_type if customer else None


async def portal_url(gateway: StripeGateway, user_id: int, return_url: str) -> str:
    """A Stripe customer portal session for the user, coming back to `return_url`."""
    customer = await Customer.get_or_none(user_id=user_id)
    if customer is None:
        raise ValidationFailed(MSG_NO_BILLING_ACCOUNT, code="no_billing_account")
    return await gateway.create_portal_session(
        customer=customer.stripe_customer_id, return_url=return_url
    )
