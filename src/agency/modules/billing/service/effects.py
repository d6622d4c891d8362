"""What a Stripe event changes: prepared from Stripe's current objects (network calls), then
applied in the transaction that stores the event (database writes only)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from agency.modules.billing.clients import StripeGateway, StripeObjectMissing
from agency.modules.billing.models import (
    CheckoutSession,
    Customer,
    CustomerTaxId,
    Order,
    Subscription,
)
from agency.modules.billing.service import confirmation, contracts, revenue, subscriptions
from agency.modules.billing.service.order_numbers import order_number
from agency.modules.catalogue import api as catalogue_api
from agency.modules.invoices import api as invoices_api
from agency.modules.notifications import api as notifications_api
from agency.modules.sites import api as sites_api

SUBSCRIPTION_EVENTS = {
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
}
INVOICE_EVENTS = {
    "invoice.finalized",
    "invoice.paid",
    "invoice.payment_failed",
    "invoice.payment_succeeded",
    "invoice.voided",
    "invoice.marked_uncollectible",
}
CHECKOUT_EVENTS = {
    "checkout.session.completed",
    "checkout.session.async_payment_succeeded",
    "checkout.session.expired",
}
CREDIT_NOTE_EVENTS = {"credit_note.created", "credit_note.updated", "credit_note.voided"}
REFUND_EVENTS = {"charge.refunded"}
TAX_ID_EVENTS = {
    "customer.tax_id.created",
    "customer.tax_id.updated",
    "customer.tax_id.deleted",
}
HANDLED = (
    SUBSCRIPTION_EVENTS
    | INVOICE_EVENTS
    | CHECKOUT_EVENTS
    | CREDIT_NOTE_EVENTS
    | REFUND_EVENTS
    | TAX_ID_EVENTS
)
"""Every event type billing acts on: the webhook endpoint at Stripe must send these
(docs/features/purchase-and-billing.md lists them)."""


# The sentence checkout puts in a small business's invoices (§19 UStG).
SMALL_BUSINESS_NOTE = "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet."
# An invoice names a rate per tax jurisdiction: a handful; more is not Stripe's.
MAX_TAX_RATES = 20


class Ignored(Exception):
    """The event is genuine but not ours to act on (an object Stripe does not know, a customer
    or checkout of no user of ours): recorded as ignored with this reason, answered 200, and
    Stripe does not retry it. `agency stripe replay ID` applies it again if that was wrong."""


class Effects:
    """What an event changes, prepared with Stripe's current objects, applied in one
    transaction."""

    def __init__(self, event_id: str | None = None, occurred_at: datetime | None = None) -> None:
        # The event's id and time: the MRR movement, revenue and failure it writes carry them.
        self.event_id = event_id
        self.occurred_at = occurred_at or datetime.now(UTC)
        self.event_type = ""
        self.order_metadata: dict[str, Any] = {}
        self.subscription: dict[str, Any] | None = None
        self.order: dict[str, Any] | None = None
        self.session_status: tuple[str, str] | None = None
        self.website: tuple[int, str, str] | None = None  # user id, domain, plan key
        self.customer: tuple[int, str] | None = None
        # The user whose renewal payment failed (invoice.payment_failed): notified.
        self.payment_failed: int | None = None
        # Stripe's current invoice, to be stored (invoices module) with its user and order,
        # the rates of its tax rates (basis points by id), and whether it is a small business's.
        self.invoice: dict[str, Any] | None = None
        self.invoice_user: int | None = None
        self.tax_rates: dict[str, int] = {}
        self.small_business = False
        self.credit_note: tuple[dict[str, Any], int | None] | None = None
        self.refund: tuple[dict[str, Any], int | None] | None = None
        self.tax_id: dict[str, Any] | None = None
        self.tax_id_deleted: str | None = None

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
            # With its MRR movement, if its MRR changed (once per event).
            await subscriptions.upsert(
                self.subscription, event_id=self.event_id, occurred_at=self.occurred_at
            )
            # Cancelled any way (the portal, the cancel page): confirmed once, by e-mail.
            await contracts.subscription_changed(self.subscription["id"])
        if self.order is not None and not await Order.exists(
            checkout_session_id=self.order["checkout_session_id"]
        ):
            order = await Order.create(**self.order)
            await confirmation.queue(order.id)  # in this transaction: once per order
            await revenue.record_order_payment(self.order, self.order_metadata)
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
        # After the order: an invoice of this very checkout finds its order number.
        if self.invoice is not None:
            await _record_invoice(self)
            await _invoice_money(self)
        if self.credit_note is not None:
            credit_note, note_user = self.credit_note
            await invoices_api.record_credit_note(credit_note, user_id=note_user)
        if self.refund is not None:
            charge, charge_user = self.refund
            await _refund_order(charge)
            await invoices_api.record_refund(charge, user_id=charge_user)
            await revenue.record_refunds(charge, self.occurred_at)
        if self.tax_id is not None:
            await CustomerTaxId.update_or_create(
                defaults={k: v for k, v in self.tax_id.items() if k != "id"}, id=self.tax_id["id"]
            )
        if self.tax_id_deleted is not None:
            await CustomerTaxId.filter(id=self.tax_id_deleted).delete()


async def _record_invoice(effects: Effects) -> None:
    """Store the invoice with its user, buyer type and order number: the order this invoice
    was made for (a one-time payment's), else the order that started its subscription."""
    invoice = effects.invoice
    assert invoice is not None
    user_id = effects.invoice_user
    invoice_id = str(invoice["id"])
    order = await Order.filter(invoice_id=invoice_id).first()
    subscription_id = _subscription_id_of_invoice(invoice)
    if order is None and subscription_id:
        order = await Order.filter(subscription_id=subscription_id).order_by("id").first()
    metadata = invoice.get("metadata") or {}
    buyer = metadata.get("buyer_type") if isinstance(metadata, dict) else None
    if order is not None:
        user_id = user_id if user_id is not None else order.user_id
        buyer = order.buyer_type
    if buyer not in ("consumer", "business") and user_id is not None:
        customer = await Customer.get_or_none(user_id=user_id)
        buyer = customer.buyer_type if customer else None
    await invoices_api.record_invoice(
        invoice,
        user_id=user_id,
        buyer_type=buyer if buyer in ("consumer", "business") else None,
        order_number=order_number(order.id) if order is not None else None,
        small_business=effects.small_business,
        tax_rates=effects.tax_rates,
    )


async def _invoice_money(effects: Effects) -> None:
    """A subscription invoice paid: its revenue (and a failed payment of it recovered); its
    payment failed: the failure recorded."""
    invoice = effects.invoice
    assert invoice is not None
    subscription_id = _subscription_id_of_invoice(invoice)
    plan_key = None
    if effects.subscription is not None and effects.subscription["id"] == subscription_id:
        plan_key = effects.subscription.get("plan_key")
    elif subscription_id:
        row = await Subscription.get_or_none(id=subscription_id)
        plan_key = row.plan_key if row else None
    if effects.event_type == "invoice.payment_failed" and invoice.get("status") != "draft":
        await revenue.record_failure(
            invoice,
            subscription_id=subscription_id,
            user_id=effects.invoice_user,
            when=effects.occurred_at,
        )
    parent = invoice.get("parent") or {}
    details = (parent.get("subscription_details") if isinstance(parent, dict) else None) or {}
    metadata = details.get("metadata") if isinstance(details, dict) else None
    await revenue.record_invoice_payment(
        invoice,
        subscription_id=subscription_id,
        user_id=effects.invoice_user,
        plan_key=plan_key,
        metadata=metadata if isinstance(metadata, dict) else (invoice.get("metadata") or {}),
        when=effects.occurred_at,
    )


async def _refund_order(charge: dict[str, Any]) -> None:
    """The order paid with this charge: what is refunded of it, "refunded" once all is."""
    intent = charge.get("payment_intent")
    if isinstance(intent, dict):
        intent = intent.get("id")
    if not intent:
        return
    order = await Order.get_or_none(payment_intent_id=str(intent))
    if order is None:
        return
    refunded = int(charge.get("amount_refunded") or 0)
    status = "refunded" if charge.get("refunded") or refunded >= order.amount else order.status
    await Order.filter(id=order.id).update(amount_refunded=refunded, status=status)


async def prepare(
    gateway: StripeGateway, event: dict[str, Any], *, small_business: bool = False
) -> Effects:
    """The effects of a handled event (its type is in HANDLED); raises Ignored when the event is
    about something this program does not know. `small_business`: the agency charges no VAT
    (§19 UStG, the tax setting `vat_mode`), which its invoices say."""
    try:
        effects = await _prepare(gateway, event)
        if effects.invoice is not None:
            await _invoice_details(gateway, effects, small_business=small_business)
        return effects
    except StripeObjectMissing as exc:
        raise Ignored(f"unknown at Stripe: {exc}") from exc


async def _invoice_details(
    gateway: StripeGateway, effects: Effects, *, small_business: bool
) -> None:
    """The percentages of the invoice's tax rates (Stripe gives their ids), and whether it is
    a small business's invoice (the setting, or the §19 sentence checkout put in its footer)."""
    invoice = effects.invoice or {}
    footer = invoice.get("footer")
    effects.small_business = small_business or (
        isinstance(footer, str) and SMALL_BUSINESS_NOTE in footer
    )
    for rate_id in sorted(_tax_rate_ids(invoice))[:MAX_TAX_RATES]:
        percentage = await gateway.tax_rate_percentage(rate_id)
        if percentage is not None and 0 <= percentage <= 100:
            effects.tax_rates[rate_id] = round(percentage * 100)


def _tax_rate_ids(invoice: dict[str, Any]) -> set[str]:
    """The tax rate ids named by the invoice's taxes and its lines' taxes."""
    total_taxes = invoice.get("total_taxes")
    taxes: list[Any] = list(total_taxes) if isinstance(total_taxes, list) else []
    listing = invoice.get("lines")
    lines = listing.get("data") if isinstance(listing, dict) else None
    for line in lines if isinstance(lines, list) else []:
        if isinstance(line, dict) and isinstance(line.get("taxes"), list):
            taxes.extend(line["taxes"])
    found = set()
    for tax in taxes:
        details = tax.get("tax_rate_details") if isinstance(tax, dict) else None
        rate = details.get("tax_rate") if isinstance(details, dict) else None
        if isinstance(rate, dict):
            rate = rate.get("id")
        if isinstance(rate, str) and rate:
            found.add(rate)
    return found


async def _prepare(gateway: StripeGateway, event: dict[str, Any]) -> Effects:
    created = event.get("created")
    effects = Effects(
        str(event["id"]),
        datetime.fromtimestamp(created, UTC) if type(created) is int and created > 0 else None,
    )
    kind = event["type"]
    effects.event_type = kind
    obj: dict[str, Any] = event["data"]["object"]
    if kind in SUBSCRIPTION_EVENTS:
        effects.subscription = await _known_subscription(gateway, str(obj["id"]))
    elif kind in INVOICE_EVENTS:
        await _prepare_invoice(gateway, kind, obj, effects)
    elif kind in CREDIT_NOTE_EVENTS:
        credit_note = await gateway.retrieve_credit_note(str(obj["id"]))
        user_id = await subscriptions.user_for(_id_of(credit_note.get("customer")), None)
        effects.credit_note = (credit_note, user_id)
    elif kind in REFUND_EVENTS:
        charge = await gateway.retrieve_charge(str(obj["id"]))
        user_id = await subscriptions.user_for(
            _id_of(charge.get("customer")), charge.get("metadata")
        )
        effects.refund = (charge, user_id)
    elif kind in TAX_ID_EVENTS:
        await _prepare_tax_id(gateway, kind, event, effects)
    elif kind == "checkout.session.expired":
        effects.session_status = (obj["id"], "expired")
    else:  # checkout.session.completed / async_payment_succeeded
        await _prepare_completed_checkout(gateway, obj["id"], effects)
    return effects


async def _prepare_invoice(
    gateway: StripeGateway, kind: str, obj: dict[str, Any], effects: Effects
) -> None:
    """The subscription refreshed (as before), then Stripe's current invoice to store. An
    invoice of a customer who is none of ours is stored too, without a user: the VAT report
    covers every sale of the Stripe account."""
    subscription_id = _subscription_id_of_invoice(obj)
    if subscription_id:
        row = await subscriptions.fetch_row(gateway, subscription_id)
        if row is not None:
            effects.subscription = row
            if kind == "invoice.payment_failed":
                effects.payment_failed = int(row["user_id"])
    invoice = await gateway.retrieve_invoice(str(obj["id"]))
    effects.invoice = invoice
    effects.invoice_user = (
        int(effects.subscription["user_id"])
        if effects.subscription is not None
        else await subscriptions.user_for(_id_of(invoice.get("customer")), invoice.get("metadata"))
    )


async def _prepare_tax_id(
    gateway: StripeGateway, kind: str, event: dict[str, Any], effects: Effects
) -> None:
    """A customer's tax ID as Stripe has it now (deleted: the row goes)."""
    obj: dict[str, Any] = event["data"]["object"]
    if kind == "customer.tax_id.deleted":
        effects.tax_id_deleted = str(obj["id"])
        return
    customer_id = _id_of(obj.get("customer"))
    if not customer_id:
        raise Ignored(f"tax ID {obj['id']} belongs to no customer")
    customer = await Customer.get_or_none(stripe_customer_id=customer_id)
    if customer is None:
        raise Ignored(f"tax ID {obj['id']} belongs to customer {customer_id}, none of ours")
    tax_id = await gateway.retrieve_tax_id(customer_id, str(obj["id"]))  # missing: deleted since
    verification = tax_id.get("verification") or {}
    effects.tax_id = {
        "id": str(tax_id["id"]),
        "stripe_customer_id": customer_id,
        "user_id": customer.user_id,
        "type": str(tax_id.get("type") or "")[:32],
        "value": str(tax_id.get("value") or "")[:64],
        "verification_status": _text(verification.get("status"), 16),
        "verified_name": _text(verification.get("verified_name"), 255),
        "stripe_updated": int(event.get("created") or 0),
    }


def _text(value: object, limit: int) -> str | None:
    return str(value)[:limit] if value else None


def _id_of(value: object) -> str | None:
    """A Stripe reference's id, whether given as an id or expanded."""
    if isinstance(value, dict):
        value = value.get("id")
    return str(value) if value else None


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
    invoice_id = _id_of(session.get("invoice"))
    if not invoice_id and effects.subscription is not None and subscription_id:
        # The subscription's first invoice (a session in subscription mode may not name it).
        current = await gateway.retrieve_subscription(str(subscription_id))
        invoice_id = _id_of(current.get("latest_invoice"))
    if invoice_id:
        try:
            effects.invoice = await gateway.retrieve_invoice(invoice_id)
            effects.invoice_user = user_id
        except StripeObjectMissing:
            pass  # the order counts all the same; the invoice's own events store it
    effects.order_metadata = metadata if isinstance(metadata, dict) else {}
    effects.order = {
        "invoice_id": invoice_id,
        **_buyer_tax_of(session, local, metadata),
        "user_id": user_id,
        "plan_key": plan_key,
        "checkout_session_id": session_id,
        "payment_intent_id": payment_intent_id if isinstance(payment_intent_id, str) else None,
        "subscription_id": str(subscription_id) if subscription_id else None,
        "amount": int(session.get("amount_total") or 0),
        **_tax_of(session, metadata),
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


def _tax_of(session: dict[str, Any], metadata: dict[str, Any]) -> dict[str, Any]:
    """The VAT of the order: Stripe Tax's amount when it calculated one, and the treatment our
    checkout chose (its metadata)."""
    automatic = session.get("automatic_tax") or {}
    totals = session.get("total_details") or {}
    amount_tax = totals.get("amount_tax") if isinstance(totals, dict) else None
    calculated = isinstance(automatic, dict) and automatic.get("enabled") is True
    kind = str(metadata.get("vat_kind") or "")[:16] or None
    rate = str(metadata.get("vat_rate") or "")
    return {
        "amount_tax": int(amount_tax) if calculated and type(amount_tax) is int else None,
        "vat_kind": kind,
        "vat_rate": int(rate) if rate.isdigit() and len(rate) <= 5 else None,
    }


def _buyer_tax_of(
    session: dict[str, Any], local: CheckoutSession | None, metadata: dict[str, Any]
) -> dict[str, Any]:
    """The order's country and VAT ID: what Stripe collected (the billing address, the tax ID
    given at checkout), else what the buyer told us; the VIES status of the VAT ID we checked
    (None for another one: Stripe verifies it, `customer.tax_id.updated` says so)."""
    ours_country = (local.country if local else None) or metadata.get("country") or None
    ours_vat_id = (local.vat_id if local else None) or metadata.get("vat_id") or None
    ours_status = (local.vat_id_status if local else None) or metadata.get("vat_id_status") or None
    details = session.get("customer_details") or {}
    address = details.get("address") or {} if isinstance(details, dict) else {}
    country = address.get("country") if isinstance(address, dict) else None
    tax_ids = details.get("tax_ids") or [] if isinstance(details, dict) else []
    collected = next(
        (str(t.get("value")) for t in tax_ids if isinstance(t, dict) and t.get("value")), None
    )
    vat_id = (collected or ours_vat_id or "").replace(" ", "").upper()[:20] or None
    return {
        "country": str(country or ours_country or "")[:2].upper() or None,
        "vat_id": vat_id,
        "vat_id_status": ours_status if vat_id and vat_id == ours_vat_id else None,
    }
