"""What a Stripe event changes: prepared from Stripe's current objects (network calls), then
applied in the transaction that stores the event (database writes only)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from agency.modules.billing.clients import StripeGateway, StripeObjectMissing
from agency.modules.billing.models import CheckoutSession, Customer, Order
from agency.modules.billing.service import confirmation, contracts, subscriptions
from agency.modules.catalogue import api as catalogue_api
from agency.modules.notifications import api as notifications_api
from agency.modules.sites import api as sites_api

SUBSCRIPTION_EVENTS = {
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
}
INVOICE_EVENTS = {"invoice.paid", "invoice.payment_failed", "invoice.payment_succeeded"}
CHECKOUT_EVENTS = {
    "checkout.session.completed",
    "checkout.session.async_payment_succeeded",
    "checkout.session.expired",
}
HANDLED = SUBSCRIPTION_EVENTS | INVOICE_EVENTS | CHECKOUT_EVENTS


class Ignored(Exception):
    """The event is genuine but not ours to act on (an object Stripe does not know, a customer
    or checkout of no user of ours): recorded as ignored with this reason, answered 200, and
    Stripe does not retry it. `agency stripe replay ID` applies it again if that was wrong."""


class Effects:
    """What an event changes, prepared with Stripe's current objects, applied in one
    transaction."""

    def __init__(self) -> None:
        self.subscription: dict[str, Any] | None = None
        self.order: dict[str, Any] | None = None
        self.session_status: tuple[str, str] | None = None
        self.website: tuple[int, str, str] | None = None  # user id, domain, plan key
        self.customer: tuple[int, str] | None = None
        # The user whose renewal payment failed (invoice.payment_failed): notified.
        self.payment_failed: int | None = None

    async def apply(self) -> None:
        if self.payment_failed is not None:
            await notifications_api.notify(
                self.payment_failed,
                kind=notifications_api.PAYMENT_FAILED,
                title="Your payment failed",
                body="We could not charge your card for your plan. "
                "Please update your payment method in Billing.",
                link="/dashboard/billing",
            )
        if self.customer is not None:
            user_id, customer_id = self.customer
            if not await Customer.exists(user_id=user_id):
                await Customer.create(user_id=user_id, stripe_customer_id=customer_id)
        if self.subscription is not None:
            await subscriptions.upsert(self.subscription)
            # Cancelled any way (the portal, the cancel page): confirmed once, by e-mail.
            await contracts.subscription_changed(self.subscription["id"])
        if self.order is not None and not await Order.exists(
            checkout_session_id=self.order["checkout_session_id"]
        ):
            order = await Order.create(**self.order)
            await confirmation.queue(order.id)  # in this transaction: once per order
        if self.session_status is not None:
            session_id, status = self.session_status
            completed = datetime.now(UTC) if status == "complete" else None
            await (
                CheckoutSession.filter(id=session_id)
                .exclude(status="complete")
                .update(status=status, completed_at=completed)
            )
        if self.website is not None:
            user_id, domain, plan_key = self.website
            await sites_api.create_website(user_id, domain, plan_key=plan_key)


async def prepare(gateway: StripeGateway, event: dict[str, Any]) -> Effects:
    """The effects of a handled event (its type is in HANDLED); raises Ignored when the event is
    about something this program does not know."""
    try:
        return await _prepare(gateway, event)
    except StripeObjectMissing as exc:
        raise Ignored(f"unknown at Stripe: {exc}") from exc


async def _prepare(gateway: StripeGateway, event: dict[str, Any]) -> Effects:
    effects = Effects()
    kind = event["type"]
    obj: dict[str, Any] = event["data"]["object"]
    if kind in SUBSCRIPTION_EVENTS:
        effects.subscription = await _known_subscription(gateway, str(obj["id"]))
    elif kind in INVOICE_EVENTS:
        subscription_id = _subscription_id_of_invoice(obj)
        if subscription_id:
            effects.subscription = await _known_subscription(gateway, subscription_id)
            if kind == "invoice.payment_failed":
                effects.payment_failed = int(effects.subscription["user_id"])
    elif kind == "checkout.session.expired":
        effects.session_status = (obj["id"], "expired")
    else:  # checkout.session.completed / async_payment_succeeded
        await _prepare_completed_checkout(gateway, obj["id"], effects)
    return effects


async def _known_subscription(gateway: StripeGateway, subscription_id: str) -> dict[str, Any]:
    row = await subscriptions.fetch_row(gateway, subscription_id)
    if row is None:
        raise Ignored(f"subscription {subscription_id} belongs to an unknown customer")
    return row


def _subscription_id_of_invoice(invoice: dict[str, Any]) -> str | None:
    subscription = invoice.get("subscription")
    if subscription is None:
        details = ((invoice.get("parent") or {}).get("subscription_details")) or {}
        subscription = details.get("subscription")
    if isinstance(subscription, dict):
        subscription = subscription.get("id")
    return str(subscription) if subscription else None


async def _prepare_completed_checkout(
    gateway: StripeGateway, session_id: str, effects: Effects
) -> None:
    session = await gateway.retrieve_checkout_session(session_id)
    if session.get("payment_status") not in ("paid", "no_payment_required"):
        return  # a delayed payment method: async_payment_succeeded follows
    metadata = session.get("metadata") or {}
    local = await CheckoutSession.get_or_none(id=session_id)
    user_id = await subscriptions.user_for(session.get("customer"), metadata)
    reference = str(session.get("client_reference_id") or "")  # null: made outside the program
    if user_id is None and reference.isdigit():
        user_id = int(reference)
    if user_id is None and local is not None:
        user_id = local.user_id
    if user_id is None:
        raise Ignored(f"checkout session {session_id} belongs to no known user")
    plan_key = metadata.get("plan") or (local.plan_key if local else "")
    if session.get("customer"):
        effects.customer = (user_id, str(session["customer"]))
    brand = last4 = None
    payment_intent_id = session.get("payment_intent")
    subscription_id = session.get("subscription")
    if isinstance(subscription_id, dict):
        subscription_id = subscription_id.get("id")
    if session.get("mode") == "subscription" and subscription_id:
        effects.subscription = await subscriptions.fetch_row(gateway, str(subscription_id))
        if effects.subscription is not None:
            brand = effects.subscription["card_brand"]
            last4 = effects.subscription["card_last4"]
    elif payment_intent_id:
        if isinstance(payment_intent_id, dict):
            payment_intent_id = payment_intent_id.get("id")
        intent = await gateway.retrieve_payment_intent(str(payment_intent_id))
        brand, last4 = subscriptions.card(intent.get("payment_method"))
    effects.order = {
        "user_id": user_id,
        "plan_key": plan_key,
        "checkout_session_id": session_id,
        "payment_intent_id": payment_intent_id if isinstance(payment_intent_id, str) else None,
        "subscription_id": str(subscription_id) if subscription_id else None,
        "amount": int(session.get("amount_total") or 0),
        "currency": str(session.get("currency") or "eur").upper(),
        "status": "paid",
        "card_brand": brand,
        "card_last4": last4,
        "order_date": datetime.fromtimestamp(int(session.get("created") or 0), UTC)
        if session.get("created")
        else datetime.now(UTC),
        **confirmation.order_terms_of(local, metadata),
    }
    effects.session_status = (session_id, "complete")
    domain = metadata.get("domain") or (local.domain if local else None)
    plan = await catalogue_api.get_plan(plan_key) if plan_key else None
    if domain and plan is not None and plan.takes_domain:
        effects.website = (user_id, domain, plan.key)
